//! Solving a team in the background: each solve runs on a thread of its own with a cancel
//! flag, tagged with a generation so that only the newest answer is taken.

use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

use crate::mapf::{self, Instance, MapfAlgorithm, MapfOutcome, MapfSettings};
use crate::search::SearchControl;

/// A finished solve: the instance it was for and what the solver answered (or why it was not
/// run).
pub struct Answer {
    /// The instance solved.
    pub instance: Instance,
    /// The solver.
    pub algorithm: MapfAlgorithm,
    /// Whether it went on improving its first plan (LaCAM*).
    pub anytime: bool,
    /// Its outcome, or the settings error that kept it from running.
    pub outcome: Result<MapfOutcome, String>,
}

/// The background solver of the Agents panel.
pub struct TeamWorker {
    generation: u64,
    sender: Sender<(u64, Answer)>,
    receiver: Receiver<(u64, Answer)>,
    running: Option<(Arc<SearchControl>, Instant)>,
    ctx: Option<egui::Context>,
}

impl Default for TeamWorker {
    fn default() -> Self {
        let (sender, receiver) = mpsc::channel();
        Self {
            generation: 0,
            sender,
            receiver,
            running: None,
            ctx: None,
        }
    }
}

impl TeamWorker {
    /// The context to wake when an answer arrives.
    pub fn set_context(&mut self, ctx: &egui::Context) {
        if self.ctx.is_none() {
            self.ctx = Some(ctx.clone());
        }
    }

    /// Starts solving `instance`, cancelling the solve under way.
    pub fn start(&mut self, instance: Instance, algorithm: MapfAlgorithm, settings: MapfSettings) {
        self.cancel();
        self.generation += 1;
        let generation = self.generation;
        let control = Arc::new(SearchControl::new());
        self.running = Some((Arc::clone(&control), Instant::now()));
        let sender = self.sender.clone();
        let ctx = self.ctx.clone();
        std::thread::spawn(move || {
            let outcome =
                mapf::solve(&instance, algorithm, &settings, &control).map_err(|e| e.to_string());
            let answer = Answer {
                instance,
                algorithm,
                anytime: settings.anytime,
                outcome,
            };
            // The editor may have closed: then nobody waits for the answer.
            let _ = sender.send((generation, answer));
            if let Some(ctx) = ctx {
                ctx.request_repaint();
            }
        });
    }

    /// Stops the solve under way, if any; its answer (a stopped outcome) still arrives.
    pub fn stop(&self) {
        if let Some((control, _)) = &self.running {
            control.cancel();
        }
    }

    /// Cancels the solve under way and forgets it: its answer will be dropped.
    pub fn cancel(&mut self) {
        if let Some((control, _)) = self.running.take() {
            control.cancel();
        }
        self.generation += 1;
    }

    /// The newest answer, once it has arrived; older ones are dropped.
    pub fn poll(&mut self) -> Option<Answer> {
        let mut newest = None;
        while let Ok((generation, answer)) = self.receiver.try_recv() {
            if generation == self.generation {
                newest = Some(answer);
            }
        }
        if newest.is_some() {
            self.running = None;
        }
        newest
    }

    /// Waits up to `timeout` for the newest answer (for tests and scripts).
    pub fn wait(&mut self, timeout: Duration) -> Option<Answer> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.receiver.recv_timeout(left) {
                Ok((generation, answer)) if generation == self.generation => {
                    self.running = None;
                    return Some(answer);
                }
                Ok(_) => {}
                Err(_) => return None,
            }
        }
    }

    /// Whether a solve is under way; with the nodes it has expanded and its time so far.
    pub fn progress(&self) -> Option<(u64, Duration)> {
        self.running
            .as_ref()
            .map(|(control, started)| (control.expanded(), started.elapsed()))
    }
}
