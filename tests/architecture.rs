//! The layering the README promises, checked by the machine: the engine crate depends on no
//! user interface or application crate, and its modules import each other without a circle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

mod common;
use common::root;

/// The packages of `Cargo.lock` and the names of the packages each depends on.
fn lock_graph() -> BTreeMap<String, Vec<String>> {
    let text = std::fs::read_to_string(root().join("Cargo.lock")).expect("Cargo.lock");
    let mut graph = BTreeMap::new();
    for block in text.split("[[package]]").skip(1) {
        let name = block
            .lines()
            .find_map(|l| l.strip_prefix("name = "))
            .expect("a package name")
            .trim_matches('"')
            .to_owned();
        let mut deps = Vec::new();
        if let Some(start) = block.find("dependencies = [") {
            let list = &block[start + "dependencies = [".len()..];
            let list = &list[..list.find(']').expect("the end of the list")];
            for entry in list.split(',') {
                let entry = entry.trim().trim_matches('"');
                if let Some(dep) = entry.split_whitespace().next() {
                    deps.push(dep.to_owned());
                }
            }
        }
        graph.entry(name).or_insert_with(Vec::new).extend(deps);
    }
    graph
}

#[test]
fn the_engine_crate_depends_on_no_interface_or_application_crate() {
    let graph = lock_graph();
    let mut seen = BTreeSet::new();
    let mut stack = vec!["gridpath-core".to_owned()];
    while let Some(package) = stack.pop() {
        if seen.insert(package.clone()) {
            stack.extend(graph.get(&package).cloned().unwrap_or_default());
        }
    }
    assert!(
        seen.contains("serde_json") && seen.contains("image"),
        "{seen:?}"
    );
    for forbidden in [
        "egui",
        "eframe",
        "rfd",
        "clap",
        "anyhow",
        "winit",
        "egui_file",
    ] {
        assert!(
            !seen.contains(forbidden),
            "gridpath-core reaches {forbidden} through its dependencies"
        );
    }
}

/// The module of each source file under `src`: `search::hpa` for `search/hpa.rs`, `search`
/// for `search/mod.rs`, and the empty name for `lib.rs`.
fn modules(src: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut folders = vec![src.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("a source folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path
                .strip_prefix(src)
                .expect("under src")
                .with_extension("");
            let mut parts: Vec<String> = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(
                parts.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                parts.pop();
            }
            let text = std::fs::read_to_string(&path).expect("a source file");
            // Unit tests may import what they test from anywhere; comments (doc links among
            // them) import nothing.
            let text = text.split("#[cfg(test)]").next().unwrap_or("");
            let text: String = text
                .lines()
                .filter(|line| !line.trim_start().starts_with("//"))
                .map(|line| format!("{line}\n"))
                .collect();
            out.insert(parts.join("::"), text);
        }
    }
    out
}

/// The modules each module imports (`crate::…`, `super::…`, `self::…` paths), leaving out
/// its own ancestors, whose re-exports every child may use.
fn imports(modules: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let mut edges = BTreeMap::new();
    for (module, text) in modules {
        let here: Vec<&str> = module.split("::").filter(|s| !s.is_empty()).collect();
        let mut targets = BTreeSet::new();
        for (i, _) in text.match_indices("::") {
            // The path this `::` belongs to, from its first segment.
            let before = &text[..i];
            let start = before
                .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .map_or(0, |p| p + 1);
            let end = text[i..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .map_or(text.len(), |p| i + p);
            let path: Vec<&str> = text[start..end].split("::").collect();
            let mut base: Vec<&str> = match path[0] {
                "crate" => Vec::new(),
                "super" | "self" => here.clone(),
                _ => continue,
            };
            let mut rest = &path[..];
            if rest[0] == "crate" {
                rest = &rest[1..];
            }
            while let Some((&first, tail)) = rest.split_first() {
                match first {
                    "super" => {
                        base.pop();
                    }
                    "self" => {}
                    _ => break,
                }
                rest = tail;
            }
            let mut target = None;
            for n in 0..=rest.len() {
                let candidate: Vec<&str> = base.iter().chain(&rest[..n]).copied().collect();
                let name = candidate.join("::");
                if modules.contains_key(&name) {
                    target = Some(name);
                }
            }
            if let Some(target) = target
                && target != *module
                && !module.starts_with(&format!("{target}::"))
                && !target.is_empty()
            {
                targets.insert(target);
            }
        }
        edges.insert(module.clone(), targets);
    }
    edges
}

/// Fails with the circle when modules import each other in one.
fn assert_no_circle(edges: &BTreeMap<String, BTreeSet<String>>) {
    if let Some(found) = circle(edges) {
        panic!(
            "modules import each other in a circle: {}",
            found.join(" → ")
        );
    }
}

/// A circle of imports, if there is one.
fn circle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(node.to_owned(), 1);
        path.push(node.to_owned());
        for next in edges.get(node).into_iter().flatten() {
            match state.get(next.as_str()) {
                Some(1) => {
                    let from = path.iter().position(|p| p == next).unwrap_or(0);
                    return Some(path[from..].to_vec());
                }
                Some(_) => {}
                None => {
                    if let Some(found) = visit(next, edges, state, path) {
                        return Some(found);
                    }
                }
            }
        }
        path.pop();
        state.insert(node.to_owned(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in edges.keys() {
        if !state.contains_key(node.as_str())
            && let Some(found) = visit(node, edges, &mut state, &mut Vec::new())
        {
            return Some(found);
        }
    }
    None
}

#[test]
fn the_engine_modules_import_each_other_without_a_circle() {
    let modules = modules(&root().join("crates/gridpath-core/src"));
    assert!(modules.contains_key("search::searcher") && modules.contains_key("grid"));
    let edges = imports(&modules);
    assert!(
        edges["search::searcher"].contains("search::algorithms"),
        "the reading of imports finds the searcher's use of the registry"
    );
    assert_no_circle(&edges);
}

#[test]
fn the_circle_finder_finds_a_circle() {
    let modules: BTreeMap<String, String> = [
        ("a".to_owned(), "use crate::b::Thing;".to_owned()),
        ("b".to_owned(), "use super::c::Other;".to_owned()),
        ("c".to_owned(), "fn f() { crate::a::g() }".to_owned()),
        ("d".to_owned(), "use crate::a;".to_owned()),
    ]
    .into_iter()
    .collect();
    let found = circle(&imports(&modules)).expect("a → b → c → a");
    assert_eq!(found.len(), 3, "{found:?}");
}

#[test]
fn the_editor_and_command_line_modules_import_each_other_without_a_circle() {
    let modules = modules(&root().join("src"));
    assert!(modules.contains_key("app::app") && modules.contains_key("cli"));
    let edges = imports(&modules);
    assert!(
        edges["app::app"].contains("app::history"),
        "the reading of imports finds the editor's use of its history"
    );
    assert_no_circle(&edges);
}
