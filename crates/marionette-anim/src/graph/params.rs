//! Graph parameters: named, typed values that scripts and takes write and nodes read.
//!
//! Four kinds: `Float` (clamped to a range), `Bool`, `Trigger` (a one-shot flag: it stays set
//! until a transition consumes it or the fixed step it was pending in ends) and `Vec3` (e.g. a
//! look-at target). Parameters take effect at the next fixed step.

use glam::Vec3;

use super::GraphError;

/// Handle of a parameter in its graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ParamId(pub(crate) u16);

impl ParamId {
    /// Index of the parameter in declaration order.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The kind of a parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamKind {
    /// A number, clamped to `[min, max]`.
    Float,
    /// On or off.
    Bool,
    /// A one-shot event (see the module docs).
    Trigger,
    /// A 3D vector (model space when used as a target).
    Vec3,
}

impl ParamKind {
    /// Lower-case name (`float`, `bool`, `trigger`, `vec3`).
    pub fn name(self) -> &'static str {
        match self {
            ParamKind::Float => "float",
            ParamKind::Bool => "bool",
            ParamKind::Trigger => "trigger",
            ParamKind::Vec3 => "vec3",
        }
    }
}

/// A parameter value.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum ParamValue {
    /// A float value.
    Float(f32),
    /// A bool value.
    Bool(bool),
    /// A trigger: `true` while pending.
    Trigger(bool),
    /// A vector value.
    Vec3(Vec3),
}

impl ParamValue {
    /// The kind of this value.
    pub fn kind(&self) -> ParamKind {
        match self {
            ParamValue::Float(_) => ParamKind::Float,
            ParamValue::Bool(_) => ParamKind::Bool,
            ParamValue::Trigger(_) => ParamKind::Trigger,
            ParamValue::Vec3(_) => ParamKind::Vec3,
        }
    }

    /// The value as a number: floats as they are, bools and triggers as 0 or 1, vectors as
    /// their length.
    pub fn as_f32(&self) -> f32 {
        match *self {
            ParamValue::Float(v) => v,
            ParamValue::Bool(b) | ParamValue::Trigger(b) => b as u8 as f32,
            ParamValue::Vec3(v) => v.length(),
        }
    }
}

/// Declaration of one parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamDef {
    /// Unique name.
    pub name: String,
    /// Default value (its kind is the parameter's kind).
    pub default: ParamValue,
    /// Lower bound for floats.
    pub min: f32,
    /// Upper bound for floats.
    pub max: f32,
}

impl ParamDef {
    /// A float parameter clamped to `[min, max]`.
    pub fn float(name: impl Into<String>, default: f32, min: f32, max: f32) -> Self {
        Self {
            name: name.into(),
            default: ParamValue::Float(default),
            min,
            max,
        }
    }

    /// A bool parameter.
    pub fn boolean(name: impl Into<String>, default: bool) -> Self {
        Self {
            name: name.into(),
            default: ParamValue::Bool(default),
            min: 0.0,
            max: 1.0,
        }
    }

    /// A trigger parameter.
    pub fn trigger(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            default: ParamValue::Trigger(false),
            min: 0.0,
            max: 1.0,
        }
    }

    /// A vector parameter.
    pub fn vec3(name: impl Into<String>, default: Vec3) -> Self {
        Self {
            name: name.into(),
            default: ParamValue::Vec3(default),
            min: 0.0,
            max: 0.0,
        }
    }

    /// The parameter's kind.
    pub fn kind(&self) -> ParamKind {
        self.default.kind()
    }
}

/// Parameter declarations and current values.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Params {
    defs: Vec<ParamDef>,
    values: Vec<ParamValue>,
}

impl Params {
    /// Declares a parameter; errors if the name is taken or the range is empty or not finite.
    pub fn declare(&mut self, def: ParamDef) -> Result<ParamId, GraphError> {
        if self.find(&def.name).is_some() {
            return Err(GraphError::DuplicateParam(def.name));
        }
        if def.default.kind() == ParamKind::Float
            && !(def.min <= def.max && def.min.is_finite() && def.max.is_finite())
        {
            return Err(GraphError::BadParamRange {
                name: def.name,
                min: def.min,
                max: def.max,
            });
        }
        if self.defs.len() >= u16::MAX as usize {
            return Err(GraphError::TooManyParams);
        }
        let id = ParamId(self.defs.len() as u16);
        let mut value = def.default;
        if let ParamValue::Float(v) = &mut value {
            *v = v.clamp(def.min, def.max);
        }
        if let ParamValue::Trigger(t) = &mut value {
            *t = false;
        }
        self.values.push(value);
        self.defs.push(def);
        Ok(id)
    }

    /// Finds a parameter by name.
    pub fn find(&self, name: &str) -> Option<ParamId> {
        self.defs
            .iter()
            .position(|d| d.name == name)
            .map(|i| ParamId(i as u16))
    }

    /// Finds a parameter by name, with an error naming it when missing.
    pub fn lookup(&self, name: &str) -> Result<ParamId, GraphError> {
        self.find(name)
            .ok_or_else(|| GraphError::UnknownParam(name.to_string()))
    }

    /// All declarations, in order.
    pub fn defs(&self) -> &[ParamDef] {
        &self.defs
    }

    /// The declaration of one parameter.
    pub fn def(&self, id: ParamId) -> &ParamDef {
        &self.defs[id.index()]
    }

    /// Current values, in declaration order.
    pub fn values(&self) -> &[ParamValue] {
        &self.values
    }

    /// The current value of a parameter.
    pub fn get(&self, id: ParamId) -> ParamValue {
        self.values[id.index()]
    }

    /// The current value as a number (see [`ParamValue::as_f32`]).
    pub fn float(&self, id: ParamId) -> f32 {
        self.values[id.index()].as_f32()
    }

    /// The current value as a vector (zero for non-vector parameters).
    pub fn vec3(&self, id: ParamId) -> Vec3 {
        match self.values[id.index()] {
            ParamValue::Vec3(v) => v,
            _ => Vec3::ZERO,
        }
    }

    /// True when the bool is on or the trigger is pending.
    pub fn is_set(&self, id: ParamId) -> bool {
        matches!(
            self.values[id.index()],
            ParamValue::Bool(true) | ParamValue::Trigger(true)
        )
    }

    /// Sets a value of the parameter's own kind (floats are clamped to the range; a trigger set
    /// to `true` is fired). Errors on a kind mismatch or a non-finite number.
    pub fn set(&mut self, id: ParamId, value: ParamValue) -> Result<(), GraphError> {
        let def = &self.defs[id.index()];
        if def.default.kind() != value.kind() {
            return Err(GraphError::ParamKind {
                name: def.name.clone(),
                expected: def.default.kind(),
                found: value.kind(),
            });
        }
        let value = match value {
            ParamValue::Float(v) if !v.is_finite() => {
                return Err(GraphError::NotFinite(def.name.clone()))
            }
            ParamValue::Vec3(v) if !v.is_finite() => {
                return Err(GraphError::NotFinite(def.name.clone()))
            }
            ParamValue::Float(v) => ParamValue::Float(v.clamp(def.min, def.max)),
            other => other,
        };
        self.values[id.index()] = value;
        Ok(())
    }

    /// Sets a float parameter.
    pub fn set_float(&mut self, id: ParamId, v: f32) -> Result<(), GraphError> {
        self.set(id, ParamValue::Float(v))
    }

    /// Sets a bool parameter.
    pub fn set_bool(&mut self, id: ParamId, v: bool) -> Result<(), GraphError> {
        self.set(id, ParamValue::Bool(v))
    }

    /// Fires a trigger parameter.
    pub fn fire(&mut self, id: ParamId) -> Result<(), GraphError> {
        self.set(id, ParamValue::Trigger(true))
    }

    /// Consumes a pending trigger (no effect on other kinds).
    pub(crate) fn consume(&mut self, id: ParamId) {
        if let ParamValue::Trigger(t) = &mut self.values[id.index()] {
            *t = false;
        }
    }

    /// Clears every pending trigger (end of a fixed step).
    pub(crate) fn clear_triggers(&mut self) {
        for v in &mut self.values {
            if let ParamValue::Trigger(t) = v {
                *t = false;
            }
        }
    }

    /// Copies the values of `other`'s parameters that exist here with the same name and kind
    /// (for keeping the user's values across a script reload). Returns how many were copied.
    pub fn assign_from(&mut self, other: &Params) -> usize {
        let mut copied = 0;
        for (def, value) in other.defs.iter().zip(&other.values) {
            if let Some(id) = self.find(&def.name) {
                if self.set(id, *value).is_ok() {
                    copied += 1;
                }
            }
        }
        copied
    }

    /// Restores every value to its default.
    pub fn reset(&mut self) {
        for (v, d) in self.values.iter_mut().zip(&self.defs) {
            *v = match d.default {
                ParamValue::Float(f) => ParamValue::Float(f.clamp(d.min, d.max)),
                ParamValue::Trigger(_) => ParamValue::Trigger(false),
                other => other,
            };
        }
    }
}

/// A value that is either constant or read from a parameter each step: a number
/// ([`Value`]) or a vector ([`Vec3Value`]).
///
/// `P` is how the parameter is referred to: a [`ParamId`] in a built graph, a name (`String`) in
/// a script's spec, resolved with [`Input::try_map`] when the graph is built.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Input<T, P = ParamId> {
    /// A constant.
    Const(T),
    /// The current value of a parameter.
    Param(P),
}

/// A number that is either constant or read from a float parameter each step (bools and
/// triggers read as 0 or 1, see [`ParamValue::as_f32`]).
pub type Value<P = ParamId> = Input<f32, P>;

/// A vector that is either constant or read from a vec3 parameter each step.
pub type Vec3Value<P = ParamId> = Input<Vec3, P>;

impl<T: Copy, P> Input<T, P> {
    /// The same value with its parameter reference resolved by `f` (e.g. a name to an id).
    pub fn try_map<Q, E>(&self, f: impl FnOnce(&P) -> Result<Q, E>) -> Result<Input<T, Q>, E> {
        Ok(match self {
            Input::Const(c) => Input::Const(*c),
            Input::Param(p) => Input::Param(f(p)?),
        })
    }
}

impl Value {
    /// The value now.
    pub fn get(&self, params: &Params) -> f32 {
        match *self {
            Input::Const(v) => v,
            Input::Param(p) => params.float(p),
        }
    }
}

impl Vec3Value {
    /// The value now.
    pub fn get(&self, params: &Params) -> Vec3 {
        match *self {
            Input::Const(v) => v,
            Input::Param(p) => params.vec3(p),
        }
    }
}

impl<P> From<f32> for Value<P> {
    fn from(v: f32) -> Self {
        Input::Const(v)
    }
}

impl<P> From<Vec3> for Vec3Value<P> {
    fn from(v: Vec3) -> Self {
        Input::Const(v)
    }
}

impl<T> From<ParamId> for Input<T> {
    fn from(p: ParamId) -> Self {
        Input::Param(p)
    }
}

/// Checks a number a node reads: a finite constant, or a declared parameter that is not a vec3
/// (the message names `what`).
pub(crate) fn check_number(v: &Value, params: &Params, what: &str) -> Result<(), String> {
    match v {
        Value::Const(c) if !c.is_finite() => Err(format!("{what} is not a finite number")),
        Value::Param(p) if p.index() >= params.defs().len() => {
            Err(format!("{what} uses an unknown parameter"))
        }
        Value::Param(p) if params.def(*p).default.kind() == ParamKind::Vec3 => Err(format!(
            "{what} uses vec3 parameter '{}' as a number",
            params.def(*p).name
        )),
        _ => Ok(()),
    }
}

/// Checks a point a node reads: a constant, or a declared vec3 parameter.
pub(crate) fn check_vec(v: &Vec3Value, params: &Params) -> Result<(), GraphError> {
    if let Vec3Value::Param(p) = v {
        let def = params
            .defs()
            .get(p.index())
            .ok_or_else(|| GraphError::UnknownParam(format!("#{}", p.index())))?;
        if def.default.kind() != ParamKind::Vec3 {
            return Err(GraphError::ParamKind {
                name: def.name.clone(),
                expected: ParamKind::Vec3,
                found: def.default.kind(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn float_def(name: &str) -> ParamDef {
        ParamDef {
            name: name.into(),
            default: ParamValue::Float(0.5),
            min: 0.0,
            max: 2.0,
        }
    }

    /// Floats clamp to their range; a kind mismatch and a duplicate name are errors.
    #[test]
    fn set_clamps_and_checks_kind() {
        let mut p = Params::default();
        let speed = p.declare(float_def("speed")).unwrap();
        assert!(matches!(
            p.declare(float_def("speed")),
            Err(GraphError::DuplicateParam(_))
        ));
        p.set_float(speed, 5.0).unwrap();
        assert_eq!(p.float(speed), 2.0);
        assert!(matches!(
            p.set_bool(speed, true),
            Err(GraphError::ParamKind { .. })
        ));
        assert!(matches!(
            p.set_float(speed, f32::NAN),
            Err(GraphError::NotFinite(_))
        ));
    }

    /// Values carry over by name and kind; a kind change or a missing name is skipped.
    #[test]
    fn assign_from_by_name() {
        let mut old = Params::default();
        let a = old.declare(float_def("speed")).unwrap();
        old.declare(ParamDef {
            name: "look".into(),
            default: ParamValue::Bool(true),
            min: 0.0,
            max: 1.0,
        })
        .unwrap();
        old.declare(float_def("gone")).unwrap();
        old.set_float(a, 1.5).unwrap();
        let mut new = Params::default();
        new.declare(ParamDef {
            name: "look".into(),
            default: ParamValue::Vec3(Vec3::ONE),
            min: 0.0,
            max: 0.0,
        })
        .unwrap();
        let speed = new.declare(float_def("speed")).unwrap();
        assert_eq!(new.assign_from(&old), 1);
        assert_eq!(new.float(speed), 1.5);
    }

    /// Triggers fire, are consumed, and clear at the end of a step.
    #[test]
    fn triggers() {
        let mut p = Params::default();
        let jump = p
            .declare(ParamDef {
                name: "jump".into(),
                default: ParamValue::Trigger(false),
                min: 0.0,
                max: 0.0,
            })
            .unwrap();
        p.fire(jump).unwrap();
        assert!(p.is_set(jump));
        p.consume(jump);
        assert!(!p.is_set(jump));
        p.fire(jump).unwrap();
        p.clear_triggers();
        assert!(!p.is_set(jump));
    }
}
