//! Reading a bag back: its messages in time order, the game(s) it holds as
//! text, and publishing it onto a bus at a chosen rate with `/clock`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use gamebot_interfaces::action_msgs::{GoalStatus, GoalStatusArray};
use gamebot_interfaces::builtin_interfaces::Time;
use gamebot_interfaces::msg::{BoardObservation, GameEvent, GameState};
use gamebot_interfaces::rcl_interfaces::Log;
use gamebot_interfaces::rosgraph_msgs::Clock;
use gamebot_interfaces::sensor_msgs::{CompressedImage, Image, JointState};
use gamebot_interfaces::std_msgs::String as StringMsg;
use gamebot_interfaces::tf2_msgs::TFMessage;
use gamebot_interfaces::RosMessage;
use gamebot_ros::{graph, Bus, Publisher, Qos, Shutdown, WaitSet};

use crate::bag::BagMetadata;
use crate::recorder_node::PlanMoveFeedbackMessage;
use crate::{cdr, RecordError};

/// One recorded message.
#[derive(Debug, Clone, PartialEq)]
pub struct BagMessage {
    /// Topic.
    pub topic: String,
    /// Full type name.
    pub type_name: String,
    /// Receive time, ns since the epoch.
    pub log_time: u64,
    /// CDR bytes with encapsulation header.
    pub data: Vec<u8>,
}

/// A bag read into memory.
#[derive(Debug, Clone)]
pub struct Bag {
    /// The bag directory.
    pub dir: PathBuf,
    /// Its `metadata.yaml`.
    pub metadata: BagMetadata,
    /// Every message, oldest first.
    pub messages: Vec<BagMessage>,
}

/// Reads the bag directory `dir` (or the directory of an `.mcap` file given).
pub fn read_bag(path: &Path) -> Result<Bag, RecordError> {
    let dir = if path.is_file() {
        path.parent().unwrap_or(Path::new(".")).to_path_buf()
    } else {
        path.to_path_buf()
    };
    let metadata = BagMetadata::read(&dir)?;
    let info = &metadata.rosbag2_bagfile_information;
    if info.storage_identifier != "mcap" {
        return Err(RecordError::Format {
            path: dir.join("metadata.yaml"),
            message: format!(
                "storage `{}`: only mcap bags can be read",
                info.storage_identifier
            ),
        });
    }
    let mut messages = vec![];
    for rel in &info.relative_file_paths {
        let file = dir.join(rel);
        let bytes = std::fs::read(&file).map_err(|e| RecordError::io(&file, e))?;
        for m in mcap::MessageStream::new(&bytes).map_err(|e| RecordError::mcap(&file, e))? {
            let m = m.map_err(|e| RecordError::mcap(&file, e))?;
            messages.push(BagMessage {
                topic: m.channel.topic.clone(),
                type_name: m
                    .channel
                    .schema
                    .as_ref()
                    .map(|s| s.name.clone())
                    .unwrap_or_default(),
                log_time: m.log_time,
                data: m.data.into_owned(),
            });
        }
    }
    messages.sort_by_key(|m| m.log_time);
    Ok(Bag {
        dir,
        metadata,
        messages,
    })
}

fn event_name(kind: u8) -> &'static str {
    match kind {
        GameEvent::GAME_STARTED => "game started",
        GameEvent::MOVE_PLAYED => "move",
        GameEvent::MOVE_REJECTED => "rejected",
        GameEvent::GAME_OVER => "game over",
        GameEvent::ARM_STARTED => "arm started",
        GameEvent::ARM_DONE => "arm done",
        GameEvent::ARM_FAILED => "arm FAILED",
        GameEvent::OBSERVATION_MISMATCH => "observation mismatch",
        GameEvent::INFO => "info",
        _ => "event",
    }
}

fn goal_status_name(status: i8) -> &'static str {
    match status {
        GoalStatus::STATUS_ACCEPTED => "accepted",
        GoalStatus::STATUS_EXECUTING => "executing",
        GoalStatus::STATUS_CANCELING => "canceling",
        GoalStatus::STATUS_SUCCEEDED => "succeeded",
        GoalStatus::STATUS_CANCELED => "canceled",
        GoalStatus::STATUS_ABORTED => "aborted",
        _ => "unknown",
    }
}

/// The game(s) in a bag as text: players, every event with its time from the
/// start of the bag (and the simulation time, when the bag has `/clock`) —
/// moves with who made them and how long they took, every change of an
/// action goal's status (the planner thinking, the arm driver moving) — and
/// the result.
pub fn describe(bag: &Bag) -> Result<String, RecordError> {
    let info = &bag.metadata.rosbag2_bagfile_information;
    let mut out = String::new();
    let t0 = bag.messages.first().map_or(0, |m| m.log_time);
    let secs = |t: u64| (t.saturating_sub(t0)) as f64 / 1e9;
    let _ = writeln!(
        out,
        "bag {}: {} messages over {:.1} s",
        bag.dir.display(),
        bag.messages.len(),
        info.duration.nanoseconds as f64 / 1e9
    );
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for m in &bag.messages {
        *counts.entry(&m.topic).or_default() += 1;
    }
    for (t, n) in &counts {
        let _ = writeln!(out, "  {t}: {n}");
    }
    let mut last_state: Option<GameState> = None;
    let mut last_move_at = t0;
    // The simulation time of the last `/clock` message (a bag of a simulated
    // or sim-time game): printed beside the receive time.
    let mut sim: Option<f64> = None;
    // Each action goal's last status: a line per change ("who waits on what").
    let mut goals: BTreeMap<(String, [u8; 16]), i8> = BTreeMap::new();
    for m in &bag.messages {
        let stamp = |out: &mut String, line: &str| {
            let _ = match sim {
                Some(c) => writeln!(out, "  {:>8.3} s  (sim {c:>8.3})  {line}", secs(m.log_time)),
                None => writeln!(out, "  {:>8.3} s  {line}", secs(m.log_time)),
            };
        };
        if m.topic == graph::CLOCK.name {
            let c: Clock = cdr::decode(&m.data, &m.topic)?;
            sim = Some(c.clock.sec as f64 + c.clock.nanosec as f64 / 1e9);
        } else if let Some(action) = m.topic.strip_suffix("/_action/status") {
            let a: GoalStatusArray = cdr::decode(&m.data, &m.topic)?;
            for st in &a.status_list {
                let key = (action.to_string(), st.goal_info.goal_id.uuid);
                if goals.get(&key) == Some(&st.status) {
                    continue;
                }
                goals.insert(key, st.status);
                let id: String = st.goal_info.goal_id.uuid[12..]
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect();
                stamp(
                    &mut out,
                    &format!("action {action} goal {id}: {}", goal_status_name(st.status)),
                );
            }
        } else if m.topic == graph::GAME_STATE.name {
            let s: GameState = cdr::decode(&m.data, &m.topic)?;
            let new = match &last_state {
                None => true,
                Some(p) => p.game_number != s.game_number || p.game_file != s.game_file,
            };
            if new {
                let seats: Vec<String> = s
                    .players
                    .iter()
                    .zip(s.player_kinds.iter())
                    .map(|(p, k)| format!("{p} = {k}"))
                    .collect();
                let _ = writeln!(
                    out,
                    "game {} #{} ({}): {}",
                    s.game_name,
                    s.game_number,
                    s.game_file,
                    seats.join(", ")
                );
            }
            last_state = Some(s);
        } else if m.topic == graph::GAME_EVENTS.name {
            let e: GameEvent = cdr::decode(&m.data, &m.topic)?;
            let who = last_state
                .as_ref()
                .and_then(|s| s.players.get((e.player.max(1) - 1) as usize))
                .cloned()
                .unwrap_or_else(|| format!("player {}", e.player));
            let line = match e.kind {
                GameEvent::MOVE_PLAYED => {
                    let took = secs(m.log_time) - secs(last_move_at);
                    last_move_at = m.log_time;
                    format!(
                        "{:>3}. {who:<8} {}  ({took:.2} s)",
                        e.ply + 1,
                        e.r#move.text
                    )
                }
                GameEvent::GAME_OVER => match e.winner {
                    0 => "game over: draw".to_string(),
                    w if w > 0 => {
                        let name = last_state
                            .as_ref()
                            .and_then(|s| s.players.get(w as usize - 1))
                            .cloned()
                            .unwrap_or_else(|| format!("player {w}"));
                        format!("game over: {name} wins")
                    }
                    _ => "game over".to_string(),
                },
                k => {
                    let mut l = format!("{} {who}", event_name(k));
                    if !e.r#move.text.is_empty() {
                        l.push_str(&format!(" {}", e.r#move.text));
                    }
                    if !e.message.is_empty() {
                        l.push_str(&format!(": {}", e.message));
                    }
                    l
                }
            };
            stamp(&mut out, &line);
        }
    }
    if let Some(s) = &last_state {
        let _ = writeln!(
            out,
            "last state: {} moves, {}",
            s.move_history.len(),
            match s.winner {
                -1 => "still running".to_string(),
                0 => "draw".to_string(),
                w => format!(
                    "{} won",
                    s.players
                        .get(w as usize - 1)
                        .cloned()
                        .unwrap_or_else(|| format!("player {w}"))
                ),
            }
        );
    }
    Ok(out)
}

/// A publisher of any recorded type, fed with CDR bytes.
trait AnyPub {
    fn publish_cdr(&self, data: &[u8]) -> Result<(), RecordError>;
}

struct Pub<T: RosMessage>(Publisher<T>);

impl<T: RosMessage> AnyPub for Pub<T> {
    fn publish_cdr(&self, data: &[u8]) -> Result<(), RecordError> {
        let msg: T = cdr::decode(data, self.0.topic())?;
        Ok(self.0.publish(&msg)?)
    }
}

fn publisher<B: Bus>(
    bus: &B,
    topic: &str,
    type_name: &str,
    qos: Qos,
) -> Result<Box<dyn AnyPub>, RecordError> {
    fn p<B: Bus, T: RosMessage>(
        bus: &B,
        topic: &str,
        qos: Qos,
    ) -> Result<Box<dyn AnyPub>, RecordError> {
        Ok(Box::new(Pub(bus.publisher::<T>(topic, qos)?)))
    }
    match type_name {
        GameState::TYPE_NAME => p::<B, GameState>(bus, topic, qos),
        GameEvent::TYPE_NAME => p::<B, GameEvent>(bus, topic, qos),
        BoardObservation::TYPE_NAME => p::<B, BoardObservation>(bus, topic, qos),
        JointState::TYPE_NAME => p::<B, JointState>(bus, topic, qos),
        TFMessage::TYPE_NAME => p::<B, TFMessage>(bus, topic, qos),
        StringMsg::TYPE_NAME => p::<B, StringMsg>(bus, topic, qos),
        Image::TYPE_NAME => p::<B, Image>(bus, topic, qos),
        CompressedImage::TYPE_NAME => p::<B, CompressedImage>(bus, topic, qos),
        Log::TYPE_NAME => p::<B, Log>(bus, topic, qos),
        Clock::TYPE_NAME => p::<B, Clock>(bus, topic, qos),
        GoalStatusArray::TYPE_NAME => p::<B, GoalStatusArray>(bus, topic, qos),
        PlanMoveFeedbackMessage::TYPE_NAME => p::<B, PlanMoveFeedbackMessage>(bus, topic, qos),
        other => Err(RecordError::Invalid(format!(
            "topic {topic}: cannot publish type {other}"
        ))),
    }
}

/// What [`publish`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PublishSummary {
    /// Messages published (without the `/clock` ticks).
    pub messages: u64,
    /// `/clock` messages published.
    pub clock_ticks: u64,
}

fn time_msg(ns: u64) -> Time {
    Time {
        sec: (ns / 1_000_000_000) as i32,
        nanosec: (ns % 1_000_000_000) as u32,
    }
}

/// Plays the bag's messages onto `bus` with their recorded spacing divided by
/// `rate` (2.0 = twice as fast), each topic with the QoS it was recorded
/// with. Unless the bag has `/clock` itself, a `/clock` message with the
/// recorded time goes out before each message, so nodes on sim time (and
/// the web UI) see the game as it happened. Stops early on `shutdown`.
pub fn publish<B: Bus>(
    bus: &B,
    bag: &Bag,
    rate: f64,
    shutdown: &Shutdown,
) -> Result<PublishSummary, RecordError> {
    if !(rate.is_finite() && rate > 0.0) {
        return Err(RecordError::Invalid(format!(
            "--rate {rate}: must be a positive number"
        )));
    }
    let info = &bag.metadata.rosbag2_bagfile_information;
    let mut pubs: BTreeMap<String, Box<dyn AnyPub>> = BTreeMap::new();
    for t in &info.topics_with_message_count {
        let tm = &t.topic_metadata;
        let qos = tm
            .offered_qos_profiles
            .first()
            .map(|q| Qos {
                reliability: if q.reliability == "best_effort" {
                    gamebot_ros::Reliability::BestEffort
                } else {
                    gamebot_ros::Reliability::Reliable
                },
                durability: if q.durability == "transient_local" {
                    gamebot_ros::Durability::TransientLocal
                } else {
                    gamebot_ros::Durability::Volatile
                },
                depth: q.depth.max(1) as usize,
            })
            .unwrap_or_default();
        pubs.insert(
            tm.name.clone(),
            publisher(bus, &tm.name, &tm.type_name, qos)?,
        );
    }
    let has_clock = pubs.contains_key(graph::CLOCK.name);
    let clock = if has_clock {
        None
    } else {
        Some(bus.publisher_on(&graph::CLOCK)?)
    };
    let mut ws = WaitSet::new();
    ws.add(shutdown);
    let start = Instant::now();
    let t0 = bag.messages.first().map_or(0, |m| m.log_time);
    let mut summary = PublishSummary::default();
    for m in &bag.messages {
        let offset = Duration::from_nanos(m.log_time - t0).div_f64(rate);
        ws.wait_until(Some(start + offset));
        if shutdown.is_requested() {
            break;
        }
        if let Some(c) = &clock {
            c.publish(&Clock {
                clock: time_msg(m.log_time),
            })?;
            summary.clock_ticks += 1;
        }
        match pubs.get(&m.topic) {
            Some(p) => {
                p.publish_cdr(&m.data)?;
                summary.messages += 1;
            }
            None => tracing::warn!(topic = %m.topic, "not in metadata.yaml; skipped"),
        }
    }
    Ok(summary)
}
