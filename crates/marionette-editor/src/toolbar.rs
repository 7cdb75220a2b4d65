//! The overlay toolbar above the viewport: grid, skeleton, axes, weights, ghosts, follow, retarget
//! sources, rig gizmos, and Frame.

use super::action::Action;
use super::viewport::Overlays;

/// Draws the toolbar over `overlays`; a toggle is [`Action::SetOverlays`], Frame is
/// [`Action::FrameCharacter`].
pub fn ui(ui: &mut egui::Ui, overlays: &Overlays) -> Vec<Action> {
    let mut out = Vec::new();
    let mut o = overlays.clone();
    egui::Frame::new()
        .inner_margin(egui::Margin::symmetric(6, 3))
        .fill(ui.visuals().panel_fill)
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.toggle_value(&mut o.grid, "Grid");
                ui.toggle_value(&mut o.skeleton, "Skeleton");
                ui.toggle_value(&mut o.axes, "Axes");
                ui.toggle_value(&mut o.heatmap, "Weights")
                    .on_hover_text("skin-weight heatmap of the selected joint");
                ui.toggle_value(&mut o.ghosts, "Ghosts");
                ui.toggle_value(&mut o.follow_root, "Follow");
                ui.toggle_value(&mut o.sources, "Sources").on_hover_text(
                    "the skeletons of the rigs retarget nodes read, beside the character",
                );
                ui.toggle_value(&mut o.rig, "Rig").on_hover_text(
                    "the post operations' targets (orange), the chains and springs they move (green) and their colliders (blue)",
                );
                if &o != overlays {
                    out.push(Action::SetOverlays(o.clone()));
                }
                if ui.button("Frame (F)").on_hover_text("F").clicked() {
                    out.push(Action::FrameCharacter);
                }
            });
        });
    out
}
