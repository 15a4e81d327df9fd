//! The classic searches: best-first search in its forms (A*, weighted A*, Dijkstra, greedy),
//! breadth-first search, bidirectional A*, IDA*, the turn-penalty search over (cell, heading)
//! states and the flow field's one Dijkstra to every cell.

pub(super) mod best_first;
pub(super) mod bfs;
pub(super) mod bidirectional;
pub(super) mod flow_field;
pub(super) mod idastar;
pub(super) mod turns;
