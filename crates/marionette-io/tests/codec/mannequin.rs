//! The bundled mannequin: committed asset is up to date, passes the Khronos validator, has the
//! promised structure, plausible geometry and motion, and survives an import round trip.

use std::path::{Path, PathBuf};
use std::process::Command;

use glam::{Mat4, Vec3};
use marionette_anim::mannequin;
use marionette_anim::Model;
use marionette_anim::{Clip, Transform};
use marionette_io::{to_glb, to_gltf};

const ASSET: &str = "assets/mannequin.glb";

fn root() -> PathBuf {
    marionette_testkit::repo_root()
}

/// Local pose of every joint at key `k` of a clip (all mannequin tracks share key times).
fn pose_at_key(model: &Model, clip: &Clip, k: usize) -> Vec<Transform> {
    let mut pose = model.skeleton.rest_pose().to_vec();
    for jt in &clip.tracks {
        let p = &mut pose[jt.joint as usize];
        if let Some(t) = &jt.translation {
            p.translation = t.values[k];
        }
        if let Some(t) = &jt.rotation {
            p.rotation = t.values[k];
        }
    }
    pose
}

fn world(model: &Model, pose: &[Transform]) -> Vec<Mat4> {
    let mut out: Vec<Mat4> = Vec::with_capacity(pose.len());
    for (j, t) in pose.iter().enumerate() {
        let m = match model.skeleton.parents()[j] {
            Some(p) => out[p as usize] * t.to_matrix(),
            None => model.skeleton.armature() * t.to_matrix(),
        };
        out.push(m);
    }
    out
}

/// Skinned vertex positions of mesh 0 under a pose.
fn skinned(model: &Model, pose: &[Transform]) -> Vec<Vec3> {
    let w = world(model, pose);
    let skin = &model.skins[0];
    let palette: Vec<Mat4> = skin
        .joints
        .iter()
        .zip(&skin.inverse_bind)
        .map(|(&j, ibm)| w[j as usize] * *ibm)
        .collect();
    let mesh = &model.meshes[0];
    mesh.positions
        .iter()
        .zip(mesh.joints.iter().zip(&mesh.weights))
        .map(|(p, (js, ws))| {
            (0..4)
                .map(|i| palette[js[i] as usize].transform_point3(*p) * ws[i])
                .sum()
        })
        .collect()
}

fn clip<'a>(model: &'a Model, name: &str) -> &'a Clip {
    model.clips.iter().find(|c| c.name == name).unwrap()
}

fn keys(c: &Clip) -> usize {
    c.tracks[0].rotation.as_ref().map_or_else(
        || c.tracks[0].translation.as_ref().unwrap().len(),
        |t| t.len(),
    )
}

/// The committed asset is exactly what the code generates today.
#[test]
fn committed_asset_is_current() {
    let fresh = to_glb(&mannequin::build()).unwrap();
    let again = to_glb(&mannequin::build()).unwrap();
    assert!(
        fresh == again,
        "two builds differ: the mannequin is not deterministic"
    );
    let committed = std::fs::read(root().join(ASSET)).unwrap_or_default();
    assert!(
        committed == fresh,
        "{ASSET} is out of date ({} bytes committed, {} generated); regenerate it with \
         `cargo run -- mannequin` and commit the result",
        committed.len(),
        fresh.len()
    );
}

/// The committed puppet (`scripts/puppet.glb`, which `scripts/retarget.lua` names) is exactly
/// what the code generates today, deterministically, and the validator accepts it.
#[test]
fn committed_puppet_is_current_and_valid() {
    let puppet = marionette_anim::mannequin::puppet::build;
    let fresh = to_glb(&puppet()).unwrap();
    assert!(
        fresh == to_glb(&puppet()).unwrap(),
        "the puppet is not deterministic"
    );
    let path = root().join("scripts/puppet.glb");
    let committed = std::fs::read(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "scripts/puppet.glb is out of date ({} bytes committed, {} generated); regenerate it          with `cargo run -- mannequin --puppet --force` and commit the result",
        committed.len(),
        fresh.len()
    );
    if validator_ready() {
        let text = run_validator(&[&path]);
        assert!(text.contains(" 0 errors, 0 warnings"), "{text}");
    }
}

/// The committed creature (`scripts/creature.glb`, which `scripts/creature.lua` names) is what
/// the code generates today and the validator accepts it; its ears' springs
/// (`VRMC_springBone`) read back as they were written.
#[test]
fn committed_creature_is_current_and_valid() {
    let creature = marionette_anim::mannequin::creature::build;
    let fresh = to_glb(&creature()).unwrap();
    assert!(
        fresh == to_glb(&creature()).unwrap(),
        "the creature is not deterministic"
    );
    let path = root().join("scripts/creature.glb");
    let committed = std::fs::read(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "scripts/creature.glb is out of date ({} bytes committed, {} generated); regenerate it \
         with `cargo run -- mannequin --creature --force` and commit the result",
        committed.len(),
        fresh.len()
    );
    let back = marionette_io::import(&path).expect("imports");
    assert_eq!(back.skeleton.springs(), creature().skeleton.springs());
    assert!(back.warnings.is_empty(), "{:?}", back.warnings);
    if validator_ready() {
        let text = run_validator(&[&path]);
        assert!(text.contains(" 0 errors, 0 warnings"), "{text}");
    }
}

fn validator_ready() -> bool {
    let present = root().join("tests/js/node_modules/gltf-validator").exists();
    if !present {
        assert!(
            std::env::var_os("CI").is_none(),
            "tests/js/node_modules is missing under CI: run `npm ci --prefix tests/js`"
        );
        eprintln!("skipped: run `npm ci --prefix tests/js` to install the glTF validator");
    }
    present
}

fn run_validator(files: &[&Path]) -> String {
    let out = Command::new("node")
        .arg(root().join("tests/js/validate.mjs"))
        .args(files)
        .output()
        .expect("cannot run node");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "validator reports errors:\n{text}");
    text
}

/// The Khronos validator finds no errors and no warnings, as .glb and as .gltf + .bin.
#[test]
fn khronos_validator_accepts_glb_and_gltf() {
    if !validator_ready() {
        return;
    }
    let model = mannequin::build();
    let dir = std::env::temp_dir().join(format!("marionette-mannequin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let glb = dir.join("mannequin.glb");
    std::fs::write(&glb, to_glb(&model).unwrap()).unwrap();
    let (json, bin) = to_gltf(&model, "mannequin.bin").unwrap();
    let gltf = dir.join("mannequin.gltf");
    std::fs::write(&gltf, json).unwrap();
    std::fs::write(dir.join("mannequin.bin"), bin).unwrap();
    let text = run_validator(&[&glb, &gltf]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(text.matches(" 0 errors, 0 warnings").count(), 2, "{text}");
}

/// Joints, sides, skin weights and clips are as documented.
#[test]
fn structure() {
    let m = mannequin::build();
    let names = m.skeleton.names();
    assert_eq!(names.len(), 24);
    for n in names.iter().filter(|n| n.starts_with("L_")) {
        let mirror = format!("R_{}", &n[2..]);
        assert!(names.contains(&mirror), "{n} has no {mirror}");
    }
    for n in [
        "root",
        "pelvis",
        "spine_01",
        "chest",
        "neck",
        "head",
        "L_upperarm",
        "R_toe",
    ] {
        assert!(m.skeleton.find(n).is_some(), "missing {n}");
    }
    let mesh = &m.meshes[0];
    assert!(
        (3000..=8000).contains(&mesh.positions.len()),
        "{} vertices",
        mesh.positions.len()
    );
    for (js, ws) in mesh.joints.iter().zip(&mesh.weights) {
        let sum: f32 = ws.iter().sum();
        assert!((sum - 1.0).abs() < 1e-6, "weights {ws:?}");
        assert!(ws.iter().all(|w| (0.0..=1.0).contains(w)));
        assert!(js.iter().all(|&j| (j as usize) < 24));
    }
    for n in &mesh.normals {
        assert!((n.length() - 1.0).abs() < 1e-4);
    }
    let expect = [
        ("idle", 2.4),
        ("walk", 1.1),
        ("run", 0.7),
        ("jump", 1.0),
        ("wave", 2.0),
    ];
    let got: Vec<(&str, f32)> = m
        .clips
        .iter()
        .map(|c| (c.name.as_str(), c.duration()))
        .collect();
    assert_eq!(got.len(), expect.len());
    for ((n, d), (en, ed)) in got.iter().zip(expect) {
        assert_eq!(*n, en);
        assert!((d - ed).abs() < 1e-5, "{n}: {d}");
    }
    // Loops end on their first key (root motion aside); wave moves the right arm only.
    for name in ["idle", "walk", "run", "wave"] {
        let c = clip(&m, name);
        for jt in &c.tracks {
            let r = jt
                .rotation
                .as_ref()
                .map(|t| (t.values[0], *t.values.last().unwrap()));
            if let Some((a, b)) = r {
                assert_eq!(a, b, "{name} joint {}", jt.joint);
            }
        }
    }
    // Rotation keys stay in one hemisphere from key to key (no long-way-round interpolation).
    for c in &m.clips {
        for jt in &c.tracks {
            if let Some(r) = &jt.rotation {
                assert!(
                    r.values.windows(2).all(|w| w[0].dot(w[1]) > 0.0),
                    "{} joint {}",
                    c.name,
                    jt.joint
                );
                assert!(r.values.iter().all(|q| (q.length() - 1.0).abs() < 1e-5));
            }
        }
    }
    for jt in &clip(&m, "wave").tracks {
        assert!(
            m.skeleton.name(jt.joint).starts_with("R_"),
            "wave moves {}",
            m.skeleton.name(jt.joint)
        );
    }
}

/// About 1.8 m tall, feet on the ground in the bind pose and throughout idle; walk and run
/// move forward at their speeds without pushing the feet through the ground.
#[test]
fn geometry_and_motion() {
    let m = mannequin::build();
    let bind = &m.meshes[0].positions;
    let (lo, hi) = bind.iter().fold((f32::MAX, f32::MIN), |(lo, hi), p| {
        (lo.min(p.y), hi.max(p.y))
    });
    println!("bind pose height: {lo:.4} .. {hi:.4}");
    assert!(lo.abs() < 0.005 && (1.75..1.85).contains(&hi));
    let rest = skinned(&m, m.skeleton.rest_pose());
    assert!(
        rest.iter().zip(bind).all(|(a, b)| a.abs_diff_eq(*b, 1e-4)),
        "rest skinning moves vertices"
    );
    for name in ["idle", "walk", "run", "jump", "wave"] {
        let c = clip(&m, name);
        let (mut min_y, mut max_min_y) = (f32::MAX, f32::MIN);
        for k in 0..keys(c) {
            let v = skinned(&m, &pose_at_key(&m, c, k));
            let y = v.iter().map(|p| p.y).fold(f32::MAX, f32::min);
            min_y = min_y.min(y);
            max_min_y = max_min_y.max(y);
        }
        println!(
            "{name}: lowest vertex over keys {min_y:.4}, highest per-key lowest {max_min_y:.4}"
        );
        assert!(min_y > -0.012, "{name} goes through the ground: {min_y}");
        // Running has flight phases; the jump leaves the ground on purpose.
        if name != "jump" && name != "run" {
            assert!(max_min_y < 0.012, "{name} leaves the ground: {max_min_y}");
        }
    }
    for (name, speed) in [("walk", 1.4), ("run", 4.0)] {
        let c = clip(&m, name);
        let root = c
            .tracks
            .iter()
            .find(|t| t.joint == 0)
            .and_then(|t| t.translation.as_ref())
            .unwrap();
        let v = (root.values.last().unwrap().z - root.values[0].z) / c.duration();
        assert!((v - speed).abs() < 1e-3, "{name} root speed {v}");
    }
}

/// Left foot planted at phase 0 in walk and run: its world position barely moves over the
/// first part of its stance, while the right foot is in the air or landing at phase 0.5.
#[test]
fn foot_contact_phase() {
    let m = mannequin::build();
    let foot = m.skeleton.find("L_foot").unwrap() as usize;
    let rfoot = m.skeleton.find("R_foot").unwrap() as usize;
    for name in ["walk", "run"] {
        let c = clip(&m, name);
        let n = keys(c) - 1;
        let at = |k: usize, j: usize| world(&m, &pose_at_key(&m, c, k))[j].w_axis.truncate();
        let a = at(n / 10, foot);
        let b = at(n / 10 + 2, foot);
        println!(
            "{name}: left ankle drift over 2 stance keys {:.4}",
            (a - b).length()
        );
        assert!(
            (a - b).length() < 0.03,
            "{name}: left foot slides {a} -> {b}"
        );
        let r0 = at(0, rfoot);
        let rh = at(n / 2, rfoot);
        assert!(
            rh.y < r0.y + 0.02 || name == "run",
            "{name}: right foot not down at 0.5"
        );
    }
}

/// The jump starts and ends in the idle's first pose, so a state machine can cut between them.
#[test]
fn jump_starts_and_ends_in_idle_pose() {
    let m = mannequin::build();
    let idle = pose_at_key(&m, clip(&m, "idle"), 0);
    let jump = clip(&m, "jump");
    for k in [0, keys(jump) - 1] {
        for (j, (a, b)) in pose_at_key(&m, jump, k).iter().zip(&idle).enumerate() {
            assert!(
                a.abs_diff_eq(b, 1e-5),
                "jump key {k} joint {}: {a:?} vs {b:?}",
                m.skeleton.name(j as u16)
            );
        }
    }
}

/// Importing the exported file gives back the same skeleton, skin, mesh and clip keys.
#[test]
fn import_round_trip() {
    let m = mannequin::build();
    let bytes = to_glb(&m).unwrap();
    let back = marionette_io::import_slice(&bytes, None, "mannequin.glb").unwrap();
    assert_eq!(back.skeleton.names(), m.skeleton.names());
    assert_eq!(back.skeleton.parents(), m.skeleton.parents());
    for (a, b) in back.skeleton.rest_pose().iter().zip(m.skeleton.rest_pose()) {
        assert!(a.abs_diff_eq(b, 1e-6), "{a:?} vs {b:?}");
    }
    assert_eq!(back.skins.len(), 1);
    assert_eq!(back.skins[0].joints, m.skins[0].joints);
    for (a, b) in back.skins[0]
        .inverse_bind
        .iter()
        .zip(&m.skins[0].inverse_bind)
    {
        assert!(a.abs_diff_eq(*b, 1e-6));
    }
    // the body and the face (with its morph targets)
    assert_eq!(back.meshes.len(), 2);
    for (a, b) in back.meshes.iter().zip(&m.meshes) {
        assert!(a.positions == b.positions, "positions differ");
        assert!(a.normals == b.normals, "normals differ");
        assert!(a.uvs == b.uvs, "uvs differ");
        assert!(a.indices == b.indices, "indices differ");
        // Influences compare as sets: an importer may reorder them (e.g. strongest first).
        let influences = |m: &marionette_anim::SkinnedMesh, v: usize| {
            let mut inf: Vec<(u16, u32)> = (0..4)
                .filter(|&i| m.weights[v][i] > 0.0)
                .map(|i| (m.joints[v][i], m.weights[v][i].to_bits()))
                .collect();
            inf.sort();
            inf
        };
        let differing = (0..b.positions.len())
            .filter(|&v| influences(a, v) != influences(b, v))
            .count();
        assert_eq!(
            differing, 0,
            "vertices whose influences differ after import"
        );
        assert_eq!(a.base_color, b.base_color);
        assert_eq!(a.targets, b.targets, "{}", a.name);
        assert_eq!(a.morph_set, b.morph_set, "{}", a.name);
    }
    let (sa, sb) = (back.skeleton.morphs().sets(), m.skeleton.morphs().sets());
    assert_eq!(sa.len(), 1);
    assert_eq!((&sa[0].name, &sa[0].targets), (&sb[0].name, &sb[0].targets));
    assert_eq!(
        (&sa[0].defaults, sa[0].joint),
        (&sb[0].defaults, sb[0].joint)
    );
    assert_eq!(back.clips.len(), m.clips.len());
    for (ca, cb) in back.clips.iter().zip(&m.clips) {
        assert_eq!(ca.name, cb.name);
        assert_eq!(ca.tracks.len(), cb.tracks.len(), "{}", ca.name);
        for (ta, tb) in ca.tracks.iter().zip(&cb.tracks) {
            assert_eq!(ta.joint, tb.joint);
            assert_eq!(ta.rotation.is_some(), tb.rotation.is_some());
            if let (Some(ra), Some(rb)) = (&ta.rotation, &tb.rotation) {
                assert_eq!(ra.times, rb.times);
                assert_eq!(ra.interpolation, rb.interpolation);
                for (qa, qb) in ra.values.iter().zip(&rb.values) {
                    assert!(qa.abs_diff_eq(*qb, 1e-6), "{} joint {}", ca.name, ta.joint);
                }
            }
            assert_eq!(ta.translation.is_some(), tb.translation.is_some());
            if let (Some(x), Some(y)) = (&ta.translation, &tb.translation) {
                assert!(x
                    .values
                    .iter()
                    .zip(&y.values)
                    .all(|(p, q)| p.abs_diff_eq(*q, 1e-6)));
            }
        }
    }
}
