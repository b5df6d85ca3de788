//! The planner node: serves the `PlanMove` action over any bus.
//!
//! The node sleeps on one [`WaitSet`] holding its action server and the
//! shutdown request. While a search runs (on a scoped thread), a second wait
//! set holds the search's progress channel, the goal's cancel request, the
//! shutdown request and the feedback heartbeat's deadline: feedback is
//! relayed the moment the search reports it and a cancel reaches the search
//! the moment it arrives, with no polling.

use crate::planner_core::{PlanRequest, PlannerCore};
use crate::NodeError;
use gamebot_ai::CancelToken;
use gamebot_interfaces::action::{PlanMove, PlanMoveFeedback, PlanMoveResult};
use gamebot_interfaces::msg::Move as MoveMsg;
use gamebot_ros::wait::{channel, TryRecvError};
use gamebot_ros::{graph, ActiveGoal, Bus, Shutdown, Timer, WaitSet};
use std::time::Duration;

/// Feedback goes out at least this often while a search runs (the last one
/// again if the search reported nothing new), so that a client can tell a
/// planner that is thinking from one that has gone away.
pub const FEEDBACK_HEARTBEAT: Duration = Duration::from_millis(250);

/// Serves plan requests until `shutdown` is requested. Parameters:
/// `strategy` (default strategy when a goal names none; a value that is not
/// a strategy fails as a parameter error naming node, parameter and value).
pub fn run<B: Bus>(bus: &B, shutdown: &Shutdown) -> Result<(), NodeError> {
    let default = bus.parameters().declare_parsed(
        "strategy",
        "mcts:time=1s",
        "strategy used when a PlanMove goal names none (same strings as `gamebot play --vs`)",
        |text| gamebot_ai::strategy(text).map(|_| text.to_string()),
    )?;
    let server = bus.action_server_on(&graph::PLAN_MOVE)?;
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
        serve_goal(&core, req, active, shutdown);
    }
    Ok(())
}

/// Runs one search, relaying its progress as feedback and the client's
/// cancel to the search, and sends the outcome.
fn serve_goal(
    core: &PlannerCore,
    req: PlanRequest,
    active: ActiveGoal<PlanMove>,
    shutdown: &Shutdown,
) {
    let cancel = CancelToken::new();
    let (progress_tx, progress) = channel::<PlanMoveFeedback>(64);
    let outcome = std::thread::scope(|s| {
        let search_cancel = cancel.clone();
        let req = &req;
        let search = s.spawn(move || {
            let report = move |st: &gamebot_ai::SearchStats| {
                let best = st.pv.first().map(|t| move_msg(t)).unwrap_or_default();
                progress_tx.send(PlanMoveFeedback {
                    iterations: st.iterations.max(st.nodes).max(st.playouts),
                    best_move: best,
                    value: st.value,
                    depth: st.depth,
                });
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
        loop {
            match progress.try_recv() {
                Ok(fb) => {
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
