//! A global allocator that counts the bytes each thread holds, so that a test or a benchmark
//! sees the most memory its own work held at once (other tests run on other threads).
//!
//! `tests/hostile_input.rs` and `benches/memory.rs` include this file by path and install
//! [`Counting`] as their global allocator. A `realloc` counts the new block before it gives
//! back the old one, as a copy would need: the peak is that of the live blocks, an upper
//! bound of what the process needed.

#![allow(dead_code)] // Each includer uses some of the helpers.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counted per thread.
pub struct Counting;

thread_local! {
    static HELD: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

fn add(bytes: usize) {
    let _ = HELD.try_with(|held| {
        let now = held.get().saturating_add(bytes);
        held.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

fn sub(bytes: usize) {
    let _ = HELD.try_with(|held| held.set(held.get().saturating_sub(bytes)));
}

// SAFETY: every call goes to the system allocator unchanged; the counters only add and
// subtract sizes, and never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        add(layout.size());
        // SAFETY: the caller's layout, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        add(layout.size());
        // SAFETY: the caller's layout, passed on.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        sub(layout.size());
        // SAFETY: the caller's pointer and layout, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        add(new_size);
        sub(layout.size());
        // SAFETY: the caller's pointer, layout and size, passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// The bytes this thread holds now.
pub fn held() -> usize {
    HELD.with(Cell::get)
}

/// The most bytes this thread held at once while `f` ran, above what it held before.
pub fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = HELD.with(Cell::get);
    PEAK.with(|peak| peak.set(before));
    let value = f();
    (value, PEAK.with(Cell::get).saturating_sub(before))
}
