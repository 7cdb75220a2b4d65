//! Foot contacts: a joint is planted while it is low and slow: its world height at most
//! [`ContactRule::height`] and its speed at most [`ContactRule::speed`]. The default height is
//! the joint's height in the rest pose plus [`ContactRule::LIFT`], so it suits any rig standing
//! on the ground at rest (the mannequin's ankles rest 8 cm up, the Robot's 12 cm); a joint that
//! never comes within that of its rest height over the frames measured (a raw capture, whose
//! rest pose hangs from the hips at the origin) uses its lowest height instead.

use super::Motion;

/// When a joint counts as planted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactRule {
    /// Highest world height, metres (Y up).
    pub height: f32,
    /// Highest speed, metres per second.
    pub speed: f32,
}

impl ContactRule {
    /// How far above its rest height a planted joint may be by default, metres.
    pub const LIFT: f32 = 0.04;
    /// The default highest speed of a planted joint, metres per second (a walking foot
    /// swings at 2 to 5 m/s; a planted one rolls over at well under this).
    pub const SPEED: f32 = 0.35;

    /// The default rule for `joint` of `motion`: [`ContactRule::default_height`] and
    /// [`Self::SPEED`].
    pub fn default_for(motion: &Motion, joint: usize) -> Self {
        ContactRule {
            height: Self::default_height(motion, joint),
            speed: Self::SPEED,
        }
    }

    /// The default height for `joint` of `motion`: [`Self::LIFT`] above its rest height, or,
    /// when the joint never comes that low (a rig whose rest pose does not stand on the ground:
    /// the rest rule would find no contact at all), above the lowest it goes.
    pub fn default_height(motion: &Motion, joint: usize) -> f32 {
        let rest = motion.rest_position(joint).y;
        let lowest = (0..motion.frames())
            .map(|f| motion.position(f, joint).y)
            .filter(|y| y.is_finite())
            .fold(f32::INFINITY, f32::min);
        let ground = if lowest.is_finite() && lowest > rest + Self::LIFT {
            lowest
        } else {
            rest
        };
        ground + Self::LIFT
    }

    /// This rule with a height left out (NaN: only the speed was given) made the default.
    pub fn completed(self, motion: &Motion, joint: usize) -> Self {
        if self.height.is_nan() {
            ContactRule {
                height: Self::default_height(motion, joint),
                ..self
            }
        } else {
            self
        }
    }
}

/// A span of frames over which a joint is planted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contact {
    /// The joint.
    pub joint: usize,
    /// Its first frame.
    pub start: usize,
    /// Its last frame (inclusive).
    pub end: usize,
}

/// The speed of `joint` at frame `f`, metres per second, from the frame before: the same speed
/// a foot lock sees while it plays, which cannot see ahead (`None` at the first frame, which
/// has no frame before).
pub fn speed(m: &Motion, f: usize, joint: usize) -> Option<f32> {
    let before = f.checked_sub(1)?;
    Some((m.position(f, joint) - m.position(before, joint)).length() * m.fps)
}

/// Whether `joint` is planted at frame `f` under `rule` (never at the first frame, whose speed
/// is unknown: a contact starts at the second frame at the earliest, as a foot lock's does).
pub fn planted(m: &Motion, f: usize, joint: usize, rule: &ContactRule) -> bool {
    m.position(f, joint).y <= rule.height && speed(m, f, joint).is_some_and(|s| s <= rule.speed)
}

/// Every contact of `joint` under `rule`, in time order.
pub fn detect(m: &Motion, joint: usize, rule: &ContactRule) -> Vec<Contact> {
    detect_held(m, joint, rule, 1.0)
}

/// Every contact of `joint`, in time order, each starting where the joint is planted under
/// `rule` and lasting while it stays low and under `hold` times the rule's speed (the locks
/// let go at twice it, so a foot the animation slides is held, not let go; 1 is [`detect`]).
pub fn detect_held(m: &Motion, joint: usize, rule: &ContactRule, hold: f32) -> Vec<Contact> {
    let mut out = Vec::new();
    let mut start = None;
    for f in 0..m.frames() {
        let now = ContactRule {
            speed: if start.is_some() { hold } else { 1.0 } * rule.speed,
            ..*rule
        };
        match (planted(m, f, joint, &now), start) {
            (true, None) => start = Some(f),
            (false, Some(s)) => {
                out.push(Contact {
                    joint,
                    start: s,
                    end: f - 1,
                });
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(Contact {
            joint,
            start: s,
            end: m.frames() - 1,
        });
    }
    out
}
