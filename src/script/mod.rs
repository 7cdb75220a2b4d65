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
//! Baking a script's takes is the offline layer's job (`crate::bake`, through
//! [`ScriptedGraph`], the preview's evaluation).

mod api;
pub(crate) mod budget;
pub mod compile;
pub mod crowd;
mod driver;
pub mod error;
pub mod host;
pub mod live;
pub mod output;
pub(crate) mod pattern;
pub mod rig;
pub mod runtime;
pub mod sandbox;
pub mod set;
pub(crate) mod source_check;
pub mod spec;
pub mod watch;

pub use error::{Location, ScriptError};
pub use host::{load, HostOptions, LoadedScript};
pub use live::{LiveScript, Reload};
pub use rig::{Rig, RigLoader};
pub use runtime::{PlayState, ScriptedGraph};
pub use sandbox::Limits;
