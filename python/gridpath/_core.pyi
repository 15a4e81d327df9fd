"""Type stubs of gridpath's extension module (re-exported by ``gridpath``)."""

from os import PathLike
from typing import Iterable, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str
ALGORITHMS: list[str]
"""The search algorithms by name: ``find_path``'s ``algorithm``."""
DIAGONALS: list[str]
"""The diagonal rules: ``never``, ``always``, ``one-free``, ``no-cut``."""
HEURISTICS: list[str]
"""The heuristics: ``manhattan``, ``euclidean``, ``chebyshev``, ``octile``, ``zero``."""
TEAM_SOLVERS: list[str]
"""The solvers of ``Map.solve_team``: ``lacam``, ``pibt``, ``cbs``, ``ecbs``, ``eecbs``, ``whca``."""

StrPath = Union[str, PathLike[str]]
CellLike = Union[Tuple[int, int], Sequence[int], npt.NDArray[np.integer]]
"""A cell as ``(x, y)``: column, then row, from the top-left cell (a tuple, a list or a numpy
row of two whole numbers)."""

class Error(Exception):
    """The base of every gridpath error."""

    file: Optional[str]
    """The file at fault, when one is."""
    place: Optional[str]
    """The place in it (``"line 3, column 7"``, ``"row 2"``, ``"start (4, 5)"``), when known."""

class FileError(Error):
    """A file that cannot be read or written."""

class MapError(Error):
    """A map that cannot be built from the values given."""

class SearchError(Error):
    """A search that cannot run: an endpoint off the map or impassable, a refused map."""

class ArgumentError(Error, ValueError):
    """An argument with a bad value; also a ValueError. The message names the argument and
    the value it got."""

class ArgumentTypeError(ArgumentError, TypeError):
    """An argument of the wrong type (None for a name, a string for a number, a float for a
    whole number or a cell); also a TypeError."""

class ScenarioError(FileError):
    """A Moving AI scenario that does not fit its map."""

class Path:
    """The answer of one search."""

    @property
    def found(self) -> bool:
        """Whether a path to the goal was found."""
    @property
    def cells(self) -> npt.NDArray[np.int64]:
        """The path's cells, an ``(n, 2)`` array of ``(x, y)``, start and goal included."""
    @property
    def cost(self) -> float | None:
        """The path's cost; ``None`` when the search returned no path (``null`` in ``gridpath solve --json``)."""
    @property
    def length(self) -> float | None:
        """The path's geometric length: 1 per straight step, √2 per diagonal one; ``None`` when no path was returned."""
    @property
    def optimality(self) -> str:
        """What is guaranteed of the cost: ``"exact"``, ``"≤ 2 × optimal"``, …; for a failed
        search ``"none"`` and why, such as ``"none (no path)"``."""
    @property
    def exact(self) -> bool:
        """Whether a path was found and its cost is guaranteed to be the cheapest."""
    @property
    def algorithm(self) -> str:
        """The algorithm that ran."""
    @property
    def heuristic(self) -> str:
        """The heuristic the search used."""
    @property
    def start(self) -> CellLike:
        """The start ``(x, y)``."""
    @property
    def goal(self) -> CellLike:
        """The goal ``(x, y)``."""
    @property
    def stats(self) -> dict[str, Union[int, bool]]:
        """``expanded``, ``pushed``, ``max_open``, ``time_us``, ``budget_exhausted``,
        ``prepared_bytes`` (the contraction hierarchy's memory, 0 for other searches)."""
    @property
    def waypoints(self) -> Optional[npt.NDArray[np.int64]]:
        """An any-angle path's waypoints, ``(m, 2)``; ``None`` for grid paths."""
    @property
    def reached(self) -> Optional[CellLike]:
        """With ``partial=True`` and an unreachable goal: the cell the path ends at."""
    @property
    def order(self) -> Optional[list[CellLike]]:
        """For a route: the points in the order visited."""
    @property
    def explored(self) -> Optional[npt.NDArray[np.int64]]:
        """With ``record=True``: the expanded cells in order, ``(k, 2)``."""
    @property
    def frontier(self) -> Optional[npt.NDArray[np.int64]]:
        """With ``record=True``: the cells left on the open list, ``(k, 2)``."""
    @property
    def samples(self) -> Optional[npt.NDArray[np.float64]]:
        """With ``smooth=True``: ``(m, 4)`` samples ``(x, y, heading, s)`` in cells."""
    @property
    def world_samples(self) -> Optional[npt.NDArray[np.float64]]:
        """With ``smooth=True`` on a map with a world frame: ``(x, y, yaw, s)`` in metres."""
    @property
    def smooth_waypoints(self) -> Optional[npt.NDArray[np.float64]]:
        """With ``smooth=True``: the line-of-sight waypoints, ``(m, 2)`` in cells."""
    @property
    def smoothed(self) -> Optional[dict[str, Optional[float]]]:
        """With ``smooth=True``: lengths, costs and turning figures of the smoothed path."""
    @property
    def message(self) -> str:
        """A one-line summary."""
    def __len__(self) -> int: ...
    def __bool__(self) -> bool: ...

class FlowField:
    """Every cell's cheapest cost to one goal and its first step there."""

    @property
    def cost(self) -> npt.NDArray[np.float64]:
        """``(height, width)`` costs to the goal, ``inf`` where it cannot be reached."""
    @property
    def next(self) -> npt.NDArray[np.int32]:
        """``(height, width, 2)`` first steps ``(dx, dy)``; ``(0, 0)`` at the goal."""
    @property
    def goal(self) -> CellLike:
        """The goal ``(x, y)``."""
    @property
    def diagonal(self) -> str:
        """The diagonal rule."""
    @property
    def reachable(self) -> int:
        """How many cells reach the goal, the goal included."""
    def path_from(self, cell: CellLike) -> Optional[npt.NDArray[np.int64]]:
        """The path from ``cell`` to the goal, ``(n, 2)``; ``None`` when unreachable."""

class ScenarioReport:
    """The figures of a scenario run, as ``gridpath scen --json`` prints them."""

    @property
    def queries(self) -> int: ...
    @property
    def mismatches(self) -> int: ...
    @property
    def unchecked(self) -> int: ...
    @property
    def mismatched(self) -> list[dict[str, object]]: ...
    @property
    def costs(self) -> npt.NDArray[np.float64]: ...
    @property
    def total_ms(self) -> float: ...
    @property
    def expanded(self) -> int: ...
    @property
    def mean_ratio(self) -> float: ...
    @property
    def max_ratio(self) -> float: ...
    @property
    def jobs(self) -> int: ...
    @property
    def wall_ms(self) -> float: ...
    @property
    def queries_per_second(self) -> float: ...
    @property
    def preprocess_ms(self) -> Optional[float]: ...
    @property
    def algorithm(self) -> str: ...
    def __bool__(self) -> bool: ...

class TeamPlan:
    """A team's plan, as ``gridpath mapf --json`` reports it."""

    @property
    def solved(self) -> bool: ...
    @property
    def proof(self) -> str:
        """``optimal``, ``optimal-loss``, ``bounded``, ``feasible``, ``no-solution``,
        ``timed-out``, ``cancelled`` or ``gave-up``."""
    @property
    def stopped(self) -> str:
        """Why the solver stopped: ``time-limit``, ``memory-limit``, ``proved-optimal``,
        ``proved-bound``, ``plan-found``, ``searched-everything``, ``cancelled`` or
        ``gave-up``."""
    @property
    def bound(self) -> Optional[float]:
        """w for ``bounded``, 1 for ``optimal``, else ``None``."""
    @property
    def sum_of_costs(self) -> Optional[float]: ...
    @property
    def makespan(self) -> Optional[int]: ...
    @property
    def lower_bound(self) -> float:
        """The sum of each agent's cheapest cost alone."""
    @property
    def proved_lower_bound(self) -> Optional[float]:
        """The least sum of costs CBS, ECBS or EECBS proved every plan needs when it stopped."""
    @property
    def time(self) -> float: ...
    @property
    def first_plan_time(self) -> Optional[float]: ...
    @property
    def expanded(self) -> int: ...
    @property
    def costs(self) -> npt.NDArray[np.float64]: ...
    @property
    def arrivals(self) -> npt.NDArray[np.int64]: ...
    @property
    def positions(self) -> npt.NDArray[np.int64]:
        """Each agent's cell (x, y) at each tick: shape (makespan + 1, agents, 2)."""
    @property
    def algorithm(self) -> str: ...
    def __bool__(self) -> bool: ...

class Drive:
    """A path a round robot can drive, as ``gridpath drive`` plans it, or why there is none."""

    @property
    def found(self) -> bool: ...
    @property
    def reason(self) -> Optional[str]: ...
    @property
    def samples(self) -> npt.NDArray[np.float64]:
        """Shape (n, 3): x, y in cells and the heading in radians (clockwise, y down)."""
    @property
    def length(self) -> float: ...
    @property
    def cost(self) -> float: ...
    @property
    def least_clearance(self) -> Optional[float]: ...
    @property
    def least_turning_radius(self) -> Optional[float]: ...
    @property
    def pieces(self) -> list[Tuple[str, str, float]]: ...
    @property
    def narrowest(self) -> Optional[Tuple[Tuple[int, int], float]]: ...
    @property
    def expanded(self) -> int: ...
    def __bool__(self) -> bool: ...

class CrowdRun:
    """A crowd's run, as ``gridpath crowd --json`` reports it, with every position."""

    @property
    def positions(self) -> npt.NDArray[np.float64]:
        """Shape (steps + 1, units, 2), in cells, the start first."""
    @property
    def arrival_times(self) -> list[Optional[float]]: ...
    @property
    def all_arrived(self) -> bool: ...
    @property
    def time(self) -> float: ...
    @property
    def least_separation(self) -> Optional[float]:
        """The least centre distance over the radii sum after any step."""

class Map:
    """A grid of terrains with costs, optional heights, endpoints and world frame."""

    @staticmethod
    def load(
        path: StrPath,
        *,
        level: Optional[str] = None,
        layer: Optional[str] = None,
        palette: bool = False,
        threshold: Optional[float] = None,
        free_threshold: Optional[float] = None,
        negate: bool = False,
        heights: Optional[StrPath] = None,
        max_height: float = 10.0,
    ) -> Map:
        """Reads a .json, .map, .tmx, .tmj, .ldtk, image or ROS .yaml map."""
    @staticmethod
    def from_numpy(
        costs: npt.ArrayLike,
        heights: Optional[npt.ArrayLike] = None,
        names: Optional[Mapping[Optional[float], str]] = None,
        *,
        name: str = "map",
        resolution: Optional[float] = None,
        origin: Optional[Tuple[float, float, float]] = None,
        start: Optional[CellLike] = None,
        goal: Optional[CellLike] = None,
    ) -> Map:
        """A map from a ``(height, width)`` array of costs, ``inf``/``nan`` impassable."""
    def to_numpy(self) -> npt.NDArray[np.float64]:
        """Each cell's cost, ``(height, width)``, ``inf`` where impassable."""
    def terrain_ids(self) -> npt.NDArray[np.uint8]:
        """Each cell's terrain, an index into :attr:`terrains`."""
    def save(
        self,
        path: StrPath,
        *,
        resolution: Optional[float] = None,
        origin: Optional[Tuple[float, float, float]] = None,
    ) -> None:
        """Writes .json, .map, .tmj, .tmx, .png or a ROS .yaml."""
    @property
    def name(self) -> str: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def shape(self) -> Tuple[int, int]: ...
    @property
    def start(self) -> Optional[CellLike]: ...
    @property
    def goal(self) -> Optional[CellLike]: ...
    @property
    def waypoints(self) -> list[CellLike]: ...
    @property
    def resolution(self) -> Optional[float]: ...
    @property
    def origin(self) -> Optional[Tuple[float, float, float]]: ...
    @property
    def terrains(self) -> list[dict[str, object]]: ...
    @property
    def heights(self) -> Optional[npt.NDArray[np.float32]]: ...
    def find_path(
        self,
        start: Optional[CellLike] = None,
        goal: Optional[CellLike] = None,
        *,
        algorithm: str = "astar",
        diagonal: str = "no-cut",
        heuristic: Optional[str] = None,
        weight: float = 1.0,
        turn_penalty: float = 0.0,
        unit_size: int = 1,
        via: Optional[Iterable[CellLike]] = None,
        best_order: bool = False,
        patrol: bool = False,
        partial: bool = False,
        record: bool = False,
        smooth: bool = False,
        tension: float = 0.5,
        clearance: float = 0.25,
        min_turn_radius: float = 0.0,
        spacing: float = 0.25,
    ) -> Path:
        """Finds a path from ``start`` to ``goal``."""
    def find_paths(
        self,
        pairs: Union[Sequence[Tuple[CellLike, CellLike]], npt.ArrayLike],
        *,
        jobs: Optional[int] = None,
        algorithm: str = "astar",
        diagonal: str = "no-cut",
        heuristic: Optional[str] = None,
        weight: float = 1.0,
        turn_penalty: float = 0.0,
    ) -> list[Path]:
        """Answers many queries on ``jobs`` threads with the GIL released."""
    def flow_field(
        self, goal: Optional[CellLike] = None, *, diagonal: str = "no-cut"
    ) -> FlowField:
        """Every cell's cost and first step to ``goal``."""
    def solve_team(
        self,
        starts: Union[Sequence[CellLike], npt.NDArray[np.integer]],
        goals: Union[Sequence[CellLike], npt.NDArray[np.integer]],
        *,
        algorithm: str = "lacam",
        moves: int = 4,
        time_limit: float = 10.0,
        weight: float = 1.2,
        anytime: bool = False,
    ) -> TeamPlan:
        """Plans many units at once, none ever on one cell at one tick or swapping places."""
    def crowd(
        self,
        starts: Union[Sequence[CellLike], npt.NDArray[np.integer]],
        goals: Union[Sequence[CellLike], npt.NDArray[np.integer]],
        *,
        radius: float = 0.4,
        speed: float = 1.5,
        accel: float = 4.0,
        dt: float = 0.1,
        max_time: float = 600.0,
    ) -> CrowdRun:
        """Moves units as discs continuously, avoiding each other and the walls."""
    def drive(
        self,
        start: Tuple[float, float],
        goal: Tuple[float, float],
        *,
        robot_radius: float = 0.5,
        turning_radius: float = 1.0,
        start_yaw: Optional[float] = None,
        goal_yaw: Optional[float] = None,
        motion: str = "dubins",
        inflation_radius: Optional[float] = None,
        cost_scaling_factor: float = 3.0,
        cost_penalty: float = 2.0,
    ) -> Drive:
        """A path a round robot with a turning radius can drive (Hybrid A*, Dubins)."""
    def team_from_scenario(
        self, scen: StrPath, agents: Optional[int] = None
    ) -> Tuple[list[Tuple[int, int]], list[Tuple[int, int]]]:
        """The first ``agents`` agents of a Moving AI MAPF scenario, as ``(starts, goals)``."""

def run_scenario(
    map: Union[Map, StrPath],
    scen: StrPath,
    *,
    algorithm: str = "astar",
    heuristic: Optional[str] = None,
    weight: float = 1.0,
    limit: Optional[int] = None,
    jobs: int = 1,
) -> ScenarioReport:
    """Runs a Moving AI scenario and checks every cost against its optimum."""
