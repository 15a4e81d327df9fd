//! The units on the canvas: coloured discs moving along their plans with short trails, goal
//! flags, the selected unit's whole path with its waits, and collisions in red.

use egui::epaint::PathShape;
use egui::{Color32, FontId, Painter, Pos2, Stroke, Vec2};

use crate::grid::Cell;
use crate::mapf::PlanError;

use super::playback::{self, position};
use super::{Agents, Solved};
use crate::app::canvas::canvas::Canvas;

/// The colour of unit `i`: hues spread by the golden angle, so neighbours in the list differ.
pub fn unit_colour(i: usize) -> Color32 {
    let hue = (i as f32 * 0.618_034).fract();
    egui::ecolor::Hsva::new(hue, 0.72, 0.95, 1.0).into()
}

/// The red of collisions.
pub const CONFLICT: Color32 = Color32::from_rgb(235, 40, 40);

/// Draws the team: with a plan, the units where the timeline stands; without, each unit's
/// start joined to its goal.
pub fn paint_agents(painter: &Painter, canvas: &Canvas, agents: &Agents) {
    if agents.team.is_empty() && agents.solved.is_none() {
        return;
    }
    let radius = unit_radius(canvas.zoom());
    let to_screen = |p: Pos2| canvas.screen_from_cell(p);
    let centre = |c: Cell| canvas.screen_from_cell_center(c);
    let clip = painter.clip_rect().expand(radius * 2.0);
    let faded = if agents.stale { 0.45 } else { 1.0 };
    match agents.solved.as_ref().filter(|s| s.plan().is_some()) {
        None => {
            // Flags first, so that no flag covers a unit.
            for (i, a) in agents.team.iter().enumerate() {
                let colour = unit_colour(i);
                let (s, g) = (centre(a.start), centre(a.goal));
                painter.line_segment([s, g], Stroke::new(1.0, colour.gamma_multiply(0.35)));
                goal_flag(painter, g, radius, colour);
            }
            for (i, a) in agents.team.iter().enumerate() {
                disc(
                    painter,
                    centre(a.start),
                    radius,
                    unit_colour(i),
                    false,
                    None,
                );
            }
        }
        Some(solved) => {
            let Some(plan) = solved.plan() else { return };
            let tick = agents.playback.tick;
            let now = agents.playback.whole_tick();
            if let Some(i) = agents.selected
                && let Some(path) = plan.paths.get(i)
            {
                selected_path(painter, canvas, path, unit_colour(i));
            }
            // Each unit where the timeline stands, unless it is hidden once arrived.
            let mut shown: Vec<(usize, Pos2)> = plan
                .paths
                .iter()
                .enumerate()
                .filter(|&(i, _)| {
                    let arrival = solved.summary.as_ref().and_then(|s| s.arrivals.get(i));
                    let arrived = arrival.is_some_and(|&a| (a as f32) <= tick);
                    !(arrived && agents.playback.hide_arrived)
                })
                .filter_map(|(i, path)| Some((i, to_screen(position(path, tick)?))))
                .collect();
            // Beneath the units: the goal flags of the units still shown, then the trails.
            for &(i, _) in &shown {
                if let Some(goal) = plan.paths[i].last() {
                    let g = centre(*goal);
                    if clip.contains(g) {
                        goal_flag(painter, g, radius, unit_colour(i).gamma_multiply(faded));
                    }
                }
            }
            shown.retain(|(_, here)| clip.contains(*here));
            if agents.playback.trail > 0 {
                for &(i, here) in &shown {
                    let path = &plan.paths[i];
                    let first = now.saturating_sub(agents.playback.trail as usize);
                    let mut points: Vec<Pos2> = (first..=now)
                        .filter_map(|t| playback::cell_at(path, t))
                        .map(centre)
                        .collect();
                    points.push(here);
                    points.dedup();
                    if points.len() > 1 {
                        let colour = unit_colour(i).gamma_multiply(faded * 0.45);
                        let stroke = Stroke::new((radius * 0.5).max(1.0), colour);
                        painter.add(PathShape::line(points, stroke));
                    }
                }
            }
            for &(i, here) in &shown {
                let colour = unit_colour(i).gamma_multiply(faded);
                disc(
                    painter,
                    here,
                    radius,
                    colour,
                    agents.selected == Some(i),
                    Some(i + 1),
                );
            }
            conflicts(painter, canvas, solved, tick, radius);
        }
    }
}

/// The radius of a unit's disc, ring included, at `zoom` pixels a cell: 0.34 of a cell, so
/// that two units moving legally between neighbouring cells never seem to touch (halfway
/// through a turn, four-connected units' centres are √½ ≈ 0.71 of a cell apart).
pub fn unit_radius(zoom: f32) -> f32 {
    (0.34 * zoom).clamp(1.5, 40.0)
}

/// One unit's disc with its ring drawn inside its edge, and its number (from 1) when there is
/// room for it.
fn disc(
    painter: &Painter,
    here: Pos2,
    radius: f32,
    colour: Color32,
    selected: bool,
    number: Option<usize>,
) {
    let ring = if selected {
        Stroke::new(2.5, Color32::WHITE)
    } else {
        Stroke::new(1.0, Color32::from_black_alpha(200))
    };
    let width = ring.width.min(radius);
    painter.circle_filled(here, radius, colour);
    painter.circle_stroke(here, radius - width / 2.0, Stroke::new(width, ring.color));
    if let Some(number) = number
        && radius >= 8.0
    {
        painter.text(
            here,
            egui::Align2::CENTER_CENTER,
            number.to_string(),
            FontId::proportional((radius * 0.95).min(14.0)),
            Color32::BLACK,
        );
    }
}

/// A small flag on the goal's centre: a pole and a pennant of the unit's colour.
fn goal_flag(painter: &Painter, at: Pos2, radius: f32, colour: Color32) {
    let h = (radius * 1.6).max(5.0);
    let foot = at + Vec2::new(-radius * 0.3, radius * 0.7);
    let top = foot - Vec2::new(0.0, h);
    painter.line_segment([foot, top], Stroke::new(1.2, Color32::from_gray(30)));
    let pennant = vec![
        top,
        top + Vec2::new(h * 0.7, h * 0.22),
        top + Vec2::new(0.0, h * 0.45),
    ];
    painter.add(egui::Shape::convex_polygon(
        pennant,
        colour,
        Stroke::new(0.8, Color32::from_gray(30)),
    ));
}

/// The selected unit's whole path, with a ring and the count where it waits.
fn selected_path(painter: &Painter, canvas: &Canvas, path: &[Cell], colour: Color32) {
    let centre = |c: Cell| canvas.screen_from_cell_center(c);
    let mut points: Vec<Pos2> = path.iter().map(|&c| centre(c)).collect();
    points.dedup();
    if points.len() > 1 {
        painter.add(PathShape::line(
            points.clone(),
            Stroke::new(5.0, Color32::from_black_alpha(150)),
        ));
        painter.add(PathShape::line(points, Stroke::new(2.5, colour)));
    }
    let zoom = canvas.zoom();
    let mut t = 0;
    while t + 1 < path.len() {
        let mut waits = 0;
        while t + 1 < path.len() && path[t + 1] == path[t] {
            waits += 1;
            t += 1;
        }
        // Waits on the goal at the end are the unit resting there, not waiting.
        if waits > 0 && t + 1 < path.len() {
            let at = centre(path[t]);
            painter.circle_stroke(at, (0.3 * zoom).max(4.0), Stroke::new(1.5, Color32::WHITE));
            painter.text(
                at + Vec2::new((0.35 * zoom).max(5.0), -(0.35 * zoom).max(5.0)),
                egui::Align2::LEFT_BOTTOM,
                format!("wait {waits}"),
                FontId::proportional(12.0),
                Color32::WHITE,
            );
        }
        t += 1;
    }
}

/// Collisions in red: every one as a red ring on its cell, and those of the tick shown as a
/// filled red mark.
fn conflicts(painter: &Painter, canvas: &Canvas, solved: &Solved, tick: f32, radius: f32) {
    for conflict in &solved.conflicts {
        let (t, a, b) = match *conflict {
            PlanError::Vertex { t, cell, .. } => (t, cell, cell),
            PlanError::Swap { t, a, b, .. } => (t, a, b),
            PlanError::Crossing { t, corner, .. } => {
                (t, corner, Cell::new(corner.x + 1, corner.y + 1))
            }
            _ => continue,
        };
        let (pa, pb) = (
            canvas.screen_from_cell_center(a),
            canvas.screen_from_cell_center(b),
        );
        let mid = pa + (pb - pa) / 2.0;
        let current = (tick - t as f32).abs() <= 1.0;
        if current {
            painter.circle_filled(mid, radius * 1.4, CONFLICT.gamma_multiply(0.5));
        }
        painter.circle_stroke(mid, radius * 1.4, Stroke::new(2.0, CONFLICT));
        if a != b {
            painter.line_segment([pa, pb], Stroke::new(2.0, CONFLICT));
        }
    }
}
