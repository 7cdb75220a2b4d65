//! Files a command may read (`marionette_io::files::confine`): a glTF's URIs stay in its folder, a
//! script's `require`, `io.open` and `marionette.rig()` stay in the project, only regular files
//! are read (a FIFO or device never blocks or reads forever), and `MARIONETTE_ALLOW_READ`
//! opts in to trusted folders. Every refusal names the path as written, where it leads and why.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;

use crate::script_common::{options, TempDir, MINIMAL};
use marionette_io::{import, Document};
use marionette_script::{load, HostOptions};
use serde_json::json;

/// Runs `f` on another thread and returns its result, failing the test (instead of hanging it)
/// if it takes more than 20 s: a FIFO that blocks would otherwise hang the suite.
fn within<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(Duration::from_secs(20)) {
        Ok(v) => v,
        Err(_) => panic!("{what} blocked for 20 s"),
    }
}

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo").arg(path).status();
    assert!(ok.is_ok_and(|s| s.success()), "mkfifo {}", path.display());
}

fn canonical(p: &Path) -> PathBuf {
    p.canonicalize()
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The rule's explanation for a glTF.
const GLTF_RULE: &str = "refused (a glTF may only name files in its own folder; to trust it, add \
                         its folder to MARIONETTE_ALLOW_READ)";
/// The rule's explanation for a script.
const SCRIPT_RULE: &str = "refused (the script sandbox reads only files inside the project \
                           folder; to trust it, add its folder to MARIONETTE_ALLOW_READ)";

/// A minimal glTF (one node, no animation) whose buffer is `uri` with `len` bytes.
fn gltf_with_buffer(uri: &str, len: usize) -> String {
    json!({
        "asset": {"version": "2.0"},
        "nodes": [{"name": "root"}],
        "buffers": [{"uri": uri, "byteLength": len}],
    })
    .to_string()
}

/// A glTF whose image is `uri`.
fn gltf_with_image(uri: &str) -> String {
    json!({
        "asset": {"version": "2.0"},
        "nodes": [{"name": "root"}],
        "images": [{"uri": uri}],
    })
    .to_string()
}

fn import_error(path: &Path) -> String {
    let path = path.to_path_buf();
    within("import", move || import(&path).err().map(|e| e.to_string()))
        .unwrap_or_else(|| panic!("imported"))
}

fn read_error(path: &Path) -> String {
    let path = path.to_path_buf();
    within("Document::read", move || {
        Document::read(&path).err().map(|e| e.to_string())
    })
    .unwrap_or_else(|| panic!("read"))
}

/// Buffer URIs going up (`../`), absolute (`/etc/passwd`, `/dev/zero`) or through a link that
/// leads out are refused by import and by bake's reader (which would copy them into the output).
#[test]
fn gltf_uris_stay_in_the_gltf_folder() {
    let dir = TempDir::new("uri-out");
    dir.write("secret.bin", "top secret");
    dir.write("model/inside.bin", "1234");
    let model = canonical(&dir.path().join("model"));
    let secret = canonical(&dir.path().join("secret.bin"));
    let file = dir.write("model/up.gltf", &gltf_with_buffer("../secret.bin", 10));
    let want = format!(
        "{}: buffers[0].uri: '../secret.bin' leads to {}, outside the glTF's folder {}: {GLTF_RULE}",
        file.display(),
        secret.display(),
        model.display()
    );
    assert_eq!(import_error(&file), want);
    assert_eq!(read_error(&file), want);

    let file = dir.write("model/abs.gltf", &gltf_with_buffer("/etc/passwd", 4));
    assert_eq!(
        import_error(&file),
        format!(
            "{}: buffers[0].uri: '/etc/passwd' is outside the glTF's folder {}: {GLTF_RULE}",
            file.display(),
            model.display()
        )
    );
    let file = dir.write("model/zero.gltf", &gltf_with_buffer("/dev/zero", 1 << 30));
    assert!(
        import_error(&file).contains("'/dev/zero' is outside the glTF's folder"),
        "{}",
        import_error(&file)
    );
    std::os::unix::fs::symlink(&secret, dir.path().join("model/link.bin")).expect("symlink");
    let file = dir.write("model/link.gltf", &gltf_with_buffer("link.bin", 4));
    assert_eq!(
        read_error(&file),
        format!(
            "{}: buffers[0].uri: 'link.bin' is a link to {}, outside the glTF's folder {}: \
             {GLTF_RULE}",
            file.display(),
            secret.display(),
            model.display()
        )
    );
    // inside the folder (and below it) is read
    let file = dir.write("model/ok.gltf", &gltf_with_buffer("inside.bin", 4));
    let doc = Document::read(&file).expect("inside");
    assert_eq!(&doc.bin[..4], b"1234");
}

/// An image outside the folder is refused too by bake's reader, which would copy it into the
/// output (import reads only images a textured mesh uses, through the same rule).
#[test]
fn gltf_images_stay_in_the_gltf_folder() {
    let dir = TempDir::new("img-out");
    dir.write("secret.png", "not really a png");
    let file = dir.write("model/img.gltf", &gltf_with_image("../secret.png"));
    // read around, not read: the refusal is a warning, the reference kept as written, and not a
    // byte of the file copied
    let doc = Document::read(&file).expect("reads, the image refused");
    let refusal = format!(
        "{}: images[0].uri: '../secret.png' leads to {}, outside the glTF's folder {}: \
         {GLTF_RULE}",
        file.display(),
        canonical(&dir.path().join("secret.png")).display(),
        canonical(&dir.path().join("model")).display()
    );
    assert_eq!(doc.warnings.len(), 1, "{:?}", doc.warnings);
    assert!(doc.warnings[0].starts_with(&refusal), "{}", doc.warnings[0]);
    assert_eq!(doc.json["images"][0]["uri"], "../secret.png");
    assert!(!String::from_utf8_lossy(&doc.bin).contains("not really"));
}

/// A buffer is read up to its declared byteLength, never more: a larger file is cut there.
#[test]
fn buffers_are_read_up_to_their_byte_length() {
    let dir = TempDir::new("cap");
    dir.write("model/big.bin", &"x".repeat(100_000));
    let file = dir.write("model/cap.gltf", &gltf_with_buffer("big.bin", 8));
    let doc = Document::read(&file).expect("reads");
    assert_eq!(doc.bin.len(), 8);
}

/// Non-regular files are refused before anything blocks: a FIFO or folder as the glTF, a FIFO
/// as a buffer (trusted folder or not), and /dev/zero even from a trusted folder (the CLI with
/// MARIONETTE_ALLOW_READ).
#[test]
fn non_regular_gltf_inputs_are_refused() {
    let dir = TempDir::new("fifo-gltf");
    let fifo = dir.path().join("rig.glb");
    mkfifo(&fifo);
    assert_eq!(
        import_error(&fifo),
        format!(
            "'{}' is a FIFO, not a regular file: refused (reading it could block or never end)",
            fifo.display()
        )
    );
    assert!(read_error(&fifo).contains("is a FIFO, not a regular file"));
    let folder = dir.path().join("folder.gltf");
    std::fs::create_dir_all(&folder).expect("dir");
    assert!(import_error(&folder).contains("is a folder, not a regular file"));
    mkfifo(&dir.path().join("pipe.bin"));
    let file = dir.write("pipe.gltf", &gltf_with_buffer("pipe.bin", 4));
    assert_eq!(
        import_error(&file),
        format!(
            "{}: buffers[0].uri: 'pipe.bin' is a FIFO, not a regular file: refused (reading it \
             could block or never end)",
            file.display()
        )
    );
    // trusted: /dev may be named, but /dev/zero is still not a regular file
    let file = dir.write("zero.gltf", &gltf_with_buffer("/dev/zero", 1 << 30));
    let out = within("marionette inspect", move || {
        crate::common::marionette_cmd()
            .args(["inspect"])
            .arg(&file)
            .env("MARIONETTE_ALLOW_READ", "/dev")
            .output()
            .expect("runs")
    });
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("buffers[0].uri: '/dev/zero' is a character device, not a regular file"),
        "{err}"
    );
}

/// MARIONETTE_ALLOW_READ lets a glTF name files in the folders it lists.
#[test]
fn trusted_folders_are_read() {
    let dir = TempDir::new("trust");
    dir.write("shared/data.bin", "1234");
    let file = dir.write("model/t.gltf", &gltf_with_buffer("../shared/data.bin", 4));
    let run = |trust: Option<&Path>| {
        let mut cmd = crate::common::marionette_cmd();
        cmd.arg("inspect").arg(&file);
        if let Some(t) = trust {
            cmd.env("MARIONETTE_ALLOW_READ", t);
        }
        cmd.output().expect("runs")
    };
    let refused = run(None);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("outside the glTF's folder"));
    let trusted = run(Some(&dir.path().join("shared")));
    assert!(
        trusted.status.success(),
        "{}",
        String::from_utf8_lossy(&trusted.stderr)
    );
}

fn script_error(path: &Path, opts: HostOptions) -> String {
    match load(path, &opts) {
        Ok(_) => panic!("{} loaded", path.display()),
        Err(e) => e.headline(),
    }
}

/// `require` of a link leading out of the project says it was refused and names the link
/// (it used to say `no file lib/link.lua`); `io.open` of it likewise.
#[test]
fn links_out_of_the_project_are_refused() {
    let outside = TempDir::new("outside");
    outside.write("secret.lua", "return { secret = true }\n");
    let real = canonical(&outside.path().join("secret.lua"));
    let dir = TempDir::new("links");
    std::fs::create_dir_all(dir.path().join("lib")).expect("lib");
    std::os::unix::fs::symlink(&real, dir.path().join("lib/link.lua")).expect("symlink");
    let root = canonical(dir.path());
    let main = dir.write(
        "main.lua",
        &format!("local s = require('lib.link')\n{MINIMAL}"),
    );
    assert_eq!(
        script_error(&main, options()),
        format!(
            "{}:1: require(\"lib.link\"): '{}' is a link to {}, outside the project folder {}: \
             {SCRIPT_RULE}",
            main.display(),
            dir.path().join("lib/link.lua").display(),
            real.display(),
            root.display()
        )
    );
    let main = dir.write(
        "main.lua",
        &format!("local f = io.open('lib/link.lua')\n{MINIMAL}"),
    );
    assert_eq!(
        script_error(&main, options()),
        format!(
            "{}:1: io.open(\"lib/link.lua\"): '{}' is a link to {}, outside the project folder \
             {}: {SCRIPT_RULE}",
            main.display(),
            dir.path().join("lib/link.lua").display(),
            real.display(),
            root.display()
        )
    );
}

/// A FIFO as the script, as a required module or as an `io.open`ed file is refused at once.
#[test]
fn non_regular_script_files_are_refused() {
    let dir = TempDir::new("fifo-lua");
    let fifo = dir.path().join("main.lua");
    mkfifo(&fifo);
    let err = within("load", move || {
        load(&fifo, &options()).err().map(|e| e.headline())
    });
    assert_eq!(
        err.as_deref().unwrap_or("loaded"),
        format!(
            "'{}' is a FIFO, not a regular file: refused (reading it could block or never end)",
            dir.path().join("main.lua").display()
        )
    );
    let dir = TempDir::new("fifo-req");
    mkfifo(&dir.path().join("pipe.lua"));
    let main = dir.write("main.lua", &format!("require('pipe')\n{MINIMAL}"));
    let err = within("require", move || script_error(&main, options()));
    assert!(
        err.ends_with("pipe.lua' is a FIFO, not a regular file: refused (reading it could block or never end)"),
        "{err}"
    );
    assert!(err.contains(":1: require(\"pipe\"): '"), "{err}");
    let main = dir.write("main.lua", &format!("io.open('pipe.lua')\n{MINIMAL}"));
    let err = within("io.open", move || script_error(&main, options()));
    assert!(err.contains("io.open(\"pipe.lua\"): '"), "{err}");
    assert!(err.contains("is a FIFO"), "{err}");
}

/// `marionette.rig(path)` reads only inside the project: `../` and absolute paths are refused
/// with the rule, a FIFO inside is refused as not regular, and a rig inside loads.
#[test]
fn rig_paths_stay_in_the_project() {
    let dir = TempDir::new("rigpath");
    let glb = std::fs::read(script_common_repo("assets/mannequin.glb")).expect("mannequin");
    std::fs::write(dir.path().join("mannequin.glb"), &glb).expect("copy");
    std::fs::create_dir_all(dir.path().join("project")).expect("project");
    mkfifo(&dir.path().join("project/pipe.glb"));
    let root = canonical(&dir.path().join("project"));
    let with_rig = |rel: &str| {
        let main = dir.write(
            "project/main.lua",
            &format!("local rig = marionette.rig('{rel}')\nreturn graph {{ root = rig.idle }}\n"),
        );
        within("marionette.rig", move || {
            let (loader, _) = marionette_script::rigs::rig_loader(&main, &Default::default());
            load(&main, &HostOptions::new(loader))
                .map(|_| ())
                .map_err(|e| e.headline())
        })
    };
    let err = with_rig("../mannequin.glb").unwrap_err();
    assert!(
        err.ends_with(&format!(
            "'../mannequin.glb' leads to {}, outside the project folder {}: {SCRIPT_RULE}",
            canonical(&dir.path().join("mannequin.glb")).display(),
            root.display()
        )),
        "{err}"
    );
    let abs = canonical(&dir.path().join("mannequin.glb"));
    let err = with_rig(&abs.display().to_string()).unwrap_err();
    assert!(err.contains("is outside the project folder"), "{err}");
    let err = with_rig("pipe.glb").unwrap_err();
    assert!(err.contains("is a FIFO, not a regular file"), "{err}");
    std::fs::write(dir.path().join("project/mannequin.glb"), &glb).expect("copy");
    with_rig("mannequin.glb").expect("a rig inside the project loads");
}

fn script_common_repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}
