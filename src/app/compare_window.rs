//! The "compare all" window: every algorithm's run on one request, as a table and as bar
//! charts of time, cells expanded and path cost. The table also shows each path smoothed
//! (line of sight and curves), so that an any-angle search (Theta*) can be weighed against A*
//! plus smoothing: the cost of the smoothed path, and the time of search and smoothing.

use egui::{Color32, RichText, Ui};
use egui_plot::{Bar, BarChart, Plot};

use crate::search::{Algorithm, SearchResult};

use super::planner::Comparison;
use super::search_panel::{algorithm_name, format_time, optimality_text};
use crate::format::path_export::why_no_optimality;

/// The "compare all" window: a table and bar charts of every algorithm's run.
pub fn compare_window_ui(ctx: &egui::Context, open: &mut bool, rows: &[Comparison]) {
    if !*open {
        return;
    }
    egui::Window::new("Compare algorithms")
        .open(open)
        .default_size([760.0, 520.0])
        .show(ctx, |ui| {
            egui::Grid::new("compare-table")
                .num_columns(8)
                .striped(true)
                .show(ui, |ui| {
                    for (title, about) in COLUMNS {
                        ui.label(RichText::new(title).strong()).on_hover_text(about);
                    }
                    ui.end_row();
                    for row in rows {
                        ui.label(algorithm_name(row.algorithm));
                        match &row.outcome {
                            Ok(result) => {
                                let (cost, length) = if result.found {
                                    (format!("{:.3}", result.cost), format!("{:.3}", result.length))
                                } else {
                                    ("no path".to_owned(), "–".to_owned())
                                };
                                let (smoothed_cost, with_smoothing) = match &row.smoothed {
                                    Some(smoothed) => (
                                        format!("{:.3}", smoothed.cost),
                                        format_time(result.stats.time_us + smoothed.time_us),
                                    ),
                                    None => ("–".to_owned(), "–".to_owned()),
                                };
                                ui.label(cost);
                                ui.label(smoothed_cost);
                                ui.label(length);
                                ui.label(result.stats.expanded.to_string());
                                ui.label(format_time(result.stats.time_us));
                                ui.label(with_smoothing);
                                match why_no_optimality(result) {
                                    None => {
                                        ui.label(optimality_text(result.optimality));
                                    }
                                    Some(why) => {
                                        ui.label(RichText::new(format!("– ({why})")).weak())
                                            .on_hover_text(result.message());
                                    }
                                }
                            }
                            Err(failure) => {
                                for _ in 0..COLUMNS.len() - 2 {
                                    ui.label("–");
                                }
                                ui.label(RichText::new(failure.to_string()).weak())
                                    .on_hover_text(failure.to_string());
                            }
                        }
                        ui.end_row();
                    }
                });
            ui.separator();
            ui.columns(3, |columns| {
                for (column, chart) in columns.iter_mut().zip(compare_charts(rows)) {
                    chart_ui(column, &chart);
                }
            });
            ui.label(
                RichText::new("Runs that found a path, fastest and cheapest on top; time and cells on a log scale. Greedy and weighted A* buy speed with cost; jump point search keeps the cost and skips most cells; Theta* and Lazy Theta* find any-angle paths, to weigh against A*'s smoothed cost and its time with smoothing.")
                    .weak()
                    .small(),
            );
        });
}

/// The table's columns: title and tooltip.
const COLUMNS: [(&str, &str); 8] = [
    ("Algorithm", "The search run."),
    (
        "Cost",
        "The cost of the path found: its grid steps, or an any-angle path's segments.",
    ),
    (
        "Smoothed",
        "The cost of the path after smoothing: line-of-sight shortcuts of a grid path (an any-angle path is kept as it is).",
    ),
    ("Length", "The length of the path found, in cells."),
    ("Expanded", "Cells taken off the open list."),
    ("Time", "The search's own time."),
    (
        "+ smoothing",
        "The search's time plus the time smoothing took (line of sight and curves).",
    ),
    ("Optimality", "What is guaranteed of the cost."),
];

type Measure = fn(&SearchResult) -> f64;

/// One bar chart of "compare all".
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// What it measures.
    pub title: &'static str,
    /// Whether its scale is logarithmic (times and cell counts span orders of magnitude).
    pub log: bool,
    /// The runs that found a path, smallest value first: the algorithm and its value.
    pub bars: Vec<(Algorithm, f64)>,
}

impl Chart {
    /// The length each bar is drawn with: the value, or on a log scale its decades above the
    /// smallest bar's, plus half a decade, so that no bar that ran is drawn as nothing.
    pub fn lengths(&self) -> Vec<f64> {
        if !self.log {
            return self.bars.iter().map(|&(_, v)| v).collect();
        }
        let floor = self.log_floor();
        self.bars
            .iter()
            .map(|&(_, v)| v.max(LOG_EPSILON).log10() - floor + 0.5)
            .collect()
    }

    /// The decade the log scale starts from.
    fn log_floor(&self) -> f64 {
        self.bars
            .iter()
            .map(|&(_, v)| v.max(LOG_EPSILON).log10().floor())
            .fold(f64::INFINITY, f64::min)
    }

    /// The value a bar length stands for (the inverse of [`Chart::lengths`]).
    fn value_at(&self, length: f64) -> f64 {
        if self.log {
            10f64.powf(length - 0.5 + self.log_floor())
        } else {
            length
        }
    }
}

/// The smallest value a log scale shows (a run of 0 µs is drawn as one of this).
const LOG_EPSILON: f64 = 1e-3;

/// The three charts of "compare all": time, cells expanded and path cost. Runs that failed or
/// found no path are left out (the table says why), so one slow failure cannot flatten the
/// rest.
pub fn compare_charts(rows: &[Comparison]) -> [Chart; 3] {
    let measures: [(&'static str, bool, Measure); 3] = [
        ("Time (ms)", true, |r| r.stats.time_us as f64 / 1000.0),
        ("Cells expanded", true, |r| r.stats.expanded as f64),
        ("Path cost", false, |r| r.cost),
    ];
    measures.map(|(title, log, value)| {
        let mut bars: Vec<(Algorithm, f64)> = rows
            .iter()
            .filter_map(|row| match &row.outcome {
                Ok(result) if result.found => Some((row.algorithm, value(result))),
                _ => None,
            })
            .collect();
        bars.sort_by(|a, b| a.1.total_cmp(&b.1));
        Chart { title, log, bars }
    })
}

/// Draws a chart as horizontal bars, each labelled with its algorithm, smallest on top.
fn chart_ui(ui: &mut Ui, chart: &Chart) {
    ui.label(RichText::new(chart.title).strong());
    let n = chart.bars.len();
    let lengths = chart.lengths();
    let bars: Vec<Bar> = chart
        .bars
        .iter()
        .zip(&lengths)
        .enumerate()
        .map(|(i, (&(algorithm, value), &length))| {
            // The first bar at the top.
            Bar::new((n - 1 - i) as f64, length)
                .name(format!("{}: {value:.3}", algorithm_name(algorithm)))
                .fill(chart_colour(algorithm as usize))
                .width(0.7)
        })
        .collect();
    let names: Vec<&'static str> = chart.bars.iter().map(|(a, _)| a.name()).collect();
    Plot::new(format!("compare-{}", chart.title))
        .height(30.0 + 20.0 * n as f32)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .show_y(false)
        .y_grid_spacer(move |_| {
            (0..n)
                .map(|i| egui_plot::GridMark {
                    value: i as f64,
                    step_size: 1.0,
                })
                .collect()
        })
        .y_axis_formatter(move |mark, _| {
            let i = mark.value.round();
            if (mark.value - i).abs() > 1e-6 || i < 0.0 {
                return String::new();
            }
            names
                .get(n.wrapping_sub(1).wrapping_sub(i as usize))
                .map_or(String::new(), |name| (*name).to_owned())
        })
        .x_axis_formatter(|mark, _| {
            let value = chart.value_at(mark.value);
            if value >= 100.0 {
                format!("{value:.0}")
            } else if value >= 1.0 {
                format!("{value:.1}")
            } else {
                format!("{value:.3}")
            }
        })
        .show(ui, |plot| {
            plot.bar_chart(BarChart::new(chart.title, bars).horizontal());
        });
}

fn chart_colour(i: usize) -> Color32 {
    const COLOURS: [Color32; 8] = [
        Color32::from_rgb(86, 156, 214),
        Color32::from_rgb(214, 157, 86),
        Color32::from_rgb(106, 190, 48),
        Color32::from_rgb(200, 90, 160),
        Color32::from_rgb(220, 80, 70),
        Color32::from_rgb(90, 200, 200),
        Color32::from_rgb(180, 180, 90),
        Color32::from_rgb(150, 120, 220),
    ];
    COLOURS[i % COLOURS.len()]
}
