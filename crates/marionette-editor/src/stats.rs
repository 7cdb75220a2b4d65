//! Frame time split into script (hot reload and Lua), graph (evaluation at the playhead and
//! ghosts), render (viewport prepare + submit) and UI (everything else in the frame), for
//! `marionette edit --stats`.

use std::time::Duration;

/// A part of the frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Polling and reloading the script.
    Script,
    /// Evaluating the graph.
    Graph,
    /// Drawing the viewport (CPU side: posing, upload, encoding).
    Render,
}

/// Accumulated frame times.
#[derive(Clone, Debug, Default)]
pub struct FrameStats {
    /// Frames counted.
    pub frames: u64,
    script: Duration,
    graph: Duration,
    render: Duration,
    total: Duration,
    /// Time spent presenting (egui tessellation, its GPU upload and the swap chain), added by
    /// the shell.
    pub present: Duration,
    /// Wall time from the first to the last frame counted by the shell.
    pub wall: Duration,
}

impl FrameStats {
    /// Adds time to a phase.
    pub fn add(&mut self, phase: Phase, d: Duration) {
        match phase {
            Phase::Script => self.script += d,
            Phase::Graph => self.graph += d,
            Phase::Render => self.render += d,
        }
    }

    /// Ends a frame whose `Editor::ui` took `total`.
    pub fn add_ui(&mut self, total: Duration) {
        self.total += total;
        self.frames += 1;
    }

    /// Mean milliseconds per frame of (script, graph, render, ui, present).
    pub fn means_ms(&self) -> [f64; 5] {
        let n = self.frames.max(1) as f64;
        let ms = |d: Duration| d.as_secs_f64() * 1000.0 / n;
        let ui = self
            .total
            .saturating_sub(self.script + self.graph + self.render);
        [
            ms(self.script),
            ms(self.graph),
            ms(self.render),
            ms(ui),
            ms(self.present),
        ]
    }

    /// One line: frames, fps over the wall time and the split.
    pub fn report(&self) -> String {
        let [s, g, r, u, p] = self.means_ms();
        let fps = if self.wall.is_zero() {
            0.0
        } else {
            self.frames as f64 / self.wall.as_secs_f64()
        };
        format!(
            "frames {} · {fps:.1} fps · per frame: script {s:.2} ms, graph {g:.2} ms, \
             render {r:.2} ms, ui {u:.2} ms, present {p:.2} ms",
            self.frames
        )
    }
}
