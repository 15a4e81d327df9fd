//! LDtk projects (`.ldtk`): one level's IntGrid layer read as a map. Levels saved in their
//! own files (`externalLevels`) are read from the `.ldtkl` file beside the project. Only the
//! fields gridpath needs are modelled; the others are ignored.

use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;

use super::catalog::{self, TerrainSpec};
use super::tiled::check_size;
use super::tsj::json;
use super::{LevelError, LevelImport, LevelOptions, TerrainSource, read_beside};
use crate::format::FormatError;
use crate::grid::{Cell, Grid, Map, TerrainId};

#[derive(Deserialize)]
struct Project {
    #[serde(default, rename = "externalLevels")]
    external_levels: bool,
    defs: Definitions,
    #[serde(default)]
    levels: Vec<Level>,
    /// Projects with several worlds keep their levels here instead.
    #[serde(default)]
    worlds: Vec<World>,
}

#[derive(Deserialize)]
struct World {
    #[serde(default)]
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

/// Reads one level of a project; `folder` holds the project, `name` names the map.
pub fn read(
    text: &str,
    folder: &Path,
    name: &str,
    options: &LevelOptions,
) -> Result<LevelImport, FormatError> {
    let mut project: Project = json(text)?;
    if project.levels.is_empty() {
        project.levels = std::mem::take(&mut project.worlds)
            .into_iter()
            .flat_map(|w| w.levels)
            .collect();
    }
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
        pictures: vec![None; sources.len()],
        sources,
    })
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::PathBuf;

    use super::super::{LevelOptions, TerrainSource, read_level};
    use crate::grid::{Cell, Rgb};

    /// A project of two levels; values 7 ("water") and 3 ("Walls") are defined in that order.
    fn project(external: bool) -> String {
        let level = |name: &str, csv: &str| {
            format!(
                r#"{{"identifier": "{name}", "uid": 1, "layerInstances": [
      {{"__identifier": "Entities", "__type": "Entities", "__cWid": 3, "__cHei": 2, "__gridSize": 16,
        "layerDefUid": 2, "intGridCsv": [], "entityInstances": [
          {{"__identifier": "Start", "__grid": [0, 1]}}, {{"__identifier": "GOAL", "__grid": [2, 0]}}]}},
      {{"__identifier": "Decor", "__type": "IntGrid", "__cWid": 3, "__cHei": 2, "__gridSize": 16,
        "layerDefUid": 1, "intGridCsv": [7, 7, 7, 7, 7, 7], "entityInstances": []}},
      {{"__identifier": "Collisions", "__type": "IntGrid", "__cWid": 3, "__cHei": 2, "__gridSize": 16,
        "layerDefUid": 1, "intGridCsv": {csv}, "entityInstances": []}}]}}"#
            )
        };
        let levels = if external {
            r#"{"identifier": "First", "externalRelPath": "p/First.ldtkl", "layerInstances": null}"#
                .to_owned()
        } else {
            format!(
                "{}, {}",
                level("First", "[3, 0, 7, 0, 0, 3]"),
                level("Second", "[0, 0, 0, 0, 0, 0]")
            )
        };
        if external {
            return format!(
                r##"{{"jsonVersion": "1.5.3", "externalLevels": true,
  "defs": {{"layers": [{{"uid": 1, "identifier": "Collisions", "intGridValues": [
    {{"value": 7, "identifier": "water", "color": "#0000FF"}}, {{"value": 3, "identifier": "Walls", "color": "#B86F50"}}]}}]}},
  "levels": [{levels}]}}
@@{}"##,
                level("First", "[3, 0, 7, 0, 0, 3]")
            );
        }
        format!(
            r##"{{"jsonVersion": "1.5.3", "externalLevels": false, "extra": {{"ignored": true}},
  "defs": {{"layers": [{{"uid": 1, "identifier": "Collisions", "intGridValues": [
    {{"value": 7, "identifier": "water", "color": "#0000FF"}}, {{"value": 3, "identifier": "Walls", "color": "#B86F50"}}]}}]}},
  "levels": [{levels}]}}"##
        )
    }

    fn write(dir: &std::path::Path, external: bool) -> PathBuf {
        let path = dir.join("world.ldtk");
        let text = project(external);
        match text.split_once("@@") {
            Some((main, level)) => {
                fs::create_dir_all(dir.join("p")).unwrap();
                fs::write(dir.join("p/First.ldtkl"), level).unwrap();
                fs::write(&path, main).unwrap();
            }
            None => fs::write(&path, text).unwrap(),
        }
        path
    }

    #[test]
    fn values_are_read_by_value_not_index_with_names_colours_and_markers() {
        let dir = tempfile::tempdir().unwrap();
        for external in [false, true] {
            let import =
                read_level(&write(dir.path(), external), &LevelOptions::default()).unwrap();
            let grid = &import.map.grid;
            let t: Vec<(&str, Option<f64>, Rgb)> = grid
                .terrains()
                .iter()
                .map(|t| (t.name.as_str(), t.cost, t.color))
                .collect();
            assert_eq!(
                t,
                [
                    ("floor", Some(1.0), Rgb([0xd8, 0xd8, 0xd0])),
                    ("water", Some(1.0), Rgb([0, 0, 0xff])),
                    ("Walls", None, Rgb([0xb8, 0x6f, 0x50])),
                ]
            );
            assert_eq!(grid.cells(), [2, 0, 1, 0, 0, 2]);
            assert_eq!(
                import.sources[1],
                TerrainSource::IntGrid {
                    layer: "Collisions".to_owned(),
                    value: 7
                }
            );
            assert_eq!(import.layer.as_deref(), Some("Collisions"));
            assert_eq!(import.layers, ["Decor", "Collisions"]);
            assert_eq!(import.level.as_deref(), Some("First"));
            assert_eq!(
                (import.map.start, import.map.goal),
                (Some(Cell::new(0, 1)), Some(Cell::new(2, 0)))
            );
        }
    }

    #[test]
    fn a_level_and_layer_are_chosen_by_name_and_unknown_ones_listed() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), false);
        let options = |level: Option<&str>, layer: Option<&str>| LevelOptions {
            level: level.map(str::to_owned),
            layer: layer.map(str::to_owned),
        };
        let second = read_level(&path, &options(Some("second"), None)).unwrap();
        assert_eq!(second.levels, ["First", "Second"]);
        assert_eq!(second.map.grid.cells(), [0; 6]);
        let decor = read_level(&path, &options(None, Some("Decor"))).unwrap();
        assert_eq!(
            decor.map.grid.terrains()[decor.map.grid.cells()[0] as usize].name,
            "water"
        );
        let e = read_level(&path, &options(Some("Third"), None)).unwrap_err();
        assert!(
            e.to_string()
                .contains("no level \"Third\": the levels are \"First\", \"Second\""),
            "{e}"
        );
        let e = read_level(&path, &options(None, Some("Entities"))).unwrap_err();
        assert!(e.to_string().contains("no layer \"Entities\""), "{e}");
    }

    #[test]
    fn the_levels_of_a_multi_world_project_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("worlds.ldtk");
        let text = project(false).replacen(
            "\"levels\": [",
            "\"levels\": [], \"worlds\": [{\"levels\": [",
            1,
        );
        let text = format!(
            "{}]}}]}}",
            text.trim_end()
                .trim_end_matches('}')
                .trim_end()
                .trim_end_matches(']')
        );
        fs::write(&path, text).unwrap();
        let import = read_level(&path, &LevelOptions::default()).unwrap();
        assert_eq!(import.levels, ["First", "Second"]);
        assert_eq!(import.map.grid.cells(), [2, 0, 1, 0, 0, 2]);
    }

    #[test]
    fn a_wrong_count_or_size_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.ldtk");
        fs::write(
            &path,
            project(false).replace("[3, 0, 7, 0, 0, 3]", "[3, 0]"),
        )
        .unwrap();
        let e = read_level(&path, &LevelOptions::default()).unwrap_err();
        assert!(
            e.to_string().contains(
                "level \"First\", layer \"Collisions\": intGridCsv holds 2 values, expected 6"
            ),
            "{e}"
        );
        fs::write(
            &path,
            project(false).replace("\"__cWid\": 3", "\"__cWid\": 100000"),
        )
        .unwrap();
        let e = read_level(&path, &LevelOptions::default()).unwrap_err();
        assert!(e.to_string().contains("100000 × 2"), "{e}");
        // A missing external level file is named.
        let path = write(dir.path(), true);
        fs::remove_file(dir.path().join("p/First.ldtkl")).unwrap();
        let e = read_level(&path, &LevelOptions::default()).unwrap_err();
        assert!(e.to_string().contains("First.ldtkl"), "{e}");
    }

    #[test]
    fn the_sample_project_reads() {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/samples/ldtk/AutoLayers_1_basic.ldtk");
        if !path.is_file() {
            crate::test_data::skip(
                "../shared/samples/ldtk is absent, so the LDtk sample was not read",
            );
            return;
        }
        let import = read_level(&path, &LevelOptions::default()).unwrap();
        let grid = &import.map.grid;
        assert_eq!((grid.width(), grid.height()), (37, 26));
        let names: Vec<&str> = grid.terrains().iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["floor", "walls"]);
        assert!(!grid.terrains()[1].is_passable());
        assert_eq!(grid.terrains()[1].color, Rgb([0xb8, 0x6f, 0x50]));
        assert_eq!(import.layers, ["IntGrid_layer"]);
        assert_eq!(import.levels, ["AutoLayer"]);
        let walls = grid.cells().iter().filter(|&&c| c == 1).count();
        assert_eq!(walls, 484);
    }
}
