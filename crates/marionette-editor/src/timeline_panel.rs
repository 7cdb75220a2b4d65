//! The timeline panel: the editor's session, lanes and transport shown through the
//! [`crate::timeline`] widget, and what the widget returns turned into actions (transport
//! changes, one undo step per key gesture, seeks).

use super::action::{Action, TakeEdit};
use super::session::Session;
use super::take_lanes::TakeLanes;
use super::timeline::{timeline, ParamLane, TimelineInput, TimelineState, Transport};

/// The timeline: transport, ruler, parameter keys (edited in place, one undo step per
/// gesture), state bars and node weights of the take. `lanes` must be up to date
/// ([`TakeLanes::update`]).
pub fn ui(
    ui: &mut egui::Ui,
    state: &mut TimelineState,
    session: &Session,
    lanes: &TakeLanes,
    transport: Transport,
    highlight: Option<&str>,
) -> Vec<Action> {
    let params: Vec<ParamLane> = session.running().map_or_else(Vec::new, |g| {
        let p = g.graph().params();
        p.defs()
            .iter()
            .zip(p.values())
            .map(|(d, v)| ParamLane {
                name: d.name.clone(),
                kind: v.kind(),
                range: (d.min, d.max),
                value: *v,
            })
            .collect()
    });
    let mut edited = transport;
    let playhead = session.time() as f32;
    let duration = session
        .duration()
        .unwrap_or_else(|| (playhead * 1.25).max(10.0));
    let fps = session.fps();
    let mut take = session.take().cloned();
    let response = timeline(
        ui,
        state,
        TimelineInput {
            take: take.as_mut(),
            params: &params,
            duration,
            fps,
            playhead,
            states: &lanes.states,
            weights: &lanes.weights,
            events: &lanes.events,
            highlight,
            transport: &mut edited,
        },
    );
    let mut out = Vec::new();
    if edited != transport {
        out.push(Action::SetTransport(edited));
    }
    let after = take.filter(|_| response.changed);
    if response.edit_begun.is_some() || after.is_some() {
        out.push(Action::EditTakes(TakeEdit::Gesture {
            before: response.edit_begun,
            after,
        }));
    }
    if let Some(t) = response.seek {
        out.push(Action::Seek(f64::from(t)));
    }
    out
}
