//! The open list: a 4-ary heap with lazy deletion, the buckets in front of it and the sort of
//! their band keys; and IDA*'s fringe, a linked list of cells.

pub(super) mod fringe;
pub(super) mod heap;
pub(super) mod sort;
