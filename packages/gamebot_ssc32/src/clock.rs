//! Time source shared by the driver and the emulator.
//!
//! Real time for the CLI and the simulation; a virtual clock for tests, so
//! they can check "the move took 1000 ms" on the emulator's own time line
//! without depending on how busy the machine is.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A monotonic clock: the wall clock, or a virtual one that only moves when
/// told to. Cloning shares the same time line.
#[derive(Debug, Clone)]
pub struct Clock(Inner);

#[derive(Debug, Clone)]
enum Inner {
    Real(Instant),
    Virtual(Arc<AtomicU64>),
}

impl Clock {
    /// The wall clock; `now()` counts from this call.
    pub fn real() -> Clock {
        Clock(Inner::Real(Instant::now()))
    }

    /// A virtual clock at zero. It advances only through [`Clock::advance`]
    /// and [`Clock::sleep`], which then return at once.
    pub fn virtual_clock() -> Clock {
        Clock(Inner::Virtual(Arc::new(AtomicU64::new(0))))
    }

    /// Whether this is a virtual clock.
    pub fn is_virtual(&self) -> bool {
        matches!(self.0, Inner::Virtual(_))
    }

    /// Time since the clock's origin.
    pub fn now(&self) -> Duration {
        match &self.0 {
            Inner::Real(origin) => origin.elapsed(),
            Inner::Virtual(ns) => Duration::from_nanos(ns.load(Ordering::SeqCst)),
        }
    }

    /// Moves a virtual clock forward; no effect on the real clock.
    pub fn advance(&self, d: Duration) {
        if let Inner::Virtual(ns) = &self.0 {
            ns.fetch_add(d.as_nanos().min(u64::MAX as u128) as u64, Ordering::SeqCst);
        }
    }

    /// Waits `d` on this clock: sleeps on the real clock, advances a virtual one.
    pub fn sleep(&self, d: Duration) {
        match &self.0 {
            Inner::Real(_) => std::thread::sleep(d),
            Inner::Virtual(_) => self.advance(d),
        }
    }
}

impl Default for Clock {
    fn default() -> Self {
        Clock::real()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn virtual_clock_moves_only_when_told() {
        let c = Clock::virtual_clock();
        let shared = c.clone();
        assert_eq!(c.now(), Duration::ZERO);
        c.sleep(Duration::from_millis(250));
        shared.advance(Duration::from_millis(5));
        assert_eq!(c.now(), Duration::from_millis(255));
        assert_eq!(shared.now(), Duration::from_millis(255));
        assert!(c.is_virtual());
    }

    #[test]
    fn real_clock_is_monotonic_and_ignores_advance() {
        let c = Clock::real();
        let a = c.now();
        c.advance(Duration::from_secs(3600));
        let b = c.now();
        assert!(b >= a && b < Duration::from_secs(3600));
    }
}
