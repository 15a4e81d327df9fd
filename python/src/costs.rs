//! Cost arrays and grids: one terrain per distinct cost of a numpy array, and back.

use std::collections::{BTreeSet, HashMap};

use gridpath_core::grid::{Grid, Rgb, Terrain, TerrainId};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::args;
use crate::errors;

/// The symbols given to the terrains of a map built from an array, after `.` for cost 1 and
/// `#` for impassable cells: printable ASCII, then Latin letters.
fn symbol(index: usize) -> char {
    const ASCII: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789=~+-*%&@$^!?:;,<>()[]{}|/_'`";
    ASCII.chars().nth(index).unwrap_or_else(|| {
        let offset = u32::try_from(index - ASCII.len()).unwrap_or_default();
        char::from_u32(0x100 + offset).unwrap_or('?')
    })
}

/// Reads an array's shape as a grid's (height, width).
pub fn grid_size(shape: &[usize]) -> PyResult<(u32, u32)> {
    let [rows, columns] = shape else {
        return Err(errors::map(format!(
            "expected a 2-D array (rows, columns), got {} dimensions",
            shape.len()
        )));
    };
    let too_large = || {
        errors::map(format!(
            "the array is {rows} × {columns}; each side must be between 1 and {}",
            Grid::MAX_SIDE
        ))
    };
    let height = u32::try_from(*rows).map_err(|_| too_large())?;
    let width = u32::try_from(*columns).map_err(|_| too_large())?;
    Ok((height, width))
}

/// The terrain names given by `names`, a mapping from a cost (or `inf`, `nan` or `None` for
/// impassable cells) to a name.
pub fn terrain_names(names: Option<&Bound<'_, PyAny>>) -> PyResult<HashMap<u64, String>> {
    let mut out = HashMap::new();
    let Some(names) = names.filter(|n| !n.is_none()) else {
        return Ok(out);
    };
    let names = names
        .cast::<PyDict>()
        .map_err(|_| args::wrong_type(names, "names", "a dict {cost: name}"))?;
    for (key, value) in names.iter() {
        let cost = if key.is_none() {
            f64::INFINITY
        } else {
            key.extract::<f64>().map_err(|_| {
                errors::argument_type(format!(
                    "names: the key {} is not a cost (a number, or inf or None for impassable cells)",
                    args::shown(&key)
                ))
            })?
        };
        let name: String = value.extract().map_err(|_| {
            errors::argument_type(format!(
                "names: the name of cost {cost} is not a string: {}",
                args::shown(&value)
            ))
        })?;
        let cost = if cost.is_finite() {
            cost
        } else {
            f64::INFINITY
        };
        out.insert(cost.to_bits(), name);
    }
    Ok(out)
}

/// Builds the terrain grid of a cost array: one terrain per distinct cost, cheapest first,
/// then one impassable terrain.
pub fn grid_from_costs(
    costs: numpy::ndarray::ArrayView2<'_, f64>,
    names: &HashMap<u64, String>,
) -> PyResult<Grid> {
    let (height, width) = grid_size(costs.shape())?;
    let mut distinct = BTreeSet::new();
    let mut walls = false;
    for ((y, x), &cost) in costs.indexed_iter() {
        if !cost.is_finite() {
            walls = true;
            continue;
        }
        Terrain::check_cost(cost).map_err(|message| {
            errors::raise::<errors::MapError>(
                &format!("cell ({x}, {y}): {message}; inf or nan makes a cell impassable"),
                None,
                Some(format!("cell ({x}, {y})")),
            )
        })?;
        // Positive floats sort as their bits do.
        distinct.insert(cost.to_bits());
        if distinct.len() > 256 - usize::from(walls) {
            return Err(errors::map(
                "more than 255 distinct costs: a map holds at most 256 terrains (one of them impassable); round the costs",
            ));
        }
    }
    if distinct.len() + usize::from(walls) > 256 {
        return Err(errors::map(
            "more than 255 distinct costs: a map holds at most 256 terrains (one of them impassable); round the costs",
        ));
    }
    let count = distinct.len().max(1);
    let mut terrains = Vec::with_capacity(count + 1);
    let mut ids = HashMap::with_capacity(count);
    let mut others = 0;
    for (rank, &bits) in distinct.iter().enumerate() {
        let cost = f64::from_bits(bits);
        let sym = if cost == 1.0 {
            '.'
        } else {
            others += 1;
            symbol(others - 1)
        };
        let shade = 235 - (170 * rank / count.max(2).saturating_sub(1).max(1)).min(170) as u8;
        let name = names
            .get(&bits)
            .cloned()
            .unwrap_or_else(|| format!("cost {cost}"));
        ids.insert(bits, terrains.len() as TerrainId);
        terrains.push(Terrain::passable(
            &name,
            sym,
            Rgb([shade, shade, shade]),
            cost,
        ));
    }
    let wall = terrains.len() as TerrainId;
    let wall_name = names
        .get(&f64::INFINITY.to_bits())
        .cloned()
        .unwrap_or_else(|| "Wall".to_owned());
    terrains.push(Terrain::impassable(
        &wall_name,
        '#',
        Rgb([0x22, 0x22, 0x22]),
    ));
    let cells: Vec<TerrainId> = costs
        .iter()
        .map(|&cost| {
            if cost.is_finite() {
                ids.get(&cost.to_bits()).copied().unwrap_or(wall)
            } else {
                wall
            }
        })
        .collect();
    Grid::from_cells(width, height, terrains, cells).map_err(|e| errors::grid(&e))
}
