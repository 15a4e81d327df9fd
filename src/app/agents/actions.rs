//! What the team's room does for the Agents panel and tool: adding and picking units,
//! solving, loading a scenario or a plan, and exporting the plan. It answers the editor
//! window with [`Report`]s and [`AgentsReply`]s, which the window carries out.

use std::path::Path;

use crate::format::movingai;
use crate::format::read::{self, FileLimit};
use crate::format::save::{self, Backup};
use crate::grid::{Cell, Grid, Map};
use crate::mapf::{self, PlanExport, PlanSource};

use super::panel::AgentsIntent;
use super::{Agents, PlanOrigin, Solved};
use crate::app::files::actions::{FileAsk, open_request, save_request};
use crate::app::files::picker::FileTask;
use crate::app::report::Report;

/// What the team's room asks of the editor window after an intent of the Agents panel.
#[derive(Debug)]
pub enum AgentsReply {
    /// Say how it went.
    Report(Report),
    /// Ask for a file.
    Ask(FileAsk),
}

impl Agents {
    /// Carries out what the Agents panel asked for, on `grid`; `name` is the open map's, for
    /// the name of an exported plan.
    pub fn carry_out(
        &mut self,
        intent: AgentsIntent,
        grid: &Grid,
        name: &str,
    ) -> Option<AgentsReply> {
        let said = |text: String| Some(AgentsReply::Report(Report::Said(text)));
        match intent {
            AgentsIntent::Solve => self.solve(grid),
            AgentsIntent::Stop => self.stop(),
            AgentsIntent::Clear => {
                self.clear();
                return said("Removed every unit.".to_owned());
            }
            AgentsIntent::Remove(i) => {
                self.remove(grid, i);
                return said(format!("Removed unit {}.", i + 1));
            }
            AgentsIntent::SettingsChanged => {
                if self.live {
                    self.solve(grid);
                } else {
                    self.stale = self.solved.is_some();
                }
            }
            AgentsIntent::LoadScenario => {
                let request = open_request(
                    "Load units from a Moving AI scenario",
                    vec![("Moving AI scenario".to_owned(), vec!["scen".to_owned()])],
                );
                return Some(AgentsReply::Ask((FileTask::LoadScenario, request)));
            }
            AgentsIntent::LoadPlan => {
                let request = open_request(
                    "Load a multi-agent plan",
                    vec![(
                        "Plan (LaCAM text)".to_owned(),
                        vec!["txt".to_owned(), "plan".to_owned()],
                    )],
                );
                return Some(AgentsReply::Ask((FileTask::LoadPlan, request)));
            }
            AgentsIntent::ExportPlan => {
                let request = save_request(
                    "Export the team's plan",
                    (
                        "Plan export".to_owned(),
                        vec!["json".to_owned(), "txt".to_owned()],
                    ),
                    format!("{name}-plan.json"),
                );
                return Some(AgentsReply::Ask((FileTask::ExportPlan, request)));
            }
        }
        None
    }

    /// Once a frame: takes the background solver's answer, moves the timeline on, and asks
    /// for the next frame while either runs; returns what the answer says.
    pub fn update(&mut self, ctx: &egui::Context) -> Option<Report> {
        let said = self.poll(ctx).map(said_as_report);
        let dt = ctx.input(|i| i.stable_dt);
        if self.advance(dt) {
            ctx.request_repaint();
        }
        if self.progress().is_some() {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
        said
    }

    /// Waits up to `timeout` for the solves under way, the improvement of a first plan
    /// included; returns whether none is left running, and the last answer's words.
    pub fn wait_all(&mut self, timeout: std::time::Duration) -> (bool, Option<Report>) {
        let deadline = std::time::Instant::now() + timeout;
        let mut said = None;
        while self.progress().is_some() {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.wait(left) {
                Some(answer) => said = Some(said_as_report(answer)),
                None => return (false, said),
            }
        }
        (true, said)
    }

    /// Adds a unit from `start` to `goal` (a drag of the Agents tool).
    pub fn add_unit(&mut self, grid: &Grid, start: Cell, goal: Cell) -> Report {
        match self.add(grid, start, goal) {
            Ok(said) => Report::Said(said),
            Err(said) => Report::Warned(said),
        }
    }

    /// Picks the unit on `cell` (a click of the Agents tool): its path is shown in full.
    pub fn pick(&mut self, cell: Cell) -> Report {
        self.selected = self.unit_at(cell);
        Report::Said(match self.selected {
            Some(i) => {
                let a = self.team[i];
                format!("Unit {}: from {} to {}.", i + 1, a.start, a.goal)
            }
            None => "No unit there: drag from a start to a goal to add one.".to_owned(),
        })
    }

    /// Loads the first units of a Moving AI scenario of the map `grid`.
    pub fn load_scenario(&mut self, grid: &Grid, path: &Path) -> Report {
        let loaded = read::read_text(path, FileLimit::SCENARIO)
            .map_err(|e| format!("{}: {e}", path.display()))
            .and_then(|text| {
                movingai::parse_scen(&text).map_err(|e| format!("{}: {e}", path.display()))
            })
            .and_then(|queries| {
                let k = self.load_count.min(queries.len());
                mapf::instance_from_queries(grid.clone(), &queries, k, self.moves, path)
                    .map_err(|e| e.to_string())
            });
        match loaded {
            Ok(instance) => {
                self.load(grid, &instance);
                Report::Said(format!(
                    "Loaded {} units from {}.",
                    instance.agents().len(),
                    path.display()
                ))
            }
            Err(text) => Report::failed("Could not load the scenario", text),
        }
    }

    /// Loads a plan in LaCAM's text format, checks it against the map `grid` and shows it.
    pub fn load_plan(&mut self, grid: &Grid, path: &Path) -> Report {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let loaded = read::read_text(path, FileLimit::PLAN)
            .map_err(|e| format!("{}: {e}", path.display()))
            .and_then(|text| {
                mapf::parse_plan(&text).map_err(|e| format!("{}: {e}", path.display()))
            })
            .and_then(|(plan, _)| self.show_plan(grid, plan, &name));
        match loaded {
            Ok(said) if self.solved.as_ref().is_some_and(|s| s.fault.is_some()) => {
                Report::Warned(said)
            }
            Ok(said) => Report::Said(said),
            Err(text) => Report::failed("Could not load the plan", text),
        }
    }

    /// Writes the team's plan on `map` (read from `map_path`, when it has a file) to `path`:
    /// LaCAM's text format for a `.txt` name, with the header `gridpath mapf solve` writes,
    /// else the JSON plan export with the world frame.
    pub fn export_plan(&self, map: &Map, map_path: Option<&Path>, path: &Path) -> Report {
        let written = self.plan_text(map, map_path, path).and_then(|text| {
            save::write_atomically(path, text.as_bytes(), Backup::Discard)
                .map_err(|e| e.to_string())
        });
        match written {
            Ok(()) => Report::Said(format!("Exported the plan to {}.", path.display())),
            Err(text) => Report::failed("Could not export the plan", text),
        }
    }

    fn plan_text(&self, map: &Map, map_path: Option<&Path>, path: &Path) -> Result<String, String> {
        let Some(solved) = self.solved.as_ref() else {
            return Err("There is no plan: solve the team first.".to_owned());
        };
        let Some(plan) = solved.plan() else {
            return Err("The last solve found no plan.".to_owned());
        };
        let source = plan_source(solved);
        let lacam = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("txt"));
        if lacam {
            let map_file = map_path
                .and_then(Path::file_name)
                .map_or_else(|| map.name.clone(), |n| n.to_string_lossy().into_owned());
            let mut header = mapf::plan_header(
                &solved.instance,
                &solved.outcome,
                &map_file,
                &source.algorithm,
                self.settings().seed,
            );
            // A plan read from a file: whether it keeps the rules is the validator's word.
            if matches!(solved.origin, PlanOrigin::File(_)) {
                for (key, value) in &mut header {
                    match key.as_str() {
                        "solved" => *value = u8::from(solved.summary.is_some()).to_string(),
                        "proof" => value.clone_from(&source.proof),
                        _ => {}
                    }
                }
            }
            return Ok(mapf::write_plan(plan, &header));
        }
        let export = PlanExport::new(
            map,
            &solved.instance,
            plan,
            solved.summary.as_ref(),
            &source,
        );
        export
            .to_json()
            .map(|text| text + "\n")
            .map_err(|e| format!("Could not encode the plan export: {e}"))
    }
}

/// The words of the solver's answer, as a report.
fn said_as_report((text, error): (String, bool)) -> Report {
    if error {
        Report::Warned(text)
    } else {
        Report::Said(text)
    }
}

/// The solver's name and proof, or the plan file's.
fn plan_source(solved: &Solved) -> PlanSource {
    let (algorithm, proof) = match &solved.origin {
        PlanOrigin::Solver(a) => (a.name().to_owned(), solved.outcome.proof.name().to_owned()),
        PlanOrigin::File(name) => (
            format!("file {name}"),
            if solved.summary.is_some() {
                "feasible"
            } else {
                "invalid"
            }
            .to_owned(),
        ),
    };
    PlanSource {
        algorithm,
        proof,
        lower_bound: solved.outcome.lower_bound,
    }
}
