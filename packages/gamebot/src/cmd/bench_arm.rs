//! `gamebot bench arm` — the arm in simulation (issue 12): simulated seconds
//! per transfer at the servo limits of the arm YAML (adjacent squares, across
//! the board, supply to the far corner), planning time per move, and the
//! `/joint_states` rate while the arm moves and while it is idle.
//!
//! The real `arm_controller` and `ssc32_bridge` run on a [`SimRobot`] (in
//! process, no network); each transfer is one `ExecuteMove` goal built like
//! `gamebot sim execute` builds them ([`transfer_action`]), followed by the
//! reverse transfer so the board is restored. Where a piece ends up is read
//! from the world, not from any node.

use anyhow::{bail, Context};
use gamebot_interfaces::action::ExecuteMoveGoal;
use gamebot_interfaces::sensor_msgs::JointState;
use gamebot_nodes::arm_core::{ArmPlanner, Motion};
use gamebot_nodes::sim_execute::{settle, transfer_action};
use gamebot_nodes::sim_robot::{load_arm, SimRobot};
use gamebot_ros::action::{GoalEvent, GoalStatus};
use gamebot_ros::Qos;
use gamebot_ros::{graph, Bus, NodeOptions, Subscription};
use gamebot_rules::Game;
use gamebot_sim::WorldConfig;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Options of `gamebot bench arm`.
#[derive(clap::Args)]
pub struct Args {
    /// Arm: a name under config/arms/ (al5d, desk6) or a YAML path.
    #[arg(long, default_value = "al5d")]
    arm: String,
    /// Rule file of the game whose table layout is used.
    #[arg(long, default_value = "games/tictactoe.game")]
    game: PathBuf,
    /// Real-time factor of the simulation clock.
    #[arg(long, default_value_t = 20.0, value_parser = crate::limits::SIM_SPEED)]
    speed: f64,
    /// Transfers of each kind (each followed by its reverse).
    #[arg(long, default_value_t = 3, value_parser = crate::limits::REPEATS)]
    repeat: usize,
    /// Timed plans of each kind for the planning time.
    #[arg(long, default_value_t = 2000, value_parser = crate::limits::ITERATIONS)]
    plan_repeats: usize,
    /// Simulated seconds of the idle `/joint_states` window.
    #[arg(long, default_value_t = 5.0, value_parser = crate::limits::SECONDS)]
    idle_seconds: f64,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

/// Two pieces closer than this (m, horizontally) are on the same stack.
const SAME_POINT_M: f64 = 0.005;
/// Longest wait for one transfer's goal (wall time).
const GOAL_TIMEOUT: Duration = Duration::from_secs(600);

/// One kind of transfer: from one located place to another.
#[derive(Clone, Debug)]
struct Pair {
    kind: &'static str,
    from: u16,
    to: u16,
    distance_m: f64,
}

#[derive(Serialize, Default)]
struct Stats {
    mean: f64,
    min: f64,
    max: f64,
}

fn stats(v: &[f64]) -> Stats {
    if v.is_empty() {
        return Stats::default();
    }
    Stats {
        mean: v.iter().sum::<f64>() / v.len() as f64,
        min: v.iter().copied().fold(f64::INFINITY, f64::min),
        max: v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    }
}

#[derive(Serialize)]
struct KindRow {
    kind: &'static str,
    from: String,
    to: String,
    distance_cm: f64,
    transfers: usize,
    /// Simulated seconds of the transfer (goal sent -> world settled).
    sim_seconds: Stats,
    /// Wall seconds of the same.
    wall_seconds: Stats,
    /// Distance (mm, horizontal) of the piece from its target, per the world.
    placement_error_mm: Stats,
    /// Simulated seconds of the reverse transfers (restoring the board).
    reverse_sim_seconds: Stats,
    /// Planning time of this transfer (`ArmPlanner::plan`), microseconds.
    plan_mean_us: f64,
    plan_p95_us: f64,
    /// Arm segments of the plan (each starts and ends at rest) and their
    /// planned seconds in total (gripper steps not included).
    planned_arm_segments: usize,
    planned_arm_seconds: f64,
}

#[derive(Serialize)]
struct Rate {
    messages: u64,
    sim_seconds: f64,
    wall_seconds: f64,
    per_sim_second: f64,
    per_wall_second: f64,
}

#[derive(Serialize)]
struct Report {
    game: String,
    arm: String,
    speed: f64,
    repeat: usize,
    plan_repeats: usize,
    kinds: Vec<KindRow>,
    joint_states_moving: Rate,
    joint_states_idle: Rate,
    /// Whether the mean adjacent transfer is within issue 12's 4 s target.
    adjacent_target_met: Option<bool>,
}

fn xy_dist(a: [f64; 3], b: [f64; 3]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

/// Which piece lies where (location -> element), updated as the arm moves them.
struct Layout {
    occupied: BTreeMap<u16, u16>,
    places: Vec<(u16, [f64; 3])>,
}

impl Layout {
    fn position(&self, l: u16) -> [f64; 3] {
        self.places
            .iter()
            .find(|(m, _)| *m == l)
            .map(|(_, p)| *p)
            .expect("only located places are used")
    }

    /// Whether another occupied place lies above `l` (same point, higher).
    fn covered(&self, l: u16) -> bool {
        let p = self.position(l);
        self.occupied.keys().any(|&o| {
            o != l && {
                let q = self.position(o);
                xy_dist(p, q) < SAME_POINT_M && q[2] > p[2] + 1e-4
            }
        })
    }

    /// The lowest free place on the point of `l` (a stack fills upwards).
    fn free_on_point_of(&self, l: u16) -> Option<u16> {
        let p = self.position(l);
        self.places
            .iter()
            .filter(|(m, q)| xy_dist(p, *q) < SAME_POINT_M && !self.occupied.contains_key(m))
            .min_by(|a, b| a.1[2].total_cmp(&b.1[2]))
            .map(|(m, _)| *m)
    }
}

/// The three kinds, chosen from the game's located places: board places are
/// the relevant ones, supply places the irrelevant ones holding a piece.
fn choose(game: &Game, layout: &Layout) -> anyhow::Result<Vec<Pair>> {
    let board: Vec<(u16, [f64; 3])> = layout
        .places
        .iter()
        .copied()
        .filter(|(l, _)| game.is_relevant(*l) && !layout.occupied.contains_key(l))
        .collect();
    let mut pairs: Vec<(u16, u16, f64)> = Vec::new();
    for (i, a) in board.iter().enumerate() {
        for b in &board[i + 1..] {
            let d = xy_dist(a.1, b.1);
            if d >= SAME_POINT_M {
                pairs.push((a.0, b.0, d));
            }
        }
    }
    let mut out = Vec::new();
    let pick = |p: &(u16, u16, f64), kind| Pair {
        kind,
        from: p.0,
        to: p.1,
        distance_m: p.2,
    };
    if let Some(p) = pairs.iter().min_by(|a, b| a.2.total_cmp(&b.2)) {
        out.push(pick(p, "adjacent"));
    }
    if let Some(p) = pairs.iter().max_by(|a, b| a.2.total_cmp(&b.2)) {
        out.push(pick(p, "across"));
    }
    let supply = layout
        .occupied
        .keys()
        .copied()
        .find(|&l| !game.is_relevant(l) && !layout.covered(l));
    if let Some(s) = supply {
        let sp = layout.position(s);
        if let Some(far) = board
            .iter()
            .max_by(|a, b| xy_dist(a.1, sp).total_cmp(&xy_dist(b.1, sp)))
        {
            out.push(Pair {
                kind: "supply_to_far_corner",
                from: s,
                to: far.0,
                distance_m: xy_dist(far.1, sp),
            });
        }
    }
    if out.is_empty() {
        bail!(
            "{}: no two empty board places with positions and no supply piece to move",
            game.name
        );
    }
    Ok(out)
}

/// What one transfer took, per the world.
struct Done {
    sim_s: f64,
    wall_s: f64,
    error_mm: f64,
    joint_states: u64,
}

/// Everything needed to send transfers to the simulated robot.
struct Mover<'a> {
    robot: &'a SimRobot,
    exec: gamebot_ros::ActionClient<gamebot_interfaces::action::ExecuteMove>,
    states: Subscription<JointState>,
    dropped_seen: u64,
}

impl Mover<'_> {
    /// Messages on `/joint_states` since the last call (including any the
    /// queue had to drop).
    fn joint_states(&mut self) -> u64 {
        let n = self.states.drain().len() as u64;
        let d = self.states.dropped();
        let total = n + d.saturating_sub(self.dropped_seen);
        self.dropped_seen = d;
        total
    }

    /// Carries the piece on `from` to `to` and returns what it took.
    fn transfer(&mut self, layout: &mut Layout, from: u16, to: u16) -> anyhow::Result<Done> {
        let game = self.robot.game().clone();
        let (fname, tname) = (
            &game.locations[from as usize].name,
            &game.locations[to as usize].name,
        );
        let Some(&e) = layout.occupied.get(&from) else {
            bail!("{fname} holds no piece to carry to {tname}");
        };
        let (fp, tp) = (layout.position(from), layout.position(to));
        let goal = ExecuteMoveGoal {
            actions: vec![transfer_action(&game, e, from, to, fp, tp)],
            ..Default::default()
        };
        self.joint_states();
        let t0 = self.robot.probe().snapshot().time;
        let w0 = Instant::now();
        let mut g = self
            .exec
            .send_goal(goal, Duration::from_secs(30))
            .with_context(|| format!("sending the transfer {fname} -> {tname}"))?;
        let deadline = Instant::now() + GOAL_TIMEOUT;
        let outcome = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match g.next_event(left) {
                Ok(GoalEvent::Done(d)) => break d.ok(),
                Ok(GoalEvent::Feedback(_)) => {}
                Err(_) => break None,
            }
        };
        let snap = settle(self.robot);
        let wall_s = w0.elapsed().as_secs_f64();
        let joint_states = self.joint_states();
        match outcome {
            Some(o) if o.status == GoalStatus::Succeeded => {}
            Some(o) => bail!(
                "transfer {fname} -> {tname} on {}: {}",
                self.robot.arm_name(),
                o.result.message
            ),
            None => bail!("transfer {fname} -> {tname}: no answer from the arm controller"),
        }
        let ename = &game.elements[e as usize].name;
        let Some(piece) = snap.pieces.iter().find(|p| &p.name == ename) else {
            bail!("the world has no piece {ename}");
        };
        layout.occupied.remove(&from);
        layout.occupied.insert(to, e);
        Ok(Done {
            sim_s: snap.time.saturating_sub(t0).as_secs_f64(),
            wall_s,
            error_mm: 1000.0 * xy_dist(piece.position, tp),
            joint_states,
        })
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

struct PlanTimes {
    mean_us: f64,
    p95_us: f64,
    segments: usize,
    seconds: f64,
}

/// Wall time of `ArmPlanner::plan` for each pair, from the park pose with
/// the gripper open: (mean, p95) in microseconds.
fn plan_times(
    arm_name: &str,
    game: &Game,
    layout: &Layout,
    pairs: &[Pair],
    supply_piece: &BTreeMap<u16, u16>,
    repeats: usize,
    bar: &indicatif::ProgressBar,
) -> anyhow::Result<Vec<PlanTimes>> {
    let arm = load_arm(arm_name).with_context(|| format!("loading arm {arm_name}"))?;
    let start = arm.park().to_vec();
    let open = arm.config().gripper.open;
    let mut planner = ArmPlanner::new(arm);
    let mut out = Vec::new();
    for p in pairs {
        let e = supply_piece.get(&p.from).copied().unwrap_or(0);
        let action = transfer_action(
            game,
            e,
            p.from,
            p.to,
            layout.position(p.from),
            layout.position(p.to),
        );
        let mut t = Vec::with_capacity(repeats);
        let (mut segments, mut seconds) = (0, 0.0);
        for _ in 0..repeats {
            let t0 = Instant::now();
            let steps = planner
                .plan(&action, &start, open)
                .map_err(|e| anyhow::anyhow!("planning {} on {arm_name}: {e}", p.kind))?;
            t.push(t0.elapsed().as_secs_f64() * 1e6);
            let arm_moves: Vec<f64> = steps
                .iter()
                .filter_map(|s| match &s.motion {
                    Motion::Arm(tr) => tr
                        .points
                        .last()
                        .map(|pt| pt.time_from_start.to_std().as_secs_f64()),
                    Motion::Gripper(_) => None,
                })
                .collect();
            segments = arm_moves.len();
            seconds = arm_moves.iter().sum();
        }
        t.sort_by(f64::total_cmp);
        out.push(PlanTimes {
            mean_us: t.iter().sum::<f64>() / t.len() as f64,
            p95_us: percentile(&t, 0.95),
            segments,
            seconds,
        });
        bar.inc(1);
    }
    Ok(out)
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let game_file = a.game.to_string_lossy().to_string();
    let robot = SimRobot::start(
        &game_file,
        WorldConfig {
            arm: a.arm.clone(),
            seed: 1,
            real_time_factor: Some(a.speed),
            // Nobody looks at the camera here.
            render_rate_hz: 0.5,
            ..WorldConfig::default()
        },
    )
    .with_context(|| format!("starting the simulated robot for {game_file}"))?;
    let game = robot.game().clone();
    let initial = game.initial_state();
    let places: Vec<(u16, [f64; 3])> = robot
        .places()
        .iter()
        .enumerate()
        .filter_map(|(l, (_, p))| p.map(|p| (l as u16, p)))
        .collect();
    let mut layout = Layout {
        occupied: places
            .iter()
            .filter_map(|(l, _)| initial.content(*l).map(|e| (*l, e)))
            .collect(),
        places,
    };
    let pairs = choose(&game, &layout)?;
    for kind in ["adjacent", "across", "supply_to_far_corner"] {
        if !pairs.iter().any(|p| p.kind == kind) {
            tracing::warn!("{}: no places for the {kind} transfer", game.name);
        }
    }
    let client = robot.bus().node(NodeOptions::new("bench_arm"))?;
    let exec = client.action_client_on(&graph::EXECUTE_MOVE)?;
    let states: Subscription<JointState> =
        client.subscription(graph::JOINT_STATES.name, Qos::reliable(4096))?;
    if !exec.wait_for_server(Duration::from_secs(30)) {
        bail!("the arm controller did not come up");
    }
    let mut mover = Mover {
        robot: &robot,
        exec,
        states,
        dropped_seen: 0,
    };
    // Per transfer: two measured (there and back) plus, when the first place
    // is empty, fetching a supply piece and putting it back.
    let bar = indicatif::ProgressBar::new((pairs.len() * (a.repeat + 1) + 1) as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}")
            .expect("valid template"),
    );
    let mut rows = Vec::new();
    let (mut moving_msgs, mut moving_sim, mut moving_wall) = (0u64, 0.0, 0.0);
    let supply_piece: BTreeMap<u16, u16> = layout.occupied.clone();
    for p in &pairs {
        bar.set_message(format!("{} on {}", p.kind, a.arm));
        // A piece for the first place, from the top of a supply stack.
        let fetched = if layout.occupied.contains_key(&p.from) {
            None
        } else {
            let Some(s) = layout
                .occupied
                .keys()
                .copied()
                .find(|&l| !game.is_relevant(l) && !layout.covered(l))
            else {
                bail!(
                    "{}: no supply piece to put on {}",
                    game.name,
                    game.locations[p.from as usize].name
                );
            };
            mover.transfer(&mut layout, s, p.from)?;
            Some(s)
        };
        let (mut sim, mut wall, mut err, mut back) = (vec![], vec![], vec![], vec![]);
        for _ in 0..a.repeat {
            let d = mover.transfer(&mut layout, p.from, p.to)?;
            sim.push(d.sim_s);
            wall.push(d.wall_s);
            err.push(d.error_mm);
            moving_msgs += d.joint_states;
            moving_sim += d.sim_s;
            moving_wall += d.wall_s;
            // Back where it came from (onto the stack's lowest free level).
            let to = if game.is_relevant(p.from) {
                p.from
            } else {
                layout.free_on_point_of(p.from).unwrap_or(p.from)
            };
            let r = mover.transfer(&mut layout, p.to, to)?;
            back.push(r.sim_s);
            bar.inc(1);
        }
        if let Some(s) = fetched {
            let to = layout.free_on_point_of(s).unwrap_or(s);
            mover.transfer(&mut layout, p.from, to)?;
        }
        bar.inc(1);
        rows.push(KindRow {
            kind: p.kind,
            from: game.locations[p.from as usize].name.clone(),
            to: game.locations[p.to as usize].name.clone(),
            distance_cm: 100.0 * p.distance_m,
            transfers: sim.len(),
            sim_seconds: stats(&sim),
            wall_seconds: stats(&wall),
            placement_error_mm: stats(&err),
            reverse_sim_seconds: stats(&back),
            plan_mean_us: f64::NAN,
            plan_p95_us: f64::NAN,
            planned_arm_segments: 0,
            planned_arm_seconds: f64::NAN,
        });
    }
    // The arm stands still now: the idle rate over a window of sim time.
    bar.set_message("idle /joint_states");
    mover.joint_states();
    let (s0, w0) = (robot.clock().now(), Instant::now());
    robot.clock().sleep(Duration::from_secs_f64(a.idle_seconds));
    let idle_msgs = mover.joint_states();
    let idle_sim = robot.clock().now().saturating_sub(s0).as_secs_f64();
    let idle_wall = w0.elapsed().as_secs_f64();
    bar.inc(1);
    drop(mover);
    robot.stop().context("stopping the simulated robot")?;
    // Planning, with the robot's threads gone: pure CPU.
    bar.set_message("planning");
    bar.inc_length(pairs.len() as u64);
    let plans = plan_times(
        &a.arm,
        &game,
        &layout,
        &pairs,
        &supply_piece,
        a.plan_repeats,
        &bar,
    )?;
    bar.finish_and_clear();
    for (row, p) in rows.iter_mut().zip(plans) {
        row.plan_mean_us = p.mean_us;
        row.plan_p95_us = p.p95_us;
        row.planned_arm_segments = p.segments;
        row.planned_arm_seconds = p.seconds;
    }
    let rate = |messages: u64, sim: f64, wall: f64| Rate {
        messages,
        sim_seconds: sim,
        wall_seconds: wall,
        per_sim_second: if sim > 0.0 {
            messages as f64 / sim
        } else {
            0.0
        },
        per_wall_second: if wall > 0.0 {
            messages as f64 / wall
        } else {
            0.0
        },
    };
    let report = Report {
        game: game.name.clone(),
        arm: a.arm.clone(),
        speed: a.speed,
        repeat: a.repeat,
        plan_repeats: a.plan_repeats,
        adjacent_target_met: rows
            .iter()
            .find(|r| r.kind == "adjacent")
            .map(|r| r.sim_seconds.mean <= 4.0),
        kinds: rows,
        joint_states_moving: rate(moving_msgs, moving_sim, moving_wall),
        joint_states_idle: rate(idle_msgs, idle_sim, idle_wall),
    };
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(0);
    }
    outln!(
        "{} on {} at {}x real time, {} transfer(s) per kind, {} plans per kind",
        report.arm,
        report.game,
        report.speed,
        report.repeat,
        report.plan_repeats
    );
    outln!(
        "{:<21} {:<22} {:>5} {:>22} {:>7} {:>8} {:>7} {:>16} {:>12}",
        "kind",
        "from -> to",
        "cm",
        "sim s mean (min-max)",
        "wall s",
        "err mm",
        "back s",
        "plan us mean/p95",
        "planned arm s"
    );
    for r in &report.kinds {
        outln!(
            "{:<21} {:<22} {:>5.1} {:>9.2} ({:>5.2}-{:>5.2}) {:>7.2} {:>8.2} {:>7.2} {:>9.0}/{:<6.0} {:>5.2} ({} seg)",
            r.kind,
            format!("{}->{}", r.from, r.to),
            r.distance_cm,
            r.sim_seconds.mean,
            r.sim_seconds.min,
            r.sim_seconds.max,
            r.wall_seconds.mean,
            r.placement_error_mm.max,
            r.reverse_sim_seconds.mean,
            r.plan_mean_us,
            r.plan_p95_us,
            r.planned_arm_seconds,
            r.planned_arm_segments
        );
    }
    for (what, r) in [
        ("moving", &report.joint_states_moving),
        ("idle", &report.joint_states_idle),
    ] {
        outln!(
            "/joint_states {what:<6}: {} messages in {:.2} sim s / {:.2} wall s = {:.1} per sim s, {:.1} per wall s",
            r.messages,
            r.sim_seconds,
            r.wall_seconds,
            r.per_sim_second,
            r.per_wall_second
        );
    }
    match report.adjacent_target_met {
        Some(true) => outln!("adjacent transfer target (<= 4 s sim): met"),
        Some(false) => outln!("adjacent transfer target (<= 4 s sim): NOT met"),
        None => outln!("adjacent transfer target (<= 4 s sim): no adjacent pair in this game"),
    }
    Ok(0)
}
