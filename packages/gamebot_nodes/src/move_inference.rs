//! Move inference: which move did the person make, given what the camera sees?
//!
//! Pure (no ROS, no images): given the game, the position the referee holds
//! and one stable observation (the piece class the detector sees on every
//! camera location), search the positions reachable within the current
//! player's turn — a turn may be several rule moves of the same player:
//! pentago's placement then twist, a chain of captures, a mill and its
//! removal — and keep those whose *camera-visible board* equals the
//! observation. The visible board of a position is, for every relevant
//! camera location, the class (element type and state) a perfect detector
//! would report there ([`visible_board`]); irrelevant locations (supplies,
//! spare spots) do not count, as in the rule engine's identity of positions.
//!
//! The matches are grouped into equivalence classes of equal resulting
//! positions (the rule engine's [`State`] equality: relevant occupants by
//! type, state and owner, player to move, winner, scores) and whether the
//! turn is finished. Taking any cross from the supply is one class; placing a
//! pentago marble (turn unfinished) and placing it then twisting an empty
//! quadrant (turn finished) are two.

use gamebot_rules::{Game, Move, RuleError, State};
use gamebot_vision::board_model::VisionBoard;
use std::collections::HashMap;

/// Limits of the search within one turn.
#[derive(Clone, Debug, PartialEq)]
pub struct InferenceConfig {
    /// Longest chain of rule moves of one player that is searched.
    pub max_depth: usize,
    /// Positions expanded at most (a safety bound for games with long turns).
    pub max_positions: usize,
}

impl Default for InferenceConfig {
    fn default() -> Self {
        InferenceConfig {
            max_depth: 8,
            max_positions: 50_000,
        }
    }
}

/// Why the inference could not run.
#[derive(Debug, thiserror::Error)]
pub enum InferenceError {
    /// The observation does not fit the game's camera locations.
    #[error("the observation has {got} camera locations but game `{game}` has {want}")]
    Size {
        game: String,
        got: usize,
        want: usize,
    },
    /// The rule engine failed while generating or applying a move.
    #[error(transparent)]
    Rule(#[from] RuleError),
}

/// A chain of rule moves of one player from the referee's position.
#[derive(Clone, Debug)]
pub struct Continuation {
    pub moves: Vec<Move>,
    /// The moves as `element:from->to` texts.
    pub texts: Vec<String>,
    /// The position after the moves (settled: a player without moves draws).
    pub state: State,
    /// Whether the player's turn is over there (another player to move, or game over).
    pub complete: bool,
}

/// Continuations that end in the same position (equal by the rule engine's identity).
#[derive(Clone, Debug)]
pub struct MoveClass {
    /// The continuation to play (the shortest, then by text order), first; others follow.
    pub members: Vec<Continuation>,
}

impl MoveClass {
    /// The continuation the referee plays for this class.
    pub fn representative(&self) -> &Continuation {
        &self.members[0]
    }
    /// Whether the turn is finished after it.
    pub fn complete(&self) -> bool {
        self.members[0].complete
    }
    /// The moves as one text, e.g. `x1:sx(1)->cell(2,2)` or two moves separated by a space.
    pub fn text(&self) -> String {
        self.members[0].texts.join(" ")
    }
}

/// One camera location that differs from the expected position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub location: String,
    /// What the referee's position puts there (`empty` or `type` / `type#state`).
    pub expected: String,
    /// What the camera sees.
    pub seen: String,
}

impl std::fmt::Display for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {} -> {}", self.location, self.expected, self.seen)
    }
}

/// What the observation says about the player's turn.
#[derive(Clone, Debug)]
pub enum Inference {
    /// The camera shows the referee's position.
    Unchanged,
    /// Exactly one class of continuations shows the observed board.
    Unique(MoveClass),
    /// Several classes look the same (e.g. a turn that may or may not be finished).
    Ambiguous(Vec<MoveClass>),
    /// No legal continuation of the turn shows this board.
    Illegal { changes: Vec<Change> },
}

impl Inference {
    /// The longest move sequence every class starts with (empty when they
    /// diverge at once): playing it is right whichever class is the truth.
    pub fn common_prefix(&self) -> Vec<Move> {
        let reps: Vec<&Continuation> = match self {
            Inference::Unique(c) => vec![c.representative()],
            Inference::Ambiguous(cs) => cs.iter().map(|c| c.representative()).collect(),
            _ => return Vec::new(),
        };
        let Some(first) = reps.first() else {
            return Vec::new();
        };
        let mut n = first.moves.len();
        for r in &reps[1..] {
            n = n.min(
                first
                    .texts
                    .iter()
                    .zip(&r.texts)
                    .take_while(|(a, b)| a == b)
                    .count(),
            );
        }
        first.moves[..n].to_vec()
    }
}

/// The class a perfect detector reports on every camera location of `board`
/// in `state` (`None`: empty, or an element type without a colour signature).
pub fn visible_board(game: &Game, board: &VisionBoard, state: &State) -> Vec<Option<usize>> {
    board
        .locations
        .iter()
        .map(|cl| {
            state.content(cl.id).and_then(|e| {
                board.class_for(&game.element_type_of(e).name, state.element_state(e))
            })
        })
        .collect()
}

/// Whether two visible boards agree on every relevant camera location.
pub fn same_relevant(board: &VisionBoard, a: &[Option<usize>], b: &[Option<usize>]) -> bool {
    board
        .locations
        .iter()
        .enumerate()
        .filter(|(_, l)| l.relevant)
        .all(|(i, _)| a.get(i) == b.get(i))
}

/// Names a class (or empty) for messages: `cross`, or `disc#2` when the type has several states.
pub fn class_name(board: &VisionBoard, class: Option<usize>) -> String {
    match class.and_then(|c| board.classes.get(c)) {
        None => "empty".into(),
        Some(c) => {
            let states = board.classes.iter().filter(|o| o.name == c.name).count();
            if states > 1 {
                format!("{}#{}", c.name, c.state)
            } else {
                c.name.clone()
            }
        }
    }
}

/// The relevant camera locations where `observed` differs from `expected`.
pub fn changes(
    board: &VisionBoard,
    expected: &[Option<usize>],
    observed: &[Option<usize>],
) -> Vec<Change> {
    board
        .locations
        .iter()
        .enumerate()
        .filter(|(i, l)| l.relevant && expected.get(*i) != observed.get(*i))
        .map(|(i, l)| Change {
            location: l.name.clone(),
            expected: class_name(board, expected.get(i).copied().flatten()),
            seen: class_name(board, observed.get(i).copied().flatten()),
        })
        .collect()
}

/// Every position reachable within the turn of the player to move in
/// `state` (one or more rule moves while that player stays to move), with
/// the moves that lead there; equal positions are kept once (first found:
/// fewest moves). Stops at `config` limits.
pub fn turn_continuations(
    game: &Game,
    state: &State,
    config: &InferenceConfig,
) -> Result<Vec<Continuation>, InferenceError> {
    let mut out: Vec<Continuation> = Vec::new();
    if state.is_over() {
        return Ok(out);
    }
    let player = state.player();
    let mut seen: HashMap<State, usize> = HashMap::new();
    // Breadth first: the frontier holds unfinished continuations (and the root).
    let mut frontier: Vec<(Vec<Move>, Vec<String>, State)> =
        vec![(Vec::new(), Vec::new(), state.clone())];
    let mut expanded = 0usize;
    for _depth in 0..config.max_depth {
        let mut next = Vec::new();
        for (moves, texts, st) in frontier {
            expanded += 1;
            if expanded > config.max_positions {
                break;
            }
            let mut legal = game.legal_moves(&st)?;
            legal.sort_by_key(|m| game.move_text(m));
            for m in legal {
                let mut child = st.clone();
                game.apply(&mut child, &m)?;
                let child_legal = game.legal_moves(&child)?;
                game.settle(&mut child, &child_legal);
                let complete = child.is_over() || child.player() != player;
                let mut ms = moves.clone();
                ms.push(m.clone());
                let mut ts = texts.clone();
                ts.push(game.move_text(&m));
                // Equal positions: keep the first (fewest moves, then text order),
                // but a finished and an unfinished turn are never merged.
                let key_taken = seen
                    .get(&child)
                    .is_some_and(|&i| out[i].complete == complete);
                if key_taken {
                    continue;
                }
                seen.insert(child.clone(), out.len());
                out.push(Continuation {
                    moves: ms.clone(),
                    texts: ts.clone(),
                    state: child.clone(),
                    complete,
                });
                if !complete {
                    next.push((ms, ts, child));
                }
            }
        }
        if next.is_empty() {
            break;
        }
        frontier = next;
    }
    Ok(out)
}

/// Infers the turn the camera shows: see the module documentation.
/// `observed` holds one class per camera location of `board` (as
/// [`gamebot_vision::detect::Observation::locations`]).
pub fn infer(
    game: &Game,
    board: &VisionBoard,
    state: &State,
    observed: &[Option<usize>],
    config: &InferenceConfig,
) -> Result<Inference, InferenceError> {
    if observed.len() != board.locations.len() {
        return Err(InferenceError::Size {
            game: game.name.clone(),
            got: observed.len(),
            want: board.locations.len(),
        });
    }
    let expected = visible_board(game, board, state);
    if same_relevant(board, &expected, observed) {
        return Ok(Inference::Unchanged);
    }
    let mut classes: Vec<MoveClass> = Vec::new();
    let mut index: HashMap<(State, bool), usize> = HashMap::new();
    for c in turn_continuations(game, state, config)? {
        if !same_relevant(board, &visible_board(game, board, &c.state), observed) {
            continue;
        }
        let key = (c.state.clone(), c.complete);
        match index.get(&key) {
            Some(&i) => classes[i].members.push(c),
            None => {
                index.insert(key, classes.len());
                classes.push(MoveClass { members: vec![c] });
            }
        }
    }
    for cl in &mut classes {
        cl.members
            .sort_by(|a, b| (a.moves.len(), &a.texts).cmp(&(b.moves.len(), &b.texts)));
    }
    Ok(match classes.len() {
        0 => Inference::Illegal {
            changes: changes(board, &expected, observed),
        },
        1 => Inference::Unique(classes.pop().expect("one class")),
        _ => Inference::Ambiguous(classes),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(name: &str) -> Game {
        let p = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../games"))
            .join(name);
        Game::load(p.to_str().unwrap()).unwrap()
    }

    fn after(g: &Game, st: &State, text: &str) -> State {
        let mut s = st.clone();
        let m = g.find_move(&s, text).unwrap();
        g.apply(&mut s, &m).unwrap();
        let l = g.legal_moves(&s).unwrap();
        g.settle(&mut s, &l);
        s
    }

    #[test]
    fn tictactoe_any_supply_piece_is_one_class() {
        let g = game("tictactoe.game");
        let board = VisionBoard::from_game(&g).unwrap();
        let st = g.initial_state();
        let legal = g.legal_moves(&st).unwrap();
        let m = legal
            .iter()
            .find(|m| g.locations[m.to as usize].name == "cell(2,2)")
            .unwrap();
        let text = g.move_text(m);
        let want = after(&g, &st, &text);
        let obs = visible_board(&g, &board, &want);
        match infer(&g, &board, &st, &obs, &InferenceConfig::default()).unwrap() {
            Inference::Unique(c) => {
                assert!(c.complete());
                assert_eq!(c.representative().state, want);
                assert!(c.text().ends_with("->cell(2,2)"), "{}", c.text());
            }
            other => panic!("{other:?}"),
        }
        // Unchanged board.
        let same = visible_board(&g, &board, &st);
        assert!(matches!(
            infer(&g, &board, &st, &same, &InferenceConfig::default()).unwrap(),
            Inference::Unchanged
        ));
    }

    #[test]
    fn illegal_board_names_the_changes() {
        let g = game("tictactoe.game");
        let board = VisionBoard::from_game(&g).unwrap();
        let st = g.initial_state();
        let mut obs = visible_board(&g, &board, &st);
        // Two crosses appear at once: no single turn does that.
        let cross = board.class_for("cross", 1).unwrap();
        let i = board
            .locations
            .iter()
            .position(|l| l.name == "cell(1,1)")
            .unwrap();
        let j = board
            .locations
            .iter()
            .position(|l| l.name == "cell(3,3)")
            .unwrap();
        obs[i] = Some(cross);
        obs[j] = Some(cross);
        match infer(&g, &board, &st, &obs, &InferenceConfig::default()).unwrap() {
            Inference::Illegal { changes } => {
                let names: Vec<String> = changes.iter().map(|c| c.to_string()).collect();
                assert_eq!(
                    names,
                    vec!["cell(1,1): empty -> cross", "cell(3,3): empty -> cross"]
                );
            }
            other => panic!("{other:?}"),
        }
        // A nought on the crosses' turn is illegal too.
        let mut obs = visible_board(&g, &board, &st);
        obs[i] = board.class_for("nought", 1);
        assert!(matches!(
            infer(&g, &board, &st, &obs, &InferenceConfig::default()).unwrap(),
            Inference::Illegal { .. }
        ));
        let e = infer(&g, &board, &st, &obs[1..], &InferenceConfig::default()).unwrap_err();
        assert!(e.to_string().contains("camera locations"), "{e}");
    }

    #[test]
    fn pentago_turn_is_placement_then_twist() {
        let g = game("pentago.game");
        let board = VisionBoard::from_game(&g).unwrap();
        let st = g.initial_state();
        let conts = turn_continuations(&g, &st, &InferenceConfig::default()).unwrap();
        assert!(conts.iter().any(|c| c.complete && c.moves.len() == 2));
        assert!(conts.iter().any(|c| !c.complete && c.moves.len() == 1));
        // The placement alone (twister on its ready spot) is an unfinished turn.
        let place = conts.iter().find(|c| !c.complete).unwrap();
        let obs = visible_board(&g, &board, &place.state);
        match infer(&g, &board, &st, &obs, &InferenceConfig::default()).unwrap() {
            Inference::Unique(c) => {
                assert!(!c.complete());
                assert_eq!(c.representative().state, place.state);
            }
            other => panic!("{other:?}"),
        }
        // A full turn that turns a quadrant with a marble in it.
        let full = conts
            .iter()
            .filter(|c| c.complete)
            .find(|c| {
                visible_board(&g, &board, &c.state) != visible_board(&g, &board, &conts[0].state)
                    && c.texts[0] == conts[0].texts[0]
            })
            .unwrap();
        let obs = visible_board(&g, &board, &full.state);
        let inf = infer(&g, &board, &st, &obs, &InferenceConfig::default()).unwrap();
        match &inf {
            Inference::Unique(c) => {
                assert!(c.complete());
                assert_eq!(c.representative().state, full.state);
            }
            Inference::Ambiguous(cs) => {
                assert!(cs.iter().any(|c| c.representative().state == full.state));
            }
            other => panic!("{other:?}"),
        }
    }
}
