//! Every multi-agent solver in one table, as [`ALGORITHMS`](crate::search::ALGORITHMS) lists
//! the single-agent searches: its command-line name, its title, one sentence for help texts,
//! what it guarantees, and its `run` function. The command line and [`solve`] read it.
//!
//! ```
//! use gridpath_core::mapf::{MAPF_ALGORITHMS, MapfAlgorithm};
//!
//! assert_eq!("lacam".parse::<MapfAlgorithm>(), Ok(MapfAlgorithm::Lacam));
//! assert!(MAPF_ALGORITHMS.iter().any(|a| a.name == "pibt"));
//! ```

use std::fmt;
use std::str::FromStr;

use super::graph::Distances;
use super::model::Instance;
use super::outcome::{MapfOutcome, MapfSettings};
use super::{cbs, ecbs, eecbs, lacam, pibt, whca};
use crate::search::SearchControl;

/// A multi-agent solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MapfAlgorithm {
    /// LaCAM: configuration search with PIBT; LaCAM* when anytime.
    Lacam,
    /// PIBT alone.
    Pibt,
    /// Conflict-based search with prioritised conflicts, bypass and the conflict-graph
    /// heuristic.
    Cbs,
    /// Windowed hierarchical cooperative A* with a reservation table.
    Whca,
    /// Enhanced CBS: focal search at both levels, within the weight of the optimum.
    Ecbs,
    /// Explicit Estimation CBS: ECBS's low level under explicit estimation search, within
    /// the weight of the optimum.
    Eecbs,
}

/// What a solver promises before it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapfGuarantee {
    /// Complete (a plan if one exists, a proof of none otherwise); anytime towards the
    /// optimal sum of loss.
    CompleteAnytime,
    /// The optimal sum of costs.
    Optimal,
    /// Within the weight times the optimal sum of costs.
    WithinWeight,
    /// None: a plan when it finds one.
    Incomplete,
}

/// Everything gridpath knows of one multi-agent solver.
#[derive(Clone, Copy)]
pub struct MapfAlgorithmInfo {
    /// The solver.
    pub algorithm: MapfAlgorithm,
    /// Its name on the command line, e.g. `"lacam"`.
    pub name: &'static str,
    /// Its name in menus and tables.
    pub title: &'static str,
    /// One sentence on what it does.
    pub about: &'static str,
    /// What it promises.
    pub guarantee: MapfGuarantee,
    /// Whether it reads the settings' weight.
    pub uses_weight: bool,
    /// Runs it.
    /// Runs it, with the agents' distance tables as far as [`solve`](super::solve) filled them.
    pub(crate) run: fn(&Instance, &MapfSettings, &SearchControl, Distances) -> MapfOutcome,
}

impl fmt::Debug for MapfAlgorithmInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MapfAlgorithmInfo")
            .field("algorithm", &self.algorithm)
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// Every multi-agent solver, in the order of [`MapfAlgorithm`]'s variants.
pub static MAPF_ALGORITHMS: &[MapfAlgorithmInfo] = &[
    MapfAlgorithmInfo {
        algorithm: MapfAlgorithm::Lacam,
        name: "lacam",
        title: "LaCAM*",
        about: "Configuration search with PIBT: complete, proves an instance unsolvable, and \
                improves its plan until the time limit (anytime, towards the optimal sum of loss).",
        guarantee: MapfGuarantee::CompleteAnytime,
        uses_weight: false,
        run: lacam::run,
    },
    MapfAlgorithmInfo {
        algorithm: MapfAlgorithm::Pibt,
        name: "pibt",
        title: "PIBT",
        about: "Priority inheritance with backtracking, one tick at a time: the fastest, \
                no bound on the cost, and it can fail on a solvable instance.",
        guarantee: MapfGuarantee::Incomplete,
        uses_weight: false,
        run: pibt::run,
    },
    MapfAlgorithmInfo {
        algorithm: MapfAlgorithm::Cbs,
        name: "cbs",
        title: "CBS",
        about: "Conflict-based search with prioritised conflicts, bypass and the conflict-graph \
                heuristic: the optimal sum of costs, for small teams.",
        guarantee: MapfGuarantee::Optimal,
        uses_weight: false,
        run: cbs::run,
    },
    MapfAlgorithmInfo {
        algorithm: MapfAlgorithm::Whca,
        name: "whca",
        title: "WHCA*",
        about: "Windowed cooperative A*: agents plan in turn through a reservation table, a \
                window of ticks at a time (--window); no bound on the cost, and it can fail.",
        guarantee: MapfGuarantee::Incomplete,
        uses_weight: false,
        run: whca::run,
    },
    MapfAlgorithmInfo {
        algorithm: MapfAlgorithm::Ecbs,
        name: "ecbs",
        title: "ECBS",
        about: "Enhanced conflict-based search: focal search at both levels, a sum of costs \
                within --weight × the optimum, for larger teams than CBS.",
        guarantee: MapfGuarantee::WithinWeight,
        uses_weight: true,
        run: ecbs::run,
    },
    MapfAlgorithmInfo {
        algorithm: MapfAlgorithm::Eecbs,
        name: "eecbs",
        title: "EECBS",
        about: "Explicit estimation CBS: ECBS's focal low level under a high level that learns \
                to estimate each node's cost and distance to a plan, a sum of costs within \
                --weight × the optimum.",
        guarantee: MapfGuarantee::WithinWeight,
        uses_weight: true,
        run: eecbs::run,
    },
];

impl MapfAlgorithm {
    /// Every solver.
    pub fn all() -> impl Iterator<Item = MapfAlgorithm> {
        MAPF_ALGORITHMS.iter().map(|a| a.algorithm)
    }

    /// The solver's entry in [`MAPF_ALGORITHMS`].
    pub fn info(self) -> &'static MapfAlgorithmInfo {
        &MAPF_ALGORITHMS[self as usize]
    }

    /// The solver's command-line name.
    pub fn name(self) -> &'static str {
        self.info().name
    }
}

impl fmt::Display for MapfAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for MapfAlgorithm {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        MAPF_ALGORITHMS
            .iter()
            .find(|a| a.name == s)
            .map(|a| a.algorithm)
            .ok_or_else(|| {
                let names: Vec<_> = MAPF_ALGORITHMS.iter().map(|a| a.name).collect();
                format!(
                    "unknown multi-agent solver {s:?}: expected one of {}",
                    names.join(", ")
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_solver_has_its_entry_in_place() {
        for (i, info) in MAPF_ALGORITHMS.iter().enumerate() {
            assert_eq!(info.algorithm as usize, i, "{} is out of place", info.name);
            assert_eq!(info.name.parse::<MapfAlgorithm>(), Ok(info.algorithm));
        }
    }
}
