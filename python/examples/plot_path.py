"""Plots a map, the cells an A* search explored, its grid path and the smoothed path.

    python python/examples/plot_path.py [MAP] [OUTPUT.png]

MAP defaults to the project's maps/default.json (with its own start and goal), OUTPUT to
docs/python-example.png. Needs matplotlib (pip install matplotlib).
"""

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # draw to a file, no window
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import ListedColormap

import gridpath

ROOT = Path(__file__).resolve().parents[2]


def main():
    map_path = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "maps" / "default.json"
    output = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "docs" / "python-example.png"

    m = gridpath.Map.load(map_path)
    path = m.find_path(record=True, smooth=True)  # the map's own start and goal
    print(path)

    # The terrains in their own colours: terrain_ids() indexes m.terrains, [y, x].
    colours = ListedColormap([t["color"] for t in m.terrains])
    fig, ax = plt.subplots(figsize=(9, 6.5), dpi=100)
    ax.imshow(
        m.terrain_ids(),
        cmap=colours,
        vmin=-0.5,
        vmax=len(m.terrains) - 0.5,
        interpolation="nearest",
        extent=(0, m.width, m.height, 0),  # cell (x, y) covers [x, x+1) × [y, y+1)
    )
    # The cells the search expanded, as a light veil.
    explored = np.zeros(m.shape)
    explored[path.explored[:, 1], path.explored[:, 0]] = 1.0
    ax.imshow(
        np.ma.masked_equal(explored, 0),
        cmap=ListedColormap(["white"]),
        alpha=0.35,
        interpolation="nearest",
        extent=(0, m.width, m.height, 0),
    )
    centres = path.cells + 0.5
    ax.plot(centres[:, 0], centres[:, 1], ".-", color="#d62728", lw=1, ms=3, label="grid path")
    samples = path.samples  # (x, y, heading, s), continuous cell coordinates
    ax.plot(samples[:, 0], samples[:, 1], color="#1f3fbf", lw=2.2, label="smoothed path")
    (sx, sy), (gx, gy) = path.start, path.goal
    ax.plot([sx + 0.5], [sy + 0.5], "o", color="white", mec="black", ms=9, label="start")
    ax.plot([gx + 0.5], [gy + 0.5], "*", color="gold", mec="black", ms=14, label="goal")
    ax.set_title(
        f"{m.name}: A* expanded {path.stats['expanded']} cells; "
        f"cost {path.cost:.2f} ({path.optimality}), smoothed curve {path.smoothed['curve_length']:.1f} cells"
    )
    legend = ax.legend(loc="lower left", fontsize=8, framealpha=0.9)
    legend.get_frame().set_edgecolor("black")
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    fig.tight_layout()
    output.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(output)
    print(f"wrote {output}")


if __name__ == "__main__":
    main()
