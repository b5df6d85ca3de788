//! `gamebot bench ssc32` — command round-trip latency to the SSC-32U
//! emulator over a real pseudo-terminal, and how closely the emulated
//! board's motion follows the commanded timing (wall clock).

use std::time::{Duration, Instant};

use gamebot_ssc32::{
    Channel, Driver, DriverConfig, Emulator, EmulatorConfig, GroupMove, MoveTime, Movement, Pulse,
    ServoTarget,
};
use serde::Serialize;

/// Options of `gamebot bench ssc32`.
#[derive(clap::Args)]
pub struct Args {
    /// Round trips measured per command and baud rate.
    #[arg(long, default_value_t = 2000, value_parser = crate::limits::ITERATIONS)]
    iterations: usize,
    /// Baud rates to measure (the pty itself does not throttle; this checks the setting path).
    #[arg(long, value_delimiter = ',', default_value = "9600,115200", value_parser = crate::limits::BAUD)]
    bauds: Vec<u32>,
    /// Commanded move times (ms) for the timing-accuracy part.
    #[arg(long, value_delimiter = ',', default_value = "100,250,500,1000,2000", value_parser = crate::limits::MILLIS)]
    move_ms: Vec<u32>,
    /// Moves per commanded time.
    #[arg(long, default_value_t = 3, value_parser = crate::limits::ITERATIONS)]
    repeats: usize,
    /// `Q` polling interval in the timing part, in ms.
    #[arg(long, default_value_t = 1, value_parser = crate::limits::MILLIS)]
    poll_ms: u64,
    /// Print JSON instead of tables.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Latency {
    baud: u32,
    /// Whether the emulator added the serial line's byte time.
    paced: bool,
    command: String,
    n: usize,
    min_us: f64,
    median_us: f64,
    p99_us: f64,
    max_us: f64,
}

#[derive(Serialize)]
struct Timing {
    commanded_ms: u32,
    moves: usize,
    /// From sending the move to the first `Q` answering `.`, mean over moves.
    mean_elapsed_ms: f64,
    /// Largest overshoot of `elapsed` over the commanded time.
    max_overshoot_ms: f64,
    /// Smallest overshoot (negative = finished early).
    min_overshoot_ms: f64,
    /// Mean |QP reading − linear interpolation at the reading's wall time| during the move.
    mean_position_error_us: f64,
    /// QP read back after each move equals the target.
    final_exact: bool,
}

#[derive(Serialize)]
struct Report {
    latency: Vec<Latency>,
    timing: Vec<Timing>,
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn stats(baud: u32, paced: bool, command: &str, mut samples: Vec<Duration>) -> Latency {
    samples.sort();
    let pick = |q: f64| micros(samples[((samples.len() - 1) as f64 * q).round() as usize]);
    Latency {
        baud,
        paced,
        command: command.to_string(),
        n: samples.len(),
        min_us: pick(0.0),
        median_us: pick(0.5),
        p99_us: pick(0.99),
        max_us: pick(1.0),
    }
}

fn measure(
    n: usize,
    mut f: impl FnMut() -> Result<(), gamebot_ssc32::DriverError>,
) -> anyhow::Result<Vec<Duration>> {
    // Warm-up: first calls pay for page faults and thread wake-ups.
    for _ in 0..n.min(20) {
        f()?;
    }
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let t = Instant::now();
        f()?;
        out.push(t.elapsed());
    }
    Ok(out)
}

fn latency(n: usize, baud: u32, paced: bool) -> anyhow::Result<Vec<Latency>> {
    let emu = Emulator::start(EmulatorConfig {
        baud,
        pace_line: paced,
        ..EmulatorConfig::default()
    })?;
    let mut drv = Driver::open(DriverConfig::new(emu.path().to_string_lossy()).baud(baud))?;
    let one = [Channel::new(0)?];
    let all: Vec<Channel> = Channel::all().collect();
    let m = GroupMove::new(
        all.iter()
            .map(|&channel| ServoTarget {
                channel,
                pulse: Pulse::CENTRE,
                speed: None,
            })
            .collect(),
        None,
    )?;
    drv.move_and_wait(&m)?;
    Ok(vec![
        stats(baud, paced, "Q", measure(n, || drv.movement().map(drop))?),
        stats(
            baud,
            paced,
            "QP 0",
            measure(n, || drv.read_pulses(&one).map(drop))?,
        ),
        stats(
            baud,
            paced,
            "QP 0..31",
            measure(n, || drv.read_pulses(&all).map(drop))?,
        ),
        stats(baud, paced, "VER", measure(n, || drv.version().map(drop))?),
    ])
}

fn timing(a: &Args) -> anyhow::Result<Vec<Timing>> {
    let emu = Emulator::start(EmulatorConfig::default())?;
    let mut config = DriverConfig::new(emu.path().to_string_lossy());
    config.poll_interval = Duration::from_millis(a.poll_ms);
    let mut drv = Driver::open(config)?;
    let ch = Channel::new(0)?;
    let (lo, hi) = (1000u32, 2000u32);
    let target = |p: u32, t: Option<u32>| -> anyhow::Result<GroupMove> {
        Ok(GroupMove::new(
            vec![ServoTarget {
                channel: ch,
                pulse: Pulse::new(p)?,
                speed: None,
            }],
            t.map(MoveTime::new).transpose()?,
        )?)
    };
    drv.move_and_wait(&target(lo, None)?)?;
    let mut at_lo = true;
    let mut rows = Vec::new();
    for &ms in &a.move_ms {
        let mut elapsed = Vec::new();
        let mut pos_err = Vec::new();
        let mut exact = true;
        for _ in 0..a.repeats {
            let (from, to) = if at_lo { (lo, hi) } else { (hi, lo) };
            at_lo = !at_lo;
            let t0 = Instant::now();
            drv.start_move(&target(to, Some(ms))?)?;
            let total = Duration::from_millis(ms as u64);
            loop {
                // Sample the position, stamped at the middle of its round trip.
                let before = t0.elapsed();
                let p = drv.read_pulses(&[ch])?[0].map_or(0, |p| p.micros()) as f64;
                let at = (before + t0.elapsed()) / 2;
                if at < total {
                    let f = at.as_secs_f64() / total.as_secs_f64();
                    let want = from as f64 + (to as f64 - from as f64) * f;
                    pos_err.push((p - want).abs());
                }
                if drv.movement()? == Movement::Done {
                    elapsed.push(t0.elapsed());
                    break;
                }
                if t0.elapsed() > total * 3 + Duration::from_secs(1) {
                    anyhow::bail!("move of {ms} ms did not complete");
                }
                std::thread::sleep(Duration::from_millis(a.poll_ms));
            }
            exact &= drv.read_pulses(&[ch])?[0] == Some(Pulse::new(to)?);
        }
        let over: Vec<f64> = elapsed
            .iter()
            .map(|e| e.as_secs_f64() * 1e3 - ms as f64)
            .collect();
        rows.push(Timing {
            commanded_ms: ms,
            moves: elapsed.len(),
            mean_elapsed_ms: elapsed.iter().map(|e| e.as_secs_f64() * 1e3).sum::<f64>()
                / elapsed.len().max(1) as f64,
            max_overshoot_ms: over.iter().cloned().fold(f64::MIN, f64::max),
            min_overshoot_ms: over.iter().cloned().fold(f64::MAX, f64::min),
            mean_position_error_us: pos_err.iter().sum::<f64>() / pos_err.len().max(1) as f64,
            final_exact: exact,
        });
    }
    Ok(rows)
}

/// Runs the benchmark and prints the tables (or JSON).
pub fn run(a: Args) -> anyhow::Result<i32> {
    let mut report = Report {
        latency: Vec::new(),
        timing: Vec::new(),
    };
    for paced in [false, true] {
        for &baud in &a.bauds {
            // Paced round trips take milliseconds: fewer samples suffice.
            let n = if paced {
                a.iterations.div_ceil(40)
            } else {
                a.iterations
            };
            report.latency.extend(latency(n, baud, paced)?);
        }
    }
    report.timing = timing(&a)?;
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(0);
    }
    outln!("round trip over the pty (driver -> emulator -> driver)");
    outln!(
        "{:>7} {:<6} {:<9} {:>6} {:>9} {:>10} {:>9} {:>9}",
        "baud",
        "paced",
        "command",
        "n",
        "min µs",
        "median µs",
        "p99 µs",
        "max µs"
    );
    for l in &report.latency {
        outln!(
            "{:>7} {:<6} {:<9} {:>6} {:>9.1} {:>10.1} {:>9.1} {:>9.1}",
            l.baud,
            l.paced,
            l.command,
            l.n,
            l.min_us,
            l.median_us,
            l.p99_us,
            l.max_us
        );
    }
    outln!();
    outln!(
        "move timing (wall clock, 1000 µs travel, Q/QP polled every {} ms)",
        a.poll_ms
    );
    outln!(
        "{:>9} {:>5} {:>11} {:>14} {:>14} {:>13} {:>6}",
        "T ms",
        "moves",
        "elapsed ms",
        "overshoot max",
        "overshoot min",
        "pos err µs",
        "exact"
    );
    for t in &report.timing {
        outln!(
            "{:>9} {:>5} {:>11.2} {:>14.2} {:>14.2} {:>13.1} {:>6}",
            t.commanded_ms,
            t.moves,
            t.mean_elapsed_ms,
            t.max_overshoot_ms,
            t.min_overshoot_ms,
            t.mean_position_error_us,
            t.final_exact
        );
    }
    Ok(0)
}
