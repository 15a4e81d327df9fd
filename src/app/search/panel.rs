//! The search panel: which algorithm, diagonal rule and heuristic the path is planned with,
//! and what the last search found.

use egui::{ComboBox, Ui};

use crate::grid::{Cell, Topology};
use crate::search::{Algorithm, Diagonal, Heuristic, Optimality, SearchRequest};

/// The search settings the user chose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchSettings {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The diagonal rule.
    pub diagonal: Diagonal,
    /// The heuristic; `None` is the default for the diagonal rule.
    pub heuristic: Option<Heuristic>,
    /// The weight on the heuristic (A* only), at least 1.
    pub weight: f64,
    /// When the goal cannot be reached, plan to the reachable cell nearest it.
    pub partial: bool,
    /// The cost of every 45° the path turns (A* and Dijkstra).
    pub turn_penalty: f64,
    /// The side of the unit the path is for, placed by its top-left cell (1: one cell).
    pub unit_size: u32,
    /// Visit the map's waypoints in the order that makes the route cheapest.
    pub best_order: bool,
    /// Come back to the start after the goal.
    pub patrol: bool,
}

impl Default for SearchSettings {
    fn default() -> Self {
        Self {
            algorithm: Algorithm::AStar,
            diagonal: Diagonal::NoCut,
            heuristic: None,
            weight: 1.0,
            partial: false,
            turn_penalty: 0.0,
            unit_size: 1,
            best_order: false,
            patrol: false,
        }
    }
}

impl SearchSettings {
    /// The request for a path from `start` to `goal` under these settings.
    pub fn request(&self, start: Cell, goal: Cell) -> SearchRequest {
        let mut request = SearchRequest::new(start, goal)
            .with_algorithm(self.algorithm)
            .with_diagonal(self.diagonal)
            .with_weight(self.weight)
            .with_partial(self.partial)
            .with_turn_penalty(
                if matches!(self.algorithm, Algorithm::AStar | Algorithm::Dijkstra) {
                    self.turn_penalty
                } else {
                    0.0
                },
            );
        request.heuristic = self.heuristic;
        request
    }

    /// The settings' controls; returns whether one changed. Jump point search is greyed out
    /// unless the map is `uniform` (every passable cell costs the same). On a hex map
    /// (`topology`) the diagonal rule, which does not apply there, gives way to a note of the
    /// six neighbours, and the heuristics offered are those that fit hexes.
    pub fn ui(&mut self, ui: &mut Ui, uniform: bool, topology: Topology) -> bool {
        let before = *self;
        // Tall enough to list every algorithm without a scroll bar.
        ComboBox::from_label("Algorithm")
            .selected_text(algorithm_name(self.algorithm))
            .height(f32::INFINITY)
            .show_ui(ui, |ui| {
                for &a in Algorithm::ALL {
                    let usable = !a.info().needs_uniform_cost || uniform;
                    let response = ui
                        .add_enabled_ui(usable, |ui| {
                            ui.selectable_value(&mut self.algorithm, a, algorithm_name(a))
                        })
                        .inner;
                    if usable {
                        response.on_hover_text(algorithm_about(a));
                    } else {
                        response.on_disabled_hover_text(format!(
                            "{} Not on this map: its passable terrains differ in cost.",
                            algorithm_about(a)
                        ));
                    }
                }
            })
            .response
            .on_hover_text(algorithm_about(self.algorithm));
        if !topology.has_diagonals() {
            ui.label(HEX_NEIGHBOURS).on_hover_text(
                "Every hex touches six others across a side, and a step to any of them is one cell long: there are no diagonal moves to rule on.",
            );
        } else {
            ComboBox::from_label("Diagonal moves")
                .selected_text(self.diagonal.name())
                .show_ui(ui, |ui| {
                    for &d in Diagonal::ALL {
                        ui.selectable_value(&mut self.diagonal, d, d.name())
                            .on_hover_text(d.about());
                    }
                })
                .response
                .on_hover_text(self.diagonal.about());
        }
        let shown = self.heuristic.map_or_else(
            || {
                format!(
                    "default ({})",
                    Heuristic::default_on(topology, self.diagonal)
                )
            },
            |h| h.name().to_owned(),
        );
        let uses_heuristic = self.algorithm.info().uses_heuristic;
        ui.add_enabled_ui(uses_heuristic, |ui| {
            ComboBox::from_label("Heuristic")
                .selected_text(if uses_heuristic {
                    shown
                } else {
                    "none".to_owned()
                })
                .show_ui(ui, |ui| {
                    let default = if topology.has_diagonals() {
                        "Octile with diagonal moves, Manhattan without."
                    } else {
                        "The hex distance times the cheapest terrain's cost."
                    };
                    ui.selectable_value(&mut self.heuristic, None, "default")
                        .on_hover_text(default);
                    for &h in Heuristic::ALL.iter().filter(|h| h.fits(topology)) {
                        ui.selectable_value(&mut self.heuristic, Some(h), h.name())
                            .on_hover_text(h.about());
                    }
                })
                .response
                .on_disabled_hover_text(format!(
                    "{} reads no heuristic.",
                    self.algorithm.info().title
                ));
        });
        let turns = matches!(self.algorithm, Algorithm::AStar | Algorithm::Dijkstra);
        ui.add_enabled_ui(turns, |ui| {
            ui.add(
                egui::Slider::new(&mut self.turn_penalty, 0.0..=10.0)
                    .clamping(egui::SliderClamping::Edits)
                    .text("Turn penalty"),
            )
            .on_hover_text("The cost of every 45° the path turns: higher gives fewer zig-zags. A* and Dijkstra search exactly over cell and heading.")
            .on_disabled_hover_text("Turn penalties apply to A* and Dijkstra.");
        });
        ui.add(egui::Slider::new(&mut self.unit_size, 1..=8).text("Unit size"))
            .on_hover_text("Plan for a unit of N × N cells, placed by its top-left cell: it goes only where its whole footprint is passable and pays for the costliest cell under it.");
        ui.checkbox(&mut self.partial, "Nearest if unreachable")
            .on_hover_text("When the goal is walled off (or on a wall), plan to the reachable cell nearest it instead.");
        ui.horizontal(|ui| {
            ui.checkbox(&mut self.best_order, "Best order")
                .on_hover_text("Visit the waypoints (right-click the map to add them) in the order that makes the route cheapest: exact, up to 12 points.");
            ui.checkbox(&mut self.patrol, "Patrol")
                .on_hover_text("Come back to the start after the goal: a closed loop through the waypoints.");
        });
        if self.algorithm.info().uses_weight {
            ui.add(egui::Slider::new(&mut self.weight, 1.0..=5.0).text("Weight"))
                .on_hover_text("Weighted A*: above 1 it expands fewer cells; the cost stays within weight × optimal.");
        }
        *self != before
    }
}

/// What the search panel shows in place of the diagonal rule on a hex map.
pub const HEX_NEIGHBOURS: &str = "6 neighbours (hexes)";

/// The algorithm's name as menus show it (its registry title).
pub fn algorithm_name(algorithm: Algorithm) -> &'static str {
    algorithm.info().title
}

/// Microseconds as the panels show them.
pub fn format_time(us: u64) -> String {
    if us < 1000 {
        format!("{us} µs")
    } else {
        format!("{:.2} ms", us as f64 / 1000.0)
    }
}

/// The tooltip of an algorithm: what it does, and for IDA* the maps it is meant for.
pub fn algorithm_about(algorithm: Algorithm) -> String {
    match algorithm {
        Algorithm::IdaStar => format!(
            "{} Meant for small maps: it solves a level the size of the built-in one (1,536 \
             cells) in a few hundred expansions, but gives up after {} expansions, which a \
             search across a map of millions of cells can need, and says so; use A* there.",
            algorithm.about(),
            crate::search::IDASTAR_NODE_BUDGET
        ),
        other => other.about().to_owned(),
    }
}

/// What the statistics say of a result's optimality.
pub fn optimality_text(optimality: Optimality) -> String {
    match optimality {
        Optimality::Exact => "exact (optimal)".to_owned(),
        Optimality::WithinFactor(w) => format!("≤ {w:.2} × optimal"),
        other => other.to_string(),
    }
}
