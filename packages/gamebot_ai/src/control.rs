//! Cancelling a search from another thread, progress reports and search limits.

use crate::stats::SearchStats;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A flag another thread sets to stop a running search. Searches poll it at
/// every node, playout step or expansion, so they stop within a fraction of a
/// millisecond of engine work; anytime strategies then return their best move so far.
#[derive(Clone, Debug, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    /// A token that is not cancelled.
    pub fn new() -> CancelToken {
        CancelToken::default()
    }
    /// Asks every search holding this token to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
    /// Whether [`CancelToken::cancel`] was called.
    #[inline]
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// A progress callback: receives the statistics so far (best move in `pv[0]`).
pub type ProgressFn<'a> = &'a (dyn Fn(&SearchStats) + Sync);

/// How a caller controls one search: cancellation and progress reports.
#[derive(Clone, Default)]
pub struct SearchControl<'a> {
    /// Stops the search when cancelled.
    pub cancel: CancelToken,
    /// Called with intermediate statistics: after every completed depth
    /// (alpha-beta, minimax), about every 100 ms (MCTS, Monte Carlo, puzzle searches).
    pub progress: Option<ProgressFn<'a>>,
}

impl<'a> SearchControl<'a> {
    /// No cancellation, no progress reports.
    pub fn new() -> SearchControl<'static> {
        SearchControl::default()
    }
    /// Uses `cancel` to stop the search.
    pub fn with_cancel(mut self, cancel: CancelToken) -> Self {
        self.cancel = cancel;
        self
    }
    /// Reports progress to `f`.
    pub fn with_progress(self, f: ProgressFn<'_>) -> SearchControl<'_> {
        SearchControl {
            cancel: self.cancel,
            progress: Some(f),
        }
    }
    pub(crate) fn report(&self, stats: &SearchStats) {
        if let Some(f) = self.progress {
            f(stats);
        }
    }
}

/// The limits of one search: start time, optional deadline, cancellation.
#[derive(Clone, Debug)]
pub(crate) struct Limits {
    pub start: Instant,
    pub deadline: Option<Instant>,
    pub cancel: CancelToken,
}

impl Limits {
    pub fn new(time: Option<Duration>, cancel: &CancelToken) -> Limits {
        let start = Instant::now();
        Limits {
            start,
            deadline: time.map(|t| start + t),
            cancel: cancel.clone(),
        }
    }
    /// True when the search must stop now (cancelled or out of time).
    #[inline]
    pub fn stop(&self) -> bool {
        self.cancel.is_cancelled() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

/// Emits progress reports at most every `every`.
pub(crate) struct Ticker {
    next: Instant,
    every: Duration,
}

impl Ticker {
    pub fn new(every: Duration) -> Ticker {
        Ticker {
            next: Instant::now() + every,
            every,
        }
    }
    /// True (and rearmed) when a report is due.
    pub fn due(&mut self) -> bool {
        let now = Instant::now();
        if now >= self.next {
            self.next = now + self.every;
            true
        } else {
            false
        }
    }
}
