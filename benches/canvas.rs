//! The editor's cost per frame on a 4096 × 4096 map, through the headless kittest harness:
//! idle frames at several zoom levels, and frames of a brush stroke in progress; and frames
//! of a team of 400 units playing back on the multi-agent benchmark's random-32-32-20.
//!
//! Run with `cargo bench --bench canvas`. The harness has no GPU renderer, so a frame here is
//! the editor's own work (layout, input, texture updates, shapes), not rasterisation.

use criterion::{Criterion, criterion_group, criterion_main};
use egui::{Modifiers, PointerButton};
use egui_kittest::Harness;
use gridpath::app::EditorApp;
use gridpath::grid::{Cell, Grid, Map, Terrain};

const SIDE: u32 = 4096;

/// A 4096 × 4096 map of bands of the four default terrains, so the texture is not uniform.
fn big_map() -> Map {
    let cells = (0..SIDE * SIDE)
        .map(|i| {
            let (x, y) = (i % SIDE, i / SIDE);
            (((x / 64) + (y / 96)) % 3) as u8
        })
        .collect();
    let grid = Grid::from_cells(SIDE, SIDE, Terrain::default_catalog(), cells)
        .expect("a valid 4096 × 4096 grid");
    Map::new("big", grid)
}

fn editor() -> Harness<'static, EditorApp> {
    let map = big_map();
    let mut harness = Harness::builder()
        .with_size([1280.0, 800.0])
        .build_eframe(move |_cc| EditorApp::with_map(map));
    harness.run_steps(3);
    harness
}

fn frames(c: &mut Criterion) {
    let mut h = editor();
    let mut group = c.benchmark_group("frame 4096x4096");
    for (name, zoom) in [
        ("fit", None),
        ("zoom 1", Some(1.0)),
        ("zoom 8 grid lines", Some(8.0)),
        ("zoom 32 grid lines", Some(32.0)),
    ] {
        match zoom {
            None => h.state_mut().fit_map(),
            Some(z) => h.state_mut().set_zoom(z),
        }
        h.step();
        group.bench_function(name, |b| b.iter(|| h.step()));
    }
    // Panning: a middle-button drag moving the view every frame.
    h.state_mut().set_zoom(2.0);
    let centre = h.state().screen_from_cell(Cell::new(SIDE / 2, SIDE / 2));
    h.hover_at(centre);
    h.event(egui::Event::PointerButton {
        pos: centre,
        button: PointerButton::Middle,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    h.step();
    let mut flip = false;
    group.bench_function("pan zoom 2", |b| {
        b.iter(|| {
            flip = !flip;
            let dx = if flip { 40.0 } else { -40.0 };
            h.hover_at(centre + egui::vec2(dx, 0.0));
            h.step();
        });
    });
    h.event(egui::Event::PointerButton {
        pos: centre,
        button: PointerButton::Middle,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    h.step();
    group.finish();
}

fn brush_stroke(c: &mut Criterion) {
    let mut h = editor();
    h.state_mut().set_zoom(1.0);
    h.step();
    // Brush size 16: the editor starts at 1, and each ] adds one.
    for _ in 0..15 {
        h.key_press(egui::Key::CloseBracket);
    }
    h.run_steps(20);
    let size = h.state().brush_size();
    let a = h
        .state()
        .screen_from_cell(Cell::new(SIDE / 2 - 150, SIDE / 2));
    let b = h
        .state()
        .screen_from_cell(Cell::new(SIDE / 2 + 150, SIDE / 2 + 60));
    h.hover_at(a);
    h.drag_at(a);
    h.step();
    h.step();
    let mut t = 0u32;
    let mut group = c.benchmark_group("brush stroke 4096x4096");
    group.bench_function(
        format!("frame painting 300 cells of brush {size}"),
        |bench| {
            bench.iter(|| {
                t += 1;
                let to = if t.is_multiple_of(2) { a } else { b };
                h.hover_at(to);
                h.step();
            });
        },
    );
    group.finish();
    h.drop_at(b);
    h.step();
    assert_eq!(h.state().undo_steps(), 1, "the stroke is one undo step");
}

/// 400 units of random-32-32-20's first scenario, planned by LaCAM and playing back.
fn agents_playback(c: &mut Criterion) {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/movingai/mapf");
    let map = folder.join("random-32-32-20.map");
    let scen = folder.join("random-32-32-20-random-1.scen");
    if !map.is_file() || !scen.is_file() {
        println!(
            "skipped the playback frames: {} is absent",
            folder.display()
        );
        return;
    }
    let map = gridpath::format::load_map(&map).expect("the benchmark map");
    let mut h = Harness::builder()
        .with_size([1280.0, 800.0])
        .build_eframe(move |_cc| EditorApp::with_map(map));
    h.run_steps(3);
    let agents = h.state_mut().agents_mut();
    agents.improve = false;
    agents.load_count = 400;
    assert!(h.state_mut().load_scenario_from(&scen));
    assert!(
        h.state_mut()
            .wait_for_agents(std::time::Duration::from_secs(60))
    );
    let makespan = h
        .state()
        .agents()
        .solved
        .as_ref()
        .map_or(0, gridpath::app::agents::Solved::makespan);
    assert!(makespan > 0, "a plan to play");
    h.state_mut().agents_mut().playback.playing = true;
    h.state_mut().agents_mut().playback.looping = true;
    h.step();
    let mut group = c.benchmark_group("agents playback");
    group.bench_function("frame of 400 units moving on random-32-32-20", |b| {
        b.iter(|| h.step());
    });
    group.finish();
}

criterion_group! {
    name = canvas;
    config = Criterion::default().sample_size(30);
    targets = frames, brush_stroke, agents_playback
}
criterion_main!(canvas);
