//! The ROS 2 backend: real ROS 2 nodes over DDS through the pure-Rust
//! `ros2-client` (RustDDS). Topics are `rt/<name>`, services and actions use
//! the standard ROS 2 mappings, so C++/Python ROS 2 nodes interoperate.
//!
//! Each [`DdsContext`] is one DDS participant with one background thread
//! running its async tasks (node spinners and the loops that move received
//! samples into the handles' queues). Handles are used from ordinary threads.
//!
//! Configuration from the environment ([`DdsConfig::from_env`]):
//! `ROS_DOMAIN_ID` (0–232) and `ROS_AUTOMATIC_DISCOVERY_RANGE`
//! (`LOCALHOST` keeps discovery and traffic on 127.0.0.1; `SUBNET` and
//! `SYSTEM_DEFAULT` use every interface; `ROS_LOCALHOST_ONLY=1` is the older
//! spelling of `LOCALHOST`).

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use ros2_client as r2;
use ros2_client::action::{
    ActionClientQosPolicies, ActionServerQosPolicies, AsyncActionServer, ExecutingGoalHandle,
    GoalEndStatus, GoalStatusEnum, SendGoalRequest,
};
use serde::{Deserialize, Serialize};
use smol::stream::StreamExt;

use crate::action::{
    ActionClient, ActionClientImpl, ActionServer, ActiveGoalImpl, CancelFlag, GoalEvent, GoalId,
    GoalOutcome, GoalParts, GoalStatus, IncomingGoal,
};
use crate::args::{NodeOptions, RosArgs};
use crate::handles::{
    Publisher, PublisherImpl, ServiceClient, ServiceClientImpl, ServiceRequest, ServiceServer,
    Subscription, SubscriptionImpl,
};
use crate::queue::{CloseOnDrop, Queue};
use crate::{
    names, Bus, BusError, Durability, Parameters, Qos, Reliability, RosAction, RosMessage,
    RosService,
};

/// A gamebot message on the wire: CDR-encoded by ros2-client exactly as the
/// mirror's serde layout says.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(transparent)]
struct Wire<T>(T);

impl<T: RosMessage> r2::Message for Wire<T> {}

/// How ROS 2 services are mapped onto DDS topics (must match the peers' RMW).
pub use r2::ServiceMapping;

/// Checks that this process runs inside `scripts/netns-run` (the marker
/// variable is set and loopback is the only network interface), so that DDS
/// discovery cannot reach any other machine. Tests that create participants
/// call this first; the error names the interfaces found.
pub fn check_private_netns() -> Result<(), String> {
    let dev = std::fs::read_to_string("/proc/net/dev").unwrap_or_default();
    let ifaces: Vec<&str> = dev
        .lines()
        .skip(2)
        .filter_map(|l| l.split(':').next())
        .map(str::trim)
        .collect();
    if std::env::var("GAMEBOT_NETNS").as_deref() == Ok("1") && ifaces == ["lo"] {
        Ok(())
    } else {
        Err(format!(
            "DDS tests must run inside scripts/netns-run (found interfaces {ifaces:?}); refusing to create DDS participants"
        ))
    }
}

/// Participant settings.
#[derive(Debug, Clone, PartialEq)]
pub struct DdsConfig {
    /// DDS domain (`ROS_DOMAIN_ID`).
    pub domain_id: u16,
    /// Discovery and traffic only on 127.0.0.1 (`ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST`).
    pub localhost_only: bool,
    /// Service request/reply mapping; `Enhanced` is what rmw_fastrtps (the
    /// ROS 2 default RMW) uses, `Cyclone` what rmw_cyclonedds uses.
    pub service_mapping: ServiceMapping,
}

impl Default for DdsConfig {
    fn default() -> Self {
        DdsConfig {
            domain_id: 0,
            localhost_only: false,
            service_mapping: ServiceMapping::Enhanced,
        }
    }
}

impl DdsConfig {
    /// Reads `ROS_DOMAIN_ID`, `ROS_AUTOMATIC_DISCOVERY_RANGE`, `ROS_LOCALHOST_ONLY`
    /// and `GAMEBOT_RMW_SERVICE_MAPPING` (`enhanced`, `cyclone` or `basic`).
    pub fn from_env() -> Result<DdsConfig, BusError> {
        DdsConfig::from_vars(|k| std::env::var(k).ok())
    }

    /// As [`from_env`](Self::from_env), reading variables through `get`.
    pub fn from_vars(get: impl Fn(&str) -> Option<String>) -> Result<DdsConfig, BusError> {
        let env_err = |var: &str, value: &str, reason: &str| BusError::Env {
            var: var.to_string(),
            value: value.to_string(),
            reason: reason.to_string(),
        };
        let mut c = DdsConfig::default();
        if let Some(v) = get("ROS_DOMAIN_ID").filter(|v| !v.trim().is_empty()) {
            c.domain_id = match v.trim().parse::<u16>() {
                Ok(d) if d <= 232 => d,
                _ => {
                    return Err(env_err(
                        "ROS_DOMAIN_ID",
                        &v,
                        "must be an integer from 0 to 232",
                    ))
                }
            };
        }
        if get("ROS_LOCALHOST_ONLY").is_some_and(|v| v.trim() == "1") {
            c.localhost_only = true;
        }
        if let Some(v) = get("ROS_AUTOMATIC_DISCOVERY_RANGE").filter(|v| !v.trim().is_empty()) {
            match v.trim().to_ascii_uppercase().as_str() {
                "LOCALHOST" => c.localhost_only = true,
                "SUBNET" | "SYSTEM_DEFAULT" => {}
                "OFF" => {
                    return Err(env_err(
                        "ROS_AUTOMATIC_DISCOVERY_RANGE",
                        &v,
                        "OFF (no discovery) is not supported; use LOCALHOST",
                    ))
                }
                _ => {
                    return Err(env_err(
                        "ROS_AUTOMATIC_DISCOVERY_RANGE",
                        &v,
                        "must be SUBNET, LOCALHOST, OFF or SYSTEM_DEFAULT",
                    ))
                }
            }
        }
        if let Some(v) = get("GAMEBOT_RMW_SERVICE_MAPPING").filter(|v| !v.trim().is_empty()) {
            c.service_mapping = match v.trim().to_ascii_lowercase().as_str() {
                "enhanced" => ServiceMapping::Enhanced,
                "cyclone" => ServiceMapping::Cyclone,
                "basic" => ServiceMapping::Basic,
                _ => {
                    return Err(env_err(
                        "GAMEBOT_RMW_SERVICE_MAPPING",
                        &v,
                        "must be enhanced, cyclone or basic",
                    ))
                }
            };
        }
        Ok(c)
    }
}

fn dds_err(what: impl Into<String>, e: impl std::error::Error + Send + Sync + 'static) -> BusError {
    BusError::Dds {
        what: what.into(),
        source: Arc::new(e),
    }
}

/// For middleware errors that implement only `Debug`.
fn dds_err_debug(what: impl Into<String>, e: impl std::fmt::Debug) -> BusError {
    dds_err(what, crate::DdsMessage(format!("{e:?}")))
}

struct Runtime {
    exec: Arc<smol::Executor<'static>>,
    stop: smol::channel::Sender<()>,
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
}

impl Drop for Runtime {
    fn drop(&mut self) {
        let _ = self.stop.try_send(());
        if let Some(t) = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take() {
            let _ = t.join();
        }
    }
}

/// One DDS participant and its task thread. Create nodes with [`node`](Self::node).
#[derive(Clone)]
pub struct DdsContext {
    ctx: r2::Context,
    rt: Arc<Runtime>,
    config: DdsConfig,
}

impl DdsContext {
    /// A participant configured from the environment (see [`DdsConfig::from_env`]).
    pub fn from_env() -> Result<DdsContext, BusError> {
        DdsContext::new(DdsConfig::from_env()?)
    }

    /// A participant with explicit settings.
    pub fn new(config: DdsConfig) -> Result<DdsContext, BusError> {
        let mut b = r2::dds::rustdds::DomainParticipantBuilder::new(config.domain_id);
        if config.localhost_only {
            b = b.with_only_networks([IpAddr::V4(Ipv4Addr::LOCALHOST)]);
        }
        let dp = b.build().map_err(|e| {
            dds_err(
                format!("create participant in domain {}", config.domain_id),
                e,
            )
        })?;
        let ctx = r2::Context::from_domain_participant(dp)
            .map_err(|e| dds_err("create ROS 2 context", e))?;
        let exec = Arc::new(smol::Executor::new());
        let (stop, stopped) = smol::channel::bounded::<()>(1);
        let ex = exec.clone();
        let thread = std::thread::Builder::new()
            .name("gamebot-dds".into())
            .spawn(move || {
                smol::block_on(ex.run(async move {
                    let _ = stopped.recv().await;
                }))
            })
            .map_err(|e| dds_err("start the DDS task thread", e))?;
        let rt = Arc::new(Runtime {
            exec,
            stop,
            thread: Mutex::new(Some(thread)),
        });
        Ok(DdsContext { ctx, rt, config })
    }

    /// The settings in use.
    pub fn config(&self) -> &DdsConfig {
        &self.config
    }

    /// A ROS 2 node in this participant.
    pub fn node(&self, options: NodeOptions) -> Result<DdsNode, BusError> {
        let options = options.validated()?;
        let node_name = r2::NodeName::new(&options.namespace, &options.name).map_err(|e| {
            BusError::InvalidName {
                name: options.fully_qualified_name(),
                reason: e.to_string(),
            }
        })?;
        // rosout is published by gamebot's own logging layer; parameters are
        // handled by gamebot_ros::params.
        let r_opts = r2::NodeOptions::new()
            .enable_rosout(false)
            .start_parameter_services(false);
        let mut node = self
            .ctx
            .new_node(node_name, r_opts)
            .map_err(|e| dds_err(format!("create node {}", options.fully_qualified_name()), e))?;
        let spinner = node
            .spinner()
            .map_err(|e| dds_err("create node spinner", e))?;
        let fq = options.fully_qualified_name();
        self.rt
            .exec
            .spawn(async move {
                if let Err(e) = spinner.spin().await {
                    tracing::warn!("node {fq}: spinner stopped: {e}");
                }
            })
            .detach();
        let params = Parameters::new(&options.fully_qualified_name(), options.overrides.clone());
        Ok(DdsNode {
            rt: self.rt.clone(),
            participant: self.ctx.domain_participant(),
            node: Arc::new(Mutex::new(node)),
            options,
            params,
            mapping: self.config.service_mapping,
        })
    }

    /// A node configured from command-line arguments (`--ros-args ...`).
    pub fn node_from_args(&self, default_name: &str, args: &RosArgs) -> Result<DdsNode, BusError> {
        self.node(args.node_options(default_name)?)
    }
}

type SharedNode = Arc<Mutex<r2::Node>>;
type WireActionServer<A> = AsyncActionServer<
    Wire<<A as RosAction>::Goal>,
    Wire<<A as RosAction>::Result>,
    Wire<<A as RosAction>::Feedback>,
>;
type WireActionClient<A> = r2::ActionClient<
    Wire<<A as RosAction>::Goal>,
    Wire<<A as RosAction>::Result>,
    Wire<<A as RosAction>::Feedback>,
>;

fn lock(n: &SharedNode) -> MutexGuard<'_, r2::Node> {
    n.lock().unwrap_or_else(|e| e.into_inner())
}

/// A ROS 2 node over DDS.
pub struct DdsNode {
    rt: Arc<Runtime>,
    /// For topics whose type ros2-client cannot name (an action's
    /// `_FeedbackMessage`, see [`DdsNode::topic`]).
    participant: r2::dds::rustdds::DomainParticipant,
    node: SharedNode,
    options: NodeOptions,
    params: Parameters,
    mapping: ServiceMapping,
}

fn qos_profile(q: Qos) -> r2::QosProfile {
    use r2::qos::{History, Liveliness, WhenFull};
    r2::QosProfile {
        reliability: match q.reliability {
            Reliability::Reliable => r2::qos::Reliability::Reliable {
                when_full: WhenFull::Wait(Duration::from_millis(100)),
            },
            Reliability::BestEffort => r2::qos::Reliability::BestEffort,
        },
        durability: match q.durability {
            Durability::Volatile => r2::qos::Durability::Volatile,
            Durability::TransientLocal => r2::qos::Durability::TransientLocal,
        },
        history: History::KeepLast {
            depth: q.effective_depth(),
        },
        deadline: None,
        lifespan: None,
        liveliness: Liveliness::Automatic,
        liveliness_lease: None,
    }
}

fn type_parts(full: &'static str, kind: &str) -> Result<(&'static str, &'static str), BusError> {
    match gamebot_interfaces::split_type_name(full) {
        Some((p, k, n)) if k == kind => Ok((p, n)),
        _ => Err(dds_err(
            format!("type {full}"),
            crate::DdsMessage(format!("expected a `{kind}` type name")),
        )),
    }
}

impl DdsNode {
    fn node_name(&self) -> Result<r2::NodeName, BusError> {
        r2::NodeName::new(&self.options.namespace, &self.options.name).map_err(|e| {
            BusError::InvalidName {
                name: self.options.fully_qualified_name(),
                reason: e.to_string(),
            }
        })
    }

    /// The DDS topic `rt/<name>` of a message type. A `pkg/msg/T` goes
    /// through ros2-client; a `pkg/action/T` (the hidden topics of an action,
    /// e.g. `PlanMove_FeedbackMessage` on `.../_action/feedback`, which a
    /// recorder subscribes to) gets the type name rmw gives it,
    /// `pkg::action::dds_::T_`, which ros2-client only builds internally.
    fn topic(
        &self,
        node: &r2::Node,
        resolved: &str,
        type_name: &'static str,
        profile: &r2::QosProfile,
    ) -> Result<r2::dds::rustdds::Topic, BusError> {
        let name = ros_name(resolved)?;
        let what = || format!("create topic {resolved}");
        match gamebot_interfaces::split_type_name(type_name) {
            Some((pkg, "msg", ty)) => node
                .create_topic(&name, r2::MessageTypeName::new(pkg, ty), profile)
                .map_err(|e| dds_err(what(), e)),
            Some((pkg, "action", ty)) => self
                .participant
                .create_topic(
                    // `resolved` is absolute, so the node name is not used.
                    name.to_dds_name("rt", &self.node_name()?, ""),
                    format!("{pkg}::action::dds_::{ty}_"),
                    &profile.into(),
                    r2::dds::rustdds::TopicKind::NoKey,
                )
                .map_err(|e| dds_err(what(), e)),
            _ => Err(dds_err(
                format!("type {type_name}"),
                crate::DdsMessage("expected a `msg` or `action` message type name".into()),
            )),
        }
    }
}

fn ros_name(resolved: &str) -> Result<r2::Name, BusError> {
    r2::Name::parse(resolved).map_err(|e| BusError::InvalidName {
        name: resolved.to_string(),
        reason: e.to_string(),
    })
}

fn action_server_qos() -> ActionServerQosPolicies {
    ActionServerQosPolicies {
        goal_service: qos_profile(Qos::services()),
        result_service: qos_profile(Qos::services()),
        cancel_service: qos_profile(Qos::services()),
        feedback_publisher: qos_profile(Qos::default_profile()),
        status_publisher: qos_profile(Qos::latched(1)),
    }
}

fn action_client_qos() -> ActionClientQosPolicies {
    ActionClientQosPolicies {
        goal_service: qos_profile(Qos::services()),
        result_service: qos_profile(Qos::services()),
        cancel_service: qos_profile(Qos::services()),
        feedback_subscription: qos_profile(Qos::default_profile()),
        status_subscription: qos_profile(Qos::latched(1)),
    }
}

/// Runs `fut` on the calling thread, giving up after `timeout`.
fn block_on_timeout<T>(timeout: Duration, fut: impl std::future::Future<Output = T>) -> Option<T> {
    smol::block_on(smol::future::or(async { Some(fut.await) }, async {
        smol::Timer::after(timeout).await;
        None
    }))
}

/// Whether a readiness future is already complete, without waiting.
fn ready_now(fut: impl std::future::Future<Output = ()>) -> bool {
    smol::block_on(smol::future::poll_once(fut)).is_some()
}

impl Bus for DdsNode {
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
        let resolved = self.resolve(topic)?;
        let profile = qos_profile(qos);
        let mut node = lock(&self.node);
        let t = self.topic(&node, &resolved, T::TYPE_NAME, &profile)?;
        let publisher = node
            .create_publisher::<Wire<T>>(&t, Some(profile))
            .map_err(|e| dds_err(format!("create publisher on {resolved}"), e))?;
        drop(node);
        let inner = DdsPublisher {
            publisher,
            node: self.node.clone(),
            topic: resolved.clone(),
        };
        Ok(Publisher::new(resolved, Box::new(inner)))
    }

    fn subscription<T: RosMessage>(
        &self,
        topic: &str,
        qos: Qos,
    ) -> Result<Subscription<T>, BusError> {
        let resolved = self.resolve(topic)?;
        let profile = qos_profile(qos);
        let mut node = lock(&self.node);
        let t = self.topic(&node, &resolved, T::TYPE_NAME, &profile)?;
        let sub = Arc::new(
            node.create_subscription::<Wire<T>>(&t, Some(profile))
                .map_err(|e| dds_err(format!("create subscription on {resolved}"), e))?,
        );
        drop(node);
        let queue = Arc::new(Queue::<T>::new(qos.effective_depth()));
        let (s, q, name) = (sub.clone(), queue.clone(), resolved.clone());
        let task = self.rt.exec.spawn(async move {
            let _closes = CloseOnDrop(q.clone());
            let stream = s.async_stream();
            smol::pin!(stream);
            let mut batch = Vec::new();
            while let Some(first) = stream.next().await {
                // Take every sample that is already there as one batch, so a
                // burst (a late joiner's historical samples) lands in the
                // keep-last queue at once and a waiting receiver sees only the
                // newest `depth` of it, as keep-last history promises.
                let mut next = Some(first);
                while let Some(r) = next.take() {
                    match r {
                        Ok((Wire(m), _info)) => batch.push(m),
                        Err(e) => tracing::warn!(
                            "topic {name}: dropped a sample that could not be read: {e}"
                        ),
                    }
                    next = smol::future::poll_once(stream.next()).await.flatten();
                }
                q.push_all(batch.drain(..));
            }
        });
        let inner = DdsSubscription {
            sub,
            node: self.node.clone(),
            _task: task,
        };
        Ok(Subscription::new(resolved, queue, Box::new(inner)))
    }

    fn service_server<S: RosService>(&self, name: &str) -> Result<ServiceServer<S>, BusError> {
        let resolved = self.resolve(name)?;
        let (pkg, ty) = type_parts(S::TYPE_NAME, "srv")?;
        let profile = qos_profile(Qos::services());
        let server = Arc::new(
            lock(&self.node)
                .create_server::<Wire<S::Request>, Wire<S::Response>>(
                    self.mapping,
                    &ros_name(&resolved)?,
                    &r2::ServiceTypeName::new(pkg, ty),
                    profile.clone(),
                    profile,
                )
                .map_err(|e| dds_err(format!("create service server {resolved}"), e))?,
        );
        let queue = Arc::new(Queue::<ServiceRequest<S>>::new(1000));
        let (srv, q, name) = (server.clone(), queue.clone(), resolved.clone());
        let task = self.rt.exec.spawn(async move {
            let _closes = CloseOnDrop(q.clone());
            loop {
                match srv.async_receive_request().await {
                    Ok((req_id, Wire(req))) => {
                        let (srv2, name2) = (srv.clone(), name.clone());
                        q.push(ServiceRequest::new(
                            req,
                            Box::new(move |resp| {
                                srv2.send_response(req_id, Wire(resp)).map_err(|e| {
                                    dds_err(format!("service {name2}: send response"), e)
                                })
                            }),
                        ));
                    }
                    Err(e) => tracing::warn!(
                        "service {name}: dropped a request that could not be read: {e}"
                    ),
                }
            }
        });
        Ok(ServiceServer::new(
            resolved,
            queue,
            Box::new(TaskGuard(Some(task))),
        ))
    }

    fn service_client<S: RosService>(&self, name: &str) -> Result<ServiceClient<S>, BusError> {
        let resolved = self.resolve(name)?;
        let (pkg, ty) = type_parts(S::TYPE_NAME, "srv")?;
        let profile = qos_profile(Qos::services());
        let client = lock(&self.node)
            .create_client::<Wire<S::Request>, Wire<S::Response>>(
                self.mapping,
                &ros_name(&resolved)?,
                &r2::ServiceTypeName::new(pkg, ty),
                profile.clone(),
                profile,
            )
            .map_err(|e| dds_err(format!("create service client {resolved}"), e))?;
        let inner = DdsServiceClient::<S> {
            client,
            node: self.node.clone(),
            name: resolved.clone(),
            call_lock: Mutex::new(()),
        };
        Ok(ServiceClient::new(resolved, Box::new(inner)))
    }

    fn action_server<A: RosAction>(&self, name: &str) -> Result<ActionServer<A>, BusError> {
        let resolved = self.resolve(name)?;
        let (pkg, ty) = type_parts(A::TYPE_NAME, "action")?;
        let server = lock(&self.node)
            .create_action_server::<Wire<A::Goal>, Wire<A::Result>, Wire<A::Feedback>>(
                self.mapping,
                &ros_name(&resolved)?,
                &r2::ActionTypeName::new(pkg, ty),
                action_server_qos(),
            )
            .map_err(|e| dds_err(format!("create action server {resolved}"), e))?;
        let server = Arc::new(AsyncActionServer::new(server));
        let flags: Arc<Mutex<HashMap<GoalId, Arc<CancelFlag>>>> = Arc::default();
        let queue = Arc::new(Queue::<IncomingGoal<A>>::new(1000));

        let (srv, q, fl, exec, name) = (
            server.clone(),
            queue.clone(),
            flags.clone(),
            self.rt.exec.clone(),
            resolved.clone(),
        );
        let goals = self.rt.exec.spawn(async move {
            let _closes = CloseOnDrop(q.clone());
            loop {
                let handle = match srv.receive_new_goal().await {
                    Ok(h) => h,
                    Err(e) => {
                        tracing::warn!("action {name}: dropped a goal that could not be read: {e}");
                        continue;
                    }
                };
                let Some(Wire(goal)) = srv.get_new_goal(handle.clone()) else {
                    continue;
                };
                let id = GoalId(*handle.goal_id().uuid.as_bytes());
                let (srv2, fl2, exec2, name2) =
                    (srv.clone(), fl.clone(), exec.clone(), name.clone());
                q.push(IncomingGoal::new(
                    id,
                    goal,
                    name.clone(),
                    Box::new(move |accept| {
                        if !accept {
                            smol::block_on(srv2.reject_goal(handle)).map_err(|e| {
                                dds_err_debug(format!("action {name2}: reject goal"), e)
                            })?;
                            return Ok(None);
                        }
                        let accepted = smol::block_on(srv2.accept_goal(handle)).map_err(|e| {
                            dds_err_debug(format!("action {name2}: accept goal"), e)
                        })?;
                        let executing = smol::block_on(srv2.start_executing_goal(accepted))
                            .map_err(|e| dds_err_debug(format!("action {name2}: start goal"), e))?;
                        let flag = Arc::new(CancelFlag::default());
                        fl2.lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .insert(id, flag.clone());
                        Ok(Some(Box::new(DdsActiveGoal::<A> {
                            server: srv2,
                            handle: executing,
                            id,
                            flag,
                            flags: fl2,
                            exec: exec2,
                            name: name2,
                        })
                            as Box<dyn ActiveGoalImpl<A>>))
                    }),
                ));
            }
        });

        let (srv, fl, name) = (server.clone(), flags.clone(), resolved.clone());
        let cancels = self.rt.exec.spawn(async move {
            loop {
                let ch = match srv.receive_cancel_request().await {
                    Ok(ch) => ch,
                    Err(e) => {
                        tracing::warn!(
                            "action {name}: dropped a cancel request that could not be read: {e}"
                        );
                        continue;
                    }
                };
                let goals: Vec<_> = ch.goals().collect();
                {
                    let flags = fl.lock().unwrap_or_else(|e| e.into_inner());
                    for g in &goals {
                        if let Some(f) = flags.get(&GoalId(*g.uuid.as_bytes())) {
                            f.request();
                        }
                    }
                }
                if let Err(e) = srv.respond_to_cancel_requests(&ch, goals.into_iter()).await {
                    tracing::warn!("action {name}: could not answer a cancel request: {e}");
                }
            }
        });
        Ok(ActionServer::new(
            resolved,
            queue,
            Box::new((TaskGuard(Some(goals)), TaskGuard(Some(cancels)))),
        ))
    }

    fn action_client<A: RosAction>(&self, name: &str) -> Result<ActionClient<A>, BusError> {
        let resolved = self.resolve(name)?;
        let (pkg, ty) = type_parts(A::TYPE_NAME, "action")?;
        let client = Arc::new(
            lock(&self.node)
                .create_action_client::<Wire<A::Goal>, Wire<A::Result>, Wire<A::Feedback>>(
                    self.mapping,
                    &ros_name(&resolved)?,
                    &r2::ActionTypeName::new(pkg, ty),
                    action_client_qos(),
                )
                .map_err(|e| dds_err(format!("create action client {resolved}"), e))?,
        );
        let current: CurrentGoal<A> = Arc::default();
        let (cl, cur, name) = (client.clone(), current.clone(), resolved.clone());
        let feedback = self.rt.exec.spawn(async move {
            let stream = cl.feedback_subscription().async_stream();
            smol::pin!(stream);
            while let Some(r) = stream.next().await {
                match r {
                    Ok((msg, _)) => {
                        let cur = cur.lock().unwrap_or_else(|e| e.into_inner());
                        if let Some((id, q)) = cur.as_ref() {
                            if *id == msg.goal_id {
                                q.push(GoalEvent::Feedback(msg.feedback.0));
                            }
                        }
                    }
                    Err(e) => tracing::warn!(
                        "action {name}: dropped feedback that could not be read: {e}"
                    ),
                }
            }
        });
        let inner = DdsActionClient::<A> {
            client,
            node: self.node.clone(),
            name: resolved.clone(),
            current,
            exec: self.rt.exec.clone(),
            _feedback: TaskGuard(Some(feedback)),
        };
        Ok(ActionClient::new(resolved, Box::new(inner)))
    }
}

/// Cancels a background task when dropped.
struct TaskGuard(Option<smol::Task<()>>);

impl Drop for TaskGuard {
    fn drop(&mut self) {
        // Dropping a smol Task cancels it.
        self.0.take();
    }
}

struct DdsPublisher<T: RosMessage> {
    publisher: r2::Publisher<Wire<T>>,
    node: SharedNode,
    topic: String,
}

impl<T: RosMessage> PublisherImpl<T> for DdsPublisher<T> {
    fn publish(&self, msg: &T) -> Result<(), BusError> {
        self.publisher
            .publish(Wire(msg.clone()))
            .map_err(|e| dds_err_debug(format!("publish on {}", self.topic), e))
    }

    fn subscriber_count(&self) -> usize {
        self.publisher.get_subscription_count(&lock(&self.node))
    }
}

struct DdsSubscription<T: RosMessage> {
    sub: Arc<r2::Subscription<Wire<T>>>,
    node: SharedNode,
    _task: smol::Task<()>,
}

impl<T: RosMessage> SubscriptionImpl for DdsSubscription<T> {
    fn publisher_count(&self) -> usize {
        self.sub.get_publisher_count(&lock(&self.node))
    }
}

struct DdsServiceClient<S: RosService> {
    client: r2::Client<Wire<S::Request>, Wire<S::Response>>,
    node: SharedNode,
    name: String,
    // ros2-client drops responses that are not for the request being awaited,
    // so calls on one client go one at a time.
    call_lock: Mutex<()>,
}

impl<S: RosService> ServiceClientImpl<S> for DdsServiceClient<S> {
    fn call(&self, request: S::Request, timeout: Duration) -> Result<S::Response, BusError> {
        let start = Instant::now();
        let _one_at_a_time = self.call_lock.lock().unwrap_or_else(|e| e.into_inner());
        let what = format!("service {}", self.name);
        // A request sent before the server's reader has matched is lost.
        if !crate::poll_until(timeout, Duration::from_millis(5), || self.is_ready()) {
            return Err(BusError::Timeout {
                what: format!("{what} (no server)"),
                after: timeout,
            });
        }
        let left = timeout.saturating_sub(start.elapsed());
        match block_on_timeout(left, self.client.async_call_service(Wire(request))) {
            None => Err(BusError::Timeout {
                what,
                after: timeout,
            }),
            Some(Err(e)) => Err(dds_err(what, e)),
            Some(Ok(Wire(resp))) => Ok(resp),
        }
    }

    fn is_ready(&self) -> bool {
        let node = lock(&self.node);
        ready_now(self.client.wait_for_service(&node))
    }
}

struct DdsActiveGoal<A: RosAction> {
    server: Arc<WireActionServer<A>>,
    handle: ExecutingGoalHandle<Wire<A::Goal>>,
    id: GoalId,
    flag: Arc<CancelFlag>,
    flags: Arc<Mutex<HashMap<GoalId, Arc<CancelFlag>>>>,
    exec: Arc<smol::Executor<'static>>,
    name: String,
}

impl<A: RosAction> ActiveGoalImpl<A> for DdsActiveGoal<A> {
    fn feedback(&self, f: A::Feedback) -> Result<(), BusError> {
        smol::block_on(self.server.publish_feedback(self.handle.clone(), Wire(f)))
            .map_err(|e| dds_err_debug(format!("action {}: feedback", self.name), e))
    }

    fn cancel_requested(&self) -> bool {
        self.flag.is_requested()
    }

    fn cancel_flag(&self) -> Arc<CancelFlag> {
        self.flag.clone()
    }

    fn finish(&mut self, status: GoalStatus, result: A::Result) -> Result<(), BusError> {
        self.flags
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.id);
        let end = match status {
            GoalStatus::Succeeded => GoalEndStatus::Succeeded,
            GoalStatus::Canceled => GoalEndStatus::Canceled,
            _ => GoalEndStatus::Aborted,
        };
        // The result goes out when the client asks for it, which may be later:
        // wait for that in the background.
        let (server, handle, name) = (self.server.clone(), self.handle.clone(), self.name.clone());
        self.exec
            .spawn(async move {
                if let Err(e) = server.send_result_response(handle, end, Wire(result)).await {
                    tracing::warn!("action {name}: could not send a result: {e:?}");
                }
            })
            .detach();
        Ok(())
    }
}

type CurrentGoal<A> = Arc<Mutex<Option<(r2::action::GoalId, Arc<Queue<GoalEvent<A>>>)>>>;

struct DdsActionClient<A: RosAction> {
    client: Arc<WireActionClient<A>>,
    node: SharedNode,
    name: String,
    current: CurrentGoal<A>,
    exec: Arc<smol::Executor<'static>>,
    _feedback: TaskGuard,
}

fn goal_status(s: GoalStatusEnum) -> GoalStatus {
    match s {
        GoalStatusEnum::Succeeded => GoalStatus::Succeeded,
        GoalStatusEnum::Canceled => GoalStatus::Canceled,
        GoalStatusEnum::Accepted => GoalStatus::Accepted,
        GoalStatusEnum::Executing => GoalStatus::Executing,
        GoalStatusEnum::Canceling => GoalStatus::Canceling,
        _ => GoalStatus::Aborted,
    }
}

impl<A: RosAction> ActionClientImpl<A> for DdsActionClient<A> {
    fn send_goal(&self, goal: A::Goal, timeout: Duration) -> Result<GoalParts<A>, BusError> {
        let start = Instant::now();
        if !crate::poll_until(timeout, Duration::from_millis(5), || self.is_ready()) {
            return Err(BusError::Timeout {
                what: format!("action {} (no server)", self.name),
                after: timeout,
            });
        }
        let goal_id = r2::action::GoalId::new_random();
        let events = Arc::new(Queue::<GoalEvent<A>>::new(1000));
        // Registered before sending so early feedback is not lost.
        *self.current.lock().unwrap_or_else(|e| e.into_inner()) = Some((goal_id, events.clone()));
        let left = timeout.saturating_sub(start.elapsed());
        let what = format!("action {} goal", self.name);
        let request = SendGoalRequest {
            goal_id,
            goal: Wire(goal),
        };
        let response =
            match block_on_timeout(left, self.client.goal_client().async_call_service(request)) {
                None => Err(BusError::Timeout {
                    what,
                    after: timeout,
                }),
                Some(Err(e)) => Err(dds_err(what, e)),
                Some(Ok(r)) if !r.accepted => Err(BusError::GoalRejected {
                    action: self.name.clone(),
                }),
                Some(Ok(r)) => Ok(r),
            };
        if let Err(e) = response {
            *self.current.lock().unwrap_or_else(|e| e.into_inner()) = None;
            return Err(e);
        }
        let (cl, ev, name) = (self.client.clone(), events.clone(), self.name.clone());
        let result_task = self.exec.spawn(async move {
            let done = match cl.async_request_result(goal_id).await {
                Ok((status, Wire(result))) => Ok(GoalOutcome {
                    status: goal_status(status),
                    result,
                }),
                Err(e) => Err(dds_err(format!("action {name} result"), e)),
            };
            ev.push(GoalEvent::Done(done));
        });
        let (cl, name) = (self.client.clone(), self.name.clone());
        let cancel = Box::new(move |timeout: Duration| {
            let what = format!("action {name} cancel");
            match block_on_timeout(
                timeout,
                cl.async_cancel_goal(goal_id, r2::builtin_interfaces::Time::ZERO),
            ) {
                None => Err(BusError::Timeout {
                    what,
                    after: timeout,
                }),
                Some(Err(e)) => Err(dds_err(what, e)),
                Some(Ok(r)) => Ok(!r.goals_canceling.is_empty()),
            }
        });
        let guard = ClientGoalGuard::<A> {
            current: self.current.clone(),
            id: goal_id,
            _result: TaskGuard(Some(result_task)),
        };
        Ok(GoalParts {
            id: GoalId(*goal_id.uuid.as_bytes()),
            events,
            cancel,
            guard: Box::new(guard),
        })
    }

    fn is_ready(&self) -> bool {
        let node = lock(&self.node);
        ready_now(self.client.goal_client().wait_for_service(&node))
            && ready_now(self.client.result_client().wait_for_service(&node))
            && ready_now(self.client.cancel_client().wait_for_service(&node))
    }
}

struct ClientGoalGuard<A: RosAction> {
    current: CurrentGoal<A>,
    id: r2::action::GoalId,
    _result: TaskGuard,
}

impl<A: RosAction> Drop for ClientGoalGuard<A> {
    fn drop(&mut self) {
        let mut cur = self.current.lock().unwrap_or_else(|e| e.into_inner());
        if cur.as_ref().is_some_and(|(id, _)| *id == self.id) {
            *cur = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(vars: &[(&str, &str)]) -> Result<DdsConfig, BusError> {
        let vars: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        DdsConfig::from_vars(|k| vars.get(k).cloned())
    }

    #[test]
    fn environment_settings() {
        assert_eq!(cfg(&[]).unwrap(), DdsConfig::default());
        let c = cfg(&[
            ("ROS_DOMAIN_ID", "42"),
            ("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST"),
        ])
        .unwrap();
        assert_eq!((c.domain_id, c.localhost_only), (42, true));
        assert!(cfg(&[("ROS_LOCALHOST_ONLY", "1")]).unwrap().localhost_only);
        assert!(
            !cfg(&[("ROS_AUTOMATIC_DISCOVERY_RANGE", "SUBNET")])
                .unwrap()
                .localhost_only
        );
        assert_eq!(cfg(&[("ROS_DOMAIN_ID", "")]).unwrap().domain_id, 0);
        assert_eq!(
            cfg(&[("GAMEBOT_RMW_SERVICE_MAPPING", "cyclone")])
                .unwrap()
                .service_mapping,
            ServiceMapping::Cyclone
        );
        for (k, v) in [
            ("ROS_DOMAIN_ID", "233"),
            ("ROS_DOMAIN_ID", "x"),
            ("ROS_AUTOMATIC_DISCOVERY_RANGE", "OFF"),
            ("ROS_AUTOMATIC_DISCOVERY_RANGE", "MARS"),
            ("GAMEBOT_RMW_SERVICE_MAPPING", "zenoh"),
        ] {
            let e = cfg(&[(k, v)]).unwrap_err().to_string();
            assert!(e.contains(k), "{e}");
        }
    }
}
