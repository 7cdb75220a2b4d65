//! Cancelling a bake: through the job's flag (the editor's Cancel button) or Ctrl-C on
//! `marionette bake`, the bake stops between frames, writes nothing and says so.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::bake_support::TempDir;
use marionette_bake::{run, BakeError, BakeJob, BakeProgress, BakeSource};

/// A script whose one take is slow to bake: `post` spends ~100k instructions a frame over
/// 3001 frames.
const SLOW: &str = "local rig = marionette.rig()\n\
return graph {\n  root = rig.idle,\n  post = function(pose, ctx) for _ = 1, 100000 do end end,\n  \
takes = { long = { duration = 100 } },\n}\n";

/// Files in `dir` other than the script.
fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n != "slow.lua")
        .collect()
}

/// Cancelling from the progress callback (as another thread would) stops the bake within a
/// frame: `Cancelled`, no output and no temp file; the same job then bakes when not cancelled.
#[test]
fn cancelled_job_writes_nothing() {
    let dir = TempDir::new("bake-cancel");
    let script = dir.join("slow.lua");
    std::fs::write(&script, SLOW).expect("write script");
    let out = dir.join("out.glb");
    let job = BakeJob::new(
        BakeSource::Script {
            script: script.clone(),
            rig: Default::default(),
        },
        &out,
    );
    let cancel = job.cancel.clone();
    let mut sampled = 0;
    let r = run(&job, &mut |p| {
        if let BakeProgress::Sampling { done, .. } = p {
            sampled = done;
            if done == 10 {
                cancel.cancel();
            }
        }
    });
    assert!(matches!(r, Err(BakeError::Cancelled)), "{r:?}");
    assert_eq!(sampled, 10, "the bake went on after the cancel");
    assert_eq!(
        r.err().map(|e| e.to_string()).as_deref(),
        Some("bake cancelled; nothing was written")
    );
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
}

/// Ctrl-C (SIGINT) during `marionette bake` stops it: an error saying nothing was written, a
/// non-zero exit, and no output file.
#[cfg(unix)]
#[test]
fn ctrl_c_cancels_the_cli_bake() {
    let dir = TempDir::new("bake-ctrl-c");
    let script = dir.join("slow.lua");
    std::fs::write(&script, SLOW).expect("write script");
    let out = dir.join("out.glb");
    let mut child = crate::common::marionette_cmd()
        .args(["bake"])
        .arg(&script)
        .arg("-o")
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    // The progress bar shows after a second of sampling: the handler is installed by then.
    let mut stderr = child.stderr.take().expect("stderr");
    let mut seen = Vec::new();
    let mut buf = [0u8; 256];
    while !String::from_utf8_lossy(&seen).contains("sampling long") {
        let n = stderr.read(&mut buf).expect("read stderr");
        assert!(
            n > 0,
            "bake ended early: {}",
            String::from_utf8_lossy(&seen)
        );
        seen.extend_from_slice(&buf[..n]);
    }
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(kill.success());
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).expect("read stderr");
    let status = child.wait().expect("exits");
    assert!(!status.success(), "exit {status:?}");
    assert!(
        rest.contains("bake cancelled (Ctrl-C); nothing was written"),
        "{rest}"
    );
    assert!(!out.exists());
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
}
