//! The hostile argument family, generated from the API stubs (`scripts/marionette.d.lua`): every
//! function and method the stubs list is called with each wrong kind of argument in each
//! position (nil, a number, a string, a table, another userdata, a function), with one argument
//! too many and one too few; every operator and indexed field a class declares is used with
//! wrong operands; and the metatable of every value the API hands out is fetched and called.
//!
//! A new entry in the stubs is covered without anyone adding a case, except for one thing the
//! stubs cannot say: a valid call of it ([`example`]), which the family needs to put one
//! argument wrong at a time. A stub entry without an example fails the test that says so.

#![allow(dead_code)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One parameter of a stub entry.
#[derive(Debug, Clone)]
pub struct Param {
    pub name: String,
    pub ty: String,
    pub optional: bool,
    pub vararg: bool,
}

/// A function or method of the stubs.
#[derive(Debug, Clone)]
pub struct Entry {
    /// `Node:speed`, `mask.subtree`, `float`.
    pub name: String,
    /// The class of `self` for a method (`Node`), else `None`.
    pub class: Option<String>,
    /// The function's name without its class or table (`speed`).
    pub short: String,
    pub params: Vec<Param>,
}

/// A class's operators (`---@operator add(Mask): Mask`) and whether it is indexed by string
/// (`---@field [string] ...`).
#[derive(Debug, Clone, Default)]
pub struct ClassInfo {
    pub name: String,
    pub operators: Vec<(String, String)>,
    pub string_index: bool,
}

/// The API stubs.
pub fn stubs_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/marionette.d.lua")
}

/// Every `function ...(...) end` of the stubs with the `---@param` lines before it.
pub fn entries(stubs: &str) -> Vec<Entry> {
    let mut out = Vec::new();
    let mut params: Vec<Param> = Vec::new();
    for line in stubs.lines() {
        if let Some(rest) = line.strip_prefix("---@param ") {
            let mut it = rest.split_whitespace();
            let (Some(name), Some(ty)) = (it.next(), it.next()) else {
                continue;
            };
            let optional = name.ends_with('?');
            let name = name.trim_end_matches('?').to_string();
            params.push(Param {
                vararg: name == "...",
                name,
                ty: ty.to_string(),
                optional,
            });
        } else if let Some(rest) = line.strip_prefix("function ") {
            let Some(open) = rest.find('(') else {
                continue;
            };
            let full = &rest[..open];
            let (class, short) = match full.split_once(':') {
                Some((c, m)) => (Some(c.to_string()), m.to_string()),
                None => (None, full.rsplit('.').next().unwrap_or(full).to_string()),
            };
            out.push(Entry {
                name: full.to_string(),
                class,
                short,
                params: std::mem::take(&mut params),
            });
        } else if !line.starts_with("---") {
            params.clear();
        }
    }
    out
}

/// The classes of the stubs with their operators and string index.
pub fn classes(stubs: &str) -> Vec<ClassInfo> {
    let mut out: Vec<ClassInfo> = Vec::new();
    for line in stubs.lines() {
        if let Some(name) = line.strip_prefix("---@class ") {
            let name = name.split_whitespace().next().unwrap_or(name).to_string();
            out.push(ClassInfo {
                name,
                ..ClassInfo::default()
            });
        } else if let (Some(op), Some(c)) = (line.strip_prefix("---@operator "), out.last_mut()) {
            if let Some((name, rest)) = op.split_once('(') {
                let operand = rest.split(')').next().unwrap_or("").to_string();
                c.operators.push((name.to_string(), operand));
            }
        } else if let (Some(_), Some(c)) = (line.strip_prefix("---@field [string]"), out.last_mut())
        {
            c.string_index = true;
        } else if !line.starts_with("---") {
            // a class's annotations end at its first line of code
        }
    }
    out
}

/// The kinds of Lua value the family passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Nil,
    Number,
    String,
    Table,
    Userdata,
    Function,
}

impl Kind {
    pub const ALL: [Kind; 6] = [
        Kind::Nil,
        Kind::Number,
        Kind::String,
        Kind::Table,
        Kind::Userdata,
        Kind::Function,
    ];

    /// A value of this kind, as Lua source. A string is not a number's digits (Lua would
    /// convert it) nor a name the rig has; the userdata is an API value of a class the
    /// parameter does not take (`other`).
    pub fn value(self, other: &str) -> String {
        match self {
            Kind::Nil => "nil".into(),
            Kind::Number => "12345".into(),
            Kind::String => "'bogus'".into(),
            Kind::Table => "{}".into(),
            Kind::Userdata => other.into(),
            Kind::Function => "print".into(),
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Kind::Nil => "nil",
            Kind::Number => "a number",
            Kind::String => "a string",
            Kind::Table => "a table",
            Kind::Userdata => "another userdata",
            Kind::Function => "a function",
        }
    }
}

/// The userdata classes the API hands out, and a value of each.
pub const USERDATA: [(&str, &str); 3] =
    [("Node", "rig.idle"), ("Mask", "mask.all()"), ("Rig", "rig")];

/// The kinds a stub type accepts (an optional parameter also accepts nil).
pub fn accepted(ty: &str) -> Vec<Kind> {
    let mut out = Vec::new();
    // a union of the types between `|` outside braces and parentheses
    let mut depth = 0;
    let mut parts = Vec::new();
    let mut start = 0;
    for (i, c) in ty.char_indices() {
        match c {
            '{' | '(' | '<' => depth += 1,
            '}' | ')' | '>' => depth -= 1,
            '|' if depth == 0 => {
                parts.push(&ty[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&ty[start..]);
    for part in parts {
        let kind = match part {
            "number" | "integer" => Kind::Number,
            "boolean" => continue,
            "Weight" => {
                out.push(Kind::Number);
                Kind::String
            }
            p if p == "string" || p.starts_with('"') => Kind::String,
            p if p.starts_with("fun(") => Kind::Function,
            p if USERDATA.iter().any(|(c, _)| *c == p) => Kind::Userdata,
            _ => Kind::Table,
        };
        if !out.contains(&kind) {
            out.push(kind);
        }
    }
    out
}

/// A valid call of an entry: the Lua expression of `self` (methods), the arguments, and
/// whether it runs inside `post` (the `Pose` methods).
#[derive(Debug, Clone, Copy)]
pub struct Example {
    pub receiver: &'static str,
    pub args: &'static [&'static str],
}

/// A valid call of each stub entry, on a rig with joints `head`, `pelvis`, `L_hand` and clips
/// `idle`, `walk`, `run`, and the parameters of [`SCAFFOLD`]. `None`: add one here.
pub fn example(entry: &str) -> Option<Example> {
    let e = |receiver, args| Some(Example { receiver, args });
    match entry {
        "Node:once" | "Node:loop" | "Node:mirror" => e("rig.idle", &[]),
        "Node:speed" => e("rig.idle", &["1.5"]),
        "Node:at" => e("rig.idle", &["0.1"]),
        "Node:event" => e("rig.idle", &["'step'", "0.1"]),
        "Rig:clip" => e("rig", &["'idle'"]),
        "Rig:joint" => e("rig", &["'head'"]),
        "Rig:springs" => e("rig", &["{ weight = 1 }"]),
        "Mask:weight" => e("mask.all()", &["'head'"]),
        "marionette.sides" => e("", &["{ pairs = { L_hand = 'R_hand' } }"]),
        "marionette.rig" => e("", &[]),
        "float" => e("", &["0.5", "0", "1"]),
        "bool" => e("", &["true"]),
        "trigger" => e("", &[]),
        "vec3" => e("", &["1", "2", "3"]),
        "params" => e("", &["{ extra = float(0, 0, 1) }"]),
        "blend" => e("", &["{ {rig.idle, 0.5}, {rig.walk, 0.5} }"]),
        "blend1d" => e(
            "",
            &[
                "'speed'",
                "{ {0, rig.idle}, {1, rig.walk} }",
                "{ sync = true }",
            ],
        ),
        "blend2d" => e(
            "",
            &[
                "'speed'",
                "'side'",
                "{ {0, 0, rig.idle}, {1, 0, rig.walk}, {0, 1, rig.run} }",
                "{ sync = false }",
            ],
        ),
        "additive" => e("", &["rig.idle", "rig.walk", "{ weight = 0.5 }"]),
        "layer" => e("", &["rig.idle", "{ rig.walk, mask = mask.all() }"]),
        "mirror" => e("", &["rig.walk"]),
        "stepped" => e("", &["rig.walk", "12"]),
        "warp" => e(
            "",
            &["rig.walk", "{ target = 'look', window = { 0.1, 0.5 } }"],
        ),
        "mask.subtree" => e("", &["'pelvis'", "0.5"]),
        "mask.joints" => e("", &["{ 'head' }"]),
        "mask.side" => e("", &["'left'"]),
        "mask.all" => e("", &["0.5"]),
        "state_machine" => e("", &["{ start = 'a', states = { a = rig.idle } }"]),
        "clip" => e("", &["'made'", "{ head = { {0, rotation = {0, 10, 0}} } }"]),
        "ik.look_at" | "Pose:look_at" => {
            e(receiver(entry), &["'head'", "{0, 1, 2}", "{ weight = 1 }"])
        }
        "ik.two_bone" | "Pose:two_bone_ik" => e(
            receiver(entry),
            &["'L_hand'", "{0.3, 1, 0.3}", "{ pole = {0, 1, 1} }"],
        ),
        "ik.foot_lock" => e("", &["{ 'L_hand' }", "{ release = 0.1 }"]),
        "ik.chain" => e(
            "",
            &["'pelvis'", "'head'", "{0, 1.8, 0.5}", "{ limits = 30 }"],
        ),
        "ik.spline" => e(
            "",
            &["'pelvis'", "'head'", "{ {0, 1.5, 0.2} }", "{ weight = 1 }"],
        ),
        "constrain.aim" => e("", &["'head'", "{0, 1, 2}", "{ limit = 60 }"]),
        "constrain.multi_aim" => e("", &["'head'", "{ { {0, 1, 2}, 1 } }", "{ limit = 60 }"]),
        "constrain.copy" => e("", &["'head'", "'pelvis'", "{ channel = 'rotation' }"]),
        "constrain.damped" => e("", &["'head'", "'pelvis'", "{ lag = 0.1 }"]),
        "constrain.twist" => e("", &["'pelvis'", "{ 'head' }", "{ axis = 'y' }"]),
        "constrain.limit" => e("", &["'head'", "{ cone = 30 }"]),
        "spring" => e("", &["{ 'head' }", "{ stiffness = 2 }"]),
        "sphere" => e("", &["'pelvis'", "0.1", "{0, 0, 0}"]),
        "capsule" => e("", &["'pelvis'", "0.1", "{0, 0, 0}", "{0, 0.3, 0}"]),
        "assert_motion" => e("", &["{ max_joint_speed = 1500 }"]),
        "ik.rotate" | "adjust.rotate" | "Pose:rotate" => {
            e(receiver(entry), &["'head'", "{0, 10, 0}", "{ weight = 1 }"])
        }
        "ik.translate" | "adjust.translate" | "Pose:translate" => e(
            receiver(entry),
            &["'pelvis'", "{0, 0.1, 0}", "{ weight = 1 }"],
        ),
        "Pose:set_translation" => e("pose", &["'pelvis'", "{0, 1, 0}", "{ weight = 1 }"]),
        "Pose:position" => e("pose", &["'head'"]),
        "Pose:set_morph" => e("pose", &["'smile'", "0.5"]),
        "Pose:morph" => e("pose", &["'smile'"]),
        "morph.set" => e("", &["'smile'", "0.5", "{ weight = 1 }"]),
        "mask.morphs" => e("", &["'smile'", "0.5"]),
        "takes" => e("", &["{ extra_take = { duration = 1 } }"]),
        "pass.loop_close" => e("", &["{ blend = 0.2 }"]),
        "pass.root_extract" => e("", &["{ drop = true }"]),
        "pass.foot_lock" => e("", &["{ feet = { 'L_hand' } }"]),
        "pass.smooth" => e("", &["{ window = 0.1 }"]),
        "pass.despike" => e("", &["{ max_speed = 1500 }"]),
        "Frames:joint" | "Frames:name" => e("frames", &["'head'"]),
        "Frames:time" => e("frames", &["1"]),
        "Frames:rotation" | "Frames:translation" | "Frames:scale" => e("frames", &["1", "'head'"]),
        "Frames:set_rotation" => e("frames", &["1", "'head'", "0", "0", "0", "1"]),
        "Frames:set_translation" => e("frames", &["1", "'head'", "0", "1", "0"]),
        "Frames:set_scale" => e("frames", &["1", "'head'", "1", "1", "1"]),
        "graph" => e("", &["{ root = rig.idle }"]),
        "retarget" => e("", &["src.idle", "{ from = src }"]),
        _ => None,
    }
}

fn receiver(entry: &str) -> &'static str {
    if entry.starts_with("Pose:") {
        "pose"
    } else if entry.starts_with("Frames:") {
        "frames"
    } else {
        ""
    }
}

/// The start of every case: the rig and the parameters the examples use.
pub const SCAFFOLD: &str = "local rig = marionette.rig()\nlocal src = marionette.rig('source.glb')\n\
    params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }\n";

/// One generated case: a whole script.
#[derive(Debug, Clone)]
pub struct Case {
    /// `Node:speed(rate = nil)`.
    pub label: String,
    /// The stub entry (or class) it exercises.
    pub entry: String,
    /// The statement it makes.
    pub call: String,
    /// True when it runs inside `post`, or inside a bake pass of take `t` (the `Frames`
    /// methods; see [`Case::in_pass`]): a take `t` plays it.
    pub in_post: bool,
    /// True for the example's own call, which must work.
    pub valid: bool,
}

/// The script around statements that run inside a bake pass of take `t`.
fn in_pass_script(body: &str) -> String {
    format!(
        "return graph {{ root = rig.idle, takes = {{ t = {{ duration = 0.05,\n  passes = {{ function(frames)\n{body}  end }} }} }} }}\n"
    )
}

/// True for the entries whose calls run inside a bake pass (the `Frames` methods and the
/// `frames` value).
fn in_pass(entry: &str) -> bool {
    entry.starts_with("Frames:") || entry == "metatable of frames"
}

impl Case {
    /// True when it runs inside a bake pass (`frames` in scope).
    pub fn in_pass(&self) -> bool {
        in_pass(&self.entry)
    }

    /// The whole script of this case.
    pub fn script(&self) -> String {
        let mut s = String::from(SCAFFOLD);
        if self.in_pass() {
            s.push_str(&in_pass_script(&format!("    {}\n", self.call)));
        } else if self.in_post {
            let _ = write!(
                s,
                "return graph {{ root = rig.idle, takes = {{ t = {{ duration = 0.05 }} }},\n  post = function(pose, ctx)\n    {}\n  end }}\n",
                self.call
            );
        } else if self.entry == "graph" {
            let _ = writeln!(s, "return {}", self.call);
        } else {
            let _ = writeln!(s, "{}\nreturn graph {{ root = rig.idle }}", self.call);
        }
        s
    }
}

/// A call of `entry` on `receiver` (methods) with `args`.
fn call(entry: &Entry, receiver: &str, args: &[String]) -> String {
    let args = args.join(", ");
    match &entry.class {
        Some(_) => format!("local v = {receiver}; v:{}({args})", entry.short),
        None => format!("{}({args})", entry.name),
    }
}

/// A call of `entry` with an explicit receiver value (possibly wrong) as `self`.
fn call_with_self(entry: &Entry, receiver: &str, self_value: &str, args: &[String]) -> String {
    let mut all = vec![self_value.to_string()];
    all.extend(args.iter().cloned());
    format!(
        "local v = {receiver}; v.{}({})",
        entry.short,
        all.join(", ")
    )
}

/// The cases of one entry (empty without an example).
pub fn entry_cases(entry: &Entry) -> Vec<Case> {
    let Some(ex) = example(&entry.name) else {
        return Vec::new();
    };
    let in_post = matches!(entry.class.as_deref(), Some("Pose" | "Frames"));
    let mut out = Vec::new();
    let case = |label: String, call: String, valid: bool| Case {
        label,
        entry: entry.name.clone(),
        call,
        in_post,
        valid,
    };
    let args: Vec<String> = ex.args.iter().map(|s| s.to_string()).collect();
    out.push(case(
        format!("{} (valid)", entry.name),
        call(entry, ex.receiver, &args),
        true,
    ));
    let fixed: Vec<&Param> = entry.params.iter().filter(|p| !p.vararg).collect();
    let vararg = entry.params.iter().any(|p| p.vararg);
    // every argument given (absent optional ones as nil), then one more
    if !vararg {
        let mut more = args.clone();
        while more.len() < fixed.len() {
            more.push("nil".into());
        }
        more.push("1".into());
        out.push(case(
            format!("{} with one argument too many", entry.name),
            call(entry, ex.receiver, &more),
            false,
        ));
    }
    // the last required argument missing
    if let Some(last) = fixed.iter().rposition(|p| !p.optional) {
        let fewer: Vec<String> = args.iter().take(last).cloned().collect();
        out.push(case(
            format!("{} with one argument too few", entry.name),
            call(entry, ex.receiver, &fewer),
            false,
        ));
    }
    // each wrong kind in each position (self first)
    if let Some(class) = &entry.class {
        let other = USERDATA
            .iter()
            .find(|(c, _)| c != class)
            .map_or("rig.idle", |(_, v)| *v);
        for kind in Kind::ALL {
            out.push(case(
                format!("{}(self = {})", entry.name, kind.label()),
                call_with_self(entry, ex.receiver, &kind.value(other), &args),
                false,
            ));
        }
    }
    for (i, p) in entry.params.iter().enumerate() {
        let ok = accepted(&p.ty);
        let other = USERDATA
            .iter()
            .find(|(c, _)| !p.ty.split('|').any(|t| t == *c))
            .map_or("rig.idle", |(_, v)| *v);
        for kind in Kind::ALL {
            let fine = ok.contains(&kind) && kind != Kind::Userdata
                || (kind == Kind::Nil && (p.optional || p.vararg));
            if fine {
                continue;
            }
            let mut wrong = args.clone();
            while wrong.len() <= i {
                wrong.push("nil".into());
            }
            wrong[i] = kind.value(other);
            out.push(case(
                format!("{}({} = {})", entry.name, p.name, kind.label()),
                call(entry, ex.receiver, &wrong),
                false,
            ));
        }
    }
    out
}

/// The operator and index cases of a class (a value of it as [`USERDATA`] makes it).
pub fn class_cases(class: &ClassInfo) -> Vec<Case> {
    let Some((_, value)) = USERDATA.iter().find(|(c, _)| *c == class.name) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let case = |label: String, call: String| Case {
        label,
        entry: class.name.clone(),
        call,
        in_post: false,
        valid: false,
    };
    for (op, operand) in &class.operators {
        let symbol = match op.as_str() {
            "add" => "+",
            "sub" => "-",
            "mul" => "*",
            "div" => "/",
            "unm" => continue,
            _ => continue,
        };
        let ok = accepted(operand);
        let other = USERDATA
            .iter()
            .find(|(c, _)| c != operand)
            .map_or("rig.idle", |(_, v)| *v);
        for kind in Kind::ALL {
            if ok.contains(&kind) && kind != Kind::Userdata {
                continue;
            }
            let w = kind.value(other);
            out.push(case(
                format!("{} {symbol} {}", class.name, kind.label()),
                format!("local x = {value} {symbol} {w}"),
            ));
            out.push(case(
                format!("{} {symbol} {}", kind.label(), class.name),
                format!("local x = {w} {symbol} {value}"),
            ));
        }
    }
    if class.string_index {
        for kind in Kind::ALL {
            if kind == Kind::String {
                continue;
            }
            out.push(case(
                format!("{}[{}]", class.name, kind.label()),
                format!(
                    "local x = {value}[{}]; assert(x ~= nil, 'no value')",
                    kind.value("rig.idle")
                ),
            ));
        }
    }
    out
}

/// Every value the API hands a script, as Lua source, and whether it only exists in `post`.
pub const HANDED_OUT: [(&str, &str, bool); 12] = [
    ("rig", "rig", false),
    ("node", "rig.idle", false),
    ("mask", "mask.all()", false),
    ("parameter declaration", "float(0, 0, 1)", false),
    ("post op", "ik.look_at('head', {0, 1, 2})", false),
    ("rig.joints", "rig.joints", false),
    ("debug", "debug", false),
    ("pose", "pose", true),
    ("ctx", "ctx", true),
    ("ctx vec3", "ctx.look", true),
    ("pose:position", "pose:position('head')", true),
    ("frames", "frames", true),
];

/// Metamethods a script might look for on a fetched metatable.
pub const METAMETHODS: [&str; 6] = [
    "__index",
    "__newindex",
    "__call",
    "__add",
    "__gc",
    "__close",
];

/// The cases that fetch the metatable of every value the API hands out and call into it.
pub fn metatable_cases() -> Vec<Case> {
    let mut out = Vec::new();
    for (what, value, in_post) in HANDED_OUT {
        for mm in METAMETHODS {
            out.push(Case {
                label: format!("getmetatable({what}).{mm}(...)"),
                entry: format!("metatable of {what}"),
                call: format!("getmetatable({value}).{mm}(12345, 'x', print)"),
                in_post,
                valid: false,
            });
        }
    }
    out
}

/// Every case of the family, entry by entry, then the classes' operators and the metatables.
pub fn all_cases(stubs: &str) -> Vec<Case> {
    let mut out: Vec<Case> = entries(stubs).iter().flat_map(entry_cases).collect();
    out.extend(classes(stubs).iter().flat_map(class_cases));
    out.extend(metatable_cases());
    out
}

/// The fixture file name of an entry or class (`api_args_Node_speed.lua`).
pub fn fixture_name(entry: &str) -> String {
    let clean: String = entry
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    format!("api_args_{clean}.lua")
}

/// One fixture file per entry (and per class, and per handed-out value's metatable): its
/// wrong cases one after another, each in `pcall` so all of them run, then an error so the
/// file always ends with one. The valid call is left out.
pub fn fixture_files(stubs: &str) -> Vec<(String, String)> {
    let cases = all_cases(stubs);
    let mut names: Vec<String> = Vec::new();
    for c in &cases {
        if !names.contains(&c.entry) {
            names.push(c.entry.clone());
        }
    }
    names
        .iter()
        .map(|entry| {
            let mine: Vec<&Case> = cases.iter().filter(|c| &c.entry == entry && !c.valid).collect();
            let in_post = mine.iter().any(|c| c.in_post);
            let mut body = String::new();
            for c in &mine {
                let _ = writeln!(body, "  -- {}\n  pcall(function() {} end)", c.label, c.call);
            }
            let _ = writeln!(
                body,
                "  error('api_args: {} wrong calls of {entry} made')",
                mine.len()
            );
            let mut s = format!(
                "-- expect: any error\n{}-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit\n\
                 -- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).\n\
                 -- {entry}, called with each wrong kind of argument.\n{SCAFFOLD}",
                if in_post { "-- take: t\n" } else { "" },
            );
            if in_pass(entry) {
                s.push_str(&in_pass_script(&body));
            } else if in_post {
                let _ = write!(
                    s,
                    "return graph {{ root = rig.idle, takes = {{ t = {{ duration = 0.05 }} }},\n  post = function(pose, ctx)\n{body}  end }}\n"
                );
            } else {
                let _ = write!(s, "do\n{body}end\n");
            }
            (fixture_name(entry), s)
        })
        .collect()
}
