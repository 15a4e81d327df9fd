"""gridpath: grid pathfinding over numpy arrays.

Load a map from any file the ``gridpath`` command line reads (``Map.load``) or build one from
an array of costs (``Map.from_numpy``), then search it::

    import numpy as np
    import gridpath

    costs = np.ones((20, 30))
    costs[5:15, 12] = np.inf                     # a wall: inf or nan is impassable
    m = gridpath.Map.from_numpy(costs)
    path = m.find_path((2, 10), (27, 10))        # cells are (x, y), arrays [y, x]
    print(path.cost, path.cells.shape, path.optimality)

Every search algorithm of the engine is there (``ALGORITHMS``); batches run on all cores with
the GIL released (``Map.find_paths``); ``Map.flow_field`` gives every cell's cost and next
step to one goal; ``run_scenario`` checks a Moving AI scenario as ``gridpath scen`` does;
``Map.solve_team`` plans many units at once with the solvers of ``gridpath mapf``
(``TEAM_SOLVERS``).
Errors are ``gridpath.Error`` and its subclasses, with ``file`` and ``place`` attributes; a bad
argument is an ``ArgumentError``, which is also a ``ValueError`` (and, for an argument of the
wrong type, an ``ArgumentTypeError``, also a ``TypeError``).
"""

from ._core import (
    ALGORITHMS,
    DIAGONALS,
    HEURISTICS,
    ArgumentError,
    ArgumentTypeError,
    CrowdRun,
    Drive,
    Error,
    FileError,
    FlowField,
    Map,
    MapError,
    Path,
    ScenarioError,
    ScenarioReport,
    SearchError,
    TEAM_SOLVERS,
    TeamPlan,
    __version__,
    run_scenario,
)

__all__ = [
    "ALGORITHMS",
    "DIAGONALS",
    "HEURISTICS",
    "ArgumentError",
    "ArgumentTypeError",
    "CrowdRun",
    "Drive",
    "Error",
    "FileError",
    "FlowField",
    "Map",
    "MapError",
    "Path",
    "ScenarioError",
    "ScenarioReport",
    "SearchError",
    "TEAM_SOLVERS",
    "TeamPlan",
    "__version__",
    "run_scenario",
]
