//! Ctrl-C during a bake: the first press sets the job's cancel flag (the bake stops at the next
//! frame and writes nothing); a second press exits at once, as Ctrl-C normally does.

use marionette::bake::Cancel;

#[cfg(unix)]
mod unix {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, OnceLock};

    /// The flag the handler sets; a signal handler may only touch atomics.
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    static PRESSED: AtomicBool = AtomicBool::new(false);

    extern "C" fn on_sigint(_: libc::c_int) {
        if PRESSED.swap(true, Ordering::SeqCst) {
            // SAFETY: `_exit` is async-signal-safe.
            unsafe { libc::_exit(130) };
        }
        if let Some(flag) = FLAG.get() {
            flag.store(true, Ordering::SeqCst);
        }
    }

    pub(super) fn install(flag: Arc<AtomicBool>) {
        if FLAG.set(flag).is_err() {
            return;
        }
        let handler = on_sigint as extern "C" fn(libc::c_int) as libc::sighandler_t;
        // SAFETY: the handler only touches atomics and calls `_exit`, which are
        // async-signal-safe.
        unsafe {
            libc::signal(libc::SIGINT, handler);
        }
    }
}

/// Routes Ctrl-C (SIGINT) to `cancel` for the rest of the process (once per process; on other
/// platforms Ctrl-C keeps its default action).
pub fn cancel_on_ctrl_c(cancel: &Cancel) {
    #[cfg(unix)]
    unix::install(cancel.flag());
    #[cfg(not(unix))]
    let _ = cancel;
}
