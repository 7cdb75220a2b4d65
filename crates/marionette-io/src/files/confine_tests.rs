//! Tests of the file rule ([`super`]).
use super::*;

fn temp(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("marionette-confine-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("in/sub")).unwrap();
    dir
}

/// Inside the scope is read; `..`, absolute paths and links leading out are refused with a
/// message naming the path as written, where it leads and the rule.
#[test]
fn scope_rule() {
    let dir = temp("scope");
    std::fs::write(dir.join("in/sub/a.bin"), b"abc").unwrap();
    std::fs::write(dir.join("secret"), b"s").unwrap();
    let scope = Scope::new(ScopeKind::GltfFolder, &dir.join("in")).unwrap();
    let root = scope.root().to_path_buf();
    let (bytes, _) = scope
        .read(&dir.join("in/sub/a.bin"), "sub/a.bin", None)
        .unwrap();
    assert_eq!(bytes, b"abc");
    let (bytes, _) = scope
        .read(&dir.join("in/sub/a.bin"), "sub/a.bin", Some(2))
        .unwrap();
    assert_eq!(bytes, b"ab");
    let e = scope
        .check(&dir.join("in/../secret"), "../secret")
        .unwrap_err();
    let real = root.parent().unwrap().join("secret");
    assert_eq!(
        e.to_string(),
        format!(
            "'../secret' leads to {}, outside the glTF's folder {}: refused (a glTF may only \
             name files in its own folder; to trust it, add its folder to MARIONETTE_ALLOW_READ)",
            real.display(),
            root.display()
        )
    );
    assert!(e.is_refusal());
    // a missing file outside is still "outside", a missing one inside is "not found"
    let e = scope
        .check(&dir.join("in/../nothing"), "../nothing")
        .unwrap_err();
    assert!(matches!(e, ReadError::Outside { .. }), "{e}");
    let e = scope.check(&dir.join("in/nothing"), "nothing").unwrap_err();
    assert!(e.is_not_found(), "{e}");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(dir.join("secret"), dir.join("in/link")).unwrap();
        let e = scope.check(&dir.join("in/link"), "link").unwrap_err();
        assert!(
            e.to_string()
                .starts_with(&format!("'link' is a link to {}, outside", real.display())),
            "{e}"
        );
        let e = scope.check(Path::new("/etc"), "/etc").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("'/etc' is outside the glTF's folder"),
            "{e}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Folders, FIFOs and devices are refused before reading; a text file over the limit is an
/// error naming the limit.
#[test]
fn only_regular_files() {
    let dir = temp("regular");
    let e = read_regular(&dir.join("in"), "in", None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "'in' is a folder, not a regular file: refused (reading it could block or never end)"
    );
    #[cfg(unix)]
    {
        let e = read_regular(Path::new("/dev/zero"), "/dev/zero", None).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("'/dev/zero' is a character device"),
            "{e}"
        );
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo failed");
        let e = read_regular(&fifo, "fifo", None).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("'fifo' is a FIFO, not a regular file"),
            "{e}"
        );
    }
    std::fs::write(dir.join("big.lua"), "x".repeat(100)).unwrap();
    let e = read_text(&dir.join("big.lua"), "big.lua", 10).unwrap_err();
    assert_eq!(
        e.to_string(),
        "cannot read 'big.lua': the file is larger than 10 bytes"
    );
    assert_eq!(
        read_text(&dir.join("big.lua"), "big.lua", 100)
            .unwrap()
            .len(),
        100
    );
    let _ = std::fs::remove_dir_all(&dir);
}
