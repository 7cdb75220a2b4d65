//! Reading a joint's role from its name, whatever the naming scheme: `L_thigh`, `thigh.L`,
//! `thigh_l`, `LeftUpLeg`, `mixamorig:LeftUpLeg`, `UpperLegL`, `b_LeftLeg01_019`, `DEF-thigh.L`.
//!
//! A name is cut into words (at separators, lower-to-upper case changes and letter/digit
//! changes), a namespace (`mixamorig:`, `Armature|`) and exporter junk (`b_`, `DEF-`, `jnt`)
//! are dropped, a word `l`/`left`/`r`/`right` gives the side, numbers give an ordinal, and the
//! remaining words, joined, are looked up in a table of the usual synonyms (`pelvis` and `hips`,
//! `calf`, `shin` and `lowerleg`, `clavicle`, `collar` and `shoulder`, ...).

use crate::mirror::Side;

/// What a joint is, as far as its name says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// The top of the hierarchy (`root`).
    Root,
    /// The pelvis.
    Hips,
    /// A joint of the spine between the hips and the neck (`spine`, `abdomen`, `chest`).
    Spine,
    /// The neck.
    Neck,
    /// The head.
    Head,
    /// The clavicle.
    Shoulder,
    /// The upper arm.
    UpperArm,
    /// The forearm.
    LowerArm,
    /// The hand.
    Hand,
    /// The thigh.
    UpperLeg,
    /// The calf.
    LowerLeg,
    /// The foot.
    Foot,
    /// The toes.
    Toe,
}

impl Role {
    /// Every role, in hierarchy order.
    pub const ALL: [Role; 13] = [
        Role::Root,
        Role::Hips,
        Role::Spine,
        Role::Neck,
        Role::Head,
        Role::Shoulder,
        Role::UpperArm,
        Role::LowerArm,
        Role::Hand,
        Role::UpperLeg,
        Role::LowerLeg,
        Role::Foot,
        Role::Toe,
    ];

    /// True for roles that come in a left and a right joint.
    pub fn sided(self) -> bool {
        matches!(
            self,
            Role::Shoulder
                | Role::UpperArm
                | Role::LowerArm
                | Role::Hand
                | Role::UpperLeg
                | Role::LowerLeg
                | Role::Foot
                | Role::Toe
        )
    }

    /// A short lower-case name (`upper leg`).
    pub fn name(self) -> &'static str {
        match self {
            Role::Root => "root",
            Role::Hips => "hips",
            Role::Spine => "spine",
            Role::Neck => "neck",
            Role::Head => "head",
            Role::Shoulder => "shoulder",
            Role::UpperArm => "upper arm",
            Role::LowerArm => "lower arm",
            Role::Hand => "hand",
            Role::UpperLeg => "upper leg",
            Role::LowerLeg => "lower leg",
            Role::Foot => "foot",
            Role::Toe => "toe",
        }
    }
}

/// The words of a joint name that matter, lower case: its side, its stem (the other words
/// joined, junk and numbers dropped) and its numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameParts {
    /// The side a word says (`L_`, `.R`, `Left`, a closing capital `L` in `UpperArmL`).
    pub side: Option<Side>,
    /// The remaining words joined (`LeftUpLeg` -> `upleg`, `L_upperarm` -> `upperarm`).
    pub stem: String,
    /// The numbers in the name, in order (`spine_02` -> `[2]`; exporter node numbers included).
    pub numbers: Vec<u32>,
    /// True when a word marks an end or helper joint (`end`, `tip`, `nub`, `pole`, `target`,
    /// `ik`, `twist`): such joints never take a role.
    pub helper: bool,
}

/// Words exporters put on every joint, which say nothing of the joint.
const JUNK: [&str; 12] = [
    "b", "bn", "bone", "def", "org", "mch", "jnt", "joint", "bip", "cc", "base", "rig",
];

/// Words that mark end, helper or IK-control joints.
const HELPERS: [&str; 10] = [
    "end", "tip", "nub", "pole", "target", "ik", "twist", "roll", "null", "ctrl",
];

/// Cuts a name into lower-case words.
fn words(name: &str) -> Vec<String> {
    // namespaces: `mixamorig:Hips`, `Armature|Hips`
    let name = name.rsplit([':', '|']).next().unwrap_or(name);
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut prev: Option<char> = None;
    for c in name.chars() {
        let cut = match prev {
            _ if !c.is_ascii_alphanumeric() => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                prev = None;
                continue;
            }
            None => false,
            Some(p) => {
                (p.is_ascii_lowercase() && c.is_ascii_uppercase())
                    || (p.is_ascii_digit() != c.is_ascii_digit())
            }
        };
        if cut && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        cur.push(c);
        prev = Some(c);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    // `UPPERARM_L` style words stay whole; a run of capitals followed by a capitalised word
    // (`IKFoot`) is rare enough in joint names to leave.
    out.into_iter().map(|w| w.to_ascii_lowercase()).collect()
}

/// Splits a joint name into [`NameParts`].
pub fn parts(name: &str) -> NameParts {
    let ws = words(name);
    let mut side = None;
    let mut stem = String::new();
    let mut numbers = Vec::new();
    let mut helper = false;
    let n = ws.len();
    for (i, w) in ws.iter().enumerate() {
        let w = w.as_str();
        if let Ok(k) = w.parse::<u32>() {
            numbers.push(k);
            continue;
        }
        // a lone `l`/`r` is a side only at either end of the name (or next to a number at the
        // end: `Palm2L`), where the naming schemes put it
        let at_edge = i == 0 || i + 1 == n || ws[i + 1..].iter().all(|x| x.parse::<u32>().is_ok());
        match w {
            "left" | "lft" => side = side.or(Some(Side::Left)),
            "right" | "rgt" => side = side.or(Some(Side::Right)),
            "l" if at_edge => side = side.or(Some(Side::Left)),
            "r" if at_edge => side = side.or(Some(Side::Right)),
            _ if HELPERS.contains(&w) => helper = true,
            _ if JUNK.contains(&w) => {}
            _ => stem.push_str(w),
        }
    }
    // `thighL` written as one word: a capital L/R closing a capitalised name is a side too
    if side.is_none() {
        if let Some((s, _)) = crate::mirror::side_of(name) {
            let last = stem.chars().last();
            if matches!(
                (s, last),
                (Side::Left, Some('l')) | (Side::Right, Some('r'))
            ) {
                stem.pop();
            }
            side = Some(s);
        }
    }
    NameParts {
        side,
        stem,
        numbers,
        helper,
    }
}

/// The role a stem names, by the usual synonyms. `leg` and `arm` alone are ambiguous between
/// schemes (Mixamo's `LeftLeg` is the calf, `LeftArm` the upper arm): they are returned as the
/// upper bone and the caller looks at the hierarchy.
pub fn role_of_stem(stem: &str) -> Option<Role> {
    let role = match stem {
        "root" | "armature" | "reference" | "master" | "world" | "origin" => Role::Root,
        "hips" | "hip" | "pelvis" | "pelvic" | "cog" | "hipcenter" | "hipscenter" => Role::Hips,
        "spine" | "abdomen" | "abdomin" | "torso" | "chest" | "upperchest" | "waist"
        | "stomach" | "belly" | "back" | "spinelower" | "spineupper" | "spinemid" | "lowerback"
        | "upperback" | "ribcage" | "ribs" => Role::Spine,
        "neck" | "necklower" | "neckupper" => Role::Neck,
        "head" | "skull" => Role::Head,
        "clavicle" | "collar" | "collarbone" | "shoulder" | "scapula" | "clav" => Role::Shoulder,
        "upperarm" | "uparm" | "arm" | "humerus" | "armupper" => Role::UpperArm,
        "forearm" | "lowerarm" | "lowarm" | "elbow" | "armlower" | "ulna" | "radius" => {
            Role::LowerArm
        }
        "hand" | "wrist" | "palm" => Role::Hand,
        "thigh" | "upleg" | "upperleg" | "leg" | "femur" | "legupper" | "hipjoint" => {
            Role::UpperLeg
        }
        "calf" | "shin" | "lowerleg" | "lowleg" | "knee" | "leglower" | "crus" | "tibia" => {
            Role::LowerLeg
        }
        "foot" | "ankle" | "heel" => Role::Foot,
        "toe" | "toes" | "toebase" | "ball" | "toesbase" => Role::Toe,
        _ => return None,
    };
    Some(role)
}

/// True for the stems whose role depends on the hierarchy (`leg`, `arm`).
pub fn ambiguous_stem(stem: &str) -> bool {
    matches!(stem, "leg" | "arm")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn role(name: &str) -> (Option<Side>, Option<Role>) {
        let p = parts(name);
        (p.side, role_of_stem(&p.stem))
    }

    #[test]
    fn naming_schemes_agree() {
        use Side::*;
        for name in [
            "L_thigh",
            "thigh.L",
            "thigh_l",
            "LeftUpLeg",
            "mixamorig:LeftUpLeg",
            "UpperLegL",
            "DEF-thigh.L",
            "Left_UpperLeg",
            "l_upperleg",
            "thighL",
        ] {
            assert_eq!(role(name), (Some(Left), Some(Role::UpperLeg)), "{name}");
        }
        for name in [
            "R_calf",
            "shin.R",
            "RightLeg",
            "LowerLegR",
            "calf_r",
            "Right Knee",
        ] {
            let (side, r) = role(name);
            assert_eq!(side, Some(Right), "{name}");
            // Mixamo's `RightLeg` reads as the upper bone until the hierarchy says otherwise
            assert!(
                r == Some(Role::LowerLeg) || (r == Some(Role::UpperLeg) && name == "RightLeg"),
                "{name}: {r:?}"
            );
        }
        assert_eq!(role("pelvis"), (None, Some(Role::Hips)));
        assert_eq!(role("mixamorig:Hips"), (None, Some(Role::Hips)));
        assert_eq!(role("spine_02"), (None, Some(Role::Spine)));
        assert_eq!(role("Torso_1"), (None, Some(Role::Spine)));
        assert_eq!(role("L_clavicle"), (Some(Left), Some(Role::Shoulder)));
        assert_eq!(role("ShoulderR"), (Some(Right), Some(Role::Shoulder)));
        assert_eq!(role("LeftForeArm"), (Some(Left), Some(Role::LowerArm)));
        assert_eq!(role("upper_arm.R"), (Some(Right), Some(Role::UpperArm)));
        assert_eq!(role("b_LeftLeg01_019").0, Some(Left));
        assert_eq!(parts("b_LeftLeg01_019").numbers, vec![1, 19]);
        assert_eq!(role("Palm2L"), (Some(Left), Some(Role::Hand)));
    }

    #[test]
    fn helpers_and_non_sides() {
        assert!(parts("head_end").helper);
        assert!(parts("PoleTargetL").helper);
        assert!(parts("IK_foot.L").helper);
        // an `l` inside a name is not a side
        assert_eq!(parts("Hips").side, None);
        assert_eq!(parts("Bone").stem, "");
        assert_eq!(parts("Lower_leg").side, None);
    }
}
