//! Serial driver for the SSC-32U over the `serialport` crate.
//!
//! Every blocking call is bounded: reads by the port timeout, moves by a
//! deadline derived from the move's own duration. Completion is found by
//! polling `Q`, never by sleeping for the move time. Responses are checked
//! for line noise: a query whose answer is malformed, or followed by stray
//! bytes, is retried after a warning; noise that persists is an error.

use std::io::{self, Read, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use serialport::{ClearBuffer, SerialPort, TTYPort};
use thiserror::Error;

use crate::clock::Clock;
use crate::protocol::{
    self, Channel, Command, GroupMove, MoveTime, Movement, ProtocolError, Pulse, ServoTarget,
    CHANNELS,
};

/// Longest `VER` answer accepted before giving up on finding its `\r`.
const VERSION_MAX: usize = 64;

/// Errors of the driver. Each names the port and, where there is one, the likely fix.
#[derive(Debug, Error)]
pub enum DriverError {
    /// The device path does not exist.
    #[error("serial port {port} does not exist: is the SSC-32U plugged in and powered (see `ls /dev/ttyUSB*`), or is the emulator running (`gamebot ssc32 emulator`)?")]
    NotFound {
        /// The port path.
        port: String,
    },
    /// No permission to open the device.
    #[error("permission denied opening {port}: add your user to the `dialout` group (`sudo usermod -aG dialout $USER`, then log in again)")]
    PermissionDenied {
        /// The port path.
        port: String,
    },
    /// Another program holds the device.
    #[error("serial port {port} is busy: another program has it open (a running ssc32_bridge, gamebot, screen or minicom?); close it and retry")]
    Busy {
        /// The port path.
        port: String,
    },
    /// The requested baud rate is outside [`crate::emulator::BAUD_RANGE`].
    #[error(
        "cannot open serial port {port}: baud rate {baud} is not usable (accepted 50 to 4000000)"
    )]
    Baud {
        /// The port path.
        port: String,
        /// The requested baud rate.
        baud: u32,
    },
    /// Any other failure to open or configure the device.
    #[error("cannot open serial port {port} at {baud} baud: {source}")]
    Open {
        /// The port path.
        port: String,
        /// The requested baud rate.
        baud: u32,
        /// What `serialport` reported.
        source: serialport::Error,
    },
    /// The `VER` handshake got no valid answer.
    #[error("no valid answer to VER from {port} at {baud} baud ({detail}): wrong baud rate? The SSC-32U's rate is set with its BAUD button (the LEDs show it); try --baud 9600 or --baud 115200")]
    Handshake {
        /// The port path.
        port: String,
        /// The baud rate tried.
        baud: u32,
        /// What went wrong.
        detail: String,
    },
    /// A response did not arrive within the read timeout.
    #[error("timed out after {after:?} waiting for the answer to `{command}` on {port}")]
    Timeout {
        /// The port path.
        port: String,
        /// The command sent.
        command: String,
        /// The read timeout.
        after: Duration,
    },
    /// The device went away (unplugged, powered off, emulator stopped).
    #[error("lost the connection to {port} ({source}): was the SSC-32U unplugged or powered off, or the emulator stopped?")]
    Disconnected {
        /// The port path.
        port: String,
        /// The I/O error seen.
        source: io::Error,
    },
    /// A move did not complete within its deadline; the servos were sent `STOP`.
    #[error("move on {port} not complete after {waited:?} (expected {expected:?}); sent STOP to channels {channels:?}. Servo stalled or overloaded?")]
    MoveTimeout {
        /// The port path.
        port: String,
        /// The planned move duration.
        expected: Duration,
        /// How long we polled.
        waited: Duration,
        /// The channels stopped.
        channels: Vec<u8>,
    },
    /// Answers kept arriving with noise around them.
    #[error("persistent garbage on {port}: {attempts} answers to `{command}` in a row were corrupt (last: {last:?}); check the cable, the baud rate and the ground connection")]
    Garbage {
        /// The port path.
        port: String,
        /// The command sent.
        command: String,
        /// How many tries.
        attempts: u32,
        /// The last bytes received.
        last: Vec<u8>,
    },
    /// A trajectory that cannot be sent.
    #[error("invalid trajectory: {0}")]
    Trajectory(String),
    /// A value out of range.
    #[error(transparent)]
    Protocol(#[from] ProtocolError),
}

/// How to open the port and how patient to be.
#[derive(Debug, Clone)]
pub struct DriverConfig {
    /// Device path, e.g. `/dev/ttyUSB0` or the emulator's `/dev/pts/N`.
    pub port: String,
    /// Baud rate; the board ships at 9600, 115200 is common.
    pub baud: u32,
    /// How long to wait for each answer (wall time).
    pub read_timeout: Duration,
    /// Pause between `Q` polls (on `clock`).
    pub poll_interval: Duration,
    /// A move may take this multiple of its planned duration...
    pub deadline_factor: f64,
    /// ...plus this margin of wall time (serial and scheduling latency; on a
    /// scaled clock it counts `rtf` times more clock time), before it is
    /// declared stuck.
    pub deadline_margin: Duration,
    /// How many corrupt answers in a row are retried before giving up.
    pub garbage_retries: u32,
    /// The clock moves are timed on (virtual in tests, shared with the emulator).
    pub clock: Clock,
}

impl DriverConfig {
    /// Defaults for `port`: 9600 baud, 500 ms read timeout, 10 ms polling,
    /// deadline 1.5 × move time + 500 ms, 3 retries on noise.
    pub fn new(port: impl Into<String>) -> Self {
        DriverConfig {
            port: port.into(),
            baud: 9600,
            read_timeout: Duration::from_millis(500),
            poll_interval: Duration::from_millis(10),
            deadline_factor: 1.5,
            deadline_margin: Duration::from_millis(500),
            garbage_retries: 3,
            clock: Clock::real(),
        }
    }

    /// Sets the baud rate.
    pub fn baud(mut self, baud: u32) -> Self {
        self.baud = baud;
        self
    }

    /// Sets the clock.
    pub fn clock(mut self, clock: Clock) -> Self {
        self.clock = clock;
        self
    }

    /// The longest a move planned to take `expected` may take, on `clock`.
    /// The margin is wall time: a simulation sped up 10× waits 10× more
    /// clock time for the same serial round trip.
    pub fn deadline(&self, expected: Duration) -> Duration {
        let rtf = self.clock.real_time_factor().unwrap_or(1.0);
        expected.mul_f64(self.deadline_factor) + self.deadline_margin.mul_f64(rtf)
    }
}

/// One point of a trajectory: where the channels must be, and when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrajectoryPoint {
    /// Channel targets.
    pub pulses: Vec<(Channel, Pulse)>,
    /// Time from the trajectory's start (strictly increasing along it).
    pub time_from_start: Duration,
}

/// What a completed move took, on the driver's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveReport {
    /// The duration the driver planned for.
    pub expected: Duration,
    /// From sending the move to the `Q` that answered `.`.
    pub elapsed: Duration,
    /// Number of `Q` polls.
    pub polls: u32,
}

/// An open SSC-32U.
pub struct Driver {
    port: TTYPort,
    config: DriverConfig,
    firmware: String,
    /// Last pulse commanded per channel (None = unknown), to plan speed-limited moves.
    known: [Option<Pulse>; CHANNELS],
}

impl std::fmt::Debug for Driver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Driver")
            .field("port", &self.config.port)
            .field("baud", &self.config.baud)
            .field("firmware", &self.firmware)
            .finish()
    }
}

/// Classifies an open failure into the error a person can act on.
pub fn classify_open_error(port: &str, baud: u32, e: serialport::Error) -> DriverError {
    let port = port.to_string();
    match e.kind() {
        serialport::ErrorKind::NoDevice => DriverError::Busy { port },
        serialport::ErrorKind::Io(io::ErrorKind::NotFound) => DriverError::NotFound { port },
        serialport::ErrorKind::Io(io::ErrorKind::PermissionDenied) => {
            DriverError::PermissionDenied { port }
        }
        _ => DriverError::Open {
            port,
            baud,
            source: e,
        },
    }
}

impl Driver {
    /// Opens the port, takes it exclusively, and checks there is an SSC-32U
    /// behind it with the `VER` handshake.
    pub fn open(config: DriverConfig) -> Result<Driver, DriverError> {
        if !crate::emulator::BAUD_RANGE.contains(&config.baud) {
            return Err(DriverError::Baud {
                port: config.port,
                baud: config.baud,
            });
        }
        if !Path::new(&config.port).exists() {
            return Err(DriverError::NotFound { port: config.port });
        }
        let port = serialport::new(&config.port, config.baud)
            .timeout(config.read_timeout)
            .open_native()
            .map_err(|e| classify_open_error(&config.port, config.baud, e))?;
        let mut driver = Driver {
            port,
            config,
            firmware: String::new(),
            known: [None; CHANNELS],
        };
        driver.firmware = driver.version().map_err(|e| match e {
            DriverError::Timeout { .. } | DriverError::Garbage { .. } => DriverError::Handshake {
                port: driver.config.port.clone(),
                baud: driver.config.baud,
                detail: e.to_string(),
            },
            other => other,
        })?;
        if !driver.firmware.starts_with("SSC32") {
            tracing::warn!(port = %driver.config.port, firmware = %driver.firmware,
                "VER answer does not look like an SSC-32 firmware string");
        }
        tracing::info!(port = %driver.config.port, firmware = %driver.firmware, "SSC-32U connected");
        Ok(driver)
    }

    /// The firmware string read at the handshake.
    pub fn firmware(&self) -> &str {
        &self.firmware
    }

    /// The configuration in use.
    pub fn config(&self) -> &DriverConfig {
        &self.config
    }

    fn disconnected(&self, source: io::Error) -> DriverError {
        DriverError::Disconnected {
            port: self.config.port.clone(),
            source,
        }
    }

    /// Sends a command without waiting for anything.
    pub fn send(&mut self, cmd: &Command) -> Result<(), DriverError> {
        let bytes = cmd.encode();
        tracing::trace!(port = %self.config.port, command = %cmd, "send");
        self.write_all(&bytes)
    }

    fn write_all(&mut self, bytes: &[u8]) -> Result<(), DriverError> {
        self.port
            .write_all(bytes)
            .and_then(|_| self.port.flush())
            .map_err(|e| self.disconnected(e))
    }

    /// Reads exactly `buf.len()` bytes, or until `\r` if `until_cr`; returns the count.
    fn read_response(
        &mut self,
        cmd: &Command,
        buf: &mut [u8],
        until_cr: bool,
    ) -> Result<usize, DriverError> {
        let start = Instant::now();
        let mut n = 0;
        while n < buf.len() {
            let left = self.config.read_timeout.saturating_sub(start.elapsed());
            if left.is_zero() {
                return Err(self.timeout(cmd));
            }
            self.port
                .set_timeout(left)
                .map_err(|e| self.disconnected(e.into()))?;
            match self.port.read(&mut buf[n..]) {
                Ok(0) => {
                    return Err(self
                        .disconnected(io::Error::new(io::ErrorKind::UnexpectedEof, "end of file")))
                }
                Ok(k) => {
                    n += k;
                    if until_cr && buf[..n].contains(&protocol::CR) {
                        break;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::TimedOut => return Err(self.timeout(cmd)),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(self.disconnected(e)),
            }
        }
        Ok(n)
    }

    fn timeout(&self, cmd: &Command) -> DriverError {
        DriverError::Timeout {
            port: self.config.port.clone(),
            command: cmd.to_string(),
            after: self.config.read_timeout,
        }
    }

    fn stray_bytes(&self) -> Result<u32, DriverError> {
        self.port
            .bytes_to_read()
            .map_err(|e| DriverError::Disconnected {
                port: self.config.port.clone(),
                source: e.into(),
            })
    }

    /// Sends a query and returns its validated answer, retrying on noise.
    fn query<T>(
        &mut self,
        cmd: &Command,
        decode: impl Fn(&[u8]) -> Result<T, ProtocolError>,
    ) -> Result<T, DriverError> {
        let mut last = Vec::new();
        for attempt in 0..=self.config.garbage_retries {
            // Stale bytes (late answers, noise) must not be taken for this answer.
            self.port
                .clear(ClearBuffer::Input)
                .map_err(|e| self.disconnected(e.into()))?;
            self.send(cmd)?;
            let (mut buf, until_cr) = match cmd.response_len() {
                Some(n) => (vec![0; n], false),
                None => (vec![0; VERSION_MAX], true),
            };
            let n = self.read_response(cmd, &mut buf, until_cr)?;
            buf.truncate(n);
            let mut stray = self.stray_bytes()?;
            let answer = if until_cr {
                // The answer ends at the first CR; anything read past it is stray.
                let end = buf
                    .iter()
                    .position(|&b| b == protocol::CR)
                    .unwrap_or(buf.len());
                stray += buf.len().saturating_sub(end + 1) as u32;
                &buf[..end]
            } else {
                &buf[..]
            };
            match decode(answer) {
                Ok(v) if stray == 0 => return Ok(v),
                Ok(_) => tracing::warn!(port = %self.config.port, command = %cmd, stray, attempt,
                    "answer followed by stray bytes; line noise? retrying"),
                Err(e) => {
                    tracing::warn!(port = %self.config.port, command = %cmd, error = %e, attempt,
                    "corrupt answer; line noise? retrying")
                }
            }
            last = buf;
        }
        Err(DriverError::Garbage {
            port: self.config.port.clone(),
            command: cmd.to_string(),
            attempts: self.config.garbage_retries + 1,
            last,
        })
    }

    /// `VER`: the firmware string.
    pub fn version(&mut self) -> Result<String, DriverError> {
        self.query(&Command::Version, protocol::parse_version)
    }

    /// `Q`: whether a move is in progress.
    pub fn movement(&mut self) -> Result<Movement, DriverError> {
        self.query(&Command::QueryMovement, |b| Movement::from_byte(b[0]))
    }

    /// `QP`: the current pulses of `channels` (None = output off), at the
    /// firmware's 10 µs resolution.
    pub fn read_pulses(&mut self, channels: &[Channel]) -> Result<Vec<Option<Pulse>>, DriverError> {
        let cmd = Command::query_pulse(channels.to_vec())?;
        self.query(&cmd, |bytes| {
            bytes
                .iter()
                .map(|&b| protocol::pulse_from_qp_byte(b))
                .collect()
        })
    }

    /// `QP` for all 32 channels.
    pub fn read_all_pulses(&mut self) -> Result<Vec<Option<Pulse>>, DriverError> {
        self.read_pulses(&Channel::all().collect::<Vec<_>>())
    }

    /// The duration the board will take for `m`, from what this driver
    /// commanded last. Channels whose position is unknown are assumed to
    /// travel the full range, so the deadline is never too short.
    pub fn planned_duration(&self, m: &GroupMove) -> Duration {
        let mut secs = m.time().map_or(0.0, |t| t.millis() as f64 / 1000.0);
        for t in m.targets() {
            if let Some(s) = t.speed {
                let dist = match self.known[t.channel.index()] {
                    Some(p) => (t.pulse.micros() as f64 - p.micros() as f64).abs(),
                    None => (protocol::PULSE_MAX - protocol::PULSE_MIN) as f64,
                };
                secs = secs.max(dist / s.get() as f64);
            }
        }
        Duration::from_secs_f64(secs)
    }

    /// Sends a group move and returns its planned duration, without waiting.
    pub fn start_move(&mut self, m: &GroupMove) -> Result<Duration, DriverError> {
        let expected = self.planned_duration(m);
        self.send(&Command::Move(m.clone()))?;
        for t in m.targets() {
            self.known[t.channel.index()] = Some(t.pulse);
        }
        Ok(expected)
    }

    /// Polls `Q` until the board reports the move done. Past the deadline
    /// for `expected`, sends `STOP` to `channels` and fails.
    pub fn wait_done(
        &mut self,
        expected: Duration,
        channels: &[Channel],
    ) -> Result<MoveReport, DriverError> {
        let clock = self.config.clock.clone();
        let start = clock.now();
        let deadline = self.config.deadline(expected);
        let mut polls = 0;
        loop {
            polls += 1;
            if self.movement()? == Movement::Done {
                return Ok(MoveReport {
                    expected,
                    elapsed: clock.now() - start,
                    polls,
                });
            }
            let waited = clock.now() - start;
            if waited >= deadline {
                self.stop(channels)?;
                return Err(DriverError::MoveTimeout {
                    port: self.config.port.clone(),
                    expected,
                    waited,
                    channels: channels.iter().map(|c| c.get()).collect(),
                });
            }
            clock.sleep(self.config.poll_interval.min(deadline - waited));
        }
    }

    /// Sends a group move and waits for it to complete.
    pub fn move_and_wait(&mut self, m: &GroupMove) -> Result<MoveReport, DriverError> {
        let start = self.config.clock.now();
        let expected = self.start_move(m)?;
        let channels: Vec<Channel> = m.targets().iter().map(|t| t.channel).collect();
        let mut report = self.wait_done(expected, &channels)?;
        report.elapsed = self.config.clock.now() - start;
        Ok(report)
    }

    /// Runs a trajectory as a sequence of timed group moves, each waited for
    /// before the next (the board holds one move at a time).
    pub fn run_trajectory(
        &mut self,
        points: &[TrajectoryPoint],
    ) -> Result<Vec<MoveReport>, DriverError> {
        let moves = trajectory_moves(points)?;
        moves.iter().map(|m| self.move_and_wait(m)).collect()
    }

    /// `STOP` for each channel.
    pub fn stop(&mut self, channels: &[Channel]) -> Result<(), DriverError> {
        let mut bytes = Vec::new();
        for &c in channels {
            bytes.extend(Command::Stop(c).encode());
            // Where it stopped is not known without asking.
            self.known[c.index()] = None;
        }
        self.write_all(&bytes)
    }

    /// Stops every channel this driver has moved, or all 32 if it has moved none.
    pub fn stop_all(&mut self) -> Result<(), DriverError> {
        let mut chs: Vec<Channel> = Channel::all()
            .filter(|c| self.known[c.index()].is_some())
            .collect();
        if chs.is_empty() {
            chs = Channel::all().collect();
        }
        self.stop(&chs)
    }
}

/// Converts trajectory points into timed group moves (`T` = time since the
/// previous point). Rejects empty points, times that do not increase, and
/// segments longer than the firmware's 65535 ms.
pub fn trajectory_moves(points: &[TrajectoryPoint]) -> Result<Vec<GroupMove>, DriverError> {
    let mut prev = Duration::ZERO;
    let mut out = Vec::with_capacity(points.len());
    for (i, p) in points.iter().enumerate() {
        if i > 0 && p.time_from_start <= prev {
            return Err(DriverError::Trajectory(format!(
                "point {i}: time_from_start {:?} does not increase (previous {:?})",
                p.time_from_start, prev
            )));
        }
        let ms = (p.time_from_start - prev).as_millis();
        let time = if ms == 0 {
            None
        } else {
            Some(
                MoveTime::new(u32::try_from(ms).unwrap_or(u32::MAX)).map_err(|_| {
                    DriverError::Trajectory(format!(
                        "point {i}: segment of {ms} ms exceeds 65535 ms"
                    ))
                })?,
            )
        };
        let targets = p
            .pulses
            .iter()
            .map(|&(channel, pulse)| ServoTarget {
                channel,
                pulse,
                speed: None,
            })
            .collect();
        out.push(
            GroupMove::new(targets, time)
                .map_err(|e| DriverError::Trajectory(format!("point {i}: {e}")))?,
        );
        prev = p.time_from_start;
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
