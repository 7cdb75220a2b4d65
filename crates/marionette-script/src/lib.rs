//! # marionette-script
//!
//! **Owns** the Lua host (scripts describe graphs, parameters, takes and a post-process; Rust
//! evaluates them), hot reload, the rig loader ([`rigs`]: a script's `marionette.rig(file)`
//! imported through io under the confinement rule, else a default rig, else the mannequin), a
//! running script as a [`PoseSource`](marionette_anim::PoseSource) ([`preview`]), and
//! [`Cancel`], the flag that stops a running graph between frames (bakes and the editor set it).
//!
//! **Must not know** GPUs, UI or bakes: it depends on anim and io only. Scripts read files
//! (`require`, `io.open`, the rig) only through io's [`files`](marionette_io::files) rules.
//!
//! The Lua host: scripts describe a blend graph, parameters, takes and a post-process; Rust
//! evaluates it (design property 3).
//!
//! - [`host`]: a fresh sandboxed state per load ([`sandbox`]: safe libraries, `require` inside the
//!   project, instruction budget, memory limit); errors read `file:line: message` + traceback.
//!   `budget`: the instruction budget over every entry into Lua; `pattern`: Lua's pattern matcher
//!   ported to Rust so matching counts against it; `source_check`: `<close>` refused;
//!   [`output`]: what `print` keeps (1 MiB).
//! - `api`: the functions a script sees (`marionette.rig()`, `params`, `blend1d`, `layer`,
//!   `mask`, `state_machine`, `takes`, `graph`), one `register(lua)` per area.
//! - [`spec`]: the description as plain data.
//! - [`watch`]: debounced file watching for hot reload.
//! - [`crowd`]: many characters each running their own instance of a script (`bench crowd
//!   --script`); `driver`: the per-frame call into `post(pose, ctx)`.
//!
//! Baking a script's takes is the offline layer's job (`marionette_bake`, through
//! [`ScriptedGraph`], the preview's evaluation).
//!
//! ## Unsafe code a script can reach
//! Four places call Lua's C API directly (for speed); each one's invariant, and what holds it:
//!
//! | where | reachable from Lua as | invariant | held by |
//! |---|---|---|---|
//! | `api::vec3_view` `index` / `new_index` | the metamethods of `ctx`'s vec3 tables | argument 1 is checked to be a table (`luaL_checktype`) before any raw access; the metatable is protected (`__metatable = false`), so a script cannot fetch them anyway | `vec3_view::tests::functions_check_their_arguments`; hostile `vec3_view_*.lua`, `ctx_metatable.lua`; the API family's metatable cases |
//! | `api::post_fast` `fast` / `try_fast` / `read_and_run` | `pose:look_at/rotate/translate/set_translation` | anything but 3-4 arguments, a `self` whose metatable is not the pose's, a non-string joint, a target that is not a plain table of 3 numbers or options that are not a plain table of known numeric keys goes to the mlua method, which checks every argument; the frame pointer (upvalue 3) lives in the state's app data, which outlives every call | `post_fast::tests::*`; the API family's `Pose:*` cases (each wrong kind in each position, self included, one argument too many or too few) |
//! | `api::post_args::read_stack` | (called by `post_fast` only) | reads only with `rawgeti`/`next` on indices checked to be tables, `tolstring` only on strings, `tonumberx` only on numbers: it raises no Lua error and runs no metamethod | `crates/marionette-script/tests/script/script_post_args.rs`; the API family |
//! | `driver` `drive` / `fill_and_call` | nothing: the driver is held only by Rust (`PostDriver`); no `debug` library exposes it | its upvalues are the slot table and its inputs, laid out by `PostDriver::new`; values are checked against the parameters it was made for before each call | `driver::tests::*` (`other_parameters_are_refused`) |
//!
//! The `cargo test` build of Lua has `LUA_USE_APICHECK` on (lua-src enables it with debug
//! assertions), so every test that runs Lua, the hostile fixtures, the API family
//! (`tests/cli/script_api_args.rs`) and the fuzz corpus replay included, runs under Lua's own API
//! checks: a misuse of the C API there aborts the test instead of passing unnoticed.

mod api;
pub(crate) mod budget;
mod cancel;
pub mod compile;
pub mod crowd;
mod driver;
pub mod error;
pub mod host;
pub mod joint_map;
pub mod live;
mod lookup;
pub mod map_file;
mod names;
pub mod output;
mod passes;
pub(crate) mod pattern;
mod post_kind;
pub mod preview;
pub mod retarget_map;
pub mod rig;
mod rig_kind;
pub mod rigs;
pub mod runtime;
pub mod sandbox;
pub mod set;
pub(crate) mod source_check;
pub mod spec;
mod stack;
pub mod watch;

pub use cancel::Cancel;
pub use error::{Location, ScriptError};
pub use host::{load, load_text, HostOptions, LoadedScript};
pub use live::{LiveScript, Reload};
pub use rig::{rigs_from_fn, FnRigs, Rig, RigLoader, RigSource};
pub use runtime::{PlayState, ScriptedGraph};
pub use sandbox::Limits;
