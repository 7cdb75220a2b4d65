//! Motion assertions: limits a take's frames must keep (the script's `assert_motion { }`),
//! checked on every frame, and the figures they are checked against ([`Figures`], what
//! `check --report` writes).
//!
//! Joints are named; [`MotionAsserts::resolve`] finds them in a skeleton (an unknown name is an
//! error the caller places at the script's line).

use super::contacts::{detect, Contact, ContactRule};
use super::joints::{from_rest, penetration_mm, turn_speed, velocity_jump, worst};
use super::slide::foot_slide;
use super::Motion;
use crate::fast_turns::DEFAULT_TURN_LIMIT;
use crate::Skeleton;

/// A joint's angle limits away from rest, degrees.
#[derive(Clone, Debug, PartialEq)]
pub struct AngleLimit {
    /// The joint.
    pub joint: String,
    /// Smallest angle allowed.
    pub min: f32,
    /// Largest angle allowed.
    pub max: f32,
}

/// What `assert_motion { }` asks, by joint name.
#[derive(Clone, Debug, PartialEq)]
pub struct MotionAsserts {
    /// Largest travel of a planted foot, mm (`None`: measured, not asserted).
    pub foot_slide_mm: Option<f32>,
    /// The feet (default: every joint named like a foot or an ankle, see [`default_feet`]).
    pub feet: Option<Vec<String>>,
    /// Contact rules by joint (the rest: [`ContactRule::default_for`]).
    pub contacts: Vec<(String, ContactRule)>,
    /// Fail on a frame that is not finite (default true).
    pub no_nan: bool,
    /// Fastest turn, degrees per second, for every joint (`None`: not asserted; the default
    /// is [`DEFAULT_TURN_LIMIT`]).
    pub max_joint_speed: Option<f32>,
    /// Fastest turn of single joints, overriding [`Self::max_joint_speed`].
    pub joint_speeds: Vec<(String, f32)>,
    /// Angle limits away from rest.
    pub limits: Vec<AngleLimit>,
    /// The joints kept above the ground (`None`: the feet) and how deep they may go, mm.
    pub ground: Option<(Option<Vec<String>>, f32)>,
}

/// A joint an assertion names that the rig lacks.
#[derive(Clone, Debug, PartialEq)]
pub struct UnknownJoint {
    /// The name.
    pub joint: String,
    /// What named it (`feet`, `limits`, ...).
    pub what: &'static str,
}

impl std::fmt::Display for UnknownJoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "assert_motion {}: the rig has no joint '{}'",
            self.what, self.joint
        )
    }
}

impl Default for MotionAsserts {
    fn default() -> Self {
        MotionAsserts {
            foot_slide_mm: None,
            feet: None,
            contacts: Vec::new(),
            no_nan: true,
            max_joint_speed: Some(DEFAULT_TURN_LIMIT),
            joint_speeds: Vec::new(),
            limits: Vec::new(),
            ground: None,
        }
    }
}

/// The joints named like feet: `foot` or `ankle` in the name (any case), not an end joint
/// (`_end`, `End`) or a toe, and in the rest pose in the lowest quarter of the rig's height
/// (the RobotExpressive's `FootL` and `FootR` qualify; its `LowerLegL`, a knee, does not).
pub fn default_feet(skeleton: &Skeleton) -> Vec<usize> {
    let heights: Vec<f32> = crate::rest_positions(skeleton)
        .iter()
        .map(|p| p.y)
        .collect();
    let (lo, hi) = heights
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &h| {
            (lo.min(h), hi.max(h))
        });
    let low = lo + 0.25 * (hi - lo);
    skeleton
        .names()
        .iter()
        .enumerate()
        .filter(|(j, n)| {
            let n = n.to_ascii_lowercase();
            (n.contains("foot") || n.contains("ankle"))
                && !n.ends_with("end")
                && !n.contains("toe")
                && heights[*j] <= low
        })
        .map(|(j, _)| j)
        .collect()
}

/// [`MotionAsserts`] with joints found in a skeleton.
#[derive(Clone, Debug, PartialEq)]
pub struct Resolved {
    foot_slide_mm: Option<f32>,
    feet: Vec<(usize, Option<ContactRule>)>,
    no_nan: bool,
    speeds: Vec<(usize, f32)>,
    limits: Vec<(usize, f32, f32)>,
    ground: Option<(Vec<usize>, f32)>,
}

impl MotionAsserts {
    /// Finds every named joint in `skeleton`; an unknown one is an error naming it and what it
    /// was for.
    pub fn resolve(&self, skeleton: &Skeleton) -> Result<Resolved, UnknownJoint> {
        let find = |name: &str, what: &'static str| {
            skeleton
                .find(name)
                .map(usize::from)
                .ok_or_else(|| UnknownJoint {
                    joint: name.to_string(),
                    what,
                })
        };
        let feet: Vec<usize> = match &self.feet {
            Some(names) => names
                .iter()
                .map(|n| find(n, "feet"))
                .collect::<Result<_, _>>()?,
            None => default_feet(skeleton),
        };
        let mut rules = Vec::new();
        for (name, rule) in &self.contacts {
            rules.push((find(name, "contacts")?, *rule));
        }
        let feet: Vec<(usize, Option<ContactRule>)> = feet
            .into_iter()
            .map(|j| (j, rules.iter().find(|(k, _)| *k == j).map(|(_, r)| *r)))
            .collect();
        let mut speeds: Vec<(usize, f32)> = Vec::new();
        if let Some(all) = self.max_joint_speed {
            speeds.extend((0..skeleton.len()).map(|j| (j, all)));
        }
        for (name, limit) in &self.joint_speeds {
            let j = find(name, "max_joint_speed")?;
            match speeds.iter_mut().find(|(k, _)| *k == j) {
                Some(s) => s.1 = *limit,
                None => speeds.push((j, *limit)),
            }
        }
        let limits = self
            .limits
            .iter()
            .map(|l| Ok((find(&l.joint, "limits")?, l.min, l.max)))
            .collect::<Result<_, UnknownJoint>>()?;
        let ground = match &self.ground {
            Some((Some(names), depth)) => Some((
                names
                    .iter()
                    .map(|n| find(n, "ground"))
                    .collect::<Result<_, _>>()?,
                *depth,
            )),
            Some((None, depth)) => Some((feet.iter().map(|(j, _)| *j).collect(), *depth)),
            None => None,
        };
        Ok(Resolved {
            foot_slide_mm: self.foot_slide_mm,
            feet,
            no_nan: self.no_nan,
            speeds,
            limits,
            ground,
        })
    }
}

/// A figure and where it was reached.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Worst {
    /// The value.
    pub value: f32,
    /// The frame.
    pub frame: usize,
    /// The joint.
    pub joint: usize,
}

/// Everything measured on a take's frames.
#[derive(Clone, Debug, PartialEq)]
pub struct Figures {
    /// Frames measured.
    pub frames: usize,
    /// Frames with a number that is not finite.
    pub nan_frames: usize,
    /// The feet's contacts, in joint then time order.
    pub contacts: Vec<Contact>,
    /// Foot slide over the contacts, mm (`None` without contacts).
    pub foot_slide: Option<super::slide::Slide>,
    /// Fastest turn of any joint, degrees per second.
    pub joint_speed: Option<Worst>,
    /// Largest jump of a joint's angular velocity between frames, degrees per second.
    pub velocity_jump: Option<Worst>,
    /// Each limited joint's smallest and largest angle from rest, degrees.
    pub angles: Vec<(usize, f32, f32)>,
    /// Deepest a ground joint goes under the ground, mm.
    pub penetration: Option<Worst>,
}

/// One broken assertion.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// The frame.
    pub frame: usize,
    /// What broke, with the measured value and the limit (`L_foot slides 4.1 mm > 2 mm`).
    pub message: String,
}

impl Failure {
    /// The one line a failure is reported as: `take 'walk' at 1.250 s (frame 75): L_foot
    /// slides 4.1 mm > 2 mm` (`m` gives the frame's time).
    pub fn line(&self, take: &str, m: &Motion) -> String {
        format!(
            "take '{take}' at {:.3} s (frame {}): {}",
            m.time(self.frame),
            self.frame,
            self.message
        )
    }
}

impl Resolved {
    /// Measures `m`.
    pub fn measure(&self, m: &Motion) -> Figures {
        let frames = m.frames();
        let contacts: Vec<Contact> = self
            .feet
            .iter()
            .flat_map(|&(j, rule)| {
                detect(
                    m,
                    j,
                    &rule.map_or_else(|| ContactRule::default_for(m, j), |r| r.completed(m, j)),
                )
            })
            .collect();
        let all = m.recorded();
        let as_worst = |w: Option<(f32, usize, usize)>| {
            w.map(|(value, frame, joint)| Worst {
                value,
                frame,
                joint,
            })
        };
        let angles = self
            .limits
            .iter()
            .map(|&(j, _, _)| {
                let a = (0..frames).map(|f| from_rest(m, f, j));
                let (lo, hi) = a.fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), v| {
                    (lo.min(v), hi.max(v))
                });
                (j, lo, hi)
            })
            .collect();
        Figures {
            frames,
            nan_frames: (0..frames).filter(|&f| !m.is_finite(f)).count(),
            foot_slide: foot_slide(m, &contacts),
            contacts,
            joint_speed: as_worst(worst(1..frames, all, |f, j| turn_speed(m, f, j))),
            velocity_jump: as_worst(worst(1..frames, all, |f, j| velocity_jump(m, f, j))),
            angles,
            penetration: self
                .ground
                .as_ref()
                .and_then(|(js, _)| as_worst(worst(0..frames, js, |f, j| penetration_mm(m, f, j)))),
        }
    }

    /// Every broken assertion of `m`, in the order they are listed in the docs (not finite,
    /// foot slide, joint speed, limits, ground), each at its first frame; `name(joint)` names
    /// joints.
    pub fn check(
        &self,
        m: &Motion,
        figures: &Figures,
        name: &dyn Fn(usize) -> String,
    ) -> Vec<Failure> {
        let mut out = Vec::new();
        if self.no_nan {
            if let Some(f) = (0..m.frames()).find(|&f| !m.is_finite(f)) {
                out.push(Failure {
                    frame: f,
                    message: "the pose has a number that is not finite (NaN or infinite)".into(),
                });
            }
        }
        if let (Some(limit), Some(s)) = (self.foot_slide_mm, &figures.foot_slide) {
            if s.worst_mm > limit {
                out.push(Failure {
                    frame: s.worst.start,
                    message: format!(
                        "{} slides {:.1} mm > {} mm",
                        name(s.worst.joint),
                        s.worst_mm,
                        limit
                    ),
                });
            }
        }
        for &(j, limit) in &self.speeds {
            if let Some(f) = (1..m.frames()).find(|&f| turn_speed(m, f, j) > limit) {
                out.push(Failure {
                    frame: f,
                    message: format!(
                        "{} turns {:.0} degrees/s > {} degrees/s",
                        name(j),
                        turn_speed(m, f, j),
                        limit
                    ),
                });
            }
        }
        for &(j, lo, hi) in &self.limits {
            let out_of = |f: usize| {
                let a = from_rest(m, f, j);
                !(lo..=hi).contains(&a)
            };
            if let Some(f) = (0..m.frames()).find(|&f| out_of(f)) {
                let a = from_rest(m, f, j);
                let (op, limit) = if a < lo { ("<", lo) } else { (">", hi) };
                out.push(Failure {
                    frame: f,
                    message: format!(
                        "{} is {:.1} degrees from rest {op} {limit} degrees",
                        name(j),
                        a
                    ),
                });
            }
        }
        if let Some((joints, depth)) = &self.ground {
            for &j in joints {
                if let Some(f) = (0..m.frames()).find(|&f| penetration_mm(m, f, j) > *depth) {
                    out.push(Failure {
                        frame: f,
                        message: format!(
                            "{} is {:.1} mm under the ground > {} mm",
                            name(j),
                            penetration_mm(m, f, j),
                            depth
                        ),
                    });
                }
            }
        }
        out.sort_by_key(|f| f.frame);
        out
    }

    /// Every joint these rules read (feet, speed-limited, angle-limited and ground joints), in
    /// joint order: what a [`Motion::of_joints`] needs to record to be
    /// [`checked`](Resolved::check) ([`Figures::joint_speed`] and [`Figures::velocity_jump`]
    /// then cover those joints).
    pub fn joints_read(&self) -> Vec<usize> {
        let mut out = self.joints_measured();
        out.extend(self.speeds.iter().map(|(j, _)| *j));
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The joints [`Resolved::measure`] reads besides the figures of every recorded joint (feet,
    /// angle-limited and ground joints), in joint order: what a [`Motion::of_joints`] needs to
    /// record for the contacts, the angles and the ground to be measured.
    pub fn joints_measured(&self) -> Vec<usize> {
        let mut out: Vec<usize> = self.feet.iter().map(|(j, _)| *j).collect();
        out.extend(self.limits.iter().map(|(j, _, _)| *j));
        if let Some((js, _)) = &self.ground {
            out.extend(js);
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The feet measured.
    pub fn feet(&self) -> impl Iterator<Item = usize> + '_ {
        self.feet.iter().map(|(j, _)| *j)
    }
}
