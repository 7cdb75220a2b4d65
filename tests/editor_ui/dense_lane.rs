//! A take of hundreds of thousands of keys (within the take rules) draws: only the keys on
//! screen, merged to about one mark per point, so the window never builds a mesh too large
//! for the GPU (it used to panic in egui-wgpu: "Failed to create staging buffer").

use egui_kittest::kittest::Queryable;
use marionette::editor::sidecar_path as path_for;
use serde_json::json;

use super::{harness, options, TempScript};

/// Keys per lane.
const KEYS: usize = 200_000;

/// 200,000 speed keys, 200,000 jump triggers and 50,000 look keys over 20 s render; the
/// timeline shows at most about one key mark per point of its width.
#[test]
fn dense_lanes_render() {
    let tmp = TempScript::new("dense-lane");
    let duration = 20.0;
    let time = |i: usize, n: usize| i as f64 * duration / n as f64;
    let speed: Vec<_> = (0..KEYS)
        .map(|i| json!([time(i, KEYS), if i % 2 == 0 { 0.0 } else { 6.0 }]))
        .collect();
    let look: Vec<_> = (0..KEYS / 4)
        .map(|i| json!([time(i, KEYS / 4), [(i % 7) as f64, 1.6, 2.0]]))
        .collect();
    let jumps: Vec<_> = (0..KEYS)
        .map(|i| json!({"param": "jump", "time": time(i, KEYS)}))
        .collect();
    // the face's lanes (blink, smile) folded, so the speed lane is on screen
    let folded = json!({"collapsed": true});
    let timeline = json!({"lanes": {"param:blink": folded, "param:smile": folded}});
    let file = json!({"version": 1, "selected_take": "dense", "timeline": timeline, "takes": [{
        "name": "dense", "duration": duration, "fps": 60,
        "tracks": [
            {"param": "speed", "step": false, "keys": speed},
            {"param": "look", "step": false, "keys": look}
        ],
        "triggers": jumps
    }]});
    std::fs::write(path_for(&tmp.script), file.to_string()).expect("write");
    let mut opts = options(&tmp.script, true);
    opts.take = Some("dense".into());
    let mut h = harness(&opts);
    h.run_steps(2);
    let take = h
        .state()
        .session()
        .take()
        .cloned()
        .expect("the dense take plays");
    assert_eq!(take.tracks[0].keys.len(), KEYS);
    h.render().expect("renders");
    // scrub into the middle and render again
    h.state_mut().seek(10.0);
    h.run_steps(2);
    h.render().expect("renders");
    let width = 1280;
    let speed_marks = h.query_all_by_label_contains("Key speed ").count();
    assert!(
        (1..width).contains(&speed_marks),
        "{speed_marks} speed key marks"
    );
    let look_marks = h.query_all_by_label_contains("Key look ").count();
    // (the look lane may be scrolled out of the timeline: then it has none)
    assert!(look_marks < 3 * width, "{look_marks} look key marks");
    let jump_marks = h.query_all_by_label_contains("Trigger jump ").count();
    assert!((1..width).contains(&jump_marks), "{jump_marks} jump marks");
}
