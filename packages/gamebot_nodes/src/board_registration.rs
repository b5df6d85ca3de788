//! Board-to-arm registration with the arm (`gamebot calibrate board-to-arm`):
//! the person jogs the tool tip onto the board's marks through the
//! `arm_controller`'s manual-control services, each recorded tip is the
//! forward kinematics of the next `/joint_states` after the move, and the
//! placement fitted to them ([`gamebot_kinematics::registration`]) is saved
//! into the board file.
//!
//! [`Rig`] runs `ssc32_bridge` and `arm_controller` in-process on an
//! in-process bus against a serial port (an SSC-32U, or the simulator's /
//! emulator's pty); [`Registrar`] is the session on top of it; [`run_lines`]
//! reads line commands (`jog dx dy dz`, `record`, `undo`, `fit`, `save`,
//! `quit`) so scripts and tests drive it as the keyboard does.

use crate::node_group::{start_arm, NodeGroup};
use crate::ssc32_bridge::BridgeConfig;
use crate::NodeError;
use gamebot_interfaces::geometry_msgs::Point;
use gamebot_interfaces::sensor_msgs::JointState;
use gamebot_interfaces::srv::{GoToPose, GoToPoseRequest, MoveTool, MoveToolRequest};
use gamebot_kinematics::registration::{write_placement, WritePlacementError};
use gamebot_kinematics::{Arm, Board, Fit, FitError, Session};
use gamebot_ros::inproc::InProcBus;
use gamebot_ros::{graph, Bus, NodeOptions, ServiceClient, Subscription};
use gamebot_ssc32::Clock;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Height (mm) above a mark the tool is brought to before the person jogs it down.
pub const HOVER_MM: f64 = 10.0;
/// Longest wait for one manual move (wall time).
const MOVE_TIMEOUT: Duration = Duration::from_secs(60);
/// Longest wait for the nodes to come up and for a joint state.
const START_TIMEOUT: Duration = Duration::from_secs(10);

/// Why a registration step failed.
#[derive(Debug, thiserror::Error)]
pub enum RegistrationError {
    #[error("serial port {port}: {source}")]
    Port {
        port: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{0}")]
    Node(#[from] NodeError),
    #[error("the arm controller did not come up within {0:?}")]
    NoController(Duration),
    #[error("no /joint_states from ssc32_bridge on {port} within {timeout:?}")]
    NoJointStates { port: String, timeout: Duration },
    #[error("cannot move the tool to ({:.1}, {:.1}, {:.1}) mm ({what}): {message}", .target_mm[0], .target_mm[1], .target_mm[2])]
    Move {
        target_mm: [f64; 3],
        what: String,
        message: String,
    },
    #[error("the fit failed: {0}")]
    Fit(#[from] FitError),
    #[error(transparent)]
    Save(#[from] WritePlacementError),
    #[error("reading commands: {0}")]
    Input(#[source] std::io::Error),
}

/// `ssc32_bridge` and `arm_controller` on their own in-process bus, against
/// one serial port. Dropping it stops and joins them.
pub struct Rig {
    nodes: NodeGroup,
    port: String,
}

impl Rig {
    /// Starts the two nodes for arm `arm_name` on `port` at `baud`, timed by
    /// `clock` (the real clock; a simulation's clock against its pty). The
    /// port must exist (the bridge would otherwise wait for it forever).
    pub fn start(
        arm_name: &str,
        port: &str,
        baud: u32,
        clock: Clock,
    ) -> Result<Rig, RegistrationError> {
        std::fs::metadata(port).map_err(|source| RegistrationError::Port {
            port: port.into(),
            source,
        })?;
        let mut rig = Rig {
            nodes: NodeGroup::new(),
            port: port.into(),
        };
        let mut config = BridgeConfig::new(port);
        config.baud = baud;
        config.clock = clock;
        start_arm(&mut rig.nodes, arm_name, config, false)?;
        Ok(rig)
    }

    /// The bus the nodes are on.
    pub fn bus(&self) -> &InProcBus {
        self.nodes.bus()
    }

    /// The serial port.
    pub fn port(&self) -> &str {
        &self.port
    }

    /// Stops the nodes; the first node error, naming the node.
    pub fn stop(self) -> Result<(), NodeError> {
        self.nodes.stop()
    }
}

/// What recording a point came to.
#[derive(Clone, Debug)]
pub struct Recorded {
    /// 0-based mark index.
    pub index: usize,
    /// The measured tool tip (mm).
    pub tip_mm: [f64; 3],
    /// The fit so far (from three points on).
    pub fit: Option<Result<Fit, FitError>>,
}

/// A registration session driving the arm.
pub struct Registrar {
    arm: Arm,
    board: Board,
    out: PathBuf,
    session: Session,
    move_tool: ServiceClient<MoveTool>,
    go_to_pose: ServiceClient<GoToPose>,
    states: Subscription<JointState>,
    port: String,
    /// Where the tool was last sent (mm).
    target_mm: [f64; 3],
    /// Whether the tool is at `target_mm` (a move succeeded since the start).
    placed: bool,
}

impl Registrar {
    /// A session for `board` on the rig's bus; the result is saved to `out`.
    pub fn new(
        rig: &Rig,
        arm: Arm,
        board: Board,
        out: PathBuf,
    ) -> Result<Registrar, RegistrationError> {
        let node = rig
            .bus()
            .node(NodeOptions::new("board_registration"))
            .map_err(NodeError::from)?;
        let move_tool = node
            .service_client_on(&graph::ARM_MOVE_TOOL)
            .map_err(NodeError::from)?;
        let go_to_pose = node
            .service_client_on(&graph::ARM_GO_TO_POSE)
            .map_err(NodeError::from)?;
        let states = node
            .subscription_on(&graph::JOINT_STATES)
            .map_err(NodeError::from)?;
        if !move_tool.wait_for_service(START_TIMEOUT) {
            return Err(RegistrationError::NoController(START_TIMEOUT));
        }
        let session = Session::new(&board);
        Ok(Registrar {
            arm,
            board,
            out,
            session,
            move_tool,
            go_to_pose,
            states,
            port: rig.port().to_string(),
            target_mm: [0.0; 3],
            placed: false,
        })
    }

    /// The session (marks, recorded points).
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The board being registered (as loaded).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// "point 2 of 4: the grid's far-right corner (x=10.0, y=28.0 cm)".
    pub fn describe_next(&self) -> String {
        match self.session.next_mark() {
            Some((i, m)) => format!(
                "point {} of {}: {} (x={:.1}, y={:.1} cm)",
                i + 1,
                self.session.marks().len(),
                m.name,
                m.nominal_cm[0],
                m.nominal_cm[1]
            ),
            None => "every mark is recorded".into(),
        }
    }

    /// Moves the tool to `target_mm` with the gripper vertical.
    fn move_to(&mut self, target_mm: [f64; 3], what: &str) -> Result<(), RegistrationError> {
        let fail = |message: String| RegistrationError::Move {
            target_mm,
            what: what.to_string(),
            message,
        };
        let r = self
            .move_tool
            .call(
                MoveToolRequest {
                    point: Point {
                        x: target_mm[0] / 1000.0,
                        y: target_mm[1] / 1000.0,
                        z: target_mm[2] / 1000.0,
                    },
                },
                MOVE_TIMEOUT,
            )
            .map_err(|e| fail(e.to_string()))?;
        if !r.success {
            return Err(fail(r.message));
        }
        self.target_mm = target_mm;
        self.placed = true;
        Ok(())
    }

    /// Brings the tool [`HOVER_MM`] above where the next mark should be (the
    /// board's present placement applied to its nominal position).
    pub fn go_to_next_mark(&mut self) -> Result<(), RegistrationError> {
        let Some((_, m)) = self.session.next_mark() else {
            return Ok(());
        };
        let p = self.board.to_arm_cm(m.nominal_cm);
        let what = self.describe_next();
        self.move_to([p[0] * 10.0, p[1] * 10.0, p[2] * 10.0 + HOVER_MM], &what)
    }

    /// Moves the tool by `d_mm` from where it was last sent.
    pub fn jog(&mut self, d_mm: [f64; 3]) -> Result<(), RegistrationError> {
        if !self.placed {
            self.go_to_next_mark()?;
        }
        let t = self.target_mm;
        let to = [t[0] + d_mm[0], t[1] + d_mm[1], t[2] + d_mm[2]];
        let what = format!("jog for {}", self.describe_next());
        self.move_to(to, &what)
    }

    /// The tool tip now (mm): forward kinematics of the next `/joint_states`.
    pub fn tip_mm(&mut self) -> Result<[f64; 3], RegistrationError> {
        // States published before now may show the arm still moving.
        self.states.drain();
        let js = self.states.recv_timeout(START_TIMEOUT).map_err(|_| {
            RegistrationError::NoJointStates {
                port: self.port.clone(),
                timeout: START_TIMEOUT,
            }
        })?;
        let mut q = self.arm.home().to_vec();
        for (i, j) in self.arm.joints().iter().enumerate() {
            if let Some(k) = js.name.iter().position(|n| *n == j.name) {
                if let Some(v) = js.position.get(k) {
                    q[i] = *v;
                }
            }
        }
        let (tip, _) = self.arm.tool_point_axis(&q);
        Ok([tip.x * 1000.0, tip.y * 1000.0, tip.z * 1000.0])
    }

    /// Records the tool tip for the next mark; from the third point on, with
    /// the fit so far. `None` when every mark is recorded.
    pub fn record(&mut self) -> Result<Option<Recorded>, RegistrationError> {
        if self.session.next_mark().is_none() {
            return Ok(None);
        }
        let tip = self.tip_mm()?;
        let Some(index) = self.session.record(tip) else {
            return Ok(None);
        };
        let fit = (self.session.recorded().len() >= 3).then(|| self.session.fit());
        Ok(Some(Recorded {
            index,
            tip_mm: tip,
            fit,
        }))
    }

    /// Lifts the tool off the sheet and brings it above the next mark.
    pub fn lift_and_go_on(&mut self) -> Result<(), RegistrationError> {
        if self.placed {
            let t = self.target_mm;
            self.move_to([t[0], t[1], t[2] + HOVER_MM], "lifting off the sheet")?;
        }
        self.go_to_next_mark()
    }

    /// Forgets the last point; returns its mark's index.
    pub fn undo(&mut self) -> Option<usize> {
        self.session.undo()
    }

    /// The fit of the points so far.
    pub fn fit(&self) -> Result<Fit, RegistrationError> {
        Ok(self.session.fit()?)
    }

    /// Fits and writes the placement into the output board file.
    pub fn save(&mut self) -> Result<Fit, RegistrationError> {
        let f = self.session.fit()?;
        let from = self.board.path().to_path_buf();
        self.board = write_placement(&from, &self.out, &f.placement, Some(&f))?;
        Ok(f)
    }

    /// The output board file.
    pub fn out(&self) -> &Path {
        &self.out
    }

    /// Parks the arm (at the end).
    pub fn park(&mut self) -> Result<(), RegistrationError> {
        let r = self
            .go_to_pose
            .call(
                GoToPoseRequest {
                    pose: "park".into(),
                },
                MOVE_TIMEOUT,
            )
            .map_err(|e| NodeError::Config(format!("parking: {e}")))?;
        if !r.success {
            return Err(NodeError::Config(format!("parking: {}", r.message)).into());
        }
        self.placed = false;
        Ok(())
    }
}

/// The fit as text: the transform, then each point's residual.
pub fn describe_fit(f: &Fit, session: &Session) -> String {
    let p = &f.placement;
    let mut s = format!(
        "placement: shift ({:+.2}, {:+.2}) mm, turn {:+.3} deg about the sheet centre, surface {:+.2} mm; residual rms {:.2} mm, max {:.2} mm\n",
        p.offset_mm[0], p.offset_mm[1], p.rotation_deg, p.surface_offset_mm, f.rms_mm, f.max_mm()
    );
    for (i, (r, m)) in f.residuals_mm.iter().zip(session.marks()).enumerate() {
        s.push_str(&format!("  point {} ({}): {r:.2} mm\n", i + 1, m.name));
    }
    s
}

/// One line command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Jog([f64; 3]),
    Record,
    Undo,
    Fit,
    Save,
    Quit,
}

/// Largest jog (mm) one command may ask for, per axis.
pub const MAX_JOG_MM: f64 = 100.0;

impl Command {
    /// Parses `jog dx dy dz` (mm), `record`, `undo`, `fit`, `save`, `quit`;
    /// `None` for a blank line or a `#` comment.
    pub fn parse(line: &str) -> Option<Result<Command, String>> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return None;
        }
        let mut words = line.split_whitespace();
        let verb = words.next().unwrap_or_default().to_ascii_lowercase();
        let rest: Vec<&str> = words.collect();
        let no_args = |c: Command| {
            if rest.is_empty() {
                Ok(c)
            } else {
                Err(format!("`{verb}` takes no arguments"))
            }
        };
        Some(match verb.as_str() {
            "jog" => {
                if rest.len() != 3 {
                    return Some(Err("usage: jog DX DY DZ (mm)".into()));
                }
                let mut d = [0.0; 3];
                for (v, w) in d.iter_mut().zip(&rest) {
                    match w.parse::<f64>() {
                        Ok(x) if x.is_finite() && x.abs() <= MAX_JOG_MM => *v = x,
                        _ => {
                            return Some(Err(format!(
                                "jog: `{w}` is not a number of mm within ±{MAX_JOG_MM}"
                            )))
                        }
                    }
                }
                Ok(Command::Jog(d))
            }
            "record" => no_args(Command::Record),
            "undo" => no_args(Command::Undo),
            "fit" => no_args(Command::Fit),
            "save" => no_args(Command::Save),
            "quit" | "exit" => no_args(Command::Quit),
            _ => Err(format!(
                "unknown command `{verb}`: use jog DX DY DZ, record, undo, fit, save, quit"
            )),
        })
    }
}

/// How a line session ended.
#[derive(Clone, Debug, Default)]
pub struct LinesOutcome {
    /// The fit saved last, if any.
    pub saved: Option<Fit>,
    /// Commands that failed (their messages were printed).
    pub errors: Vec<String>,
}

/// Carries out one command, writing what happened to `out`; `Ok(false)` on quit.
pub fn apply(
    reg: &mut Registrar,
    cmd: &Command,
    out: &mut dyn Write,
    outcome: &mut LinesOutcome,
) -> Result<bool, RegistrationError> {
    let w = |out: &mut dyn Write, s: &str| {
        let _ = writeln!(out, "{s}");
    };
    match cmd {
        Command::Jog(d) => {
            reg.jog(*d)?;
            let t = reg.target_mm;
            w(
                out,
                &format!("tool at ({:.1}, {:.1}, {:.1}) mm", t[0], t[1], t[2]),
            );
        }
        Command::Record => match reg.record()? {
            None => w(out, "every mark is recorded: fit, save or undo"),
            Some(r) => {
                let m = &reg.session().marks()[r.index];
                w(
                    out,
                    &format!(
                        "recorded point {} ({}) at ({:.1}, {:.1}, {:.1}) mm",
                        r.index + 1,
                        m.name,
                        r.tip_mm[0],
                        r.tip_mm[1],
                        r.tip_mm[2]
                    ),
                );
                match &r.fit {
                    Some(Ok(f)) => w(out, describe_fit(f, reg.session()).trim_end()),
                    Some(Err(e)) => w(out, &format!("no fit yet: {e}")),
                    None => {}
                }
                reg.lift_and_go_on()?;
                w(out, &format!("next: {}", reg.describe_next()));
            }
        },
        Command::Undo => match reg.undo() {
            Some(i) => {
                w(out, &format!("point {} forgotten", i + 1));
                reg.lift_and_go_on()?;
                w(out, &format!("next: {}", reg.describe_next()));
            }
            None => w(out, "nothing to undo"),
        },
        Command::Fit => {
            let f = reg.fit()?;
            w(out, describe_fit(&f, reg.session()).trim_end());
        }
        Command::Save => {
            let f = reg.save()?;
            w(out, describe_fit(&f, reg.session()).trim_end());
            w(
                out,
                &format!("saved the placement to {}", reg.out().display()),
            );
            outcome.saved = Some(f);
        }
        Command::Quit => return Ok(false),
    }
    Ok(true)
}

/// Reads line commands from `input` until `quit` or the end, writing
/// prompts and results to `out`. A command that fails is reported and the
/// session goes on; the failures are in the outcome.
pub fn run_lines(
    reg: &mut Registrar,
    input: impl BufRead,
    out: &mut dyn Write,
) -> Result<LinesOutcome, RegistrationError> {
    let mut outcome = LinesOutcome::default();
    reg.go_to_next_mark()?;
    let _ = writeln!(out, "jog the tool tip onto {}", reg.describe_next());
    for line in input.lines() {
        let line = line.map_err(RegistrationError::Input)?;
        let cmd = match Command::parse(&line) {
            None => continue,
            Some(Ok(c)) => c,
            Some(Err(e)) => {
                let _ = writeln!(out, "error: {e}");
                outcome.errors.push(e);
                continue;
            }
        };
        match apply(reg, &cmd, out, &mut outcome) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                let _ = writeln!(out, "error: {e}");
                outcome.errors.push(e.to_string());
            }
        }
    }
    if outcome.saved.is_none() && !reg.session().recorded().is_empty() {
        let _ = writeln!(out, "quitting without saving");
    }
    Ok(outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse_and_bad_ones_say_why() {
        assert_eq!(
            Command::parse(" jog 1 -2.5 0 "),
            Some(Ok(Command::Jog([1.0, -2.5, 0.0])))
        );
        assert_eq!(Command::parse("RECORD"), Some(Ok(Command::Record)));
        assert_eq!(Command::parse("# comment"), None);
        assert_eq!(Command::parse(""), None);
        let e = Command::parse("jog 1 2").unwrap().unwrap_err();
        assert!(e.contains("usage"), "{e}");
        let e = Command::parse("jog 1 2 nan").unwrap().unwrap_err();
        assert!(e.contains("`nan`"), "{e}");
        let e = Command::parse("jog 1 2 500").unwrap().unwrap_err();
        assert!(e.contains("`500`"), "{e}");
        let e = Command::parse("record now").unwrap().unwrap_err();
        assert!(e.contains("no arguments"), "{e}");
        let e = Command::parse("fly").unwrap().unwrap_err();
        assert!(e.contains("unknown command `fly`"), "{e}");
    }

    #[test]
    fn a_missing_port_is_named() {
        let e = match Rig::start("al5d", "/dev/gamebot-no-such-port", 115_200, Clock::real()) {
            Err(e) => e,
            Ok(_) => panic!("a rig on a missing port"),
        };
        assert!(
            matches!(&e, RegistrationError::Port { port, .. } if port == "/dev/gamebot-no-such-port"),
            "{e}"
        );
        assert!(e.to_string().contains("/dev/gamebot-no-such-port"), "{e}");
    }
}
