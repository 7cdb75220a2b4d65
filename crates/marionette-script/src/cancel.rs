//! Cancelling a running bake: a flag shared with whoever may cancel (the CLI's Ctrl-C handler,
//! the editor's bake dialog), checked between frames. A cancelled bake writes nothing (the
//! output is only written, atomically, once every take is baked) and leaves the script's state
//! usable: no Lua call is interrupted.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A cancel flag. Clones share it.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A flag not (yet) set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks the bake to stop at the next frame.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// True once [`Cancel::cancel`] was called on this flag or a clone.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }

    /// The shared atomic (for a signal handler, which may only touch atomics).
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.0.clone()
    }
}

/// Jobs compare by their settings: whatever flag they carry, two cancel handles are equal.
impl PartialEq for Cancel {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
