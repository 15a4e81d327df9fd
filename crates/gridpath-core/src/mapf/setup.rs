//! What every solver's run begins with, written once: the budget, whose clock starts before
//! anything else, the move graph of the instance, and each agent's start and goal on it; and,
//! for the solvers that move before they plan whole paths, the answer when some agent cannot
//! reach its goal at all.

use super::graph::{Distances, MoveGraph};
use super::model::Instance;
use super::outcome::{Budget, MapfOutcome, MapfSettings, Proof};
use crate::search::SearchControl;

/// Starts the budget of `settings`, then builds the move graph of `instance` and finds the
/// agents' ends on it: the budget, the graph, and each agent's start and goal as vertices.
pub(super) fn begin<'c>(
    instance: &Instance,
    settings: &MapfSettings,
    control: &'c SearchControl,
) -> (Budget<'c>, MoveGraph, (Vec<u32>, Vec<u32>)) {
    let budget = Budget::new(settings.time_limit, control);
    let graph = MoveGraph::new(instance);
    let ends = graph.ends(instance);
    (budget, graph, ends)
}

/// The outcome of a run in which some agent cannot reach its goal from its start in `starts`
/// (no solution, timed now), or `None` when every agent can: asked of the agents' distance
/// tables.
pub(super) fn unreachable(
    (budget, graph): (&Budget<'_>, &MoveGraph),
    starts: &[u32],
    distances: &mut Distances,
) -> Option<MapfOutcome> {
    let cut_off = starts
        .iter()
        .enumerate()
        .any(|(i, &s)| distances.get(graph, i, s).is_infinite());
    cut_off.then(|| {
        let mut outcome = MapfOutcome::without_plan(Proof::NoSolution);
        outcome.conclude(budget);
        outcome
    })
}
