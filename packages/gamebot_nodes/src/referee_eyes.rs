//! What the referee concludes from the camera — pure (no transport, no
//! clock: times are passed in), used by [`crate::referee_node`].
//!
//! - [`PersonWatch`]: during a `camera` player's turn, each stable
//!   observation becomes a [`PersonVerdict`]: play the inferred moves, ask
//!   the person to finish, or — once an observation that is no legal
//!   successor has stayed stable for `illegal_after` — reject it naming the
//!   changed locations; then wait until the board shows the position again
//!   (or a legal successor). A board that fits several turns that each end
//!   the person's turn (nothing left to finish: pentago's winning placement
//!   and another placement plus a twist that gives the same board) is
//!   settled once it has stayed stable for `illegal_after`: the fewest moves
//!   that explain it are played.
//! - [`SeenBoard`] and [`corrections`]: after the arm's move, compare the
//!   stable observation with the expected position; for every piece seen in
//!   the wrong place (on a wrong location, or a blob on none) a corrective
//!   transfer from where it was seen to where it belongs.

use crate::move_inference::{
    changes, infer, same_relevant, visible_board, Change, Continuation, Inference, InferenceConfig,
    InferenceError, MoveClass,
};
use gamebot_rules::{ElementId, Game, LocationId, Move, State};
use gamebot_vision::board_model::{same_spot, VisionBoard};
use std::time::Duration;

/// One piece the camera sees, as the referee uses it.
#[derive(Clone, Debug, PartialEq)]
pub struct SeenPiece {
    /// Camera location name; empty for a blob on no location.
    pub location: String,
    /// Index into [`VisionBoard::classes`].
    pub class: usize,
    /// Where it lies on the table (cm, arm base frame).
    pub table_cm: [f64; 2],
}

/// A stable observation in the referee's terms.
#[derive(Clone, Debug, PartialEq)]
pub struct SeenBoard {
    /// Class per camera location of the board.
    pub classes: Vec<Option<usize>>,
    /// Every piece seen, on a location or not.
    pub pieces: Vec<SeenPiece>,
}

impl SeenBoard {
    /// Builds it from the detector's pieces: (location name or empty,
    /// element type, element state, table position cm). Pieces of a type the
    /// game's signatures do not know, or on an unknown location, are ignored.
    pub fn from_pieces<'a>(
        board: &VisionBoard,
        pieces: impl IntoIterator<Item = (&'a str, &'a str, i32, [f64; 2])>,
    ) -> SeenBoard {
        let mut classes = vec![None; board.locations.len()];
        let mut out = Vec::new();
        for (loc, ty, st, cm) in pieces {
            let Some(class) = board.class_for(ty, st) else {
                continue;
            };
            if !loc.is_empty() {
                match board.locations.iter().position(|l| l.name == loc) {
                    Some(i) => classes[i] = Some(class),
                    None => continue,
                }
            }
            out.push(SeenPiece {
                location: loc.to_string(),
                class,
                table_cm: cm,
            });
        }
        SeenBoard {
            classes,
            pieces: out,
        }
    }
}

/// What to do after a stable observation during a person's turn.
#[derive(Clone, Debug, PartialEq)]
pub enum PersonVerdict {
    /// Nothing new.
    Nothing,
    /// Play these moves (seen on the camera); `complete`: the turn is over after them.
    Play {
        moves: Vec<Move>,
        text: String,
        complete: bool,
    },
    /// Several different turns look like this: ask the person to finish (event text).
    AskFinish(String),
    /// Not a legal successor, stable for long enough: reject (event text names the changes).
    Reject {
        message: String,
        changes: Vec<Change>,
    },
    /// After a rejection, the board shows the referee's position again.
    Restored,
}

/// The referee's judgement of a camera player's turn.
#[derive(Debug, Default)]
pub struct PersonWatch {
    /// An illegal-looking board and since when it has been stable.
    illegal_since: Option<(Vec<Option<usize>>, Duration)>,
    /// The board last rejected (not reported again).
    rejected: Option<Vec<Option<usize>>>,
    /// The board the person was last asked to finish.
    asked: Option<Vec<Option<usize>>>,
    /// A board every reading of which ends the turn, and since when it has
    /// been stable.
    settling: Option<(Vec<Option<usize>>, Duration)>,
}

impl PersonWatch {
    /// Forgets everything (a new turn or a new game).
    pub fn reset(&mut self) {
        *self = PersonWatch::default();
    }

    /// Whether a rejected board is still waiting to be put right.
    pub fn rejected(&self) -> bool {
        self.rejected.is_some()
    }

    /// When an illegal-looking board will be reported, or an ambiguous
    /// finished turn settled, if the board stays (for the caller's deadline).
    pub fn report_due(&self, illegal_after: Duration) -> Option<Duration> {
        let illegal = match (&self.illegal_since, &self.rejected) {
            (Some((_, since)), None) => Some(*since + illegal_after),
            _ => None,
        };
        let settle = self
            .settling
            .as_ref()
            .map(|(_, since)| *since + illegal_after);
        illegal.into_iter().chain(settle).min()
    }

    /// Judges one stable observation `seen` (classes per camera location) at time `now`.
    #[allow(clippy::too_many_arguments)]
    pub fn observe(
        &mut self,
        game: &Game,
        board: &VisionBoard,
        state: &State,
        seen: &[Option<usize>],
        now: Duration,
        illegal_after: Duration,
        config: &InferenceConfig,
    ) -> Result<PersonVerdict, InferenceError> {
        let inf = infer(game, board, state, seen, config)?;
        if !matches!(inf, Inference::Illegal { .. }) {
            self.illegal_since = None;
        }
        if !matches!(inf, Inference::Ambiguous(_)) {
            self.settling = None;
        }
        Ok(match inf {
            Inference::Unchanged => {
                self.asked = None;
                if self.rejected.take().is_some() {
                    PersonVerdict::Restored
                } else {
                    PersonVerdict::Nothing
                }
            }
            Inference::Unique(c) => {
                self.reset();
                let rep = c.representative();
                PersonVerdict::Play {
                    moves: rep.moves.clone(),
                    text: rep.texts.join(" "),
                    complete: rep.complete,
                }
            }
            Inference::Ambiguous(classes) => {
                let prefix = inf_prefix(&classes);
                if !prefix.is_empty() {
                    self.reset();
                    let text = prefix
                        .iter()
                        .map(|m| game.move_text(m))
                        .collect::<Vec<_>>()
                        .join(" ");
                    PersonVerdict::Play {
                        moves: prefix,
                        text,
                        complete: false,
                    }
                } else if let Some(rep) = self.settled(&classes, seen, now, illegal_after) {
                    self.reset();
                    PersonVerdict::Play {
                        moves: rep.moves.clone(),
                        text: rep.texts.join(" "),
                        complete: true,
                    }
                } else if self.asked.as_deref() == Some(seen) {
                    PersonVerdict::Nothing
                } else {
                    self.asked = Some(seen.to_vec());
                    let options: Vec<String> = classes.iter().map(|c| c.text()).collect();
                    PersonVerdict::AskFinish(format!(
                        "the board fits {} different moves ({}): please finish your move",
                        options.len(),
                        options.join(" | ")
                    ))
                }
            }
            Inference::Illegal { changes } => {
                if self.rejected.as_deref() == Some(seen) {
                    return Ok(PersonVerdict::Nothing);
                }
                match &self.illegal_since {
                    Some((b, since)) if b.as_slice() == seen => {
                        if now.saturating_sub(*since) < illegal_after {
                            return Ok(PersonVerdict::Nothing);
                        }
                    }
                    _ => {
                        self.illegal_since = Some((seen.to_vec(), now));
                        if !illegal_after.is_zero() {
                            return Ok(PersonVerdict::Nothing);
                        }
                    }
                }
                self.illegal_since = None;
                self.rejected = Some(seen.to_vec());
                let list: Vec<String> = changes.iter().map(|c| c.to_string()).collect();
                PersonVerdict::Reject {
                    message: format!(
                        "the board changed where no legal move of player {} can: {}; put it back or make a legal move",
                        state.player(),
                        list.join(", ")
                    ),
                    changes,
                }
            }
        })
    }
}

impl PersonWatch {
    /// An ambiguous board whose every reading ends the person's turn: there
    /// is nothing left to finish, so once it has stayed stable for
    /// `illegal_after` the reading with the fewest moves (then the first by
    /// text, as a class picks its representative) is the one played — the
    /// same board either way. `None` while it may still change, or when some
    /// reading leaves the turn open.
    fn settled<'c>(
        &mut self,
        classes: &'c [MoveClass],
        seen: &[Option<usize>],
        now: Duration,
        illegal_after: Duration,
    ) -> Option<&'c Continuation> {
        if !classes.iter().all(MoveClass::complete) {
            self.settling = None;
            return None;
        }
        match &self.settling {
            Some((b, since)) if b.as_slice() == seen => {
                if now.saturating_sub(*since) < illegal_after {
                    return None;
                }
            }
            _ => {
                self.settling = Some((seen.to_vec(), now));
                if !illegal_after.is_zero() {
                    return None;
                }
            }
        }
        classes
            .iter()
            .map(MoveClass::representative)
            .min_by(|a, b| (a.moves.len(), &a.texts).cmp(&(b.moves.len(), &b.texts)))
    }
}

fn inf_prefix(classes: &[MoveClass]) -> Vec<Move> {
    Inference::Ambiguous(classes.to_vec()).common_prefix()
}

/// One corrective transfer: the piece seen at `from_cm` (on `from_location`,
/// or on no location when empty) goes to `to_location` — through the
/// turn-over station on the way when it shows the other side (`turn_over`).
#[derive(Clone, Debug, PartialEq)]
pub struct Correction {
    /// The element the position puts on `to_location`.
    pub element: String,
    pub element_type: String,
    pub from_location: String,
    pub from_cm: [f64; 2],
    /// Height (cm) of the piece's base where it is picked: 0 on the table,
    /// a stack's level for the top piece of a stack (a re-seat).
    pub from_level_cm: f64,
    pub to_location: String,
    /// `robot=` coordinates (cm) of the target.
    pub to_cm: Option<[f64; 3]>,
    /// The piece seen shows the other side of a two-sided type (a reversi
    /// disc): it must be turned over on its way.
    pub turn_over: bool,
}

/// The result of comparing a stable observation with the expected position.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    /// Relevant camera locations that differ (empty: confirmed).
    pub changes: Vec<Change>,
    /// Transfers that would put things right.
    pub corrections: Vec<Correction>,
    /// Locations whose piece is missing and no misplaced piece of its kind was seen.
    pub uncorrectable: Vec<String>,
    /// The relevant locations show the position (`changes` may still name
    /// a place off the board whose piece lies on no location).
    pub board_right: bool,
}

impl Check {
    pub fn confirmed(&self) -> bool {
        self.changes.is_empty()
    }
}

/// How far (cm) a piece may lie from where a correction picked it up and
/// still count as "back where it was lifted".
pub const REGRASP_RADIUS_CM: f64 = 2.0;

impl Correction {
    /// Whether this correction asks again for what `earlier` asked: the same
    /// kind of piece to the same place, taken from within
    /// [`REGRASP_RADIUS_CM`] of where `earlier` took it, or both from a
    /// supply (`is_supply` of their locations: a piece that slipped falls
    /// back onto its stack, and which supply piece the next check picks is
    /// the planner's choice). After a correction, that means the arm did
    /// not carry the piece (it slipped from the gripper and fell back where
    /// it lay).
    pub fn repeats(&self, earlier: &Correction, is_supply: &dyn Fn(&str) -> bool) -> bool {
        let near = (self.from_cm[0] - earlier.from_cm[0])
            .hypot(self.from_cm[1] - earlier.from_cm[1])
            <= REGRASP_RADIUS_CM;
        self.element_type == earlier.element_type
            && self.to_location == earlier.to_location
            && self.turn_over == earlier.turn_over
            && (near || (is_supply(&self.from_location) && is_supply(&earlier.from_location)))
    }
}

/// Pieces of `state` the camera sees farther than `reseat_cm` from their
/// point for the arm (`point`: cm, the location's `robot=` through the
/// board's placement) — nudged by a neighbour, put down a little off: each
/// goes back onto its point, picked where it was seen. Relevant locations
/// always; an irrelevant one (a supply, a bin of captured pieces) only
/// within [`NUDGE_REACH_CM`] of a point in `put_at` (cm: where the arm just
/// put pieces down off the board — the referee passes a move's captures put
/// into their bins), so a captured piece nudged again and again by the
/// captures put beside it does not walk out of its bin, while the pool
/// stacks the arm takes from are left to the arm's grasp. On a stack
/// (locations sharing one point at different heights) the camera sees the
/// top piece, so the position's top piece there is re-seated, picked at its
/// level. Locations in `skip` (those the arm's next move touches) are left
/// alone, and so is a stack any of whose levels is in `skip`. The camera
/// reads a piece on the board to within 1.7 mm (`gamebot bench eyes`), so a
/// threshold of a few mm fires only for pieces really off.
pub fn reseats(
    game: &Game,
    state: &State,
    seen: &SeenBoard,
    reseat_cm: f64,
    skip: &[&str],
    put_at: &[[f64; 3]],
    point: impl Fn(LocationId) -> Option<[f64; 3]>,
) -> Vec<Correction> {
    let mut out = Vec::new();
    for p in &seen.pieces {
        if p.location.is_empty() {
            continue;
        }
        let Some(l) = game.location_by_name(&p.location) else {
            continue;
        };
        let Some(at) = point(l) else {
            continue;
        };
        let near_a_put = || {
            put_at
                .iter()
                .any(|q| (q[0] - at[0]).hypot(q[1] - at[1]) <= NUDGE_REACH_CM)
        };
        if !game.is_relevant(l) && !near_a_put() {
            continue;
        }
        // The levels of the stack `l` belongs to (just `l` when it stands alone).
        let stack: Vec<(LocationId, [f64; 3])> = (0..game.locations.len() as LocationId)
            .filter_map(|k| Some((k, point(k)?)))
            .filter(|(_, q)| (q[0] - at[0]).hypot(q[1] - at[1]) < STACK_CM)
            .collect();
        if stack
            .iter()
            .any(|(k, _)| skip.contains(&game.locations[*k as usize].name.as_str()))
        {
            continue;
        }
        let Some((top, to, e)) = stack
            .iter()
            .filter_map(|&(k, q)| Some((k, q, state.content(k)?)))
            .max_by(|x, y| x.1[2].total_cmp(&y.1[2]))
        else {
            continue;
        };
        if (p.table_cm[0] - to[0]).hypot(p.table_cm[1] - to[1]) > reseat_cm {
            let name = game.locations[top as usize].name.clone();
            let ground = stack
                .iter()
                .map(|(_, q)| q[2])
                .fold(f64::INFINITY, f64::min);
            out.push(Correction {
                element: game.elements[e as usize].name.clone(),
                element_type: game.element_type_of(e).name.clone(),
                from_location: name.clone(),
                from_cm: p.table_cm,
                from_level_cm: to[2] - ground,
                to_location: name,
                to_cm: Some(to),
                turn_over: false,
            });
        }
    }
    out
}

/// Points for the arm closer than this (cm, on the table) are one stack.
const STACK_CM: f64 = 0.05;

/// How far (cm) from where a piece is put down its neighbours may be nudged:
/// a little more than one spacing of a bin column (3 cm).
pub const NUDGE_REACH_CM: f64 = 4.5;

/// How many pieces of `expected` the camera should see but sees nowhere:
/// the places the position fills (a stack of supply places sharing one
/// camera centre is one place: the camera sees only its top piece) less
/// the pieces seen, on a location or not. Pieces are conserved, so a
/// shortfall is a piece lying out of the camera's view — on a board with a
/// turn-over station, most likely at its exit, where a disc that slipped
/// from the gripper on its way back stays. A stack blurs the count both
/// ways: a piece missing under its top does not show in it, and a piece
/// lying on a stack where the position has one is counted as unseen (the
/// top hides it: a placement that slipped back onto its stack;
/// [`crate::flip_station::Unseen`] takes those off).
pub fn unseen_pieces(board: &VisionBoard, expected: &[Option<usize>], seen: &SeenBoard) -> usize {
    let mut spots: Vec<(f64, f64)> = Vec::new();
    let mut places: usize = 0;
    for (l, want) in board.locations.iter().zip(expected) {
        if want.is_none() {
            continue;
        }
        if l.stacked {
            if spots.iter().any(|q| same_spot(*q, l.px)) {
                continue;
            }
            spots.push(l.px);
        }
        places += 1;
    }
    places.saturating_sub(seen.pieces.len())
}

/// Whether every correction `now` repeats one `earlier` asked for (see
/// [`Correction::repeats`]): the earlier attempt carried none of these
/// pieces (it may have carried others: the rest of it is done).
pub fn repeats_all(
    now: &[Correction],
    earlier: &[Correction],
    is_supply: &dyn Fn(&str) -> bool,
) -> bool {
    !now.is_empty()
        && now.len() <= earlier.len()
        && now
            .iter()
            .all(|c| earlier.iter().any(|e| c.repeats(e, is_supply)))
}

/// Compares `seen` with `expected` and plans corrections: for every relevant
/// location that should hold a piece it does not show, a piece of that kind
/// seen in the wrong place — a blob on no location first, then one on a
/// relevant location that should not show it, then one on an irrelevant
/// location (a supply) the position says is empty, and last one on a
/// stacked supply where the position has it (supply places are
/// interchangeable, and the camera sees only the top of each stack). When none of them shows
/// the wanted side and the arm can turn pieces over (`can_turn_over`: the
/// board has a turn-over station), a piece of the same two-sided type
/// showing the other side is taken, in the same order, marked `turn_over`.
pub fn check(
    game: &Game,
    board: &VisionBoard,
    expected: &State,
    seen: &SeenBoard,
    can_turn_over: bool,
) -> Check {
    let want = visible_board(game, board, expected);
    if same_relevant(board, &want, &seen.classes) {
        // The board is right; a piece lying on no location whose kind the
        // position has in a place off the board that the camera sees empty
        // (a capture that slipped on its way to the bin) goes there.
        let strays: Vec<&SeenPiece> = seen
            .pieces
            .iter()
            .filter(|p| p.location.is_empty())
            .collect();
        let back = removals(game, board, expected, &want, seen, &strays, true);
        return Check {
            changes: back
                .iter()
                .map(|c| Change {
                    location: c.to_location.clone(),
                    expected: c.element_type.clone(),
                    seen: format!(
                        "empty (one lies on no location at ({:.1}, {:.1}) cm)",
                        c.from_cm[0], c.from_cm[1]
                    ),
                })
                .collect(),
            corrections: back,
            uncorrectable: Vec::new(),
            board_right: true,
        };
    }
    let ch = changes(board, &want, &seen.classes);
    let spare = spares(board, &want, seen);
    let mut used = vec![false; spare.len()];
    let mut corrections = Vec::new();
    let mut uncorrectable = Vec::new();
    for (i, loc) in board.locations.iter().enumerate() {
        if !loc.relevant || want[i].is_none() || seen.classes[i] == want[i] {
            continue;
        }
        let class = want[i].expect("checked above");
        let e = expected.content(loc.id).expect("want is Some");
        let find = |class: usize, used: &[bool]| {
            spare
                .iter()
                .enumerate()
                .find(|(k, s)| !used[*k] && s.piece.class == class)
                .map(|(k, _)| k)
        };
        let pick = find(class, &used).map(|k| (k, false)).or_else(|| {
            let other = can_turn_over.then(|| other_side(game, board, expected, e))??;
            find(other, &used).map(|k| (k, true))
        });
        let Some((k, turn_over)) = pick else {
            uncorrectable.push(loc.name.clone());
            continue;
        };
        used[k] = true;
        let p = spare[k].piece;
        corrections.push(Correction {
            element: game.elements[e as usize].name.clone(),
            element_type: game.element_type_of(e).name.clone(),
            from_location: p.location.clone(),
            from_cm: p.table_cm,
            from_level_cm: 0.0,
            to_location: loc.name.clone(),
            to_cm: game.locations[loc.id as usize].robot_cm(),
            turn_over,
        });
    }
    let unused: Vec<&SeenPiece> = spare
        .iter()
        .zip(&used)
        .filter(|(s, used)| !**used && s.rank == SpareRank::OnAWrongSquare)
        .map(|(s, _)| s.piece)
        .collect();
    let mut all = removals(game, board, expected, &want, seen, &unused, false);
    all.extend(corrections);
    Check {
        changes: ch,
        corrections: all,
        uncorrectable,
        board_right: false,
    }
}

/// Where a spare piece lies, in the order the correction planner takes
/// spares (the first rank first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum SpareRank {
    /// A blob on no location.
    OffLocation,
    /// On a relevant location that should not show it.
    OnAWrongSquare,
    /// On an irrelevant location (a supply) the position says is empty.
    OnAnEmptySupply,
    /// On a stacked supply where the position has it.
    InAStack,
}

/// A piece the camera sees that a correction may take.
struct Spare<'a> {
    rank: SpareRank,
    piece: &'a SeenPiece,
}

/// The seen pieces a correction may take, best first: see [`check`].
fn spares<'a>(board: &VisionBoard, want: &[Option<usize>], seen: &'a SeenBoard) -> Vec<Spare<'a>> {
    let mut spare: Vec<Spare<'a>> = seen
        .pieces
        .iter()
        .filter_map(|piece| {
            let rank = if piece.location.is_empty() {
                SpareRank::OffLocation
            } else {
                let i = board
                    .locations
                    .iter()
                    .position(|l| l.name == piece.location)?;
                let l = &board.locations[i];
                if want[i] == Some(piece.class) {
                    // Where the position has it. On a stacked supply (a
                    // `relevant=no` location sharing its spot with others: a
                    // pool column, interchangeable places) it may still be
                    // taken, last: the camera sees only the top of each
                    // stack, not which one a person took from, so the piece
                    // the arm missed may lie under one the position expects
                    // there. Not from a single supply spot: there the camera
                    // sees every piece, so the piece missing from a square is
                    // not in the pool: it is elsewhere, unseen, and taking a
                    // supply piece would pile a second one onto it.
                    if l.relevant || !l.stacked {
                        return None;
                    }
                    SpareRank::InAStack
                } else if l.relevant {
                    SpareRank::OnAWrongSquare
                } else {
                    SpareRank::OnAnEmptySupply
                }
            };
            Some(Spare { rank, piece })
        })
        .collect();
    spare.sort_by_key(|s| s.rank);
    spare
}

/// Pieces on a relevant location that should not show them and that no
/// location wants (`unused`): back to a place off the board the rules keep
/// for their kind — an irrelevant location the position fills with that kind
/// but the camera sees empty (the hole the piece came from), else an empty
/// one where a piece of that kind starts the game (not with `holes_only`).
/// They go first, so a location they block is free before anything is put
/// there.
fn removals(
    game: &Game,
    board: &VisionBoard,
    expected: &State,
    want: &[Option<usize>],
    seen: &SeenBoard,
    unused: &[&SeenPiece],
    holes_only: bool,
) -> Vec<Correction> {
    let initial = game.initial_state();
    let mut homes_used: Vec<usize> = Vec::new();
    let mut removals = Vec::new();
    for p in unused {
        let home = |fill_only: bool, used: &[usize]| {
            board.locations.iter().enumerate().find_map(|(j, l)| {
                if l.relevant || seen.classes[j].is_some() || used.contains(&j) {
                    return None;
                }
                let elem = if want[j] == Some(p.class) {
                    expected.content(l.id)
                } else if fill_only || want[j].is_some() {
                    None
                } else {
                    initial.content(l.id).filter(|&e| {
                        board.class_for(&game.element_type_of(e).name, initial.element_state(e))
                            == Some(p.class)
                    })
                }?;
                Some((j, elem))
            })
        };
        let Some((j, e)) = home(true, &homes_used)
            .or_else(|| (!holes_only).then(|| home(false, &homes_used)).flatten())
        else {
            continue;
        };
        homes_used.push(j);
        let l = &board.locations[j];
        removals.push(Correction {
            element: game.elements[e as usize].name.clone(),
            element_type: game.element_type_of(e).name.clone(),
            from_location: p.location.clone(),
            from_cm: p.table_cm,
            from_level_cm: 0.0,
            to_location: l.name.clone(),
            to_cm: game.locations[l.id as usize].robot_cm(),
            turn_over: false,
        });
    }
    removals
}

/// The class the camera reports for element `e` turned over: its type has
/// two states (a disc's two faces, what the turn-over station swaps) and the
/// camera tells them apart; `None` otherwise.
fn other_side(game: &Game, board: &VisionBoard, expected: &State, e: ElementId) -> Option<usize> {
    let ty = game.element_type_of(e);
    if ty.states != 2 {
        return None;
    }
    let state = expected.element_state(e);
    let other = state % 2 + 1;
    let class = board.class_for(&ty.name, other)?;
    let c = &board.classes[class];
    (c.name == ty.name && c.state == other && board.class_for(&ty.name, state) != Some(class))
        .then_some(class)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_correction_repeats_one_that_took_the_same_piece_from_near_the_same_place() {
        let c = |ty: &str, from: [f64; 2], to: &str| Correction {
            element: String::new(),
            element_type: ty.into(),
            from_location: String::new(),
            from_cm: from,
            from_level_cm: 0.0,
            to_location: to.into(),
            to_cm: None,
            turn_over: false,
        };
        let first = c("cross", [10.0, 5.0], "cell(1,1)");
        let no_supply = |_: &str| false;
        let no_supply: &dyn Fn(&str) -> bool = &no_supply;
        assert!(c("cross", [11.0, 6.0], "cell(1,1)").repeats(&first, no_supply));
        assert!(
            !c("cross", [13.0, 5.0], "cell(1,1)").repeats(&first, no_supply),
            "moved 3 cm"
        );
        assert!(!c("nought", [10.0, 5.0], "cell(1,1)").repeats(&first, no_supply));
        assert!(!c("cross", [10.0, 5.0], "cell(1,2)").repeats(&first, no_supply));
        let mut flipped = first.clone();
        flipped.turn_over = true;
        assert!(!flipped.repeats(&first, no_supply));
        let two = [first.clone(), c("cross", [0.0, 0.0], "cell(2,2)")];
        assert!(repeats_all(
            &[two[1].clone(), two[0].clone()],
            &two,
            no_supply
        ));
        // One of two done, the other carried nothing: a retry of that one.
        assert!(repeats_all(&two[..1], &two, no_supply));
        assert!(
            !repeats_all(&two, &two[..1], no_supply),
            "one more than asked for"
        );
        let elsewhere = c("cross", [5.0, 5.0], "cell(2,2)");
        assert!(!repeats_all(&[two[0].clone(), elsewhere], &two, no_supply));
        assert!(!repeats_all(&[], &[], no_supply));
        // From one supply spot, then from another: the piece fell back onto
        // a stack, the next check picked another top.
        let from = |loc: &str, cm: [f64; 2]| Correction {
            from_location: loc.into(),
            ..c("disc", cm, "b(1,6)")
        };
        let pool = |l: &str| l.starts_with("pool(");
        let pool: &dyn Fn(&str) -> bool = &pool;
        let earlier = [from("pool(2)", [-13.7, 11.9])];
        assert!(from("pool(20)", [13.7, 18.0]).repeats(&earlier[0], pool));
        assert!(!from("pool(20)", [13.7, 18.0]).repeats(&earlier[0], no_supply));
        assert!(!from("b(2,2)", [-4.5, 13.5]).repeats(&earlier[0], pool));
    }

    use super::*;

    fn game(name: &str) -> Game {
        let p = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../games"))
            .join(name);
        Game::load(p.to_str().unwrap()).unwrap()
    }

    /// Tic-tac-toe's first move that puts a cross on `cell`: the position
    /// before, the move, the position after.
    fn first_cross_on(g: &Game, cell: &str) -> (State, Move, State) {
        let st = g.initial_state();
        let m = g
            .legal_moves(&st)
            .unwrap()
            .into_iter()
            .find(|m| g.locations[m.to as usize].name == cell)
            .unwrap();
        let mut after = st.clone();
        g.apply(&mut after, &m).unwrap();
        (st, m, after)
    }

    /// A stable observation of `pieces`: (location or empty, element type,
    /// state, table position cm).
    fn seen_of(board: &VisionBoard, pieces: &[(String, String, i32, [f64; 2])]) -> SeenBoard {
        SeenBoard::from_pieces(
            board,
            pieces
                .iter()
                .map(|(l, t, s, c)| (l.as_str(), t.as_str(), *s, *c)),
        )
    }

    fn cam(board: &VisionBoard, name: &str) -> usize {
        board.locations.iter().position(|l| l.name == name).unwrap()
    }

    #[test]
    fn an_illegal_board_is_rejected_only_when_it_stays_then_restored() {
        let g = game("tictactoe.game");
        let board = VisionBoard::from_game(&g).unwrap();
        let st = g.initial_state();
        let cross = board.class_for("cross", 1);
        let mut bad = visible_board(&g, &board, &st);
        bad[cam(&board, "cell(1,1)")] = cross;
        bad[cam(&board, "cell(2,2)")] = cross;
        let cfg = InferenceConfig::default();
        let after = Duration::from_secs(2);
        let mut w = PersonWatch::default();
        let t = |s: f64| Duration::from_secs_f64(s);
        // Flicker: seen for 1 s only, then the board is back.
        assert_eq!(
            w.observe(&g, &board, &st, &bad, t(0.0), after, &cfg)
                .unwrap(),
            PersonVerdict::Nothing
        );
        assert_eq!(w.report_due(after), Some(t(2.0)));
        assert_eq!(
            w.observe(&g, &board, &st, &bad, t(1.0), after, &cfg)
                .unwrap(),
            PersonVerdict::Nothing
        );
        let same = visible_board(&g, &board, &st);
        assert_eq!(
            w.observe(&g, &board, &st, &same, t(1.1), after, &cfg)
                .unwrap(),
            PersonVerdict::Nothing
        );
        // Stays: rejected once, naming the changes.
        w.observe(&g, &board, &st, &bad, t(3.0), after, &cfg)
            .unwrap();
        let PersonVerdict::Reject { message, changes } = w
            .observe(&g, &board, &st, &bad, t(5.5), after, &cfg)
            .unwrap()
        else {
            panic!("expected a rejection")
        };
        assert_eq!(changes.len(), 2);
        assert!(message.contains("cell(1,1): empty -> cross"), "{message}");
        assert!(w.rejected());
        assert_eq!(
            w.observe(&g, &board, &st, &bad, t(9.0), after, &cfg)
                .unwrap(),
            PersonVerdict::Nothing
        );
        // The person removes one cross: a legal move now, played.
        let mut legal = same.clone();
        legal[cam(&board, "cell(2,2)")] = cross;
        let v = w
            .observe(&g, &board, &st, &legal, t(10.0), after, &cfg)
            .unwrap();
        assert!(
            matches!(&v, PersonVerdict::Play { text, complete: true, .. } if text.ends_with("->cell(2,2)")),
            "{v:?}"
        );
        // Or restores the board after a rejection.
        let mut w = PersonWatch::default();
        w.observe(&g, &board, &st, &bad, t(0.0), Duration::ZERO, &cfg)
            .unwrap();
        assert!(w.rejected());
        assert_eq!(
            w.observe(&g, &board, &st, &same, t(1.0), after, &cfg)
                .unwrap(),
            PersonVerdict::Restored
        );
    }

    /// Soak finding (pentago, seed 36, ply 63): blue's placement on c(3,2)
    /// makes five in a row and ends the game, and placing on c(2,3) then
    /// turning quadrant 3 back gives the same board. Nothing is left to
    /// finish under either reading: after the first sight (asked to finish)
    /// and `illegal_after` of the same board, the one-move reading is played.
    /// Before, the referee asked once and then waited for ever.
    #[test]
    fn a_finished_turn_that_reads_two_ways_is_settled_with_the_fewest_moves() {
        let g = game("pentago.game");
        let board = VisionBoard::from_game(&g).unwrap();
        let mut st = g.initial_state();
        const MOVES: &str = "r(12):sr(12)->c(1,3) twister:twistready->rot(3,1) b(1):sb(1)->c(2,6) twister:twistready->rot(3,1) r(3):sr(3)->c(3,5) twister:twistready->rot(1,1) b(10):sb(10)->c(5,6) twister:twistready->rot(3,2) r(15):sr(15)->c(1,3) twister:twistready->rot(3,1) b(11):sb(11)->c(4,3) twister:twistready->rot(3,2) r(6):sr(6)->c(4,5) twister:twistready->rot(3,1) b(12):sb(12)->c(4,4) twister:twistready->rot(4,2) r(10):sr(10)->c(6,6) twister:twistready->rot(1,1) b(13):sb(13)->c(3,2) twister:twistready->rot(2,1) r(1):sr(1)->c(2,6) twister:twistready->rot(2,1) b(14):sb(14)->c(2,5) twister:twistready->rot(3,1) r(11):sr(11)->c(1,6) twister:twistready->rot(2,2) b(15):sb(15)->c(5,3) twister:twistready->rot(4,1) r(2):sr(2)->c(1,3) twister:twistready->rot(4,2) b(16):sb(16)->c(5,4) twister:twistready->rot(3,2) r(14):sr(14)->c(1,4) twister:twistready->rot(4,2) b(17):sb(17)->c(4,5) twister:twistready->rot(3,1) r(5):sr(5)->c(3,3) twister:twistready->rot(1,1) b(18):sb(18)->c(1,2) twister:twistready->rot(4,1) r(13):sr(13)->c(6,3) twister:twistready->rot(1,1) b(2):sb(2)->c(1,6) twister:twistready->rot(1,1) r(4):sr(4)->c(4,2) twister:twistready->rot(1,1) b(3):sb(3)->c(3,6) twister:twistready->rot(1,2) r(16):sr(16)->c(4,4) twister:twistready->rot(3,1) b(4):sb(4)->c(5,1) twister:twistready->rot(1,2) r(7):sr(7)->c(5,5) twister:twistready->rot(3,2) b(5):sb(5)->c(4,3) twister:twistready->rot(1,2) r(18):sr(18)->c(2,4) twister:twistready->rot(1,1) b(6):sb(6)->c(2,2) twister:twistready->rot(2,2) r(9):sr(9)->c(6,1) twister:twistready->rot(4,1)";
        for text in MOVES.split(' ') {
            let mv = g.find_move(&st, text).unwrap();
            g.apply(&mut st, &mv).unwrap();
        }
        let mut after = st.clone();
        let mv = g.find_move(&after, "b(7):sb(7)->c(3,2)").unwrap();
        g.apply(&mut after, &mv).unwrap();
        let seen = visible_board(&g, &board, &after);
        let cfg = InferenceConfig::default();
        let wait = Duration::from_secs(2);
        let t = |s: f64| Duration::from_secs_f64(s);
        let mut w = PersonWatch::default();
        let v = w
            .observe(&g, &board, &st, &seen, t(0.0), wait, &cfg)
            .unwrap();
        let PersonVerdict::AskFinish(msg) = v else {
            panic!("expected to be asked to finish: {v:?}")
        };
        assert!(msg.contains("b(7):sb(7)->c(3,2) |"), "{msg}");
        assert_eq!(w.report_due(wait), Some(t(2.0)));
        assert_eq!(
            w.observe(&g, &board, &st, &seen, t(1.5), wait, &cfg)
                .unwrap(),
            PersonVerdict::Nothing
        );
        let v = w
            .observe(&g, &board, &st, &seen, t(2.0), wait, &cfg)
            .unwrap();
        assert_eq!(
            v,
            PersonVerdict::Play {
                moves: vec![mv],
                text: "b(7):sb(7)->c(3,2)".into(),
                complete: true,
            }
        );
        assert_eq!(after.outcome().winner(), Some(2), "the placement wins");

        // A board that changes while it waits starts the wait again.
        let mut w = PersonWatch::default();
        w.observe(&g, &board, &st, &seen, t(0.0), wait, &cfg)
            .unwrap();
        let before = visible_board(&g, &board, &st);
        w.observe(&g, &board, &st, &before, t(1.0), wait, &cfg)
            .unwrap();
        w.observe(&g, &board, &st, &seen, t(1.5), wait, &cfg)
            .unwrap();
        assert_eq!(
            w.observe(&g, &board, &st, &seen, t(3.0), wait, &cfg)
                .unwrap(),
            PersonVerdict::Nothing
        );
        assert!(matches!(
            w.observe(&g, &board, &st, &seen, t(3.5), wait, &cfg)
                .unwrap(),
            PersonVerdict::Play { complete: true, .. }
        ));
    }

    /// A piece the arm knocked (or dropped) onto a square no move puts it
    /// on, with nothing missing on the board: taken back to the hole it left
    /// in its supply, or, when the camera sees no hole, to an empty spot
    /// where a piece of its kind starts; before any other correction.
    #[test]
    fn a_stray_piece_on_the_board_is_taken_back_to_its_supply() {
        let g = game("tictactoe.game");
        let board = VisionBoard::from_game(&g).unwrap();
        let st = g.initial_state();
        let m = g
            .legal_moves(&st)
            .unwrap()
            .into_iter()
            .find(|m| {
                g.locations[m.to as usize].name == "cell(2,2)"
                    && g.locations[m.from as usize].name == "sx(1)"
            })
            .unwrap();
        let mut after = st.clone();
        g.apply(&mut after, &m).unwrap();
        let seen_with = |stray_from: Option<&str>| {
            let mut pieces: Vec<(String, String, i32, [f64; 2])> = Vec::new();
            for (i, c) in visible_board(&g, &board, &after).iter().enumerate() {
                let name = board.locations[i].name.clone();
                if let Some(c) = c {
                    if Some(name.as_str()) != stray_from {
                        pieces.push((name, board.classes[*c].name.clone(), 1, [0.0, 0.0]));
                    }
                }
            }
            pieces.push(("cell(3,1)".into(), "cross".into(), 1, [5.1, 13.2]));
            seen_of(&board, &pieces)
        };
        // Knocked out of sx(3): back into that hole.
        let c = check(&g, &board, &after, &seen_with(Some("sx(3)")), false);
        assert_eq!(c.changes.len(), 1, "{:?}", c.changes);
        assert_eq!(c.corrections.len(), 1, "{:?}", c.corrections);
        let k = &c.corrections[0];
        assert_eq!(
            (k.from_location.as_str(), k.from_cm, k.to_location.as_str()),
            ("cell(3,1)", [5.1, 13.2], "sx(3)")
        );
        assert_eq!(k.element_type, "cross");
        assert!(c.uncorrectable.is_empty());
        // No hole seen (an extra piece): to the empty spot a cross starts on.
        let c = check(&g, &board, &after, &seen_with(None), false);
        assert_eq!(c.corrections.len(), 1, "{:?}", c.corrections);
        assert_eq!(c.corrections[0].to_location, "sx(1)");
        assert_eq!(c.corrections[0].element, "x(1)");
    }

    /// A capture that slipped on its way to the bin: the board is right, the
    /// bin the position fills is seen empty, and a piece of its kind lies on
    /// no location — it goes to the bin. A stray with no hole to go to is no
    /// reason to hold a move back.
    #[test]
    fn a_piece_on_no_location_goes_to_the_hole_of_its_kind() {
        let g = game("tictactoe.game");
        let board = VisionBoard::from_game(&g).unwrap();
        let st = g.initial_state();
        let seen_with = |hole: Option<&str>| {
            let mut pieces: Vec<(String, String, i32, [f64; 2])> = Vec::new();
            for (i, c) in visible_board(&g, &board, &st).iter().enumerate() {
                if let Some(c) = c {
                    let name = board.locations[i].name.clone();
                    if Some(name.as_str()) != hole {
                        pieces.push((name, board.classes[*c].name.clone(), 1, [0.0, 0.0]));
                    }
                }
            }
            pieces.push((String::new(), "cross".into(), 1, [-10.0, 15.0]));
            seen_of(&board, &pieces)
        };
        let c = check(&g, &board, &st, &seen_with(Some("sx(2)")), false);
        assert_eq!(c.changes.len(), 1, "{:?}", c.changes);
        assert_eq!(c.changes[0].location, "sx(2)");
        assert!(!c.confirmed());
        assert_eq!(c.corrections.len(), 1, "{:?}", c.corrections);
        let k = &c.corrections[0];
        assert_eq!(
            (k.from_location.as_str(), k.from_cm, k.to_location.as_str()),
            ("", [-10.0, 15.0], "sx(2)")
        );
        assert_eq!(k.element, "x(2)");
        assert!(c.board_right);
        let c = check(&g, &board, &st, &seen_with(None), false);
        assert!(c.confirmed(), "{:?}", c.changes);
    }

    #[test]
    fn a_piece_seen_off_its_point_is_reseated() {
        let g = game("tictactoe.game");
        let board = VisionBoard::from_game(&g).unwrap();
        let (st, _, after) = first_cross_on(&g, "cell(2,2)");
        // The supplies are seen far from their points (irrelevant: left alone).
        let seen_at = |cm: [f64; 2]| {
            let mut pieces: Vec<(String, String, i32, [f64; 2])> = Vec::new();
            for (i, c) in visible_board(&g, &board, &after).iter().enumerate() {
                if let Some(c) = c {
                    let name = board.locations[i].name.clone();
                    let at = if name == "cell(2,2)" {
                        cm
                    } else {
                        [50.0, 50.0]
                    };
                    pieces.push((name, board.classes[*c].name.clone(), 1, at));
                }
            }
            seen_of(&board, &pieces)
        };
        let robot = |l: LocationId| g.locations[l as usize].robot_cm();
        // cell(2,2)'s point is (0, 18) cm.
        assert!(reseats(&g, &after, &seen_at([0.3, 18.2]), 0.5, &[], &[], robot).is_empty());
        let r = reseats(&g, &after, &seen_at([0.6, 18.0]), 0.5, &[], &[], robot);
        assert_eq!(r.len(), 1, "{r:?}");
        let k = &r[0];
        assert_eq!(
            (k.from_location.as_str(), k.from_cm, k.to_location.as_str()),
            ("cell(2,2)", [0.6, 18.0], "cell(2,2)")
        );
        assert_eq!(k.to_cm, Some([0.0, 18.0, 0.0]));
        assert_eq!(k.element_type, "cross");
        assert!(!k.turn_over);
        // The next move's own locations are left to the move.
        assert!(reseats(
            &g,
            &after,
            &seen_at([0.6, 18.0]),
            0.5,
            &["cell(2,2)"],
            &[],
            robot
        )
        .is_empty());
        // A piece the position does not have there is not the re-seat's business.
        assert!(reseats(&g, &st, &seen_at([0.6, 18.0]), 0.5, &[], &[], robot).is_empty());
    }

    /// Alquerque's captured pieces go to a bin column at x = -13.5 cm, seven
    /// places and a second level on top: a capture put beside a piece in the
    /// bin may nudge it. The tidy-up after the arm's move re-seats the top
    /// piece of the nudged stack (picked at its level), but only near where
    /// the move put pieces down: the bins and pools elsewhere are left alone.
    #[test]
    fn a_bin_piece_nudged_by_a_capture_put_beside_it_is_reseated_at_its_level() {
        let g = game("alquerque.game");
        let board = VisionBoard::from_game(&g).unwrap();
        let loc = |n: &str| g.location_by_name(n).unwrap();
        let robot = |l: LocationId| g.locations[l as usize].robot_cm();
        // Random play until red's eighth capture lies on top of the first.
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let mut st = g.initial_state();
        while st.content(loc("rbin(8)")).is_none() {
            if st.is_over() {
                st = g.initial_state();
            }
            let moves = g.legal_moves(&st).unwrap();
            let m = &moves[rng.gen_range(0..moves.len())];
            g.apply(&mut st, m).unwrap();
        }
        let (bottom, top) = (loc("rbin(1)"), loc("rbin(8)"));
        assert!(st.content(bottom).is_some());
        let top_cm = robot(top).unwrap();
        assert_eq!(robot(bottom).unwrap()[..2], top_cm[..2], "one stack");
        // The camera sees the stack's top piece 6 mm off, on the camera
        // location it gives that spot; everything else where it belongs.
        let spot = board
            .locations
            .iter()
            .find(|c| c.name == "rbin(1)" || c.name == "rbin(8)")
            .unwrap()
            .name
            .clone();
        let off = [top_cm[0] + 0.6, top_cm[1]];
        let mut pieces: Vec<(String, String, i32, [f64; 2])> = Vec::new();
        for (i, c) in visible_board(&g, &board, &st).iter().enumerate() {
            let name = &board.locations[i].name;
            if let (Some(c), Some(l)) = (c, g.location_by_name(name)) {
                let at = robot(l).unwrap();
                let cm = if *name == spot { off } else { [at[0], at[1]] };
                pieces.push((name.clone(), board.classes[*c].name.clone(), 1, cm));
            }
        }
        let seen = seen_of(&board, &pieces);
        // A capture just put into rbin(2), 3 cm along the column.
        let beside = [robot(loc("rbin(2)")).unwrap()];
        let r = reseats(&g, &st, &seen, 0.5, &[], &beside, robot);
        assert_eq!(r.len(), 1, "{r:?}");
        let k = &r[0];
        assert_eq!(
            (k.from_location.as_str(), k.from_cm, k.to_location.as_str()),
            ("rbin(8)", off, "rbin(8)")
        );
        assert_eq!(
            k.element,
            g.elements[st.content(top).unwrap() as usize].name
        );
        assert_eq!(k.to_cm, Some(top_cm));
        assert_eq!(k.from_level_cm, top_cm[2] - robot(bottom).unwrap()[2]);
        assert!(k.from_level_cm > 0.5, "picked at the upper level");
        // Nothing put down near it (a move on the board's far side, or the
        // re-seat before a move): the bin is left alone.
        assert!(reseats(&g, &st, &seen, 0.5, &[], &[], robot).is_empty());
        let far = [robot(loc("p(5,5)")).unwrap()];
        assert!(reseats(&g, &st, &seen, 0.5, &[], &far, robot).is_empty());
        // A stack the next move touches at any level is the move's.
        assert!(reseats(&g, &st, &seen, 0.5, &["rbin(8)"], &beside, robot).is_empty());
        assert!(reseats(&g, &st, &seen, 0.5, &["rbin(1)"], &beside, robot).is_empty());
    }

    #[test]
    fn a_slipped_piece_is_corrected_from_where_it_was_seen() {
        let g = game("tictactoe.game");
        let board = VisionBoard::from_game(&g).unwrap();
        let (st, m, after) = first_cross_on(&g, "cell(2,2)");
        let from = g.locations[m.from as usize].name.clone();
        let cross = board.class_for("cross", 1).unwrap();
        // Expected: the cross on cell(2,2). Seen: the cross on no location, between squares.
        let mut pieces: Vec<(String, String, i32, [f64; 2])> = Vec::new();
        for (i, c) in visible_board(&g, &board, &st).iter().enumerate() {
            if let Some(c) = c {
                let name = board.locations[i].name.clone();
                if name != from {
                    pieces.push((name, board.classes[*c].name.clone(), 1, [0.0, 0.0]));
                }
            }
        }
        pieces.push((String::new(), "cross".into(), 1, [3.0, 21.0]));
        let seen = seen_of(&board, &pieces);
        let c = check(&g, &board, &after, &seen, false);
        assert!(!c.confirmed());
        assert_eq!(c.changes.len(), 1, "{:?}", c.changes);
        assert_eq!(c.corrections.len(), 1);
        let k = &c.corrections[0];
        assert_eq!((k.from_location.as_str(), k.from_cm), ("", [3.0, 21.0]));
        assert_eq!(k.to_location, "cell(2,2)");
        assert_eq!(k.to_cm, Some([0.0, 18.0, 0.0]));
        assert!(c.uncorrectable.is_empty());
        // Nothing seen anywhere but the supply's crosses, where the position
        // has them (single spots, not stacks): uncorrectable, a person must help.
        let seen2 = SeenBoard {
            classes: seen.classes.clone(),
            pieces: seen
                .pieces
                .iter()
                .filter(|p| !p.location.is_empty())
                .cloned()
                .collect(),
        };
        let c = check(&g, &board, &after, &seen2, false);
        assert_eq!(c.uncorrectable, vec!["cell(2,2)".to_string()]);
        // The right board is confirmed.
        let mut ok = seen.classes.clone();
        ok[cam(&board, "cell(2,2)")] = Some(cross);
        let c = check(
            &g,
            &board,
            &after,
            &SeenBoard {
                classes: ok,
                pieces: vec![],
            },
            false,
        );
        assert!(c.confirmed());
    }

    /// The camera sees one piece per stack of pool places: the position's
    /// pieces seen that way are all accounted for; a disc missing from a
    /// square, or from the top of a stack the position fills, is unseen;
    /// one more seen elsewhere (a stray) makes up for one.
    #[test]
    fn pieces_the_camera_misses_are_counted_by_places_not_by_stack_levels() {
        let g = game("reversi6.game");
        let board = VisionBoard::from_game(&g).unwrap();
        let st = g.initial_state();
        let want = visible_board(&g, &board, &st);
        // What the detector reports: one blob per occupied spot.
        let mut pieces: Vec<(String, String, i32, [f64; 2])> = Vec::new();
        let mut spots: Vec<(f64, f64)> = Vec::new();
        for (l, c) in board.locations.iter().zip(&want) {
            let Some(c) = c else { continue };
            if spots.iter().any(|q| same_spot(*q, l.px)) {
                continue;
            }
            spots.push(l.px);
            let class = &board.classes[*c];
            pieces.push((l.name.clone(), class.name.clone(), class.state, [0.0, 0.0]));
        }
        assert!(
            board.locations.iter().filter(|l| l.stacked).count() > spots.len() / 2,
            "reversi's pool is stacked"
        );
        let all = seen_of(&board, &pieces);
        assert_eq!(all.pieces.len(), spots.len());
        assert_eq!(unseen_pieces(&board, &want, &all), 0);
        // A disc missing from a centre square.
        let square = pieces
            .iter()
            .position(|p| g.location_by_name(&p.0).is_some_and(|l| g.is_relevant(l)))
            .unwrap();
        let mut fewer = pieces.clone();
        fewer.remove(square);
        assert_eq!(unseen_pieces(&board, &want, &seen_of(&board, &fewer)), 1);
        // And the top of a pool stack.
        let pool = fewer.iter().position(|p| p.0.starts_with("pool")).unwrap();
        fewer.remove(pool);
        assert_eq!(unseen_pieces(&board, &want, &seen_of(&board, &fewer)), 2);
        // A stray seen on no location is not missing.
        fewer.push((String::new(), "disc".into(), 1, [-20.0, 20.0]));
        assert_eq!(unseen_pieces(&board, &want, &seen_of(&board, &fewer)), 1);
    }

    /// Reversi: the arm's disc never reached its square (it went for a pool
    /// slot that was empty), and every disc in sight in the pool shows the
    /// other colour. With a turn-over station it is taken through it; without
    /// one nobody can correct it.
    #[test]
    fn a_spare_disc_showing_the_other_side_goes_through_the_station() {
        let g = game("reversi6.game");
        let board = VisionBoard::from_game(&g).unwrap();
        let st = g.initial_state();
        let m = g.legal_moves(&st).unwrap().into_iter().next().unwrap();
        let mut after = st.clone();
        g.apply(&mut after, &m).unwrap();
        let target = g.locations[m.to as usize].name.clone();
        let placed = after.content(m.to).unwrap();
        assert_eq!(after.element_state(placed), 1, "player 1 places blue up");
        // A pool slot the position says is empty, showing a yellow disc.
        let want = visible_board(&g, &board, &after);
        let slot = board
            .locations
            .iter()
            .enumerate()
            .find(|(i, l)| !l.relevant && l.name.starts_with("pool") && want[*i].is_none())
            .map(|(_, l)| l.name.clone())
            .unwrap();
        // The pool as the position has it: the missing disc may lie under
        // the top of any pool column (the person took from another stack
        // than the rules say), so one is taken from a pool place.
        let seen_as_expected = SeenBoard::from_pieces(
            &board,
            want.iter()
                .enumerate()
                .filter(|(i, c)| c.is_some() && board.locations[*i].name != target)
                .map(|(i, c)| {
                    let class = &board.classes[c.unwrap()];
                    (
                        board.locations[i].name.as_str(),
                        class.name.as_str(),
                        class.state,
                        [0.0, 0.0],
                    )
                }),
        );
        let c = check(&g, &board, &after, &seen_as_expected, false);
        assert!(c.uncorrectable.is_empty(), "{c:?}");
        assert_eq!(c.corrections.len(), 1, "{:?}", c.corrections);
        assert!(c.corrections[0].from_location.starts_with("pool"));
        assert!(!c.corrections[0].turn_over);
        // Every disc in the pool shows yellow.
        let mut pieces: Vec<(String, String, i32, [f64; 2])> = Vec::new();
        for (i, c) in want.iter().enumerate() {
            let name = board.locations[i].name.clone();
            if let (Some(c), false) = (c, name == target) {
                let class = &board.classes[*c];
                let state = if name.starts_with("pool") {
                    2
                } else {
                    class.state
                };
                pieces.push((name, class.name.clone(), state, [0.0, 0.0]));
            }
        }
        pieces.push((slot.clone(), "disc".into(), 2, [-13.5, 30.0]));
        let seen = seen_of(&board, &pieces);
        let c = check(&g, &board, &after, &seen, false);
        assert_eq!(c.uncorrectable, vec![target.clone()]);
        let c = check(&g, &board, &after, &seen, true);
        assert!(c.uncorrectable.is_empty(), "{c:?}");
        assert_eq!(c.corrections.len(), 1, "{:?}", c.corrections);
        let k = &c.corrections[0];
        assert!(k.from_location.starts_with("pool"), "{k:?}");
        assert_eq!(
            (k.to_location.as_str(), k.turn_over),
            (target.as_str(), true)
        );
        assert_eq!(k.element, g.elements[placed as usize].name);
        // A spare showing the wanted side is preferred to turning one over.
        pieces.push((String::new(), "disc".into(), 1, [-10.0, 25.0]));
        let seen = seen_of(&board, &pieces);
        let c = check(&g, &board, &after, &seen, true);
        assert_eq!(c.corrections.len(), 1, "{:?}", c.corrections);
        assert_eq!(
            (
                c.corrections[0].from_location.as_str(),
                c.corrections[0].turn_over
            ),
            ("", false)
        );
    }
}
