//! An SSC-32U emulator on a pseudo-terminal.
//!
//! [`Emulator::start`] creates a pty pair in raw mode; programs open the
//! slave path (e.g. `/dev/pts/7`, optionally through a stable symlink) exactly
//! as they would open `/dev/ttyUSB0`, so the driver's real serial code runs.
//! A thread reads commands from the master side and answers like the
//! firmware. The owner sees the servo outputs through [`Emulator::pulses`] or
//! a [`PulseFrame`] channel, and can inject faults: disconnect, stall,
//! garbage bytes and slow responses.

mod board;

pub use board::{Board, MoveRecord};

use std::io;
use std::os::fd::{AsFd, AsRawFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use nix::errno::Errno;
use nix::fcntl::OFlag;
use nix::poll::{PollFd, PollFlags, PollTimeout};
use nix::pty::PtyMaster;
use thiserror::Error;

use crate::clock::Clock;
use crate::protocol::{self, Command, ProtocolError, Pulse, CHANNELS};

/// The firmware string the emulator answers `VER` with by default.
pub const DEFAULT_FIRMWARE: &str = "SSC32-V2.50USB";

/// Longest command line the firmware buffers; longer lines are dropped.
const LINE_MAX: usize = 256;
/// How long the thread waits for input before looking at its controls again.
const IDLE_POLL: Duration = Duration::from_millis(5);
/// ESC cancels the command being typed, as on the real board.
const ESC: u8 = 0x1b;

/// Errors creating the emulator.
#[derive(Debug, Error)]
pub enum EmulatorError {
    /// The pseudo-terminal could not be created or configured.
    #[error("cannot create the emulator's pseudo-terminal ({step}): {source}")]
    Pty {
        /// Which system call failed.
        step: &'static str,
        /// The OS error.
        source: Errno,
    },
    /// The requested symlink path exists and is not a symlink.
    #[error("cannot create link {path}: it exists and is not a symlink (refusing to replace it)")]
    LinkOccupied {
        /// The requested link path.
        path: PathBuf,
    },
    /// The symlink could not be created.
    #[error("cannot create link {path}: {source}")]
    Link {
        /// The requested link path.
        path: PathBuf,
        /// The OS error.
        source: io::Error,
    },
    /// The emulator thread could not be started.
    #[error("cannot start the emulator thread: {0}")]
    Thread(io::Error),
}

/// How to start an emulator.
#[derive(Debug, Clone)]
pub struct EmulatorConfig {
    /// The baud rate the emulated board is set to. A client that opens the
    /// port at another rate gets what a real board gives: nothing it can read.
    pub baud: u32,
    /// Time source for servo motion (virtual in tests, real otherwise).
    pub clock: Clock,
    /// A stable symlink to the slave device, replaced if it is a stale symlink.
    pub link: Option<PathBuf>,
    /// The `VER` answer.
    pub firmware: String,
    /// How often (in clock time) a [`PulseFrame`] is published while servos move.
    pub publish_interval: Duration,
    /// Seed of the garbage-byte generator, so fault tests are repeatable.
    pub seed: u64,
    /// Delay each answer by the time its command and answer would take on a
    /// real serial line at `baud` (10 bits per byte), so round trips are as
    /// slow as the hardware's. Off by default: the pty itself is instant.
    pub pace_line: bool,
}

impl Default for EmulatorConfig {
    fn default() -> Self {
        EmulatorConfig {
            baud: 9600,
            clock: Clock::real(),
            link: None,
            firmware: DEFAULT_FIRMWARE.to_string(),
            publish_interval: Duration::from_millis(20),
            seed: 0x5eed_5c32,
            pace_line: false,
        }
    }
}

/// The servo outputs at one instant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PulseFrame {
    /// Clock time of the frame.
    pub time: Duration,
    /// Pulse per channel in µs; 0 = output off (never commanded).
    pub pulses: [u16; CHANNELS],
    /// Whether a move is in progress (what `Q` would answer).
    pub moving: bool,
}

/// What the emulator did with one received line.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Understood and executed.
    Executed(Command),
    /// Not understood; ignored like the firmware does.
    Ignored(ProtocolError),
    /// Received at a baud rate other than the board's: unreadable, ignored.
    WrongBaud {
        /// The rate the client set.
        client: u32,
    },
}

/// One line received by the emulator.
#[derive(Debug, Clone, PartialEq)]
pub struct LogEntry {
    /// Clock time it was executed at.
    pub time: Duration,
    /// The text received (lossy UTF-8, without the `\r`).
    pub line: String,
    /// What happened.
    pub outcome: Outcome,
    /// The answer sent back (without injected noise); empty if none.
    pub response: Vec<u8>,
}

#[derive(Debug, Default)]
struct Faults {
    response_delay: Duration,
    garbage_per_response: usize,
    garbage_next: Vec<u8>,
    disconnect: bool,
}

#[derive(Default)]
struct Subscribers {
    pulses: Vec<Sender<PulseFrame>>,
    log: Vec<Sender<LogEntry>>,
}

struct Shared {
    board: Mutex<Board>,
    faults: Mutex<Faults>,
    subs: Mutex<Subscribers>,
    shutdown: AtomicBool,
    connected: AtomicBool,
}

/// A poisoned lock only means another thread panicked mid-update; the data
/// (servo segments, fault flags) is still consistent enough to keep serving.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A running emulated SSC-32U. Dropping it stops the thread, closes the pty
/// and removes the symlink.
pub struct Emulator {
    slave: PathBuf,
    link: Option<PathBuf>,
    clock: Clock,
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl Emulator {
    /// Creates the pty pair, configures it, and starts answering.
    pub fn start(config: EmulatorConfig) -> Result<Emulator, EmulatorError> {
        let pty = |step| move |source| EmulatorError::Pty { step, source };
        let master = nix::pty::posix_openpt(OFlag::O_RDWR | OFlag::O_NOCTTY | OFlag::O_CLOEXEC)
            .map_err(pty("posix_openpt"))?;
        nix::pty::grantpt(&master).map_err(pty("grantpt"))?;
        nix::pty::unlockpt(&master).map_err(pty("unlockpt"))?;
        let slave = PathBuf::from(nix::pty::ptsname_r(&master).map_err(pty("ptsname"))?);
        // Termios requests on the master act on the slave side: raw, 8N1, the board's baud.
        let mut t = nix::sys::termios::tcgetattr(&master).map_err(pty("tcgetattr"))?;
        nix::sys::termios::cfmakeraw(&mut t);
        nix::sys::termios::tcsetattr(&master, nix::sys::termios::SetArg::TCSANOW, &t)
            .map_err(pty("tcsetattr"))?;
        set_baud(&master, config.baud).map_err(pty("TCSETS2"))?;
        let flags =
            nix::fcntl::fcntl(&master, nix::fcntl::FcntlArg::F_GETFL).map_err(pty("fcntl"))?;
        nix::fcntl::fcntl(
            &master,
            nix::fcntl::FcntlArg::F_SETFL(OFlag::from_bits_truncate(flags) | OFlag::O_NONBLOCK),
        )
        .map_err(pty("fcntl"))?;

        if let Some(link) = &config.link {
            make_link(&slave, link)?;
        }

        let shared = Arc::new(Shared {
            board: Mutex::new(Board::new()),
            faults: Mutex::new(Faults::default()),
            subs: Mutex::new(Subscribers::default()),
            shutdown: AtomicBool::new(false),
            connected: AtomicBool::new(true),
        });
        let worker = Worker {
            master,
            shared: shared.clone(),
            clock: config.clock.clone(),
            baud: config.baud,
            firmware: config.firmware,
            publish_interval: config.publish_interval,
            rng: config.seed | 1,
            pace_line: config.pace_line,
            line: Vec::new(),
            overflow: false,
            last_frame: None,
        };
        let thread = std::thread::Builder::new()
            .name(format!("ssc32-emulator {}", slave.display()))
            .spawn(move || worker.run())
            .map_err(EmulatorError::Thread)?;
        tracing::info!(device = %slave.display(), baud = config.baud, "SSC-32U emulator started");
        Ok(Emulator {
            slave,
            link: config.link,
            clock: config.clock,
            shared,
            thread: Some(thread),
        })
    }

    /// The path clients open: the symlink if one was asked for, else the slave device.
    pub fn path(&self) -> &Path {
        self.link.as_deref().unwrap_or(&self.slave)
    }

    /// The slave device itself, e.g. `/dev/pts/7`.
    pub fn slave_path(&self) -> &Path {
        &self.slave
    }

    /// The emulator's clock.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// The servo outputs now.
    pub fn pulses(&self) -> PulseFrame {
        let now = self.clock.now();
        let board = lock(&self.shared.board);
        PulseFrame {
            time: now,
            pulses: board.pulses_at(now),
            moving: board.movement_at(now) == protocol::Movement::Moving,
        }
    }

    /// A snapshot of the motion model (targets, last move record).
    pub fn board(&self) -> Board {
        lock(&self.shared.board).clone()
    }

    /// The last group move executed, with its start time and planned duration.
    pub fn last_move(&self) -> Option<MoveRecord> {
        lock(&self.shared.board).last_move().cloned()
    }

    /// A channel receiving a [`PulseFrame`] after every command and every
    /// `publish_interval` of clock time while servos move.
    pub fn subscribe_pulses(&self) -> Receiver<PulseFrame> {
        let (tx, rx) = mpsc::channel();
        lock(&self.shared.subs).pulses.push(tx);
        rx
    }

    /// A channel receiving every line the emulator reads and what it did with it.
    pub fn subscribe_log(&self) -> Receiver<LogEntry> {
        let (tx, rx) = mpsc::channel();
        lock(&self.shared.subs).log.push(tx);
        rx
    }

    /// Fault: moves stop progressing and never complete (`Q` answers `+`)
    /// until released; `STOP` still ends them.
    pub fn set_stall(&self, stalled: bool) {
        let now = self.clock.now();
        lock(&self.shared.board).set_stalled(stalled, now);
        tracing::info!(stalled, "emulator fault: stall");
    }

    /// Fault: every response is delayed by `delay` of wall time (a slow or
    /// congested USB adapter).
    pub fn set_response_delay(&self, delay: Duration) {
        lock(&self.shared.faults).response_delay = delay;
        tracing::info!(?delay, "emulator fault: slow responses");
    }

    /// Fault: the next response is preceded by these bytes (line noise).
    pub fn inject_garbage(&self, bytes: &[u8]) {
        lock(&self.shared.faults)
            .garbage_next
            .extend_from_slice(bytes);
        tracing::info!(
            n = bytes.len(),
            "emulator fault: garbage before the next response"
        );
    }

    /// Fault: every response is preceded by `n` pseudo-random bytes (0 = off).
    pub fn set_garbage_per_response(&self, n: usize) {
        lock(&self.shared.faults).garbage_per_response = n;
        tracing::info!(n, "emulator fault: garbage before every response");
    }

    /// Fault: the device disappears (the pty master is closed, as when the
    /// USB cable is pulled). Clients get errors; the emulator stops answering.
    pub fn disconnect(&self) {
        lock(&self.shared.faults).disconnect = true;
        // Wait for the thread to close the master so the caller can rely on it.
        while self.shared.connected.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(1));
        }
        tracing::info!("emulator fault: disconnected");
    }

    /// Whether the pty is still open.
    pub fn is_connected(&self) -> bool {
        self.shared.connected.load(Ordering::SeqCst)
    }
}

impl Drop for Emulator {
    fn drop(&mut self) {
        self.shared.shutdown.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        if let Some(link) = &self.link {
            // Only remove the link if it is still ours.
            if std::fs::read_link(link).ok().as_deref() == Some(self.slave.as_path()) {
                let _ = std::fs::remove_file(link);
            }
        }
    }
}

fn make_link(slave: &Path, link: &Path) -> Result<(), EmulatorError> {
    match std::fs::symlink_metadata(link) {
        Ok(m) if m.file_type().is_symlink() => {
            std::fs::remove_file(link).map_err(|source| EmulatorError::Link {
                path: link.to_path_buf(),
                source,
            })?;
        }
        Ok(_) => {
            return Err(EmulatorError::LinkOccupied {
                path: link.to_path_buf(),
            })
        }
        Err(_) => {}
    }
    std::os::unix::fs::symlink(slave, link).map_err(|source| EmulatorError::Link {
        path: link.to_path_buf(),
        source,
    })
}

/// Reads the baud rate the client set on the slave side (`TCGETS2` works for
/// any rate, including the non-standard ones `serialport` sets with `BOTHER`).
fn client_baud(master: &impl AsFd) -> Result<u32, Errno> {
    let mut t: libc::termios2 = unsafe { std::mem::zeroed() };
    // SAFETY: TCGETS2 fills a termios2 struct we own.
    Errno::result(unsafe { libc::ioctl(master.as_fd().as_raw_fd(), libc::TCGETS2, &mut t) })?;
    Ok(t.c_ospeed)
}

fn set_baud(master: &impl AsFd, baud: u32) -> Result<(), Errno> {
    let fd = master.as_fd().as_raw_fd();
    let mut t: libc::termios2 = unsafe { std::mem::zeroed() };
    // SAFETY: TCGETS2/TCSETS2 read and write a termios2 struct we own.
    Errno::result(unsafe { libc::ioctl(fd, libc::TCGETS2, &mut t) })?;
    t.c_cflag &= !libc::CBAUD;
    t.c_cflag |= libc::BOTHER;
    t.c_ispeed = baud;
    t.c_ospeed = baud;
    Errno::result(unsafe { libc::ioctl(fd, libc::TCSETS2, &t) })?;
    Ok(())
}

struct Worker {
    master: PtyMaster,
    shared: Arc<Shared>,
    clock: Clock,
    baud: u32,
    firmware: String,
    publish_interval: Duration,
    rng: u64,
    pace_line: bool,
    line: Vec<u8>,
    overflow: bool,
    last_frame: Option<PulseFrame>,
}

impl Worker {
    fn run(mut self) {
        let mut buf = [0u8; 512];
        while !self.shared.shutdown.load(Ordering::SeqCst) {
            if lock(&self.shared.faults).disconnect {
                break;
            }
            let mut fds = [PollFd::new(self.master.as_fd(), PollFlags::POLLIN)];
            let ready = nix::poll::poll(&mut fds, PollTimeout::from(IDLE_POLL.as_millis() as u16));
            let revents = fds[0].revents().unwrap_or(PollFlags::empty());
            if ready.is_ok_and(|n| n > 0) && revents.contains(PollFlags::POLLIN) {
                match nix::unistd::read(&self.master, &mut buf) {
                    Ok(n) => {
                        let chunk = buf[..n].to_vec();
                        self.receive(&chunk);
                    }
                    // EIO: no client has the slave open; wait for the next one.
                    Err(Errno::EAGAIN) | Err(Errno::EIO) => std::thread::sleep(IDLE_POLL),
                    Err(e) => {
                        tracing::warn!(error = %e, "emulator: reading the pty failed");
                        std::thread::sleep(IDLE_POLL);
                    }
                }
            } else if revents.contains(PollFlags::POLLHUP) {
                // No client connected: poll returns at once, so pace the loop.
                self.line.clear();
                std::thread::sleep(IDLE_POLL);
            }
            self.publish(false);
        }
        // Closing the master (dropping it) is the disconnect.
        drop(self.master);
        self.shared.connected.store(false, Ordering::SeqCst);
    }

    fn receive(&mut self, chunk: &[u8]) {
        let client = client_baud(&self.master).unwrap_or(self.baud);
        for &b in chunk {
            match b {
                b'\r' => {
                    let line = std::mem::take(&mut self.line);
                    if std::mem::take(&mut self.overflow) {
                        continue;
                    }
                    self.execute(&line, client);
                }
                b'\n' => {}
                ESC => self.line.clear(),
                _ if self.line.len() >= LINE_MAX => self.overflow = true,
                _ => self.line.push(b),
            }
        }
    }

    fn execute(&mut self, line: &[u8], client_baud: u32) {
        let now = self.clock.now();
        let text = String::from_utf8_lossy(line).into_owned();
        // A real board at another baud rate sees framing errors, not characters.
        let outcome = if client_baud != self.baud {
            Outcome::WrongBaud {
                client: client_baud,
            }
        } else {
            match Command::parse(&text) {
                Ok(cmd) => Outcome::Executed(cmd),
                Err(e) => Outcome::Ignored(e),
            }
        };
        let response = match &outcome {
            Outcome::Executed(cmd) => Some(self.apply(cmd, now)),
            Outcome::Ignored(e) => {
                tracing::debug!(line = %text, error = %e, "emulator: ignored malformed command");
                None
            }
            Outcome::WrongBaud { client } => {
                tracing::debug!(
                    client,
                    board = self.baud,
                    "emulator: baud mismatch, line unreadable"
                );
                None
            }
        };
        let response = response.unwrap_or_default();
        self.log(LogEntry {
            time: now,
            line: text,
            outcome,
            response: response.clone(),
        });
        if !response.is_empty() {
            let wire = if self.pace_line {
                // Command + CR in, answer out, 10 bits per byte (8N1).
                let bits = (line.len() + 1 + response.len()) as f64 * 10.0;
                Duration::from_secs_f64(bits / self.baud as f64)
            } else {
                Duration::ZERO
            };
            self.respond(&response, wire);
        }
        self.publish(true);
    }

    fn apply(&mut self, cmd: &Command, now: Duration) -> Vec<u8> {
        let mut board = lock(&self.shared.board);
        match cmd {
            Command::Move(m) => {
                board.group_move(m, now);
                vec![]
            }
            Command::QueryMovement => vec![board.movement_at(now).byte()],
            Command::QueryPulse(chs) => chs
                .iter()
                .map(|&c| protocol::qp_byte(Pulse::new(board.pulse_at(c, now) as u32).ok()))
                .collect(),
            Command::Version => {
                let mut v = self.firmware.clone().into_bytes();
                v.push(protocol::CR);
                v
            }
            Command::Stop(c) => {
                board.stop(*c, now);
                vec![]
            }
        }
    }

    fn respond(&mut self, response: &[u8], wire: Duration) {
        let (delay, mut out, noise) = {
            let mut f = lock(&self.shared.faults);
            let out = std::mem::take(&mut f.garbage_next);
            (f.response_delay, out, f.garbage_per_response)
        };
        for _ in 0..noise {
            let b = self.next_random();
            out.push(b);
        }
        let delay = delay + wire;
        if !delay.is_zero() {
            std::thread::sleep(delay);
        }
        out.extend_from_slice(response);
        // One write, so the response arrives in one piece (as the board's
        // UART sends it back to back).
        let mut rest = &out[..];
        while !rest.is_empty() {
            match nix::unistd::write(&self.master, rest) {
                Ok(n) => rest = &rest[n..],
                Err(Errno::EAGAIN) => std::thread::sleep(Duration::from_millis(1)),
                Err(e) => {
                    tracing::debug!(error = %e, "emulator: response dropped (no client)");
                    return;
                }
            }
        }
    }

    fn next_random(&mut self) -> u8 {
        // xorshift64: repeatable noise without a dependency.
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        (self.rng >> 24) as u8
    }

    fn log(&self, entry: LogEntry) {
        lock(&self.shared.subs)
            .log
            .retain(|tx| tx.send(entry.clone()).is_ok());
    }

    /// Publishes a frame after a command (`forced`) or every `publish_interval`
    /// while moving, plus one final frame when motion ends.
    fn publish(&mut self, forced: bool) {
        let now = self.clock.now();
        let frame = {
            let board = lock(&self.shared.board);
            PulseFrame {
                time: now,
                pulses: board.pulses_at(now),
                moving: board.movement_at(now) == protocol::Movement::Moving,
            }
        };
        let due = match &self.last_frame {
            None => forced,
            Some(last) => {
                forced
                    || (frame.moving && now >= last.time + self.publish_interval)
                    || (last.moving && !frame.moving)
                    || (!frame.moving && last.pulses != frame.pulses)
            }
        };
        if due {
            lock(&self.shared.subs)
                .pulses
                .retain(|tx| tx.send(frame.clone()).is_ok());
            self.last_frame = Some(frame);
        }
    }
}

/// Blocks SIGINT, SIGTERM and SIGHUP in the calling thread (and every thread
/// it starts afterwards) and returns a waiter; calling it returns the signal
/// received. Hosts call this before [`Emulator::start`] so they can drop the
/// emulator (and remove its symlink) on Ctrl-C instead of dying mid-way.
pub fn block_termination_signals() -> io::Result<impl FnOnce() -> io::Result<i32>> {
    use nix::sys::signal::{SigSet, Signal};
    let mut set = SigSet::empty();
    for s in [Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP] {
        set.add(s);
    }
    set.thread_block().map_err(io::Error::from)?;
    Ok(move || set.wait().map(|s| s as i32).map_err(io::Error::from))
}
