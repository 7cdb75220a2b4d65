//! A take's motion judged: its frames measured ([`marionette_anim::motion`]) and checked
//! against the script's `assert_motion` (the take's own, else the global one). `check` and
//! `bake` both judge every take this way; a bake with a broken assertion writes nothing.

use marionette_anim::motion::{Figures, Motion, MotionAsserts};
use marionette_anim::Skeleton;

use crate::BakedTake;

/// What a take's frames measure, and the assertions they break.
#[derive(Clone, Debug)]
pub struct TakeQuality {
    /// The take.
    pub take: String,
    /// Frames per second.
    pub fps: f32,
    /// Every figure measured.
    pub figures: Figures,
    /// Each broken assertion, one line: `take 'walk' at 1.250 s (frame 75): L_foot slides 4.1
    /// mm > 2 mm`.
    pub failures: Vec<String>,
    /// Whether the take had assertions.
    pub asserted: bool,
}

/// The frames of a baked take (root motion on the root joints) as the measures read them.
pub fn motion_of(skeleton: &Skeleton, baked: &BakedTake) -> Motion {
    let fps = baked.fps().unwrap_or(60.0);
    let mut m = Motion::new(skeleton, fps);
    for pose in &baked.frames {
        m.push(skeleton, pose);
    }
    m
}

/// Judges `baked` (frames with root motion) against `asserts` (`None`: measured only). An
/// unknown joint in the assertions is an error.
pub fn judge(
    asserts: Option<&MotionAsserts>,
    skeleton: &Skeleton,
    baked: &BakedTake,
) -> Result<TakeQuality, String> {
    let rules = asserts.cloned().unwrap_or_default();
    let resolved = rules.resolve(skeleton)?;
    let m = motion_of(skeleton, baked);
    let figures = resolved.measure(&m);
    let name = |j: usize| skeleton.names().get(j).cloned().unwrap_or_default();
    let failures = match asserts {
        Some(_) => resolved
            .check(&m, &figures, &name)
            .into_iter()
            .map(|f| {
                format!(
                    "take '{}' at {:.3} s (frame {}): {}",
                    baked.name,
                    m.time(f.frame),
                    f.frame,
                    f.message
                )
            })
            .collect(),
        None => Vec::new(),
    };
    Ok(TakeQuality {
        take: baked.name.clone(),
        fps: m.fps,
        figures,
        failures,
        asserted: asserts.is_some(),
    })
}
