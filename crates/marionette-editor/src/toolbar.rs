//! The overlay toolbar above the viewport: grid, skeleton, axes, weights, ghosts, follow, retarget
//! sources, rig gizmos, who drives each bone, and Frame. It wraps in a narrow window.

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
            // (wraps onto a second row in a narrow window rather than clipping its end)
            ui.horizontal_wrapped(|ui| {
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
                ui.toggle_value(&mut o.drivers, "Drivers").on_hover_text(
                    "each bone coloured by the layer, node or post operation that last changed it",
                );
                ui.toggle_value(&mut o.compare, "A/B").on_hover_text(
                    "after a reload, the previous script's pose at the same time as a purple ghost: for a few seconds, or while this is on",
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
