//! The planner node: serves the `PlanMove` action over any bus.
//!
//! The node sleeps on one [`WaitSet`] holding its action server and the
//! shutdown request. While a search runs (on a scoped thread), a second wait
//! set holds the search's progress channel, the goal's cancel request, the
//! shutdown request and the feedback heartbeat's deadline: feedback is
//! relayed the moment the search reports it and a cancel reaches the search
//! the moment it arrives, with no polling.
//!
//! Besides the action's feedback (which reaches only the goal's client), the
//! search's progress — strategy, iterations, depth, value, best move,
//! principal variation, speed — is published on `/planner/progress`
//! ([`graph::PLAN_PROGRESS`]) for anyone watching (the web UI), and once
//! more with `done` when the search has ended.

use crate::planner_core::{PlanRequest, PlannerCore};
use crate::NodeError;
use gamebot_ai::CancelToken;
use gamebot_interfaces::action::{PlanMove, PlanMoveFeedback, PlanMoveResult};
use gamebot_interfaces::msg::{Move as MoveMsg, PlanProgress};
use gamebot_ros::wait::{channel, TryRecvError};
use gamebot_ros::{graph, ActiveGoal, Bus, Publisher, Shutdown, Timer, WaitSet};
use std::time::Duration;

/// `/planner/progress` goes out at most this often while a search runs.
const WATCH_PERIOD: Duration = Duration::from_millis(100);

/// Feedback goes out at least this often while a search runs (the last one
/// again if the search reported nothing new), so that a client can tell a
/// planner that is thinking from one that has gone away.
pub const FEEDBACK_HEARTBEAT: Duration = Duration::from_millis(250);

/// Serves plan requests until `shutdown` is requested. Parameters:
/// `strategy` (default strategy when a goal names none; a value that is not
/// a strategy fails as a parameter error naming node, parameter and value).
pub fn run<B: Bus>(bus: &B, shutdown: &Shutdown) -> Result<(), NodeError> {
    // Its time budget is thinking time (wall), also under `use_sim_time`.
    crate::node_clock::declare_use_sim_time(bus)?;
    let default = bus.parameters().declare_parsed(
        "strategy",
        "mcts:time=1s",
        "strategy used when a PlanMove goal names none (same strings as `gamebot play --vs`)",
        |text| gamebot_ai::strategy(text).map(|_| text.to_string()),
    )?;
    let server = bus.action_server_on(&graph::PLAN_MOVE)?;
    let progress = bus.publisher_on(&graph::PLAN_PROGRESS)?;
    let core = PlannerCore::new(&default);
    tracing::info!(strategy = %default, "planner ready on {}", server.name());
    let mut idle = WaitSet::new();
    idle.add(&server);
    idle.add(shutdown);
    while !shutdown.is_requested() {
        let incoming = match server.try_recv() {
            Ok(incoming) => incoming,
            Err(TryRecvError::Empty) => {
                idle.wait_until(None);
                continue;
            }
            Err(TryRecvError::Closed) => break,
        };
        let goal = incoming.goal.clone();
        let active = match incoming.accept() {
            Ok(a) => a,
            Err(e) => {
                tracing::warn!("could not accept a goal: {e}");
                continue;
            }
        };
        let req = PlanRequest {
            game_file: goal.game_file,
            move_history: goal.move_history,
            strategy: goal.strategy,
            time_budget_ms: goal.time_budget_ms,
            seed: goal.seed,
        };
        tracing::info!(strategy = %core.strategy_text(&req), plies = req.move_history.len(), "planning");
        serve_goal(&core, req, active, &progress, shutdown);
    }
    Ok(())
}

/// Runs one search, relaying its progress as feedback and the client's
/// cancel to the search, and sends the outcome.
fn serve_goal(
    core: &PlannerCore,
    req: PlanRequest,
    active: ActiveGoal<PlanMove>,
    watchers: &Publisher<PlanProgress>,
    shutdown: &Shutdown,
) {
    let cancel = CancelToken::new();
    let (progress_tx, progress) = channel::<PlanProgress>(64);
    let strategy = core.strategy_text(&req);
    let outcome = std::thread::scope(|s| {
        let search_cancel = cancel.clone();
        let req = &req;
        let strategy = &strategy;
        let search = s.spawn(move || {
            let report = move |st: &gamebot_ai::SearchStats| {
                progress_tx.send(progress_msg(req, strategy, st, false));
            };
            // The progress sender is dropped when the search returns, which
            // closes the channel and wakes the relay below.
            core.plan(req, search_cancel, &report)
        });
        let mut ws = WaitSet::new();
        ws.add(&progress);
        let mut stop_keys = vec![ws.add_source(active.cancel_source()), ws.add(shutdown)];
        let mut heartbeat = Timer::new(FEEDBACK_HEARTBEAT);
        let mut last = PlanMoveFeedback::default();
        // Watchers get at most one progress message per WATCH_PERIOD: a search
        // may report thousands of times a second, and each message costs a
        // serialisation and a reliable DDS write on this thread.
        let mut next_watch = std::time::Instant::now();
        loop {
            match progress.try_recv() {
                Ok(p) => {
                    let fb = feedback_of(&p);
                    if std::time::Instant::now() >= next_watch {
                        next_watch = std::time::Instant::now() + WATCH_PERIOD;
                        if let Err(e) = watchers.publish(&p) {
                            tracing::debug!("planner: /planner/progress: {e}");
                        }
                    }
                    last = fb.clone();
                    heartbeat.reset();
                    let _ = active.publish_feedback(fb);
                    continue;
                }
                Err(TryRecvError::Closed) => break,
                Err(TryRecvError::Empty) => {}
            }
            if !stop_keys.is_empty() && (active.is_cancel_requested() || shutdown.is_requested()) {
                cancel.cancel();
                // Both stay raised; the wait set now waits for the search to end.
                for k in stop_keys.drain(..) {
                    ws.remove(k);
                }
            }
            if heartbeat.fire() {
                let _ = active.publish_feedback(last.clone());
            }
            ws.wait_until(Some(heartbeat.deadline()));
        }
        search.join()
    });
    let cancelled = cancel.is_cancelled();
    if let Ok(Ok(plan)) = &outcome {
        // The end of the search, for watchers (a fast search may never have
        // reported progress on its own).
        if let Err(e) = watchers.publish(&progress_msg(&req, &strategy, &plan.stats, true)) {
            tracing::debug!("planner: /planner/progress: {e}");
        }
    }
    let result = match outcome {
        Ok(Ok(plan)) => PlanMoveResult {
            success: true,
            message: format!(
                "{} ({} iterations, depth {})",
                plan.stats.strategy, plan.stats.iterations, plan.stats.depth
            ),
            r#move: MoveMsg::new(&plan.element, &plan.from, &plan.to),
            value: plan.stats.value,
            iterations: plan
                .stats
                .iterations
                .max(plan.stats.nodes)
                .max(plan.stats.playouts),
        },
        Ok(Err(e)) => PlanMoveResult {
            success: false,
            message: e.to_string(),
            ..Default::default()
        },
        Err(_) => PlanMoveResult {
            success: false,
            message: "the search panicked".into(),
            ..Default::default()
        },
    };
    let sent = if cancelled {
        active.canceled(result)
    } else if result.success {
        active.succeed(result)
    } else {
        tracing::warn!("plan failed: {}", result.message);
        active.abort(result)
    };
    if let Err(e) = sent {
        tracing::warn!("could not send the plan result: {e}");
    }
}

/// The search's statistics as a `/planner/progress` message.
pub fn progress_msg(
    req: &PlanRequest,
    strategy: &str,
    st: &gamebot_ai::SearchStats,
    done: bool,
) -> PlanProgress {
    PlanProgress {
        game_file: req.game_file.clone(),
        ply: u32::try_from(req.move_history.len()).unwrap_or(u32::MAX),
        strategy: if st.strategy.is_empty() {
            strategy.to_string()
        } else {
            st.strategy.clone()
        },
        iterations: st.iterations,
        nodes: st.nodes,
        playouts: st.playouts,
        depth: st.depth,
        value: st.value,
        best_move: st.pv.first().map(|t| move_msg(t)).unwrap_or_default(),
        principal_variation: st.pv.clone(),
        seconds: st.seconds,
        nodes_per_second: st.nodes_per_second(),
        done,
    }
}

/// The action feedback of a progress report.
fn feedback_of(p: &PlanProgress) -> PlanMoveFeedback {
    PlanMoveFeedback {
        iterations: p.iterations.max(p.nodes).max(p.playouts),
        best_move: p.best_move.clone(),
        value: p.value,
        depth: p.depth,
    }
}

/// A move message from `element:from->to` text.
pub fn move_msg(text: &str) -> MoveMsg {
    match text
        .split_once(':')
        .and_then(|(e, rest)| rest.split_once("->").map(|(f, t)| (e, f, t)))
    {
        Some((e, f, t)) => MoveMsg::new(e, f, t),
        None => MoveMsg {
            text: text.to_string(),
            ..Default::default()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamebot_interfaces::action::PlanMoveGoal;
    use gamebot_ros::inproc::InProcBus;
    use gamebot_ros::NodeOptions;

    /// A third node sees the search on `/planner/progress`: live reports
    /// while it runs, then the end with the move the client got.
    #[test]
    fn progress_is_published_for_watchers() {
        // Connect four: MCTS cannot prove the root within the time, so it
        // reports (about every 100 ms) until the time is up.
        let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games/connect4.game");
        let bus = InProcBus::new();
        let planner = bus.node(NodeOptions::new("planner")).unwrap();
        let client = bus.node(NodeOptions::new("client")).unwrap();
        let watcher = bus.node(NodeOptions::new("watcher")).unwrap();
        let progress = watcher.subscription_on(&graph::PLAN_PROGRESS).unwrap();
        let plan = client.action_client_on(&graph::PLAN_MOVE).unwrap();
        let stop = Shutdown::new();
        std::thread::scope(|s| {
            let st = stop.clone();
            s.spawn(move || run(&planner, &st).unwrap());
            let mut goal = plan
                .send_goal(
                    PlanMoveGoal {
                        game_file: file.into(),
                        move_history: vec![],
                        strategy: "mcts:time=400ms".into(),
                        time_budget_ms: 0,
                        seed: 3,
                    },
                    Duration::from_secs(10),
                )
                .unwrap();
            let outcome = goal.result(Duration::from_secs(30)).unwrap();
            stop.request();
            assert!(outcome.result.success, "{}", outcome.result.message);
            let seen = progress.drain();
            let (live, end): (Vec<_>, Vec<_>) = seen.iter().partition(|p| !p.done);
            assert!(
                live.iter()
                    .any(|p| p.iterations > 0 && !p.principal_variation.is_empty()),
                "no live report with iterations and a line of play: {live:?}"
            );
            assert_eq!(end.len(), 1, "one final report: {end:?}");
            let last = end[0];
            assert_eq!(last.ply, 0);
            assert_eq!(last.game_file, file);
            assert!(last.strategy.starts_with("mcts"), "{}", last.strategy);
            assert_eq!(last.best_move.text, outcome.result.r#move.text);
            assert_eq!(last.principal_variation[0], outcome.result.r#move.text);
            assert!(last.nodes_per_second > 0.0 && last.seconds > 0.0);
        });
    }
}
