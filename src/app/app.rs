//! The editor window: the open document, its history, the tools and the panels around the
//! canvas.

use std::path::{Path, PathBuf};
use std::time::Duration;

use egui::{Pos2, ViewportCommand};

use crate::format::level::LevelOptions;
use crate::format::{FormatError, PathExport};
use crate::grid::{Cell, Grid, GridError, Map, TerrainId, Topology};
use crate::search::SearchResult;

use super::agents::Agents;
use super::agents::actions::AgentsReply;
use super::agents::paint::paint_agents;
use super::agents::panel::{AgentsIntent, section_ui};
use super::canvas::canvas::{Canvas, paint_hint};
use super::canvas::gesture::Marker;
use super::canvas::input::{CanvasInput, CanvasIntent};
use super::canvas::tools::{Tool, ToolSettings, brush_step};
use super::commands::{self, Command};
use super::dialog::{Answer, Dialog, Pending};
use super::document::{DEFAULT_MAP_PATH, Document, markers_note};
use super::edit::{Edit, Redraw};
use super::files::actions::{self, FileAsk, FileIntent, Files};
use super::files::import_dialog::{ImportDialog, ImportSummary};
use super::files::level_dialog::LevelDialog;
use super::files::picker::{FileDialogs, FileTask};
use super::files::preferences::Preferences;
use super::history::History;
use super::menus::{self, MenuAction, MenuState, StatusLine};
use super::palette::{Palette, PaletteAction, new_terrain};
use super::relief_panel::{ReliefAction, relief_ui};
use super::report::Report;
use super::resize::Anchor;
use super::search::compare_window;
use super::search::panel::SearchSettings;
use super::search::planner::{Comparison, Failure, Planner, Solver};
use super::search::view::{SearchIntent, SearchView};
use crate::search::RouteOrder;

/// A message in the status bar.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Notice {
    pub text: String,
    pub error: bool,
}

/// The map editor.
pub struct EditorApp {
    pub(super) document: Document,
    pub(super) history: History,
    pub(super) canvas: Canvas,
    pub(super) palette: Palette,
    pub(super) planner: Planner,
    pub(super) settings: SearchSettings,
    pub(super) view: SearchView,
    /// The team of units and its plan (the Agents panel).
    pub(super) agents: Agents,
    /// The tool in hand, the brush and the terrain it paints.
    pub(super) tools: ToolSettings,
    pub(super) grid_lines: bool,
    /// The pointer's work on the canvas.
    pub(super) input: CanvasInput,
    pub(super) dialog: Option<Dialog>,
    pub(super) notice: Option<Notice>,
    /// The files: preferences, the recovery file, the import, level and file dialogs.
    pub(super) files: Files,
    /// Whether the keyboard shortcuts window is open.
    shortcuts_open: bool,
    shown_title: String,
    may_close: bool,
    /// The history's state when the map was last loaded or saved, so that undoing back to it
    /// leaves no unsaved changes; `None` once something the history does not hold (a marker,
    /// a waypoint) changed since.
    saved_state: Option<u64>,
}

impl EditorApp {
    /// The editor on a map file, or on the built-in level when `path` is `None`. A file that
    /// fails to load is reported in a dialog over the built-in level; the error is only for a
    /// built-in level that does not parse, which the tests rule out.
    pub fn new(path: Option<&Path>) -> Result<Self, FormatError> {
        let level = Document::default_level()?;
        let Some(path) = path else {
            let mut app = Self::with_document(level);
            app.say(
                format!("Opened the built-in level ({DEFAULT_MAP_PATH})."),
                false,
            );
            return Ok(app);
        };
        Ok(match Document::open(path) {
            Ok(mut document) => {
                let placed = document.map.place_default_markers();
                let mut app = Self::with_document(document);
                app.files.preferences.remember(path);
                let note = markers_note(placed, &app.document.map.grid);
                app.say(format!("Opened {}.{note}", path.display()), false);
                app
            }
            Err(error) => {
                let mut app = Self::with_document(level);
                app.dialog = Some(Dialog::Message {
                    title: "Could not open the map".to_owned(),
                    text: error.to_string(),
                });
                app
            }
        })
    }

    /// The editor on a map held in memory (no file yet).
    pub fn with_map(map: Map) -> Self {
        Self::with_document(Document::new(map))
    }

    fn with_document(document: Document) -> Self {
        let mut app = Self {
            document,
            history: History::default(),
            canvas: Canvas::new(),
            palette: Palette::new(),
            planner: Planner::new(),
            settings: SearchSettings::default(),
            view: SearchView::default(),
            agents: Agents::default(),
            tools: ToolSettings::default(),
            grid_lines: true,
            input: CanvasInput::default(),
            dialog: None,
            notice: None,
            files: Files::default(),
            shortcuts_open: false,
            shown_title: String::new(),
            may_close: false,
            saved_state: None,
        };
        app.saved_state = (!app.document.dirty).then(|| app.history.state());
        app.tools.active = app.first_passable_other_than_base();
        app.replan();
        app
    }

    /// The open map.
    pub fn map(&self) -> &Map {
        &self.document.map
    }

    /// Whether the map has unsaved changes.
    pub fn is_dirty(&self) -> bool {
        self.document.dirty
    }

    /// The window title: the map's name, with `*` while it has unsaved changes.
    pub fn title(&self) -> String {
        self.document.title()
    }

    /// The terrain the tools paint with.
    pub fn active_terrain(&self) -> TerrainId {
        self.tools.active
    }

    /// The chosen tool.
    pub fn tool(&self) -> Tool {
        self.tools.tool
    }

    /// Whether the team is being worked on (the Agents tool chosen or units placed): the
    /// canvas then shows the team alone, without the single path's markers, search shading,
    /// path and inspector, which would cover the units.
    pub fn team_shown(&self) -> bool {
        self.tools.tool == Tool::Agents || !self.agents.team.is_empty()
    }

    /// The brush size in cells.
    pub fn brush_size(&self) -> u32 {
        self.tools.brush_size
    }

    /// The number of steps that can be undone.
    pub fn undo_steps(&self) -> usize {
        self.history.undo_steps()
    }

    /// The colour the canvas draws for a cell at the current zoom (zoomed out, that of the
    /// most significant terrain of the cells sharing its screen pixel).
    pub fn shown_colour(&self, cell: Cell, pixels_per_point: f32) -> egui::Color32 {
        self.canvas
            .shown_colour(&self.document.map.grid, cell, pixels_per_point)
    }

    /// The latest search result, when the markers allowed a search.
    pub fn search_result(&self) -> Option<&SearchResult> {
        self.planner.result()
    }

    /// The path the canvas draws, and whether it is an older one kept because the latest
    /// search found none.
    pub fn drawn_path(&self) -> Option<(&[Cell], bool)> {
        self.planner
            .drawn()
            .map(|(plan, older)| (plan.result.path.as_slice(), older))
    }

    /// The points the canvas joins with straight lines to draw the path: an any-angle path's
    /// waypoints, or every cell of a grid path.
    pub fn drawn_vertices(&self) -> Option<&[Cell]> {
        self.planner.drawn().map(|(plan, _)| plan.result.vertices())
    }

    /// The charts of the latest "compare all", as the comparison window draws them.
    pub fn comparison_charts(&self) -> Option<[compare_window::Chart; 3]> {
        self.planner
            .comparison()
            .map(compare_window::compare_charts)
    }

    /// The points the latest plan's route visits, in order, when it went through waypoints.
    pub fn route_order(&self) -> Option<&[Cell]> {
        self.planner
            .plan()
            .and_then(|p| p.route.as_ref())
            .map(|r| r.order.as_slice())
    }

    /// The numbers on the waypoints' markers, in the map's order of waypoints: each one's
    /// place in the route as planned.
    pub fn waypoint_labels(&self) -> Vec<String> {
        super::canvas::input::waypoint_labels(&self.document.map, self.route_order())
    }

    /// The clearance the heat layer shows at a cell, once it has been drawn.
    pub fn shown_clearance(&self, cell: Cell) -> Option<u32> {
        self.view.shown_clearance(cell)
    }

    /// Where the minimap shows on screen, while part of the map is out of view.
    pub fn minimap_rect(&self) -> Option<egui::Rect> {
        self.canvas.minimap_rect(&self.document.map.grid)
    }

    /// The ruler's last measurement.
    pub fn measurement(&self) -> Option<&super::canvas::input::Measurement> {
        self.input.measurement()
    }

    /// Puts a map in place of the open one, as opening a file does, without asking about
    /// unsaved changes (for tests and scripts); the search settings stay.
    pub fn open_map(&mut self, map: Map) {
        self.replace_document(Document::new(map));
    }

    /// The rows of the search history.
    pub fn history_rows(&self) -> usize {
        self.view.history.rows.len()
    }

    /// What the latest search result was searched for.
    pub fn search_request(&self) -> Option<&crate::search::SearchRequest> {
        self.planner.request()
    }

    /// Why the latest search gave no result, if it failed.
    pub fn search_failure(&self) -> Option<&Failure> {
        self.planner.failure()
    }

    /// Whether a search (or a comparison) is running in the background.
    pub fn is_searching(&self) -> bool {
        self.planner.is_busy()
    }

    /// Whether the result on screen is older than the latest change.
    pub fn search_is_stale(&self) -> bool {
        self.planner.is_stale()
    }

    /// The latest "compare all" rows.
    pub fn comparison(&self) -> Option<&[Comparison]> {
        self.planner.comparison()
    }

    /// Waits for the background search to answer (at most `timeout`) and takes the answer.
    /// The editor never calls this; tests and scripts do, to check a result without racing
    /// the worker.
    pub fn wait_for_search(&mut self, timeout: std::time::Duration) -> bool {
        self.planner.wait(timeout)
    }

    /// Runs the searches through another solver (tests make searches slow or fail with it).
    pub fn set_solver(&mut self, solver: Solver) {
        self.planner.set_solver(solver);
        self.replan_now();
    }

    /// Sets how many algorithms "compare all" runs at once (by default one a core).
    pub fn set_compare_lanes(&mut self, lanes: usize) {
        self.planner.set_compare_lanes(lanes);
    }

    /// The flow field to the goal, when its layer is on and the search has run.
    pub fn flow_field(&self) -> Option<&crate::search::FlowField> {
        self.planner.plan().and_then(|p| p.field.as_ref())
    }

    /// Whether live planning is on.
    pub fn is_live(&self) -> bool {
        self.view.live
    }

    /// The current zoom, in screen points per cell.
    pub fn zoom(&self) -> f32 {
        self.canvas.zoom()
    }

    /// Sets the zoom around the centre of the view.
    pub fn set_zoom(&mut self, zoom: f32) {
        let centre = self.canvas.rect().center();
        self.canvas.zoom_to(zoom, centre);
    }

    /// Fits the whole map into the view.
    pub fn fit_map(&mut self) {
        self.canvas.fit(&self.document.map.grid);
    }

    /// The screen position of a cell's centre in the last frame's layout.
    pub fn screen_from_cell(&self, cell: Cell) -> Pos2 {
        self.canvas.screen_from_cell_center(cell)
    }

    /// The message shown in the status bar, if any.
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_ref().map(|n| n.text.as_str())
    }

    /// Whether a dialog is open.
    pub fn has_dialog(&self) -> bool {
        self.dialog.is_some()
    }

    /// Opens a map file; on failure the current map stays and the error is shown.
    pub fn open_path(&mut self, path: &Path) {
        match Document::open(path) {
            Ok(document) => {
                let placed = self.replace_document(document);
                self.files.preferences.remember(path);
                let note = markers_note(placed, &self.document.map.grid);
                self.say(format!("Opened {}.{note}", path.display()), false);
            }
            Err(error) => {
                self.dialog = Some(Dialog::Message {
                    title: "Could not open the map".to_owned(),
                    text: error.to_string(),
                });
            }
        }
    }

    /// Saves the map as JSON to a file; returns whether it worked (the error is shown).
    pub fn save_to(&mut self, path: &Path) -> bool {
        match self.document.save_as(path) {
            Ok(()) => {
                self.saved_state = Some(self.history.state());
                self.files.preferences.remember(path);
                self.say(format!("Saved {}.", path.display()), false);
                true
            }
            Err(error) => {
                self.dialog = Some(Dialog::Message {
                    title: "Could not save the map".to_owned(),
                    text: error.to_string(),
                });
                false
            }
        }
    }

    pub(super) fn say(&mut self, text: String, error: bool) {
        self.notice = Some(Notice { text, error });
    }

    /// Puts a document in place of the open one. A map without a start or goal gets the
    /// default ones ([`Map::place_default_markers`]), where the Path panel's unit fits;
    /// returns whether it did, so the caller can say so.
    pub(super) fn replace_document(&mut self, document: Document) -> bool {
        self.document = document;
        self.planner.map_replaced();
        self.agents.map_replaced();
        // Where the unit chosen in the Path panel fits.
        let unit = self.settings.unit_size;
        let map = &mut self.document.map;
        let placed = crate::search::place_markers_for_unit(map, unit)
            .unwrap_or_else(|_| map.place_default_markers());
        self.history.clear();
        self.saved_state = (!self.document.dirty).then(|| self.history.state());
        self.input.reset();
        self.canvas.redraw(Redraw::All);
        self.canvas.request_fit();
        self.tools.active = self.first_passable_other_than_base();
        self.replan();
        placed
    }

    fn first_passable_other_than_base(&self) -> TerrainId {
        let terrains = self.document.map.grid.terrains();
        terrains
            .iter()
            .enumerate()
            .skip(1)
            .find(|(_, t)| t.is_passable())
            .map_or(0, |(i, _)| i as TerrainId)
    }

    /// Plans again after a change, in live mode; else marks the path on screen as stale.
    pub(super) fn replan(&mut self) {
        if self.view.live {
            self.replan_now();
        } else {
            self.planner.mark_stale();
        }
    }

    /// Starts the search between the markers in the background, or clears the path when a
    /// marker is missing.
    pub(super) fn replan_now(&mut self) {
        let map = &self.document.map;
        match (map.start, map.goal) {
            (Some(start), Some(goal)) => {
                let request = self.settings.request(start, goal).recording(true);
                self.planner.set_unit_size(self.settings.unit_size);
                let order = if self.settings.best_order {
                    RouteOrder::Cheapest
                } else {
                    RouteOrder::AsGiven
                };
                self.planner
                    .set_route(map.waypoints.clone(), order, self.settings.patrol);
                self.planner.submit(
                    &map.grid,
                    request,
                    self.view.smoothing,
                    self.view.layers.field,
                );
            }
            _ => self.planner.clear(),
        }
    }

    /// The canvas: the map, the search over it, and the pointer's work on it.
    fn canvas_ui(&mut self, ui: &mut egui::Ui) {
        let accepts_input = self.dialog.is_none() && !self.files.has_dialog();
        let order = self
            .planner
            .plan()
            .and_then(|p| p.route.as_ref())
            .map(|r| r.order.as_slice());
        let (painter, intents) = self.input.ui(
            ui,
            &mut self.canvas,
            &mut self.document.map,
            &self.tools,
            accepts_input,
            order,
        );
        let grid = &self.document.map.grid;
        self.canvas.sync_texture(ui.ctx(), grid);
        self.canvas.paint(&painter, grid, self.grid_lines);
        // With a team, the single path's layers would hide units under them: the team alone.
        let team = self.team_shown();
        if !team {
            self.view
                .paint(ui.ctx(), &painter, &self.planner, &self.canvas, grid);
        }
        paint_agents(&painter, &self.canvas, &self.agents);
        self.input.paint_over(
            &painter,
            &self.canvas,
            &self.document.map,
            &self.tools,
            self.route_order(),
            !team,
        );
        self.canvas.paint_minimap(&painter, &self.document.map.grid);
        // The first hint speaks of S and G, which the team's view does not show.
        if !team && !self.document.dirty && !self.history.can_undo() && !self.history.can_redo() {
            paint_hint(&painter, self.canvas.rect());
        }
        for intent in intents {
            self.canvas_intent(intent);
        }
        self.view
            .set_dragging(self.input.is_dragging_marker(), self.planner.is_busy());
    }

    /// Carries out what the canvas asked for.
    fn canvas_intent(&mut self, intent: CanvasIntent) {
        match intent {
            CanvasIntent::Edit(edit) => self.apply_shape(edit),
            CanvasIntent::SetMarker(marker, cell) => {
                self.set_marker(marker, cell);
            }
            CanvasIntent::MoveMarker(marker, cell) => self.place_marker(marker, cell),
            CanvasIntent::AddWaypoint(cell) => {
                let grid = &self.document.map.grid;
                if grid.is_passable(cell) {
                    self.change_waypoints(|w| {
                        w.push(cell);
                        format!("Waypoint {} is on {cell}.", w.len())
                    });
                } else {
                    self.say(
                        format!("A waypoint cannot go on {cell}: it is impassable."),
                        true,
                    );
                }
            }
            CanvasIntent::RemoveWaypoint(i) => self.change_waypoints(|w| {
                if i < w.len() {
                    w.remove(i);
                }
                format!("Waypoint {} removed.", i + 1)
            }),
            CanvasIntent::ClearWaypoints => self.change_waypoints(|w| {
                w.clear();
                "Waypoints cleared.".to_owned()
            }),
            CanvasIntent::Measured(from, to) => self.measure(from, to),
            CanvasIntent::AddAgent(start, goal) => {
                let report = self.agents.add_unit(&self.document.map.grid, start, goal);
                self.report(report);
            }
            CanvasIntent::PickAgent(cell) => {
                let report = self.agents.pick(cell);
                self.report(report);
            }
            CanvasIntent::Pick(id) => {
                let name = self.document.map.grid.terrain(id).name.clone();
                self.tools.active = id;
                self.say(format!("Picked {name}."), false);
            }
        }
    }

    /// Finds the cheapest path between the ruler's ends with the search settings of the Path
    /// panel, and says what the ruler measured. One search, run here: a measurement is a
    /// single click's work.
    fn measure(&mut self, from: Cell, to: Cell) {
        let map = &self.document.map;
        let request = self.settings.request(from, to);
        let path = match crate::search::solve(&map.grid, &request) {
            Ok(result) if result.found => format!(
                "Path ({}): {}, cost {:.2}",
                request.algorithm.info().title,
                super::canvas::input::length_text(map.grid.topology(), result.length),
                result.cost
            ),
            Ok(result) => result.message(),
            Err(error) => format!("No path: {error}"),
        };
        let straight = self
            .input
            .measurement()
            .map(|m| m.straight_text(map))
            .unwrap_or_default();
        self.input.set_measured_path(path.clone());
        self.say(format!("{straight} · {path}"), false);
    }

    /// Redraws the cells of an edit that was just made and records it.
    fn apply_shape(&mut self, edit: Edit) {
        if let Edit::Cells(changes) = &edit {
            let mut region = super::region::Region::EMPTY;
            for change in changes {
                region.include(self.document.map.grid.cell_at(change.index as usize));
            }
            self.canvas.redraw(Redraw::Cells(region));
        }
        self.commit(edit);
    }

    /// Puts a marker on a cell the user chose; a cell that is off the map or impassable is
    /// refused with a message. Returns whether the marker is there.
    pub(super) fn set_marker(&mut self, marker: Marker, cell: Cell) -> bool {
        let grid = &self.document.map.grid;
        let what = match marker {
            Marker::Start => "start".to_owned(),
            Marker::Goal => "goal".to_owned(),
            Marker::Waypoint(i) => format!("waypoint {}", i + 1),
        };
        match grid.get(cell) {
            Some(id) if !grid.terrain(id).is_passable() => {
                let text = format!(
                    "The {what} cannot go on {cell}: {} is impassable.",
                    grid.terrain(id).name
                );
                self.say(text, true);
                false
            }
            Some(_) => {
                self.place_marker(marker, cell);
                self.say(format!("The {what} is on {cell}."), false);
                true
            }
            None => false,
        }
    }

    /// Notes a change the history does not hold: the map stays unsaved until the next save,
    /// whatever is undone.
    fn changed_outside_history(&mut self) {
        self.document.dirty = true;
        self.saved_state = None;
    }

    /// Moves a marker to a cell, and plans again when it moved.
    fn place_marker(&mut self, marker: Marker, cell: Cell) {
        let map = &mut self.document.map;
        let slot = match marker {
            Marker::Start => &mut map.start,
            Marker::Goal => &mut map.goal,
            Marker::Waypoint(i) => match map.waypoints.get_mut(i) {
                Some(waypoint) => {
                    if *waypoint != cell {
                        *waypoint = cell;
                        self.changed_outside_history();
                        self.replan();
                    }
                    return;
                }
                None => return,
            },
        };
        if *slot != Some(cell) {
            *slot = Some(cell);
            self.changed_outside_history();
            self.replan();
        }
    }

    /// Adds a waypoint on a passable cell (after the others), removes one, or all.
    fn change_waypoints(&mut self, change: impl FnOnce(&mut Vec<Cell>) -> String) {
        let text = change(&mut self.document.map.waypoints);
        self.changed_outside_history();
        self.say(text, false);
        self.replan();
    }

    /// Carries out what the search panel asked for.
    fn search_intent(&mut self, intent: SearchIntent) {
        match intent {
            SearchIntent::Replan => self.replan(),
            SearchIntent::PlanNow => self.replan_now(),
            SearchIntent::CompareAll => self.compare_all(),
            SearchIntent::Cancel => self.planner.cancel(),
        }
    }

    /// Runs every algorithm between the markers in the background and opens the comparison.
    pub fn compare_all(&mut self) {
        let map = &self.document.map;
        match (map.start, map.goal) {
            (Some(start), Some(goal)) => {
                let request = self.settings.request(start, goal);
                self.planner
                    .compare(&map.grid, request, self.view.smoothing);
                self.view.compare_open = true;
            }
            _ => self.say("Place a start and a goal first.".to_owned(), true),
        }
    }

    /// Records an edit that was just made on the map.
    pub(super) fn commit(&mut self, edit: Edit) {
        self.planner.edited(&edit, true, &self.document.map.grid);
        self.agents.map_edited(&self.document.map.grid);
        self.history.record(edit);
        self.document.dirty = true;
        self.replan();
    }

    pub(super) fn undo(&mut self) {
        let outcome = self.history.undo(&mut self.document.map);
        self.after_history(outcome, false);
    }

    pub(super) fn redo(&mut self) {
        let outcome = self.history.redo(&mut self.document.map);
        self.after_history(outcome, true);
    }

    /// Shows and plans on the map after an undo (`forward` false) or a redo.
    fn after_history(&mut self, outcome: Option<Result<Redraw, GridError>>, forward: bool) {
        let edit = if forward {
            self.history.latest_done()
        } else {
            self.history.latest_undone()
        };
        match (edit, &outcome) {
            (Some(edit), Some(Ok(_))) => {
                self.planner.edited(edit, forward, &self.document.map.grid);
            }
            _ => self.planner.map_replaced(),
        }
        if matches!(outcome, Some(Ok(_))) {
            self.agents.map_edited(&self.document.map.grid);
        }
        match outcome {
            None if forward => self.say("Nothing to redo.".to_owned(), false),
            None => self.say("Nothing to undo.".to_owned(), false),
            Some(Ok(redraw)) => {
                self.canvas.redraw(redraw);
                // Back at the state saved, nothing is unsaved.
                self.document.dirty = self.saved_state != Some(self.history.state());
                let count = self.document.map.grid.terrains().len();
                if usize::from(self.tools.active) >= count {
                    self.tools.active = (count - 1) as TerrainId;
                }
                self.replan();
            }
            Some(Err(error)) => self.say(format!("Undo failed: {error}"), true),
        }
    }

    /// Changes the terrain catalog through `change` and records it as one step.
    fn change_catalog(&mut self, change: impl FnOnce(&mut Grid) -> Result<(), GridError>) -> bool {
        let before = self.document.map.grid.clone();
        match change(&mut self.document.map.grid) {
            Ok(()) => {
                let edit = Edit::catalog_change(&before, &self.document.map.grid);
                self.planner.map_replaced();
                self.agents.map_edited(&self.document.map.grid);
                self.history.record_or_merge(edit);
                self.document.dirty = true;
                self.canvas.redraw(Redraw::All);
                self.replan();
                true
            }
            Err(error) => {
                self.say(error.to_string(), true);
                false
            }
        }
    }

    pub(super) fn palette_action(&mut self, action: PaletteAction) {
        match action {
            PaletteAction::Select(id) => self.tools.active = id,
            PaletteAction::Update(id, terrain) => {
                self.change_catalog(|grid| grid.set_terrain(id, terrain).map(|_| ()));
            }
            PaletteAction::Add => {
                let terrain = new_terrain(&self.document.map.grid);
                let mut added = 0;
                if self.change_catalog(|grid| grid.add_terrain(terrain).map(|id| added = id)) {
                    self.tools.active = added;
                }
            }
            PaletteAction::Remove(id) => {
                if self.document.map.grid.cells().contains(&id) {
                    let replacement = if id == 0 { 1 } else { 0 };
                    self.dialog = Some(Dialog::Replace { id, replacement });
                } else {
                    self.remove_terrain(id, None);
                }
            }
            PaletteAction::Refuse(text) => self.say(text, true),
        }
    }

    /// Replaces the map's heights (keeping its slope rules): one undoable step.
    pub(super) fn set_heights(&mut self, heights: Vec<f32>) {
        self.commit_relief(Edit::heights(&self.document.map.grid, Some(heights)));
    }

    /// Adds or removes the map's heights or changes its slope rules: one undoable step
    /// (dragging a slope field is one step from its first value to its last).
    pub(super) fn relief_action(&mut self, action: ReliefAction) {
        let grid = &self.document.map.grid;
        let edit = match action {
            ReliefAction::SetSlope(slope) => Edit::Slope {
                before: grid.slope(),
                after: slope,
            },
            ReliefAction::AddHeights => Edit::heights(grid, Some(vec![0.0; grid.len()])),
            ReliefAction::RemoveHeights => Edit::heights(grid, None),
        };
        self.commit_relief(edit);
    }

    /// Makes a relief or slope edit and records it.
    fn commit_relief(&mut self, edit: Edit) {
        match edit.redo(&mut self.document.map) {
            Ok(redraw) => {
                self.canvas.redraw(redraw);
                self.planner.edited(&edit, true, &self.document.map.grid);
                self.history.record_or_merge(edit);
                self.document.dirty = true;
                self.replan();
            }
            Err(error) => self.say(error.to_string(), true),
        }
    }

    fn remove_terrain(&mut self, id: TerrainId, replacement: Option<TerrainId>) {
        if self.change_catalog(|grid| grid.remove_terrain(id, replacement).map(|_| ())) {
            let shift = |t: TerrainId| if t > id { t - 1 } else { t };
            self.tools.active = if self.tools.active == id {
                replacement.map_or(0, shift)
            } else {
                shift(self.tools.active)
            };
            self.say("Terrain deleted.".to_owned(), false);
        }
    }

    /// Resizes the map, keeping `anchor` in place; one undoable step.
    pub fn resize_map(&mut self, width: u32, height: u32, anchor: Anchor) {
        let edit = match Edit::resize(&self.document.map, width, height, anchor) {
            Ok(edit) => edit,
            Err(error) => return self.say(error.to_string(), true),
        };
        match edit.redo(&mut self.document.map) {
            Ok(redraw) => {
                self.canvas.redraw(redraw);
                self.canvas.request_fit();
                self.commit(edit);
                self.say(format!("Resized to {width} × {height} cells."), false);
            }
            Err(error) => self.say(error.to_string(), true),
        }
    }

    /// Replaces the document with a new map of the current catalog, of square cells or hexes.
    pub fn new_map(&mut self, width: u32, height: u32, base: TerrainId, topology: Topology) {
        let terrains = self.document.map.grid.terrains().to_vec();
        match Grid::new(width, height, terrains, base) {
            Ok(grid) => {
                let grid = grid.with_topology(topology);
                let mut map = Map::new("untitled", grid);
                if map.grid.terrain(base).is_passable() {
                    map.start = Some(Cell::new(width / 4, height / 2));
                    map.goal = Some(Cell::new(width - 1 - width / 4, height / 2));
                }
                self.replace_document(Document::new(map));
                let shape = match topology.explicit_name() {
                    None => topology.cells_name().to_owned(),
                    Some(name) => format!("{} ({name})", topology.cells_name()),
                };
                self.say(format!("New map of {width} × {height} {shape}."), false);
            }
            Err(error) => self.say(error.to_string(), true),
        }
    }

    /// Asks before `pending` when there are unsaved changes, else does it.
    pub(super) fn guard(&mut self, ctx: &egui::Context, pending: Pending) {
        if self.document.dirty {
            self.dialog = Some(Dialog::Unsaved(pending));
        } else {
            self.proceed(ctx, pending);
        }
    }

    pub(super) fn proceed(&mut self, ctx: &egui::Context, pending: Pending) {
        match pending {
            Pending::NewMap => {
                let grid = &self.document.map.grid;
                self.dialog = Some(Dialog::NewMap {
                    width: grid.width(),
                    height: grid.height(),
                    base: 0,
                    topology: grid.topology(),
                });
            }
            Pending::Replace(replacement) => self.replace_with(*replacement),
            Pending::Quit => {
                self.may_close = true;
                ctx.send_viewport_cmd(ViewportCommand::Close);
            }
        }
    }

    /// Saves to the document's file, or asks for one; `then` goes on once the map is saved.
    pub(super) fn save_then(&mut self, ctx: &egui::Context, then: Option<Pending>) {
        match self.document.path.clone() {
            Some(path) if is_json(&path) => {
                if self.save_to(&path)
                    && let Some(pending) = then
                {
                    self.proceed(ctx, pending);
                }
            }
            _ => self.ask_for_file(actions::save_as_dialog(self.document.name(), then)),
        }
    }

    fn answer(&mut self, ctx: &egui::Context, answer: Answer) {
        match answer {
            Answer::Cancel => {}
            Answer::NewMap {
                width,
                height,
                base,
                topology,
            } => self.new_map(width, height, base, topology),
            Answer::Resize {
                width,
                height,
                anchor,
            } => self.resize_map(width, height, anchor),
            Answer::Save(pending) => self.save_then(ctx, Some(pending)),
            Answer::Discard(pending) => {
                self.document.dirty = false;
                self.proceed(ctx, pending);
            }
            Answer::Replace { id, replacement } => self.remove_terrain(id, Some(replacement)),
            Answer::Restore => {
                if let Some(intent) = self.files.restore_recovery() {
                    self.file_intent(ctx, intent);
                }
            }
            Answer::DropRecovery => {
                let report = self.files.drop_recovery();
                self.report(report);
            }
        }
    }

    pub(super) fn select_tool(&mut self, tool: Tool) {
        self.tools.tool = tool;
    }

    /// The next brush size up (`delta` 1) or down (-1) in the steps 1, 2, 3, 4, 6, 8, 12, 16,
    /// 24, 32, 48, 64: each step changes the brush by a similar share.
    pub(super) fn change_brush(&mut self, delta: i32) {
        self.tools.brush_size = brush_step(self.tools.brush_size, delta);
    }

    /// The keys of the table in [`commands`](super::commands), while no dialog is open.
    fn shortcuts(&mut self, ctx: &egui::Context) {
        if self.dialog.is_some() || self.files.has_dialog() {
            return;
        }
        let typing = ctx.egui_wants_keyboard_input();
        for command in commands::pressed(ctx, typing, self.input.is_idle()) {
            self.execute(ctx, command);
        }
    }

    /// Carries out a command of a menu, the toolbar or the keyboard.
    pub(super) fn execute(&mut self, ctx: &egui::Context, command: Command) {
        match command {
            Command::Undo => self.undo(),
            Command::Redo => self.redo(),
            Command::New => self.guard(ctx, Pending::NewMap),
            Command::Open => self.ask_for_file(actions::open_dialog()),
            Command::Save => self.save_then(ctx, None),
            Command::SaveAs => {
                self.ask_for_file(actions::save_as_dialog(self.document.name(), None));
            }
            Command::ImportImage => self.ask_for_file(actions::import_image_dialog()),
            Command::ImportMovingAi => self.ask_for_file(actions::import_movingai_dialog()),
            Command::ImportHeights => self.ask_for_file(actions::import_heights_dialog()),
            Command::ImportLevel => self.ask_for_file(actions::import_level_dialog()),
            Command::ExportMovingAi => self.export_map_dialog("Moving AI map", "map"),
            Command::ExportTiled => self.export_map_dialog("Tiled map", "tmj"),
            Command::ExportPng => self.export_map_dialog("PNG image", "png"),
            Command::ExportPath => self.export_path_dialog(),
            Command::Quit => self.guard(ctx, Pending::Quit),
            Command::ResizeMap => {
                let grid = &self.document.map.grid;
                self.dialog = Some(Dialog::Resize {
                    width: grid.width(),
                    height: grid.height(),
                    anchor: Anchor::TopLeft,
                });
            }
            Command::Fit => self.fit_map(),
            Command::OneToOne => self.canvas.one_to_one(),
            Command::Tool(tool) => self.select_tool(tool),
            Command::SmallerBrush => self.change_brush(-1),
            Command::LargerBrush => self.change_brush(1),
            Command::Terrain(i) => {
                if i < self.document.map.grid.terrains().len() {
                    self.tools.active = i as TerrainId;
                }
            }
            Command::Shortcuts => self.shortcuts_open = !self.shortcuts_open,
        }
    }

    /// Carries out a choice of the menus.
    fn menu_action(&mut self, ctx: &egui::Context, action: MenuAction) {
        match action {
            MenuAction::Command(command) => self.execute(ctx, command),
            MenuAction::OpenRecent(path) => self.open_file(ctx, &path),
            MenuAction::ClearRecent => self.files.preferences.recent.clear(),
        }
    }

    fn handle_close(&mut self, ctx: &egui::Context) {
        if ctx.input(|i| i.viewport().close_requested()) && self.document.dirty && !self.may_close {
            ctx.send_viewport_cmd(ViewportCommand::CancelClose);
            self.dialog = Some(Dialog::Unsaved(Pending::Quit));
        }
    }

    fn update_title(&mut self, ctx: &egui::Context) {
        let title = self.document.title();
        if title != self.shown_title {
            ctx.send_viewport_cmd(ViewportCommand::Title(title.clone()));
            self.shown_title = title;
        }
    }
}

/// The files and the team: what the window asks of those rooms, and carries out for them.
impl EditorApp {
    /// Shows what an action reported: in the status bar, or an error in a dialog; returns
    /// whether the action worked.
    pub(super) fn report(&mut self, report: Report) -> bool {
        let worked = report.worked();
        match report {
            Report::Said(text) => self.say(text, false),
            Report::Warned(text) => self.say(text, true),
            Report::Failed { title, text } => {
                self.dialog = Some(Dialog::Message {
                    title: title.to_owned(),
                    text,
                });
            }
        }
        worked
    }

    /// Turns autosave on: while the map has unsaved changes it is written every `interval` to
    /// a recovery file in `dir`.
    pub fn with_autosave(mut self, dir: &Path, interval: Duration) -> Self {
        self.files.autosave = super::files::autosave::Autosave::new(dir, interval);
        self
    }

    /// The recovery file autosave writes, when autosave is on.
    pub fn recovery_file(&self) -> Option<&Path> {
        self.files.autosave.recovery_path()
    }

    /// Looks for unsaved work of an earlier session in the recovery file; when there is
    /// some, the editor asks whether to restore it.
    pub fn offer_recovery(&mut self) {
        if let Some(report) = self.files.offer_recovery() {
            self.report(report);
        }
    }

    /// The files of File → Open recent, newest first.
    pub fn recent_files(&self) -> &[PathBuf] {
        &self.files.preferences.recent
    }

    /// Reads the preferences saved by an earlier session.
    pub fn load_preferences(&mut self, storage: &dyn eframe::Storage) {
        if let Some(preferences) = eframe::get_value::<Preferences>(storage, eframe::APP_KEY) {
            self.files.load_preferences(preferences);
        }
    }

    /// Makes the file dialogs of this editor the in-window ones, starting in `folder`, as on a
    /// desktop without a portal.
    pub fn with_in_window_file_dialogs(mut self, why: &str, folder: &Path) -> Self {
        self.files.dialogs = FileDialogs::InWindow(why.to_owned());
        self.files.folder = Some(folder.to_owned());
        self
    }

    /// Whether an in-window file dialog is open.
    pub fn is_picking_file(&self) -> bool {
        self.files.is_picking()
    }

    /// Whether the image import dialog is open.
    pub fn is_importing(&self) -> bool {
        self.files.import.is_some()
    }

    /// The import dialog's current result: the grid's size and how many cells are
    /// impassable in the preview.
    pub fn import_summary(&self) -> Option<ImportSummary> {
        self.files.import.as_ref().and_then(ImportDialog::summary)
    }

    /// Opens the import dialog on an image (`.png`, `.jpg`, `.bmp`) or a ROS `map.yaml`; an
    /// image with a `map.yaml` of its own name beside it that names it is read through that
    /// file (its resolution, origin and thresholds), and the status bar says so. A file that
    /// cannot be read or decoded is reported and the open map stays.
    pub fn start_import(&mut self, path: &Path) {
        let terrains = self.document.map.grid.terrains();
        if let Some(report) = self.files.start_import(path, terrains) {
            self.report(report);
        }
    }

    /// Whether the level dialog is open.
    pub fn level_dialog(&self) -> Option<&LevelDialog> {
        self.files.level.as_ref()
    }

    /// Chooses the level and layer in the open level dialog, as its menus do.
    pub fn choose_level(&mut self, options: LevelOptions) {
        if let Some(dialog) = &mut self.files.level {
            dialog.choose(options);
        }
    }

    /// Opens the level dialog on a Tiled map (`.tmx`, `.tmj`) or an LDtk project (`.ldtk`).
    /// A file that cannot be read is reported and the open map stays.
    pub fn start_level_import(&mut self, path: &Path) {
        self.start_level_import_with(path, LevelOptions::default());
    }

    /// Opens the level dialog on a level file, on the given level and layer.
    pub fn start_level_import_with(&mut self, path: &Path, options: LevelOptions) {
        if let Some(report) = self.files.start_level_import(path, options) {
            self.report(report);
        }
    }

    /// Writes the map as a Moving AI `.map`, a Tiled `.tmj` or `.tmx`, a `.png` (one pixel per
    /// cell) or a `.json`, chosen by the extension; the open document keeps its own file.
    /// Returns whether it worked (the error is shown).
    pub fn export_map_to(&mut self, path: &Path) -> bool {
        let report = actions::export_map(&self.document.map, path);
        self.report(report)
    }

    /// The path export of the current search: its request, the grid path, and the smoothed
    /// path drawn on the canvas with the smoothing settings of the Path panel.
    pub fn path_export(&self) -> Result<PathExport, String> {
        self.path_export_holding(true)
    }

    /// [`Self::path_export`], holding its samples or not.
    fn path_export_holding(&self, samples: bool) -> Result<PathExport, String> {
        let spacing = self.view.sample_spacing;
        actions::path_export(&self.document.map, &self.planner, spacing, samples)
    }

    /// Writes the path export to `path`, encoded as its extension says (`.json` for the
    /// `gridpath-path` document, `.csv` for the curve's samples; any other is refused with an
    /// error); returns whether it worked.
    pub fn export_path_to(&mut self, path: &Path) -> bool {
        let report = actions::export_path(self.path_export_holding(false), path);
        self.report(report)
    }

    /// Gives the map the heights of a grayscale image (black 0, white the Heights panel's
    /// *Import white*; resampled to the map's size), as one undoable step. A file that
    /// cannot be read is reported and the map stays as it was.
    pub fn import_heights_from(&mut self, path: &Path) -> bool {
        let grid = &self.document.map.grid;
        match actions::read_heights(path, grid, self.tools.heightmap_white) {
            Ok((heights, said)) => {
                self.set_heights(heights);
                self.say(said, false);
                true
            }
            Err(report) => self.report(report),
        }
    }

    /// Asks for a file; the answer comes back through the file room's dialogs.
    fn ask_for_file(&mut self, ask: FileAsk) {
        let near = self.document.path.as_deref().and_then(Path::parent);
        if let Some(report) = self.files.ask(ask, near) {
            self.report(report);
        }
    }

    /// File → Export Moving AI map, Tiled map and PNG: asks where to write the map.
    fn export_map_dialog(&mut self, kind: &str, extension: &'static str) {
        self.ask_for_file(actions::export_map_dialog(
            kind,
            extension,
            self.document.name(),
        ));
    }

    /// File → Export path: asks where to write the path export, when there is one.
    fn export_path_dialog(&mut self) {
        match self.path_export_holding(false) {
            Ok(_) => self.ask_for_file(actions::export_path_dialog(self.document.name())),
            Err(text) => {
                self.report(Report::failed("Could not export the path", text));
            }
        }
    }

    /// Puts a loaded map in place of the open one.
    fn replace_with(&mut self, replacement: super::document::Replacement) {
        if let Some(path) = &replacement.document.path {
            self.files.preferences.remember(path);
        }
        let placed = self.replace_document(replacement.document);
        let note = markers_note(placed, &self.document.map.grid);
        self.say(format!("{}{note}", replacement.notice), false);
    }

    /// Opens a map, image or `map.yaml` by its extension: a map takes the open map's place
    /// (after the unsaved-changes question), an image opens the import dialog.
    fn open_file(&mut self, ctx: &egui::Context, path: &Path) {
        let terrains = self.document.map.grid.terrains();
        if let Some(intent) = self.files.open(path, terrains) {
            self.file_intent(ctx, intent);
        }
    }

    /// Carries out what the file room asked for.
    fn file_intent(&mut self, ctx: &egui::Context, intent: FileIntent) {
        match intent {
            FileIntent::Report(report) => {
                self.report(report);
            }
            FileIntent::Replace(replacement) => self.guard(ctx, Pending::Replace(replacement)),
            FileIntent::Open { path, dropped } => {
                self.open_file(ctx, &path);
                if dropped > 1 && self.dialog.is_none() {
                    self.say(format!("{dropped} files dropped: opened the first."), false);
                }
            }
            FileIntent::Chosen(task, path) => self.file_chosen(ctx, task, &path),
        }
    }

    /// Acts on a file chosen in a file dialog for `task`.
    fn file_chosen(&mut self, ctx: &egui::Context, task: FileTask, path: &Path) {
        match task {
            FileTask::Open => self.open_file(ctx, path),
            FileTask::ImportMovingAi => {
                let intent = actions::open_map(path);
                self.file_intent(ctx, intent);
            }
            FileTask::ImportImage => self.start_import(path),
            FileTask::ImportHeights => {
                self.import_heights_from(path);
            }
            FileTask::SaveAs(then) => {
                if self.save_to(path)
                    && let Some(pending) = then
                {
                    self.proceed(ctx, pending);
                }
            }
            FileTask::ExportMap(_) => {
                self.export_map_to(path);
            }
            FileTask::ExportPath => {
                self.export_path_to(path);
            }
            FileTask::LoadScenario => {
                self.load_scenario_from(path);
            }
            FileTask::LoadPlan => {
                self.load_plan_from(path);
            }
            FileTask::ExportPlan => {
                self.export_plan_to(path);
            }
        }
    }

    /// Once a frame, after the panels and dialogs: dropped files, the import and level
    /// dialogs, the restore question and the autosave timer.
    fn files_ui(&mut self, ctx: &egui::Context) {
        let busy = self.dialog.is_some();
        if let Some(intent) = self.files.drop_ui(ctx, busy) {
            self.file_intent(ctx, intent);
        }
        for intent in self.files.dialogs_ui(ctx) {
            self.file_intent(ctx, intent);
        }
        if self.dialog.is_none()
            && let Some(when) = self.files.autosave.offer()
        {
            self.dialog = Some(Dialog::Restore { when });
        }
        if let Some(report) = self.files.tick(ctx, &self.document) {
            self.report(report);
        }
    }

    /// The Agents section of the side panel.
    fn agents_section_ui(&mut self, ui: &mut egui::Ui) {
        for intent in section_ui(ui, &mut self.agents) {
            self.agents_intent(intent);
        }
    }

    /// Carries out what the Agents panel asked for.
    fn agents_intent(&mut self, intent: AgentsIntent) {
        let grid = &self.document.map.grid;
        match self.agents.carry_out(intent, grid, self.document.name()) {
            Some(AgentsReply::Report(report)) => {
                self.report(report);
            }
            Some(AgentsReply::Ask(ask)) => self.ask_for_file(ask),
            None => {}
        }
    }

    /// Waits up to `timeout` for the team's solves under way, the improvement of a first plan
    /// included (for tests and scripts); returns whether none is left running.
    pub fn wait_for_agents(&mut self, timeout: Duration) -> bool {
        let (done, said) = self.agents.wait_all(timeout);
        if let Some(report) = said {
            self.report(report);
        }
        done
    }

    /// Loads the first units of a Moving AI scenario of the open map; returns whether it did.
    pub fn load_scenario_from(&mut self, path: &Path) -> bool {
        let report = self.agents.load_scenario(&self.document.map.grid, path);
        self.report(report)
    }

    /// Loads a plan in LaCAM's text format, checks it against the open map and shows it;
    /// returns whether it did.
    pub fn load_plan_from(&mut self, path: &Path) -> bool {
        let report = self.agents.load_plan(&self.document.map.grid, path);
        self.report(report)
    }

    /// Writes the team's plan to `path`: LaCAM's text format for a `.txt` name, else the JSON
    /// plan export with the world frame. Returns whether it worked.
    pub fn export_plan_to(&mut self, path: &Path) -> bool {
        let report =
            self.agents
                .export_plan(&self.document.map, self.document.path.as_deref(), path);
        self.report(report)
    }

    /// The units of the team, for tests and scripts.
    pub fn agents(&self) -> &Agents {
        &self.agents
    }

    /// The units of the team, to change from tests and scripts.
    pub fn agents_mut(&mut self) -> &mut Agents {
        &mut self.agents
    }
}

impl eframe::App for EditorApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        self.view.update(&ctx, &mut self.planner);
        if let Some(report) = self.agents.update(&ctx) {
            self.report(report);
        }
        self.handle_close(&ctx);
        self.shortcuts(&ctx);
        egui::Panel::top("menu-bar").show(ui, |ui| {
            let state = MenuState {
                can_undo: self.history.can_undo(),
                can_redo: self.history.can_redo(),
                recent: &self.files.preferences.recent,
                has_path: self.planner.result().is_some(),
                brush_size: self.tools.brush_size,
            };
            let actions = egui::MenuBar::new()
                .ui(ui, |ui| {
                    menus::menu_bar_ui(ui, &state, &mut self.grid_lines)
                })
                .inner;
            for action in actions {
                self.menu_action(&ctx, action);
            }
        });
        egui::Panel::top("toolbar").show(ui, |ui| {
            for command in menus::toolbar_ui(ui, &mut self.tools) {
                self.execute(&ctx, command);
            }
        });
        egui::Panel::bottom("status-bar").show(ui, |ui| {
            let hovered = self.input.hovered();
            let line = StatusLine {
                grid: &self.document.map.grid,
                hovered,
                inspected: if self.team_shown() {
                    None
                } else {
                    self.view.inspector_text(&self.planner, hovered)
                },
                zoom: self.canvas.zoom(),
                dirty: self.document.dirty,
                notice: self.notice.as_ref().map(|n| (n.text.as_str(), n.error)),
            };
            menus::status_ui(ui, &line);
        });
        menus::shortcuts_window(&ctx, &mut self.shortcuts_open);
        egui::Panel::left("palette")
            .resizable(true)
            .default_size(230.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    let action = self
                        .palette
                        .ui(ui, &self.document.map.grid, self.tools.active);
                    if let Some(action) = action {
                        self.palette_action(action);
                    }
                    ui.separator();
                    if let Some(action) = relief_ui(
                        ui,
                        &self.document.map.grid,
                        &mut self.tools.height_step,
                        &mut self.tools.heightmap_white,
                    ) {
                        self.relief_action(action);
                    }
                });
            });
        egui::Panel::right("search")
            .resizable(true)
            .default_size(300.0)
            .show(ui, |ui| {
                // Scrolling both ways, the panel keeps the width the user gave it: content
                // wider than that (a long algorithm name, the history table) scrolls instead
                // of pushing the canvas aside.
                egui::ScrollArea::both()
                    .auto_shrink([false, false])
                    .id_salt("search-panel")
                    .show(ui, |ui| {
                        // The team's section comes first while the team is being worked on.
                        let agents_first = self.team_shown();
                        if agents_first {
                            self.agents_section_ui(ui);
                            ui.separator();
                        }
                        let topology = self.document.map.grid.topology();
                        let intents =
                            self.view
                                .panel_ui(ui, &self.planner, &mut self.settings, topology);
                        for intent in intents {
                            self.search_intent(intent);
                        }
                        if !agents_first {
                            ui.separator();
                            self.agents_section_ui(ui);
                        }
                    });
            });
        egui::CentralPanel::default()
            .frame(egui::Frame::NONE)
            .show(ui, |ui| self.canvas_ui(ui));
        if let Some(rows) = self.planner.comparison() {
            compare_window::compare_window_ui(&ctx, &mut self.view.compare_open, rows);
        }
        if let Some(mut dialog) = self.dialog.take() {
            let answer = dialog.show(&ctx, &self.document.map.grid, self.document.name());
            match answer {
                Some(answer) => self.answer(&ctx, answer),
                None => self.dialog = Some(dialog),
            }
        }
        self.files_ui(&ctx);
        if let Some(intent) = self.files.dialog_ui(&ctx) {
            self.file_intent(&ctx, intent);
        }
        self.update_title(&ctx);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, eframe::APP_KEY, &self.files.preferences);
    }
}

fn is_json(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
}
