//! `gamebot play GAME --sim`: the whole robot in one process, on the
//! in-process bus, no network — the simulated world (`sim_world`, the
//! emulated SSC-32U, the camera), `ssc32_bridge`, `arm_controller`,
//! `detector`, `referee`, `planner`, the recorder and (unless `--no-web`) the
//! web UI. The game loop itself is `gamebot_nodes::sim_game`.
//!
//! The arm plays the robot's side (`--robot STRATEGY`); the opponent is a
//! `camera` player whose moves the referee learns only from the camera. The
//! opponent's moves are made in the world by the simulated person's hand:
//! clicked in the web UI (`--opponent camera` with the web UI on), typed at
//! the keyboard (`--opponent camera --no-web` on a terminal), or chosen by a
//! strategy (`--opponent ai:STRATEGY`, also the fallback with `--no-web` when
//! standard input is not a terminal).

use anyhow::Context;
use gamebot_interfaces::msg::{GameEvent, GameState};
use gamebot_nodes::referee_core::replay;
use gamebot_nodes::sim_game::{GameSummary, OpponentTurn, Progress, SimGame, SimGameConfig};
use gamebot_nodes::NodeError;
use gamebot_record::recorder_node::{RecorderConfig, RecorderSummary};
use gamebot_rules::Game;
use gamebot_sim::{FaultSpec, WorldConfig};
use serde::Serialize;
use std::io::{BufRead, IsTerminal};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::mpsc;

/// `outln!` for progress printed from inside the game loop's callbacks: a
/// closed stdout must not stop the robot, so write errors are ignored there
/// (the command's own lines after the game still end it quietly).
macro_rules! say {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($t)*);
    }};
}

/// How the simulated robot is run.
pub struct SimOptions {
    pub game: String,
    pub robot: String,
    pub opponent: String,
    pub robot_plays_both: bool,
    pub arm: String,
    pub speed: f64,
    pub faults: String,
    pub seed: u64,
    pub web: Option<SocketAddr>,
    pub games: u32,
    pub summary: Option<PathBuf>,
    pub record: Option<PathBuf>,
    pub db: Option<PathBuf>,
}

/// `--summary FILE.json`.
#[derive(Serialize)]
struct SummaryFile<'a> {
    games: &'a [GameSummary],
    totals: Totals,
}

#[derive(Serialize, Default)]
struct Totals {
    games: usize,
    finished: usize,
    wins: std::collections::BTreeMap<String, usize>,
    draws: usize,
    moves: usize,
    robot_moves: usize,
    moves_seen: usize,
    moves_world_ok: usize,
    corrections: u32,
    interventions: u32,
    faults_injected: u32,
    faults_recovered: u32,
    /// Simulated seconds per robot move (arm work only; plan + arm +
    /// confirmation is in `sim_seconds_per_robot_move`).
    arm_seconds_per_robot_move: f64,
    sim_seconds_per_robot_move: f64,
    sim_seconds: f64,
    wall_seconds: f64,
}

impl Totals {
    fn of(games: &[GameSummary]) -> Totals {
        let mut t = Totals {
            games: games.len(),
            ..Totals::default()
        };
        let mut arm = 0.0;
        for g in games {
            t.finished += g.finished as usize;
            match g.winner {
                0 => t.draws += 1,
                w if w > 0 => *t.wins.entry(format!("player {w}")).or_default() += 1,
                _ => {}
            }
            t.moves += g.moves.len();
            for m in &g.moves {
                t.robot_moves += (m.by == "robot") as usize;
                t.moves_seen += m.seen as usize;
                t.moves_world_ok += m.world_ok as usize;
                t.corrections += m.corrections;
                arm += m.arm_seconds;
            }
            t.interventions += g.interventions;
            t.faults_injected += g.faults_injected.values().sum::<u32>();
            t.faults_recovered += g.faults_recovered;
            t.sim_seconds += g.sim_seconds;
            t.wall_seconds += g.wall_seconds;
        }
        if t.robot_moves > 0 {
            t.arm_seconds_per_robot_move = arm / t.robot_moves as f64;
            // The opponent's turns (hand + inference) are part of the game's
            // sim time too; this upper bound is stated as such in the docs.
            t.sim_seconds_per_robot_move = t.sim_seconds / t.robot_moves as f64;
        }
        t
    }
}

/// Runs `--games` games of the simulated robot; returns the exit code.
pub fn run(o: SimOptions) -> anyhow::Result<i32> {
    let game = crate::common::load_game(&o.game)?;
    let faults: FaultSpec = if o.faults.trim().is_empty() {
        FaultSpec::none()
    } else {
        o.faults.parse().context("--faults")?
    };
    // Who makes the opponent's moves with the simulated hand: the person in the
    // browser (the web UI calls /sim/human_move itself), the person at the
    // keyboard, or a strategy.
    let browser = o.opponent == "camera" && o.web.is_some();
    let keyboard = o.opponent == "camera" && !browser && std::io::stdin().is_terminal();
    let opponent_ai = match o.opponent.as_str() {
        "camera" if keyboard || browser => None,
        "camera" => Some("random".to_string()),
        s => Some(
            s.strip_prefix("ai:")
                .with_context(|| format!("--opponent {s}: use camera or ai:STRATEGY"))?
                .to_string(),
        ),
    };
    let opponent_spec: Option<gamebot_ai::Spec> = opponent_ai
        .as_deref()
        .map(|s| s.parse().with_context(|| format!("--opponent ai:{s}")))
        .transpose()?;
    if o.games > 1 && (keyboard || browser) {
        anyhow::bail!(
            "--games {} needs an AI opponent (--opponent ai:STRATEGY)",
            o.games
        );
    }
    if let Some(dir) = &o.record {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("--record {}: cannot create the directory", dir.display()))?;
    }
    outln!(
        "gamebot: {} — the {} arm plays {} with {}; opponent: {}",
        game.name,
        o.arm,
        if o.robot_plays_both {
            "every side".to_string()
        } else {
            game.players[0].clone()
        },
        o.robot,
        match &opponent_ai {
            None if browser =>
                "you (click moves in the web UI; the simulated hand makes them on the board)"
                    .to_string(),
            None => "you (type moves; the simulated hand makes them on the board)".to_string(),
            Some(s) => format!("ai:{s} through the simulated hand"),
        }
    );
    let bar = (o.games > 1).then(|| {
        let b = indicatif::ProgressBar::new(o.games as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} games {msg}")
                .expect("a valid template"),
        );
        b
    });
    let stop = gamebot_ros::Shutdown::new();
    {
        let s = stop.clone();
        ctrlc::set_handler(move || s.request()).context("installing the Ctrl-C handler")?;
    }
    let mut summaries = Vec::new();
    let mut code = 0;
    for i in 0..o.games {
        if stop.is_requested() {
            break;
        }
        let seed = o.seed.wrapping_add(i as u64);
        let (summary, ok) = one_game(
            &o,
            &game,
            seed,
            faults.clone(),
            &opponent_spec,
            browser,
            keyboard,
            &stop,
            bar.is_some(),
        )?;
        if !ok {
            code = 1;
        }
        if let Some(b) = &bar {
            b.inc(1);
            b.set_message(format!(
                "last: {} moves, {}",
                summary.moves.len(),
                result_text(&game, &summary)
            ));
        }
        summaries.push(summary);
        if let Some(path) = &o.summary {
            write_summary(path, &summaries)?;
        }
    }
    if let Some(b) = bar {
        b.finish();
    }
    if summaries.len() > 1 {
        let t = Totals::of(&summaries);
        outln!(
            "{} games ({} finished), {} moves ({} by the arm), {} corrections, {} interventions, \
             faults {} injected / {} recovered, {:.1} s of the arm per robot move, wall {:.0} s",
            t.games,
            t.finished,
            t.moves,
            t.robot_moves,
            t.corrections,
            t.interventions,
            t.faults_injected,
            t.faults_recovered,
            t.arm_seconds_per_robot_move,
            t.wall_seconds
        );
    }
    Ok(code)
}

fn write_summary(path: &PathBuf, games: &[GameSummary]) -> anyhow::Result<()> {
    let file = SummaryFile {
        games,
        totals: Totals::of(games),
    };
    let text = serde_json::to_string_pretty(&file)?;
    std::fs::write(path, text + "\n")
        .with_context(|| format!("--summary {}: cannot write", path.display()))
}

fn result_text(game: &Game, s: &GameSummary) -> String {
    match s.winner {
        _ if !s.finished => match &s.stopped {
            Some(why) => format!("unfinished ({why})"),
            None => "unfinished".to_string(),
        },
        0 => "draw".to_string(),
        w => format!("{} (player {w}) wins", game.players[w as usize - 1]),
    }
}

/// One game in a fresh simulated robot; the summary and whether it went well.
#[allow(clippy::too_many_arguments)]
fn one_game(
    o: &SimOptions,
    game: &Game,
    seed: u64,
    faults: FaultSpec,
    opponent_spec: &Option<gamebot_ai::Spec>,
    browser: bool,
    keyboard: bool,
    stop: &gamebot_ros::Shutdown,
    quiet: bool,
) -> anyhow::Result<(GameSummary, bool)> {
    let mut config = SimGameConfig::new(&o.game, &o.robot);
    config.robot_plays_both = o.robot_plays_both;
    config.seed = seed;
    // With the browser the page stays up after game over (for the result and
    // the person's next game): so does the robot, until Ctrl-C.
    config.referee_stays = browser;
    config.world = WorldConfig {
        arm: o.arm.clone(),
        faults,
        seed,
        real_time_factor: Some(o.speed),
        ..WorldConfig::default()
    };
    let (bags_tx, bags_rx) = mpsc::channel::<RecorderSummary>();
    let recorder = RecorderConfig::default()
        .source("sim")
        .arm(Some(o.arm.clone()))
        .db(o.db.clone());
    let recorder = match &o.record {
        Some(dir) => recorder.dir(dir),
        None => recorder.no_bags(),
    };
    let web = if browser || o.games == 1 { o.web } else { None };
    let mut sim = SimGame::start(config, |robot| {
        if recorder.dir.is_some() {
            // The process's log on `/rosout` (info and above), for the bag.
            robot.spawn_observer(gamebot_ros::NodeOptions::new("gamebot_play"), |n, s| {
                gamebot_ros::logging::attach_rosout(n, gamebot_ros::LogLevel::Info)?;
                let mut ws = gamebot_ros::WaitSet::new();
                ws.add(s);
                while !s.is_requested() {
                    ws.wait_until(None);
                }
                gamebot_ros::logging::detach_rosout();
                Ok::<(), NodeError>(())
            })?;
        }
        if recorder.dir.is_some() || recorder.db.is_some() {
            robot.spawn_observer(gamebot_ros::NodeOptions::new("recorder"), move |n, s| {
                // No recording is no reason to stop the robot.
                match gamebot_record::recorder_node::run(n, s, recorder) {
                    Ok(summary) => {
                        let _ = bags_tx.send(summary);
                    }
                    Err(e) => tracing::error!("the game is not recorded: {e}"),
                }
                Ok::<(), NodeError>(())
            })?;
        }
        if let Some(addr) = web {
            let cfg = gamebot_web::WebConfig {
                addr,
                ..gamebot_web::WebConfig::default()
            };
            robot.spawn(gamebot_ros::NodeOptions::new("web"), move |n, s| {
                // No web UI (e.g. the port is taken) is no reason to stop the robot.
                if let Err(e) = gamebot_web::run(n, s, cfg) {
                    tracing::error!("web UI not available: {e}");
                }
                Ok::<(), NodeError>(())
            })?;
        }
        Ok(())
    })
    .with_context(|| format!("starting the simulated robot for {}", o.game))?;
    // Ctrl-C stops this game's robot too.
    let robot_stop = sim.robot().shutdown().clone();
    let watcher = {
        let stop = stop.clone();
        let robot_stop = robot_stop.clone();
        std::thread::spawn(move || {
            let mut ws = gamebot_ros::WaitSet::new();
            ws.add(&stop);
            ws.add(&robot_stop);
            while !stop.is_requested() && !robot_stop.is_requested() {
                ws.wait_until(None);
            }
            robot_stop.request();
        })
    };
    let mut lines = std::io::stdin().lock().lines();
    // One opponent for the whole game, its randomness seeded from the game's
    // seed (unless the strategy names its own): built afresh for every move,
    // a random player drew the same first number each time.
    let mut opponent_ai = opponent_spec
        .as_ref()
        .map(|spec| gamebot_ai::build(&spec.with_default_seed(seed ^ 0x0b0e)));
    let mut opponent = |g: &Game, st: &GameState| -> OpponentTurn {
        if browser {
            return OpponentTurn::Elsewhere;
        }
        match opponent_ai.as_mut() {
            Some(ai) => {
                let chosen = replay(g, &st.move_history)
                    .map_err(anyhow::Error::from)
                    .and_then(|state| {
                        let d = ai.choose(g, &state, &gamebot_ai::SearchControl::new())?;
                        Ok(g.move_text(&d.mv))
                    });
                match chosen {
                    Ok(t) => OpponentTurn::Move(t),
                    Err(e) => {
                        tracing::error!("the opponent's strategy failed: {e:#}");
                        OpponentTurn::Quit
                    }
                }
            }
            None if keyboard => match ask(g, st, &mut lines) {
                Ok(Some(t)) => OpponentTurn::Move(t),
                Ok(None) => {
                    say!("no more input; stopping.");
                    OpponentTurn::Quit
                }
                Err(e) => {
                    tracing::error!("{e:#}");
                    OpponentTurn::Quit
                }
            },
            None => OpponentTurn::Elsewhere,
        }
    };
    let mut report = |p: Progress<'_>| {
        if quiet {
            return;
        }
        match p {
            Progress::Event(e) => say!("  [{}] {}", event_name(e.kind), e.message),
            Progress::Opponent { player, text } => say!("opponent (player {player}): {text}"),
            Progress::HandRefused { reason, .. } => {
                say!("  the hand could not make it: {reason}")
            }
            Progress::PersonHelped {
                text,
                accepted: true,
                message,
            } => say!("  the simulated person put the board right for {text}: {message}"),
            Progress::PersonHelped { message, .. } => {
                say!("  the simulated person could not put the board right: {message}")
            }
            Progress::Ply(m) if !m.world_ok => {
                say!("  the world does not match the rules after {}", m.text)
            }
            Progress::Ply(_) => {}
        }
    };
    let mut played = sim.play(&mut opponent, &mut report);
    if browser {
        // Each new game started from the page (which also ends the one under
        // way) is followed like the first. The one summarised is the last
        // game with a move, unless Ctrl-C cut short one that had none.
        loop {
            let ended = stop.is_requested() || sim.robot().any_stopped();
            if let Ok(s) = &played {
                if !ended {
                    say!(
                        "game over after {} moves: {}; the web UI stays up for the next game (Ctrl-C to stop)",
                        s.moves.len(),
                        result_text(game, s)
                    );
                }
            }
            if played.is_err() || ended {
                break;
            }
            let next = sim.play(&mut opponent, &mut report);
            let ended = stop.is_requested() || sim.robot().any_stopped();
            if ended
                && next
                    .as_ref()
                    .is_ok_and(|s| s.moves.is_empty() && !s.finished)
            {
                break;
            }
            played = next;
        }
    }
    robot_stop.request();
    let stopped = sim.stop();
    let _ = watcher.join();
    let mut summary = played?;
    if let Err(e) = stopped {
        // A node that failed before the game's first move (a missing file,
        // a bad parameter) fails every game alike: end the run here.
        if summary.moves.is_empty() && !summary.finished && !stop.is_requested() {
            return Err(anyhow::Error::new(e)
                .context("the robot's node graph failed before the first move"));
        }
        tracing::error!("{e}");
    }
    if let Ok(r) = bags_rx.try_recv() {
        summary.bag = r.bags.last().map(|b| b.display().to_string());
    }
    if !quiet {
        for d in &summary.differences {
            outln!("  world ≠ rules {d}");
        }
        outln!(
            "game over after {} moves: {}",
            summary.moves.len(),
            result_text(game, &summary)
        );
        if !summary.faults_injected.is_empty() {
            outln!("faults injected: {:?}", summary.faults_injected);
        }
        if let Some(b) = &summary.bag {
            outln!("recorded: {b}");
        }
    }
    let ok = summary.finished && summary.final_world_ok && summary.moves.iter().all(|m| m.world_ok);
    Ok((summary, ok))
}

/// Asks the person at the keyboard for a move; `None` at the end of input.
fn ask(
    game: &Game,
    st: &GameState,
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
) -> anyhow::Result<Option<String>> {
    let legal = &st.legal_moves;
    outln!(
        "{} (player {}) to move:",
        game.players[st.current_player as usize - 1],
        st.current_player
    );
    for (i, t) in legal.iter().enumerate() {
        outln!("  {:>3}. {t}", i + 1);
    }
    loop {
        out!("your move (number or element:from->to, q to quit)> ");
        let Some(line) = lines.next() else {
            return Ok(None);
        };
        let line = line.context("reading standard input")?;
        let t = line.trim();
        if t == "q" {
            return Ok(None);
        }
        if let Ok(i) = t.parse::<usize>() {
            if (1..=legal.len()).contains(&i) {
                return Ok(Some(legal[i - 1].clone()));
            }
        }
        if !t.is_empty() {
            return Ok(Some(t.to_string()));
        }
    }
}

fn event_name(kind: u8) -> &'static str {
    match kind {
        GameEvent::MOVE_PLAYED => "move",
        GameEvent::MOVE_REJECTED => "rejected",
        GameEvent::OBSERVATION_MISMATCH => "mismatch",
        GameEvent::GAME_OVER => "over",
        _ => "event",
    }
}
