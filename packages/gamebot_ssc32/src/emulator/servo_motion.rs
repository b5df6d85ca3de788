//! The SSC-32U's motion model, independent of any I/O.
//!
//! Each channel's output moves linearly in pulse space from where it is to
//! its target. A group move starts all its channels at once and makes them
//! arrive together: its duration is the longest of the `T` time and, for each
//! channel with a speed `S`, distance / speed. A channel that has never had a
//! pulse (output off) jumps to its first target, as the real board does.

use std::time::Duration;

use crate::protocol::{Channel, GroupMove, Movement, Pulse, CHANNELS};

/// One channel's current segment.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Segment {
    /// Start pulse in µs; 0 = output off.
    from: u16,
    /// Target pulse in µs; 0 = output off.
    to: u16,
    start: Duration,
    end: Duration,
}

impl Segment {
    fn pulse_at(&self, t: Duration) -> f64 {
        if t >= self.end || self.end <= self.start {
            return self.to as f64;
        }
        if t <= self.start {
            return self.from as f64;
        }
        let f = (t - self.start).as_secs_f64() / (self.end - self.start).as_secs_f64();
        self.from as f64 + (self.to as f64 - self.from as f64) * f
    }
}

/// What the emulator knows about the last group move it executed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveRecord {
    /// Clock time the move started.
    pub started: Duration,
    /// Planned duration (longest of the `T` and `S` constraints).
    pub duration: Duration,
    /// The channels it moved.
    pub channels: Vec<Channel>,
}

/// The servo outputs of an SSC-32U.
#[derive(Debug, Clone, Default)]
pub struct Board {
    segments: [Segment; CHANNELS],
    /// While stalled, motion is frozen at this time and moves never finish.
    stalled_at: Option<Duration>,
    last_move: Option<MoveRecord>,
}

impl Board {
    /// A board with every output off.
    pub fn new() -> Board {
        Board::default()
    }

    /// The time motion is evaluated at: `now`, or the moment a stall began.
    fn motion_time(&self, now: Duration) -> Duration {
        self.stalled_at.map_or(now, |s| s.min(now))
    }

    /// The current pulse of a channel in µs (0 = off), truncated like the firmware's counter.
    pub fn pulse_at(&self, ch: Channel, now: Duration) -> u16 {
        self.segments[ch.index()].pulse_at(self.motion_time(now)) as u16
    }

    /// All 32 current pulses in µs (0 = off).
    pub fn pulses_at(&self, now: Duration) -> [u16; CHANNELS] {
        std::array::from_fn(|i| self.pulse_at(Channel::new(i as u32).unwrap(), now))
    }

    /// The answer to `Q`.
    pub fn movement_at(&self, now: Duration) -> Movement {
        let t = self.motion_time(now);
        if self.segments.iter().any(|s| s.end > t) {
            Movement::Moving
        } else {
            Movement::Done
        }
    }

    /// The last group move, if any.
    pub fn last_move(&self) -> Option<&MoveRecord> {
        self.last_move.as_ref()
    }

    /// Starts a group move at `now` from the channels' current positions.
    pub fn group_move(&mut self, m: &GroupMove, now: Duration) -> Duration {
        let mut secs = m.time().map_or(0.0, |t| t.millis() as f64 / 1000.0);
        let current: Vec<u16> = m
            .targets()
            .iter()
            .map(|t| self.pulse_at(t.channel, now))
            .collect();
        for (t, &cur) in m.targets().iter().zip(&current) {
            if let (Some(s), true) = (t.speed, cur != 0) {
                let dist = (t.pulse.micros() as f64 - cur as f64).abs();
                secs = secs.max(dist / s.get() as f64);
            }
        }
        let duration = Duration::from_secs_f64(secs);
        for (t, &cur) in m.targets().iter().zip(&current) {
            let (from, end) = if cur == 0 {
                (t.pulse.micros(), now)
            } else {
                (cur, now + duration)
            };
            self.segments[t.channel.index()] = Segment {
                from,
                to: t.pulse.micros(),
                start: now,
                end,
            };
        }
        self.last_move = Some(MoveRecord {
            started: now,
            duration,
            channels: m.targets().iter().map(|t| t.channel).collect(),
        });
        duration
    }

    /// `STOP <ch>`: the channel holds where it is now.
    pub fn stop(&mut self, ch: Channel, now: Duration) {
        let p = self.pulse_at(ch, now);
        // On the motion time line, so a stalled move counts as ended too.
        let t = self.motion_time(now);
        self.segments[ch.index()] = Segment {
            from: p,
            to: p,
            start: t,
            end: t,
        };
    }

    /// Whether moves are frozen (the stall fault).
    pub fn is_stalled(&self) -> bool {
        self.stalled_at.is_some()
    }

    /// Starts or ends the stall fault. While stalled, outputs freeze and `Q`
    /// keeps answering `+` for any unfinished move; on release, moves resume
    /// with the time they had left.
    pub fn set_stalled(&mut self, stalled: bool, now: Duration) {
        match (self.stalled_at, stalled) {
            (None, true) => self.stalled_at = Some(now),
            (Some(at), false) => {
                self.stalled_at = None;
                for s in &mut self.segments {
                    if s.end > at {
                        let from = s.pulse_at(at) as u16;
                        let left = s.end - at.max(s.start);
                        *s = Segment {
                            from,
                            to: s.to,
                            start: now,
                            end: now + left,
                        };
                    }
                }
            }
            _ => {}
        }
    }

    /// The target pulse of a channel, if it has one.
    pub fn target(&self, ch: Channel) -> Option<Pulse> {
        Pulse::new(self.segments[ch.index()].to as u32).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{MoveTime, ServoTarget, Speed};
    use proptest::prelude::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }
    fn ch(n: u32) -> Channel {
        Channel::new(n).unwrap()
    }
    fn mv(targets: &[(u32, u32, Option<u32>)], t: Option<u32>) -> GroupMove {
        GroupMove::new(
            targets
                .iter()
                .map(|&(c, p, s)| ServoTarget {
                    channel: ch(c),
                    pulse: Pulse::new(p).unwrap(),
                    speed: s.map(|s| Speed::new(s).unwrap()),
                })
                .collect(),
            t.map(|t| MoveTime::new(t).unwrap()),
        )
        .unwrap()
    }

    #[test]
    fn first_pulse_jumps_then_moves_linearly() {
        let mut b = Board::new();
        assert_eq!(b.pulse_at(ch(0), ms(0)), 0);
        b.group_move(&mv(&[(0, 1000, None)], Some(500)), ms(0));
        assert_eq!(b.pulse_at(ch(0), ms(0)), 1000);
        assert_eq!(b.movement_at(ms(0)), Movement::Done);
        let d = b.group_move(&mv(&[(0, 2000, None)], Some(1000)), ms(100));
        assert_eq!(d, ms(1000));
        assert_eq!(b.pulse_at(ch(0), ms(600)), 1500);
        assert_eq!(b.movement_at(ms(1099)), Movement::Moving);
        assert_eq!(b.movement_at(ms(1100)), Movement::Done);
        assert_eq!(b.pulse_at(ch(0), ms(5000)), 2000);
    }

    #[test]
    fn the_slowest_constraint_sets_the_duration() {
        let mut b = Board::new();
        b.group_move(&mv(&[(0, 1000, None), (1, 1000, None)], None), ms(0));
        // Channel 0 at 500 µs/s needs 2 s for 1000 µs; T asks for 1 s: 2 s wins.
        let d = b.group_move(
            &mv(&[(0, 2000, Some(500)), (1, 1200, None)], Some(1000)),
            ms(0),
        );
        assert_eq!(d, ms(2000));
        // Both arrive together.
        assert_eq!(b.pulse_at(ch(1), ms(1000)), 1100);
        assert_eq!(b.movement_at(ms(1999)), Movement::Moving);
        assert_eq!(b.pulses_at(ms(2000))[..2], [2000, 1200]);
        // T slower than S: T wins.
        let d = b.group_move(&mv(&[(0, 1000, Some(2000))], Some(3000)), ms(2000));
        assert_eq!(d, ms(3000));
    }

    #[test]
    fn stop_holds_the_current_position() {
        let mut b = Board::new();
        b.group_move(&mv(&[(3, 1000, None)], None), ms(0));
        b.group_move(&mv(&[(3, 2000, None)], Some(1000)), ms(0));
        b.stop(ch(3), ms(250));
        assert_eq!(b.pulse_at(ch(3), ms(250)), 1250);
        assert_eq!(b.pulse_at(ch(3), ms(900)), 1250);
        assert_eq!(b.movement_at(ms(251)), Movement::Done);
    }

    #[test]
    fn stall_freezes_until_released() {
        let mut b = Board::new();
        b.group_move(&mv(&[(0, 1000, None)], None), ms(0));
        b.group_move(&mv(&[(0, 2000, None)], Some(1000)), ms(0));
        b.set_stalled(true, ms(500));
        assert_eq!(b.pulse_at(ch(0), ms(60_000)), 1500);
        assert_eq!(b.movement_at(ms(60_000)), Movement::Moving);
        b.set_stalled(false, ms(60_000));
        assert_eq!(b.movement_at(ms(60_499)), Movement::Moving);
        assert_eq!(b.pulse_at(ch(0), ms(60_500)), 2000);
        assert_eq!(b.movement_at(ms(60_500)), Movement::Done);
    }

    proptest! {
        #[test]
        fn group_moves_arrive_together_and_stay_between_endpoints(
            start in proptest::collection::vec(500u32..=2500, 4),
            goal in proptest::collection::vec((500u32..=2500, proptest::option::of(1u32..5000)), 4),
            t in proptest::option::of(1u32..5000),
            probe in 0.0f64..1.0,
        ) {
            let mut b = Board::new();
            let first: Vec<_> = start.iter().enumerate().map(|(i, &p)| (i as u32, p, None)).collect();
            b.group_move(&mv(&first, None), ms(0));
            let second: Vec<_> = goal.iter().enumerate().map(|(i, &(p, s))| (i as u32, p, s)).collect();
            let d = b.group_move(&mv(&second, t), ms(10));
            if let Some(t) = t {
                prop_assert!(d >= ms(t as u64));
            }
            let at = ms(10) + d.mul_f64(probe);
            for i in 0..4 {
                let (lo, hi) = (start[i].min(goal[i].0), start[i].max(goal[i].0));
                let p = b.pulse_at(ch(i as u32), at) as u32;
                prop_assert!(p + 1 >= lo && p <= hi, "channel {} at {} outside {}..{}", i, p, lo, hi);
                prop_assert_eq!(b.pulse_at(ch(i as u32), ms(10) + d) as u32, goal[i].0);
            }
            prop_assert_eq!(b.movement_at(ms(10) + d), Movement::Done);
        }
    }
}
