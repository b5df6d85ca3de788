//! `gamebot calibrate board-to-arm --board FILE --arm NAME --port PORT [--out FILE]`
//!
//! Starts `ssc32_bridge` and `arm_controller` in this process on PORT (an
//! SSC-32U, or the pty of `gamebot ssc32 emulate` / the simulator), brings
//! the tool above the first of the board's marks and lets the person jog it
//! onto each mark: on a terminal with single keys (arrows or WASD move in
//! x/y, R/F up/down, +/- change the step 10 / 2 / 0.5 mm, Enter records the
//! point, U undoes, Q quits), otherwise with line commands read from stdin
//! (`jog DX DY DZ`, `record`, `undo`, `fit`, `save`, `quit`). After each
//! point from the third on, the fit so far is shown; the placement is saved
//! into the board file (or `--out`), keeping every other line of it.

use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;

use anyhow::{Context, Result};
use gamebot_kinematics::{Arm, Board};
use gamebot_nodes::board_registration::{
    apply, describe_fit, run_lines, Command, LinesOutcome, Registrar, Rig,
};
use gamebot_ssc32::Clock;

#[derive(clap::Args)]
pub struct Args {
    /// Board file to register (config/boards/*.yaml).
    #[arg(long)]
    pub board: PathBuf,
    /// Arm: a name under config/arms/ or a YAML path.
    #[arg(long, default_value = "al5d")]
    pub arm: String,
    /// Serial port of the SSC-32U (or the emulator's / simulator's pty).
    #[arg(long)]
    pub port: String,
    /// Baud rate (the board's BAUD setting).
    #[arg(long, default_value_t = 9600, value_parser = crate::limits::BAUD)]
    pub baud: u32,
    /// Where to write the registered board file (default: the board file itself).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Jog step sizes (mm), `+` / `-` move along them.
const STEPS_MM: [f64; 3] = [10.0, 2.0, 0.5];

pub fn run(a: Args) -> Result<i32> {
    let board = Board::load(&a.board).with_context(|| "calibrate board-to-arm: --board")?;
    let arm = Arm::load_named(&a.arm)
        .or_else(|_| Arm::load(&a.arm))
        .with_context(|| format!("calibrate board-to-arm: --arm {}", a.arm))?;
    let out = a.out.clone().unwrap_or_else(|| a.board.clone());
    let rig = Rig::start(&a.arm, &a.port, a.baud, Clock::real())
        .with_context(|| "calibrate board-to-arm")?;
    let mut reg = Registrar::new(&rig, arm, board, out.clone())
        .with_context(|| format!("calibrate board-to-arm on {}", a.port))?;
    let marks: Vec<String> = reg
        .session()
        .marks()
        .iter()
        .enumerate()
        .map(|(i, m)| {
            format!(
                "  {}. {} (x={:.1}, y={:.1} cm)",
                i + 1,
                m.name,
                m.nominal_cm[0],
                m.nominal_cm[1]
            )
        })
        .collect();
    outln!(
        "registering {} with arm {} on {}; the marks:\n{}",
        a.board.display(),
        a.arm,
        a.port,
        marks.join("\n")
    );
    let outcome = if std::io::stdin().is_terminal() {
        keyboard(&mut reg)?
    } else {
        run_lines(&mut reg, std::io::stdin().lock(), &mut std::io::stdout())?
    };
    if let Err(e) = reg.park() {
        eprintln!("warning: {e}");
    }
    drop(reg);
    rig.stop().context("stopping the arm nodes")?;
    if let Some(f) = &outcome.saved {
        outln!(
            "{}: placement saved (rms {:.2} mm over {} points)",
            out.display(),
            f.rms_mm,
            f.residuals_mm.len()
        );
    }
    Ok(if outcome.saved.is_some() && outcome.errors.is_empty() {
        0
    } else {
        1
    })
}

/// The terminal in raw mode while it lives (restored on drop).
struct RawMode {
    saved: nix::sys::termios::Termios,
}

impl RawMode {
    fn enter() -> Result<RawMode> {
        use nix::sys::termios::{cfmakeraw, tcgetattr, tcsetattr, SetArg};
        let stdin = std::io::stdin();
        let saved = tcgetattr(&stdin).context("reading the terminal's settings")?;
        let mut raw = saved.clone();
        cfmakeraw(&mut raw);
        tcsetattr(&stdin, SetArg::TCSANOW, &raw).context("raw terminal mode")?;
        Ok(RawMode { saved })
    }
}

impl Drop for RawMode {
    fn drop(&mut self) {
        use nix::sys::termios::{tcsetattr, SetArg};
        let _ = tcsetattr(std::io::stdin(), SetArg::TCSANOW, &self.saved);
    }
}

/// Writes text with `\r\n` line ends (raw mode does not add the `\r`).
struct Crlf<W: Write>(W);

impl<W: Write> Write for Crlf<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let text = String::from_utf8_lossy(buf).replace('\n', "\r\n");
        self.0.write_all(text.as_bytes())?;
        self.0.flush()?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// A key of the keyboard session.
enum Key {
    Move([f64; 3]),
    Finer,
    Coarser,
    Record,
    Undo,
    Quit,
    Other,
}

fn read_key(input: &mut impl Read) -> std::io::Result<Option<Key>> {
    let mut b = [0u8; 1];
    if input.read(&mut b)? == 0 {
        return Ok(None);
    }
    Ok(Some(match b[0] {
        0x1b => {
            // An arrow: ESC [ A..D.
            let mut seq = [0u8; 2];
            input.read_exact(&mut seq)?;
            match seq {
                [b'[', b'A'] => Key::Move([0.0, 1.0, 0.0]),
                [b'[', b'B'] => Key::Move([0.0, -1.0, 0.0]),
                [b'[', b'C'] => Key::Move([1.0, 0.0, 0.0]),
                [b'[', b'D'] => Key::Move([-1.0, 0.0, 0.0]),
                _ => Key::Other,
            }
        }
        b'w' | b'W' => Key::Move([0.0, 1.0, 0.0]),
        b's' | b'S' => Key::Move([0.0, -1.0, 0.0]),
        b'd' | b'D' => Key::Move([1.0, 0.0, 0.0]),
        b'a' | b'A' => Key::Move([-1.0, 0.0, 0.0]),
        b'r' | b'R' => Key::Move([0.0, 0.0, 1.0]),
        b'f' | b'F' => Key::Move([0.0, 0.0, -1.0]),
        b'+' | b'=' => Key::Coarser,
        b'-' | b'_' => Key::Finer,
        b'\r' | b'\n' => Key::Record,
        b'u' | b'U' => Key::Undo,
        b'q' | b'Q' | 3 | 4 => Key::Quit,
        _ => Key::Other,
    }))
}

/// The keyboard session on a terminal.
fn keyboard(reg: &mut Registrar) -> Result<LinesOutcome> {
    let _raw = RawMode::enter()?;
    let mut out = Crlf(std::io::stdout());
    let mut input = std::io::stdin().lock();
    let mut outcome = LinesOutcome::default();
    let mut step = 0usize;
    writeln!(
        out,
        "keys: arrows/WASD move x/y, R/F up/down, +/- step size, Enter records, U undoes, Q quits"
    )?;
    reg.go_to_next_mark()?;
    writeln!(out, "jog the tool tip onto {}", reg.describe_next())?;
    while let Some(key) = read_key(&mut input)? {
        let cmd = match key {
            Key::Move(d) => Command::Jog(d.map(|v| v * STEPS_MM[step])),
            Key::Coarser | Key::Finer => {
                step = match key {
                    Key::Coarser => step.saturating_sub(1),
                    _ => (step + 1).min(STEPS_MM.len() - 1),
                };
                writeln!(out, "step {} mm", STEPS_MM[step])?;
                continue;
            }
            Key::Record => Command::Record,
            Key::Undo => Command::Undo,
            Key::Quit => break,
            Key::Other => continue,
        };
        if let Err(e) = apply(reg, &cmd, &mut out, &mut outcome) {
            writeln!(out, "error: {e}")?;
        }
    }
    match reg.fit() {
        Ok(f) => {
            write!(
                out,
                "{}save the placement to {}? [y/N] ",
                describe_fit(&f, reg.session()),
                reg.out().display()
            )?;
            if let Some(b'y' | b'Y') = input.by_ref().bytes().next().transpose()? {
                writeln!(out, "y")?;
                if let Err(e) = apply(reg, &Command::Save, &mut out, &mut outcome) {
                    writeln!(out, "error: {e}")?;
                    outcome.errors.push(e.to_string());
                }
            } else {
                writeln!(out, "not saved")?;
            }
        }
        Err(e) => writeln!(out, "not saved: {e}")?,
    }
    Ok(outcome)
}
