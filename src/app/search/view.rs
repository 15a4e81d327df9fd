//! Seeing a search think: the search panel (progress, statistics, layers, replay, history),
//! the "compare all" window, and what is drawn over the map (explored cells, frontier, grid
//! path, smoothed path, the inspector's numbers).

use egui::epaint::CubicBezierShape;
use egui::{Align2, Color32, FontId, Painter, Pos2, ProgressBar, RichText, Stroke, Ui, Vec2};

use crate::grid::{Cell, Grid, Topology};
use crate::search::{Algorithm, ContractionHierarchy, FlowField};
use crate::smooth::SmoothSettings;

use super::clearance_layer::{self, ClearanceLayer};
use super::exploration::{Exploration, Shade, Show, ramp};
use super::panel::{SearchSettings, algorithm_name, format_time, optimality_text};
use super::planner::{CompareProgress, Failure, Plan, Planner, builds_first};
use super::run_history::RunHistory;
use crate::app::canvas::canvas::Canvas;
use crate::app::canvas::tiled_texture::TiledTexture;
use crate::app::region::Region;
use crate::format::path_export::why_no_optimality;

/// From this zoom on (screen points per cell), explored cells show their g, h and f.
pub const NUMBERS_FROM: f32 = 56.0;
/// From this zoom on, the flow field shows an arrow in each cell.
pub const ARROWS_FROM: f32 = 16.0;

/// Which drawings lie over the map, and how opaque the shaded ones are.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layers {
    /// Explored cells, shaded.
    pub explored: bool,
    /// The final open set.
    pub frontier: bool,
    /// The grid path.
    pub path: bool,
    /// The smoothed path.
    pub smoothed: bool,
    /// g/h/f numbers and parent arrows, zoomed in far enough.
    pub numbers: bool,
    /// The flow field to the goal: every cell's cost as a heat map, with arrows zoomed in.
    pub field: bool,
    /// The clearance of every cell (where a unit of N × N fits) as a heat map.
    pub clearance: bool,
    /// The opacity of the explored cells and the frontier, 0 to 1.
    pub explored_opacity: f32,
    /// The opacity of the flow field's heat map, 0 to 1.
    pub field_opacity: f32,
}

/// How much the explored cells fade while the flow field shows, so the field reads alone.
const UNDER_THE_FIELD: f32 = 0.3;

impl Default for Layers {
    fn default() -> Self {
        Self {
            explored: true,
            frontier: true,
            path: true,
            smoothed: true,
            numbers: true,
            field: false,
            clearance: false,
            explored_opacity: 0.35,
            field_opacity: 0.75,
        }
    }
}

/// The replay of a search's expansions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Playback {
    /// How many expansions are shown (fractional while playing).
    pub position: f64,
    /// Whether it advances by itself.
    pub playing: bool,
    /// Expansions per second while playing.
    pub speed: f64,
}

impl Default for Playback {
    fn default() -> Self {
        Self {
            position: 0.0,
            playing: false,
            speed: 200.0,
        }
    }
}

/// The overlay texture of explored cells and what it shows now.
struct Overlay {
    texture: TiledTexture,
    /// (plan serial, expansions shown, what is shown).
    shown: Option<(u64, usize, Show)>,
    /// The cells the texture may show as not transparent.
    drawn: Region,
}

impl Default for Overlay {
    fn default() -> Self {
        Self {
            texture: TiledTexture::new("explored"),
            shown: None,
            drawn: Region::EMPTY,
        }
    }
}

/// Everything the editor shows of its searches besides the planner itself.
pub struct SearchView {
    /// Re-plan on every edit, marker move and setting change.
    pub live: bool,
    /// The smoothing settings.
    pub smoothing: SmoothSettings,
    /// The spacing, in cells, of the points File → Export path samples along the curve.
    pub sample_spacing: f64,
    /// Which drawings show.
    pub layers: Layers,
    /// How explored cells are shaded.
    pub shade: Shade,
    /// The replay.
    pub playback: Playback,
    /// Past runs.
    pub history: RunHistory,
    /// Whether the comparison window is open.
    pub compare_open: bool,
    seen_plan: u64,
    overlay: Overlay,
    /// The flow field's heat map and the plan it shows.
    field_texture: TiledTexture,
    field_shown: Option<u64>,
    /// The clearance heat layer.
    clearance: ClearanceLayer,
}

impl Default for SearchView {
    fn default() -> Self {
        Self {
            live: true,
            smoothing: SmoothSettings::default(),
            sample_spacing: crate::smooth::DEFAULT_SPACING,
            layers: Layers::default(),
            shade: Shade::Order,
            playback: Playback::default(),
            history: RunHistory::default(),
            compare_open: false,
            seen_plan: 0,
            overlay: Overlay::default(),
            field_texture: TiledTexture::new("flow-field"),
            field_shown: None,
            clearance: ClearanceLayer::default(),
        }
    }
}

impl SearchView {
    /// The clearance the heat layer shows at a cell, once drawn.
    pub fn shown_clearance(&self, cell: Cell) -> Option<u32> {
        self.clearance.value(cell)
    }

    /// Takes note of a new plan: the replay jumps to its end and the history gains a row.
    pub fn on_plan(&mut self, serial: u64, plan: &Plan) {
        if serial == self.seen_plan {
            return;
        }
        self.seen_plan = serial;
        self.playback.position = plan.result.stats.expanded as f64;
        self.playback.playing = false;
        self.history.record(plan);
    }

    /// Says whether a marker is being dragged, and whether a plan is still on its way: the
    /// plans of one drag share one history row.
    pub fn set_dragging(&mut self, dragging: bool, plan_pending: bool) {
        self.history.set_dragging(dragging, plan_pending);
    }

    /// How many expansions the replay shows now.
    pub fn shown_expansions(&self, exploration: &Exploration) -> usize {
        (self.playback.position.max(0.0) as usize).min(exploration.expanded())
    }

    /// Advances the replay by `dt` seconds; returns whether it is still playing.
    pub fn advance(&mut self, dt: f64, total: usize) -> bool {
        if !self.playback.playing {
            return false;
        }
        self.playback.position += self.playback.speed * dt;
        if self.playback.position >= total as f64 {
            self.playback.position = total as f64;
            self.playback.playing = false;
        }
        self.playback.playing
    }

    /// Brings the overlay texture up to date with the plan and the replay: the whole image
    /// for a new plan or another shading, else only the cells the replay moved over.
    fn sync_overlay(
        &mut self,
        ctx: &egui::Context,
        serial: u64,
        exploration: &Exploration,
        visible: Region,
    ) {
        let upto = self.shown_expansions(exploration);
        let show = Show {
            explored: self.layers.explored,
            shade: self.shade,
            frontier: self.layers.frontier && upto >= exploration.expanded(),
        };
        let size = exploration.size();
        let texture = &mut self.overlay.texture;
        match self.overlay.shown {
            Some(shown) if shown == (serial, upto, show) && texture.size() == size => {}
            Some((s, before, was)) if s == serial && was == show && texture.size() == size => {
                let region = exploration.region_between(before, upto);
                if !region.is_empty() {
                    texture.set_region(region, |part| exploration.image(part, upto, show));
                }
            }
            // Another plan or shading on a map of the same size: only the cells either plan
            // touched change, so a small search on a huge map stays cheap to show.
            _ if texture.size() == size => {
                let mut region = self.overlay.drawn;
                region.union(exploration.bounds());
                if !region.is_empty() {
                    texture.set_region(region, |part| exploration.image(part, upto, show));
                }
            }
            _ => texture.set_whole(ctx, size, |part| exploration.image(part, upto, show)),
        }
        texture.refresh(ctx, visible, |part| exploration.image(part, upto, show));
        self.overlay.drawn = exploration.bounds();
        self.overlay.shown = Some((serial, upto, show));
    }
}

/// What the search panel asks the editor to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchIntent {
    /// A setting changed: plan again in live mode, else mark the path stale.
    Replan,
    /// Plan now ("Find path", or a layer that needs the search run again).
    PlanNow,
    /// Run every algorithm between the markers.
    CompareAll,
    /// Stop the running search.
    Cancel,
}

impl SearchView {
    /// Takes the worker's answers and moves the replay on; called once per frame.
    pub fn update(&mut self, ctx: &egui::Context, planner: &mut Planner) {
        planner.set_context(ctx);
        planner.poll();
        if let Some(plan) = planner.plan() {
            self.on_plan(planner.plan_serial(), plan);
            let total = plan.exploration.as_ref().map_or(0, Exploration::expanded);
            let dt = f64::from(ctx.input(|i| i.stable_dt)).min(0.1);
            if self.advance(dt, total) {
                ctx.request_repaint();
            }
        }
        if planner.is_busy() {
            // The progress bar moves while the worker runs; the worker wakes us when done.
            ctx.request_repaint_after(std::time::Duration::from_millis(50));
        }
    }

    /// The search panel: settings, progress, statistics, layers, replay and history.
    pub fn panel_ui(
        &mut self,
        ui: &mut Ui,
        planner: &Planner,
        settings: &mut SearchSettings,
        topology: Topology,
    ) -> Vec<SearchIntent> {
        let mut intents = Vec::new();
        // Rows a little closer than the default, so that the panel fits a window 780 high.
        ui.spacing_mut().item_spacing.y = 2.0;
        ui.heading("Path");
        ui.add_space(4.0);
        let mut changed = settings.ui(ui, planner.map_is_uniform(), topology);
        Self::long_build_note(ui, planner, settings.algorithm);
        ui.horizontal(|ui| {
            ui.checkbox(&mut self.live, "Live")
                .on_hover_text("Plan again at every edit, marker move and setting change.");
            if ui
                .button("Find path")
                .on_hover_text("Run the search now with the settings above.")
                .clicked()
            {
                intents.push(SearchIntent::PlanNow);
            }
            let busy = planner.is_comparing();
            if ui
                .add_enabled(!busy, egui::Button::new("Compare all"))
                .on_hover_text("Run every algorithm on the same start, goal and settings, and chart time, cells expanded and cost.")
                .clicked()
            {
                intents.push(SearchIntent::CompareAll);
            }
        });
        ui.collapsing("Smoothing", |ui| {
            let s = &mut self.smoothing;
            changed |= ui
                .add(egui::Slider::new(&mut s.tension, 0.0..=1.0).text("Tension"))
                .on_hover_text("0 draws straight segments between the line-of-sight waypoints; 1 a full Catmull–Rom curve.")
                .changed();
            changed |= ui
                .add(egui::Slider::new(&mut s.clearance, 0.0..=1.0).text("Clearance"))
                .on_hover_text("The distance in cells every curved piece keeps from walls; pieces that cannot are tightened, then straightened.")
                .changed();
            ui.add(
                egui::Slider::new(&mut self.sample_spacing, 0.05..=2.0)
                    .logarithmic(true)
                    .text("Export spacing"),
            )
            .on_hover_text("File → Export path samples the curve at most this many cells apart: points with heading and distance, and in metres for maps with a world frame.");
        });
        if changed {
            intents.push(SearchIntent::Replan);
        }
        ui.separator();
        self.progress_ui(ui, planner, &mut intents);
        Self::statistics_ui(ui, planner, topology);
        if planner.comparison().is_some() && ui.button("Show comparison").clicked() {
            self.compare_open = true;
        }
        ui.separator();
        self.layers_ui(ui, planner, &mut intents);
        self.playback_ui(ui, planner);
        ui.separator();
        self.history.ui(ui);
        intents
    }

    fn progress_ui(&mut self, ui: &mut Ui, planner: &Planner, intents: &mut Vec<SearchIntent>) {
        let Some(progress) = planner.progress() else {
            return;
        };
        let (expanded, elapsed) = (progress.expanded, progress.elapsed);
        let comparing = planner.compare_progress();
        if let Some(progress) = comparing {
            Self::comparing_ui(ui, progress, elapsed, intents);
            return;
        }
        // A build under way (it says how far it has got), or an algorithm that builds before
        // it searches and has expanded nothing yet.
        let build = planner.build_progress().filter(|&done| done < 1.0);
        let building = build.is_some()
            || (planner.running_algorithm().is_some_and(builds_first) && expanded == 0);
        let mut what = match planner.running_algorithm() {
            Some(algorithm) if building => match build {
                Some(done) => format!(
                    "Building for {}… {:.0}%",
                    algorithm_name(algorithm),
                    done * 100.0
                ),
                None => format!("Building for {}…", algorithm_name(algorithm)),
            },
            _ => "Searching…".to_owned(),
        };
        if planner.is_standing_in() {
            what.push_str(" · A* answers meanwhile");
        }
        ui.horizontal_wrapped(|ui| {
            ui.label(what);
            if ui
                .button("Stop")
                .on_hover_text("Stop the search; the last path stays on screen, marked stale.")
                .clicked()
            {
                intents.push(SearchIntent::Cancel);
            }
        });
        if building {
            let seconds = elapsed.as_secs_f32();
            let text = match build {
                // The time left, at the pace so far, once the build is far enough to tell.
                Some(done) if done >= 0.02 => format!(
                    "building · {:.0}% · {seconds:.1} s · about {} left",
                    done * 100.0,
                    format_seconds(seconds * (1.0 - done) / done)
                ),
                Some(done) => format!("building · {:.0}% · {seconds:.1} s", done * 100.0),
                None => format!("building · {seconds:.1} s"),
            };
            ui.add(ProgressBar::new(build.unwrap_or(0.0)).text(text));
            return;
        }
        ui.add(ProgressBar::new(progress.fraction()).text(progress.text()));
    }

    /// Under the algorithm's choice: how long the contraction hierarchy will take to build on
    /// this map, when that is long enough to notice, so the user knows before choosing it.
    fn long_build_note(ui: &mut Ui, planner: &Planner, algorithm: Algorithm) {
        if algorithm != Algorithm::ContractionHierarchy {
            return;
        }
        let Some(passable) = planner.passable_cells() else {
            return;
        };
        let estimate = ContractionHierarchy::build_estimate(passable as usize).as_secs_f32();
        if estimate >= 2.0 {
            ui.label(
                RichText::new(format!(
                    "Building the hierarchy for this map takes roughly {} (release build), \
                     in the background: A* answers until it is built, and again after each \
                     edit while it is built anew.",
                    format_seconds(estimate)
                ))
                .small()
                .weak(),
            );
        }
    }

    /// The race of "compare all": the algorithms running (one a lane), each with a skip, and
    /// how many are done and still to start.
    fn comparing_ui(
        ui: &mut Ui,
        progress: &CompareProgress,
        elapsed: std::time::Duration,
        intents: &mut Vec<SearchIntent>,
    ) {
        let running = progress.running();
        let (done, total) = progress.done();
        let waiting = progress.waiting();
        let names: Vec<&str> = running.iter().map(|&a| algorithm_name(a)).collect();
        let what = if names.is_empty() {
            "finishing".to_owned()
        } else {
            names.join(", ")
        };
        ui.horizontal_wrapped(|ui| {
            ui.label(format!(
                "Comparing: {what} ({done} of {total} done, {waiting} to start)"
            ));
            if ui
                .button("Stop")
                .on_hover_text("Stop the comparison; the last path stays on screen, marked stale.")
                .clicked()
            {
                intents.push(SearchIntent::Cancel);
            }
        });
        ui.horizontal_wrapped(|ui| {
            for &algorithm in &running {
                if ui
                    .button(format!("Skip {}", algorithm_name(algorithm)))
                    .on_hover_text(
                        "Stop this algorithm and go on with the others; its row says it was skipped.",
                    )
                    .clicked()
                {
                    progress.skip(algorithm);
                }
            }
        });
        ui.add(
            ProgressBar::new(done as f32 / total.max(1) as f32).text(format!(
                "{done} of {total} algorithms · {} cells · {:.1} s",
                progress.expanded(),
                elapsed.as_secs_f32()
            )),
        );
    }

    fn statistics_ui(ui: &mut Ui, planner: &Planner, topology: Topology) {
        if let Some(failure) = planner.failure() {
            let text = match failure {
                Failure::Panicked(_) => format!("Error: {failure}"),
                Failure::Search(_) | Failure::Unit(_) | Failure::Misfit(_) => failure.to_string(),
            };
            ui.colored_label(ui.visuals().warn_fg_color, text);
        }
        let Some(plan) = planner.plan() else {
            if planner.failure().is_none() && !planner.is_busy() {
                ui.label(
                    "Place a start and a goal to see a path: the Start (S) and Goal (G) tools, or right-click the map.",
                );
            }
            return;
        };
        if planner.is_stale() {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                "Stale: this result is from before the latest change.",
            );
        }
        let result = &plan.result;
        let request = &plan.request;
        if !result.found {
            ui.colored_label(ui.visuals().warn_fg_color, result.message());
            if let Some(reason) = &plan.no_path_reason {
                ui.colored_label(ui.visuals().warn_fg_color, reason);
            }
            if planner.drawn().is_some_and(|(_, older)| older) {
                ui.label(
                    RichText::new("The map shows the last path found, faded: it is from before.")
                        .weak(),
                );
            }
        }
        // A long value (an algorithm's full name, why a search stopped, a route) wraps within
        // the panel rather than widening it: the names take at most STAT_NAME_WIDTH.
        let value_width =
            (ui.available_width() - STAT_NAME_WIDTH - ui.spacing().item_spacing.x).max(60.0);
        egui::Grid::new("search-statistics")
            .num_columns(2)
            .striped(true)
            .max_col_width(value_width)
            .show(ui, |ui| {
                let row = |ui: &mut Ui, name: &str, value: String| {
                    ui.label(name);
                    ui.add(egui::Label::new(RichText::new(value).monospace()).wrap());
                    ui.end_row();
                };
                row(
                    ui,
                    "Algorithm",
                    algorithm_name(request.algorithm).to_owned(),
                );
                // The diagonal rule does not apply on hexes: their six neighbours stand there.
                let neighbours = if topology.has_diagonals() {
                    request.diagonal.to_string()
                } else {
                    "6 neighbours".to_owned()
                };
                let settings = if request.algorithm.info().uses_heuristic
                    || request.algorithm.info().guarantee == crate::search::Guarantee::AnyAngle
                {
                    format!("{neighbours}, {}", request.heuristic_on(topology))
                } else {
                    format!("{neighbours}, no heuristic")
                };
                row(ui, "Settings", settings);
                if request.algorithm.info().uses_weight && request.weight != 1.0 {
                    row(ui, "Weight", format!("{:.2}", request.weight));
                }
                if let Some(route) = &plan.route {
                    let stops: Vec<String> = route.order.iter().map(ToString::to_string).collect();
                    row(ui, "Route", stops.join(" → "));
                }
                if let Some(stand_in) = &plan.stand_in {
                    row(
                        ui,
                        "Answered by",
                        format!(
                            "A* (exact) while {} builds",
                            algorithm_name(stand_in.building)
                        ),
                    );
                }
                row(ui, "Query time", format_time(result.stats.time_us));
                if builds_first(request.algorithm) && plan.stand_in.is_none() {
                    row(ui, "Build time", format_time(plan.build_us));
                }
                if result.stats.prepared_bytes > 0 {
                    row(
                        ui,
                        "Memory",
                        format!("{:.1} MB kept", result.stats.prepared_bytes as f64 / 1e6),
                    );
                }
                row(
                    ui,
                    "Expanded",
                    format!("{} ({} pushed)", result.stats.expanded, result.stats.pushed),
                );
                row(ui, "Largest open", result.stats.max_open.to_string());
                if result.has_path() {
                    let steps = result.path.len().saturating_sub(1);
                    if let Some(waypoints) = &result.waypoints {
                        row(ui, "Waypoints", waypoints.len().to_string());
                    }
                    row(
                        ui,
                        "Length",
                        format!("{:.3} ({steps} steps)", result.length),
                    );
                    row(ui, "Cost", format!("{:.3}", result.cost));
                    if let Some(smoothed) = &plan.smoothed {
                        // Length and cost of the smoothed curve, on one row.
                        row(
                            ui,
                            "Curve",
                            format!("{:.3}, cost {:.3}", smoothed.curve_length, smoothed.cost),
                        );
                    } else if plan.unit > 1 {
                        row(
                            ui,
                            "Smoothed",
                            "one-cell units only: a larger unit keeps its grid path".to_owned(),
                        );
                    }
                }
                if let Some(reached) = result.reached {
                    row(ui, "Reached instead", reached.to_string());
                }
                let optimality = match why_no_optimality(result) {
                    Some(why) => format!("– ({why})"),
                    None => optimality_text(result.optimality),
                };
                row(ui, "Optimality", optimality);
                if let Some(optimal) = plan.optimal_cost
                    && result.found
                    && optimal > 0.0
                {
                    let (of_optimal, ratio) = if result.waypoints.is_some() {
                        ("Best grid (A*)", "Cost / grid")
                    } else {
                        ("Optimal (A*)", "Cost / optimal")
                    };
                    row(ui, of_optimal, format!("{optimal:.3}"));
                    row(ui, ratio, format!("{:.4}", result.cost / optimal));
                }
            });
    }

    fn layers_ui(&mut self, ui: &mut Ui, planner: &Planner, intents: &mut Vec<SearchIntent>) {
        ui.label(RichText::new("Layers").strong());
        let layers = &mut self.layers;
        let mut field_toggled = false;
        ui.horizontal_wrapped(|ui| {
            ui.checkbox(&mut layers.explored, "Explored")
                .on_hover_text("Cells the search expanded, shaded by when (or by their cost).");
            ui.checkbox(&mut layers.frontier, "Frontier")
                .on_hover_text("Cells left on the open list when the search stopped.");
            ui.checkbox(&mut layers.path, "Grid path");
            ui.checkbox(&mut layers.smoothed, "Smoothed path")
                .on_hover_text("Line-of-sight shortcuts, then Bezier curves that keep clear of walls.");
            field_toggled = ui
                .checkbox(&mut layers.field, "Flow field")
                .on_hover_text(format!(
                    "One Dijkstra from the goal over the whole map: every cell's cost to the goal as a heat map, and from {ARROWS_FROM:.0} points per cell its next step as an arrow. Following the arrows from any cell gives an optimal path."
                ))
                .changed();
            ui.checkbox(&mut layers.clearance, "Clearance").on_hover_text(
                "Every passable cell's clearance: the side of the largest square of passable cells with the cell at its top-left, so a unit of N × N cells fits where it is N or more. Tight places warm, open ground cool.",
            );
            ui.checkbox(&mut layers.numbers, "g/h/f numbers").on_hover_text(format!(
                "Zoomed in to {NUMBERS_FROM:.0} points per cell or more, explored cells show g (top left), h (top right), f (bottom) and an arrow to their parent."
            ));
        });
        if self.layers.clearance {
            clearance_legend_ui(ui);
        }
        ui.horizontal(|ui| {
            ui.label("Shade by");
            ui.selectable_value(&mut self.shade, Shade::Order, "order")
                .on_hover_text("Early expansions blue, late ones orange.");
            ui.selectable_value(&mut self.shade, Shade::Cost, "cost g")
                .on_hover_text("Cells near the start blue, far ones orange.");
        });
        ui.add(
            egui::Slider::new(&mut self.layers.explored_opacity, 0.0..=1.0)
                .text("Explored opacity"),
        )
        .on_hover_text("How strongly the explored cells and the frontier cover the terrain.");
        ui.add(
            egui::Slider::new(&mut self.layers.field_opacity, 0.0..=1.0).text("Field opacity"),
        )
        .on_hover_text("How strongly the flow field's heat map covers the terrain; while it shows, the explored cells fade.");
        let missing = planner.plan().is_some_and(|p| p.field.is_none());
        if field_toggled && self.layers.field && missing {
            intents.push(SearchIntent::PlanNow);
        }
    }

    fn playback_ui(&mut self, ui: &mut Ui, planner: &Planner) {
        let total = planner
            .plan()
            .and_then(|p| p.exploration.as_ref())
            .map_or(0, Exploration::expanded);
        let unrecorded = planner.plan().is_some_and(|p| p.exploration.is_none());
        let title = if unrecorded {
            "Replay (nothing recorded)"
        } else {
            "Replay"
        };
        // Closed at first, so that the first screen shows the layers and the history too.
        egui::CollapsingHeader::new(title)
            .id_salt("replay")
            .default_open(false)
            .show(ui, |ui| self.replay_ui(ui, planner, total));
    }

    /// The replay's buttons and sliders, or why there is nothing to replay.
    fn replay_ui(&mut self, ui: &mut Ui, planner: &Planner, total: usize) {
        if let Some(plan) = planner.plan()
            && plan.exploration.is_none()
        {
            ui.label(
                RichText::new(format!(
                    "{} records no expansion order: there is nothing to shade or replay.",
                    plan.request.algorithm.info().title
                ))
                .weak(),
            );
        }
        ui.add_enabled_ui(total > 0, |ui| {
            let playback = &mut self.playback;
            ui.horizontal(|ui| {
                let label = if playback.playing { "Pause" } else { "Play" };
                if ui
                    .button(label)
                    .on_hover_text("Replay the search one expansion after another.")
                    .clicked()
                {
                    if !playback.playing && playback.position >= total as f64 {
                        playback.position = 0.0;
                    }
                    playback.playing = !playback.playing;
                }
                if ui
                    .button("Step")
                    .on_hover_text("Show one more expansion.")
                    .clicked()
                {
                    playback.playing = false;
                    playback.position = (playback.position.floor() + 1.0).min(total as f64);
                }
                if ui
                    .button("End")
                    .on_hover_text("Show the whole search.")
                    .clicked()
                {
                    playback.playing = false;
                    playback.position = total as f64;
                }
            });
            let mut step = playback.position.floor() as usize;
            if ui
                .add(egui::Slider::new(&mut step, 0..=total).text("Expansion"))
                .changed()
            {
                playback.position = step as f64;
                playback.playing = false;
            }
            ui.add(
                egui::Slider::new(&mut playback.speed, 1.0..=100_000.0)
                    .logarithmic(true)
                    .text("Speed (cells/s)"),
            );
        });
    }

    /// Draws the explored cells, the frontier, the paths and the inspector's numbers.
    pub fn paint(
        &mut self,
        ctx: &egui::Context,
        painter: &Painter,
        planner: &Planner,
        canvas: &Canvas,
        grid: &Grid,
    ) {
        if self.layers.clearance {
            let tint = opacity(self.layers.field_opacity);
            self.clearance.paint(ctx, painter, canvas, grid, tint);
        }
        let serial = planner.plan_serial();
        let Some(plan) = planner.plan() else {
            return;
        };
        let stale = planner.is_stale();
        if self.layers.field
            && let Some(field) = &plan.field
            && (field.width(), field.height()) == (grid.width(), grid.height())
        {
            if self.field_shown != Some(serial) {
                self.field_shown = Some(serial);
                self.field_texture
                    .set_whole(ctx, (field.width(), field.height()), |part| {
                        field_image(field, part)
                    });
            }
            let visible = canvas.visible_cells(grid);
            self.field_texture
                .refresh(ctx, visible, |part| field_image(field, part));
            canvas.paint_overlay(
                painter,
                &self.field_texture,
                visible,
                opacity(self.layers.field_opacity),
            );
            if canvas.zoom() >= ARROWS_FROM {
                self.paint_field_arrows(painter, field, visible, canvas);
            }
        }
        if let Some(exploration) = &plan.exploration
            && exploration.size() == (grid.width(), grid.height())
            && (self.layers.explored || self.layers.frontier)
        {
            self.sync_overlay(ctx, serial, exploration, canvas.visible_cells(grid));
            let mut alpha = self.layers.explored_opacity;
            if stale {
                alpha *= 0.5;
            }
            if self.layers.field && plan.field.is_some() {
                alpha *= UNDER_THE_FIELD;
            }
            let visible = canvas.visible_cells(grid);
            canvas.paint_overlay(painter, &self.overlay.texture, visible, opacity(alpha));
        }
        // The path of the latest plan, or of the last one that found a path when the latest
        // did not (stale: it is from before).
        let Some((plan, older)) = planner.drawn() else {
            return;
        };
        let result = &plan.result;
        let alpha = if stale || older { 110 } else { 255 };
        if plan.unit > 1 && self.layers.path {
            // The unit's footprint along the path.
            let fill = Color32::from_rgba_unmultiplied(255, 214, 10, alpha / 3);
            for &cell in &result.path {
                canvas.paint_footprint(painter, cell, plan.unit, fill);
            }
            // The unit at its start and its goal, outlined, so the path (through the middle
            // of the unit) is seen to leave from S's footprint and end on G's.
            let width = (canvas.zoom() * 0.08).clamp(1.0, 3.0);
            let ends = [
                (
                    result.path.first(),
                    Color32::from_rgba_unmultiplied(40, 170, 60, alpha),
                ),
                (
                    result.path.last(),
                    Color32::from_rgba_unmultiplied(210, 50, 50, alpha),
                ),
            ];
            for (cell, colour) in ends {
                if let Some(&cell) = cell {
                    canvas.paint_footprint_outline(
                        painter,
                        cell,
                        plan.unit,
                        Stroke::new(width, colour),
                    );
                }
            }
        }
        if self.layers.path && result.path.len() >= 2 {
            // Through the middle of the unit's footprint (the cell's centre for one cell); an
            // any-angle path straight through its waypoints.
            let points: Vec<Pos2> = result
                .vertices()
                .iter()
                .map(|&c| canvas.screen_from_unit_centre(c, plan.unit))
                .collect();
            let width = (canvas.zoom() * 0.2).clamp(1.5, 5.0);
            painter.line(
                points.clone(),
                Stroke::new(width + 2.0, Color32::from_black_alpha(alpha / 2)),
            );
            painter.line(
                points,
                Stroke::new(width, Color32::from_rgba_unmultiplied(255, 214, 10, alpha)),
            );
        }
        if self.layers.smoothed
            && let Some(smoothed) = &plan.smoothed
        {
            let width = (canvas.zoom() * 0.15).clamp(1.5, 4.0);
            let stroke = Stroke::new(width, Color32::from_rgba_unmultiplied(255, 255, 255, alpha));
            let to_screen = |p: crate::smooth::Point| {
                canvas.screen_from_cell(Pos2::new(p.x as f32, p.y as f32))
            };
            for piece in &smoothed.beziers {
                let points = [
                    to_screen(piece.points[0]),
                    to_screen(piece.points[1]),
                    to_screen(piece.points[2]),
                    to_screen(piece.points[3]),
                ];
                painter.add(CubicBezierShape::from_points_stroke(
                    points,
                    false,
                    Color32::TRANSPARENT,
                    stroke,
                ));
            }
        }
        if self.layers.numbers
            && canvas.zoom() >= NUMBERS_FROM
            && let Some(exploration) = &plan.exploration
        {
            self.paint_numbers(painter, exploration, canvas, grid);
        }
    }

    /// An arrow in each visible cell along its next step towards the goal.
    fn paint_field_arrows(
        &self,
        painter: &Painter,
        field: &FlowField,
        visible: Region,
        canvas: &Canvas,
    ) {
        let zoom = canvas.zoom();
        let stroke = Stroke::new(1.2, Color32::from_rgba_unmultiplied(255, 255, 255, 190));
        for y in visible.y0..visible.y1 {
            for x in visible.x0..visible.x1 {
                let Some([dx, dy]) = field.direction(Cell::new(x, y)) else {
                    continue;
                };
                let cell = Cell::new(x, y);
                let (Some(nx), Some(ny)) = (x.checked_add_signed(dx), y.checked_add_signed(dy))
                else {
                    continue;
                };
                // Towards the next cell's centre: along the six directions on hexes.
                let centre = canvas.screen_from_cell_center(cell);
                let next = canvas.screen_from_cell_center(Cell::new(nx, ny));
                let direction = (next - centre).normalized() * zoom * 0.6;
                painter.arrow(centre - direction / 2.0, direction, stroke);
            }
        }
    }

    /// g, h and f in each visible explored cell, and an arrow to its parent.
    fn paint_numbers(
        &self,
        painter: &Painter,
        exploration: &Exploration,
        canvas: &Canvas,
        grid: &Grid,
    ) {
        if exploration.size() != (grid.width(), grid.height()) {
            return;
        }
        let upto = self.shown_expansions(exploration);
        let visible = canvas.visible_cells(grid);
        let zoom = canvas.zoom();
        let font = FontId::monospace((zoom * 0.17).clamp(8.0, 14.0));
        let text = Color32::from_rgb(245, 245, 245);
        let arrow = Stroke::new(1.5, Color32::from_rgba_unmultiplied(255, 255, 255, 160));
        for y in visible.y0..visible.y1 {
            for x in visible.x0..visible.x1 {
                let cell = Cell::new(x, y);
                let Some(seen) = exploration.inspect(cell, upto) else {
                    continue;
                };
                // The box of side 1 around the centre (the square itself on squares).
                let min = canvas.screen_from_cell_center(cell) - Vec2::splat(zoom / 2.0);
                let pad = zoom * 0.06;
                let number = |v: f32| {
                    if v.is_finite() {
                        format!("{v:.1}")
                    } else {
                        "–".to_owned()
                    }
                };
                painter.text(
                    min + Vec2::splat(pad),
                    Align2::LEFT_TOP,
                    number(seen.g),
                    font.clone(),
                    text,
                );
                painter.text(
                    min + Vec2::new(zoom - pad, pad),
                    Align2::RIGHT_TOP,
                    number(seen.h),
                    font.clone(),
                    text,
                );
                painter.text(
                    min + Vec2::new(zoom / 2.0, zoom - pad),
                    Align2::CENTER_BOTTOM,
                    number(seen.f()),
                    font.clone(),
                    text,
                );
                if seen.parent != cell {
                    let from = canvas.screen_from_cell_center(cell);
                    let to = canvas.screen_from_cell_center(seen.parent);
                    let direction = (to - from).normalized();
                    painter.arrow(from, direction * zoom * 0.3, arrow);
                }
            }
        }
    }

    /// One line on the explored cell under the pointer, for the status bar.
    pub fn inspector_text(&self, planner: &Planner, hovered: Option<Cell>) -> Option<String> {
        let cell = hovered?;
        // With the Clearance layer on, the value under the cursor.
        let clearance = self
            .layers
            .clearance
            .then(|| self.clearance.value(cell))
            .flatten()
            .map(|c| match c {
                0 => "clearance 0 (impassable)".to_owned(),
                c => format!("clearance {c} (a unit of up to {c} × {c} fits)"),
            });
        let expanded = planner
            .plan()
            .and_then(|plan| plan.exploration.as_ref())
            .and_then(|exploration| exploration.inspect(cell, self.shown_expansions(exploration)))
            .map(|seen| {
                format!(
                    "expanded #{} · g {:.2} · h {:.2} · f {:.2} · parent {}",
                    seen.step + 1,
                    seen.g,
                    seen.h,
                    seen.f(),
                    seen.parent
                )
            });
        match (clearance, expanded) {
            (Some(c), Some(e)) => Some(format!("{c} · {e}")),
            (c, e) => c.or(e),
        }
    }
}

/// The Clearance layer's legend: its colours from tight (1) to open, and where its values are
/// read.
fn clearance_legend_ui(ui: &mut Ui) {
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 2.0;
        ui.label(RichText::new("Clearance: 1").small());
        for c in 1..=clearance_layer::OPEN {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(6.0, 10.0), egui::Sense::hover());
            ui.painter()
                .rect_filled(rect, 0.0, clearance_layer::colour(c));
        }
        ui.label(
            RichText::new(format!(
                "{}+ · under the cursor in the status bar",
                clearance_layer::OPEN
            ))
            .small(),
        );
    });
}

/// The widest a name in the statistics table is (the longest, "Cost / optimal", fits).
const STAT_NAME_WIDTH: f32 = 100.0;

/// The tint that draws a texture at an opacity from 0 to 1.
fn opacity(alpha: f32) -> Color32 {
    Color32::from_white_alpha((alpha.clamp(0.0, 1.0) * 255.0).round() as u8)
}

/// The flow field's heat map of a region: cost to the goal from blue (near) to orange (far).
fn field_image(field: &FlowField, region: Region) -> egui::ColorImage {
    let max = field.max_cost().max(f64::MIN_POSITIVE);
    let mut pixels = Vec::with_capacity((region.width() * region.height()) as usize);
    for y in region.y0..region.y1 {
        for x in region.x0..region.x1 {
            pixels.push(
                field
                    .cost(Cell::new(x, y))
                    .filter(|c| c.is_finite())
                    .map_or(Color32::TRANSPARENT, |c| ramp((c / max) as f32)),
            );
        }
    }
    egui::ColorImage::new([region.width() as usize, region.height() as usize], pixels)
}

/// One number of a result, as a chart shows it.
/// A duration of `seconds` as people say it: "40 s", "3 min".
fn format_seconds(seconds: f32) -> String {
    if seconds < 90.0 {
        format!("{:.0} s", seconds.max(1.0))
    } else {
        format!("{:.0} min", seconds / 60.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_replay_advances_at_its_speed_and_stops_at_the_end() {
        let mut view = SearchView {
            playback: Playback {
                position: 0.0,
                playing: true,
                speed: 100.0,
            },
            ..SearchView::default()
        };
        assert!(view.advance(0.05, 20));
        assert!((view.playback.position - 5.0).abs() < 1e-9);
        assert!(!view.advance(1.0, 20));
        assert_eq!(view.playback.position, 20.0);
    }
}
