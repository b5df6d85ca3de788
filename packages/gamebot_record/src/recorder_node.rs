//! The `recorder` node: subscribes to the topics worth keeping, writes them
//! to rosbag2 (MCAP) bags — one per game (`DIR/<date>_<game>_<n>/`) or one
//! for the whole session — and writes every game it sees end (or abandoned)
//! on `/game/state` to the game database.
//!
//! It is a thin loop over [`Bus`] subscriptions that sleeps on one
//! [`WaitSet`]; the only deadline is the periodic flush of the bag (the
//! moves themselves are flushed as soon as they are seen). Messages are
//! stored as the CDR bytes the DDS backend sends ([`crate::cdr`]). A bag or
//! database that cannot be written is logged as an error naming the path and
//! the recorder carries on (the game goes on; the next game tries a new bag).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use gamebot_interfaces::action::PlanMove;
use gamebot_interfaces::action_msgs::GoalStatusArray;
use gamebot_interfaces::msg::{GameEvent, GameState};
use gamebot_interfaces::rosgraph_msgs::Clock as ClockMsg;
use gamebot_interfaces::sensor_msgs::CompressedImage;

use gamebot_interfaces::{FeedbackMessage, RosMessage};
use gamebot_ros::{graph, Bus, Qos, Shutdown, Subscription, TryRecvError, WaitSet};

use crate::bag::BagWriter;
use crate::db::{GameDb, GameRecord};
use crate::tracker::{game_key, GameTracker};
use crate::{cdr, now_ns, RecordError};

/// The planner's action feedback as it travels on
/// `/planner/plan_move/_action/feedback` (both buses publish it there).
pub type PlanMoveFeedbackMessage = FeedbackMessage<PlanMove>;

/// The planner action's feedback topic.
pub const PLAN_MOVE_FEEDBACK: graph::Topic<PlanMoveFeedbackMessage> = graph::Topic::new(
    "/planner/plan_move/_action/feedback",
    Qos::default_profile(),
);
/// The planner action's status topic.
pub const PLAN_MOVE_STATUS: graph::Topic<GoalStatusArray> =
    graph::Topic::new("/planner/plan_move/_action/status", Qos::latched(1));
/// JPEG frames (image_transport's `compressed`), recorded instead of raw
/// frames with `compressed_images`.
pub const CAMERA_COMPRESSED: graph::Topic<CompressedImage> =
    graph::Topic::new("/camera/image_raw/compressed", Qos::sensor_data());

/// One bag per game or one for the whole session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    /// `DIR/<date>_<game>_<n>/` for every game seen on `/game/state`.
    PerGame,
    /// `DIR/<date>_session/` for everything.
    Session,
}

impl std::str::FromStr for Split {
    type Err = String;
    fn from_str(s: &str) -> Result<Split, String> {
        match s {
            "game" => Ok(Split::PerGame),
            "session" => Ok(Split::Session),
            _ => Err(format!("`{s}`: expected `game` or `session`")),
        }
    }
}

/// How the recorder works. `Default` records per game into
/// `$XDG_DATA_HOME/gamebot/bags` and writes games to the default database.
#[derive(Debug, Clone, PartialEq)]
pub struct RecorderConfig {
    /// Where bags go (`None`: record no bags, only the database).
    pub dir: Option<PathBuf>,
    /// One bag per game or per session.
    pub split: Split,
    /// The game database (`None`: write no games).
    pub db: Option<PathBuf>,
    /// What wrote the games (`referee`, `sim`, ...), stored with each game.
    pub source: String,
    /// The arm that plays, stored with each game.
    pub arm: Option<String>,
    /// Camera frames recorded per second at most (0: none).
    pub image_rate_hz: f64,
    /// Record `/camera/image_raw/compressed` (JPEG) instead of raw frames.
    pub compressed_images: bool,
    /// How often buffered messages are written out (game messages are
    /// written at once).
    pub flush_period: Duration,
    /// Bag times from `/clock` instead of the receive time (the standard
    /// `use_sim_time` parameter).
    pub use_sim_time: bool,
}

/// `$XDG_DATA_HOME/gamebot/bags` (`~/.local/share/gamebot/bags`).
pub fn default_bag_dir() -> Result<PathBuf, RecordError> {
    Ok(crate::db::default_path()?
        .parent()
        .map(|p| p.join("bags"))
        .unwrap_or_else(|| PathBuf::from("bags")))
}

impl Default for RecorderConfig {
    fn default() -> Self {
        RecorderConfig {
            dir: default_bag_dir().ok(),
            split: Split::PerGame,
            db: crate::db::default_path().ok(),
            source: "referee".into(),
            arm: None,
            image_rate_hz: 2.0,
            compressed_images: false,
            flush_period: Duration::from_secs(1),
            use_sim_time: false,
        }
    }
}

impl RecorderConfig {
    /// Bags into `dir`.
    pub fn dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.dir = Some(dir.into());
        self
    }
    /// No bags.
    pub fn no_bags(mut self) -> Self {
        self.dir = None;
        self
    }
    /// Per game or per session.
    pub fn split(mut self, split: Split) -> Self {
        self.split = split;
        self
    }
    /// Games into the database at `path`, or none.
    pub fn db(mut self, path: Option<PathBuf>) -> Self {
        self.db = path;
        self
    }
    /// What the games come from.
    pub fn source(mut self, source: &str) -> Self {
        self.source = source.to_string();
        self
    }
    /// The arm that plays.
    pub fn arm(mut self, arm: Option<String>) -> Self {
        self.arm = arm;
        self
    }
    /// Camera frames per second at most.
    pub fn image_rate_hz(mut self, hz: f64) -> Self {
        self.image_rate_hz = hz;
        self
    }
    /// JPEG frames instead of raw.
    pub fn compressed_images(mut self, on: bool) -> Self {
        self.compressed_images = on;
        self
    }
    /// Flush period.
    pub fn flush_period(mut self, p: Duration) -> Self {
        self.flush_period = p;
        self
    }

    /// Reads the node's parameters (`dir`, `split`, `db`, `source`, `arm`,
    /// `image_rate_hz`, `compressed_images`, `flush_period_s`); unset ones
    /// keep the [`Default`].
    pub fn declare<B: Bus>(bus: &B) -> Result<RecorderConfig, RecordError> {
        let d = RecorderConfig::default();
        let p = bus.parameters();
        let path_or_none = |s: String| -> Option<PathBuf> {
            (!s.is_empty() && s != "none").then(|| PathBuf::from(s))
        };
        let dir = p.declare_string(
            "dir",
            &d.dir
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            "directory the bags go to; `none` records no bags",
        )?;
        let split = p.declare_parsed(
            "split",
            "game",
            "`game`: one bag per game; `session`: one bag for everything",
            |s| s.parse::<Split>(),
        )?;
        let db = p.declare_string(
            "db",
            &d.db
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            "game database (SQLite); `none` writes no games",
        )?;
        let source =
            p.declare_string("source", &d.source, "stored with each game: what played it")?;
        let arm = p.declare_string("arm", "", "stored with each game: the arm (empty: none)")?;
        let image_rate_hz = p.declare_double(
            "image_rate_hz",
            d.image_rate_hz,
            0.0,
            1000.0,
            "camera frames recorded per second at most (0 = none)",
        )?;
        let compressed_images = p.declare_bool(
            "compressed_images",
            false,
            "record /camera/image_raw/compressed (JPEG) instead of /camera/image_raw",
        )?;
        let flush_period_s = p.declare_double(
            "flush_period_s",
            d.flush_period.as_secs_f64(),
            0.01,
            3600.0,
            "how often buffered messages are written out",
        )?;
        let use_sim_time = p.declare_bool(
            "use_sim_time",
            false,
            "bag times from /clock (rosgraph_msgs/msg/Clock) instead of the receive time",
        )?;
        Ok(RecorderConfig {
            use_sim_time,
            dir: path_or_none(dir),
            split,
            db: path_or_none(db),
            source,
            arm: (!arm.is_empty()).then_some(arm),
            image_rate_hz,
            compressed_images,
            flush_period: Duration::from_secs_f64(flush_period_s),
        })
    }
}

/// What a recorder run produced.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RecorderSummary {
    /// The bags written (finished), in order.
    pub bags: Vec<PathBuf>,
    /// Games written to the database.
    pub games_written: usize,
    /// Messages recorded.
    pub messages: u64,
}

/// A message taken from a subscription.
struct Taken {
    tap: usize,
    /// When it was received (wall clock, ns since the epoch).
    time_ns: u64,
    /// Its time in the bag: `time_ns`, or under `use_sim_time` the latest
    /// `/clock` received before it (as `ros2 bag record --use-sim-time`).
    log_ns: u64,
    cdr: Vec<u8>,
    seen: Option<Seen>,
}

enum Seen {
    State(Box<GameState>),
    Event(Box<GameEvent>),
    /// A `/clock` tick (ns of simulation time).
    Clock(u64),
}

/// A subscription of any type, as the recorder sees it.
trait AnyTap {
    fn topic(&self) -> &str;
    fn type_name(&self) -> &'static str;
    fn qos(&self) -> Qos;
    /// Takes what has arrived, encoded, into `out`.
    fn take(&mut self, idx: usize, out: &mut Vec<Taken>) -> Result<bool, RecordError>;
}

struct Tap<T: RosMessage> {
    sub: Subscription<T>,
    topic: String,
    qos: Qos,
    min_period: Option<Duration>,
    last: Option<Instant>,
    seen: fn(&T) -> Option<Seen>,
}

impl<T: RosMessage> AnyTap for Tap<T> {
    fn topic(&self) -> &str {
        &self.topic
    }
    fn type_name(&self) -> &'static str {
        T::TYPE_NAME
    }
    fn qos(&self) -> Qos {
        self.qos
    }
    fn take(&mut self, idx: usize, out: &mut Vec<Taken>) -> Result<bool, RecordError> {
        loop {
            match self.sub.try_recv() {
                Ok(msg) => {
                    let now = Instant::now();
                    if let (Some(p), Some(last)) = (self.min_period, self.last) {
                        if now.duration_since(last) < p {
                            continue;
                        }
                    }
                    self.last = Some(now);
                    let time_ns = now_ns();
                    out.push(Taken {
                        tap: idx,
                        time_ns,
                        log_ns: time_ns,
                        cdr: cdr::encode(&msg, &self.topic)?,
                        seen: (self.seen)(&msg),
                    });
                }
                Err(TryRecvError::Empty) => return Ok(true),
                Err(TryRecvError::Closed) => return Ok(false),
            }
        }
    }
}

fn nothing<T>(_: &T) -> Option<Seen> {
    None
}

/// Subscribes to `topic` with its QoS (and a deep queue, so that a busy
/// moment loses nothing) and adds it to `ws`.
fn tap<B: Bus, T: RosMessage>(
    bus: &B,
    ws: &mut WaitSet,
    topic: graph::Topic<T>,
    min_period: Option<Duration>,
    seen: fn(&T) -> Option<Seen>,
) -> Result<Box<dyn AnyTap>, RecordError> {
    let mut qos = topic.qos;
    qos.depth = qos.depth.max(1000);
    let sub = bus.subscription::<T>(topic.name, qos)?;
    ws.add(&sub);
    Ok(Box::new(Tap {
        topic: sub.topic().to_string(),
        sub,
        qos: topic.qos,
        min_period,
        last: None,
        seen,
    }))
}

/// The topics recorded, subscribed.
fn taps<B: Bus>(
    bus: &B,
    ws: &mut WaitSet,
    config: &RecorderConfig,
) -> Result<Vec<Box<dyn AnyTap>>, RecordError> {
    let mut t = vec![
        tap(bus, ws, graph::GAME_STATE, None, |s: &GameState| {
            Some(Seen::State(Box::new(s.clone())))
        })?,
        tap(bus, ws, graph::GAME_EVENTS, None, |e: &GameEvent| {
            Some(Seen::Event(Box::new(e.clone())))
        })?,
        tap(bus, ws, graph::BOARD_OBSERVATION, None, nothing)?,
        tap(bus, ws, PLAN_MOVE_FEEDBACK, None, nothing)?,
        tap(bus, ws, PLAN_MOVE_STATUS, None, nothing)?,
        tap(bus, ws, graph::JOINT_STATES, None, nothing)?,
        tap(bus, ws, graph::TF, None, nothing)?,
        tap(bus, ws, graph::TF_STATIC, None, nothing)?,
        tap(bus, ws, graph::ROBOT_DESCRIPTION, None, nothing)?,
        tap(bus, ws, graph::ROSOUT, None, nothing)?,
        tap(bus, ws, graph::CLOCK, None, |c: &ClockMsg| {
            Some(Seen::Clock(c.clock.as_nanos().max(0) as u64))
        })?,
    ];
    if config.image_rate_hz > 0.0 {
        let period = Some(Duration::from_secs_f64(1.0 / config.image_rate_hz));
        if config.compressed_images {
            t.push(tap(bus, ws, CAMERA_COMPRESSED, period, nothing)?);
        } else {
            t.push(tap(bus, ws, graph::CAMERA_IMAGE, period, nothing)?);
        }
    }
    Ok(t)
}

/// A name usable as a path component.
fn sanitize(s: &str) -> String {
    let out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty() {
        "game".into()
    } else {
        out
    }
}

/// `dir/<date>_<name>`, with `_2`, `_3` ... when taken.
fn fresh_bag_dir(dir: &Path, name: &str) -> PathBuf {
    let date = chrono::Local::now().format("%Y-%m-%d_%H-%M-%S");
    let base = format!("{date}_{name}");
    let mut p = dir.join(&base);
    let mut n = 2;
    while p.exists() {
        p = dir.join(format!("{base}_{n}"));
        n += 1;
    }
    p
}

/// The recorder's state between messages.
struct Recorder<'a> {
    config: &'a RecorderConfig,
    topics: Vec<(String, &'static str, Qos)>,
    bag: Option<(BagWriter, Vec<Option<usize>>)>,
    /// Messages before the first game state (per-game bags need its name).
    pending: Vec<Taken>,
    /// The last message of each transient-local topic, for the next bag.
    latched: Vec<Option<(u64, Vec<u8>)>>,
    db: Option<GameDb>,
    game: Option<GameTracker>,
    dirty: bool,
    summary: RecorderSummary,
}

const MAX_PENDING: usize = 10_000;

impl Recorder<'_> {
    fn open_bag(&mut self, name: &str) {
        let Some(dir) = &self.config.dir else {
            return;
        };
        let path = fresh_bag_dir(dir, &sanitize(name));
        match BagWriter::create(&path) {
            Ok(b) => {
                tracing::info!(bag = %path.display(), "recording");
                self.bag = Some((b, vec![None; self.topics.len()]));
            }
            Err(e) => tracing::error!("cannot record: {e}"),
        }
    }

    fn close_bag(&mut self) {
        if let Some((bag, _)) = self.bag.take() {
            let dir = bag.dir().to_path_buf();
            match bag.finish() {
                Ok(info) => {
                    tracing::info!(bag = %dir.display(), messages = info.message_count, "bag closed");
                    self.summary.bags.push(dir);
                }
                Err(e) => tracing::error!("closing the bag: {e}"),
            }
        }
    }

    /// Adds the message's topic to `bag` when new, then writes the message.
    fn write_into(
        bag: &mut BagWriter,
        ids: &mut [Option<usize>],
        topics: &[(String, &'static str, Qos)],
        t: &Taken,
    ) -> Result<(), RecordError> {
        let id = match ids[t.tap] {
            Some(id) => id,
            None => {
                let (name, ty, qos) = &topics[t.tap];
                let id = bag.add_topic(name, ty, *qos)?;
                ids[t.tap] = Some(id);
                id
            }
        };
        bag.write(id, t.log_ns, &t.cdr)
    }

    /// Writes a message into the open bag; on failure the bag is dropped.
    fn write(&mut self, t: &Taken) {
        let Some((bag, ids)) = self.bag.as_mut() else {
            return;
        };
        let r = Self::write_into(bag, ids, &self.topics, t);
        match r {
            Ok(()) => {
                self.dirty = true;
                self.summary.messages += 1;
            }
            Err(e) => {
                tracing::error!("recording stopped for this bag: {e}");
                // What was flushed stays readable.
                self.bag = None;
            }
        }
    }

    fn flush(&mut self) {
        if let Some((bag, _)) = self.bag.as_mut() {
            if let Err(e) = bag.flush() {
                tracing::error!("recording stopped for this bag: {e}");
                self.bag = None;
            }
        }
        self.dirty = false;
    }

    fn store(&mut self, mut rec: GameRecord) {
        if rec.bag_path.is_none() {
            rec.bag_path = self
                .bag
                .as_ref()
                .map(|(b, _)| b.dir().display().to_string());
        }
        let Some(db) = self.db.as_mut() else {
            return;
        };
        match db.insert_game(&rec) {
            Ok(_) => {
                self.summary.games_written += 1;
                tracing::info!(game = %rec.game_name, moves = rec.moves.len(), abandoned = rec.abandoned, "game stored in {}", db.path().display());
            }
            Err(e) => tracing::error!("game not stored: {e}"),
        }
    }

    fn handle(&mut self, t: Taken) {
        let mut flush_now = false;
        match &t.seen {
            Some(Seen::State(s)) => {
                let new_game = !matches!(&self.game, Some(g) if g.is_same_game(s));
                if new_game {
                    if let Some(mut g) = self.game.take() {
                        if let Some(r) = g.abandon(t.time_ns) {
                            self.store(r);
                        }
                    }
                    if self.config.split == Split::PerGame || self.bag.is_none() {
                        let (_, n) = game_key(s);
                        let name = match self.config.split {
                            Split::PerGame => format!("{}_{n}", s.game_name),
                            Split::Session => "session".to_string(),
                        };
                        self.close_bag();
                        self.open_bag(&name);
                        // Each bag on its own: the latched topics' last messages first.
                        let latched: Vec<Taken> = self
                            .latched
                            .iter()
                            .enumerate()
                            .filter(|(i, _)| *i != t.tap)
                            .filter_map(|(i, l)| {
                                l.as_ref().map(|(log_ns, cdr)| Taken {
                                    tap: i,
                                    time_ns: *log_ns,
                                    log_ns: *log_ns,
                                    cdr: cdr.clone(),
                                    seen: None,
                                })
                            })
                            .collect();
                        // (Before the first game the pending messages are those.)
                        let pending = std::mem::take(&mut self.pending);
                        for l in if pending.is_empty() {
                            &latched
                        } else {
                            &pending
                        } {
                            self.write(l);
                        }
                    }
                    let mut g = GameTracker::new(
                        &self.config.source,
                        self.config.arm.clone(),
                        s,
                        t.time_ns,
                    );
                    g.set_bag_path(
                        self.bag
                            .as_ref()
                            .map(|(b, _)| b.dir().display().to_string()),
                    );
                    self.game = Some(g);
                }
                let rec = self.game.as_mut().and_then(|g| g.on_state(s, t.time_ns));
                if let Some(r) = rec {
                    self.store(r);
                }
                flush_now = true;
            }
            Some(Seen::Event(e)) => {
                if let Some(g) = self.game.as_mut() {
                    g.on_event(e);
                }
                flush_now = true;
            }
            Some(Seen::Clock(_)) | None => {}
        }
        if self.topics[t.tap].2.durability == gamebot_ros::Durability::TransientLocal {
            self.latched[t.tap] = Some((t.log_ns, t.cdr.clone()));
        }
        if self.bag.is_none() && self.game.is_none() && self.config.split == Split::PerGame {
            if self.pending.len() < MAX_PENDING {
                self.pending.push(t);
            }
        } else {
            self.write(&t);
        }
        if flush_now {
            self.flush();
        }
    }
}

/// Runs the recorder until `shutdown` is requested (or every subscription
/// closes); then finishes the bag and stores an unfinished game as abandoned.
pub fn run<B: Bus>(
    bus: &B,
    shutdown: &Shutdown,
    config: RecorderConfig,
) -> Result<RecorderSummary, RecordError> {
    let mut ws = WaitSet::new();
    let mut taps = taps(bus, &mut ws, &config)?;
    ws.add(shutdown);
    let db = match &config.db {
        Some(p) => match GameDb::open(p) {
            Ok(db) => Some(db),
            Err(e) => {
                tracing::error!("games will not be stored: {e}");
                None
            }
        },
        None => None,
    };
    let topics: Vec<(String, &'static str, Qos)> = taps
        .iter()
        .map(|t| (t.topic().to_string(), t.type_name(), t.qos()))
        .collect();
    // Fail early on a type without a schema rather than at its first message.
    for (name, ty, _) in &topics {
        crate::schema::ros2msg_schema(ty)
            .map_err(|e| RecordError::Invalid(format!("topic {name}: {e}")))?;
    }
    let mut r = Recorder {
        config: &config,
        latched: vec![None; topics.len()],
        topics,
        bag: None,
        pending: vec![],
        db,
        game: None,
        dirty: false,
        summary: RecorderSummary::default(),
    };
    if config.split == Split::Session {
        r.open_bag("session");
    }
    tracing::info!(
        dir = %config.dir.as_ref().map(|d| d.display().to_string()).unwrap_or_else(|| "none".into()),
        db = %config.db.as_ref().map(|d| d.display().to_string()).unwrap_or_else(|| "none".into()),
        "recorder started"
    );
    let mut batch = vec![];
    let mut next_flush: Option<Instant> = None;
    // Simulation time: 0 until the first /clock, as in ROS 2.
    let mut sim_now = 0u64;
    loop {
        let stopping = shutdown.is_requested();
        let mut open = 0;
        for (i, t) in taps.iter_mut().enumerate() {
            if t.take(i, &mut batch)? {
                open += 1;
            }
        }
        // Keep the bag in receive order across topics.
        batch.sort_by_key(|t| t.time_ns);
        if config.use_sim_time {
            for t in batch.iter_mut() {
                if let Some(Seen::Clock(ns)) = t.seen {
                    sim_now = ns;
                }
                t.log_ns = sim_now;
            }
        }
        for t in batch.drain(..) {
            r.handle(t);
        }
        if r.dirty {
            let at = *next_flush.get_or_insert_with(|| Instant::now() + config.flush_period);
            if Instant::now() >= at {
                r.flush();
                next_flush = None;
            }
        } else {
            next_flush = None;
        }
        if stopping || open == 0 {
            break;
        }
        ws.wait_until(next_flush);
    }
    if let Some(mut g) = r.game.take() {
        if let Some(rec) = g.abandon(now_ns()) {
            r.store(rec);
        }
    }
    r.close_bag();
    Ok(r.summary)
}
