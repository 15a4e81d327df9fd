//! Search in the editor: the [`planner::Planner`] that runs it on a worker thread (through a
//! [`solver::Solver`]), the settings [`panel`], what is drawn of a run ([`view`],
//! [`exploration`], [`clearance_layer`]), the "compare all" race and its window
//! ([`comparison`], [`compare_window`]), and the history of runs ([`run_history`]).

pub mod clearance_layer;
pub mod compare_window;
pub mod comparison;
pub mod exploration;
pub mod panel;
pub mod planner;
pub mod run_history;
pub mod solver;
pub mod view;
