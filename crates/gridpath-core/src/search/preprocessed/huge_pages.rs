//! Large tables on huge pages, where the system has them.
//!
//! A preprocessed search reads its tables at places spread over tens of megabytes: a contraction
//! hierarchy's query touches a few hundred of its ranks, each on a page of its own. On pages of
//! 4 KiB the processor's address cache covers a few megabytes of them, and most of those reads
//! wait for a walk of the page tables besides the load; on pages of 2 MiB it covers gigabytes.
//! Linux backs memory with huge pages where a program asks for it (the default setting of
//! transparent huge pages, `madvise`, does so only then): [`back`] asks for a table once it
//! is built, and moves its pages at once where the kernel can (Linux 6.1 and up). Elsewhere,
//! and where the kernel refuses, the table stays as it is: this changes how fast it is read,
//! never what it holds.

/// The size of a huge page on the processors Linux runs on with transparent huge pages.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// Asks the kernel to back the whole huge pages that `table`'s memory spans with huge pages,
/// now where it can. A table that spans no whole huge page is left alone.
pub(crate) fn back<T>(table: &[T]) {
    #[cfg(target_os = "linux")]
    {
        let start = table.as_ptr() as usize;
        let end = start + std::mem::size_of_val(table);
        // The huge pages that lie wholly within the table: advice on a range is advice on
        // whole pages, and the pages at the ends may hold other allocations.
        let first = start.next_multiple_of(HUGE_PAGE);
        let last = end / HUGE_PAGE * HUGE_PAGE;
        if last <= first {
            return;
        }
        let (address, length) = (first as *mut libc::c_void, last - first);
        // SAFETY: the range lies within `table`'s memory, which the borrow keeps allocated.
        // Neither advice changes what the memory holds: `MADV_HUGEPAGE` lets the kernel back
        // the range with huge pages, `MADV_COLLAPSE` copies its pages into them at once. Either
        // may fail (a kernel without them, no huge page free), and the memory is left as it
        // was; the result is not needed.
        unsafe {
            libc::madvise(address, length, libc::MADV_HUGEPAGE);
            #[cfg(target_env = "gnu")]
            libc::madvise(address, length, libc::MADV_COLLAPSE);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = table;
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn a_table_keeps_what_it_holds_when_backed_by_huge_pages() {
        // Large enough to span whole huge pages wherever its allocation starts.
        let table: Vec<u64> = (0..3 * HUGE_PAGE as u64 / 8).map(|i| i * 7 + 1).collect();
        back(&table);
        assert!(
            table
                .iter()
                .enumerate()
                .all(|(i, &v)| v == i as u64 * 7 + 1)
        );
        // A small table, and an empty one, are left alone.
        back(&table[..10]);
        back::<u64>(&[]);
    }
}
