//! The planner node: serves the `PlanMove` action over any bus.

use crate::planner_core::{PlanRequest, PlannerCore};
use crate::{names, NodeError};
use gamebot_ai::CancelToken;
use gamebot_interfaces::action::{PlanMove, PlanMoveFeedback, PlanMoveResult};
use gamebot_interfaces::msg::Move as MoveMsg;
use gamebot_ros::Bus;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// How often cancel requests are checked while a search runs.
const CANCEL_POLL: Duration = Duration::from_millis(5);

/// Feedback goes out at least this often while a search runs (the last one
/// again if the search reported nothing new), so that a client can tell a
/// planner that is thinking from one that has gone away.
pub const FEEDBACK_HEARTBEAT: Duration = Duration::from_millis(250);

/// Serves plan requests until `stop` is set. Parameters: `strategy` (default
/// strategy when a goal names none).
pub fn run<B: Bus>(bus: &B, stop: &AtomicBool) -> Result<(), NodeError> {
    let default = bus.parameters().declare_string(
        "strategy",
        "mcts:time=1s",
        "strategy used when a PlanMove goal names none (same strings as `gamebot play --vs`)",
    )?;
    gamebot_ai::strategy(&default).map_err(|e| {
        NodeError::Bus(gamebot_ros::BusError::Dds {
            what: "parameter strategy".into(),
            message: e.to_string(),
        })
    })?;
    let server = bus.action_server::<PlanMove>(names::PLAN_MOVE)?;
    let core = PlannerCore::new(&default);
    tracing::info!(strategy = %default, "planner ready on {}", server.name());
    while !stop.load(Ordering::Relaxed) {
        let Some(incoming) = server.recv_timeout(Duration::from_millis(100)) else {
            continue;
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
        let cancel = CancelToken::new();
        let (fb_tx, fb_rx) = mpsc::channel::<PlanMoveFeedback>();
        let outcome = std::thread::scope(|s| {
            let search = s.spawn(|| {
                let progress = move |st: &gamebot_ai::SearchStats| {
                    let best = st.pv.first().map(|t| move_msg(t)).unwrap_or_default();
                    let _ = fb_tx.send(PlanMoveFeedback {
                        iterations: st.iterations.max(st.nodes).max(st.playouts),
                        best_move: best,
                        value: st.value,
                        depth: st.depth,
                    });
                };
                core.plan(&req, cancel.clone(), &progress)
            });
            // Relay feedback and cancel requests while the search runs.
            let mut last = PlanMoveFeedback::default();
            let mut last_sent = std::time::Instant::now();
            while !search.is_finished() {
                while let Ok(fb) = fb_rx.try_recv() {
                    last = fb.clone();
                    last_sent = std::time::Instant::now();
                    let _ = active.publish_feedback(fb);
                }
                if last_sent.elapsed() >= FEEDBACK_HEARTBEAT {
                    last_sent = std::time::Instant::now();
                    let _ = active.publish_feedback(last.clone());
                }
                if active.is_cancel_requested() || stop.load(Ordering::Relaxed) {
                    cancel.cancel();
                }
                std::thread::sleep(CANCEL_POLL);
            }
            search.join()
        });
        let cancelled = cancel.is_cancelled();
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
    Ok(())
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
