//! Single-agent search for puzzles: depth-first, breadth-first and A*.
//!
//! The solver is the player to move in the start position; a solution is a
//! sequence of moves after which the solver has won. Positions are identified
//! by their Zobrist hash (checked against the stored state), so every position
//! is expanded at most once (A* re-opens a position only when it finds a
//! cheaper path to it). A decided position that is not a win for the solver (a
//! draw, e.g. a stuck puzzle or a burnt-out torch) is a dead end.

use crate::control::{Limits, SearchControl, Ticker};
use crate::error::{AiError, Result};
use crate::spec::{Cost, PuzzleHeuristic, PuzzleKind, PuzzleOpts, Spec};
use crate::stats::{Decision, SearchStats};
use crate::worker::Worker;
use crate::{ensure_running, texts, Strategy};
use gamebot_rules::{Game, Move, Outcome, State};
use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::time::Duration;

/// The result of [`solve`].
#[derive(Clone, Debug)]
pub struct Solution {
    /// A solution was found.
    pub solved: bool,
    /// The solution's moves (empty if none, or if the start is already solved).
    pub moves: Vec<Move>,
    /// Its cost under the search's cost model (moves, or score change).
    pub cost: i64,
    /// Positions expanded (moves generated).
    pub expanded: u64,
    /// Positions generated (moves applied).
    pub generated: u64,
    /// Every reachable position was examined, so "no solution" is a proof.
    pub exhausted: bool,
    /// Seconds spent.
    pub seconds: f64,
}

/// A successor: the move, the position it leads to, its step cost.
type Child = (Move, State, i64);

struct PNode {
    state: State,
    parent: u32,
    mv: Option<Move>,
    g: i64,
    h: i64,
    depth: u32,
    closed: bool,
}

struct Search<'g, 'c> {
    w: Worker<'g>,
    opts: &'c PuzzleOpts,
    ctl: &'c SearchControl<'c>,
    limits: Limits,
    ticker: Ticker,
    solver: i32,
    nodes: Vec<PNode>,
    seen: FxHashMap<u64, u32>,
    expanded: u64,
    generated: u64,
    heuristic: PuzzleHeuristic,
}

/// Searches for a solution from `start` with the given options.
pub fn solve(
    game: &Game,
    start: &State,
    opts: &PuzzleOpts,
    ctl: &SearchControl,
) -> Result<Solution> {
    ensure_running(start)?;
    let heuristic = match opts.heuristic {
        PuzzleHeuristic::Auto if opts.kind == PuzzleKind::Astar => {
            if game.has_evaluation(start.player()) {
                PuzzleHeuristic::Eval
            } else {
                PuzzleHeuristic::Zero
            }
        }
        PuzzleHeuristic::Eval => {
            if !game.has_evaluation(start.player()) {
                return Err(AiError::Heuristic {
                    heuristic: "eval".into(),
                    game: game.name.clone(),
                    message: format!("no [EVALUATION] record for player {}", start.player()),
                });
            }
            PuzzleHeuristic::Eval
        }
        _ => PuzzleHeuristic::Zero,
    };
    let mut s = Search {
        w: Worker::new(game),
        opts,
        ctl,
        limits: Limits::new(opts.time, &ctl.cancel),
        ticker: Ticker::new(Duration::from_millis(100)),
        solver: start.player(),
        nodes: Vec::new(),
        seen: FxHashMap::default(),
        expanded: 0,
        generated: 0,
        heuristic,
    };
    let h = s.h(start)?;
    s.add(start.clone(), u32::MAX, None, 0, h);
    let found = if start.outcome() == Outcome::Won(s.solver) {
        Some((0, true))
    } else {
        match opts.kind {
            PuzzleKind::Bfs => s.bfs()?,
            PuzzleKind::Dfs => s.dfs()?,
            PuzzleKind::Astar => s.astar()?,
        }
    };
    let (solved, exhausted, moves, cost) = match found {
        Some((i, true)) => {
            let mut moves = Vec::new();
            let mut j = i;
            while let Some(m) = s.nodes[j as usize].mv.clone() {
                moves.push(m);
                j = s.nodes[j as usize].parent;
            }
            moves.reverse();
            (true, false, moves, s.nodes[i as usize].g)
        }
        Some((_, false)) => (false, true, Vec::new(), 0),
        None => (false, false, Vec::new(), 0),
    };
    Ok(Solution {
        solved,
        moves,
        cost,
        expanded: s.expanded,
        generated: s.generated,
        exhausted,
        seconds: s.limits.elapsed().as_secs_f64(),
    })
}

impl<'g, 'c> Search<'g, 'c> {
    fn h(&mut self, st: &State) -> Result<i64> {
        if self.heuristic != PuzzleHeuristic::Eval || st.is_over() {
            return Ok(0);
        }
        let v = self
            .w
            .game
            .evaluate(st, self.solver, &mut self.w.sc)?
            .unwrap_or(0);
        Ok((-(v as i64)).max(0))
    }

    fn add(&mut self, state: State, parent: u32, mv: Option<Move>, g: i64, h: i64) -> u32 {
        let i = self.nodes.len() as u32;
        let depth = if parent == u32::MAX {
            0
        } else {
            self.nodes[parent as usize].depth + 1
        };
        self.seen.insert(state.hash(), i);
        self.nodes.push(PNode {
            state,
            parent,
            mv,
            g,
            h,
            depth,
            closed: false,
        });
        i
    }

    /// The stored node for a position, if seen. A different position with the
    /// same 64-bit hash (astronomically unlikely) is treated as seen.
    fn lookup(&self, st: &State) -> Option<Option<u32>> {
        let &i = self.seen.get(&st.hash())?;
        Some((self.nodes[i as usize].state == *st).then_some(i))
    }

    fn step_cost(&self, from: &State, to: &State) -> Result<i64> {
        let p = self.solver as usize - 1;
        let d = to.scores()[p] as i64 - from.scores()[p] as i64;
        match self.opts.cost {
            Cost::Moves => Ok(1),
            Cost::Score if d >= 0 => Ok(d),
            Cost::NegScore if d <= 0 => Ok(-d),
            Cost::Score => Err(AiError::Unsupported(format!(
                "cost=score needs a score that never decreases, but a move lowered it by {}; try cost=-score",
                -d
            ))),
            Cost::NegScore => Err(AiError::Unsupported(format!(
                "cost=-score needs a score that never increases, but a move raised it by {d}; try cost=score"
            ))),
        }
    }

    /// Whether to stop now (limits); reports progress on the way.
    fn stop(&mut self) -> bool {
        if self.ticker.due() && self.ctl.progress.is_some() {
            let st = SearchStats {
                strategy: self.opts_name(),
                nodes: self.expanded,
                seconds: self.limits.elapsed().as_secs_f64(),
                threads: 1,
                ..Default::default()
            };
            self.ctl.report(&st);
        }
        self.expanded >= self.opts.nodes || self.limits.stop()
    }

    fn opts_name(&self) -> String {
        Spec::Puzzle(self.opts.clone()).to_string()
    }

    fn depth_ok(&self, i: u32) -> bool {
        self.opts
            .depth
            .is_none_or(|d| self.nodes[i as usize].depth < d)
    }

    /// Generates the children of node `i` as (move, state, step cost).
    fn children(&mut self, i: u32) -> Result<Vec<Child>> {
        let st = self.nodes[i as usize].state.clone();
        let moves = self.w.moves(&st)?;
        self.expanded += 1;
        let mut out = Vec::with_capacity(moves.len());
        for mv in moves {
            let c = self.w.child(&st, &mv)?;
            self.generated += 1;
            let cost = self.step_cost(&st, &c)?;
            out.push((mv, c, cost));
        }
        Ok(out)
    }

    /// Breadth-first; `Some((goal, true))`, `Some((_, false))` when exhausted, `None` when stopped.
    fn bfs(&mut self) -> Result<Option<(u32, bool)>> {
        let mut queue = VecDeque::from([0u32]);
        let mut truncated = false;
        while let Some(i) = queue.pop_front() {
            if self.stop() {
                return Ok(None);
            }
            if !self.depth_ok(i) {
                truncated = true;
                continue;
            }
            for (mv, c, cost) in self.children(i)? {
                if self.lookup(&c).is_some() {
                    continue;
                }
                let g = self.nodes[i as usize].g + cost;
                let running = !c.is_over();
                let goal = c.outcome() == Outcome::Won(self.solver);
                let j = self.add(c, i, Some(mv), g, 0);
                if goal {
                    return Ok(Some((j, true)));
                }
                if running {
                    queue.push_back(j);
                }
            }
        }
        Ok((!truncated).then_some((0, false)))
    }

    /// Depth-first with a global visited set: finds some solution.
    fn dfs(&mut self) -> Result<Option<(u32, bool)>> {
        let mut stack: Vec<(u32, Vec<Child>)> = Vec::new();
        if self.stop() {
            return Ok(None);
        }
        let mut first = self.children(0)?;
        // Popped from the back: reversed so moves are tried in generation order.
        first.reverse();
        stack.push((0, first));
        let mut truncated = false;
        while let Some((i, kids)) = stack.last_mut() {
            let i = *i;
            let Some((mv, c, cost)) = kids.pop() else {
                stack.pop();
                continue;
            };
            if self.lookup(&c).is_some() {
                continue;
            }
            let g = self.nodes[i as usize].g + cost;
            let running = !c.is_over();
            let goal = c.outcome() == Outcome::Won(self.solver);
            let j = self.add(c, i, Some(mv), g, 0);
            if goal {
                return Ok(Some((j, true)));
            }
            if !running {
                continue;
            }
            if !self.depth_ok(j) {
                truncated = true;
                continue;
            }
            if self.stop() {
                return Ok(None);
            }
            let mut kids = self.children(j)?;
            kids.reverse();
            stack.push((j, kids));
        }
        Ok((!truncated).then_some((0, false)))
    }

    /// A*: goal test when a position is taken from the open list, so the first
    /// solution is a cheapest one if the heuristic never overestimates.
    fn astar(&mut self) -> Result<Option<(u32, bool)>> {
        // (f, prefer deeper g, insertion order) — smallest first.
        let mut open: BinaryHeap<Reverse<(i64, i64, u64, u32)>> = BinaryHeap::new();
        let mut seq = 0u64;
        open.push(Reverse((self.nodes[0].h, 0, seq, 0)));
        let mut truncated = false;
        while let Some(Reverse((_, neg_g, _, i))) = open.pop() {
            let n = &self.nodes[i as usize];
            if n.closed || -neg_g != n.g {
                continue; // stale entry
            }
            if n.state.outcome() == Outcome::Won(self.solver) {
                return Ok(Some((i, true)));
            }
            self.nodes[i as usize].closed = true;
            if !self.depth_ok(i) {
                truncated = true;
                continue;
            }
            if self.stop() {
                return Ok(None);
            }
            let g0 = self.nodes[i as usize].g;
            for (mv, c, cost) in self.children(i)? {
                let g = g0 + cost;
                let dead = c.is_over() && c.outcome() != Outcome::Won(self.solver);
                let j = match self.lookup(&c) {
                    Some(Some(j)) => {
                        let depth = self.nodes[i as usize].depth + 1;
                        let n = &mut self.nodes[j as usize];
                        if g >= n.g {
                            continue;
                        }
                        // A cheaper path to a known position: re-open it.
                        n.g = g;
                        n.parent = i;
                        n.mv = Some(mv);
                        n.closed = false;
                        n.depth = depth;
                        j
                    }
                    Some(None) => continue,
                    None => {
                        let h = self.h(&c)?;
                        self.add(c, i, Some(mv), g, h)
                    }
                };
                if dead {
                    continue;
                }
                seq += 1;
                let f = g + self.nodes[j as usize].h;
                open.push(Reverse((f, -g, seq, j)));
            }
        }
        Ok((!truncated).then_some((0, false)))
    }
}

/// `dfs`, `bfs`, `astar` as a player: solves once, then follows the plan while
/// the positions are the expected ones (re-solving otherwise). In games with
/// opponents it plans as if it made every move (an optimistic plan).
pub struct PuzzlePlayer {
    opts: PuzzleOpts,
    plan: VecDeque<(State, Move)>,
}

impl PuzzlePlayer {
    /// A puzzle solver with these options.
    pub fn new(opts: PuzzleOpts) -> PuzzlePlayer {
        PuzzlePlayer {
            opts,
            plan: VecDeque::new(),
        }
    }
}

impl Strategy for PuzzlePlayer {
    fn spec(&self) -> Spec {
        Spec::Puzzle(self.opts.clone())
    }

    fn choose(&mut self, game: &Game, state: &State, ctl: &SearchControl) -> Result<Decision> {
        ensure_running(state)?;
        let opts = self.opts.clone();
        let opts = &opts;
        let mut stats = SearchStats {
            strategy: self.spec().to_string(),
            threads: 1,
            ..Default::default()
        };
        if self.plan.front().is_none_or(|(s, _)| s != state) {
            self.plan.clear();
            let sol = solve(game, state, opts, ctl)?;
            stats.nodes = sol.expanded;
            stats.seconds = sol.seconds;
            stats.complete = sol.solved || sol.exhausted;
            if sol.solved {
                let mut s = state.clone();
                for m in sol.moves {
                    let next = {
                        let mut n = s.clone();
                        game.apply(&mut n, &m)?;
                        n
                    };
                    self.plan.push_back((s, m));
                    s = next;
                }
            } else if sol.exhausted {
                stats.value = -1.0;
            }
        } else {
            stats.reused = self.plan.len() as u64;
        }
        let moves: Vec<Move> = self.plan.iter().map(|(_, m)| m.clone()).collect();
        stats.pv = texts(game, &moves);
        stats.depth = moves.len() as u32;
        let mv = match self.plan.pop_front() {
            Some((seen, m)) => {
                stats.value = 0.99f64.powi(moves.len() as i32);
                crate::translate(game, &seen, &m, state)?
            }
            None => {
                // No plan: play the first move so the game goes on.
                let legal = game.legal_moves(state)?;
                let m = game
                    .distinct_moves(state, &legal)
                    .into_iter()
                    .next()
                    .ok_or_else(|| {
                        AiError::NoMove("the player to move has no legal move".into())
                    })?;
                stats.pv = vec![game.move_text(&m)];
                m
            }
        };
        Ok(Decision { mv, stats })
    }
}
