//! Running engine work with the GIL released, so that other Python threads go on, and so that
//! Ctrl+C stops a long search.
//!
//! Python handles signals on its main thread only, when that thread asks. So a long piece of
//! work runs on a thread of its own while the calling thread waits with the GIL released and,
//! every [`POLL`], takes the GIL back to ask Python whether a signal came
//! ([`Python::check_signals`]). When one did (a `KeyboardInterrupt` from Ctrl+C), the work's
//! [`SearchControl`] is cancelled, the work stops within a few thousand expansions, and the
//! signal's exception is raised.
//!
//! Starting a thread costs tens of microseconds, more than a short search takes; work known to
//! be short runs [`inline`] on the calling thread instead, still without the GIL.

use std::sync::{Condvar, Mutex, PoisonError};
use std::time::Duration;

use gridpath_core::search::SearchControl;
use pyo3::prelude::*;

use crate::errors;

/// How often the waiting thread asks Python for signals.
pub const POLL: Duration = Duration::from_millis(20);

/// Runs `work` on the calling thread with the GIL released: for work that ends soon.
pub fn inline<T: Send>(py: Python<'_>, work: impl FnOnce() -> T + Send) -> T {
    py.detach(work)
}

/// Runs `work` on a thread of its own while this thread waits without the GIL and watches for
/// signals; on a signal, cancels `control` (which `work` must watch), waits for `work` to stop,
/// and raises the signal's exception.
pub fn watched<T: Send>(
    py: Python<'_>,
    control: &SearchControl,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let done = (Mutex::new(false), Condvar::new());
    std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            // Set `done` even when `work` panics, so the waiting thread does not wait forever.
            struct Finish<'a>(&'a (Mutex<bool>, Condvar));
            impl Drop for Finish<'_> {
                fn drop(&mut self) {
                    let (flag, wake) = self.0;
                    *flag.lock().unwrap_or_else(PoisonError::into_inner) = true;
                    wake.notify_all();
                }
            }
            let _finish = Finish(&done);
            work()
        });
        let mut interrupted = None;
        loop {
            let finished = py.detach(|| {
                let (flag, wake) = &done;
                let guard = flag.lock().unwrap_or_else(PoisonError::into_inner);
                let (guard, _) = wake
                    .wait_timeout_while(guard, POLL, |finished| !*finished)
                    .unwrap_or_else(PoisonError::into_inner);
                *guard
            });
            if finished {
                break;
            }
            if let Err(signal) = py.check_signals() {
                control.cancel();
                interrupted = Some(signal);
                break;
            }
        }
        let joined = py.detach(|| worker.join());
        if let Some(signal) = interrupted {
            return Err(signal);
        }
        joined.map_err(|panic| {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            errors::raise::<errors::Error>(
                &format!("internal error in the engine (please report it): {what}"),
                None,
                None,
            )
        })
    })
}
