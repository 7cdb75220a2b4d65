//! The procedural-rigging operations declared once each: their Lua name, their arguments and
//! the options they take. The constructors (`constrain.rs`, `chain.rs`, `spring.rs`) read their
//! signature, argument count and allowed options from here, and a test holds the stubs
//! (`scripts/marionette.d.lua`) to the same names, arguments and options, so the three cannot
//! drift.

/// One operation's declaration.
pub(crate) struct Decl {
    /// Its Lua name (`constrain.aim`).
    pub name: &'static str,
    /// Its arguments, in order (the last, `opts`, optional).
    pub args: &'static [&'static str],
    /// The keys its options table takes.
    pub options: &'static [&'static str],
}

impl Decl {
    /// `name(arg, ...)`, as errors name the call.
    pub fn signature(&self) -> String {
        format!("{}({})", self.name, self.args.join(", "))
    }
}

/// `constrain.aim`.
pub(crate) const AIM: Decl = Decl {
    name: "constrain.aim",
    args: &["joint", "target", "opts"],
    options: &[
        "weight", "mask", "axis", "up", "world_up", "up_joint", "limit", "limits",
    ],
};
/// `constrain.multi_aim`.
pub(crate) const MULTI_AIM: Decl = Decl {
    name: "constrain.multi_aim",
    args: &["joint", "targets", "opts"],
    options: AIM.options,
};
/// `constrain.copy`.
pub(crate) const COPY: Decl = Decl {
    name: "constrain.copy",
    args: &["joint", "source", "opts"],
    options: &["weight", "mask", "channel", "space", "offset", "mix"],
};
/// `constrain.damped`.
pub(crate) const DAMPED: Decl = Decl {
    name: "constrain.damped",
    args: &["joint", "source", "opts"],
    options: &["weight", "mask", "lag", "position_lag"],
};
/// `constrain.twist`.
pub(crate) const TWIST: Decl = Decl {
    name: "constrain.twist",
    args: &["joint", "twist_joints", "opts"],
    options: &["weight", "mask", "axis", "weights", "remove"],
};
/// `constrain.limit`.
pub(crate) const LIMIT: Decl = Decl {
    name: "constrain.limit",
    args: &["joint", "opts"],
    options: &["weight", "mask", "axis", "cone", "twist", "speed"],
};
/// `ik.chain`.
pub(crate) const CHAIN: Decl = Decl {
    name: "ik.chain",
    args: &["root", "tip", "target", "opts"],
    options: &[
        "weight",
        "mask",
        "solver",
        "iterations",
        "tolerance",
        "limits",
        "pole",
        "stretch",
    ],
};
/// `ik.spline`.
pub(crate) const SPLINE: Decl = Decl {
    name: "ik.spline",
    args: &["root", "tip", "points", "opts"],
    options: &["weight", "mask"],
};
/// `spring`.
pub(crate) const SPRING: Decl = Decl {
    name: "spring",
    args: &["joints", "opts"],
    options: &[
        "weight",
        "mask",
        "stiffness",
        "damping",
        "gravity",
        "radius",
        "colliders",
    ],
};
/// `Rig:springs`.
pub(crate) const FILE_SPRINGS: Decl = Decl {
    name: "Rig:springs",
    args: &["opts"],
    options: &["weight", "mask"],
};

/// Every declaration (the stubs are checked against them).
#[cfg(test)]
pub(crate) const ALL: [&Decl; 10] = [
    &AIM,
    &MULTI_AIM,
    &COPY,
    &DAMPED,
    &TWIST,
    &LIMIT,
    &CHAIN,
    &SPLINE,
    &SPRING,
    &FILE_SPRINGS,
];

#[cfg(test)]
mod tests {
    use super::ALL;

    /// Each declaration's stub has its name and arguments, and documents each of its options
    /// (as a `---@field` of its options class, or in its inline options type), and no other.
    #[test]
    fn the_stubs_declare_what_the_constructors_take() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/marionette.d.lua");
        let stubs = std::fs::read_to_string(path).expect("the stubs");
        for d in ALL {
            let line = format!("function {}({}) end", d.name, d.args.join(", "));
            let at = stubs
                .find(&line)
                .unwrap_or_else(|| panic!("no `{line}` in the stubs"));
            let block = &stubs[stubs[..at].rfind("\nfunction ").map_or(0, |i| i + 1)..at];
            let param = block
                .lines()
                .find(|l| l.starts_with("---@param opts"))
                .unwrap_or_else(|| panic!("{}: no ---@param opts", d.name));
            let ty = param.split_once(' ').map_or("", |x| x.1);
            let ty = ty.split_once(' ').map_or("", |x| x.1).trim();
            let documented: Vec<String> = if ty.starts_with('{') {
                ty.trim_matches(|c| c == '{' || c == '}')
                    .split(',')
                    .filter_map(|f| f.split_once('?').map(|x| x.0.trim().to_string()))
                    .collect()
            } else {
                let class = format!("---@class {ty}\n");
                let start = stubs
                    .find(&class)
                    .unwrap_or_else(|| panic!("{}: no {class:?}", d.name));
                stubs[start + class.len()..]
                    .lines()
                    .take_while(|l| l.starts_with("---@field"))
                    .filter_map(|l| {
                        l.strip_prefix("---@field ")
                            .and_then(|f| f.split_once('?'))
                            .map(|x| x.0.to_string())
                    })
                    .collect()
            };
            let mut want: Vec<String> = d.options.iter().map(|s| s.to_string()).collect();
            let mut have = documented.clone();
            want.sort();
            have.sort();
            assert_eq!(have, want, "{}: the stub's options ({ty})", d.name);
        }
    }
}
