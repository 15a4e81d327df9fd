//! What the editor does for the Agents panel and tool: adding and picking units, solving,
//! loading a scenario or a plan, and exporting the plan.

use std::path::Path;

use crate::format::movingai;
use crate::format::read::{self, FileLimit};
use crate::format::save::{self, Backup};
use crate::grid::Cell;
use crate::mapf::{self, PlanExport, PlanSource};

use super::panel::AgentsIntent;
use super::{PlanOrigin, Solved};
use crate::app::EditorApp;
use crate::app::files::actions::{open_request, save_request};
use crate::app::files::picker::FileTask;

impl EditorApp {
    /// Carries out what the Agents panel asked for.
    pub(in crate::app) fn agents_intent(&mut self, intent: AgentsIntent) {
        let grid = &self.document.map.grid;
        match intent {
            AgentsIntent::Solve => self.agents.solve(grid),
            AgentsIntent::Stop => self.agents.stop(),
            AgentsIntent::Clear => {
                self.agents.clear();
                self.say("Removed every unit.".to_owned(), false);
            }
            AgentsIntent::Remove(i) => {
                self.agents.remove(grid, i);
                self.say(format!("Removed unit {}.", i + 1), false);
            }
            AgentsIntent::SettingsChanged => {
                if self.agents.live {
                    self.agents.solve(grid);
                } else {
                    self.agents.stale = self.agents.solved.is_some();
                }
            }
            AgentsIntent::LoadScenario => {
                let request = open_request(
                    "Load units from a Moving AI scenario",
                    vec![("Moving AI scenario".to_owned(), vec!["scen".to_owned()])],
                );
                self.ask_for_file(FileTask::LoadScenario, &request);
            }
            AgentsIntent::LoadPlan => {
                let request = open_request(
                    "Load a multi-agent plan",
                    vec![(
                        "Plan (LaCAM text)".to_owned(),
                        vec!["txt".to_owned(), "plan".to_owned()],
                    )],
                );
                self.ask_for_file(FileTask::LoadPlan, &request);
            }
            AgentsIntent::ExportPlan => {
                let name = format!("{}-plan.json", self.document.name());
                let request = save_request(
                    "Export the team's plan",
                    (
                        "Plan export".to_owned(),
                        vec!["json".to_owned(), "txt".to_owned()],
                    ),
                    name,
                );
                self.ask_for_file(FileTask::ExportPlan, &request);
            }
        }
    }

    /// Once a frame: takes the background solver's answer, moves the timeline on, and asks
    /// for the next frame while either runs.
    pub(in crate::app) fn agents_update(&mut self, ctx: &egui::Context) {
        if let Some((said, error)) = self.agents.poll(ctx) {
            self.say(said, error);
        }
        let dt = ctx.input(|i| i.stable_dt);
        if self.agents.advance(dt) {
            ctx.request_repaint();
        }
        if self.agents.progress().is_some() {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
    }

    /// Waits up to `timeout` for the team's solves under way, the improvement of a first plan
    /// included (for tests and scripts); returns whether none is left running.
    pub fn wait_for_agents(&mut self, timeout: std::time::Duration) -> bool {
        let deadline = std::time::Instant::now() + timeout;
        while self.agents.progress().is_some() {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.agents.wait(left) {
                Some((said, error)) => self.say(said, error),
                None => return false,
            }
        }
        true
    }

    /// The Agents section of the side panel.
    pub(in crate::app) fn agents_section_ui(&mut self, ui: &mut egui::Ui) {
        let section = egui::CollapsingHeader::new("Agents: many units at once")
            .id_salt("agents-panel")
            .default_open(true)
            .show(ui, |ui| super::panel::agents_ui(ui, &mut self.agents));
        for intent in section.body_returned.unwrap_or_default() {
            self.agents_intent(intent);
        }
    }

    /// Adds a unit from `start` to `goal` (a drag of the Agents tool).
    pub(in crate::app) fn add_agent(&mut self, start: Cell, goal: Cell) {
        match self.agents.add(&self.document.map.grid, start, goal) {
            Ok(said) => self.say(said, false),
            Err(said) => self.say(said, true),
        }
    }

    /// Picks the unit on `cell` (a click of the Agents tool): its path is shown in full.
    pub(in crate::app) fn pick_agent(&mut self, cell: Cell) {
        self.agents.selected = self.agents.unit_at(cell);
        match self.agents.selected {
            Some(i) => {
                let a = self.agents.team[i];
                self.say(
                    format!("Unit {}: from {} to {}.", i + 1, a.start, a.goal),
                    false,
                );
            }
            None => self.say(
                "No unit there: drag from a start to a goal to add one.".to_owned(),
                false,
            ),
        }
    }

    /// Loads the first units of a Moving AI scenario of the open map; returns whether it did.
    pub fn load_scenario_from(&mut self, path: &Path) -> bool {
        let grid = &self.document.map.grid;
        let loaded = read::read_text(path, FileLimit::SCENARIO)
            .map_err(|e| format!("{}: {e}", path.display()))
            .and_then(|text| {
                movingai::parse_scen(&text).map_err(|e| format!("{}: {e}", path.display()))
            })
            .and_then(|queries| {
                let k = self.agents.load_count.min(queries.len());
                mapf::instance_from_queries(grid.clone(), &queries, k, self.agents.moves, path)
                    .map_err(|e| e.to_string())
            });
        match loaded {
            Ok(instance) => {
                self.agents.load(grid, &instance);
                self.say(
                    format!(
                        "Loaded {} units from {}.",
                        instance.agents().len(),
                        path.display()
                    ),
                    false,
                );
                true
            }
            Err(text) => {
                self.show_error("Could not load the scenario", text);
                false
            }
        }
    }

    /// Loads a plan in LaCAM's text format, checks it against the open map and shows it;
    /// returns whether it did.
    pub fn load_plan_from(&mut self, path: &Path) -> bool {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let loaded = read::read_text(path, FileLimit::PLAN)
            .map_err(|e| format!("{}: {e}", path.display()))
            .and_then(|text| {
                mapf::parse_plan(&text).map_err(|e| format!("{}: {e}", path.display()))
            })
            .and_then(|(plan, _)| self.agents.show_plan(&self.document.map.grid, plan, &name));
        match loaded {
            Ok(said) => {
                let error = self
                    .agents
                    .solved
                    .as_ref()
                    .is_some_and(|s| s.fault.is_some());
                self.say(said, error);
                true
            }
            Err(text) => {
                self.show_error("Could not load the plan", text);
                false
            }
        }
    }

    /// Writes the team's plan to `path`: LaCAM's text format for a `.txt` name, else the JSON
    /// plan export with the world frame. Returns whether it worked.
    pub fn export_plan_to(&mut self, path: &Path) -> bool {
        let written = self.plan_text(path).and_then(|text| {
            save::write_atomically(path, text.as_bytes(), Backup::Discard)
                .map_err(|e| e.to_string())
        });
        match written {
            Ok(()) => {
                self.say(format!("Exported the plan to {}.", path.display()), false);
                true
            }
            Err(text) => {
                self.show_error("Could not export the plan", text);
                false
            }
        }
    }

    fn plan_text(&self, path: &Path) -> Result<String, String> {
        let Some(solved) = self.agents.solved.as_ref() else {
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
            let mut header = vec![
                ("agents".to_owned(), plan.paths.len().to_string()),
                ("solver".to_owned(), source.algorithm.clone()),
                (
                    "solved".to_owned(),
                    u8::from(solved.summary.is_some()).to_string(),
                ),
            ];
            if let Some(s) = &solved.summary {
                header.push(("soc".to_owned(), format!("{}", s.sum_of_costs)));
                header.push(("makespan".to_owned(), s.makespan.to_string()));
            }
            header.push(("soc_lb".to_owned(), format!("{}", source.lower_bound)));
            return Ok(mapf::write_plan(plan, &header));
        }
        let export = PlanExport::new(
            &self.document.map,
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

    /// The units of the team, for tests and scripts.
    pub fn agents(&self) -> &super::Agents {
        &self.agents
    }

    /// The units of the team, to change from tests and scripts.
    pub fn agents_mut(&mut self) -> &mut super::Agents {
        &mut self.agents
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
