//! Time source shared by the driver and the emulator.
//!
//! Real time for the CLI and the hardware; a scaled real clock for the
//! simulation (one time line shared by the emulator, the driver and the
//! nodes, running `rtf` times faster than the wall clock); a virtual clock for
//! tests, so they can check "the move took 1000 ms" on the emulator's own time
//! line without depending on how busy the machine is.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A monotonic clock: the wall clock, the wall clock sped up by a real-time
/// factor, or a virtual one that only moves when told to. Cloning shares the
/// same time line.
#[derive(Debug, Clone)]
pub struct Clock(Inner);

#[derive(Debug, Clone)]
enum Inner {
    Real(Instant),
    /// Wall time since the origin × the real-time factor.
    Scaled(Instant, f64),
    Virtual(Arc<AtomicU64>),
}

/// Why a real-time factor was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("real-time factor {0} is not a finite number in [0.01, 1000]")]
pub struct RtfError(pub f64);

impl Clock {
    /// The wall clock; `now()` counts from this call.
    pub fn real() -> Clock {
        Clock(Inner::Real(Instant::now()))
    }

    /// The wall clock sped up `rtf` times (1 = real time, 20 = twenty times
    /// faster): `now()` is the elapsed wall time × `rtf` and `sleep(d)` sleeps
    /// `d / rtf` of wall time. The factor must be finite and in [0.01, 1000].
    pub fn scaled(rtf: f64) -> Result<Clock, RtfError> {
        if !rtf.is_finite() || !(0.01..=1000.0).contains(&rtf) {
            return Err(RtfError(rtf));
        }
        Ok(Clock(Inner::Scaled(Instant::now(), rtf)))
    }

    /// The real-time factor: 1 for the wall clock, `rtf` for a scaled one,
    /// `None` for a virtual clock (it has no relation to the wall clock).
    pub fn real_time_factor(&self) -> Option<f64> {
        match self.0 {
            Inner::Real(_) => Some(1.0),
            Inner::Scaled(_, rtf) => Some(rtf),
            Inner::Virtual(_) => None,
        }
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
            Inner::Scaled(origin, rtf) => origin.elapsed().mul_f64(*rtf),
            Inner::Virtual(ns) => Duration::from_nanos(ns.load(Ordering::SeqCst)),
        }
    }

    /// Moves a virtual clock forward; no effect on the real or scaled clocks.
    pub fn advance(&self, d: Duration) {
        if let Inner::Virtual(ns) = &self.0 {
            ns.fetch_add(d.as_nanos().min(u64::MAX as u128) as u64, Ordering::SeqCst);
        }
    }

    /// Waits `d` on this clock: sleeps `d` on the real clock, `d / rtf` on a
    /// scaled one, advances a virtual one.
    pub fn sleep(&self, d: Duration) {
        match &self.0 {
            Inner::Real(_) => std::thread::sleep(d),
            Inner::Scaled(_, rtf) => std::thread::sleep(d.div_f64(*rtf)),
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
        assert_eq!(c.real_time_factor(), Some(1.0));
    }

    #[test]
    fn scaled_clock_runs_faster_than_the_wall() {
        let c = Clock::scaled(20.0).unwrap();
        assert_eq!(c.real_time_factor(), Some(20.0));
        assert!(!c.is_virtual());
        let wall = Instant::now();
        let a = c.now();
        // 400 ms of sim time is 20 ms of wall time.
        c.sleep(Duration::from_millis(400));
        let slept_wall = wall.elapsed();
        let b = c.now();
        assert!(b - a >= Duration::from_millis(400), "{:?}", b - a);
        // now() is wall time × 20: compare with the wall time that really passed
        // (a loaded machine only makes both longer, never breaks the ratio).
        let expected = slept_wall.mul_f64(20.0);
        assert!(
            b <= expected + Duration::from_millis(1),
            "{b:?} vs {expected:?}"
        );
        // Clones share the origin.
        let d = c.clone();
        assert!(d.now() >= b);
        c.advance(Duration::from_secs(3600));
        assert!(
            c.now() < Duration::from_secs(3600),
            "advance does not move it"
        );
    }

    #[test]
    fn scaled_clock_rejects_bad_factors() {
        for rtf in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e6] {
            let e = Clock::scaled(rtf).unwrap_err();
            assert!(e.to_string().contains(&rtf.to_string()), "{e}");
        }
        assert!(Clock::scaled(1.0).is_ok());
    }
}
