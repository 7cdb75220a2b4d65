//! Undo/redo for take edits: each edit pushes a snapshot of every take (takes are small), so
//! undo and redo restore exactly what was there (Ctrl+Z / Ctrl+Shift+Z).

use marionette_anim::graph::Take;

/// Snapshots kept at most.
const DEPTH: usize = 200;

/// The undo and redo stacks.
#[derive(Default)]
pub struct History {
    undo: Vec<Vec<Take>>,
    redo: Vec<Vec<Take>>,
}

impl History {
    /// Records the state before an edit (clears redo).
    pub fn push(&mut self, before: Vec<Take>) {
        self.undo.push(before);
        if self.undo.len() > DEPTH {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    /// The state to go back to, given the current one (kept for redo).
    pub fn undo(&mut self, current: Vec<Take>) -> Option<Vec<Take>> {
        let before = self.undo.pop()?;
        self.redo.push(current);
        Some(before)
    }

    /// The state to go forward to, given the current one (kept for undo).
    pub fn redo(&mut self, current: Vec<Take>) -> Option<Vec<Take>> {
        let after = self.redo.pop()?;
        self.undo.push(current);
        Some(after)
    }

    /// True when there is something to undo.
    #[cfg(test)]
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// True when there is something to redo.
    #[cfg(test)]
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Undo returns the state before the edit; redo returns the edit; a new edit drops redo.
    #[test]
    fn undo_redo() {
        let a = vec![Take::new("a", 1.0)];
        let b = vec![Take::new("b", 1.0)];
        let mut h = History::default();
        h.push(a.clone());
        assert_eq!(h.undo(b.clone()), Some(a.clone()));
        assert_eq!(h.redo(a.clone()), Some(b.clone()));
        h.push(b.clone());
        assert!(!h.can_redo());
        assert!(h.can_undo());
    }
}
