//! Node kinds declared in one place each: a file per kind holds its description (the struct a
//! script or Rust builds), its inputs, how its parameter names resolve, its names, what lowering
//! keeps, its running state, its update and its evaluation; its line in [`kinds!`] below
//! registers it. The passes reach every kind through one arm each (`KindData`), and a kind's
//! file reaches the passes only through the views `kind.rs` declares (`Walk` for the update,
//! `Pool` for the evaluation, `LowerCx` for lowering), so no kind file imports a pass.
//!
//! **How to add a node kind** (four files, besides its tests and its prose):
//! 1. `graph/kinds/<kind>.rs`: the description (`pub struct`, generic over how it names
//!    parameters, `P`, when it reads one), `impl Refs<P>` (its inputs: the one list of them;
//!    and `resolve`, names to ids in source order) and `impl Kind` (`NAME`, shown in messages and
//!    `run --json`; `SCRIPT`, its Lua name; `lower`, `state`, `update`, `eval`, `rate`), with its
//!    unit tests;
//! 2. `graph/kinds/mod.rs` (this file): its `mod` and `pub use` lines, and its line in
//!    [`kinds!`];
//! 3. `marionette-script/src/api/nodes.rs`: its Lua constructor, which pushes
//!    `NodeSpec::Kind(description.into())`;
//! 4. `scripts/marionette.d.lua`: its stub (the hostile fixtures are generated from it).
//!
//! Its prose goes in the guide (`docs/src/scripts.md`), its valid example call in
//! `tests/api_family/mod.rs`. A test fails when a kind's Lua name is missing from the stubs or
//! the guide. A kind here has at least one input and passes time and phase through its first
//! one; kinds that mix inputs by weight (blends), play clips, run state machines or read
//! another rig are the core kinds of `nodes.rs`, whose checklist is in `graph/mod.rs`.

mod kind;
mod mirror;
mod stepped;
mod time_scale;
mod warp;

pub use kind::Resolve;
pub(crate) use kind::{Kind, LowerCx, Refs, Walk};
pub use mirror::MirrorNode;
pub use stepped::SteppedNode;
pub use time_scale::TimeScaleNode;
pub use warp::WarpNode;

use super::node_id::NodeId;
use super::params::{ParamId, Params};
use super::pool::Pool;
use super::share::Share;
use super::state::NodeState;
use super::GraphError;

/// A kind's description with parameter ids, turned into a [`KindSpec`]: what `NodeSpec`'s
/// `From` uses, so `builder.add(MirrorNode { input })` works for every kind.
pub trait IntoKind {
    /// The description as a [`KindSpec`].
    fn into_kind(self) -> KindSpec;
}

/// The registry: one line per kind, `Variant(Description<P>, Description)` (the description as
/// a script writes it, then with parameter ids), beside its `mod` and `pub use` above. It
/// generates [`KindSpec`], `KindData` and their one-arm-per-kind dispatch, [`SCRIPT_NAMES`] and
/// the conversions.
macro_rules! kinds {
    ($( $(#[$doc:meta])* $V:ident($Spec:ty, $Graph:ty) ),* $(,)?) => {
        /// A node of one of the kinds of this folder, its parameters named by `P` (ids in a
        /// graph, names in a script's description).
        #[derive(Clone, Debug, PartialEq)]
        pub enum KindSpec<P = ParamId> {
            $( $(#[$doc])* $V($Spec), )*
        }

        impl<P> KindSpec<P> {
            /// The kind's name in messages and introspection.
            pub fn name(&self) -> &'static str {
                match self { $( KindSpec::$V(_) => <$Graph as Kind>::NAME, )* }
            }

            /// The kind's Lua name (`mirror`, or `:speed` for a node method).
            pub fn script_name(&self) -> &'static str {
                match self { $( KindSpec::$V(_) => <$Graph as Kind>::SCRIPT, )* }
            }

            /// The inputs, in evaluation order.
            pub fn inputs(&self) -> Vec<NodeId> {
                match self { $( KindSpec::$V(k) => <$Spec as Refs<P>>::inputs(k), )* }
            }

            /// The description with its references resolved by `r`.
            pub fn resolve<R: Resolve<P>>(&self, r: &mut R) -> Result<KindSpec, R::Error> {
                Ok(match self {
                    $( KindSpec::$V(k) => KindSpec::$V(<$Spec as Refs<P>>::resolve(k, r)?), )*
                })
            }
        }

        /// The Lua name of every kind of this folder (`:name` for a node method).
        pub const SCRIPT_NAMES: &[&str] = &[$( <$Graph as Kind>::SCRIPT ),*];

        $(
            impl<P> From<$Spec> for KindSpec<P> {
                fn from(k: $Spec) -> Self {
                    KindSpec::$V(k)
                }
            }

            impl IntoKind for $Graph {
                fn into_kind(self) -> KindSpec {
                    KindSpec::$V(self)
                }
            }
        )*

        /// What lowering kept of a node of one of these kinds.
        #[derive(Debug)]
        pub(crate) enum KindData {
            $( $V(<$Graph as Kind>::Data), )*
        }

        impl KindSpec {
            /// Checks the description and keeps what runs.
            pub(crate) fn lower(self, cx: &LowerCx) -> Result<KindData, GraphError> {
                Ok(match self {
                    $( KindSpec::$V(k) => KindData::$V(<$Graph as Kind>::lower(k, cx)?), )*
                })
            }
        }

        impl KindData {
            /// The running state of a fresh graph.
            pub fn state(&self) -> NodeState {
                match self { $( KindData::$V(d) => <$Graph as Kind>::state(d), )* }
            }

            /// One update visit.
            #[inline]
            pub fn update<W: Walk>(&self, w: &mut W, dt: f32, share: Share) {
                match self { $( KindData::$V(d) => <$Graph as Kind>::update(d, w, dt, share), )* }
            }

            /// The evaluation.
            #[inline]
            pub fn eval(&self, st: &NodeState, pool: &mut Pool) {
                match self { $( KindData::$V(d) => <$Graph as Kind>::eval(d, st, pool), )* }
            }

            /// The rate of its first input's time (`None`: its own).
            #[inline]
            pub fn rate(&self, params: &Params) -> Option<f32> {
                match self { $( KindData::$V(d) => <$Graph as Kind>::rate(d, params), )* }
            }

            /// Whether provenance looks through it to its first input.
            pub fn same_joints(&self) -> bool {
                match self { $( KindData::$V(_) => <$Graph as Kind>::SAME_JOINTS, )* }
            }
        }
    };
}

kinds! {
    /// Runs its input's time `scale` times as fast (`node:speed(k)`).
    TimeScale(TimeScaleNode<P>, TimeScaleNode),
    /// Mirrors its input left/right (`mirror(node)`).
    Mirror(MirrorNode, MirrorNode),
    /// Runs its input's time in whole steps of `1 / fps` seconds (`stepped(node, fps)`).
    Stepped(SteppedNode<P>, SteppedNode),
    /// Bends its input's root motion so the character lands on a target (`warp(node, opts)`).
    Warp(WarpNode<P>, WarpNode),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file of this folder is a registered kind (a file without a line in `kinds!` would
    /// not be compiled at all), and the names are unique.
    #[test]
    fn every_kind_file_is_registered() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/graph/kinds");
        let this = std::fs::read_to_string(dir.join("mod.rs")).unwrap();
        let mut files = 0;
        for e in std::fs::read_dir(&dir).unwrap() {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            let Some(stem) = name.strip_suffix(".rs") else {
                continue;
            };
            if stem == "mod" || stem == "kind" {
                continue;
            }
            files += 1;
            assert!(
                this.contains(&format!("mod {stem};")),
                "kinds/{name} has no `mod {stem};`"
            );
        }
        assert_eq!(
            files,
            SCRIPT_NAMES.len(),
            "a kind file without its line in kinds! {{ ... }}"
        );
        let mut names = SCRIPT_NAMES.to_vec();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), SCRIPT_NAMES.len(), "a Lua name is used twice");
    }
}
