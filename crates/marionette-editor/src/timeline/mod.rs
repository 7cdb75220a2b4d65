//! The editor's timeline (egui): a transport bar, a ruler in seconds and frames, and lanes for
//! parameters (keys editable in take mode), state machines and node weights.
//!
//! ```text
//! [⏮ ⏴ ⏵ ⏵ ⏭ 🔁 speed 1.00x      frame 12 / 240   0.200 s]
//! [ names        | 0s    0:15    1s    1:15    2s    ruler (scrub, zoom, pan, fit) ]
//! [ speed        | ──◆────────◆──────                      float curve + keys        ]
//! [ jump         |      ▼          ▼                        trigger markers           ]
//! [ locomotion   | idle ▒▒ walk ▒▒▒ run                     state bars + transitions  ]
//! [ weight walk  | ▁▂▄▆██▆▄                                  node weight 0..1          ]
//! ```
//!
//! The widget never owns the playhead or the take's history: it reads the playhead, returns
//! [`TimelineResponse::seek`] when the user moves it, edits the take in place through [`keys`],
//! and reports each gesture once ([`TimelineResponse::edit_begun`] holds the take as it was
//! before it) so the editor can push one undo step per gesture. View state that the editor saves
//! in its sidecar file lives in [`TimelineState`].
//!
//! Mouse: a faint line follows the pointer over the time area; click or drag on the ruler
//! scrubs (snapped to frames, pauses); while playing the view pages to keep the playhead visible; wheel or Ctrl+wheel over
//! the time area zooms at the pointer, Shift+wheel or a horizontal wheel pans, middle-drag or
//! Alt+drag pans, double-click on the ruler fits the take; wheel over the names scrolls lanes.
//! Keys: click selects, drag moves (time snapped to frames, value vertically), double-click on a
//! lane adds a key with the curve's value there, Delete or the context menu deletes; a lane's
//! context menu switches its track between step and smooth, a key's sets its ease (auto, flat,
//! linear, step: `ease`). Shift+click adds a key to the selection and Shift+drag boxes keys
//! (`select`): Delete, a drag (in time) and the ease menu then act on all of them. The selected
//! float key shows its handles: dragging one sets explicit slopes.
//!
//! Only the keys on screen are drawn, keys closer than a point sharing one mark (`cull`), so a
//! lane of a million keys draws as a few marks per pixel column.

mod cull;
mod ease;
mod edit;
mod gesture;
pub mod keys;
mod lanes;
mod paint;
mod ruler;
mod select;
mod transport_bar;
pub mod view;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use marionette_anim::graph::{ParamKind, ParamValue, Take};

pub use view::{TimeAxis, TimeRange};

/// One parameter of the script, shown as a lane.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamLane {
    /// Parameter name.
    pub name: String,
    /// Its kind.
    pub kind: ParamKind,
    /// `(min, max)` of a float parameter (vec3 lanes range over their keys).
    pub range: (f32, f32),
    /// The current value (live, or the take's at the playhead); drawn in live mode and used
    /// for the first key of a track.
    pub value: ParamValue,
}

/// One span of a state machine's activity.
#[derive(Clone, Debug, PartialEq)]
pub struct StateSpan {
    /// The active state (the source state during a transition).
    pub state: String,
    /// Start time, seconds.
    pub start: f32,
    /// End time, seconds.
    pub end: f32,
    /// `Some(target)` while a transition to `target` runs over this span.
    pub transition_to: Option<String>,
}

/// One state machine, as a lane of coloured state bars.
#[derive(Clone, Debug, PartialEq)]
pub struct StateLane {
    /// State machine name.
    pub name: String,
    /// Spans in time order.
    pub spans: Vec<StateSpan>,
}

/// One node's weight over the take, as a filled area graph.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightLane {
    /// Node name.
    pub name: String,
    /// One weight (0..1) per frame: sample `i` is at `t = i / fps`.
    pub weights: Vec<f32>,
}

/// Playback settings the transport bar edits (the editor advances the playhead).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Transport {
    /// Playing or paused.
    pub playing: bool,
    /// Wrap to the start at the end.
    pub looping: bool,
    /// Playback speed, 0.1..4.
    pub speed: f32,
}

impl Default for Transport {
    fn default() -> Self {
        Self {
            playing: false,
            looping: true,
            speed: 1.0,
        }
    }
}

/// What the timeline shows this frame.
pub struct TimelineInput<'a> {
    /// The take being edited; `None` in live mode (param lanes show live values, no keys).
    pub take: Option<&'a mut Take>,
    /// One lane per script parameter.
    pub params: &'a [ParamLane],
    /// Length shown and scrubbable, seconds.
    pub duration: f32,
    /// Frame rate of the ruler and of snapping.
    pub fps: f32,
    /// Playhead, seconds.
    pub playhead: f32,
    /// One lane per state machine.
    pub states: &'a [StateLane],
    /// One lane per node whose weight is graphed.
    pub weights: &'a [WeightLane],
    /// Markers and events `(time, text)` shown on the ruler (listed on hover).
    pub events: &'a [(f32, String)],
    /// The weight lane to light (the node selected in the graph view), by name.
    pub highlight: Option<&'a str>,
    /// Play/pause, loop and speed.
    pub transport: &'a mut Transport,
}

/// What the user did this frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimelineResponse {
    /// The playhead moved by the user (snapped to a frame, within `0..=duration`).
    pub seek: Option<f32>,
    /// A gesture started changing the take: the take as it was before (push it for undo).
    pub edit_begun: Option<Take>,
    /// The gesture that changed the take ended (for one-frame edits, in the same frame).
    pub edit_finished: bool,
    /// The take changed this frame.
    pub changed: bool,
}

/// A key or trigger of the take.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum KeyRef {
    /// Key `index` (time order) of a parameter's track.
    Key {
        /// Parameter name.
        param: String,
        /// Index in the track's sorted keys.
        index: usize,
    },
    /// Trigger `index` of `Take::triggers` (time order).
    Trigger {
        /// Index in the take's sorted triggers.
        index: usize,
    },
}

/// How one lane is shown.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct LaneView {
    /// Height in points (`None`: the kind's default).
    pub height: Option<f32>,
    /// Folded to a thin header.
    pub collapsed: bool,
}

/// View state of the timeline, saved by the editor in its sidecar file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TimelineState {
    /// The visible time range (zoom and pan); an empty range fits the take on the next draw.
    pub visible: TimeRange,
    /// Lane heights and folding, by lane id (`param:NAME`, `state:NAME`, `weight:NAME`).
    pub lanes: BTreeMap<String, LaneView>,
    /// The selected key or trigger (the first of several).
    pub selected: Option<KeyRef>,
    /// The other selected keys and triggers (Shift+click, a Shift+drag box; not saved).
    #[serde(skip)]
    pub also: Vec<KeyRef>,
    /// Width of the lane name column, points.
    pub name_width: f32,
    /// Vertical scroll of the lanes, points.
    pub scroll: f32,
    /// The loop range of playback, seconds (`None`: the whole take); set from the ruler's
    /// context menu.
    pub loop_range: Option<(f32, f32)>,
    /// The weight lane last lit (scrolled to once when it changes; not saved).
    #[serde(skip)]
    pub(crate) lit: Option<String>,
    /// The time the ruler was right-clicked at, for its menu (not saved).
    #[serde(skip)]
    pub(crate) menu_time: Option<f32>,
    /// The drag in progress (not saved).
    #[serde(skip)]
    pub(crate) gesture: Option<gesture::Gesture>,
    /// A pan drag in progress (not saved).
    #[serde(skip)]
    pub(crate) panning: bool,
    /// Where a Shift+drag selection box began (not saved).
    #[serde(skip)]
    pub(crate) boxing: Option<egui::Pos2>,
    /// This frame's key marks and where they are drawn, for the box (not saved; empty
    /// between frames).
    #[serde(skip)]
    pub(crate) marks: Vec<(KeyRef, egui::Pos2)>,
    /// A key handle's drag in progress (not saved).
    #[serde(skip)]
    pub(crate) handle: Option<ease::HandleDrag>,
}

impl Default for TimelineState {
    fn default() -> Self {
        Self {
            visible: TimeRange::default(),
            lanes: BTreeMap::new(),
            selected: None,
            also: Vec::new(),
            name_width: 130.0,
            scroll: 0.0,
            loop_range: None,
            lit: None,
            menu_time: None,
            gesture: None,
            panning: false,
            boxing: None,
            marks: Vec::new(),
            handle: None,
        }
    }
}

/// Geometry and clock shared by all lanes this frame.
pub(crate) struct LaneCtx {
    /// Time to x.
    pub axis: TimeAxis,
    /// The whole lane area (names and time), below the ruler.
    pub lanes_rect: egui::Rect,
    /// Width of the name column.
    pub name_width: f32,
    /// Take length, seconds.
    pub duration: f32,
    /// Frames per second.
    pub fps: f32,
    /// Playhead shown, seconds.
    pub playhead: f32,
}

/// Height of the ruler, points.
const RULER_HEIGHT: f32 = 24.0;

/// Draws the timeline into the rest of `ui` (the editor puts it in a bottom panel) and handles
/// its input. See the module docs for the mouse map.
pub fn timeline(
    ui: &mut egui::Ui,
    state: &mut TimelineState,
    input: TimelineInput<'_>,
) -> TimelineResponse {
    let TimelineInput {
        take,
        params,
        duration,
        fps,
        playhead,
        states,
        weights,
        events,
        highlight,
        transport,
    } = input;
    let mut response = TimelineResponse::default();
    let duration = if duration.is_finite() && duration > 0.0 {
        duration
    } else {
        1.0
    };
    let clock = transport_bar::Clock {
        duration,
        fps,
        playhead,
    };
    if let Some(t) = transport_bar::transport_bar(ui, transport, &clock) {
        response.seek = Some(t);
    }
    ui.add_space(2.0);

    let rect = ui.available_rect_before_wrap();
    let rect = egui::Rect::from_min_size(rect.min, rect.size().max(egui::vec2(200.0, 60.0)));
    ui.allocate_rect(rect, egui::Sense::hover());
    if !state.visible.is_valid() {
        state.visible = TimeRange::fit(duration);
    }
    let name_width = state.name_width.clamp(60.0, rect.width() * 0.5);
    let time_left = rect.left() + name_width;
    let ruler_rect = egui::Rect::from_min_max(
        egui::pos2(time_left, rect.top()),
        egui::pos2(rect.right() - 6.0, rect.top() + RULER_HEIGHT),
    );
    let lanes_rect = egui::Rect::from_min_max(
        egui::pos2(rect.left(), ruler_rect.bottom()),
        rect.right_bottom(),
    );
    let time_area = egui::Rect::from_x_y_ranges(ruler_rect.x_range(), rect.y_range());

    ruler::navigate(ui, state, time_area, lanes_rect, ruler_rect);
    // while playing, page the view so the playhead stays visible
    let v = state.visible;
    if transport.playing && !state.panning && (playhead < v.start || playhead > v.end) {
        state.visible = v.panned(playhead - v.start - v.span() * 0.05);
    }
    let axis = TimeAxis {
        range: state.visible,
        left: ruler_rect.left(),
        right: ruler_rect.right(),
    };
    if let Some(t) = ruler::ruler(ui, state, &axis, ruler_rect, duration, fps, transport) {
        response.seek = Some(t);
    }
    ruler::events(ui, &axis, ruler_rect, events);
    let shown_playhead = response.seek.unwrap_or(playhead);
    let ctx = LaneCtx {
        axis,
        lanes_rect,
        name_width,
        duration,
        fps,
        playhead: shown_playhead,
    };
    let data = lanes::LaneInput {
        params,
        states,
        weights,
        highlight,
    };
    lanes::lanes(ui, state, &ctx, take, &data, &mut response);
    select::box_select(ui, state, lanes_rect);
    // (the marks live for this frame's box only)
    state.marks.clear();
    if let Some(p) = ui.ctx().pointer_hover_pos() {
        if time_area.contains(p) && state.gesture.is_none() {
            let faint = ui.visuals().weak_text_color().gamma_multiply(0.5);
            ui.painter_at(time_area)
                .vline(p.x, time_area.y_range(), egui::Stroke::new(1.0, faint));
        }
    }
    paint::playhead(
        ui,
        &axis,
        egui::Rect::from_x_y_ranges(ruler_rect.x_range(), rect.y_range()),
        shown_playhead,
    );
    response
}
