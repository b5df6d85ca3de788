//! `gamebot ssc32 emulator|probe|send` — the SSC-32U servo controller from
//! the command line: run an emulated board on a pseudo-terminal, and talk to
//! a real or emulated one.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use gamebot_ssc32::emulator::{block_termination_signals, LogEntry, Outcome};
use gamebot_ssc32::{Channel, Command, Driver, DriverConfig, Emulator, EmulatorConfig, Movement};

/// The SSC-32U subcommands.
#[derive(clap::Subcommand)]
pub enum Action {
    /// Run an emulated SSC-32U on a pseudo-terminal. The first line on stdout
    /// is the device path alone; commands are logged to stderr until killed.
    Emulator(EmulatorArgs),
    /// Handshake with a board, print its firmware and every channel's pulse.
    Probe(PortArgs),
    /// Send one command (e.g. "#0P1500T1000") and wait for it to complete;
    /// queries print their answer.
    Send(SendArgs),
}

/// Options of `gamebot ssc32 emulator`.
#[derive(clap::Args)]
pub struct EmulatorArgs {
    /// Also make this symlink to the device (a stable path for scripts);
    /// a stale symlink there is replaced, and removed on exit.
    #[arg(long)]
    link: Option<PathBuf>,
    /// Baud rate the emulated board is set to; clients at another rate get no answers.
    #[arg(long, default_value_t = 9600, value_parser = crate::limits::BAUD)]
    baud: u32,
    /// The `VER` answer.
    #[arg(long, default_value = gamebot_ssc32::emulator::DEFAULT_FIRMWARE)]
    firmware: String,
    /// Answer only after the time the bytes would take on a real serial line at --baud.
    #[arg(long)]
    pace: bool,
    /// Fault: delay every answer by this many milliseconds.
    #[arg(long, default_value_t = 0, value_parser = crate::limits::DELAY_MS)]
    response_delay_ms: u64,
    /// Fault: put this many random bytes before every answer.
    #[arg(long, default_value_t = 0, value_parser = crate::limits::GARBAGE_BYTES)]
    garbage: usize,
    /// Fault: moves never complete (`Q` keeps answering `+` until `STOP`).
    #[arg(long)]
    stall: bool,
}

/// Which port to talk to.
#[derive(clap::Args)]
pub struct PortArgs {
    /// Serial device, e.g. /dev/ttyUSB0 or the path `gamebot ssc32 emulator` printed.
    #[arg(long)]
    port: String,
    /// Baud rate (the board ships at 9600; 115200 is common).
    #[arg(long, default_value_t = 9600, value_parser = crate::limits::BAUD)]
    baud: u32,
    /// How long to wait for each answer, in milliseconds.
    #[arg(long, default_value_t = 500, value_parser = crate::limits::MILLIS)]
    timeout_ms: u64,
}

/// Options of `gamebot ssc32 send`.
#[derive(clap::Args)]
pub struct SendArgs {
    #[command(flatten)]
    port: PortArgs,
    /// The command, without the carriage return, e.g. "#0P1500T1000", "Q", "QP 0", "VER", "STOP 0".
    command: String,
}

/// Runs an SSC-32U subcommand.
pub fn run(action: Action) -> anyhow::Result<i32> {
    match action {
        Action::Emulator(a) => emulator(a),
        Action::Probe(a) => probe(a),
        Action::Send(a) => send(a),
    }
}

fn open(a: &PortArgs) -> anyhow::Result<Driver> {
    let mut config = DriverConfig::new(&a.port).baud(a.baud);
    config.read_timeout = Duration::from_millis(a.timeout_ms);
    Ok(Driver::open(config)?)
}

fn emulator(a: EmulatorArgs) -> anyhow::Result<i32> {
    // Before any thread starts, so every thread inherits the blocked mask and
    // the signal reaches our wait: then Drop removes the --link symlink.
    let wait = block_termination_signals().context("blocking termination signals")?;
    let emu = Emulator::start(EmulatorConfig {
        baud: a.baud,
        link: a.link.clone(),
        firmware: a.firmware.clone(),
        pace_line: a.pace,
        ..EmulatorConfig::default()
    })?;
    emu.set_response_delay(Duration::from_millis(a.response_delay_ms));
    emu.set_garbage_per_response(a.garbage)?;
    emu.set_stall(a.stall);
    let log = emu.subscribe_log();
    {
        let mut out = std::io::stdout().lock();
        writeln!(out, "{}", emu.slave_path().display())?;
        out.flush()?;
    }
    eprintln!(
        "ssc32 emulator: {} ({} baud, firmware {}){}",
        emu.slave_path().display(),
        a.baud,
        a.firmware,
        a.link
            .as_ref()
            .map(|l| format!(", link {}", l.display()))
            .unwrap_or_default()
    );
    std::thread::spawn(move || {
        // Polling sends the same `Q` many times: print a run of identical
        // exchanges once, then how often it repeated.
        let mut last: Option<(String, Vec<u8>)> = None;
        let mut repeats = 0u32;
        for entry in log {
            let key = (entry.line.clone(), entry.response.clone());
            if last.as_ref() == Some(&key) {
                repeats += 1;
                continue;
            }
            if repeats > 0 {
                eprintln!("{:>11}  (repeated {repeats} more times)", "");
            }
            repeats = 0;
            eprintln!("{}", describe(&entry));
            last = Some(key);
        }
    });
    let signal = wait().context("waiting for a termination signal")?;
    eprintln!(
        "ssc32 emulator: signal {signal}, closing {}",
        emu.slave_path().display()
    );
    drop(emu);
    Ok(0)
}

/// One stderr line per command: clock time, text, what the board did.
fn describe(e: &LogEntry) -> String {
    let what = match &e.outcome {
        Outcome::Executed(Command::Move(_)) => "move".to_string(),
        Outcome::Executed(Command::Stop(c)) => format!("stop channel {c}"),
        Outcome::Executed(Command::QueryMovement) => {
            format!(
                "answer {:?}",
                e.response.first().map(|&b| b as char).unwrap_or('?')
            )
        }
        Outcome::Executed(Command::QueryPulse(chs)) => {
            let parts: Vec<String> = chs
                .iter()
                .zip(&e.response)
                .map(|(c, &b)| format!("{c}={}", b as u32 * 10))
                .collect();
            format!("answer {:?} ({} µs)", e.response, parts.join(" "))
        }
        Outcome::Executed(Command::Version) => {
            format!("answer {:?}", String::from_utf8_lossy(&e.response))
        }
        Outcome::Ignored(why) => format!("ignored: {why}"),
        Outcome::WrongBaud { client } => format!("unreadable: client at {client} baud"),
    };
    format!("{:>10.3}s  {:<30} {what}", e.time.as_secs_f64(), e.line)
}

fn print_pulses(
    channels: &[Channel],
    pulses: &[Option<gamebot_ssc32::Pulse>],
) -> anyhow::Result<()> {
    for (c, p) in channels.iter().zip(pulses) {
        match p {
            Some(p) => outln!("channel {c:>2}: {p} µs"),
            None => outln!("channel {c:>2}: off"),
        }
    }
    Ok(())
}

fn probe(a: PortArgs) -> anyhow::Result<i32> {
    let mut drv = open(&a)?;
    outln!("port: {} at {} baud", a.port, a.baud);
    outln!("firmware: {}", drv.firmware());
    let moving = drv.movement()?;
    outln!(
        "moving: {}",
        if moving == Movement::Moving {
            "yes"
        } else {
            "no"
        }
    );
    let channels: Vec<Channel> = Channel::all().collect();
    let pulses = drv.read_pulses(&channels)?;
    print_pulses(&channels, &pulses)?;
    Ok(0)
}

fn send(a: SendArgs) -> anyhow::Result<i32> {
    let cmd = Command::parse(&a.command)
        .with_context(|| format!("not an SSC-32U command: {:?}", a.command))?;
    let mut drv = open(&a.port)?;
    match &cmd {
        Command::Move(m) => {
            let report = drv.move_and_wait(m)?;
            outln!(
                "done in {} ms (planned {} ms, {} polls)",
                report.elapsed.as_millis(),
                report.expected.as_millis(),
                report.polls
            );
        }
        Command::QueryMovement => {
            let m = drv.movement()?;
            outln!(
                "{} ({})",
                m.byte() as char,
                if m == Movement::Moving {
                    "moving"
                } else {
                    "done"
                }
            );
        }
        Command::QueryPulse(chs) => {
            let pulses = drv.read_pulses(chs)?;
            print_pulses(chs, &pulses)?;
        }
        Command::Version => outln!("{}", drv.version()?),
        Command::Stop(c) => {
            drv.stop(&[*c])?;
            let p = drv.read_pulses(&[*c])?;
            print_pulses(&[*c], &p)?;
        }
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamebot_ssc32::emulator::LogEntry;

    #[test]
    fn describes_answers_readably() {
        let e = LogEntry {
            time: Duration::from_millis(1500),
            line: "QP 0".into(),
            outcome: Outcome::Executed(Command::parse("QP 0").unwrap()),
            response: vec![150],
        };
        let s = describe(&e);
        assert!(s.contains("1.500s") && s.contains("0=1500"), "{s}");
    }
}
