//! An SSC-32U emulator on a pseudo-terminal.
//!
//! [`Emulator::start`] creates a pty pair in raw mode; programs open the
//! slave path (e.g. `/dev/pts/7`, optionally through a stable symlink) exactly
//! as they would open `/dev/ttyUSB0`, so the driver's real serial code runs.
//! A thread reads commands from the master side and answers like the
//! firmware. The owner sees the servo outputs through [`Emulator::pulses`] or
//! a [`PulseFrame`] channel, follow the motion model exactly through
//! [`Emulator::subscribe_motion`], and can inject faults: disconnect (and
//! [`Emulator::reconnect`] at the same link path), stall, garbage bytes and
//! slow responses.

mod servo_motion;

pub use servo_motion::{Board, MoveRecord};

use std::io;
use std::os::fd::{AsFd, AsRawFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
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
/// Baud rates a serial line can be set to (50 is the lowest POSIX rate; no
/// USB adapter goes beyond a few Mbaud). Zero would divide by zero when pacing.
pub const BAUD_RANGE: std::ops::RangeInclusive<u32> = 50..=4_000_000;
/// The most noise bytes [`Emulator::set_garbage_per_response`] accepts per answer.
pub const GARBAGE_MAX: usize = 65_536;

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
    #[error(
        "cannot create link {path}: it exists and is not a stale symlink (refusing to replace it)"
    )]
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
    /// The configured baud rate is outside [`BAUD_RANGE`].
    #[error("baud rate {0} is not usable: accepted 50 to 4000000")]
    Baud(u32),
    /// More noise bytes per answer than [`GARBAGE_MAX`].
    #[error("{0} garbage bytes per answer is too many: at most 65536")]
    Garbage(usize),
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

/// The motion model right after it changed (a move, a `STOP`, a stall
/// starting or ending). Between two updates the servos follow `board`
/// exactly, so an owner can evaluate the outputs at any time in between with
/// [`Board::pulses_at`].
#[derive(Debug, Clone)]
pub struct MotionUpdate {
    /// Clock time of the change.
    pub time: Duration,
    /// The motion model from that time on.
    pub board: Board,
    /// The command that changed it; `None` for a stall fault starting or ending.
    pub command: Option<Command>,
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
    motion: Vec<Sender<MotionUpdate>>,
}

impl Subscribers {
    fn send_motion(&mut self, update: MotionUpdate) {
        self.motion.retain(|tx| tx.send(update.clone()).is_ok());
    }
}

struct Shared {
    board: Mutex<Board>,
    faults: Mutex<Faults>,
    subs: Mutex<Subscribers>,
    shutdown: AtomicBool,
    connected: AtomicBool,
    /// Notified when `shutdown` is set, so a delayed answer stops waiting.
    wake: (Mutex<()>, Condvar),
}

impl Shared {
    /// Waits `delay` unless shutdown comes first; true if shutting down.
    fn wait_unless_shutdown(&self, delay: Duration) -> bool {
        let deadline = std::time::Instant::now() + delay;
        let mut guard = lock(&self.wake.0);
        loop {
            if self.shutdown.load(Ordering::SeqCst) {
                return true;
            }
            let now = std::time::Instant::now();
            if now >= deadline {
                return false;
            }
            guard = self
                .wake
                .1
                .wait_timeout(guard, deadline - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// Sets `shutdown` and wakes a worker waiting in [`Shared::wait_unless_shutdown`].
    fn request_shutdown(&self) {
        let _guard = lock(&self.wake.0);
        self.shutdown.store(true, Ordering::SeqCst);
        self.wake.1.notify_all();
    }
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
    /// What a reconnect needs to start a new line like the first one.
    settings: LineSettings,
}

/// The serial-line settings of a worker, kept for [`Emulator::reconnect`].
#[derive(Debug, Clone)]
struct LineSettings {
    baud: u32,
    firmware: String,
    publish_interval: Duration,
    seed: u64,
    pace_line: bool,
}

/// A new pty pair in raw mode at `baud`, the master non-blocking, and the
/// keeper holding the slave open.
fn open_pty(baud: u32) -> Result<(PtyMaster, PathBuf, ExclusiveKeeper), EmulatorError> {
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
    set_baud(&master, baud).map_err(pty("TCSETS2"))?;
    let flags = nix::fcntl::fcntl(&master, nix::fcntl::FcntlArg::F_GETFL).map_err(pty("fcntl"))?;
    nix::fcntl::fcntl(
        &master,
        nix::fcntl::FcntlArg::F_SETFL(OFlag::from_bits_truncate(flags) | OFlag::O_NONBLOCK),
    )
    .map_err(pty("fcntl"))?;
    let keeper = ExclusiveKeeper::open(&slave).map_err(pty("open slave"))?;
    Ok((master, slave, keeper))
}

impl Emulator {
    /// Creates the pty pair, configures it, and starts answering.
    pub fn start(config: EmulatorConfig) -> Result<Emulator, EmulatorError> {
        if !BAUD_RANGE.contains(&config.baud) {
            return Err(EmulatorError::Baud(config.baud));
        }
        let (master, slave, keeper) = open_pty(config.baud)?;
        if let Some(link) = &config.link {
            make_link(&slave, link, None)?;
        }
        let shared = Arc::new(Shared {
            board: Mutex::new(Board::new()),
            faults: Mutex::new(Faults::default()),
            subs: Mutex::new(Subscribers::default()),
            shutdown: AtomicBool::new(false),
            connected: AtomicBool::new(true),
            wake: (Mutex::new(()), Condvar::new()),
        });
        let settings = LineSettings {
            baud: config.baud,
            firmware: config.firmware,
            publish_interval: config.publish_interval,
            seed: config.seed,
            pace_line: config.pace_line,
        };
        let thread = spawn_worker(master, keeper, &slave, &shared, &config.clock, &settings)?;
        tracing::info!(device = %slave.display(), baud = config.baud, "SSC-32U emulator started");
        Ok(Emulator {
            slave,
            link: config.link,
            clock: config.clock,
            shared,
            thread: Some(thread),
            settings,
        })
    }

    /// Ends a [`Emulator::disconnect`] fault: a new pseudo-terminal is created
    /// (the device comes back, as when the USB cable is plugged in again) and
    /// the link, if any, is pointed at it, so clients reopen the same path.
    /// The servo outputs are those the board had: it stayed powered. Does
    /// nothing if the line is up.
    pub fn reconnect(&mut self) -> Result<(), EmulatorError> {
        if self.is_connected() {
            return Ok(());
        }
        if let Some(t) = self.thread.take() {
            if t.join().is_err() {
                tracing::warn!("emulator: the previous worker thread had panicked");
            }
        }
        let (master, slave, keeper) = open_pty(self.settings.baud)?;
        if let Some(link) = &self.link {
            make_link(&slave, link, Some(&self.slave))?;
        }
        lock(&self.shared.faults).disconnect = false;
        self.shared.connected.store(true, Ordering::SeqCst);
        let thread = spawn_worker(
            master,
            keeper,
            &slave,
            &self.shared,
            &self.clock,
            &self.settings,
        )?;
        self.thread = Some(thread);
        tracing::info!(device = %slave.display(), link = ?self.link, "emulator: reconnected");
        self.slave = slave;
        Ok(())
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

    /// A channel receiving the motion model after every change (moves,
    /// `STOP`, stall start and end), in order.
    pub fn subscribe_motion(&self) -> Receiver<MotionUpdate> {
        let (tx, rx) = mpsc::channel();
        lock(&self.shared.subs).motion.push(tx);
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
        let mut board = lock(&self.shared.board);
        if board.is_stalled() == stalled {
            return;
        }
        board.set_stalled(stalled, now);
        lock(&self.shared.subs).send_motion(MotionUpdate {
            time: now,
            board: board.clone(),
            command: None,
        });
        drop(board);
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
    pub fn set_garbage_per_response(&self, n: usize) -> Result<(), EmulatorError> {
        if n > GARBAGE_MAX {
            return Err(EmulatorError::Garbage(n));
        }
        lock(&self.shared.faults).garbage_per_response = n;
        tracing::info!(n, "emulator fault: garbage before every response");
        Ok(())
    }

    /// Fault: the device disappears (the pty master is closed, as when the
    /// USB cable is pulled). Clients get errors; the emulator stops answering;
    /// the link, if any, is removed (as udev removes a by-id link).
    /// [`Emulator::reconnect`] brings it back.
    pub fn disconnect(&self) {
        lock(&self.shared.faults).disconnect = true;
        // Wait for the thread to close the master so the caller can rely on it.
        while self.shared.connected.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(1));
        }
        self.remove_link();
        tracing::info!("emulator fault: disconnected");
    }

    /// Whether the pty is still open.
    pub fn is_connected(&self) -> bool {
        self.shared.connected.load(Ordering::SeqCst)
    }
}

impl Emulator {
    /// Removes the link if it still points at our device.
    fn remove_link(&self) {
        if let Some(link) = &self.link {
            if std::fs::read_link(link).ok().as_deref() == Some(self.slave.as_path()) {
                if let Err(e) = std::fs::remove_file(link) {
                    tracing::warn!(link = %link.display(), error = %e, "emulator: cannot remove the link");
                }
            }
        }
    }
}

impl Drop for Emulator {
    fn drop(&mut self) {
        // Wakes a worker waiting out a response delay: shutdown never waits on a reply.
        self.shared.request_shutdown();
        if let Some(t) = self.thread.take() {
            if t.join().is_err() {
                tracing::warn!("emulator: the worker thread had panicked");
            }
        }
        self.remove_link();
    }
}

fn spawn_worker(
    master: PtyMaster,
    keeper: ExclusiveKeeper,
    slave: &Path,
    shared: &Arc<Shared>,
    clock: &Clock,
    settings: &LineSettings,
) -> Result<JoinHandle<()>, EmulatorError> {
    let worker = Worker {
        master,
        keeper,
        shared: shared.clone(),
        clock: clock.clone(),
        baud: settings.baud,
        firmware: settings.firmware.clone(),
        publish_interval: settings.publish_interval,
        rng: settings.seed | 1,
        pace_line: settings.pace_line,
        line: Vec::new(),
        overflow: false,
        last_frame: None,
    };
    std::thread::Builder::new()
        .name(format!("ssc32-emulator {}", slave.display()))
        .spawn(move || worker.run())
        .map_err(EmulatorError::Thread)
}

/// Points `link` at `slave`. An existing symlink is replaced only when it is
/// stale (its target is gone) or still points at our own previous device
/// `ours`; a valid symlink to anything else is left alone and refused.
fn make_link(slave: &Path, link: &Path, ours: Option<&Path>) -> Result<(), EmulatorError> {
    match std::fs::symlink_metadata(link) {
        Ok(m) if m.file_type().is_symlink() => {
            let target = std::fs::read_link(link).ok();
            let stale = std::fs::metadata(link).is_err();
            let our_own = ours.is_some() && target.as_deref() == ours;
            if !stale && !our_own {
                return Err(EmulatorError::LinkOccupied {
                    path: link.to_path_buf(),
                });
            }
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
    // SAFETY: termios2 is a C struct of integers and integer arrays, for which
    // all-zero bytes are a valid value.
    let mut t: libc::termios2 = unsafe { std::mem::zeroed() };
    // SAFETY: the fd is open for the borrow of `master`; TCGETS2 writes one
    // termios2 into the struct we own and pass by exclusive pointer.
    Errno::result(unsafe { libc::ioctl(master.as_fd().as_raw_fd(), libc::TCGETS2, &mut t) })?;
    Ok(t.c_ospeed)
}

fn set_baud(master: &impl AsFd, baud: u32) -> Result<(), Errno> {
    let fd = master.as_fd().as_raw_fd();
    // SAFETY: termios2 is a C struct of integers and integer arrays, for which
    // all-zero bytes are a valid value.
    let mut t: libc::termios2 = unsafe { std::mem::zeroed() };
    // SAFETY: the fd is open for the borrow of `master`; TCGETS2 writes one
    // termios2 into the struct we own and pass by exclusive pointer.
    Errno::result(unsafe { libc::ioctl(fd, libc::TCGETS2, &mut t) })?;
    t.c_cflag &= !libc::CBAUD;
    t.c_cflag |= libc::BOTHER;
    t.c_ispeed = baud;
    t.c_ospeed = baud;
    // SAFETY: as above; TCSETS2 only reads the struct, which lives across the call.
    Errno::result(unsafe { libc::ioctl(fd, libc::TCSETS2, &t) })?;
    Ok(())
}

/// Holds the slave side open and undoes the exclusive mode (TIOCEXCL) a
/// client leaves behind when it dies without closing the port.
///
/// `serialport` sets TIOCEXCL and takes an exclusive `flock`. On a real USB
/// adapter the last close frees the tty and the flag with it; on a pty the
/// master keeps the tty alive, so after a killed client every later open by a
/// non-root user would fail with EBUSY. The flock dies with its process, so
/// "exclusive flag set, nobody holds a flock" (seen twice in a row, to never
/// race a client between its two calls) means the owner is gone.
struct ExclusiveKeeper {
    slave: std::os::fd::OwnedFd,
    dev: (u64, u64),
    ino: u64,
    orphan_seen: bool,
    last_check: std::time::Instant,
}

impl ExclusiveKeeper {
    const PERIOD: Duration = Duration::from_millis(100);

    fn open(slave: &Path) -> Result<Self, Errno> {
        let fd = nix::fcntl::open(
            slave,
            OFlag::O_RDWR | OFlag::O_NOCTTY | OFlag::O_NONBLOCK | OFlag::O_CLOEXEC,
            nix::sys::stat::Mode::empty(),
        )?;
        let st = nix::sys::stat::fstat(&fd)?;
        Ok(ExclusiveKeeper {
            slave: fd,
            dev: (
                nix::sys::stat::major(st.st_dev as _) as u64,
                nix::sys::stat::minor(st.st_dev as _) as u64,
            ),
            ino: st.st_ino as u64,
            orphan_seen: false,
            last_check: std::time::Instant::now(),
        })
    }

    fn check(&mut self) {
        if self.last_check.elapsed() < Self::PERIOD {
            return;
        }
        self.last_check = std::time::Instant::now();
        let fd = self.slave.as_raw_fd();
        let mut excl: libc::c_int = 0;
        // SAFETY: `fd` is the slave we keep open (an OwnedFd field); TIOCGEXCL
        // writes one int into the variable we own.
        let got = Errno::result(unsafe { libc::ioctl(fd, libc::TIOCGEXCL, &mut excl) });
        if let Err(e) = got {
            // Cannot tell: never clear a live client's mode on a guess.
            tracing::warn!(error = %e, "emulator: TIOCGEXCL on the slave failed");
            self.orphan_seen = false;
            return;
        }
        if excl == 0 {
            self.orphan_seen = false;
            return;
        }
        if flock_held(self.dev, self.ino) {
            self.orphan_seen = false;
        } else if !std::mem::replace(&mut self.orphan_seen, true) {
            // First sighting: a client may be between TIOCEXCL and flock.
        } else {
            // SAFETY: `fd` is the slave we keep open; TIOCNXCL takes no argument
            // and touches no memory of ours.
            match Errno::result(unsafe { libc::ioctl(fd, libc::TIOCNXCL) }) {
                Ok(_) => tracing::info!(
                    "emulator: cleared the exclusive mode left by a client that died"
                ),
                Err(e) => tracing::warn!(
                    error = %e,
                    "emulator: TIOCNXCL failed; the port stays exclusive"
                ),
            }
            self.orphan_seen = false;
        }
    }
}

/// Whether `/proc/locks` lists a flock on the file (device, inode). If the
/// list cannot be read, assume it does (never clear a live client's mode).
fn flock_held(dev: (u64, u64), ino: u64) -> bool {
    let Ok(text) = std::fs::read_to_string("/proc/locks") else {
        return true;
    };
    text.lines().any(|line| {
        // "1: FLOCK  ADVISORY  WRITE 1234 00:19:3 0 EOF"; waiters have "->" after the id.
        let f: Vec<&str> = line.split_whitespace().filter(|t| *t != "->").collect();
        f.get(1) == Some(&"FLOCK")
            && f.get(5).is_some_and(|id| {
                let mut parts = id.split(':');
                let maj = parts.next().and_then(|x| u64::from_str_radix(x, 16).ok());
                let min = parts.next().and_then(|x| u64::from_str_radix(x, 16).ok());
                let i = parts.next().and_then(|x| x.parse::<u64>().ok());
                (maj, min, i) == (Some(dev.0), Some(dev.1), Some(ino))
            })
    })
}

struct Worker {
    master: PtyMaster,
    keeper: ExclusiveKeeper,
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
            self.keeper.check();
        }
        // Closing the master (dropping it) is the disconnect.
        drop(self.keeper);
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
        let motion = |board: &Board, subs: &Mutex<Subscribers>| {
            lock(subs).send_motion(MotionUpdate {
                time: now,
                board: board.clone(),
                command: Some(cmd.clone()),
            })
        };
        match cmd {
            Command::Move(m) => {
                board.group_move(m, now);
                motion(&board, &self.shared.subs);
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
                motion(&board, &self.shared.subs);
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
        if !delay.is_zero() && self.shared.wait_unless_shutdown(delay) {
            return;
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    fn virtual_emulator(link: Option<PathBuf>) -> Result<Emulator, EmulatorError> {
        Emulator::start(EmulatorConfig {
            clock: Clock::virtual_clock(),
            link,
            ..EmulatorConfig::default()
        })
    }

    /// Whether the slave's exclusive flag is set (an open that fails with
    /// EBUSY, for non-root, says the same).
    fn exclusive(path: &Path) -> bool {
        match nix::fcntl::open(
            path,
            OFlag::O_RDWR | OFlag::O_NOCTTY,
            nix::sys::stat::Mode::empty(),
        ) {
            Err(Errno::EBUSY) => true,
            Err(e) => panic!("open {}: {e}", path.display()),
            Ok(fd) => {
                let mut excl: libc::c_int = 0;
                // SAFETY: TIOCGEXCL writes one int we own.
                assert_eq!(
                    unsafe { libc::ioctl(fd.as_raw_fd(), libc::TIOCGEXCL, &mut excl) },
                    0
                );
                excl != 0
            }
        }
    }

    #[test]
    fn exclusive_mode_of_a_dead_client_is_cleared() {
        let emu = virtual_emulator(None).unwrap();
        let path = emu.slave_path().to_path_buf();
        {
            let fd = nix::fcntl::open(
                &path,
                OFlag::O_RDWR | OFlag::O_NOCTTY,
                nix::sys::stat::Mode::empty(),
            )
            .unwrap();
            // SAFETY: TIOCEXCL takes no argument. Closing without TIOCNXCL is
            // what a killed process does.
            assert_eq!(unsafe { libc::ioctl(fd.as_raw_fd(), libc::TIOCEXCL) }, 0);
        }
        let start = Instant::now();
        // Liveness only: the keeper looks every 100 ms; allow a loaded machine plenty.
        while exclusive(&path) {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "flag never cleared"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    #[test]
    fn exclusive_mode_of_a_live_client_is_kept() {
        let emu = virtual_emulator(None).unwrap();
        let port = serialport::new(emu.path().to_str().unwrap(), 9600)
            .open_native()
            .unwrap();
        // Several keeper periods with the client's flock held.
        std::thread::sleep(Duration::from_millis(400));
        assert!(exclusive(emu.slave_path()));
        drop(port);
        assert!(!exclusive(emu.slave_path()), "a clean close clears it");
    }

    #[test]
    fn link_is_made_replaced_and_removed() {
        let dir = std::env::temp_dir().join(format!("gamebot-ssc32-link-{}", std::process::id()));
        let _ = std::fs::remove_file(&dir);
        std::os::unix::fs::symlink("/nonexistent/stale", &dir).unwrap();
        let emu = virtual_emulator(Some(dir.clone())).unwrap();
        assert_eq!(emu.path(), dir.as_path());
        assert_eq!(std::fs::read_link(&dir).unwrap(), emu.slave_path());
        drop(emu);
        assert!(std::fs::symlink_metadata(&dir).is_err(), "link removed");
        std::fs::write(&dir, b"not a link").unwrap();
        let e = virtual_emulator(Some(dir.clone()))
            .err()
            .expect("refuses a regular file");
        assert!(matches!(e, EmulatorError::LinkOccupied { .. }), "{e}");
        std::fs::remove_file(&dir).unwrap();
    }

    #[test]
    fn disconnect_removes_the_device() {
        let emu = virtual_emulator(None).unwrap();
        assert!(emu.slave_path().exists());
        emu.disconnect();
        assert!(!emu.is_connected());
        assert!(!emu.slave_path().exists());
    }

    #[test]
    fn reconnect_comes_back_at_the_link_with_the_same_outputs() {
        use crate::driver::{Driver, DriverConfig, DriverError};
        let link =
            std::env::temp_dir().join(format!("gamebot-ssc32-reconnect-{}", std::process::id()));
        let _ = std::fs::remove_file(&link);
        let mut emu = virtual_emulator(Some(link.clone())).unwrap();
        let motion = emu.subscribe_motion();
        let config = DriverConfig::new(link.to_str().unwrap()).clock(emu.clock().clone());
        let mut d = Driver::open(config.clone()).unwrap();
        d.send(&Command::parse("#0P1600T100").unwrap()).unwrap();
        let up = motion.recv_timeout(Duration::from_secs(10)).unwrap();
        assert!(matches!(up.command, Some(Command::Move(_))), "{up:?}");
        emu.clock().advance(Duration::from_millis(200));
        let first_slave = emu.slave_path().to_path_buf();

        emu.disconnect();
        assert!(!emu.is_connected());
        assert!(
            std::fs::symlink_metadata(&link).is_err(),
            "link removed while down"
        );
        let e = d.version().unwrap_err();
        assert!(
            matches!(
                e,
                DriverError::Disconnected { .. } | DriverError::Timeout { .. }
            ),
            "{e}"
        );
        assert!(e.to_string().contains(link.to_str().unwrap()), "{e}");

        emu.reconnect().unwrap();
        assert!(emu.is_connected());
        assert_eq!(std::fs::read_link(&link).unwrap(), emu.slave_path());
        emu.reconnect().unwrap(); // no-op while up
        let mut d2 = Driver::open(config).unwrap();
        assert_eq!(d2.version().unwrap(), DEFAULT_FIRMWARE);
        // The board stayed powered: channel 0 is where the move left it.
        let p = d2.read_pulses(&[crate::Channel::new(0).unwrap()]).unwrap();
        assert_eq!(p[0].map(|p| p.micros()), Some(1600));
        emu.set_stall(true);
        let st = motion.recv_timeout(Duration::from_secs(10)).unwrap();
        assert!(st.command.is_none() && st.board.is_stalled());
        drop(d2);
        drop(emu);
        assert!(
            std::fs::symlink_metadata(&link).is_err(),
            "link removed on drop"
        );
        let _ = first_slave;
    }

    #[test]
    fn flock_listing_is_parsed() {
        // Our own flock on a temp file must show up under its device and inode.
        let path = std::env::temp_dir().join(format!("gamebot-ssc32-lock-{}", std::process::id()));
        let f = std::fs::File::create(&path).unwrap();
        let st = nix::sys::stat::fstat(&f).unwrap();
        let dev = (
            nix::sys::stat::major(st.st_dev as _) as u64,
            nix::sys::stat::minor(st.st_dev as _) as u64,
        );
        assert!(!flock_held(dev, st.st_ino as u64));
        let locked =
            nix::fcntl::Flock::lock(f, nix::fcntl::FlockArg::LockExclusiveNonblock).unwrap();
        assert!(flock_held(dev, st.st_ino as u64));
        drop(locked);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_valid_symlink_to_something_else_is_neither_replaced_nor_removed() {
        let dir = std::env::temp_dir().join(format!("gamebot-ssc32-valid-{}", std::process::id()));
        let _ = std::fs::remove_file(&dir);
        // A live target: another device's link must survive us.
        std::os::unix::fs::symlink("/dev/null", &dir).unwrap();
        let e = virtual_emulator(Some(dir.clone()))
            .err()
            .expect("refuses a valid symlink");
        assert!(matches!(e, EmulatorError::LinkOccupied { .. }), "{e}");
        assert_eq!(std::fs::read_link(&dir).unwrap(), Path::new("/dev/null"));
        std::fs::remove_file(&dir).unwrap();
    }

    #[test]
    fn baud_zero_and_huge_garbage_are_refused() {
        let e = Emulator::start(EmulatorConfig {
            baud: 0,
            clock: Clock::virtual_clock(),
            pace_line: true,
            ..EmulatorConfig::default()
        })
        .err()
        .expect("baud 0 refused");
        assert!(matches!(e, EmulatorError::Baud(0)), "{e}");
        let emu = virtual_emulator(None).unwrap();
        let e = emu.set_garbage_per_response(usize::MAX).unwrap_err();
        assert!(e.to_string().contains("at most 65536"), "{e}");
        emu.set_garbage_per_response(GARBAGE_MAX).unwrap();
        let Err(e) = crate::driver::Driver::open(crate::driver::DriverConfig {
            baud: 0,
            ..crate::driver::DriverConfig::new(emu.path().to_str().unwrap())
        }) else {
            panic!("driver accepted baud 0");
        };
        assert!(e.to_string().contains("baud rate 0"), "{e}");
    }

    #[test]
    fn shutdown_does_not_wait_for_a_delayed_answer() {
        let emu = virtual_emulator(None).unwrap();
        // An hour: if drop waited for it, this test would never end.
        emu.set_response_delay(Duration::from_secs(3600));
        let log = emu.subscribe_log();
        let mut port = serialport::new(emu.path().to_str().unwrap(), 9600)
            .open_native()
            .unwrap();
        std::io::Write::write_all(&mut port, b"VER\r").unwrap();
        // The worker has executed VER and is now waiting out the delay.
        let entry = log.recv_timeout(Duration::from_secs(60)).unwrap();
        assert_eq!(entry.line, "VER");
        drop(emu);
    }
}
