//! `mcts`: Monte Carlo tree search with UCT.
//!
//! - Selection by UCB1 (`c` is the exploration constant, rewards are 1 win,
//!   ½ draw, 0 loss for the player who made the move into a node, so games
//!   with any number of players and players who move twice work);
//! - expansion of one random untried move per iteration, branching on the
//!   distinct moves of a position (§7.5);
//! - a uniformly random playout (cut after `limit` moves, counted as a draw);
//!   with `cutoff=N` the playout stops after N moves and the heuristic judges
//!   the position instead (reward ½ + the squashed value, in (0.1, 0.9), per
//!   player), which pays off when playouts are expensive and the game file has
//!   a good `[EVALUATION]`; `cutoff=0` evaluates the new leaf directly
//!   (its moves are not generated: a stuck leaf is found, and proven a draw,
//!   when it is first expanded);
//! - proven results: a decided position is a proven result, a position where
//!   the player to move has a move to a proven win is a proven win, and one whose
//!   moves are all proven is proven with the best of them ("MCTS-Solver"); a
//!   proven root ends the search early, and proven losses are never chosen;
//! - tree reuse: the subtree of the position reached two plies later (or one)
//!   is kept for the next move;
//! - root parallelism: `threads` independent trees, each with its own random
//!   generator (seeded from `seed` and its index), searched on a rayon pool and
//!   merged by summing the root moves' visits. With an iteration budget the
//!   result depends only on the seed, the iterations and the threads.

use crate::control::{Limits, SearchControl};
use crate::error::{AiError, Result};
use crate::heuristic::{squash, Heuristic};
use crate::spec::{MctsOpts, Spec};
use crate::stats::{Considered, Decision, SearchStats};
use crate::worker::Worker;
use crate::{ensure_running, Strategy};
use gamebot_rules::{ElementId, Game, LocationId, Move, Outcome, State};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::time::{Duration, Instant};

const NONE: u32 = u32::MAX;
/// `proven` of a node whose result is not known.
const UNKNOWN: i32 = -2;
/// The trees of one player together stop growing at about this much memory
/// (they keep searching, playing out from their leaves).
const TREE_MEMORY: usize = 1 << 30;

struct Node {
    mv: Option<Move>,
    parent: u32,
    state: State,
    /// The player who made `mv` (0 at the root).
    mover: i32,
    children: Vec<u32>,
    /// Moves not expanded yet; `None` until the node's moves are generated.
    untried: Option<Vec<Move>>,
    visits: u32,
    /// Sum of the rewards for `mover`.
    reward: f64,
    /// The winner under perfect play if known (0 draw), else [`UNKNOWN`].
    proven: i32,
}

impl Node {
    fn new(state: State, mv: Option<Move>, parent: u32, mover: i32) -> Node {
        let proven = match state.outcome() {
            Outcome::Running => UNKNOWN,
            Outcome::Draw => 0,
            Outcome::Won(p) => p,
        };
        Node {
            mv,
            parent,
            state,
            mover,
            children: Vec::new(),
            untried: None,
            visits: 0,
            reward: 0.0,
            proven,
        }
    }
}

/// Each player's reward for a running position by the heuristic: ½ + the
/// squashed value, in (0.1, 0.9).
fn judge(w: &mut Worker<'_>, st: &State, (h, scale): (Heuristic, f64)) -> Result<Vec<f64>> {
    let mut r = h.raw_each(w, st)?;
    for v in &mut r {
        *v = 0.5 + squash(*v, scale);
    }
    Ok(r)
}

#[inline]
fn reward(winner: i32, player: i32) -> f64 {
    if winner == player {
        1.0
    } else if winner == 0 {
        0.5
    } else {
        0.0
    }
}

/// One search tree with its own random generator.
struct Tree {
    nodes: Vec<Node>,
    /// Most nodes this tree may hold.
    cap: usize,
    rng: ChaCha8Rng,
    /// This move's counters.
    iterations: u64,
    playouts: u64,
    generated: u64,
    max_depth: u32,
    reused: u64,
    /// The state playouts run on, refilled from the node played out
    /// (`State::clone_from`: no allocation per playout once it exists).
    play: Option<State>,
}

impl Tree {
    fn new(seed: u64) -> Tree {
        Tree {
            nodes: Vec::new(),
            cap: usize::MAX,
            rng: ChaCha8Rng::seed_from_u64(seed),
            iterations: 0,
            playouts: 0,
            generated: 0,
            max_depth: 0,
            reused: 0,
            play: None,
        }
    }

    /// Makes `state` the root, keeping a matching subtree (root, child or grandchild).
    fn set_root(&mut self, state: &State, reuse: bool) {
        self.iterations = 0;
        self.playouts = 0;
        self.generated = 0;
        self.max_depth = 0;
        self.reused = 0;
        let mut found = None;
        if reuse && !self.nodes.is_empty() {
            if self.nodes[0].state == *state {
                found = Some(0);
            } else {
                'search: for &c in &self.nodes[0].children {
                    if self.nodes[c as usize].state == *state {
                        found = Some(c);
                        break;
                    }
                    for &g in &self.nodes[c as usize].children {
                        if self.nodes[g as usize].state == *state {
                            found = Some(g);
                            break 'search;
                        }
                    }
                }
            }
        }
        match found {
            Some(0) => {}
            Some(r) => self.reroot(r),
            None => {
                self.nodes.clear();
                self.nodes.push(Node::new(state.clone(), None, NONE, 0));
            }
        }
        self.reused = self.nodes.len() as u64 - 1;
    }

    /// Keeps only the subtree of node `r`, renumbered with `r` as the root.
    fn reroot(&mut self, r: u32) {
        let mut order = vec![r];
        let mut k = 0;
        while k < order.len() {
            order.extend_from_slice(&self.nodes[order[k] as usize].children);
            k += 1;
        }
        let mut map = vec![NONE; self.nodes.len()];
        for (new, &old) in order.iter().enumerate() {
            map[old as usize] = new as u32;
        }
        let mut slots: Vec<Option<Node>> = std::mem::take(&mut self.nodes)
            .into_iter()
            .map(Some)
            .collect();
        let mut nodes = Vec::with_capacity(order.len());
        for &old in &order {
            let mut n = slots[old as usize].take().expect("each node is taken once");
            n.parent = if old == r {
                NONE
            } else {
                map[n.parent as usize]
            };
            for c in &mut n.children {
                *c = map[*c as usize];
            }
            nodes.push(n);
        }
        nodes[0].mv = None;
        nodes[0].mover = 0;
        self.nodes = nodes;
    }

    fn root_proven(&self) -> bool {
        self.nodes[0].proven != UNKNOWN
    }

    /// Runs iterations until `target` (this move's iterations) is reached, the
    /// slice ends, the search is stopped, or the root is proven.
    fn run(
        &mut self,
        game: &Game,
        o: &MctsOpts,
        target: Option<u64>,
        until: Instant,
        eval: Option<(Heuristic, f64)>,
        limits: &Limits,
    ) -> Result<()> {
        let mut w = Worker::new(game);
        let result = (|| {
            while !self.root_proven()
                && target.is_none_or(|t| self.iterations < t)
                && Instant::now() < until
                && !limits.stop()
            {
                self.iterate(&mut w, o, eval, limits)?;
            }
            Ok(())
        })();
        self.generated += w.nodes;
        result
    }

    fn iterate(
        &mut self,
        w: &mut Worker<'_>,
        o: &MctsOpts,
        eval: Option<(Heuristic, f64)>,
        limits: &Limits,
    ) -> Result<()> {
        // Selection and expansion.
        let mut i = 0usize;
        let mut depth = 0u32;
        loop {
            if self.nodes[i].proven != UNKNOWN {
                break;
            }
            if self.nodes[i].untried.is_none() {
                let mut moves = w.moves(&self.nodes[i].state)?;
                if moves.is_empty() {
                    // Stuck: the game ends as a draw (§7.11).
                    self.nodes[i].proven = 0;
                    self.nodes[i].untried = Some(moves);
                    self.propagate_proof(i);
                    break;
                }
                moves.shuffle(&mut self.rng);
                self.nodes[i].untried = Some(moves);
            }
            let can_grow = self.nodes.len() < self.cap;
            if let Some(mv) =
                self.nodes[i]
                    .untried
                    .as_mut()
                    .and_then(|u| if can_grow { u.pop() } else { None })
            {
                let st = w.child(&self.nodes[i].state, &mv)?;
                let mover = self.nodes[i].state.player();
                let c = self.nodes.len();
                self.nodes.push(Node::new(st, Some(mv), i as u32, mover));
                self.nodes[i].children.push(c as u32);
                i = c;
                depth += 1;
                if self.nodes[c].proven != UNKNOWN {
                    self.propagate_proof(c);
                }
                break;
            }
            if !self.nodes[i].untried.as_ref().is_some_and(|u| u.is_empty())
                || self.nodes[i].children.is_empty()
            {
                break; // the tree is full: play out from here
            }
            i = self.select(i, o.c);
            depth += 1;
        }
        self.max_depth = self.max_depth.max(depth);
        // Simulation: a decided result, or per-player rewards from the heuristic.
        let mut judged: Option<Vec<f64>> = None;
        let plies = o.cutoff.unwrap_or(o.limit);
        let winner = if self.nodes[i].proven != UNKNOWN {
            self.nodes[i].proven
        } else if let (0, Some(ev)) = (plies, eval) {
            // `cutoff=0`: the new leaf is judged as it is. Whether its player
            // is stuck (a draw, §7.11) is found when it is expanded, as for
            // any node: a playout of no moves would generate the leaf's moves
            // only to ask that, a whole generation an iteration (38 % of the
            // instructions on reversi 8×8) for leaves most of which are never
            // expanded.
            self.playouts += 1;
            judged = Some(judge(w, &self.nodes[i].state, ev)?);
            0
        } else {
            let from = &self.nodes[i].state;
            let s = match &mut self.play {
                Some(s) => {
                    s.clone_from(from);
                    s
                }
                None => self.play.insert(from.clone()),
            };
            let finished = w.playout(s, &mut self.rng, plies, &limits.cancel)?;
            self.playouts += 1;
            if finished {
                match s.outcome() {
                    Outcome::Won(p) => p,
                    _ => 0,
                }
            } else {
                if let Some(ev) = eval {
                    judged = Some(judge(w, s, ev)?);
                }
                0
            }
        };
        // Backpropagation.
        let mut j = i as u32;
        while j != NONE {
            let n = &mut self.nodes[j as usize];
            n.visits += 1;
            n.reward += match &judged {
                Some(r) if n.mover > 0 => r[n.mover as usize - 1],
                _ => reward(winner, n.mover),
            };
            j = n.parent;
        }
        self.iterations += 1;
        Ok(())
    }

    /// The child of `i` with the best UCB1 value; proven losses are avoided and
    /// proven results count with their exact value.
    fn select(&self, i: usize, c: f64) -> usize {
        let n = &self.nodes[i];
        let me = n.state.player();
        let ln = (n.visits.max(1) as f64).ln();
        let mut best = n.children[0] as usize;
        let mut best_v = f64::NEG_INFINITY;
        for &ch in &n.children {
            let k = &self.nodes[ch as usize];
            let v = if k.proven != UNKNOWN {
                let r = reward(k.proven, me);
                if r == 0.0 {
                    -1.0 // a proven loss: only if nothing else is left
                } else {
                    r
                }
            } else {
                k.reward / k.visits as f64 + c * (ln / k.visits as f64).sqrt()
            };
            if v > best_v {
                best_v = v;
                best = ch as usize;
            }
        }
        best
    }

    /// Node `j` was just proven: prove its ancestors where that decides them.
    fn propagate_proof(&mut self, mut j: usize) {
        while self.nodes[j].parent != NONE {
            let p = self.nodes[j].parent as usize;
            if self.nodes[p].proven != UNKNOWN {
                return;
            }
            let me = self.nodes[p].state.player();
            let result = if self.nodes[j].proven == me {
                me
            } else {
                let complete = self.nodes[p].untried.as_ref().is_some_and(|u| u.is_empty());
                if !complete {
                    return;
                }
                let mut best = UNKNOWN;
                for &c in &self.nodes[p].children {
                    let r = self.nodes[c as usize].proven;
                    if r == UNKNOWN {
                        return;
                    }
                    if best == UNKNOWN || reward(r, me) > reward(best, me) {
                        best = r;
                    }
                }
                best
            };
            self.nodes[p].proven = result;
            j = p;
        }
    }

    /// The expected line after root move `c`, following the most visited children.
    fn line(&self, game: &Game, c: usize, max: usize) -> Vec<String> {
        let mut out = Vec::new();
        let mut i = c;
        loop {
            if let Some(m) = &self.nodes[i].mv {
                out.push(game.move_text(m));
            }
            if out.len() >= max {
                break;
            }
            let Some(&next) = self.nodes[i]
                .children
                .iter()
                .max_by_key(|&&k| self.nodes[k as usize].visits)
            else {
                break;
            };
            if self.nodes[next as usize].visits < 2 {
                break;
            }
            i = next as usize;
        }
        out
    }
}

/// The MCTS player. Its trees (and rayon pool) live between moves of a game.
pub struct Mcts {
    opts: MctsOpts,
    trees: Vec<Tree>,
    pool: Option<rayon::ThreadPool>,
}

impl Mcts {
    /// An MCTS player with these options.
    pub fn new(opts: MctsOpts) -> Mcts {
        let seed = opts.seed.unwrap_or(0);
        let trees = (0..opts.threads as u64)
            .map(|t| Tree::new(seed ^ t.wrapping_mul(0x9e37_79b9_7f4a_7c15)))
            .collect();
        Mcts {
            opts,
            trees,
            pool: None,
        }
    }
}

/// Root moves merged over the trees: (element, from, to) identifies a move.
struct Merged {
    mv: Move,
    visits: u64,
    reward: f64,
    proven: i32,
    /// (tree, node) with the most visits, for the principal variation.
    best_at: (usize, usize, u32),
}

fn move_id(m: &Move) -> (ElementId, LocationId, LocationId) {
    (m.element, m.from, m.to)
}

impl Strategy for Mcts {
    fn spec(&self) -> Spec {
        Spec::Mcts(self.opts.clone())
    }

    fn choose(&mut self, game: &Game, state: &State, ctl: &SearchControl) -> Result<Decision> {
        ensure_running(state)?;
        let o = self.opts.clone();
        let limits = Limits::new(o.time, &ctl.cancel);
        let me = state.player();
        let eval = match o.cutoff {
            Some(_) => {
                let h = o.heuristic.resolve(game)?;
                Some((h, o.scale.unwrap_or_else(|| h.default_scale())))
            }
            None => None,
        };
        let mut stats = SearchStats {
            strategy: self.spec().to_string(),
            threads: o.threads,
            ..Default::default()
        };
        // A forced move needs no thought.
        let first_legal = {
            let mut w = Worker::new(game);
            let moves = w.moves(state)?;
            match moves.len() {
                0 => {
                    return Err(AiError::NoMove(
                        "the player to move has no legal move".into(),
                    ))
                }
                1 => {
                    stats.nodes = 1;
                    stats.pv = vec![game.move_text(&moves[0])];
                    stats.seconds = limits.elapsed().as_secs_f64();
                    return Ok(Decision {
                        mv: moves[0].clone(),
                        stats,
                    });
                }
                _ => moves[0].clone(),
            }
        };
        // A node holds a copy of its position: bound the trees by memory.
        let node_bytes = std::mem::size_of::<Node>()
            + state.element_count() * 16
            + state.location_count() * 2
            + state.scores().len() * 4
            + 128;
        let cap = TREE_MEMORY / self.trees.len() / node_bytes;
        for t in &mut self.trees {
            t.set_root(state, o.reuse);
            t.cap = cap;
        }
        let total = match (o.iterations, o.time) {
            (Some(i), _) => Some(i),
            (None, Some(_)) => None,
            (None, None) => Some(MctsOpts::DEFAULT_ITERATIONS),
        };
        let n = self.trees.len() as u64;
        let targets: Vec<Option<u64>> = (0..n)
            .map(|k| total.map(|t| t / n + u64::from(k < t % n)))
            .collect();
        if self.pool.is_none() && self.trees.len() > 1 {
            self.pool = Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(self.trees.len())
                    .thread_name(|i| format!("mcts-{i}"))
                    .build()
                    .map_err(|e| AiError::Unsupported(format!("cannot start MCTS threads: {e}")))?,
            );
        }
        loop {
            let slice_end = Instant::now() + Duration::from_millis(100);
            let until = limits.deadline.map_or(slice_end, |d| d.min(slice_end));
            let run = |(t, target): (&mut Tree, &Option<u64>)| {
                t.run(game, &o, *target, until, eval, &limits)
            };
            match &self.pool {
                Some(pool) => pool.install(|| {
                    self.trees
                        .par_iter_mut()
                        .zip(targets.par_iter())
                        .map(run)
                        .collect::<Result<Vec<()>>>()
                })?,
                None => self
                    .trees
                    .iter_mut()
                    .zip(targets.iter())
                    .map(run)
                    .collect::<Result<Vec<()>>>()?,
            };
            let proven = self.trees.iter().any(|t| t.root_proven());
            let done = self
                .trees
                .iter()
                .zip(&targets)
                .all(|(t, target)| target.is_some_and(|x| t.iterations >= x));
            self.summarise(game, me, &limits, &mut stats);
            if proven || done || limits.stop() {
                break;
            }
            ctl.report(&stats);
        }
        let mv = match self.best_move(me) {
            Some(best) => {
                let mv = crate::translate(game, &self.trees[0].nodes[0].state, &best.mv, state)?;
                if let Some(first) = stats.pv.first_mut() {
                    *first = game.move_text(&mv);
                }
                mv
            }
            // Stopped before the first iteration: any legal move is the best so far.
            None => {
                stats.pv = vec![game.move_text(&first_legal)];
                first_legal
            }
        };
        Ok(Decision { mv, stats })
    }
}

impl Mcts {
    fn merged(&self) -> Vec<Merged> {
        let mut out: Vec<Merged> = Vec::new();
        for (ti, t) in self.trees.iter().enumerate() {
            for &c in &t.nodes[0].children {
                let node = &t.nodes[c as usize];
                let mv = node.mv.as_ref().expect("children have moves");
                let id = move_id(mv);
                match out.iter_mut().find(|m| move_id(&m.mv) == id) {
                    Some(m) => {
                        m.visits += node.visits as u64;
                        m.reward += node.reward;
                        if node.proven != UNKNOWN {
                            m.proven = node.proven;
                        }
                        if node.visits > m.best_at.2 {
                            m.best_at = (ti, c as usize, node.visits);
                        }
                    }
                    None => out.push(Merged {
                        mv: mv.clone(),
                        visits: node.visits as u64,
                        reward: node.reward,
                        proven: node.proven,
                        best_at: (ti, c as usize, node.visits),
                    }),
                }
            }
        }
        out
    }

    /// A proven win if there is one (the most visited), else the most visited
    /// move that is not a proven loss; `None` before the root has children.
    fn best_move(&self, me: i32) -> Option<Merged> {
        let mut merged = self.merged();
        let rank = |m: &Merged| -> (u8, u64) {
            let class = match m.proven {
                UNKNOWN => 2,
                p if p == me => 3,
                0 => 2,
                _ => 0,
            };
            (class, m.visits)
        };
        merged.sort_by(|a, b| rank(b).cmp(&rank(a)).then(b.reward.total_cmp(&a.reward)));
        (!merged.is_empty()).then(|| merged.swap_remove(0))
    }

    fn summarise(&self, game: &Game, me: i32, limits: &Limits, stats: &mut SearchStats) {
        stats.iterations = self.trees.iter().map(|t| t.iterations).sum();
        stats.playouts = self.trees.iter().map(|t| t.playouts).sum();
        stats.nodes = self.trees.iter().map(|t| t.generated).sum();
        stats.depth = self.trees.iter().map(|t| t.max_depth).max().unwrap_or(0);
        stats.reused = self.trees.iter().map(|t| t.reused).sum();
        stats.complete = self.trees.iter().any(|t| t.root_proven());
        stats.seconds = limits.elapsed().as_secs_f64();
        let Some(best) = self.best_move(me) else {
            return;
        };
        let mut merged = self.merged();
        merged.sort_by_key(|m| std::cmp::Reverse(m.visits));
        let value_of = |m: &Merged| -> f64 {
            if m.proven != UNKNOWN {
                2.0 * reward(m.proven, me) - 1.0
            } else if m.visits > 0 {
                2.0 * m.reward / m.visits as f64 - 1.0
            } else {
                0.0
            }
        };
        stats.considered = merged
            .iter()
            .map(|m| Considered {
                mv: game.move_text(&m.mv),
                value: value_of(m),
                visits: m.visits,
                bound: false,
                proven: m.proven != UNKNOWN,
            })
            .collect();
        stats.value = value_of(&best);
        let (ti, node, _) = best.best_at;
        stats.pv = self.trees[ti].line(game, node, 32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewards() {
        assert_eq!(reward(1, 1), 1.0);
        assert_eq!(reward(0, 1), 0.5);
        assert_eq!(reward(2, 1), 0.0);
    }

    #[test]
    fn iteration_split_covers_total() {
        for (total, n) in [(20000u64, 3u64), (7, 2), (1, 4)] {
            let sum: u64 = (0..n).map(|k| total / n + u64::from(k < total % n)).sum();
            assert_eq!(sum, total);
        }
    }
}
