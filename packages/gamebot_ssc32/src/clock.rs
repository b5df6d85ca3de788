//! Time source shared by the driver and the emulator.
//!
//! Real time for the CLI and the hardware; a scaled real clock for the
//! simulation (one time line shared by the emulator, the driver and the
//! nodes, running `rtf` times faster than the wall clock); a virtual clock for
//! tests, so they can check "the move took 1000 ms" on the emulator's own time
//! line without depending on how busy the machine is; an external clock set
//! from outside (a ROS node with `use_sim_time` sets it from `/clock`).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
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
    External(Arc<External>),
}

/// The time line of an external clock: the latest time it was set to, and the
/// rate at which it has been advancing against the wall clock.
#[derive(Debug)]
struct External {
    state: Mutex<ExternalState>,
    ticked: Condvar,
}

#[derive(Debug, Clone, Copy)]
struct ExternalState {
    now: Duration,
    /// Wall time of the latest tick.
    at: Instant,
    /// Clock seconds per wall second, smoothed over the ticks (1 until two
    /// ticks were seen).
    rate: f64,
    ticks: u64,
}

/// How long (wall time) a sleep on an external clock waits for the clock to
/// tick at all before it gives up and returns: a time source that stopped
/// does not freeze its callers.
const EXTERNAL_STALL: Duration = Duration::from_secs(1);

/// The longest a wall deadline computed for an external clock lies ahead:
/// its rate is an estimate, so waits are re-checked at least this often.
const EXTERNAL_RECHECK: Duration = Duration::from_millis(100);

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
        match &self.0 {
            Inner::Real(_) => Some(1.0),
            Inner::Scaled(_, rtf) => Some(*rtf),
            Inner::Virtual(_) => None,
            Inner::External(x) => Some(x.state.lock().unwrap_or_else(|e| e.into_inner()).rate),
        }
    }

    /// A clock set from outside through [`Clock::set`] (the latest `/clock`
    /// message of a ROS node with `use_sim_time`); at zero until the first
    /// tick. Its real-time factor is estimated from the ticks.
    pub fn external() -> Clock {
        Clock(Inner::External(Arc::new(External {
            state: Mutex::new(ExternalState {
                now: Duration::ZERO,
                at: Instant::now(),
                rate: 1.0,
                ticks: 0,
            }),
            ticked: Condvar::new(),
        })))
    }

    /// A handle that sets this external clock without keeping it alive
    /// (`None` for the other kinds): a thread feeding it can tell when the
    /// last user dropped the clock.
    pub fn setter(&self) -> Option<ClockSetter> {
        match &self.0 {
            Inner::External(x) => Some(ClockSetter(Arc::downgrade(x))),
            _ => None,
        }
    }

    /// Waits up to `timeout` (wall time) for an external clock's first tick;
    /// true once it has ticked (and at once for the other kinds, which are
    /// always running).
    pub fn wait_started(&self, timeout: Duration) -> bool {
        let Inner::External(x) = &self.0 else {
            return true;
        };
        let st = x.state.lock().unwrap_or_else(|e| e.into_inner());
        let (st, _) = x
            .ticked
            .wait_timeout_while(st, timeout, |st| st.ticks == 0)
            .unwrap_or_else(|e| e.into_inner());
        st.ticks > 0
    }

    /// Whether this is an external clock.
    pub fn is_external(&self) -> bool {
        matches!(self.0, Inner::External(_))
    }

    /// Sets an external clock to `t` and wakes its sleepers; a time earlier
    /// than the clock's is ignored (the clock is monotonic). No effect on the
    /// other kinds.
    pub fn set(&self, t: Duration) {
        let Inner::External(x) = &self.0 else {
            return;
        };
        let mut st = x.state.lock().unwrap_or_else(|e| e.into_inner());
        if t < st.now {
            return;
        }
        let wall = st.at.elapsed().as_secs_f64();
        if st.ticks > 0 && wall > 1e-3 {
            let inst = (t - st.now).as_secs_f64() / wall;
            st.rate = if st.ticks == 1 {
                inst
            } else {
                0.8 * st.rate + 0.2 * inst
            }
            .clamp(1e-3, 1e4);
        }
        st.now = t;
        st.at = Instant::now();
        st.ticks += 1;
        drop(st);
        x.ticked.notify_all();
    }

    /// The wall-clock instant by which this clock will probably have reached
    /// `t` (now when it already has; for an external clock an estimate from
    /// its rate, never more than 100 ms ahead, so the caller looks again).
    pub fn wall_deadline(&self, t: Duration) -> Instant {
        let left = t.saturating_sub(self.now());
        let wall = Instant::now();
        match &self.0 {
            Inner::Real(_) => wall + left,
            Inner::Scaled(_, rtf) => wall + left.div_f64(*rtf),
            Inner::Virtual(_) => wall,
            Inner::External(_) => {
                let rate = self.real_time_factor().unwrap_or(1.0);
                wall + left.div_f64(rate).min(EXTERNAL_RECHECK)
            }
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
            Inner::External(x) => x.state.lock().unwrap_or_else(|e| e.into_inner()).now,
        }
    }

    /// Moves a virtual clock forward; no effect on the real or scaled clocks.
    pub fn advance(&self, d: Duration) {
        if let Inner::Virtual(ns) = &self.0 {
            ns.fetch_add(d.as_nanos().min(u64::MAX as u128) as u64, Ordering::SeqCst);
        }
    }

    /// Waits `d` on this clock: sleeps `d` on the real clock, `d / rtf` on a
    /// scaled one, advances a virtual one; on an external clock waits until it
    /// was set `d` later, or until it has not ticked for a second of wall time
    /// (a stopped time source does not freeze the caller).
    pub fn sleep(&self, d: Duration) {
        match &self.0 {
            Inner::Real(_) => std::thread::sleep(d),
            Inner::Scaled(_, rtf) => std::thread::sleep(d.div_f64(*rtf)),
            Inner::Virtual(_) => self.advance(d),
            Inner::External(x) => {
                let mut st = x.state.lock().unwrap_or_else(|e| e.into_inner());
                let until = st.now + d;
                while st.now < until && st.at.elapsed() < EXTERNAL_STALL {
                    st = x
                        .ticked
                        .wait_timeout(st, EXTERNAL_RECHECK)
                        .unwrap_or_else(|e| e.into_inner())
                        .0;
                }
            }
        }
    }
}

/// Sets an external clock while the clock is in use (see [`Clock::setter`]).
#[derive(Debug, Clone)]
pub struct ClockSetter(std::sync::Weak<External>);

impl ClockSetter {
    /// Sets the clock to `t` (as [`Clock::set`]); false once every clone of
    /// the clock was dropped.
    pub fn set(&self, t: Duration) -> bool {
        match self.0.upgrade() {
            Some(x) => {
                Clock(Inner::External(x)).set(t);
                true
            }
            None => false,
        }
    }

    /// Whether the clock is still in use.
    pub fn alive(&self) -> bool {
        self.0.strong_count() > 0
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
    fn external_clock_follows_its_ticks_and_wakes_sleepers() {
        let c = Clock::external();
        assert!(c.is_external() && !c.is_virtual());
        assert_eq!(c.now(), Duration::ZERO);
        assert!(!c.wait_started(Duration::from_millis(20)));
        c.set(Duration::from_secs(5));
        assert!(c.wait_started(Duration::ZERO));
        assert_eq!(c.now(), Duration::from_secs(5));
        // Monotonic: an earlier time is ignored; advance does nothing.
        c.set(Duration::from_secs(4));
        c.advance(Duration::from_secs(9));
        assert_eq!(c.now(), Duration::from_secs(5));
        // A sleeper wakes when another thread moves the clock past its target.
        let ticker = c.clone();
        let t = std::thread::spawn(move || {
            for i in 1..=40u64 {
                std::thread::sleep(Duration::from_millis(5));
                ticker.set(Duration::from_secs(5) + Duration::from_millis(50 * i));
            }
        });
        c.sleep(Duration::from_millis(500));
        assert!(c.now() >= Duration::from_millis(5500), "{:?}", c.now());
        t.join().unwrap();
        // Ten times faster than the wall, give or take a loaded machine.
        let rate = c.real_time_factor().unwrap();
        let setter = c.setter().unwrap();
        assert!(setter.set(Duration::from_secs(60)) && c.now() == Duration::from_secs(60));
        drop(c.clone());
        assert!(setter.alive());
        assert!(rate > 0.2 && rate <= 10.5, "{rate}");
        assert!(c.wall_deadline(c.now()) <= Instant::now());
        drop(c);
        assert!(!setter.alive() && !setter.set(Duration::from_secs(61)));
    }

    #[test]
    fn a_sleep_on_a_stopped_external_clock_returns() {
        let c = Clock::external();
        c.set(Duration::from_secs(1));
        c.sleep(Duration::from_secs(3600));
        assert_eq!(c.now(), Duration::from_secs(1));
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
