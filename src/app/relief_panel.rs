//! The Heights section of the left panel: whether the map has heights, and the slope rules
//! that price them.

use egui::{DragValue, RichText, Ui};

use crate::grid::{Grid, Slope};

/// What the user asked of the map's relief.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ReliefAction {
    /// Give the flat map a height layer, all at 0.
    AddHeights,
    /// Make the map flat again (the heights are dropped; undo brings them back).
    RemoveHeights,
    /// New slope rules.
    SetSlope(Slope),
}

/// Shows the section with the step of the Raise and Lower brushes (changed in place);
/// returns what the user changed of the map.
pub fn relief_ui(
    ui: &mut Ui,
    grid: &Grid,
    height_step: &mut f32,
    heightmap_white: &mut f32,
) -> Option<ReliefAction> {
    let mut action = None;
    ui.heading("Heights");
    ui.add_space(4.0);
    ui.horizontal(|ui| {
        let label = ui.label("Brush step");
        ui.add(DragValue::new(height_step).range(0.05..=1000.0).speed(0.05))
            .labelled_by(label.id)
            .on_hover_text("How much one stroke of Raise (U) or Lower (D) changes the ground");
    });
    ui.horizontal(|ui| {
        let label = ui.label("Import white");
        ui.add(
            DragValue::new(heightmap_white)
                .range(0.05..=1.0e6)
                .speed(0.1),
        )
        .labelled_by(label.id)
        .on_hover_text(
            "The height of white in a grayscale image read by File → Import heights (black is 0)",
        );
    });
    if grid.heights().is_none() {
        ui.label(
            RichText::new("The map is flat. Raise (U), Lower (D) and Flatten (H) sculpt it.")
                .weak(),
        );
        if ui
            .button("Add heights")
            .on_hover_text("Give every cell a height of 0, to sculpt and price slopes")
            .clicked()
        {
            action = Some(ReliefAction::AddHeights);
        }
        return action;
    }
    let slope = grid.slope();
    let mut edited = slope;
    egui::Grid::new("slope-rules")
        .num_columns(2)
        .show(ui, |ui| {
            let label = ui.label("Uphill cost");
            ui.add(
                DragValue::new(&mut edited.uphill)
                    .range(0.0..=1000.0)
                    .speed(0.05),
            )
            .labelled_by(label.id)
            .on_hover_text("Extra cost per height unit a step climbs");
            ui.end_row();
            let label = ui.label("Downhill cost");
            ui.add(
                DragValue::new(&mut edited.downhill)
                    .range(0.0..=1000.0)
                    .speed(0.05),
            )
            .labelled_by(label.id)
            .on_hover_text("Extra cost per height unit a step descends");
            ui.end_row();
            let mut limited = edited.max_climb.is_some();
            let label = ui.checkbox(&mut limited, "Max climb");
            let mut limit = edited.max_climb.unwrap_or(1.0);
            ui.add_enabled(
                limited,
                DragValue::new(&mut limit).range(0.0..=1.0e6).speed(0.05),
            )
            .labelled_by(label.id)
            .on_hover_text(
                "Steps that change height by more than this, up or down, are cliffs: never taken",
            );
            edited.max_climb = limited.then_some(limit);
            ui.end_row();
        });
    if edited != slope {
        action = Some(ReliefAction::SetSlope(edited));
    }
    if ui
        .button("Remove heights")
        .on_hover_text("Make the map flat again (Undo brings the heights back)")
        .clicked()
    {
        action = Some(ReliefAction::RemoveHeights);
    }
    action
}
