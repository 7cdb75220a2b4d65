//! The library entry point `marionette_bake::run`, as the editor calls it: a script job
//! reports progress frame by frame and a per-take report matching the written file, and gives
//! the same bytes as `marionette bake`; a rig job bakes named clips; bad jobs are errors that
//! name the problem and write nothing.

use std::path::PathBuf;

use crate::bake_support::*;
use marionette_bake::{run, BakeError, BakeJob, BakeProgress, BakeSource, Selection};
use marionette_io::import;

fn locomotion() -> BakeSource {
    BakeSource::Script {
        script: root().join("scripts/locomotion.lua"),
        rig: marionette_script::rigs::RigChoice::fallback(root().join("assets/mannequin.glb")),
    }
}

/// locomotion.lua on the 256-joint production rig, written into `dir`.
fn production(dir: &std::path::Path) -> BakeSource {
    let rig = dir.join("production.glb");
    let model = marionette_anim::mannequin::production::build(256);
    let doc = marionette_io::to_document(&model).unwrap();
    marionette_io::write_document(&doc, &rig, true, &[]).unwrap();
    BakeSource::Script {
        script: root().join("scripts/locomotion.lua"),
        rig: marionette_script::rigs::RigChoice::given(Some(&rig)),
    }
}

/// What the callback heard, owned.
#[derive(Debug, PartialEq)]
enum Heard {
    Loading,
    Sampling(String, usize, usize, usize, usize),
    Reducing(String, usize, usize),
    Writing,
}

fn listen(log: &mut Vec<Heard>) -> impl FnMut(BakeProgress<'_>) + '_ {
    move |p| {
        log.push(match p {
            BakeProgress::Loading => Heard::Loading,
            BakeProgress::Sampling {
                take,
                index,
                count,
                done,
                total,
            } => Heard::Sampling(take.to_string(), index, count, done, total),
            BakeProgress::Reducing { take, index, count } => {
                Heard::Reducing(take.to_string(), index, count)
            }
            BakeProgress::Writing => Heard::Writing,
        })
    }
}

/// A script job: progress goes Loading, every frame of every take, Reducing per take, Writing;
/// the report names each take with its frames and keys, and the file it wrote (whose size it
/// gives) holds one animation per take. The bytes equal `marionette bake` with the same
/// settings.
#[test]
fn script_job_reports_progress_and_matches_the_cli() {
    let dir = TempDir::new("bake-job-script");
    let out = dir.join("lib.glb");
    let job = BakeJob::new(locomotion(), &out);
    let mut heard = Vec::new();
    let report = run(&job, &mut listen(&mut heard)).unwrap_or_else(|e| panic!("{e}"));

    assert_eq!(heard.first(), Some(&Heard::Loading));
    assert_eq!(heard.last(), Some(&Heard::Writing));
    let count = report.takes.len();
    assert!(count >= 2, "{report:?}");
    for (index, take) in report.takes.iter().enumerate() {
        let frames: Vec<(usize, usize)> = heard
            .iter()
            .filter_map(|h| match h {
                Heard::Sampling(t, i, c, done, total) if t == &take.name => {
                    assert_eq!((*i, *c), (index, count));
                    Some((*done, *total))
                }
                _ => None,
            })
            .collect();
        let total = take.stats.frames;
        assert_eq!(frames, (1..=total).map(|d| (d, total)).collect::<Vec<_>>());
        assert!(heard.contains(&Heard::Reducing(take.name.clone(), index, count)));
        assert!(take.stats.keys > 0 && take.stats.keys <= take.stats.raw_keys);
        assert!(take.stats.max_error <= 1e-4, "{take:?}");
        assert_eq!(take.output, out);
    }
    assert_eq!(report.files.len(), 1);
    assert_eq!(report.files[0].path, out);
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(report.files[0].bytes, bytes.len() as u64);
    let back = import(&out).unwrap();
    for take in &report.takes {
        assert!(
            back.clips.iter().any(|c| c.name == take.name),
            "{}",
            take.name
        );
    }

    let cli_out = dir.join("cli.glb");
    let o = crate::common::marionette_cmd()
        .args(["bake", "--quiet", "--rig"])
        .arg(root().join("assets/mannequin.glb"))
        .arg(root().join("scripts/locomotion.lua"))
        .arg("-o")
        .arg(&cli_out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(&cli_out).unwrap(), bytes);
}

/// A rig job bakes the named clips only (by name or index, once each, in the order named),
/// into an animation-only `.gltf` + `.bin` pair of the rig's joints, on a worker thread.
#[test]
fn rig_job_bakes_named_clips() {
    let dir = TempDir::new("bake-job-rig");
    let rig = root().join("assets/mannequin.glb");
    let model = import(&rig).unwrap();
    let first = model.clips[0].name.clone();
    let out = dir.join("clips.gltf");
    let job = BakeJob {
        selection: Selection::Named(vec!["1".into(), first.clone(), "1".into()]),
        fps: Some(24.0),
        animation_only: true,
        ..BakeJob::new(
            BakeSource::Clips {
                rig: rig.clone(),
                into: None,
            },
            &out,
        )
    };
    // the editor bakes on a worker thread: the job and the result cross threads
    let report = std::thread::spawn(move || run(&job, &mut |_| {}))
        .join()
        .unwrap()
        .unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = report.takes.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, vec![model.clips[1].name.as_str(), first.as_str()]);
    let files: Vec<PathBuf> = report.files.iter().map(|f| f.path.clone()).collect();
    assert_eq!(files, vec![dir.join("clips.bin"), out.clone()]);
    let back = import(&out).unwrap();
    assert_eq!(back.clips.len(), 2);
    // the importer keeps animated joints (and those between them): all of them the rig's
    assert!(back.skeleton.len() > 1);
    for name in back.skeleton.names() {
        assert!(model.skeleton.find(name).is_some(), "{name}");
    }
}

/// Bad jobs fail before anything is written: an unknown take names the takes there are, a
/// non-positive rate and an unknown output format are settings errors, a rig as its own
/// output is refused without `force`.
#[test]
fn bad_jobs_are_errors_and_write_nothing() {
    let dir = TempDir::new("bake-job-errors");
    let out = dir.join("out.glb");
    let unknown = BakeJob {
        selection: Selection::Named(vec!["nope".into()]),
        ..BakeJob::new(locomotion(), &out)
    };
    match run(&unknown, &mut |_| {}) {
        Err(e @ BakeError::Selection { .. }) => {
            assert!(e.to_string().contains("unknown take 'nope'"), "{e}");
            assert!(e.to_string().contains("walk_to_run"), "{e}");
        }
        other => panic!("{other:?}"),
    }
    let slow = BakeJob {
        fps: Some(0.0),
        ..BakeJob::new(locomotion(), &out)
    };
    assert!(matches!(
        run(&slow, &mut |_| {}),
        Err(BakeError::Settings(_))
    ));
    let fbx = BakeJob::new(locomotion(), dir.join("out.fbx"));
    assert!(matches!(run(&fbx, &mut |_| {}), Err(BakeError::Gltf(_))));
    let rig = dir.join("rig.glb");
    std::fs::copy(root().join("assets/mannequin.glb"), &rig).unwrap();
    let before = std::fs::read(&rig).unwrap();
    let own = BakeJob::new(
        BakeSource::Clips {
            rig: rig.clone(),
            into: None,
        },
        &rig,
    );
    let e = run(&own, &mut |_| {}).unwrap_err();
    assert!(e.to_string().contains("refusing to overwrite"), "{e}");
    assert_eq!(std::fs::read(&rig).unwrap(), before);
    let mut left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    left.sort();
    assert_eq!(left, vec!["rig.glb"]);
}

/// Takes given as data (what the editor's bake dialog passes): a data take equal to the
/// script's bakes the same bytes; an edited one replaces the script's take of its name (its
/// frames are the edited take's simulation, different from the script's); a take the script
/// does not have is baked after the script's.
#[test]
fn data_takes_replace_or_add() {
    use marionette_anim::graph::{ParamValue, Take};
    use marionette_bake::{bake_take, bake_take_data, ScriptBake};
    use marionette_script::preview::load_preview;

    let dir = TempDir::new("bake-job-data-takes");
    let script = root().join("scripts/locomotion.lua");
    let mut graph = load_preview(
        &script,
        &marionette_script::rigs::RigChoice::fallback(root().join("assets/mannequin.glb")),
    )
    .unwrap_or_else(|e| panic!("{e}"))
    .graph;
    let hello = graph.script().spec.take("hello").expect("hello").clone();

    let named = |out: &str, takes: Vec<Take>| {
        let mut job = BakeJob::new(locomotion(), dir.join(out));
        job.selection = Selection::Named(vec!["hello".into()]);
        job.takes = takes;
        run(&job, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
        std::fs::read(dir.join(out)).unwrap()
    };
    assert_eq!(
        named("plain.glb", vec![]),
        named("same.glb", vec![hello.clone()])
    );

    let mut edited = hello.clone();
    for track in &mut edited.tracks {
        if track.param == "wave" {
            track.keys = vec![(0.0, ParamValue::Float(0.0))];
        }
    }
    let options = ScriptBake::default();
    let script_frames = bake_take(&mut graph, "hello", &options, &mut |_, _| {}).unwrap();
    let same_frames = bake_take_data(&mut graph, &hello, &options, &mut |_, _| {}).unwrap();
    let edited_frames = bake_take_data(&mut graph, &edited, &options, &mut |_, _| {}).unwrap();
    assert_eq!(script_frames, same_frames);
    assert_eq!(edited_frames.frames.len(), script_frames.frames.len());
    assert_ne!(edited_frames.frames, script_frames.frames);
    assert_ne!(
        named("edited.glb", vec![edited.clone()]),
        named("plain2.glb", vec![])
    );

    let still = Take::new("still", 1.0).fps(30.0);
    let mut job = BakeJob::new(locomotion(), dir.join("all.glb"));
    job.takes = vec![edited, still];
    let report = run(&job, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = report.takes.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["hello", "walk_to_run", "still"]);
    assert_eq!(report.takes[2].stats.frames, 31);
    let back = import(&dir.join("all.glb")).unwrap();
    assert!(back.clips.iter().any(|c| c.name == "still"));
}

/// Limits checked before anything is sampled (issue 11): a rate outside 1..1000, a data take
/// (as the editor passes) over the frame limit or over the frames × joints limit, and an
/// existing output without `force` are errors that write nothing; with `force` the output is
/// replaced.
#[test]
fn limits_and_existing_outputs() {
    use marionette_anim::graph::Take;
    let dir = TempDir::new("bake-job-limits");
    let out = dir.join("out.glb");
    let fast = BakeJob {
        fps: Some(1001.0),
        ..BakeJob::new(locomotion(), &out)
    };
    let e = run(&fast, &mut |_| {}).unwrap_err();
    assert_eq!(e.to_string(), "fps 1001 is outside 1..1000");
    for (take, message) in [
        (
            Take::new("huge", 1e7),
            "take 'huge': 10000000 s at 60 fps is 600000001 frames, over the limit of 1000000; \
             shorten it or bake at a lower --fps",
        ),
        (
            // the 256-joint production rig: 786,001 frames x 256 joints is over 200 M (a 4000 s
            // take on the 24-joint mannequin is 5.8 M, and bakes)
            Take::new("wide", 13100.0),
            "take 'wide': 786001 frames x 256 joints is 201216256 samples, over the limit of \
             200000000; shorten it or bake at a lower --fps",
        ),
    ] {
        let source = if take.name == "wide" {
            production(&dir)
        } else {
            locomotion()
        };
        let job = BakeJob {
            selection: Selection::Named(vec![take.name.clone()]),
            takes: vec![take],
            ..BakeJob::new(source, &out)
        };
        let mut sampled = 0;
        let e = run(&job, &mut |p| {
            if matches!(p, BakeProgress::Sampling { .. }) {
                sampled += 1;
            }
        })
        .unwrap_err();
        assert_eq!(e.to_string(), message);
        assert_eq!(sampled, 0, "nothing is sampled");
    }
    assert!(!out.exists());
    std::fs::write(&out, b"old").unwrap();
    let job = BakeJob {
        selection: Selection::Named(vec!["hello".into()]),
        ..BakeJob::new(locomotion(), &out)
    };
    match run(&job, &mut |_| {}) {
        Err(e @ BakeError::Exists { .. }) => assert_eq!(
            e.to_string(),
            format!("'{}' exists; pass --force to replace it", out.display())
        ),
        other => panic!("{other:?}"),
    }
    assert_eq!(std::fs::read(&out).unwrap(), b"old");
    let forced = BakeJob { force: true, ..job };
    run(&forced, &mut |_| {}).unwrap();
    assert_eq!(import(&out).unwrap().clips.len(), 6);
}
