//! Jump point search and JPS+: searches that skip the cells a straight run would only pass
//! through, scanning rows and columns as bit words or reading offline jump distances.

pub(super) mod jps;
pub(super) mod jps_plus;
pub(super) mod jump_lines;
pub(super) mod jump_table;
