//! Unit tests of the key and trigger edit operations.

use super::*;
use glam::Vec3;

/// The value of `param` in `take` at time `t`, if it has keys.
fn value_of(take: &Take, param: &str, t: f32) -> Option<ParamValue> {
    track(take, param).and_then(|tr| value_at(tr, t))
}

fn take() -> Take {
    Take::new("t", 2.0)
        .fps(10.0)
        .floats("speed", &[(0.0, 0.0), (1.0, 1.0)])
}

fn times(take: &Take, param: &str) -> Vec<f32> {
    track(take, param)
        .map(|t| t.keys.iter().map(|k| k.0).collect())
        .unwrap_or_default()
}

/// Adding keys snaps them to frames, keeps them sorted and creates missing tracks.
#[test]
fn add_sorts_snaps_and_creates() {
    let mut t = take();
    assert_eq!(
        add_key(&mut t, "speed", 0.52, ParamValue::Float(3.0)),
        Ok(1)
    );
    assert_eq!(times(&t, "speed"), vec![0.0, 0.5, 1.0]);
    assert_eq!(add_key(&mut t, "look", 0.3, ParamValue::Bool(true)), Ok(0));
    let look = track(&t, "look").unwrap();
    assert_eq!(look.interpolation, KeyInterpolation::Step);
    assert_eq!(look.keys, vec![(0.3, ParamValue::Bool(true))]);
}

/// A key on an occupied frame replaces the key there.
#[test]
fn add_replaces_same_frame() {
    let mut t = take();
    assert_eq!(
        add_key(&mut t, "speed", 0.98, ParamValue::Float(7.0)),
        Ok(1)
    );
    assert_eq!(
        track(&t, "speed").unwrap().keys,
        vec![(0.0, ParamValue::Float(0.0)), (1.0, ParamValue::Float(7.0))]
    );
    assert_eq!(
        set_key_at(&mut t, "speed", 0.01, ParamValue::Float(2.0)),
        Ok(0)
    );
    assert_eq!(value_of(&t, "speed", 0.0), Some(ParamValue::Float(2.0)));
}

/// Kind mismatches, trigger values and non-finite numbers are refused, the take unchanged.
#[test]
fn add_refuses_bad_values() {
    let mut t = take();
    let before = t.clone();
    assert!(matches!(
        add_key(&mut t, "speed", 0.5, ParamValue::Bool(true)),
        Err(KeyError::Kind { .. })
    ));
    assert!(matches!(
        add_key(&mut t, "jump", 0.5, ParamValue::Trigger(true)),
        Err(KeyError::TriggerKey(_))
    ));
    assert!(matches!(
        add_key(&mut t, "speed", f32::NAN, ParamValue::Float(1.0)),
        Err(KeyError::NotFinite(_))
    ));
    assert_eq!(t, before);
}

/// Moving snaps, re-sorts, replaces a key on the target frame and returns the new index.
#[test]
fn move_snaps_and_resorts() {
    let mut t = take();
    add_key(&mut t, "speed", 0.5, ParamValue::Float(0.5)).unwrap();
    assert_eq!(
        move_key(&mut t, "speed", 0, 0.74, ParamValue::Float(9.0)),
        Ok(1)
    );
    assert_eq!(times(&t, "speed"), vec![0.5, 0.7, 1.0]);
    assert_eq!(value_of(&t, "speed", 0.7), Some(ParamValue::Float(9.0)));
    assert_eq!(
        move_key(&mut t, "speed", 1, 1.0, ParamValue::Float(4.0)),
        Ok(1)
    );
    assert_eq!(
        track(&t, "speed").unwrap().keys,
        vec![(0.5, ParamValue::Float(0.5)), (1.0, ParamValue::Float(4.0))]
    );
    assert!(matches!(
        move_key(&mut t, "speed", 5, 0.0, ParamValue::Float(0.0)),
        Err(KeyError::NoKey { index: 5, .. })
    ));
}

/// Deleting removes one key and keeps the (possibly empty) track.
#[test]
fn delete_keeps_track() {
    let mut t = take();
    assert_eq!(
        delete_key(&mut t, "speed", 1),
        Ok((1.0, ParamValue::Float(1.0)))
    );
    assert_eq!(
        delete_key(&mut t, "speed", 0),
        Ok((0.0, ParamValue::Float(0.0)))
    );
    assert!(track(&t, "speed").unwrap().keys.is_empty());
    assert!(delete_key(&mut t, "speed", 0).is_err());
    assert_eq!(value_of(&t, "speed", 0.5), None);
}

/// Interpolation toggles step/linear and changes the sampled value between keys.
#[test]
fn interpolation_toggle() {
    let mut t = take();
    assert_eq!(value_of(&t, "speed", 0.5), Some(ParamValue::Float(0.5)));
    assert!(set_interpolation(&mut t, "speed", KeyInterpolation::Step));
    assert!(!set_interpolation(&mut t, "speed", KeyInterpolation::Step));
    assert_eq!(value_of(&t, "speed", 0.5), Some(ParamValue::Float(0.0)));
    assert!(set_interpolation(&mut t, "new", KeyInterpolation::Step));
    assert!(track(&t, "new").unwrap().keys.is_empty());
}

/// Triggers are added snapped and sorted, moved (merging on one frame) and deleted.
#[test]
fn triggers_add_move_delete() {
    let mut t = take().trigger("jump", 1.0);
    assert_eq!(add_trigger(&mut t, "jump", 0.33), Ok(0));
    assert_eq!(add_trigger(&mut t, "land", 0.3), Ok(1));
    assert_eq!(add_trigger(&mut t, "jump", 0.31), Ok(1));
    assert_eq!(t.triggers.len(), 3);
    assert_eq!(t.triggers[0].param, "land");
    assert_eq!(move_trigger(&mut t, 1, 1.04), Ok(1));
    assert_eq!(t.triggers.len(), 2);
    assert_eq!(
        t.triggers[1],
        TakeTrigger {
            param: "jump".into(),
            time: 1.0
        }
    );
    assert_eq!(
        delete_trigger(&mut t, 0).map(|tr| tr.param),
        Ok("land".into())
    );
    assert!(delete_trigger(&mut t, 4).is_err());
}

/// Sampling follows the runtime's rule: clamp outside, lerp inside, vectors per component.
#[test]
fn sampling_matches_runtime_rule() {
    let t = take().track(
        "aim",
        KeyInterpolation::Linear,
        vec![
            (0.0, ParamValue::Vec3(Vec3::ZERO)),
            (1.0, ParamValue::Vec3(Vec3::new(2.0, 4.0, 6.0))),
        ],
    );
    assert_eq!(value_of(&t, "speed", -1.0), Some(ParamValue::Float(0.0)));
    assert_eq!(value_of(&t, "speed", 5.0), Some(ParamValue::Float(1.0)));
    assert_eq!(
        value_of(&t, "aim", 0.5),
        Some(ParamValue::Vec3(Vec3::new(1.0, 2.0, 3.0)))
    );
    assert_eq!(snap_time(0.26, 10.0), 0.3);
    assert_eq!(frame_of(0.26, 10.0), 3);
    assert_eq!(snap_time(0.26, 0.0), 0.26);
}
