//! The SoA runtime on a real file: every frame of every clip of the Fox (a public glTF sample)
//! through the SoA and scalar paths, with the measure the anim crate's unit tests use on the
//! mannequin ([`marionette_anim::soa::playback_difference`]).

use crate::common;

use marionette_anim::soa::{playback_difference, SoaClip};

/// The largest difference allowed (as in the anim crate's SoA unit tests).
const TOL: f32 = 1e-6;

/// The Fox (public glTF sample, `../shared/testdata/gltf` or `MARIONETTE_TESTDATA`): every
/// frame of every clip at 60 fps within [`TOL`], each clip one key group. Skipped with a
/// message when the models are missing locally; fails under CI.
#[test]
fn fox_playback_within_tolerance_in_model_space() {
    let Some(path) = common::testdata_file("Fox.glb") else {
        return;
    };
    let model = marionette_io::import(&path).unwrap();
    assert!(model.clips.len() >= 3);
    for clip in &model.clips {
        let soa = SoaClip::new(clip, &model.skeleton);
        assert_eq!(
            (soa.groups(), soa.loose_channels()),
            (1, 0),
            "{}",
            clip.name
        );
    }
    let (local, world) = playback_difference(&model);
    eprintln!("Fox: local {local:e}, model {world:e}");
    assert!(local <= TOL && world <= TOL, "local {local}, model {world}");
}
