//! The Lua API, one `register(lua)` per area (rig, params, nodes, masks, state machines, graph,
//! post-process). Userdata values wrap ids into the [`Builder`], never references, so a script
//! can keep them anywhere without borrowing Rust data.
//!
//! This file is the folder's layout only: its modules, what they share under short names, and
//! [`register`]. What the areas share lives in `builder` (the state a script builds) and
//! `mistakes` (recording API mistakes, argument counts, the rig in use).

mod builder;
mod chain;
pub(crate) mod clips;
mod constrain;
pub(crate) mod graph;
pub(crate) mod ik;
pub(crate) mod locate;
pub(crate) mod machine;
pub(crate) mod mask;
mod mistakes;
pub(crate) mod morph;
pub(crate) mod motion;
pub(crate) mod nodes;
pub(crate) mod params;
pub(crate) mod passes;
pub(crate) mod post;
pub(crate) mod post_args;
pub(crate) mod post_fast;
pub(crate) mod retarget;
pub(crate) mod retarget_options;
pub(crate) mod rig;
mod rig_decl;
pub(crate) mod sides;
mod spring;
pub(crate) mod state_events;
pub(crate) mod strict;
pub(crate) mod takes;
pub(crate) mod vec3_view;

use mlua::Lua;

pub(crate) use crate::stack::caller_location;
pub(crate) use builder::Builder;
pub(crate) use mistakes::{
    check_param, current_rig, err, function, invalid_message, method, record, recover, rig_at,
    use_rig, with_builder, Name,
};
pub(crate) use nodes::invalid_node;

/// Registers every API area in a fresh state.
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    rig::register(lua)?;
    sides::register(lua)?;
    params::register(lua)?;
    nodes::register(lua)?;
    mask::register(lua)?;
    machine::register(lua)?;
    takes::register(lua)?;
    ik::register(lua)?;
    chain::register(lua)?;
    constrain::register(lua)?;
    spring::register(lua)?;
    morph::register(lua)?;
    motion::register(lua)?;
    passes::register(lua)?;
    retarget::register(lua)?;
    clips::register(lua)?;
    graph::register(lua)?;
    Ok(())
}
