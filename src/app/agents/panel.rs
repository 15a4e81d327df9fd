//! The Agents panel: the solver and its settings, Solve and Stop, the plan's statistics, the
//! timeline, and the table of units. It changes the settings in place and answers with what
//! the editor must do.

use egui::{Color32, ComboBox, DragValue, RichText, Ui};

use crate::mapf::{MAPF_ALGORITHMS, Moves, Proof};

use super::paint::unit_colour;
use super::playback::SPEEDS;
use super::{Agents, PlanOrigin, proof_text};

/// What the panel asks of the editor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentsIntent {
    /// Solve the team now.
    Solve,
    /// Stop the solve under way.
    Stop,
    /// Remove every unit.
    Clear,
    /// Remove one unit.
    Remove(usize),
    /// A setting of the solver changed: plan again in live mode.
    SettingsChanged,
    /// Load units from a Moving AI scenario.
    LoadScenario,
    /// Load a plan file (LaCAM's text format) to check and play.
    LoadPlan,
    /// Export the plan.
    ExportPlan,
}

/// The Agents section of the side panel: a header that folds the panel's contents.
pub fn section_ui(ui: &mut Ui, agents: &mut Agents) -> Vec<AgentsIntent> {
    egui::CollapsingHeader::new("Agents: many units at once")
        .id_salt("agents-panel")
        .default_open(true)
        .show(ui, |ui| agents_ui(ui, agents))
        .body_returned
        .unwrap_or_default()
}

/// The panel's contents.
pub fn agents_ui(ui: &mut Ui, agents: &mut Agents) -> Vec<AgentsIntent> {
    let mut out = Vec::new();
    ui.label(format!(
        "{} unit{}. With the Agents tool (A), drag from a start to a goal to add one; click a unit to follow it.",
        agents.team.len(),
        if agents.team.len() == 1 { "" } else { "s" }
    ));
    settings_ui(ui, agents, &mut out);
    ui.horizontal(|ui| {
        if agents.progress().is_some() {
            if ui.button("Stop").clicked() {
                out.push(AgentsIntent::Stop);
            }
        } else if ui
            .add_enabled(!agents.team.is_empty(), egui::Button::new("Solve"))
            .clicked()
        {
            out.push(AgentsIntent::Solve);
        }
        if ui
            .add_enabled(!agents.team.is_empty(), egui::Button::new("Clear units"))
            .clicked()
        {
            out.push(AgentsIntent::Clear);
        }
    });
    // The solver's state on a line of its own, always there and one line high, so that the
    // panel below keeps its place when a solve or its improvement ends.
    ui.horizontal(|ui| {
        ui.set_min_height(ui.spacing().interact_size.y);
        if let Some((expanded, time)) = agents.progress() {
            ui.add(egui::Spinner::new().size(ui.text_style_height(&egui::TextStyle::Body)));
            let doing = if agents.improving {
                "improving"
            } else {
                "solving"
            };
            ui.add(
                egui::Label::new(format!(
                    "{doing}: {:.1} s, {expanded} nodes",
                    time.as_secs_f64()
                ))
                .truncate(),
            );
        } else if let Some(solved) = &agents.solved
            && matches!(solved.origin, PlanOrigin::Solver(_))
        {
            // Why the last solve stopped: its time limit, its memory limit, a proof...
            let limit = std::time::Duration::from_secs_f64(agents.time_limit.max(0.0));
            let why = solved
                .outcome
                .stopped
                .describe(limit, solved.outcome.expanded);
            ui.add(egui::Label::new(why.clone()).truncate())
                .on_hover_text(why);
        }
    });
    ui.horizontal_wrapped(|ui| {
        if ui
            .button("Load scenario…")
            .on_hover_text("The first units of a Moving AI scenario (.scen) of this map.")
            .clicked()
        {
            out.push(AgentsIntent::LoadScenario);
        }
        ui.add(
            DragValue::new(&mut agents.load_count)
                .range(1..=100_000)
                .prefix("first "),
        )
        .on_hover_text("How many units a scenario loads: its first lines.");
    });
    ui.horizontal_wrapped(|ui| {
        if ui
            .button("Load plan…")
            .on_hover_text("A plan in LaCAM's text format, checked and played back here.")
            .clicked()
        {
            out.push(AgentsIntent::LoadPlan);
        }
        let has_plan = agents.solved.as_ref().is_some_and(|s| s.plan().is_some());
        if ui
            .add_enabled(has_plan, egui::Button::new("Export plan…"))
            .on_hover_text("JSON with the world frame, or LaCAM's text format for a .txt name.")
            .clicked()
        {
            out.push(AgentsIntent::ExportPlan);
        }
    });
    if let Some(message) = &agents.message {
        ui.label(RichText::new(message).color(Color32::from_rgb(230, 90, 80)));
    }
    statistics_ui(ui, agents);
    timeline_ui(ui, agents);
    units_ui(ui, agents, &mut out);
    out
}

fn settings_ui(ui: &mut Ui, agents: &mut Agents, out: &mut Vec<AgentsIntent>) {
    let before = (
        agents.algorithm,
        agents.moves,
        agents.weight,
        agents.time_limit,
    );
    let info = agents.algorithm.info();
    ComboBox::from_label("Solver")
        .selected_text(info.title)
        .show_ui(ui, |ui| {
            for entry in MAPF_ALGORITHMS {
                ui.selectable_value(&mut agents.algorithm, entry.algorithm, entry.title)
                    .on_hover_text(entry.about);
            }
        })
        .response
        .on_hover_text(info.about);
    ui.horizontal(|ui| {
        ui.radio_value(&mut agents.moves, Moves::Four, "4 moves");
        ui.radio_value(&mut agents.moves, Moves::EightNoCut, "8, no corner cutting");
    });
    ui.horizontal(|ui| {
        ui.add(
            DragValue::new(&mut agents.time_limit)
                .range(0.1..=3600.0)
                .speed(0.5)
                .suffix(" s"),
        )
        .on_hover_text("The solver stops here and says what it proved.");
        ui.label("time limit");
        if agents.algorithm.info().uses_weight {
            ui.add(
                DragValue::new(&mut agents.weight)
                    .range(1.0..=crate::mapf::MAX_WEIGHT)
                    .speed(0.01)
                    .prefix("w "),
            )
            .on_hover_text("The plan costs at most w × the optimum.");
        }
    });
    if agents.algorithm == crate::mapf::MapfAlgorithm::Lacam {
        ui.checkbox(&mut agents.improve, "Improve the first plan (LaCAM*)")
            .on_hover_text("Show LaCAM's first plan at once, then improve it until the time limit or a proof of the least sum of loss.");
    }
    ui.checkbox(&mut agents.live, "Plan again on every change")
        .on_hover_text("Solve the team after each edit of the map or the team.");
    if before
        != (
            agents.algorithm,
            agents.moves,
            agents.weight,
            agents.time_limit,
        )
    {
        agents.stale_because = if before.0 == agents.algorithm {
            super::SETTINGS_CHANGED
        } else {
            super::SOLVER_CHANGED
        };
        out.push(AgentsIntent::SettingsChanged);
    }
}

fn statistics_ui(ui: &mut Ui, agents: &Agents) {
    let Some(solved) = &agents.solved else { return };
    let outcome = &solved.outcome;
    egui::Grid::new("agents-stats")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            let row = |ui: &mut Ui, name: &str, value: String| {
                ui.label(name);
                ui.label(value);
                ui.end_row();
            };
            match &solved.origin {
                PlanOrigin::Solver(algorithm) => {
                    row(ui, "Solver", algorithm.info().title.to_owned());
                    row(ui, "Guarantee", proof_text(outcome.proof));
                }
                PlanOrigin::File(name) => {
                    row(ui, "Plan file", name.clone());
                    let verdict = match &solved.fault {
                        None => "valid".to_owned(),
                        Some(fault) => format!("breaks the rules: {}", super::fault_text(fault)),
                    };
                    row(ui, "Check", verdict);
                    row(ui, "Collisions", solved.conflicts.len().to_string());
                }
            }
            row(ui, "Units", solved.instance.agents().len().to_string());
            if let Some(summary) = &solved.summary {
                row(ui, "Sum of costs", format!("{:.2}", summary.sum_of_costs));
                row(ui, "Makespan", summary.makespan.to_string());
                // A solver's rows stay the same while it improves its plan, so that the
                // panel does not move under the pointer.
                if outcome.lower_bound > 0.0 {
                    row(
                        ui,
                        "Lower bound",
                        format!(
                            "{:.2} (cost {:.3} ×)",
                            outcome.lower_bound,
                            summary.sum_of_costs / outcome.lower_bound
                        ),
                    );
                } else if matches!(solved.origin, PlanOrigin::Solver(_)) {
                    row(ui, "Lower bound", "–".to_owned());
                }
                // A bounded solver's own bound, where it proved more than the lower bound: the
                // plan is proved within this factor of the optimum.
                if let (Proof::Bounded(_), Some(proved)) = (outcome.proof, outcome.proved_bound)
                    && proved > outcome.lower_bound + 1e-9
                {
                    row(
                        ui,
                        "Proved bound",
                        format!(
                            "{proved:.2} (within {:.3} ×)",
                            summary.sum_of_costs / proved
                        ),
                    );
                }
            }
            if matches!(solved.origin, PlanOrigin::Solver(_)) {
                row(ui, "Time", format!("{:.3} s", outcome.time.as_secs_f64()));
                let first = outcome
                    .first_plan_time
                    .map_or("–".to_owned(), |t| format!("{:.3} s", t.as_secs_f64()));
                row(ui, "First plan", first);
                row(ui, "Nodes", outcome.expanded.to_string());
            }
        });
    if agents.stale {
        ui.label(
            RichText::new(format!(
                "{} since: Solve to plan again.",
                agents.stale_because
            ))
            .weak(),
        );
    }
}

fn timeline_ui(ui: &mut Ui, agents: &mut Agents) {
    let Some(makespan) = agents
        .solved
        .as_ref()
        .filter(|s| s.plan().is_some())
        .map(super::Solved::makespan)
    else {
        return;
    };
    ui.separator();
    let playback = &mut agents.playback;
    ui.horizontal(|ui| {
        let label = if playback.playing {
            "Pause plan"
        } else {
            "Play plan"
        };
        if ui.button(label).clicked() {
            playback.toggle(makespan);
        }
        ui.add(
            egui::Slider::new(&mut playback.tick, 0.0..=makespan.max(1) as f32)
                .text("tick")
                .fixed_decimals(1),
        );
    });
    ui.horizontal_wrapped(|ui| {
        ComboBox::from_label("Speed")
            .selected_text(format!("{} ticks/s", playback.speed))
            .show_ui(ui, |ui| {
                for speed in SPEEDS {
                    ui.selectable_value(&mut playback.speed, speed, format!("{speed} ticks/s"));
                }
            });
        ui.checkbox(&mut playback.looping, "Loop");
    });
    ui.horizontal_wrapped(|ui| {
        ui.add(
            DragValue::new(&mut playback.trail)
                .range(0..=64)
                .prefix("trail "),
        )
        .on_hover_text("How many ticks of the past each unit's trail shows.");
        ui.checkbox(&mut playback.hide_arrived, "Hide units at their goals")
            .on_hover_text("Units stay on their goals (the benchmark's rule); hide them once they have arrived for good.");
    });
}

fn units_ui(ui: &mut Ui, agents: &mut Agents, out: &mut Vec<AgentsIntent>) {
    if agents.team.is_empty() {
        return;
    }
    ui.separator();
    let rows = agents.team.len();
    let row_height = ui.spacing().interact_size.y;
    egui::ScrollArea::vertical()
        .id_salt("agents-units")
        .max_height(220.0)
        .show_rows(ui, row_height, rows, |ui, range| {
            egui::Grid::new("agents-units-grid")
                .num_columns(5)
                .striped(true)
                .show(ui, |ui| {
                    for i in range {
                        let agent = agents.team[i];
                        let selected = agents.selected == Some(i);
                        let swatch = RichText::new(format!("• {}", i + 1)).color(unit_colour(i));
                        if ui.selectable_label(selected, swatch).clicked() {
                            agents.selected = if selected { None } else { Some(i) };
                        }
                        ui.label(format!("{} to {}", agent.start, agent.goal));
                        let summary = agents.solved.as_ref().and_then(|s| s.summary.as_ref());
                        match summary.and_then(|s| Some((s.arrivals.get(i)?, s.costs.get(i)?))) {
                            Some((arrival, cost)) => {
                                ui.label(format!("t {arrival}"));
                                ui.label(format!("{cost:.1}"));
                            }
                            None => {
                                ui.label("");
                                ui.label("");
                            }
                        }
                        if ui
                            .small_button("✖")
                            .on_hover_text("Remove this unit")
                            .clicked()
                        {
                            out.push(AgentsIntent::Remove(i));
                        }
                        ui.end_row();
                    }
                });
        });
}
