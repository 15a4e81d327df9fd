//! LDtk projects (`.ldtk`): one level's IntGrid layer read as a map. Levels saved in their
//! own files (`externalLevels`) are read from the `.ldtkl` file beside the project. Only the
//! fields gridpath needs are modelled; the others are ignored.

use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;

use super::catalog::{self, TerrainSpec};
use super::tiled::check_size;
use super::{LevelError, LevelImport, LevelOptions, TerrainSource, read_beside};
use crate::format::FormatError;
use crate::grid::{Cell, Grid, Map, TerrainId};

#[derive(Deserialize)]
struct Project {
    #[serde(default, rename = "externalLevels")]
    external_levels: bool,
    defs: Definitions,
    levels: Vec<Level>,
}

#[derive(Deserialize)]
struct Definitions {
    #[serde(default)]
    layers: Vec<LayerDefinition>,
}

#[derive(Deserialize)]
struct LayerDefinition {
    uid: i64,
    #[serde(default, rename = "intGridValues")]
    int_grid_values: Vec<IntGridValue>,
}

#[derive(Deserialize)]
struct IntGridValue {
    value: i64,
    #[serde(default)]
    identifier: Option<String>,
    #[serde(default)]
    color: Option<String>,
}

#[derive(Deserialize)]
struct Level {
    identifier: String,
    #[serde(default, rename = "externalRelPath")]
    external_rel_path: Option<String>,
    #[serde(default, rename = "layerInstances")]
    layer_instances: Option<Vec<LayerInstance>>,
}

#[derive(Deserialize)]
struct LayerInstance {
    #[serde(rename = "__identifier")]
    identifier: String,
    #[serde(rename = "__type")]
    kind: String,
    #[serde(rename = "__cWid")]
    c_wid: u64,
    #[serde(rename = "__cHei")]
    c_hei: u64,
    #[serde(rename = "layerDefUid")]
    layer_def_uid: i64,
    #[serde(default, rename = "intGridCsv")]
    int_grid_csv: Vec<i64>,
    #[serde(default, rename = "entityInstances")]
    entity_instances: Vec<EntityInstance>,
}

#[derive(Deserialize)]
struct EntityInstance {
    #[serde(rename = "__identifier")]
    identifier: String,
    #[serde(rename = "__grid")]
    grid: [i64; 2],
}

/// The terrains of an IntGrid layer's values, in the order met.
#[derive(Default)]
struct Values {
    specs: Vec<TerrainSpec>,
    of_value: HashMap<i64, TerrainId>,
}

impl Values {
    /// Adds the terrain of a value not met before; its id.
    fn add(&mut self, value: i64, spec: TerrainSpec) -> Result<TerrainId, LevelError> {
        if let Some(&id) = self.of_value.get(&value) {
            return Ok(id);
        }
        if self.specs.len() >= catalog::MAX_TERRAINS {
            return Err(LevelError::TooManyTerrains(self.specs.len() + 1));
        }
        let id = self.specs.len() as TerrainId;
        self.specs.push(spec);
        self.of_value.insert(value, id);
        Ok(id)
    }
}

/// Whether an IntGrid value's identifier names something impassable.
pub fn is_solid_name(identifier: &str) -> bool {
    let lower = identifier.to_ascii_lowercase();
    ["wall", "solid", "stone", "dirt", "collision"]
        .iter()
        .any(|w| lower.contains(w))
}

fn is_collision_layer(identifier: &str) -> bool {
    let lower = identifier.to_ascii_lowercase();
    lower.contains("collision")
}

fn json<T: for<'de> Deserialize<'de>>(text: &str) -> Result<T, FormatError> {
    serde_json::from_str(text).map_err(|e| {
        let message = e.to_string();
        let message = match message.rfind(" at line ") {
            Some(i) => message[..i].to_owned(),
            None => message,
        };
        FormatError::Json {
            line: e.line(),
            column: e.column(),
            message,
        }
    })
}

/// Reads one level of a project; `folder` holds the project, `name` names the map.
pub fn read(
    text: &str,
    folder: &Path,
    name: &str,
    options: &LevelOptions,
) -> Result<LevelImport, FormatError> {
    let project: Project = json(text)?;
    let levels: Vec<String> = project
        .levels
        .iter()
        .map(|l| l.identifier.clone())
        .collect();
    let level = match &options.level {
        Some(wanted) => project
            .levels
            .iter()
            .find(|l| &l.identifier == wanted)
            .or_else(|| {
                project
                    .levels
                    .iter()
                    .find(|l| l.identifier.eq_ignore_ascii_case(wanted))
            })
            .ok_or_else(|| LevelError::NoSuchLevel {
                wanted: wanted.clone(),
                available: levels.clone(),
            })?,
        None => project
            .levels
            .first()
            .ok_or_else(|| LevelError::Empty("the project has no levels".to_owned()))?,
    };
    let place = format!("level {:?}", level.identifier);
    let external: Level;
    let level = match (&level.layer_instances, &level.external_rel_path) {
        (Some(_), _) => level,
        (None, Some(relative)) if project.external_levels || level.layer_instances.is_none() => {
            let (path, text) = read_beside(folder, relative)?;
            external = json(&text).map_err(|e| LevelError::External {
                path,
                message: e.to_string(),
            })?;
            &external
        }
        (None, _) => {
            return Err(LevelError::Field {
                place,
                message: "has no layer instances and no external level file".to_owned(),
            }
            .into());
        }
    };
    let instances = level.layer_instances.as_deref().unwrap_or_default();
    let grids: Vec<&LayerInstance> = instances.iter().filter(|l| l.kind == "IntGrid").collect();
    let layers: Vec<String> = grids.iter().map(|l| l.identifier.clone()).collect();
    let layer = match &options.layer {
        Some(wanted) => grids
            .iter()
            .find(|l| &l.identifier == wanted)
            .or_else(|| {
                grids
                    .iter()
                    .find(|l| l.identifier.eq_ignore_ascii_case(wanted))
            })
            .ok_or_else(|| LevelError::NoSuchLayer {
                wanted: wanted.clone(),
                available: layers.clone(),
            })?,
        None => grids
            .iter()
            .find(|l| is_collision_layer(&l.identifier))
            .or_else(|| grids.first())
            .ok_or_else(|| LevelError::Empty(format!("{place} has no IntGrid layer")))?,
    };
    let layer_place = format!("{place}, layer {:?}", layer.identifier);
    check_size(layer.c_wid, layer.c_hei).map_err(|e| LevelError::Field {
        place: layer_place.clone(),
        message: e.to_string(),
    })?;
    let (width, height) = (layer.c_wid as u32, layer.c_hei as u32);
    let count = width as usize * height as usize;
    if layer.int_grid_csv.len() != count {
        return Err(LevelError::Field {
            place: layer_place,
            message: format!(
                "intGridCsv holds {} values, expected {count} ({width} × {height})",
                layer.int_grid_csv.len()
            ),
        }
        .into());
    }
    let definition = project
        .defs
        .layers
        .iter()
        .find(|d| d.uid == layer.layer_def_uid);
    let values = definition.map_or(&[][..], |d| &d.int_grid_values[..]);

    // The floor (value 0) when a cell is empty, then each defined value in order, then any
    // value used but not defined.
    let mut terrains = Values::default();
    if layer.int_grid_csv.contains(&0) {
        terrains.add(0, TerrainSpec::floor())?;
    }
    for v in values {
        let name = v
            .identifier
            .clone()
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| format!("value {}", v.value));
        let solid = is_solid_name(&name);
        terrains.add(
            v.value,
            TerrainSpec {
                cost: if solid { None } else { Some(1.0) },
                color: v.color.as_deref().and_then(catalog::parse_color),
                symbol: None,
                source: TerrainSource::IntGrid {
                    layer: layer.identifier.clone(),
                    value: v.value,
                },
                name,
            },
        )?;
    }
    let mut cells = Vec::with_capacity(count);
    for &value in &layer.int_grid_csv {
        let id = match terrains.of_value.get(&value) {
            Some(&id) => id,
            None => terrains.add(
                value,
                TerrainSpec {
                    name: format!("value {value}"),
                    cost: Some(1.0),
                    color: None,
                    symbol: None,
                    source: TerrainSource::IntGrid {
                        layer: layer.identifier.clone(),
                        value,
                    },
                },
            )?,
        };
        cells.push(id);
    }
    let (catalog, sources) = catalog::terrains(terrains.specs)?;
    let grid = Grid::from_cells(width, height, catalog, cells)?;
    let mut map = Map::new(name, grid);
    let marker = |which: &str| {
        instances
            .iter()
            .flat_map(|l| &l.entity_instances)
            .find(|e| e.identifier.eq_ignore_ascii_case(which))
            .and_then(|e| {
                let [x, y] = e.grid;
                map.grid
                    .contains(x, y)
                    .then(|| Cell::new(x as u32, y as u32))
            })
    };
    let (start, goal) = (marker("start"), marker("goal"));
    map.start = start;
    map.goal = goal;
    Ok(LevelImport {
        map,
        levels,
        level: Some(level.identifier.clone()),
        layers,
        layer: Some(layer.identifier.clone()),
        sources,
    })
}
