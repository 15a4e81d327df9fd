//! Builds on a thread of their own: what a [`Replanner`](super::replanner::Replanner) builds
//! whole (the contraction hierarchy, the subgoal graph, HPA*'s first abstraction) is built
//! from a copy of the search graph while the replanner goes on answering, so that an edit
//! never leaves the map without answers for the seconds a build takes.
//!
//! A build ends with its result in a slot and then calls the owner's `on_built`, so that the
//! owner, woken by it, always finds the result there. Dropping a build cancels it: its thread
//! stops at its next look at the control and its result is dropped with it.

use std::sync::{Arc, Mutex, PoisonError};
use std::thread;

use crate::control::SearchControl;
use crate::search::request::SearchError;

/// Called on a build's thread when the build ends, whether it built or was cancelled: lets the
/// owner of a [`Replanner`](super::replanner::Replanner) wake up and plan again.
pub type OnBuilt = Arc<dyn Fn() + Send + Sync>;

/// How a build ended.
#[derive(Debug)]
pub(crate) enum Ended<T> {
    /// It built this, in this long.
    Built(T, std::time::Duration),
    /// It was cancelled.
    Cancelled,
    /// It panicked (the owner builds again in place, where the panic is reported as any
    /// search's would be).
    Panicked,
}

/// How the build ended, once it has.
type Slot<T> = Arc<Mutex<Option<Ended<T>>>>;

/// One build running, or ended, on its own thread.
pub(crate) struct Background<T> {
    control: Arc<SearchControl>,
    slot: Slot<T>,
}

impl<T: Send + 'static> Background<T> {
    /// Starts `build` on a new thread; `on_built` is called when it ends. `None` when the
    /// thread could not be started (the caller then builds in place).
    pub(crate) fn start(
        build: impl FnOnce(&SearchControl) -> Result<T, SearchError> + Send + 'static,
        on_built: Option<OnBuilt>,
    ) -> Option<Self> {
        let control = Arc::new(SearchControl::new());
        let slot: Slot<T> = Arc::new(Mutex::new(None));
        let (thread_control, thread_slot) = (Arc::clone(&control), Arc::clone(&slot));
        thread::Builder::new()
            .name("gridpath-build".to_owned())
            .spawn(move || {
                let started = std::time::Instant::now();
                let built = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    build(&thread_control)
                })) {
                    Ok(Ok(built)) => Ended::Built(built, started.elapsed()),
                    Ok(Err(_)) => Ended::Cancelled,
                    Err(_) => Ended::Panicked,
                };
                *thread_slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(built);
                if let Some(on_built) = on_built {
                    on_built();
                }
            })
            .ok()?;
        Some(Self { control, slot })
    }

    /// How the build ended, once it has; `None` while it runs.
    pub(crate) fn take(&self) -> Option<Ended<T>> {
        self.slot
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }

    /// The control the build reports its progress through.
    pub(crate) fn control(&self) -> &Arc<SearchControl> {
        &self.control
    }
}

impl<T> Drop for Background<T> {
    fn drop(&mut self) {
        self.control.cancel();
    }
}

impl<T> std::fmt::Debug for Background<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Background")
            .field("progress", &self.control.build_progress())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    /// A wake-up call and the channel it rings.
    fn wake() -> (OnBuilt, mpsc::Receiver<()>) {
        let (tx, rx) = mpsc::channel();
        let tx = Mutex::new(tx);
        (
            Arc::new(move || {
                let _ = tx.lock().unwrap().send(());
            }),
            rx,
        )
    }

    #[test]
    fn a_build_leaves_its_result_before_it_wakes_its_owner() {
        let (on_built, rx) = wake();
        let build = Background::start(|_| Ok(41 + 1), Some(on_built)).unwrap();
        rx.recv().unwrap();
        assert!(matches!(build.take(), Some(Ended::Built(42, _))));
        assert!(build.take().is_none(), "a result is taken once");
    }

    #[test]
    fn dropping_a_build_cancels_it() {
        let (started_tx, started_rx) = mpsc::channel();
        let (ended_tx, ended_rx) = mpsc::channel();
        let build = Background::start(
            move |control: &SearchControl| {
                started_tx.send(()).unwrap();
                // Runs until cancelled, as a long build would.
                while !control.is_cancelled() {
                    std::thread::yield_now();
                }
                ended_tx.send(()).unwrap();
                Err::<(), _>(SearchError::Cancelled)
            },
            None,
        )
        .unwrap();
        started_rx.recv().unwrap();
        drop(build);
        ended_rx.recv().unwrap();
    }

    #[test]
    fn a_panicking_build_says_so() {
        let (on_built, rx) = wake();
        let build =
            Background::<u32>::start(|_| panic!("a build that fails"), Some(on_built)).unwrap();
        rx.recv().unwrap();
        assert!(matches!(build.take(), Some(Ended::Panicked)));
    }
}
