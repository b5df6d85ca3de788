//! The in-process backend: every node of the graph in one process, messages
//! passed as Rust values through queues. No network, no serialisation, and
//! deterministic: a publish reaches the matched subscriptions in their
//! creation order before `publish` returns. QoS matching and transient-local
//! history follow the DDS rules, so node code behaves as it will over DDS.

use std::any::Any;
use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::action::{
    ActionClient, ActionClientImpl, ActionServer, ActiveGoalImpl, CancelFlag, GoalEvent, GoalId,
    GoalOutcome, GoalParts, GoalStatus, IncomingGoal,
};
use crate::args::{NodeOptions, RosArgs};
use crate::handles::{
    Publisher, PublisherImpl, ServiceClient, ServiceClientImpl, ServiceRequest, ServiceServer,
    Subscription, SubscriptionImpl,
};
use crate::queue::{Queue, Slot};
use crate::{names, Bus, BusError, Parameters, Qos, RosAction, RosMessage, RosService};

use gamebot_interfaces::action_msgs::{GoalInfo, GoalStatus as StatusMsg, GoalStatusArray};
use gamebot_interfaces::builtin_interfaces::Time;
use gamebot_interfaces::unique_identifier_msgs::UUID;
use gamebot_interfaces::FeedbackMessage;

type AnyArc = Arc<dyn Any + Send + Sync>;

/// What an in-process action server shares with its clients: the goal queue
/// and the action's two observable topics.
struct ActionEndpoint<A: RosAction> {
    queue: Arc<Queue<IncomingGoal<A>>>,
    topics: Arc<ActionTopics<A>>,
}

/// How many finished goals the status list keeps (rcl keeps them until
/// their results expire).
const FINISHED_KEPT: usize = 16;

/// `<action>/_action/feedback` and `<action>/_action/status`, published as a
/// ROS 2 action server publishes them, so that any node can watch an action
/// (the recorder, a UI), as over DDS, not only the goal's client.
struct ActionTopics<A: RosAction> {
    feedback: Publisher<FeedbackMessage<A>>,
    status: Publisher<GoalStatusArray>,
    goals: Mutex<Vec<StatusMsg>>,
}

impl<A: RosAction> ActionTopics<A> {
    /// Records the goal's new status and publishes the status list.
    fn set(&self, id: GoalId, status: GoalStatus) {
        let finished = |g: &StatusMsg| g.status >= GoalStatus::Succeeded.code();
        let msg = {
            let mut goals = self.goals.lock().unwrap_or_else(|e| e.into_inner());
            match goals.iter_mut().find(|g| g.goal_info.goal_id.uuid == id.0) {
                Some(g) => g.status = status.code(),
                None => goals.push(StatusMsg {
                    goal_info: GoalInfo {
                        goal_id: UUID { uuid: id.0 },
                        stamp: Time::now(),
                    },
                    status: status.code(),
                }),
            }
            while goals.iter().filter(|g| finished(g)).count() > FINISHED_KEPT {
                let oldest = goals.iter().position(finished).expect("counted above");
                goals.remove(oldest);
            }
            GoalStatusArray {
                status_list: goals.clone(),
            }
        };
        let _ = self.status.publish(&msg);
    }

    fn feedback(&self, id: GoalId, feedback: &A::Feedback) {
        let _ = self.feedback.publish(&FeedbackMessage {
            goal_id: UUID { uuid: id.0 },
            feedback: feedback.clone(),
        });
    }
}
type Sink = Arc<dyn Fn(&(dyn Any + Send + Sync)) + Send + Sync>;

struct PubEntry {
    id: u64,
    type_name: &'static str,
    qos: Qos,
    /// Last `depth` samples, kept only for transient-local publishers.
    history: VecDeque<AnyArc>,
}

struct SubEntry {
    id: u64,
    type_name: &'static str,
    qos: Qos,
    sink: Sink,
}

#[derive(Default)]
struct TopicState {
    pubs: Vec<PubEntry>,
    subs: Vec<SubEntry>,
}

struct Endpoint {
    id: u64,
    type_name: &'static str,
    queue: AnyArc,
}

#[derive(Default)]
struct HubState {
    topics: BTreeMap<String, TopicState>,
    services: BTreeMap<String, Endpoint>,
    actions: BTreeMap<String, Endpoint>,
}

#[derive(Default)]
struct Hub {
    state: Mutex<HubState>,
    changed: Condvar,
    next_id: AtomicU64,
}

impl Hub {
    fn lock(&self) -> MutexGuard<'_, HubState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::SeqCst) + 1
    }

    /// Waits until `pick` finds something in the state, or the deadline.
    fn wait_for<R>(
        &self,
        deadline: Instant,
        mut pick: impl FnMut(&HubState) -> Option<R>,
    ) -> Option<R> {
        let mut s = self.lock();
        loop {
            if let Some(r) = pick(&s) {
                return Some(r);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            s = self
                .changed
                .wait_timeout(s, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

/// The in-process graph. Clone it to share; create nodes with [`node`](Self::node).
#[derive(Clone, Default)]
pub struct InProcBus {
    hub: Arc<Hub>,
}

impl InProcBus {
    /// An empty graph.
    pub fn new() -> InProcBus {
        InProcBus::default()
    }

    /// A node in this graph.
    pub fn node(&self, options: NodeOptions) -> Result<InProcNode, BusError> {
        let options = options.validated()?;
        let params = Parameters::new(&options.fully_qualified_name(), options.overrides.clone());
        Ok(InProcNode {
            hub: self.hub.clone(),
            options,
            params,
        })
    }

    /// A node configured from command-line arguments (`--ros-args ...`).
    pub fn node_from_args(
        &self,
        default_name: &str,
        args: &RosArgs,
    ) -> Result<InProcNode, BusError> {
        self.node(args.node_options(default_name)?)
    }
}

/// A node on the in-process graph.
pub struct InProcNode {
    hub: Arc<Hub>,
    options: NodeOptions,
    params: Parameters,
}

fn deadline(timeout: Duration) -> Instant {
    Instant::now()
        .checked_add(timeout)
        .unwrap_or_else(|| Instant::now() + Duration::from_secs(86_400 * 365))
}

impl Bus for InProcNode {
    fn name(&self) -> &str {
        &self.options.name
    }

    fn namespace(&self) -> &str {
        &self.options.namespace
    }

    fn parameters(&self) -> &Parameters {
        &self.params
    }

    fn resolve(&self, name: &str) -> Result<String, BusError> {
        names::resolve(
            name,
            &self.options.namespace,
            &self.options.name,
            &self.options.remaps,
        )
    }

    fn publisher<T: RosMessage>(&self, topic: &str, qos: Qos) -> Result<Publisher<T>, BusError> {
        let topic = self.resolve(topic)?;
        let id = self.hub.id();
        {
            let mut s = self.hub.lock();
            let t = s.topics.entry(topic.clone()).or_default();
            check_type(&topic, t, T::TYPE_NAME)?;
            t.pubs.push(PubEntry {
                id,
                type_name: T::TYPE_NAME,
                qos,
                history: VecDeque::new(),
            });
        }
        let inner = InProcPublisher::<T> {
            hub: self.hub.clone(),
            topic: topic.clone(),
            id,
            qos,
            _t: Default::default(),
        };
        Ok(Publisher::new(topic, Box::new(inner)))
    }

    fn subscription<T: RosMessage>(
        &self,
        topic: &str,
        qos: Qos,
    ) -> Result<Subscription<T>, BusError> {
        let topic = self.resolve(topic)?;
        let id = self.hub.id();
        let queue = Arc::new(Queue::<T>::new(qos.effective_depth()));
        let q = queue.clone();
        let sink: Sink = Arc::new(move |m: &(dyn Any + Send + Sync)| {
            if let Some(t) = m.downcast_ref::<T>() {
                q.push(t.clone());
            }
        });
        {
            let mut s = self.hub.lock();
            let t = s.topics.entry(topic.clone()).or_default();
            check_type(&topic, t, T::TYPE_NAME)?;
            // Late joiner: replay what matching transient-local publishers kept.
            for p in &t.pubs {
                if p.type_name == T::TYPE_NAME
                    && qos.is_compatible_with_offer(&p.qos)
                    && qos.durability == crate::Durability::TransientLocal
                {
                    for m in &p.history {
                        sink(m.as_ref());
                    }
                }
            }
            t.subs.push(SubEntry {
                id,
                type_name: T::TYPE_NAME,
                qos,
                sink,
            });
        }
        let guard = InProcSubscription {
            hub: self.hub.clone(),
            topic: topic.clone(),
            id,
            type_name: T::TYPE_NAME,
            qos,
        };
        Ok(Subscription::new(topic, queue, Box::new(guard)))
    }

    fn service_server<S: RosService>(&self, name: &str) -> Result<ServiceServer<S>, BusError> {
        let name = self.resolve(name)?;
        let queue = Arc::new(Queue::<ServiceRequest<S>>::new(1000));
        let id = self.hub.id();
        {
            let mut s = self.hub.lock();
            if s.services.contains_key(&name) {
                return Err(BusError::Duplicate {
                    what: format!("service {name}"),
                });
            }
            s.services.insert(
                name.clone(),
                Endpoint {
                    id,
                    type_name: S::TYPE_NAME,
                    queue: queue.clone(),
                },
            );
        }
        self.hub.changed.notify_all();
        let guard = EndpointGuard {
            hub: self.hub.clone(),
            name: name.clone(),
            id,
            action: false,
        };
        Ok(ServiceServer::new(name, queue, Box::new(guard)))
    }

    fn service_client<S: RosService>(&self, name: &str) -> Result<ServiceClient<S>, BusError> {
        let name = self.resolve(name)?;
        let inner = InProcServiceClient::<S> {
            hub: self.hub.clone(),
            name: name.clone(),
            _s: Default::default(),
        };
        Ok(ServiceClient::new(name, Box::new(inner)))
    }

    fn action_server<A: RosAction>(&self, name: &str) -> Result<ActionServer<A>, BusError> {
        let name = self.resolve(name)?;
        let queue = Arc::new(Queue::<IncomingGoal<A>>::new(1000));
        let topics = Arc::new(ActionTopics::<A> {
            feedback: self
                .publisher(&format!("{name}/_action/feedback"), Qos::default_profile())?,
            status: self.publisher(&format!("{name}/_action/status"), Qos::latched(1))?,
            goals: Mutex::new(Vec::new()),
        });
        let endpoint = Arc::new(ActionEndpoint {
            queue: queue.clone(),
            topics,
        });
        let id = self.hub.id();
        {
            let mut s = self.hub.lock();
            if s.actions.contains_key(&name) {
                return Err(BusError::Duplicate {
                    what: format!("action {name}"),
                });
            }
            s.actions.insert(
                name.clone(),
                Endpoint {
                    id,
                    type_name: A::TYPE_NAME,
                    queue: endpoint,
                },
            );
        }
        self.hub.changed.notify_all();
        let guard = EndpointGuard {
            hub: self.hub.clone(),
            name: name.clone(),
            id,
            action: true,
        };
        Ok(ActionServer::new(name, queue, Box::new(guard)))
    }

    fn action_client<A: RosAction>(&self, name: &str) -> Result<ActionClient<A>, BusError> {
        let name = self.resolve(name)?;
        let inner = InProcActionClient::<A> {
            hub: self.hub.clone(),
            name: name.clone(),
            _a: Default::default(),
        };
        Ok(ActionClient::new(name, Box::new(inner)))
    }
}

fn check_type(topic: &str, t: &TopicState, type_name: &'static str) -> Result<(), BusError> {
    let existing = t
        .pubs
        .iter()
        .map(|p| p.type_name)
        .chain(t.subs.iter().map(|s| s.type_name))
        .find(|n| *n != type_name);
    match existing {
        Some(e) => Err(BusError::TypeMismatch {
            topic: topic.to_string(),
            existing: e.to_string(),
            requested: type_name.to_string(),
        }),
        None => Ok(()),
    }
}

struct InProcPublisher<T> {
    hub: Arc<Hub>,
    topic: String,
    id: u64,
    qos: Qos,
    _t: std::marker::PhantomData<fn(T)>,
}

impl<T: RosMessage> PublisherImpl<T> for InProcPublisher<T> {
    fn publish(&self, msg: &T) -> Result<(), BusError> {
        let mut s = self.hub.lock();
        let Some(t) = s.topics.get_mut(&self.topic) else {
            return Ok(());
        };
        if self.qos.durability == crate::Durability::TransientLocal {
            if let Some(p) = t.pubs.iter_mut().find(|p| p.id == self.id) {
                p.history.push_back(Arc::new(msg.clone()));
                while p.history.len() > self.qos.effective_depth() {
                    p.history.pop_front();
                }
            }
        }
        // Delivered under the hub lock so a subscription created concurrently
        // gets each sample exactly once (from history or live).
        for sub in &t.subs {
            if sub.qos.is_compatible_with_offer(&self.qos) {
                (sub.sink)(msg);
            }
        }
        Ok(())
    }

    fn subscriber_count(&self) -> usize {
        let s = self.hub.lock();
        s.topics.get(&self.topic).map_or(0, |t| {
            t.subs
                .iter()
                .filter(|sub| sub.qos.is_compatible_with_offer(&self.qos))
                .count()
        })
    }
}

impl<T> Drop for InProcPublisher<T> {
    fn drop(&mut self) {
        let mut s = self.hub.lock();
        if let Some(t) = s.topics.get_mut(&self.topic) {
            t.pubs.retain(|p| p.id != self.id);
        }
    }
}

struct InProcSubscription {
    hub: Arc<Hub>,
    topic: String,
    id: u64,
    type_name: &'static str,
    qos: Qos,
}

impl SubscriptionImpl for InProcSubscription {
    fn publisher_count(&self) -> usize {
        let s = self.hub.lock();
        s.topics.get(&self.topic).map_or(0, |t| {
            t.pubs
                .iter()
                .filter(|p| {
                    p.type_name == self.type_name && self.qos.is_compatible_with_offer(&p.qos)
                })
                .count()
        })
    }
}

impl Drop for InProcSubscription {
    fn drop(&mut self) {
        let mut s = self.hub.lock();
        if let Some(t) = s.topics.get_mut(&self.topic) {
            t.subs.retain(|p| p.id != self.id);
        }
    }
}

struct EndpointGuard {
    hub: Arc<Hub>,
    name: String,
    id: u64,
    action: bool,
}

impl Drop for EndpointGuard {
    fn drop(&mut self) {
        let mut s = self.hub.lock();
        let map = if self.action {
            &mut s.actions
        } else {
            &mut s.services
        };
        // Dropped after the lock is released: an action's endpoint owns
        // publishers, whose own drop takes the lock.
        let removed = if map.get(&self.name).is_some_and(|e| e.id == self.id) {
            map.remove(&self.name)
        } else {
            None
        };
        drop(s);
        drop(removed);
        self.hub.changed.notify_all();
    }
}

/// Sets `Disconnected` in the slot if dropped before answering.
struct Reply<R> {
    slot: Arc<Slot<Result<R, BusError>>>,
    what: String,
}

impl<R> Drop for Reply<R> {
    fn drop(&mut self) {
        self.slot.set(Err(BusError::Disconnected {
            what: self.what.clone(),
        }));
    }
}

fn find_endpoint<Q: Any + Send + Sync>(
    hub: &Hub,
    name: &str,
    type_name: &'static str,
    action: bool,
    timeout: Duration,
) -> Result<Arc<Q>, BusError> {
    let what = if action {
        format!("action {name}")
    } else {
        format!("service {name}")
    };
    let found = hub.wait_for(deadline(timeout), |s| {
        let map = if action { &s.actions } else { &s.services };
        map.get(name).map(|e| (e.type_name, e.queue.clone()))
    });
    match found {
        None => Err(BusError::Timeout {
            what: format!("{what} (no server)"),
            after: timeout,
        }),
        Some((t, _)) if t != type_name => Err(BusError::TypeMismatch {
            topic: name.to_string(),
            existing: t.to_string(),
            requested: type_name.to_string(),
        }),
        Some((_, q)) => q
            .downcast::<Q>()
            .map_err(|_| BusError::Disconnected { what }),
    }
}

struct InProcServiceClient<S> {
    hub: Arc<Hub>,
    name: String,
    _s: std::marker::PhantomData<fn(S)>,
}

impl<S: RosService> ServiceClientImpl<S> for InProcServiceClient<S> {
    fn call(&self, request: S::Request, timeout: Duration) -> Result<S::Response, BusError> {
        let start = Instant::now();
        let queue = find_endpoint::<Queue<ServiceRequest<S>>>(
            &self.hub,
            &self.name,
            S::TYPE_NAME,
            false,
            timeout,
        )?;
        let slot = Arc::new(Slot::new());
        let reply = Reply {
            slot: slot.clone(),
            what: format!("service {}", self.name),
        };
        queue.push(ServiceRequest::new(
            request,
            Box::new(move |resp| {
                reply.slot.set(Ok(resp));
                Ok(())
            }),
        ));
        drop(queue);
        let left = timeout.saturating_sub(start.elapsed());
        slot.take_timeout(left).unwrap_or_else(|| {
            Err(BusError::Timeout {
                what: format!("service {}", self.name),
                after: timeout,
            })
        })
    }

    fn is_ready(&self) -> bool {
        self.hub
            .lock()
            .services
            .get(&self.name)
            .is_some_and(|e| e.type_name == S::TYPE_NAME)
    }
}

struct SharedGoal {
    cancel: Arc<CancelFlag>,
    finished: AtomicBool,
}

struct InProcActiveGoal<A: RosAction> {
    id: GoalId,
    events: Arc<Queue<GoalEvent<A>>>,
    shared: Arc<SharedGoal>,
    topics: Arc<ActionTopics<A>>,
}

impl<A: RosAction> ActiveGoalImpl<A> for InProcActiveGoal<A> {
    fn feedback(&self, f: A::Feedback) -> Result<(), BusError> {
        self.topics.feedback(self.id, &f);
        self.events.push(GoalEvent::Feedback(f));
        Ok(())
    }

    fn cancel_requested(&self) -> bool {
        self.shared.cancel.is_requested()
    }

    fn cancel_flag(&self) -> Arc<CancelFlag> {
        self.shared.cancel.clone()
    }

    fn finish(&mut self, status: GoalStatus, result: A::Result) -> Result<(), BusError> {
        self.shared.finished.store(true, Ordering::SeqCst);
        self.topics.set(self.id, status);
        self.events
            .push(GoalEvent::Done(Ok(GoalOutcome { status, result })));
        Ok(())
    }
}

struct InProcActionClient<A> {
    hub: Arc<Hub>,
    name: String,
    _a: std::marker::PhantomData<fn(A)>,
}

impl<A: RosAction> ActionClientImpl<A> for InProcActionClient<A> {
    fn send_goal(&self, goal: A::Goal, timeout: Duration) -> Result<GoalParts<A>, BusError> {
        let start = Instant::now();
        let endpoint =
            find_endpoint::<ActionEndpoint<A>>(&self.hub, &self.name, A::TYPE_NAME, true, timeout)?;
        let (queue, topics) = (endpoint.queue.clone(), endpoint.topics.clone());
        drop(endpoint);
        // Deterministic ids: the hub's counter in the last eight bytes.
        let mut id = [0u8; 16];
        id[8..].copy_from_slice(&self.hub.id().to_be_bytes());
        let id = GoalId(id);
        let events = Arc::new(Queue::<GoalEvent<A>>::new(1000));
        let shared = Arc::new(SharedGoal {
            cancel: Arc::new(CancelFlag::default()),
            finished: AtomicBool::new(false),
        });
        let decision: Arc<Slot<Result<bool, BusError>>> = Arc::new(Slot::new());
        let reply = Reply {
            slot: decision.clone(),
            what: format!("action {}", self.name),
        };
        let (ev, sh) = (events.clone(), shared.clone());
        queue.push(IncomingGoal::new(
            id,
            goal,
            self.name.clone(),
            Box::new(move |accept| {
                reply.slot.set(Ok(accept));
                if accept {
                    topics.set(id, GoalStatus::Executing);
                    Ok(Some(Box::new(InProcActiveGoal::<A> {
                        id,
                        events: ev,
                        shared: sh,
                        topics,
                    }) as Box<dyn ActiveGoalImpl<A>>))
                } else {
                    Ok(None)
                }
            }),
        ));
        drop(queue);
        let left = timeout.saturating_sub(start.elapsed());
        match decision.take_timeout(left) {
            None => Err(BusError::Timeout {
                what: format!("action {} goal acceptance", self.name),
                after: timeout,
            }),
            Some(Err(e)) => Err(e),
            Some(Ok(false)) => Err(BusError::GoalRejected {
                action: self.name.clone(),
            }),
            Some(Ok(true)) => Ok(GoalParts {
                id,
                events,
                cancel: Box::new(move |_| {
                    if shared.finished.load(Ordering::SeqCst) {
                        Ok(false)
                    } else {
                        shared.cancel.request();
                        Ok(true)
                    }
                }),
                guard: Box::new(()),
            }),
        }
    }

    fn is_ready(&self) -> bool {
        self.hub
            .lock()
            .actions
            .get(&self.name)
            .is_some_and(|e| e.type_name == A::TYPE_NAME)
    }
}
