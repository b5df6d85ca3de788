//! Action handles (goal, feedback, result, cancel), the same for every backend.
//!
//! Server side: take an [`IncomingGoal`] from the [`ActionServer`], accept or
//! reject it; an accepted goal is an [`ActiveGoal`] that publishes feedback,
//! watches [`ActiveGoal::is_cancel_requested`] and ends with
//! succeed / abort / canceled. Client side: [`ActionClient::send_goal`] gives
//! a [`ClientGoal`] whose events (feedback, then the outcome) arrive in a queue.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::queue::{Queue, Watchers};
use crate::wait::{RecvTimeoutError, Signal, Source, TryRecvError, Waitable, Watch};
use crate::{BusError, RosAction};

/// A goal's id (a UUID, as `unique_identifier_msgs/UUID`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GoalId(pub [u8; 16]);

impl std::fmt::Display for GoalId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, b) in self.0.iter().enumerate() {
            if matches!(i, 4 | 6 | 8 | 10) {
                f.write_str("-")?;
            }
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

/// A goal's state, with the `action_msgs/GoalStatus` codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GoalStatus {
    /// Accepted, not yet executing.
    Accepted,
    /// Executing.
    Executing,
    /// Cancel requested and accepted; the server is winding down.
    Canceling,
    /// Finished successfully.
    Succeeded,
    /// Finished because of a cancel request.
    Canceled,
    /// The server gave up.
    Aborted,
}

impl GoalStatus {
    /// The `action_msgs/GoalStatus` code.
    pub fn code(self) -> i8 {
        match self {
            GoalStatus::Accepted => 1,
            GoalStatus::Executing => 2,
            GoalStatus::Canceling => 3,
            GoalStatus::Succeeded => 4,
            GoalStatus::Canceled => 5,
            GoalStatus::Aborted => 6,
        }
    }

    /// From an `action_msgs/GoalStatus` code (terminal and active codes only).
    pub fn from_code(code: i8) -> Option<GoalStatus> {
        Some(match code {
            1 => GoalStatus::Accepted,
            2 => GoalStatus::Executing,
            3 => GoalStatus::Canceling,
            4 => GoalStatus::Succeeded,
            5 => GoalStatus::Canceled,
            6 => GoalStatus::Aborted,
            _ => return None,
        })
    }

    /// Whether the goal is over.
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            GoalStatus::Succeeded | GoalStatus::Canceled | GoalStatus::Aborted
        )
    }
}

/// How a goal ended and its result.
#[derive(Debug, Clone, PartialEq)]
pub struct GoalOutcome<R> {
    /// Succeeded, Canceled or Aborted.
    pub status: GoalStatus,
    /// The result message.
    pub result: R,
}

/// What a client sees of its goal, in order.
pub enum GoalEvent<A: RosAction> {
    /// A feedback message.
    Feedback(A::Feedback),
    /// The end of the goal (or why its result cannot arrive).
    Done(Result<GoalOutcome<A::Result>, BusError>),
}

impl<A: RosAction> std::fmt::Debug for GoalEvent<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GoalEvent::Feedback(x) => f.debug_tuple("Feedback").field(x).finish(),
            GoalEvent::Done(x) => f.debug_tuple("Done").field(x).finish(),
        }
    }
}

/// The backend's part of an accepted goal on the server side.
pub(crate) trait ActiveGoalImpl<A: RosAction>: Send {
    fn feedback(&self, f: A::Feedback) -> Result<(), BusError>;
    fn cancel_requested(&self) -> bool;
    /// The flag raised by a cancel request, for wait sets.
    fn cancel_flag(&self) -> Arc<CancelFlag>;
    fn finish(&mut self, status: GoalStatus, result: A::Result) -> Result<(), BusError>;
}

/// Accept-or-reject decision for a received goal.
pub(crate) type Decider<A> =
    Box<dyn FnOnce(bool) -> Result<Option<Box<dyn ActiveGoalImpl<A>>>, BusError> + Send>;

/// A goal received by an [`ActionServer`], waiting to be accepted or rejected.
pub struct IncomingGoal<A: RosAction> {
    /// Goal id.
    pub id: GoalId,
    /// The goal.
    pub goal: A::Goal,
    action: String,
    decide: Option<Decider<A>>,
}

impl<A: RosAction> IncomingGoal<A> {
    pub(crate) fn new(id: GoalId, goal: A::Goal, action: String, decide: Decider<A>) -> Self {
        IncomingGoal {
            id,
            goal,
            action,
            decide: Some(decide),
        }
    }

    /// Accepts the goal; it is then executing until finished.
    pub fn accept(mut self) -> Result<ActiveGoal<A>, BusError> {
        let decide = self.decide.take().ok_or_else(|| BusError::GoalFinished {
            action: self.action.clone(),
        })?;
        match decide(true)? {
            Some(inner) => Ok(ActiveGoal {
                id: self.id,
                action: self.action.clone(),
                inner: Some(inner),
            }),
            None => Err(BusError::Disconnected {
                what: format!("action {}", self.action),
            }),
        }
    }

    /// Rejects the goal.
    pub fn reject(mut self) -> Result<(), BusError> {
        match self.decide.take() {
            Some(decide) => decide(false).map(|_| ()),
            None => Ok(()),
        }
    }
}

impl<A: RosAction> Drop for IncomingGoal<A> {
    fn drop(&mut self) {
        // An undecided goal is rejected so the client is not left waiting.
        if let Some(decide) = self.decide.take() {
            let _ = decide(false);
        }
    }
}

/// An accepted goal on the server side. Dropping it unfinished aborts it.
pub struct ActiveGoal<A: RosAction> {
    /// Goal id.
    pub id: GoalId,
    action: String,
    inner: Option<Box<dyn ActiveGoalImpl<A>>>,
}

impl<A: RosAction> ActiveGoal<A> {
    /// Sends feedback to the client.
    pub fn publish_feedback(&self, feedback: A::Feedback) -> Result<(), BusError> {
        match &self.inner {
            Some(i) => i.feedback(feedback),
            None => Err(BusError::GoalFinished {
                action: self.action.clone(),
            }),
        }
    }

    /// Whether the client asked to cancel (the server then ends with [`canceled`](Self::canceled)).
    pub fn is_cancel_requested(&self) -> bool {
        self.inner.as_ref().is_some_and(|i| i.cancel_requested())
    }

    /// A source that becomes ready when the client asks to cancel, for a
    /// [`WaitSet`](crate::wait::WaitSet).
    pub fn cancel_source(&self) -> Source {
        match &self.inner {
            Some(i) => Source(i.cancel_flag()),
            None => Source(Arc::new(CancelFlag::default())),
        }
    }

    fn finish(mut self, status: GoalStatus, result: A::Result) -> Result<(), BusError> {
        match self.inner.take() {
            Some(mut i) => i.finish(status, result),
            None => Err(BusError::GoalFinished {
                action: self.action.clone(),
            }),
        }
    }

    /// Ends the goal successfully.
    pub fn succeed(self, result: A::Result) -> Result<(), BusError> {
        self.finish(GoalStatus::Succeeded, result)
    }

    /// Ends the goal as aborted (the server could not complete it).
    pub fn abort(self, result: A::Result) -> Result<(), BusError> {
        self.finish(GoalStatus::Aborted, result)
    }

    /// Ends the goal as canceled (after a cancel request).
    pub fn canceled(self, result: A::Result) -> Result<(), BusError> {
        self.finish(GoalStatus::Canceled, result)
    }
}

impl<A: RosAction> Drop for ActiveGoal<A> {
    fn drop(&mut self) {
        if let Some(mut i) = self.inner.take() {
            let _ = i.finish(GoalStatus::Aborted, A::Result::default());
        }
    }
}

/// Serves one action: goals queue until taken.
pub struct ActionServer<A: RosAction> {
    name: String,
    queue: Arc<Queue<IncomingGoal<A>>>,
    _guard: Box<dyn Send + Sync>,
}

impl<A: RosAction> ActionServer<A> {
    pub(crate) fn new(
        name: String,
        queue: Arc<Queue<IncomingGoal<A>>>,
        guard: Box<dyn Send + Sync>,
    ) -> Self {
        ActionServer {
            name,
            queue,
            _guard: guard,
        }
    }

    /// The resolved action name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The next goal, if one is waiting; `Closed` once the transport is shut down.
    pub fn try_recv(&self) -> Result<IncomingGoal<A>, TryRecvError> {
        self.queue.try_pop()
    }

    /// Waits up to `timeout` for a goal.
    pub fn recv_timeout(&self, timeout: Duration) -> Result<IncomingGoal<A>, RecvTimeoutError> {
        self.queue.pop_timeout(timeout)
    }
}

impl<A: RosAction> Waitable for ActionServer<A> {
    fn source(&self) -> Source {
        Source(self.queue.clone())
    }
}

/// What a backend does for an action client.
pub(crate) trait ActionClientImpl<A: RosAction>: Send + Sync {
    /// Sends a goal and waits for acceptance; on acceptance returns the id,
    /// the event queue the backend fills, a canceller and a guard.
    fn send_goal(&self, goal: A::Goal, timeout: Duration) -> Result<GoalParts<A>, BusError>;
    fn is_ready(&self) -> bool;
}

/// Cancels a goal: returns whether the server accepted the cancel request.
pub(crate) type Canceller = Box<dyn Fn(Duration) -> Result<bool, BusError> + Send + Sync>;

/// The pieces a backend returns for an accepted goal.
pub(crate) struct GoalParts<A: RosAction> {
    pub(crate) id: GoalId,
    pub(crate) events: Arc<Queue<GoalEvent<A>>>,
    pub(crate) cancel: Canceller,
    pub(crate) guard: Box<dyn Send + Sync>,
}

/// Sends goals to one action server, one at a time.
pub struct ActionClient<A: RosAction> {
    name: String,
    inner: Box<dyn ActionClientImpl<A>>,
    in_flight: Arc<AtomicBool>,
}

impl<A: RosAction> ActionClient<A> {
    pub(crate) fn new(name: String, inner: Box<dyn ActionClientImpl<A>>) -> Self {
        ActionClient {
            name,
            inner,
            in_flight: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The resolved action name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether a server is available now.
    pub fn is_ready(&self) -> bool {
        self.inner.is_ready()
    }

    /// Waits until a server is available; returns whether one is.
    pub fn wait_for_server(&self, timeout: Duration) -> bool {
        crate::poll_until(timeout, Duration::from_millis(5), || self.inner.is_ready())
    }

    /// Sends a goal and waits (within `timeout`, server discovery included)
    /// until it is accepted. Rejection is [`BusError::GoalRejected`]. One goal
    /// at a time: the previous [`ClientGoal`] must have its outcome or be dropped.
    pub fn send_goal(&self, goal: A::Goal, timeout: Duration) -> Result<ClientGoal<A>, BusError> {
        if self.in_flight.swap(true, Ordering::SeqCst) {
            return Err(BusError::GoalInFlight {
                action: self.name.clone(),
            });
        }
        match self.inner.send_goal(goal, timeout) {
            Ok(parts) => Ok(ClientGoal {
                id: parts.id,
                action: self.name.clone(),
                events: parts.events,
                cancel: parts.cancel,
                outcome: None,
                in_flight: self.in_flight.clone(),
                _guard: parts.guard,
            }),
            Err(e) => {
                self.in_flight.store(false, Ordering::SeqCst);
                Err(e)
            }
        }
    }
}

/// The client's handle on a sent goal.
pub struct ClientGoal<A: RosAction> {
    /// Goal id.
    pub id: GoalId,
    action: String,
    events: Arc<Queue<GoalEvent<A>>>,
    cancel: Canceller,
    outcome: Option<Result<GoalOutcome<A::Result>, BusError>>,
    in_flight: Arc<AtomicBool>,
    _guard: Box<dyn Send + Sync>,
}

impl<A: RosAction> ClientGoal<A> {
    /// Waits up to `timeout` for the next event (feedback or the end);
    /// `Closed` after the end was delivered.
    pub fn next_event(&mut self, timeout: Duration) -> Result<GoalEvent<A>, RecvTimeoutError> {
        if self.outcome.is_some() {
            return Err(RecvTimeoutError::Closed);
        }
        let ev = self.events.pop_timeout(timeout)?;
        self.note(&ev);
        Ok(ev)
    }

    /// The next event if one is waiting; `Closed` after the end was delivered.
    pub fn try_next_event(&mut self) -> Result<GoalEvent<A>, TryRecvError> {
        if self.outcome.is_some() {
            return Err(TryRecvError::Closed);
        }
        let ev = self.events.try_pop()?;
        self.note(&ev);
        Ok(ev)
    }

    fn note(&mut self, ev: &GoalEvent<A>) {
        if let GoalEvent::Done(r) = ev {
            self.outcome = Some(r.clone());
            self.in_flight.store(false, Ordering::SeqCst);
            // Nothing comes after the end; a wait set holding the goal sees it closed.
            self.events.close();
        }
    }

    /// Whether the end has been delivered.
    pub fn is_done(&self) -> bool {
        self.outcome.is_some()
    }

    /// Waits up to `timeout` for the outcome, passing feedback to `on_feedback`.
    pub fn wait_with_feedback(
        &mut self,
        timeout: Duration,
        mut on_feedback: impl FnMut(&A::Feedback),
    ) -> Result<GoalOutcome<A::Result>, BusError> {
        let deadline = Instant::now() + timeout;
        while self.outcome.is_none() {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_event(left) {
                Ok(GoalEvent::Feedback(f)) => on_feedback(&f),
                Ok(GoalEvent::Done(_)) | Err(RecvTimeoutError::Closed) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(BusError::Timeout {
                        what: format!("action {} result", self.action),
                        after: timeout,
                    })
                }
            }
        }
        self.outcome.clone().unwrap_or_else(|| {
            Err(BusError::GoalFinished {
                action: self.action.clone(),
            })
        })
    }

    /// Waits up to `timeout` for the outcome, skipping feedback.
    pub fn result(&mut self, timeout: Duration) -> Result<GoalOutcome<A::Result>, BusError> {
        self.wait_with_feedback(timeout, |_| {})
    }

    /// The outcome, if it has arrived (reads waiting events without blocking).
    pub fn try_result(&mut self) -> Option<Result<GoalOutcome<A::Result>, BusError>> {
        while self.outcome.is_none() {
            if self.try_next_event().is_err() {
                break;
            }
        }
        self.outcome.clone()
    }

    /// Asks the server to cancel; returns whether it accepted (a finished goal
    /// cannot be canceled). The outcome still arrives as an event.
    pub fn cancel(&self, timeout: Duration) -> Result<bool, BusError> {
        (self.cancel)(timeout)
    }
}

impl<A: RosAction> Waitable for ClientGoal<A> {
    fn source(&self) -> Source {
        Source(self.events.clone())
    }
}

impl<A: RosAction> Drop for ClientGoal<A> {
    fn drop(&mut self) {
        self.in_flight.store(false, Ordering::SeqCst);
    }
}

/// Goal state shared between the two sides on the in-process bus and by the
/// DDS server bookkeeping: the cancel flag.
#[derive(Default)]
pub(crate) struct CancelFlag {
    requested: AtomicBool,
    watchers: Watchers,
}

impl CancelFlag {
    pub(crate) fn request(&self) {
        self.requested.store(true, Ordering::SeqCst);
        self.watchers.notify();
    }
    pub(crate) fn is_requested(&self) -> bool {
        self.requested.load(Ordering::SeqCst)
    }
}

impl Watch for CancelFlag {
    fn watch(&self, signal: &Arc<Signal>) {
        self.watchers.add(signal);
    }
    fn is_ready(&self) -> bool {
        self.is_requested()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_codes_round_trip() {
        for s in [
            GoalStatus::Accepted,
            GoalStatus::Executing,
            GoalStatus::Canceling,
            GoalStatus::Succeeded,
            GoalStatus::Canceled,
            GoalStatus::Aborted,
        ] {
            assert_eq!(GoalStatus::from_code(s.code()), Some(s));
        }
        assert_eq!(GoalStatus::from_code(0), None);
        assert!(GoalStatus::Canceled.is_terminal() && !GoalStatus::Canceling.is_terminal());
        let id = GoalId([0xab; 16]);
        assert_eq!(id.to_string().len(), 36);
    }
}
