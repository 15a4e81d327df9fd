//! The "compare all" window: every algorithm's run on one request, as a table and as bar
//! charts of time, cells expanded and path cost. The table also shows each path smoothed
//! (line of sight and curves), so that an any-angle search (Theta*) can be weighed against A*
//! plus smoothing: the cost of the smoothed path, and the time of search and smoothing.

use egui::{Color32, RichText, Ui};
use egui_plot::{AxisHints, Bar, BarChart, Plot};

use crate::search::{Algorithm, SearchResult};

use super::panel::{algorithm_name, format_time, optimality_text};
use super::planner::Comparison;
use crate::format::path_export::why_no_optimality;

/// The "compare all" window: a table and bar charts of every algorithm's run.
pub fn compare_window_ui(ctx: &egui::Context, open: &mut bool, rows: &[Comparison]) {
    if !*open {
        return;
    }
    egui::Window::new("Compare algorithms")
        .open(open)
        .default_size([1000.0, 640.0])
        .show(ctx, |ui| {
            ui.label(
                RichText::new("Every algorithm ran cold: its search state (D* Lite's costs, HPA*'s abstraction, the contraction hierarchy) built afresh, that build timed apart from the query.")
                    .weak()
                    .small(),
            );
            // Long reasons (an algorithm refused on this map, a search stopped) are cut short
            // in the table, whole in their tooltips, so the window fits the screen.
            egui::Grid::new("compare-table")
                .num_columns(COLUMNS.len())
                .max_col_width(REASON_WIDTH)
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
                                ui.label(format_time(row.build_us));
                                ui.label(format_time(result.stats.time_us));
                                ui.label(with_smoothing);
                                match why_no_optimality(result) {
                                    None => {
                                        ui.label(optimality_text(result.optimality));
                                    }
                                    Some(why) => {
                                        let text = RichText::new(format!("– ({why})")).weak();
                                        ui.add(egui::Label::new(text).truncate())
                                            .on_hover_text(result.message());
                                    }
                                }
                            }
                            Err(failure) => {
                                for _ in 0..COLUMNS.len() - 2 {
                                    ui.label("–");
                                }
                                let why = if row.skipped() {
                                    "skipped".to_owned()
                                } else {
                                    failure.to_string()
                                };
                                ui.add(egui::Label::new(RichText::new(&why).weak()).truncate())
                                    .on_hover_text(why);
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

/// The widest a column of the table is: the reasons in the last one are cut there.
const REASON_WIDTH: f32 = 260.0;

/// The table's columns: title and tooltip.
const COLUMNS: [(&str, &str); 9] = [
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
    (
        "Build",
        "The time to build the search state afresh before the query: D* Lite's first costs, HPA*'s abstraction, the contraction hierarchy; next to nothing for the others.",
    ),
    ("Query", "The search's own time, the build left out."),
    (
        "+ smoothing",
        "The query's time plus the time smoothing took (line of sight and curves).",
    ),
    ("Optimality", "What is guaranteed of the cost."),
];

type Measure = fn(&SearchResult) -> f64;

/// One bar chart of "compare all".
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// What it measures.
    pub title: &'static str,
    /// The unit of its values, after each value in the bars' labels (may be empty).
    pub unit: &'static str,
    /// Whether its scale is logarithmic (times and cell counts span orders of magnitude).
    pub log: bool,
    /// The runs that found a path, smallest value first: the algorithm and its value.
    pub bars: Vec<(Algorithm, f64)>,
}

/// A labelled mark on a chart's value axis.
#[derive(Clone, Debug, PartialEq)]
pub struct Tick {
    /// Where it is, in bar lengths (see [`Chart::lengths`]).
    pub at: f64,
    /// The value it stands for.
    pub value: f64,
    /// Its label.
    pub label: String,
}

impl Chart {
    /// The length each bar is drawn with: the value, or on a log scale its decades above
    /// [`Chart::log_floor`], a whole decade below the smallest bar's, so that every bar that
    /// ran is at least a decade long and the axis starts at a round value.
    pub fn lengths(&self) -> Vec<f64> {
        self.bars.iter().map(|&(_, v)| self.length_of(v)).collect()
    }

    /// The length a value is drawn with.
    fn length_of(&self, value: f64) -> f64 {
        if self.log {
            value.max(LOG_EPSILON).log10() - self.log_floor()
        } else {
            value
        }
    }

    /// The decade the log scale starts from: one below the smallest bar's.
    fn log_floor(&self) -> f64 {
        let smallest = self
            .bars
            .iter()
            .map(|&(_, v)| v.max(LOG_EPSILON).log10().floor())
            .fold(f64::INFINITY, f64::min);
        if smallest.is_finite() {
            smallest - 1.0
        } else {
            0.0
        }
    }

    /// Each bar's label: its algorithm's name and its value with the unit. The bars and their
    /// tooltips carry these, whatever the outcome of the other runs.
    pub fn bar_labels(&self) -> Vec<String> {
        self.bars
            .iter()
            .map(|&(algorithm, value)| {
                format!(
                    "{}: {}",
                    algorithm_name(algorithm),
                    format_value(value, self.unit)
                )
            })
            .collect()
    }

    /// The labelled marks of the value axis: on a log scale every decade from the axis' start
    /// (0) to the first decade past the longest bar; on a linear scale none (the plot's own).
    pub fn ticks(&self) -> Vec<Tick> {
        if !self.log || self.bars.is_empty() {
            return Vec::new();
        }
        let longest = self.lengths().into_iter().fold(0.0, f64::max);
        let decades = longest.ceil().max(1.0) as i32;
        let floor = self.log_floor() as i32;
        (0..=decades)
            .map(|i| {
                let exponent = floor + i;
                let value = 10f64.powi(exponent);
                Tick {
                    at: f64::from(i),
                    value,
                    label: decade_label(exponent),
                }
            })
            .collect()
    }
}

/// `10^exponent` written out: "0.001", "1", "1000".
fn decade_label(exponent: i32) -> String {
    if exponent < 0 {
        format!(
            "{:.*}",
            exponent.unsigned_abs() as usize,
            10f64.powi(exponent)
        )
    } else {
        format!("{:.0}", 10f64.powi(exponent))
    }
}

/// A bar's value with its unit: three significant figures at most for small values.
fn format_value(value: f64, unit: &str) -> String {
    let number = if value >= 100.0 || value.fract() == 0.0 {
        format!("{value:.0}")
    } else if value >= 1.0 {
        format!("{value:.2}")
    } else {
        format!("{value:.3}")
    };
    if unit.is_empty() {
        number
    } else {
        format!("{number} {unit}")
    }
}

/// The smallest value a log scale shows (a run of 0 µs is drawn as one of this).
const LOG_EPSILON: f64 = 1e-3;

/// The height of each bar's row in points: room for its algorithm's name on the axis.
const ROW_HEIGHT: f32 = 24.0;

/// The three charts of "compare all": time, cells expanded and path cost. Runs that failed or
/// found no path are left out (the table says why), so one slow failure cannot flatten the
/// rest.
pub fn compare_charts(rows: &[Comparison]) -> [Chart; 3] {
    let measures: [(&'static str, &'static str, bool, Measure); 3] = [
        ("Query time (ms)", "ms", true, |r| {
            r.stats.time_us as f64 / 1000.0
        }),
        ("Cells expanded", "cells", true, |r| r.stats.expanded as f64),
        ("Path cost", "", false, |r| r.cost),
    ];
    measures.map(|(title, unit, log, value)| {
        let mut bars: Vec<(Algorithm, f64)> = rows
            .iter()
            .filter_map(|row| match &row.outcome {
                Ok(result) if result.found => Some((row.algorithm, value(result))),
                _ => None,
            })
            .collect();
        bars.sort_by(|a, b| a.1.total_cmp(&b.1));
        Chart {
            title,
            unit,
            log,
            bars,
        }
    })
}

/// Draws a chart as horizontal bars, each labelled with its algorithm on the axis and in its
/// tooltip, smallest on top.
fn chart_ui(ui: &mut Ui, chart: &Chart) {
    ui.label(RichText::new(chart.title).strong());
    let n = chart.bars.len();
    let labels = chart.bar_labels();
    let bars: Vec<Bar> = chart
        .bars
        .iter()
        .zip(chart.lengths())
        .zip(labels)
        .enumerate()
        .map(|(i, ((&(algorithm, _), length), label))| {
            // The first bar at the top.
            Bar::new((n - 1 - i) as f64, length)
                .name(label)
                .fill(chart_colour(algorithm as usize))
                .width(0.7)
        })
        .collect();
    let names: Vec<&'static str> = chart.bars.iter().map(|&(a, _)| algorithm_name(a)).collect();
    let ticks = chart.ticks();
    let log = chart.log;
    let y_axis = AxisHints::new_y()
        // Every row's name, however close the rows: they are never closer than a line.
        .label_spacing(0.0..=1.0)
        .formatter(move |mark, _| {
            let i = mark.value.round();
            if (mark.value - i).abs() > 1e-6 || i < 0.0 {
                return String::new();
            }
            names
                .get(n.wrapping_sub(1).wrapping_sub(i as usize))
                .map_or(String::new(), |name| (*name).to_owned())
        });
    let mut plot = Plot::new(format!("compare-{}", chart.title))
        .height(30.0 + ROW_HEIGHT * n as f32)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .show_y(false)
        .custom_y_axes(vec![y_axis])
        .y_grid_spacer(move |_| {
            (0..n)
                .map(|i| egui_plot::GridMark {
                    value: i as f64,
                    step_size: 1.0,
                })
                .collect()
        })
        .include_x(0.0);
    if log {
        let last = ticks.last().map_or(1.0, |t| t.at);
        // Where decades are too close for every label, every other one (or every fourth) is
        // labelled: a mark's step, which decides whether the axis has room for its label, is
        // the largest power of two that divides its decade's place.
        let marks: Vec<egui_plot::GridMark> = ticks
            .iter()
            .map(|t| {
                let place = t.at as u32;
                let step = if place == 0 {
                    64
                } else {
                    1 << place.trailing_zeros().min(6)
                };
                egui_plot::GridMark {
                    value: t.at,
                    step_size: f64::from(step),
                }
            })
            .collect();
        let x_axis = AxisHints::new_x()
            .label_spacing(44.0..=52.0)
            .formatter(move |mark, _| {
                ticks
                    .iter()
                    .find(|t| (t.at - mark.value).abs() < 1e-6)
                    .map_or(String::new(), |t| t.label.clone())
            });
        plot = plot
            .include_x(last)
            .custom_x_axes(vec![x_axis])
            .x_grid_spacer(move |_| marks.clone());
    } else {
        // Costs are short numbers: labels closer than the plot's default.
        plot = plot.custom_x_axes(vec![AxisHints::new_x().label_spacing(28.0..=36.0)]);
    }
    plot.show(ui, |plot| {
        plot.bar_chart(
            BarChart::new(chart.title, bars)
                .horizontal()
                .element_formatter(Box::new(|bar, _| bar.name.clone())),
        );
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
