//! Compact output against real clients: a dense capture made in Blender
//! (`tests/fixtures/dense/make_dense.py`, 6 s of it: 30 joints, 120 fps, 0.5 degree of jitter on
//! every joint) baked by `marionette bake` with 16-bit rotation keys (the default) and with
//! `--quantize off`. The compact file is within 40% of the source's bytes at 0.1 mm, smaller at
//! 1 mm, passes the Khronos validator, and three.js plays it (16-bit keys as three.js decodes
//! them, not renormalised) within the budget and the bake's own report, on every vertex of the
//! body. `--quantize off` writes no 16-bit key. A re-bake reproduces the compact file.

use std::path::Path;

use serde_json::Value;

use crate::bake_support::{bake_cli, node, node_ready, root, validate, TempDir};

/// Bakes `source` to `out` with `args`; the report's max error in mm.
fn bake(source: &Path, out: &Path, args: &[&str]) -> f64 {
    let report = bake_cli(source, out, args);
    report[0]
        .mm
        .get("max")
        .copied()
        .expect("a max in the report")
}

/// Rotation output accessors of `file`'s animations: (normalized SHORT, float).
fn rotation_outputs(file: &Path) -> (usize, usize) {
    let doc = marionette_io::Document::read(file).unwrap();
    let j = &doc.json;
    let (mut short, mut float) = (0, 0);
    for a in j["animations"].as_array().unwrap() {
        for c in a["channels"].as_array().unwrap() {
            if c["target"]["path"] != "rotation" {
                continue;
            }
            let s = &a["samplers"][c["sampler"].as_u64().unwrap() as usize];
            let acc = &j["accessors"][s["output"].as_u64().unwrap() as usize];
            match acc["componentType"].as_u64() {
                Some(5122) => {
                    assert_eq!(acc["normalized"], true);
                    short += 1;
                }
                Some(5126) => float += 1,
                other => panic!("rotation output of type {other:?}"),
            }
        }
    }
    (short, float)
}

#[test]
fn dense_capture_compact_in_three_and_validator() {
    let test = "dense_capture_compact_in_three_and_validator";
    let (Some(()), Some(())) = (crate::blender::blender(test), node_ready(test)) else {
        return;
    };
    let dir = TempDir::new("compact");
    let source = dir.path().join("dense.glb");
    let out = std::process::Command::new("blender")
        .args(["-b", "--factory-startup", "--python-exit-code", "1", "-P"])
        .arg(root().join("tests/fixtures/dense/make_dense.py"))
        .arg("--")
        .arg(&source)
        .arg("6")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let size = |p: &Path| std::fs::metadata(p).unwrap().len() as f64;
    let (on, off, loose) = (
        dir.path().join("on.glb"),
        dir.path().join("off.glb"),
        dir.path().join("loose.glb"),
    );
    let on_max = bake(&source, &on, &[]);
    let off_max = bake(&source, &off, &["--quantize", "off"]);
    let loose_max = bake(&source, &loose, &["--tolerance-mm", "1"]);
    let ratio = size(&on) / size(&source);
    println!(
        "source {} bytes; 0.1 mm {:.1}% (off {:.1}%), 1 mm {:.1}%",
        size(&source),
        ratio * 100.0,
        size(&off) / size(&source) * 100.0,
        size(&loose) / size(&source) * 100.0
    );
    assert!(ratio <= 0.40, "{ratio}");
    assert!(size(&loose) < size(&on) && size(&on) < size(&off));
    let (short, float) = rotation_outputs(&on);
    assert!(short >= 10, "{short} 16-bit, {float} float");
    assert_eq!(rotation_outputs(&off).0, 0);
    assert_eq!(
        rotation_outputs(&loose).1,
        0,
        "every channel 16-bit at 1 mm"
    );
    for f in [&on, &loose] {
        let (errors, text) = validate(f);
        assert_eq!(errors, 0, "{text}");
    }
    // three.js, every vertex of the body on the source's scene
    let text = node("compare_compact.mjs", &[&source, &on, &off, &loose]);
    let rows: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for (row, (report, budget)) in
        rows.iter()
            .zip([(on_max, 0.1), (off_max, 0.1), (loose_max, 1.0)])
    {
        let worst = row["worst_mm"].as_f64().unwrap();
        println!(
            "{}: worst {worst:.4} mm, report {report:.4} mm",
            row["file"]
        );
        assert!(worst <= budget && worst <= report * 1.001 + 1e-6, "{row}");
    }
    // a re-bake of the compact bake reproduces it, byte for byte
    let again = dir.path().join("again.glb");
    bake(&on, &again, &[]);
    assert!(std::fs::read(&again).unwrap() == std::fs::read(&on).unwrap());
}
