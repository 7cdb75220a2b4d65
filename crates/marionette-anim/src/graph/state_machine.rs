//! State machine descriptions: states (each a node), transitions with conditions, blend
//! durations and curves.
//!
//! Runtime rules (implemented in the graph's update pass):
//! - Each fixed step, the current state (and a still-playing transition source) advance first;
//!   then the transitions are checked in the order they were added and the first whose source
//!   matches and whose conditions all hold fires (at most one per step). Conditions of one
//!   transition are AND-ed; add several transitions for OR.
//! - Entering a state restarts its subtree (clip playheads to their start offset, nested state
//!   machines to their initial state). The target starts playing when the transition starts and
//!   its clips are never stretched: a transition never changes the target's length (seed 003).
//! - Source [`SourceMode::Frozen`]: the source pose is captured at the switch and held (seed 003).
//!   [`SourceMode::Playing`]: the source keeps advancing while it fades out. A transition from a
//!   state to itself always freezes (one node cannot play twice).
//! - Source [`SourceMode::Inertial`]: no crossfade; the target plays at full weight and the
//!   outgoing pose's difference from it decays over the blend time (an interrupting inertial
//!   transition starts from the blended pose of the moment, offsets included).
//! - Interruption: while a transition runs, transitions whose source is the *target* state (or
//!   any state) may fire if the running one is `interruptible` (the default). The current blended
//!   output is then captured as the new frozen source, and the new target blends in from it.
//! - Triggers used by a firing transition are consumed; triggers that fire nothing clear at the
//!   end of the step.

use std::fmt;

use super::curve::Curve;
use super::node_id::NodeId;
use super::params::{ParamId, Params};

/// Handle of a state in its state machine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StateId(pub(crate) u16);

impl StateId {
    /// Index of the state in creation order.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A named state playing one node.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// State name (unique in its machine).
    pub name: String,
    /// The node played in this state.
    pub node: NodeId,
}

/// Comparison of a parameter with a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompareOp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

impl CompareOp {
    /// Parses `<`, `<=`, `>`, `>=`, `==`, `~=` / `!=`.
    pub fn from_symbol(s: &str) -> Option<Self> {
        Some(match s {
            "<" => CompareOp::Lt,
            "<=" => CompareOp::Le,
            ">" => CompareOp::Gt,
            ">=" => CompareOp::Ge,
            "==" => CompareOp::Eq,
            "~=" | "!=" => CompareOp::Ne,
            _ => return None,
        })
    }

    /// The symbol scripts write (`<`, `<=`, `>`, `>=`, `==`, `~=`).
    pub fn symbol(self) -> &'static str {
        match self {
            CompareOp::Lt => "<",
            CompareOp::Le => "<=",
            CompareOp::Gt => ">",
            CompareOp::Ge => ">=",
            CompareOp::Eq => "==",
            CompareOp::Ne => "~=",
        }
    }

    /// Applies the comparison.
    pub fn test(self, a: f32, b: f32) -> bool {
        match self {
            CompareOp::Lt => a < b,
            CompareOp::Le => a <= b,
            CompareOp::Gt => a > b,
            CompareOp::Ge => a >= b,
            CompareOp::Eq => a == b,
            CompareOp::Ne => a != b,
        }
    }
}

/// What a predicate callback sees.
pub struct ConditionContext<'a> {
    /// Parameter values.
    pub params: &'a Params,
    /// Name of the current state.
    pub state: &'a str,
    /// Seconds since the current state was entered.
    pub state_time: f32,
    /// Normalised time of the current state since it was entered (1.5 = halfway through its
    /// second loop).
    pub normalized_time: f32,
}

/// A predicate callback (e.g. a Lua function wrapped by the script host). It must be a pure
/// function of its context for takes to stay deterministic.
pub type Predicate = Box<dyn Fn(&ConditionContext) -> bool>;

/// One condition of a transition.
///
/// `P` refers to parameters and `F` to predicates: a [`ParamId`] and a [`Predicate`] callback in
/// a graph; a parameter name and the index of a Lua function in a script's spec.
#[derive(Clone, PartialEq)]
pub enum Condition<P = ParamId, F = Predicate> {
    /// A trigger parameter is pending (it is consumed when the transition fires).
    Trigger(P),
    /// `param op value` (bools and triggers read as 0/1).
    Compare(P, CompareOp, f32),
    /// A bool (or trigger) parameter reads as 1 (`true`) or 0 (`false`); nothing is consumed.
    Flag(P, bool),
    /// A callback returns true.
    Predicate(F),
    /// The current state's clip reached its end (a looping clip: completed a cycle this step).
    AtEnd,
    /// The current state's normalised time since entry reached this value.
    ExitTime(f32),
}

impl<P, F> Condition<P, F> {
    /// The same condition with its parameter resolved by `param` and its predicate by
    /// `predicate` (e.g. names to ids and Lua function indices to callbacks).
    pub fn try_map<Q, G, E>(
        &self,
        param: impl FnOnce(&P) -> Result<Q, E>,
        predicate: impl FnOnce(&F) -> Result<G, E>,
    ) -> Result<Condition<Q, G>, E> {
        Ok(match self {
            Condition::Trigger(p) => Condition::Trigger(param(p)?),
            Condition::Compare(p, op, v) => Condition::Compare(param(p)?, *op, *v),
            Condition::Flag(p, v) => Condition::Flag(param(p)?, *v),
            Condition::Predicate(f) => Condition::Predicate(predicate(f)?),
            Condition::AtEnd => Condition::AtEnd,
            Condition::ExitTime(t) => Condition::ExitTime(*t),
        })
    }
}

impl<P: fmt::Debug, F> fmt::Debug for Condition<P, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Condition::Trigger(p) => write!(f, "Trigger({p:?})"),
            Condition::Compare(p, op, v) => write!(f, "Compare({p:?} {op:?} {v})"),
            Condition::Flag(p, v) => write!(f, "Flag({p:?} {v})"),
            Condition::Predicate(_) => write!(f, "Predicate(..)"),
            Condition::AtEnd => write!(f, "AtEnd"),
            Condition::ExitTime(t) => write!(f, "ExitTime({t})"),
        }
    }
}

/// Where the outgoing pose comes from during a transition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum SourceMode {
    /// Captured at the switch and held (seed 003).
    #[default]
    Frozen,
    /// Keeps playing while it fades out.
    Playing,
    /// Not blended at all: the target plays at full weight at once and the difference from
    /// the outgoing pose decays to zero over the blend time, continuous in position and
    /// velocity (inertialization, [`super::inertia`]); the source is not evaluated after the
    /// switch, and the curve is not used.
    Inertial,
}

/// A transition between two states.
#[derive(Debug)]
pub struct Transition {
    /// Source state (`None`: any state other than the target).
    pub from: Option<StateId>,
    /// Target state.
    pub to: StateId,
    /// All must hold (at least one is required).
    pub conditions: Vec<Condition>,
    /// Blend duration in seconds (0 = cut).
    pub duration: f32,
    /// Weight curve over the blend.
    pub curve: Curve,
    /// Frozen or playing source.
    pub source: SourceMode,
    /// Whether later transitions may interrupt this one.
    pub interruptible: bool,
}

impl Transition {
    /// A cut from `from` to `to` with no conditions yet.
    pub fn new(from: StateId, to: StateId) -> Self {
        Self {
            from: Some(from),
            to,
            conditions: Vec::new(),
            duration: 0.0,
            curve: Curve::Linear,
            source: SourceMode::Frozen,
            interruptible: true,
        }
    }

    /// A transition from any state to `to`.
    pub fn from_any(to: StateId) -> Self {
        Self {
            from: None,
            ..Self::new(StateId(0), to)
        }
    }

    /// Adds a condition.
    pub fn when(mut self, condition: Condition) -> Self {
        self.conditions.push(condition);
        self
    }

    /// Fires on a trigger.
    pub fn on(self, trigger: ParamId) -> Self {
        self.when(Condition::Trigger(trigger))
    }

    /// Fires when `param op value`.
    pub fn compare(self, param: ParamId, op: CompareOp, value: f32) -> Self {
        self.when(Condition::Compare(param, op, value))
    }

    /// Fires when a bool (or trigger) parameter is `value`.
    pub fn flag(self, param: ParamId, value: bool) -> Self {
        self.when(Condition::Flag(param, value))
    }

    /// Fires when the callback returns true.
    pub fn predicate(self, f: impl Fn(&ConditionContext) -> bool + 'static) -> Self {
        self.when(Condition::Predicate(Box::new(f)))
    }

    /// Fires at the end of the current state's clip.
    pub fn at_end(self) -> Self {
        self.when(Condition::AtEnd)
    }

    /// Fires at a normalised time of the current state.
    pub fn exit_time(self, normalized: f32) -> Self {
        self.when(Condition::ExitTime(normalized))
    }

    /// Sets the blend duration and curve.
    pub fn blend(mut self, seconds: f32, curve: Curve) -> Self {
        self.duration = seconds;
        self.curve = curve;
        self
    }

    /// Sets the source mode.
    pub fn source(mut self, mode: SourceMode) -> Self {
        self.source = mode;
        self
    }

    /// Allows or forbids interruption.
    pub fn interruptible(mut self, on: bool) -> Self {
        self.interruptible = on;
        self
    }
}

/// When a state's named event fires.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StateEventTime {
    /// In the step a transition enters the state (the initial state is not entered at the
    /// graph's start).
    Enter,
    /// In the step a transition leaves the state.
    Exit,
    /// When the time since the state was entered crosses this many seconds (> 0), once per
    /// entry.
    After(f32),
}

/// A named event of a state, reported by [`Graph::events`](super::Graph::events) like a clip
/// event.
#[derive(Clone, Debug, PartialEq)]
pub struct StateEvent {
    /// The state.
    pub state: StateId,
    /// Event name.
    pub name: String,
    /// When it fires.
    pub at: StateEventTime,
}

/// States and transitions; the first state added is the initial one unless changed.
#[derive(Debug, Default)]
pub struct StateMachine {
    states: Vec<State>,
    pub(crate) transitions: Vec<Transition>,
    pub(crate) initial: StateId,
    pub(crate) events: Vec<StateEvent>,
}

impl StateMachine {
    /// An empty state machine.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a state playing `node`.
    pub fn state(&mut self, name: impl Into<String>, node: NodeId) -> StateId {
        let id = StateId(self.states.len().min(u16::MAX as usize) as u16);
        self.states.push(State {
            name: name.into(),
            node,
        });
        id
    }

    /// Adds a transition (checked in the order added).
    pub fn transition(&mut self, t: Transition) {
        self.transitions.push(t);
    }

    /// Adds a named event to `state` (see [`StateEventTime`]).
    pub fn event(&mut self, state: StateId, name: impl Into<String>, at: StateEventTime) {
        self.events.push(StateEvent {
            state,
            name: name.into(),
            at,
        });
    }

    /// The states' events, in the order added.
    pub fn events(&self) -> &[StateEvent] {
        &self.events
    }

    /// Sets the initial state.
    pub fn initial(&mut self, state: StateId) {
        self.initial = state;
    }

    /// Finds a state by name.
    pub fn find(&self, name: &str) -> Option<StateId> {
        self.states
            .iter()
            .position(|s| s.name == name)
            .map(|i| StateId(i as u16))
    }

    /// The states, in creation order.
    pub fn states(&self) -> &[State] {
        &self.states
    }

    /// The transitions, in priority order.
    pub fn transitions(&self) -> &[Transition] {
        &self.transitions
    }

    /// The initial state.
    pub fn initial_state(&self) -> StateId {
        self.initial
    }
}
