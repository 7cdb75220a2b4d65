//! Edited takes whose script definition changed since they were edited (a reload, or a sidecar
//! written against an older script): the edit keeps playing, and the editor says so — a console
//! line on each reload and on open, a notice in the take bar — and offers **Revert take to
//! script** (undoable). Never silent either way.

use super::app::Editor;
use super::console::Level;

impl Editor {
    /// Says in the console which edited takes the script changed since they were edited (the
    /// take bar says it too, with **Revert take to script**): the edit keeps playing, never
    /// silently replaced, never silently kept.
    pub(crate) fn report_conflicts(&mut self) {
        for i in self.session.conflicts() {
            let name = self.session.takes[i].name.clone();
            let line = match self.session.script_take(&name) {
                Some(_) => format!(
                    "the script changed take '{name}' since it was edited here; the edited \
                     take still plays (Revert take to script in the take bar)"
                ),
                None => format!(
                    "the script no longer defines take '{name}'; the take edited here still plays"
                ),
            };
            self.console.push(Level::Warn, line);
        }
    }

    /// Replaces take `i` by the script's own definition of it (undoable). The edit counts as
    /// seen: undoing brings it back as an edit of the script's current take.
    pub fn revert_take(&mut self, i: usize) {
        let Some(name) = self.session.takes.get(i).map(|t| t.name.clone()) else {
            return;
        };
        let Some(script) = self.session.script_take(&name).cloned() else {
            return;
        };
        let base = crate::sidecar::fingerprint(Some(&script));
        self.session.set_base(&name, base);
        self.edit_takes(|takes, _| {
            if let Some(t) = takes.get_mut(i) {
                *t = script;
            }
        });
        self.console.push(
            Level::Info,
            format!("take '{name}' reverted to the script's"),
        );
    }
}
