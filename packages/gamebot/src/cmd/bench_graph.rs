//! `gamebot bench graph` — the node runtime on the in-process bus: how often
//! idle nodes wake up (voluntary context switches of the node's thread, read
//! from `/proc`), the round trip of a `SubmitMove` call to the referee, and
//! the planner's cancel latency and feedback gaps.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use gamebot_interfaces::action::PlanMoveGoal;
use gamebot_interfaces::srv::SubmitMoveRequest;
use gamebot_nodes::{planner_node, referee_node};
use gamebot_ros::inproc::InProcBus;
use gamebot_ros::{graph, Bus, GoalEvent, GoalStatus, NodeOptions, ParamValue, Shutdown};
use serde::Serialize;

/// Options of `gamebot bench graph`.
#[derive(clap::Args)]
pub struct Args {
    /// How long the idle nodes are watched, in seconds.
    #[arg(long, default_value_t = 3.0, value_parser = crate::limits::SECONDS)]
    idle_seconds: f64,
    /// Service round trips measured.
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    calls: u32,
    /// Plan goals cancelled (after their first feedback).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    cancels: u32,
    /// The game the referee holds while idle.
    #[arg(long, default_value = "games/tictactoe.game")]
    game: PathBuf,
    /// The game planned on for the cancel and feedback measurements.
    #[arg(long, default_value = "games/connect4.game")]
    plan_game: PathBuf,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Report {
    idle_seconds: f64,
    referee_wakeups_per_s: f64,
    planner_wakeups_per_s: f64,
    submit_calls: usize,
    submit_median_us: f64,
    submit_p99_us: f64,
    cancels: usize,
    cancel_median_ms: f64,
    cancel_max_ms: f64,
    feedback_gaps: usize,
    feedback_gap_mean_ms: f64,
    feedback_gap_max_ms: f64,
}

/// The `/proc` status file of the calling thread.
fn this_thread_status() -> PathBuf {
    match std::fs::read_link("/proc/thread-self") {
        Ok(p) => PathBuf::from("/proc").join(p).join("status"),
        Err(_) => PathBuf::from("/proc/thread-self/status"),
    }
}

fn voluntary_switches(status: &PathBuf) -> anyhow::Result<u64> {
    let text =
        std::fs::read_to_string(status).with_context(|| format!("reading {}", status.display()))?;
    text.lines()
        .find_map(|l| l.strip_prefix("voluntary_ctxt_switches:"))
        .and_then(|v| v.trim().parse().ok())
        .with_context(|| format!("{}: no voluntary_ctxt_switches", status.display()))
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    for g in [&args.game, &args.plan_game] {
        if !g.is_file() {
            bail!("{}: no such game file", g.display());
        }
    }
    let game = args.game.display().to_string();
    let plan_game = args.plan_game.display().to_string();
    let bus = InProcBus::new();
    let referee = bus.node(
        NodeOptions::new("referee")
            .param("game_file", ParamValue::String(game.clone()))
            .param(
                "player_kinds",
                ParamValue::StringArray(vec!["human".into(), "human".into()]),
            ),
    )?;
    let planner = bus.node(NodeOptions::new("planner"))?;
    let client = bus.node(NodeOptions::new("bench"))?;
    let submit = client.service_client_on(&graph::SUBMIT_MOVE)?;
    let plan = client.action_client_on(&graph::PLAN_MOVE)?;
    let shutdown = Shutdown::new();
    let (tx, rx) = std::sync::mpsc::channel::<(&'static str, PathBuf)>();
    let report = std::thread::scope(|s| -> anyhow::Result<Report> {
        let (tx1, tx2) = (tx.clone(), tx);
        let (sd1, sd2) = (shutdown.clone(), shutdown.clone());
        let referee = &referee;
        let planner = &planner;
        s.spawn(move || {
            let _ = tx1.send(("referee", this_thread_status()));
            if let Err(e) = referee_node::run(referee, &sd1, false) {
                tracing::error!("referee: {e}");
            }
        });
        s.spawn(move || {
            let _ = tx2.send(("planner", this_thread_status()));
            if let Err(e) = planner_node::run(planner, &sd2) {
                tracing::error!("planner: {e}");
            }
        });
        let result = (|| {
            let mut threads = std::collections::HashMap::new();
            for _ in 0..2 {
                let (name, path) = rx.recv_timeout(Duration::from_secs(10))?;
                threads.insert(name, path);
            }
            if !submit.wait_for_service(Duration::from_secs(10))
                || !plan.wait_for_server(Duration::from_secs(10))
            {
                bail!("the referee or the planner did not come up");
            }
            // Idle: both nodes wait for something to do.
            std::thread::sleep(Duration::from_millis(300));
            let before: Vec<u64> = ["referee", "planner"]
                .iter()
                .map(|n| voluntary_switches(&threads[n]))
                .collect::<anyhow::Result<_>>()?;
            std::thread::sleep(Duration::from_secs_f64(args.idle_seconds));
            let after: Vec<u64> = ["referee", "planner"]
                .iter()
                .map(|n| voluntary_switches(&threads[n]))
                .collect::<anyhow::Result<_>>()?;
            let rate = |i: usize| (after[i] - before[i]) as f64 / args.idle_seconds;

            // Service round trips: an illegal move is answered after the full
            // validation path without changing the game.
            let mut rtt = Vec::new();
            for i in 0..args.calls {
                let t = Instant::now();
                let resp = submit.call(
                    SubmitMoveRequest {
                        r#move: format!("x{i}:nowhere->a1"),
                        game_number: 0,
                    },
                    Duration::from_secs(10),
                )?;
                rtt.push(t.elapsed().as_secs_f64() * 1e6);
                if resp.accepted {
                    bail!("the referee accepted a move that does not exist");
                }
            }
            rtt.sort_by(f64::total_cmp);

            // Planner: cancel after the first feedback; feedback gaps.
            let mut cancels = Vec::new();
            let mut gaps = Vec::new();
            for round in 0..args.cancels {
                let mut g = plan.send_goal(
                    PlanMoveGoal {
                        game_file: plan_game.clone(),
                        move_history: vec![],
                        strategy: "mcts:time=600s".into(),
                        time_budget_ms: 0,
                        seed: u64::from(round),
                    },
                    Duration::from_secs(10),
                )?;
                let mut last = None::<Instant>;
                // The first round also records feedback gaps for a while.
                let watch = if round == 0 {
                    Duration::from_secs(2)
                } else {
                    Duration::ZERO
                };
                let start = Instant::now();
                loop {
                    match g.next_event(Duration::from_secs(10)) {
                        Ok(GoalEvent::Feedback(_)) => {
                            let now = Instant::now();
                            if let Some(l) = last {
                                gaps.push((now - l).as_secs_f64() * 1e3);
                            }
                            last = Some(now);
                            if start.elapsed() >= watch {
                                break;
                            }
                        }
                        other => bail!("expected feedback, got {other:?}"),
                    }
                }
                let t = Instant::now();
                if !g.cancel(Duration::from_secs(10))? {
                    bail!("cancel refused");
                }
                let out = g.result(Duration::from_secs(60))?;
                cancels.push(t.elapsed().as_secs_f64() * 1e3);
                if out.status != GoalStatus::Canceled {
                    bail!("cancelled goal ended {:?}", out.status);
                }
            }
            cancels.sort_by(f64::total_cmp);
            Ok(Report {
                idle_seconds: args.idle_seconds,
                referee_wakeups_per_s: rate(0),
                planner_wakeups_per_s: rate(1),
                submit_calls: rtt.len(),
                submit_median_us: percentile(&rtt, 0.5),
                submit_p99_us: percentile(&rtt, 0.99),
                cancels: cancels.len(),
                cancel_median_ms: percentile(&cancels, 0.5),
                cancel_max_ms: cancels.last().copied().unwrap_or(f64::NAN),
                feedback_gaps: gaps.len(),
                feedback_gap_mean_ms: gaps.iter().sum::<f64>() / gaps.len().max(1) as f64,
                feedback_gap_max_ms: gaps.iter().copied().fold(0.0, f64::max),
            })
        })();
        shutdown.request();
        result
    })?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else if let serde_json::Value::Object(fields) = serde_json::to_value(&report)? {
        // One line per measured figure, named as in the JSON (units in the names).
        for (name, value) in fields {
            match value.as_f64() {
                Some(x) if x.fract() != 0.0 => outln!("{name:<24} {x:>12.2}"),
                _ => outln!("{name:<24} {value:>12}"),
            }
        }
    }
    Ok(0)
}
