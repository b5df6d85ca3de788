//! The board-to-arm registration wizard of the manual arm panel: the
//! server's half. `start` loads the web node's board file and brings the
//! tool above the first mark; the page jogs it onto the mark with the usual
//! jog buttons; `record` takes the tool point the arm controller was last
//! sent to (the point every successful `move_tool` / `jog` reached, forgotten
//! by `home` / `park`), shows the fit from the third point on and brings the
//! tool above the next mark; `undo` forgets the last point; `save` writes the
//! fitted placement into the board file ([`write_placement`]); `cancel` ends
//! the wizard. The fit itself is [`gamebot_kinematics::registration`].

use gamebot_kinematics::registration::write_placement;
use gamebot_kinematics::{Board, Fit, Session};
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::PathBuf;

/// Height (m) above a mark the tool is brought to before the person jogs it down.
pub const HOVER_M: f64 = 0.01;

/// One step of the wizard (the `step` of a `register` command).
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RegisterStep {
    Start,
    Record,
    Undo,
    Save,
    Cancel,
}

/// The wizard's state, shared by the page's connections.
#[derive(Default)]
pub struct Wizard {
    /// The board being registered and the session, between `start` and `cancel`.
    active: Option<(Board, Session)>,
    /// Where the tool was last sent (m, `base_link`), if it is still there.
    tool_m: Option<[f64; 3]>,
}

/// What the bridge must do after a step: move the tool somewhere.
pub struct StepResult {
    pub message: String,
    pub data: Value,
    /// Points (m) to send the tool to, in order (up off the sheet, then
    /// above the next mark).
    pub moves: Vec<[f64; 3]>,
}

impl Wizard {
    /// The tool reached `p` (m) through `move_tool` / `jog`.
    pub fn tool_moved(&mut self, p: Option<[f64; 3]>) {
        self.tool_m = p;
    }

    fn hover_above_next(board: &Board, s: &Session) -> Option<[f64; 3]> {
        let (_, m) = s.next_mark()?;
        let p = board.to_arm_cm(m.nominal_cm);
        Some([p[0] / 100.0, p[1] / 100.0, p[2] / 100.0 + HOVER_M])
    }

    /// Carries out one step; `board_file` is the web node's board parameter.
    pub fn step(&mut self, step: RegisterStep, board_file: &str) -> Result<StepResult, String> {
        match step {
            RegisterStep::Start => {
                let board = load_board(board_file).map_err(|e| format!("registration: {e}"))?;
                let session = Session::new(&board);
                self.active = Some((board, session));
            }
            RegisterStep::Cancel => {
                self.active = None;
                return Ok(cancelled());
            }
            _ => {}
        }
        let tool = self.tool_m;
        let Some((board, session)) = self.active.as_mut() else {
            return Err("registration: not started (press \"Register board\" first)".into());
        };
        let mut saved: Option<PathBuf> = None;
        let mut moves = Vec::new();
        let message = match step {
            RegisterStep::Start => {
                moves.extend(Self::hover_above_next(board, session));
                format!("registering {}: jog the tool tip onto the mark", board.name)
            }
            RegisterStep::Record => {
                let Some(p) = tool else {
                    return Err(
                        "registration: jog the tool onto the mark first (the arm's position is not known after home / park)"
                            .into(),
                    );
                };
                let Some(i) = session.record(p.map(|v| v * 1000.0)) else {
                    return Err("registration: every mark is recorded: save or undo".into());
                };
                if let Some(next) = Self::hover_above_next(board, session) {
                    // Straight up first, so the tool does not drag over the sheet.
                    moves.push([p[0], p[1], p[2] + HOVER_M]);
                    moves.push(next);
                }
                format!("recorded point {}", i + 1)
            }
            RegisterStep::Undo => match session.undo() {
                Some(i) => {
                    if let Some(p) = tool {
                        moves.push([p[0], p[1], p[2] + HOVER_M]);
                    }
                    moves.extend(Self::hover_above_next(board, session));
                    format!("point {} forgotten", i + 1)
                }
                None => "nothing to undo".into(),
            },
            RegisterStep::Save => {
                let f = session.fit().map_err(|e| format!("registration: {e}"))?;
                let path = board.path().to_path_buf();
                *board = write_placement(&path, &path, &f.placement, Some(&f))
                    .map_err(|e| format!("registration: {e}"))?;
                saved = Some(path.clone());
                format!("placement saved to {}", path.display())
            }
            // Ended above; kept whole here so no step is left out.
            RegisterStep::Cancel => return Ok(cancelled()),
        };
        let data = view(board, session, saved);
        Ok(StepResult {
            message,
            data,
            moves,
        })
    }
}

/// The board file `name` (a name under `config/boards/` or a path).
pub fn load_board(name: &str) -> Result<Board, String> {
    if name.ends_with(".yaml") || name.contains('/') {
        Board::load(name)
    } else {
        Board::load_named(name)
    }
    .map_err(|e| format!("board {name}: {e}"))
}

fn cancelled() -> StepResult {
    StepResult {
        message: "registration cancelled".into(),
        data: json!({"active": false}),
        moves: Vec::new(),
    }
}

fn fit_view(f: &Fit) -> Value {
    let p = &f.placement;
    json!({
        "offset_mm": p.offset_mm,
        "rotation_deg": p.rotation_deg,
        "surface_offset_mm": p.surface_offset_mm,
        "residuals_mm": f.residuals_mm,
        "rms_mm": f.rms_mm,
    })
}

/// The wizard as the page shows it.
fn view(board: &Board, s: &Session, saved: Option<PathBuf>) -> Value {
    let n = s.marks().len();
    let next = s.next_mark().map(|(i, m)| {
        json!({
            "index": i,
            "text": format!("point {} of {n}: {} (x={:.1}, y={:.1} cm)", i + 1, m.name, m.nominal_cm[0], m.nominal_cm[1]),
        })
    });
    let (fit, fit_error) = if s.recorded().len() >= 3 {
        match s.fit() {
            Ok(f) => (fit_view(&f), Value::Null),
            Err(e) => (Value::Null, json!(e.to_string())),
        }
    } else {
        (Value::Null, Value::Null)
    };
    json!({
        "active": true,
        "board": board.path().display().to_string(),
        "marks": s.marks().iter().map(|m| json!({"name": m.name, "x_cm": m.nominal_cm[0], "y_cm": m.nominal_cm[1]})).collect::<Vec<_>>(),
        "recorded": s.recorded().len(),
        "next": next,
        "fit": fit,
        "fit_error": fit_error,
        "saved": saved.map(|p| p.display().to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wizard_follows_the_tool_and_refuses_out_of_order_steps() {
        let dir = std::env::temp_dir().join(format!("gamebot-wizard-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a4.yaml");
        std::fs::copy(gamebot_kinematics::find_board_config("a4"), &path).unwrap();
        let file = path.to_string_lossy().to_string();
        let mut w = Wizard::default();
        let e = w.step(RegisterStep::Record, &file).err().unwrap();
        assert!(e.contains("not started"), "{e}");
        let e = w.step(RegisterStep::Start, "no-such-board").err().unwrap();
        assert!(e.contains("board no-such-board"), "{e}");
        let r = w.step(RegisterStep::Start, &file).unwrap();
        // Above the first mark, the grid's far-left corner.
        assert_eq!(r.moves.len(), 1);
        let m = r.moves[0];
        assert!(
            (m[0] + 0.10).abs() < 1e-12
                && (m[1] - 0.28).abs() < 1e-12
                && (m[2] - HOVER_M).abs() < 1e-12
        );
        // Where the tool is, is not known until a move reached somewhere.
        let e = w.step(RegisterStep::Record, &file).err().unwrap();
        assert!(e.contains("jog the tool onto the mark first"), "{e}");
        let marks = [[-0.10, 0.28], [0.10, 0.28], [0.10, 0.08], [-0.10, 0.08]];
        for (k, [x, y]) in marks.into_iter().enumerate() {
            // 2 mm off along x on every mark: a pure shift.
            w.tool_moved(Some([x + 0.002, y, 0.0]));
            let r = w.step(RegisterStep::Record, &file).unwrap();
            assert_eq!(r.data["recorded"], k + 1);
            assert_eq!(r.data["fit"].is_null(), k < 2, "{}", r.data);
            // Up off the sheet, then above the next mark (none after the last).
            assert_eq!(r.moves.len(), if k < 3 { 2 } else { 0 });
        }
        let e = w.step(RegisterStep::Record, &file).err().unwrap();
        assert!(e.contains("every mark is recorded"), "{e}");
        let r = w.step(RegisterStep::Save, &file).unwrap();
        assert_eq!(r.data["saved"], file.as_str());
        let p = Board::load(&path).unwrap().placement.unwrap();
        assert!(
            (p.offset_mm[0] - 2.0).abs() < 1e-6 && p.offset_mm[1].abs() < 1e-6,
            "{p:?}"
        );
        let r = w.step(RegisterStep::Cancel, &file).unwrap();
        assert_eq!(r.data["active"], false);
        assert!(w.step(RegisterStep::Undo, &file).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
