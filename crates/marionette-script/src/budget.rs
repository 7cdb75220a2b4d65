//! The instruction budget: every entry into a script's Lua (the main chunk, `post`, a
//! predicate) runs under an allowance of VM instructions, counted by a hook every
//! [`HOOK_EVERY`] instructions; work done in C or Rust on the script's behalf (pattern
//! matching, `table.move`, `concat`, `sort`, `insert`, `remove`) is charged with
//! [`Budget::charge`].
//!
//! Between entries the allowance is zero, never unlimited: Lua that runs outside an entry is
//! stopped too. Once a budget is exceeded the state is spent: the error
//! is raised again at the next instruction and by every `pcall`, `xpcall` and
//! `coroutine.resume` that would catch it, and every later entry fails at once with the same
//! message. A spent state may hold a coroutine whose hooks Lua left off (an error raised by a
//! hook disables hooks in that thread), so nothing may run in it again.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use mlua::{HookTriggers, Lua, VmState};

/// How often (in VM instructions) the budget hook runs.
pub(crate) const HOOK_EVERY: u32 = 1000;

/// Where the current allowance comes from, for the message when it runs out.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Source {
    /// No entry is running: nothing may run.
    Idle,
    /// A load or a call, with its configured limit.
    Call,
    /// The rest of a take's total (smaller than the per-call limit).
    Take,
}

#[derive(Clone, Copy, Debug)]
struct Counter {
    used: u64,
    limit: u64,
    source: Source,
}

/// A take's total: instructions used by the calls made while it plays, and the limit.
#[derive(Clone, Copy, Debug)]
struct Total {
    used: u64,
    limit: u64,
}

/// The instruction counter shared by the hook, the charged library functions and the host.
#[derive(Debug)]
pub(crate) struct Budget {
    counter: Cell<Counter>,
    total: Cell<Option<Total>>,
    /// The message of the error that spent the state, if any.
    spent: RefCell<Option<String>>,
}

impl Budget {
    /// An idle budget: nothing may run until [`Budget::enter`].
    pub fn new() -> Rc<Budget> {
        Rc::new(Budget {
            counter: Cell::new(Counter {
                used: 0,
                limit: 0,
                source: Source::Idle,
            }),
            total: Cell::new(None),
            spent: RefCell::new(None),
        })
    }

    /// Runs `f` (one entry into Lua) with an allowance of `limit` instructions, or less when a
    /// take's total has less left. Fails at once, without running `f`, when the state is spent.
    pub fn enter<R>(&self, limit: u64, f: impl FnOnce() -> mlua::Result<R>) -> mlua::Result<R> {
        if let Some(msg) = self.spent() {
            return Err(mlua::Error::runtime(msg));
        }
        let (limit, source) = match self.total.get() {
            Some(t) if t.limit.saturating_sub(t.used) < limit => {
                (t.limit.saturating_sub(t.used), Source::Take)
            }
            _ => (limit, Source::Call),
        };
        self.counter.set(Counter {
            used: 0,
            limit,
            source,
        });
        let r = f();
        let used = self.counter.get().used;
        if let Some(mut t) = self.total.get() {
            t.used = t.used.saturating_add(used);
            self.total.set(Some(t));
        }
        self.counter.set(Counter {
            used: 0,
            limit: 0,
            source: Source::Idle,
        });
        r
    }

    /// Starts counting a take's total of `limit` instructions over the following entries
    /// (`None` stops counting).
    pub fn set_total(&self, limit: Option<u64>) {
        self.total.set(limit.map(|limit| Total { used: 0, limit }));
    }

    /// True when the take's total ran out (the last entry stopped on it).
    pub fn total_spent(&self) -> bool {
        self.total.get().is_some_and(|t| t.used >= t.limit)
    }

    /// Instructions left in the running entry's allowance (0 once spent).
    pub fn remaining(&self) -> u64 {
        if self.spent.borrow().is_some() {
            return 0;
        }
        let c = self.counter.get();
        c.limit.saturating_sub(c.used)
    }

    /// The message of the error that spent the state, if it is spent.
    pub fn spent(&self) -> Option<String> {
        self.spent.borrow().clone()
    }

    /// Spends the state with `msg` (its budget ran out).
    fn spend(&self, msg: &str) {
        let mut spent = self.spent.borrow_mut();
        if spent.is_none() {
            *spent = Some(msg.to_string());
        }
    }

    /// Adds `n` instructions; past the allowance the state is spent and the error returned,
    /// located at `at` (`file:line`, or `?`), naming `what` ran out of budget when given.
    fn add(&self, n: u64, at: impl FnOnce() -> String, what: Option<&str>) -> Result<(), String> {
        let mut c = self.counter.get();
        c.used = c.used.saturating_add(n);
        self.counter.set(c);
        if c.used <= c.limit && self.spent.borrow().is_none() {
            return Ok(());
        }
        if let Some(msg) = self.spent() {
            return Err(msg);
        }
        let hint = if what.is_some() {
            ""
        } else {
            " (infinite loop?)"
        };
        let what = what.map(|w| format!(" in {w}")).unwrap_or_default();
        let msg = match c.source {
            Source::Call => format!(
                "{}: instruction budget of {} exceeded{what}{hint}",
                at(),
                c.limit
            ),
            Source::Take => format!(
                "{}: the take's total instruction budget of {} exceeded{what}",
                at(),
                self.total.get().map_or(0, |t| t.limit)
            ),
            Source::Idle => format!(
                "{}: Lua ran outside a budgeted call{what} (stopped; a host bug)",
                at()
            ),
        };
        self.spend(&msg);
        Err(msg)
    }

    /// Charges `n` instructions of work done in C or Rust for the script (`what`, e.g.
    /// `string.find`); past the allowance the state is spent and the error is located at the
    /// calling script line.
    pub fn charge(&self, lua: &Lua, n: u64, what: &str) -> mlua::Result<()> {
        self.add(n, || script_line(lua), Some(what)).map_err(|msg| {
            switch_hook(lua, 1);
            mlua::Error::runtime(msg)
        })
    }

    /// The error to raise again when the state is spent (`pcall` and friends call this after
    /// catching an error), or `Ok`.
    pub fn check(&self) -> mlua::Result<()> {
        match self.spent() {
            Some(msg) => Err(mlua::Error::runtime(msg)),
            None => Ok(()),
        }
    }
}

/// The innermost script line on the Lua stack, as `file:line` (`?` when none is found).
pub(crate) fn script_line(lua: &Lua) -> String {
    match crate::stack::caller_location(lua) {
        Some(loc) => format!("{}:{}", loc.file, loc.line),
        None => "?".into(),
    }
}

/// Installs the budget hook on `lua`, running every [`HOOK_EVERY`] instructions.
pub(crate) fn install_hook(lua: &Lua, budget: &Rc<Budget>) {
    lua.set_app_data(HookBudget(budget.clone()));
    switch_hook(lua, HOOK_EVERY);
}

/// (Re)installs the hook to run every `every` instructions. Once the budget is exceeded the
/// hook runs at every instruction, so the error is raised again right after anything that
/// caught it.
fn switch_hook(lua: &Lua, every: u32) {
    let budget = lua.app_data_ref::<HookBudget>().map(|b| b.0.clone());
    let Some(budget) = budget else { return };
    let triggers = HookTriggers::new().every_nth_instruction(every);
    // A global hook (not `set_hook`): mlua's per-thread hook made every call from Rust ~20x
    // slower (1.5 us instead of 70 ns per call, measured). It only fails for Luau.
    let _ = lua.set_global_hook(triggers, move |lua, debug| {
        let at = || {
            let src = debug.source();
            let file = src
                .source
                .as_deref()
                .and_then(|s| s.strip_prefix('@'))
                .map(str::to_string)
                .or_else(|| src.short_src.as_deref().map(str::to_string))
                .unwrap_or_else(|| "?".into());
            let line = debug.current_line().unwrap_or(0);
            format!("{file}:{line}")
        };
        match budget.add(u64::from(every), at, None) {
            Ok(()) => Ok(VmState::Continue),
            Err(msg) => {
                if every != 1 {
                    switch_hook(lua, 1);
                }
                Err(mlua::Error::runtime(msg))
            }
        }
    });
}

/// The budget a state's hook counts against (kept in the state's app data so the hook can
/// reinstall itself).
pub(crate) struct HookBudget(pub Rc<Budget>);
