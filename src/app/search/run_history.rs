//! The history of the runs: one row per plan (one per marker drag), sortable by any column.

use egui::Ui;

use crate::search::Algorithm;

use super::panel::{algorithm_name, format_time};
use super::planner::Plan;

/// How many past runs the history keeps.
pub const HISTORY_LENGTH: usize = 100;

/// A column of the history table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    /// The run's number.
    Run,
    /// The algorithm.
    Algorithm,
    /// The path's cost.
    Cost,
    /// Cells expanded.
    Expanded,
    /// Search time.
    Time,
}

/// One past run, as the history table shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryRow {
    /// Counts runs from 1.
    pub run: usize,
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Settings in short: diagonal rule, heuristic and weight.
    pub settings: String,
    /// The path's cost, when one was found.
    pub cost: Option<f64>,
    /// Cells expanded.
    pub expanded: u64,
    /// Search time in microseconds.
    pub time_us: u64,
}

/// The past runs and how the table sorts them.
#[derive(Debug)]
pub struct RunHistory {
    /// Past runs, newest last.
    pub rows: Vec<HistoryRow>,
    /// The sort column and whether it sorts ascending.
    pub sort: (Column, bool),
    runs: usize,
    /// Whether a marker is being dragged now.
    dragging: bool,
    /// Whether the last row belongs to a marker drag whose plans may still come.
    drag_row: bool,
}

impl Default for RunHistory {
    fn default() -> Self {
        Self {
            rows: Vec::new(),
            sort: (Column::Run, false),
            runs: 0,
            dragging: false,
            drag_row: false,
        }
    }
}

impl RunHistory {
    /// Adds the row of a new plan; the plans of one marker drag share one row.
    pub fn record(&mut self, plan: &Plan) {
        self.runs += 1;
        let request = &plan.request;
        let mut settings = if request.algorithm.info().uses_heuristic
            || request.algorithm.info().guarantee == crate::search::Guarantee::AnyAngle
        {
            format!("{}, {}", request.diagonal, request.effective_heuristic())
        } else {
            format!("{}, no heuristic", request.diagonal)
        };
        if request.algorithm.info().uses_weight && request.weight > 1.0 {
            settings.push_str(&format!(", w {:.2}", request.weight));
        }
        let row = HistoryRow {
            run: self.runs,
            algorithm: request.algorithm,
            settings,
            cost: plan.result.found.then_some(plan.result.cost),
            expanded: plan.result.stats.expanded,
            time_us: plan.result.stats.time_us,
        };
        // The plans of one marker drag make one row: each replaces the one before, and the
        // last, on release, stays.
        match self.rows.last_mut() {
            Some(last) if self.drag_row => {
                self.runs -= 1;
                *last = HistoryRow {
                    run: last.run,
                    ..row
                };
            }
            _ => self.rows.push(row),
        }
        self.drag_row = self.dragging;
        if self.rows.len() > HISTORY_LENGTH {
            self.rows.remove(0);
        }
    }

    /// Says whether a marker is being dragged, and whether a plan is still on its way: the
    /// plans of one drag share one history row.
    pub fn set_dragging(&mut self, dragging: bool, plan_pending: bool) {
        if self.dragging && !dragging && !plan_pending {
            // Released with nothing more to come: the drag's row is final.
            self.drag_row = false;
        }
        self.dragging = dragging;
    }

    /// The history rows in the chosen order.
    pub fn sorted(&self) -> Vec<&HistoryRow> {
        let mut rows: Vec<&HistoryRow> = self.rows.iter().collect();
        let (column, ascending) = self.sort;
        rows.sort_by(|a, b| {
            let order = match column {
                Column::Run => a.run.cmp(&b.run),
                Column::Algorithm => algorithm_name(a.algorithm).cmp(algorithm_name(b.algorithm)),
                Column::Cost => a
                    .cost
                    .unwrap_or(f64::INFINITY)
                    .total_cmp(&b.cost.unwrap_or(f64::INFINITY)),
                Column::Expanded => a.expanded.cmp(&b.expanded),
                Column::Time => a.time_us.cmp(&b.time_us),
            };
            if ascending { order } else { order.reverse() }
        });
        rows
    }

    /// The collapsible History table.
    pub fn ui(&mut self, ui: &mut Ui) {
        egui::CollapsingHeader::new(format!("History ({})", self.rows.len()))
            .default_open(false)
            .show(ui, |ui| {
                if self.rows.is_empty() {
                    ui.label("No runs yet.");
                    return;
                }
                // Narrow enough for the side panel at its default width: the algorithm's name
                // is cut short when it is long (its tooltip has it whole).
                ui.spacing_mut().button_padding.x = 2.0;
                egui::Grid::new("search-history")
                    .num_columns(5)
                    .striped(true)
                    .spacing([6.0, 2.0])
                    .max_col_width(96.0)
                    .show(ui, |ui| {
                        for (column, name) in [
                            (Column::Run, "#"),
                            (Column::Algorithm, "Algorithm"),
                            (Column::Cost, "Cost"),
                            (Column::Expanded, "Expanded"),
                            (Column::Time, "Time"),
                        ] {
                            let (current, ascending) = self.sort;
                            let arrow = match (current == column, ascending) {
                                (true, true) => " ⬆",
                                (true, false) => " ⬇",
                                _ => "",
                            };
                            if ui
                                .button(format!("{name}{arrow}"))
                                .on_hover_text(format!("Sort by {}", name.to_lowercase()))
                                .clicked()
                            {
                                self.sort = (column, !(current == column && ascending));
                            }
                        }
                        ui.end_row();
                        for row in self.sorted() {
                            ui.label(row.run.to_string());
                            let name = algorithm_name(row.algorithm);
                            ui.add(egui::Label::new(name).truncate())
                                .on_hover_text(format!("{name}: {}", row.settings));
                            ui.label(row.cost.map_or("–".to_owned(), |c| format!("{c:.2}")));
                            ui.label(row.expanded.to_string());
                            ui.label(format_time(row.time_us));
                            ui.end_row();
                        }
                    });
            });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(run: usize, cost: Option<f64>, expanded: u64) -> HistoryRow {
        HistoryRow {
            run,
            algorithm: Algorithm::AStar,
            settings: String::new(),
            cost,
            expanded,
            time_us: 10,
        }
    }

    #[test]
    fn the_history_sorts_by_any_column_both_ways() {
        let mut view = RunHistory {
            rows: vec![
                row(1, Some(5.0), 30),
                row(2, None, 10),
                row(3, Some(2.0), 20),
            ],
            sort: (Column::Cost, true),
            ..RunHistory::default()
        };
        let runs: Vec<usize> = view.sorted().iter().map(|r| r.run).collect();
        assert_eq!(runs, [3, 1, 2], "no path sorts last");
        view.sort = (Column::Expanded, false);
        let runs: Vec<usize> = view.sorted().iter().map(|r| r.run).collect();
        assert_eq!(runs, [1, 3, 2]);
    }
}
