//! The `gamebot_ai` strategies for GDL games.
//!
//! `gamebot_ai`'s searches are written against `gamebot_rules::Game` (one player
//! to move, moves with followups, equivalence classes), so rather than bending
//! that crate, this module is a GDL adapter that reuses its vocabulary: the
//! same strategy strings ([`Spec`]), [`SearchControl`] (cancellation, progress),
//! and [`SearchStats`]. Every GDL move is joint (one move per role); the
//! strategies are:
//!
//! - `random` — a uniformly random legal move;
//! - `mc` — flat Monte Carlo: random playouts after each own move (others random);
//! - `mcts` — decoupled UCT: every node keeps separate UCB statistics per role
//!   and per move; each role selects its own move, the joint move picks the child.
//!   Turn-taking games are the special case where the other roles have one move
//!   (`noop`); simultaneous games are searched as such, not sequentialised;
//! - `alphabeta`, `minimax` — depth-limited paranoid search for the role to
//!   play: own move maximised, the joint replies of the others minimised (in a
//!   simultaneous state the others are assumed to answer knowing our move),
//!   with a transposition table and iterative deepening;
//! - `bfs`, `dfs`, `astar` — single-agent search for one-role games (a path to
//!   the best terminal goal; `astar` has no heuristic in GDL and runs as uniform cost = bfs).
//!
//! Goals 0..100 map to the AI's values −1..1 (`g / 50 − 1`); in multi-role
//! games the search value is `(own goal − best other goal) / 100`.

use crate::error::{GdlError, Result};
use crate::game::{Game, Move, Scratch, State};
use gamebot_ai::{Considered, SearchControl, SearchStats, Spec};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// A decision: the move for the role and how it was found.
#[derive(Clone, Debug)]
pub struct GdlDecision {
    pub mv: Move,
    pub stats: SearchStats,
}

/// A GDL player: chooses the move of `role` in `state`. Instances may keep
/// state between moves of one game; use a fresh instance per game.
pub trait GdlStrategy: Send {
    fn spec(&self) -> &Spec;
    fn choose(
        &mut self,
        game: &Game,
        state: &State,
        role: usize,
        ctl: &SearchControl,
    ) -> Result<GdlDecision>;
}

/// Builds the GDL strategy of a spec.
pub fn build(spec: &Spec) -> Box<dyn GdlStrategy> {
    let seed = match spec {
        Spec::Random(o) => o.seed,
        Spec::Minimax(o) => o.seed,
        Spec::AlphaBeta(o) => o.seed,
        Spec::Mc(o) => o.seed,
        Spec::Mcts(o) => o.seed,
        Spec::Puzzle(_) => None,
    };
    Box::new(Player {
        spec: spec.clone(),
        rng: ChaCha8Rng::seed_from_u64(seed.unwrap_or(0)),
    })
}

/// Parses a strategy string (as `gamebot_ai`) and builds the GDL strategy.
pub fn strategy(text: &str) -> Result<Box<dyn GdlStrategy>> {
    let spec: Spec = text
        .parse()
        .map_err(|e: gamebot_ai::AiError| GdlError::Strategy(e.to_string()))?;
    Ok(build(&spec))
}

/// A goal as the AI's value: 0 -> −1, 50 -> 0, 100 -> 1.
pub fn goal_value(g: u8) -> f64 {
    g as f64 / 50.0 - 1.0
}

/// Search value of a goal vector for role `me`.
fn utility(goals: &[f64], me: usize) -> f64 {
    if goals.len() == 1 {
        return goals[0] / 50.0 - 1.0;
    }
    let other = goals
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != me)
        .map(|(_, g)| *g)
        .fold(f64::NEG_INFINITY, f64::max);
    (goals[me] - other) / 100.0
}

struct Player {
    spec: Spec,
    rng: ChaCha8Rng,
}

/// Deadline and cancellation.
struct Limits<'a> {
    deadline: Option<Instant>,
    ctl: &'a SearchControl<'a>,
}

impl<'a> Limits<'a> {
    fn new(time: Option<Duration>, ctl: &'a SearchControl<'a>) -> Limits<'a> {
        let start = Instant::now();
        Limits {
            deadline: time.map(|t| start + t),
            ctl,
        }
    }
    fn stop(&self) -> bool {
        self.ctl.cancel.is_cancelled() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Simulation helper: one scratch and buffers.
pub(crate) struct Sim<'g> {
    pub game: &'g Game,
    pub sc: Scratch,
    buf: Vec<u32>,
    choice: Vec<u32>,
    goals: Vec<Option<u8>>,
    pub nodes: u64,
}

impl<'g> Sim<'g> {
    pub fn new(game: &'g Game) -> Sim<'g> {
        Sim {
            game,
            sc: game.scratch(),
            buf: Vec::new(),
            choice: Vec::new(),
            goals: Vec::new(),
            nodes: 0,
        }
    }

    /// Goals of the loaded state (missing goals count 50).
    fn loaded_goals(&mut self) -> Vec<f64> {
        self.game.loaded_goals(&mut self.sc, &mut self.goals);
        self.goals.iter().map(|g| g.unwrap_or(50) as f64).collect()
    }

    /// Legal move indices per role of the loaded state; `None` when terminal or a role is stuck.
    fn loaded_moves(&mut self) -> Option<Vec<Vec<u32>>> {
        if self.game.loaded_terminal(&self.sc) {
            return None;
        }
        let mut all = Vec::with_capacity(self.game.roles().len());
        for r in 0..self.game.roles().len() {
            self.game.loaded_legal(&self.sc, r, &mut self.buf);
            if self.buf.is_empty() {
                return None;
            }
            all.push(self.buf.clone());
        }
        Some(all)
    }

    /// Random joint moves from `st` until the end or `limit` steps; the goals (0..100) reached.
    pub fn playout(&mut self, mut st: State, rng: &mut impl Rng, limit: usize) -> Vec<f64> {
        let n = self.game.roles().len();
        for _ in 0..=limit {
            self.game.load_state(&st, &mut self.sc);
            self.nodes += 1;
            if self.game.loaded_terminal(&self.sc) {
                break;
            }
            self.choice.clear();
            let mut stuck = false;
            for r in 0..n {
                self.game.loaded_legal(&self.sc, r, &mut self.buf);
                if self.buf.is_empty() {
                    stuck = true;
                    break;
                }
                self.choice.push(self.buf[rng.gen_range(0..self.buf.len())]);
            }
            if stuck {
                break;
            }
            let choice = std::mem::take(&mut self.choice);
            st = self.game.loaded_next(&mut self.sc, &choice);
            self.choice = choice;
        }
        self.loaded_goals()
    }

    fn child(&mut self, st: &State, choice: &[u32]) -> State {
        self.game.load_state(st, &mut self.sc);
        self.game.loaded_next(&mut self.sc, choice)
    }
}

impl GdlStrategy for Player {
    fn spec(&self) -> &Spec {
        &self.spec
    }

    fn choose(
        &mut self,
        game: &Game,
        state: &State,
        role: usize,
        ctl: &SearchControl,
    ) -> Result<GdlDecision> {
        if role >= game.roles().len() {
            return Err(GdlError::Strategy(format!("no role {role}")));
        }
        let mut sim = Sim::new(game);
        game.load_state(state, &mut sim.sc);
        let Some(moves) = sim.loaded_moves() else {
            return Err(GdlError::NoMove(
                "the game is over or a role has no legal move".into(),
            ));
        };
        let start = Instant::now();
        let mut stats = SearchStats {
            strategy: self.spec.to_string(),
            threads: 1,
            ..Default::default()
        };
        let pick = if moves[role].len() == 1 {
            // Forced.
            stats.considered.push(Considered {
                mv: game.move_text(game.move_of(role, moves[role][0])),
                value: 0.0,
                visits: 0,
                bound: false,
                proven: false,
            });
            moves[role][0]
        } else {
            match self.spec.clone() {
                Spec::Random { .. } => moves[role][self.rng.gen_range(0..moves[role].len())],
                Spec::Mc(o) => mc(
                    &mut sim,
                    state,
                    role,
                    &moves,
                    &o,
                    ctl,
                    &mut self.rng,
                    &mut stats,
                ),
                Spec::Mcts(o) => duct(&mut sim, state, role, &o, ctl, &mut self.rng, &mut stats),
                Spec::AlphaBeta(o) => {
                    let mut s = Paranoid::new(&mut sim, role, o.tt_mb, o.nodes, ctl, o.time);
                    s.run(state, &moves, o.depth, &mut self.rng, &mut stats)
                }
                Spec::Minimax(o) => {
                    let mut s = Paranoid::new(&mut sim, role, 16, None, ctl, None);
                    s.run(state, &moves, Some(o.depth), &mut self.rng, &mut stats)
                }
                Spec::Puzzle(o) => puzzle(&mut sim, state, &o, ctl, &mut stats)?,
            }
        };
        stats.nodes += sim.nodes;
        stats.seconds = start.elapsed().as_secs_f64();
        let mv = game.move_of(role, pick);
        if stats.pv.is_empty() {
            stats.pv.push(game.move_text(mv));
        }
        Ok(GdlDecision { mv, stats })
    }
}

#[allow(clippy::too_many_arguments)]
fn mc(
    sim: &mut Sim,
    state: &State,
    role: usize,
    moves: &[Vec<u32>],
    o: &gamebot_ai::McOpts,
    ctl: &SearchControl,
    rng: &mut ChaCha8Rng,
    stats: &mut SearchStats,
) -> u32 {
    let limits = Limits::new(o.time, ctl);
    let playouts = o.playouts();
    let k = moves[role].len();
    let mut n = vec![0u64; k];
    let mut sum = vec![0f64; k];
    let mut choice = vec![0u32; moves.len()];
    'outer: loop {
        for i in 0..k {
            if n[i] >= playouts || limits.stop() {
                break 'outer;
            }
            for (r, ms) in moves.iter().enumerate() {
                choice[r] = if r == role {
                    ms[i]
                } else {
                    ms[rng.gen_range(0..ms.len())]
                };
            }
            let child = sim.child(state, &choice);
            let g = sim.playout(child, rng, o.limit);
            sum[i] += utility(&g, role);
            n[i] += 1;
            stats.playouts += 1;
        }
        if o.time.is_none() && n.iter().all(|&x| x >= playouts) {
            break;
        }
    }
    let mean = |i: usize| {
        if n[i] == 0 {
            f64::NEG_INFINITY
        } else {
            sum[i] / n[i] as f64
        }
    };
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by(|&a, &b| mean(b).total_cmp(&mean(a)));
    stats.considered = order
        .iter()
        .map(|&i| Considered {
            mv: sim.game.move_text(sim.game.move_of(role, moves[role][i])),
            value: if n[i] == 0 { 0.0 } else { mean(i) },
            visits: n[i],
            bound: false,
            proven: false,
        })
        .collect();
    stats.value = stats.considered.first().map_or(0.0, |c| c.value);
    moves[role][order[0]]
}

/// A node of the decoupled UCT tree.
struct Node {
    state: State,
    /// Legal move indices per role; `None` at a terminal (or stuck) state.
    moves: Option<Vec<Vec<u32>>>,
    goals: Vec<f64>,
    visits: u32,
    /// Per role, per move: (visits, sum of values in −1..1).
    stats: Vec<Vec<(u32, f64)>>,
    children: FxHashMap<u64, u32>,
}

/// Most nodes a tree may hold.
const MAX_NODES: usize = 400_000;

fn new_node(sim: &mut Sim, state: State) -> Node {
    sim.game.load_state(&state, &mut sim.sc);
    sim.nodes += 1;
    let moves = sim.loaded_moves();
    let goals = if moves.is_none() {
        sim.loaded_goals()
    } else {
        Vec::new()
    };
    let stats = moves
        .as_ref()
        .map(|m| m.iter().map(|x| vec![(0u32, 0f64); x.len()]).collect())
        .unwrap_or_default();
    Node {
        state,
        moves,
        goals,
        visits: 0,
        stats,
        children: FxHashMap::default(),
    }
}

fn duct(
    sim: &mut Sim,
    state: &State,
    role: usize,
    o: &gamebot_ai::MctsOpts,
    ctl: &SearchControl,
    rng: &mut ChaCha8Rng,
    stats: &mut SearchStats,
) -> u32 {
    let limits = Limits::new(o.time, ctl);
    let iterations = o
        .iterations
        .unwrap_or(if o.time.is_some() { u64::MAX } else { 10_000 });
    let nroles = sim.game.roles().len();
    let mut tree: Vec<Node> = vec![new_node(sim, state.clone())];
    let mut path: Vec<(u32, Vec<usize>)> = Vec::new();
    let mut last_report = Instant::now();
    let mut it = 0u64;
    while it < iterations && !(it > 0 && limits.stop()) {
        it += 1;
        path.clear();
        let mut cur = 0u32;
        let values: Vec<f64>;
        loop {
            let node = &tree[cur as usize];
            let Some(moves) = &node.moves else {
                values = node.goals.iter().map(|&g| g / 50.0 - 1.0).collect();
                break;
            };
            // Each role picks its own move by UCB1 on its own statistics.
            let mut pick = Vec::with_capacity(nroles);
            let ln = ((node.visits.max(1)) as f64).ln();
            for r in 0..nroles {
                let st = &node.stats[r];
                let unvisited: Vec<usize> = (0..st.len()).filter(|&i| st[i].0 == 0).collect();
                let i = if !unvisited.is_empty() {
                    unvisited[rng.gen_range(0..unvisited.len())]
                } else {
                    let mut best = 0;
                    let mut bv = f64::NEG_INFINITY;
                    for (i, &(n, s)) in st.iter().enumerate() {
                        let v = s / n as f64 + o.c * (ln / n as f64).sqrt();
                        if v > bv {
                            bv = v;
                            best = i;
                        }
                    }
                    best
                };
                pick.push(i);
            }
            let mut key = 0u64;
            for (r, &i) in pick.iter().enumerate() {
                key = key
                    .wrapping_mul(moves[r].len() as u64 + 1)
                    .wrapping_add(i as u64);
            }
            let choice: Vec<u32> = pick.iter().enumerate().map(|(r, &i)| moves[r][i]).collect();
            path.push((cur, pick));
            if let Some(&c) = node.children.get(&key) {
                cur = c;
                continue;
            }
            let child_state = sim.child(&node.state.clone(), &choice);
            if tree.len() < MAX_NODES {
                let child = new_node(sim, child_state.clone());
                let id = tree.len() as u32;
                let terminal = child.moves.is_none();
                let g = child.goals.clone();
                tree.push(child);
                tree[cur as usize].children.insert(key, id);
                if terminal {
                    values = g.iter().map(|&g| g / 50.0 - 1.0).collect();
                    tree[id as usize].visits += 1;
                    break;
                }
                path.push((id, Vec::new()));
            }
            let g = sim.playout(child_state, rng, o.limit);
            stats.playouts += 1;
            values = g.iter().map(|&g| g / 50.0 - 1.0).collect();
            break;
        }
        stats.depth = stats.depth.max(path.len() as u32);
        for (id, pick) in &path {
            let n = &mut tree[*id as usize];
            n.visits += 1;
            for (r, &i) in pick.iter().enumerate() {
                n.stats[r][i].0 += 1;
                n.stats[r][i].1 += values[r];
            }
        }
        if ctl.progress.is_some() && last_report.elapsed() > Duration::from_millis(100) {
            last_report = Instant::now();
            stats.iterations = it;
            if let Some(f) = ctl.progress {
                f(stats);
            }
        }
    }
    stats.iterations = it;
    let root = &tree[0];
    let moves = root
        .moves
        .as_ref()
        .map(|m| m[role].clone())
        .unwrap_or_default();
    let st = &root.stats[role];
    let mut order: Vec<usize> = (0..moves.len()).collect();
    order.sort_by(|&a, &b| st[b].0.cmp(&st[a].0).then(st[b].1.total_cmp(&st[a].1)));
    stats.considered = order
        .iter()
        .map(|&i| Considered {
            mv: sim.game.move_text(sim.game.move_of(role, moves[i])),
            value: if st[i].0 == 0 {
                0.0
            } else {
                st[i].1 / st[i].0 as f64
            },
            visits: st[i].0 as u64,
            bound: false,
            proven: false,
        })
        .collect();
    stats.value = stats.considered.first().map_or(0.0, |c| c.value);
    moves[order[0]]
}

#[derive(Clone, Copy)]
enum Flag {
    Exact,
    Lower,
    Upper,
}

struct Entry {
    depth: u32,
    value: f64,
    flag: Flag,
    best: u32,
}

/// Paranoid alpha-beta for one role.
struct Paranoid<'s, 'g, 'c> {
    sim: &'s mut Sim<'g>,
    me: usize,
    tt: FxHashMap<u64, Entry>,
    tt_cap: usize,
    node_cap: Option<u64>,
    limits: Limits<'c>,
    aborted: bool,
    horizon: bool,
}

/// Largest number of joint replies enumerated in one state.
const MAX_REPLIES: usize = 4096;

impl<'s, 'g, 'c> Paranoid<'s, 'g, 'c> {
    fn new(
        sim: &'s mut Sim<'g>,
        me: usize,
        tt_mb: usize,
        node_cap: Option<u64>,
        ctl: &'c SearchControl<'c>,
        time: Option<Duration>,
    ) -> Self {
        Paranoid {
            sim,
            me,
            tt: FxHashMap::default(),
            tt_cap: (tt_mb.max(1) << 20) / 48,
            node_cap,
            limits: Limits::new(time, ctl),
            aborted: false,
            horizon: false,
        }
    }

    fn replies(&self, moves: &[Vec<u32>]) -> Vec<Vec<u32>> {
        let mut out: Vec<Vec<u32>> = vec![Vec::new()];
        for (r, ms) in moves.iter().enumerate() {
            if r == self.me {
                for o in &mut out {
                    o.push(u32::MAX);
                }
                continue;
            }
            let mut next = Vec::new();
            'a: for o in &out {
                for &m in ms {
                    let mut x = o.clone();
                    x.push(m);
                    next.push(x);
                    if next.len() >= MAX_REPLIES {
                        break 'a;
                    }
                }
            }
            out = next;
        }
        out
    }

    fn search(&mut self, st: &State, depth: u32, mut alpha: f64, beta: f64, ply: u32) -> f64 {
        self.sim.nodes += 1;
        if self.limits.stop() || self.node_cap.is_some_and(|c| self.sim.nodes >= c) {
            self.aborted = true;
            return 0.0;
        }
        self.sim.game.load_state(st, &mut self.sim.sc);
        let Some(moves) = self.sim.loaded_moves() else {
            let g = self.sim.loaded_goals();
            return utility(&g, self.me) * 0.99f64.powi(ply as i32);
        };
        if depth == 0 {
            self.horizon = true;
            let g = self.sim.loaded_goals();
            return 0.3 * utility(&g, self.me);
        }
        let alpha0 = alpha;
        let mut first = None;
        if let Some(e) = self.tt.get(&st.hash()) {
            if e.depth >= depth {
                match e.flag {
                    Flag::Exact => return e.value,
                    Flag::Lower if e.value >= beta => return e.value,
                    Flag::Upper if e.value <= alpha => return e.value,
                    _ => {}
                }
            }
            first = Some(e.best);
        }
        let mut mine = moves[self.me].clone();
        if let Some(b) = first {
            if let Some(p) = mine.iter().position(|&m| m == b) {
                mine.swap(0, p);
            }
        }
        let replies = self.replies(&moves);
        let mut best = f64::NEG_INFINITY;
        let mut best_move = mine[0];
        for &m in &mine {
            let mut worst = f64::INFINITY;
            for rep in &replies {
                let mut choice = rep.clone();
                choice[self.me] = m;
                let child = self.sim.child(st, &choice);
                let v = self.search(&child, depth - 1, alpha.max(best), worst.min(beta), ply + 1);
                if self.aborted {
                    return 0.0;
                }
                worst = worst.min(v);
                if worst <= alpha.max(best) {
                    break;
                }
            }
            if worst > best {
                best = worst;
                best_move = m;
            }
            alpha = alpha.max(best);
            if best >= beta {
                break;
            }
        }
        let flag = if best <= alpha0 {
            Flag::Upper
        } else if best >= beta {
            Flag::Lower
        } else {
            Flag::Exact
        };
        if self.tt.len() >= self.tt_cap {
            self.tt.clear();
        }
        self.tt.insert(
            st.hash(),
            Entry {
                depth,
                value: best,
                flag,
                best: best_move,
            },
        );
        best
    }

    fn run(
        &mut self,
        state: &State,
        moves: &[Vec<u32>],
        max_depth: Option<u32>,
        rng: &mut ChaCha8Rng,
        stats: &mut SearchStats,
    ) -> u32 {
        let max_depth = max_depth.unwrap_or(if self.limits.deadline.is_some() {
            200
        } else {
            6
        });
        let mut root: Vec<u32> = moves[self.me].clone();
        root.shuffle(rng);
        let replies = self.replies(moves);
        let mut chosen = root[0];
        for depth in 1..=max_depth.max(1) {
            self.horizon = false;
            let mut scored: Vec<(u32, f64, bool)> = Vec::new();
            let mut alpha = f64::NEG_INFINITY;
            for &m in &root {
                let mut worst = f64::INFINITY;
                for rep in &replies {
                    let mut choice = rep.clone();
                    choice[self.me] = m;
                    let child = self.sim.child(state, &choice);
                    let v = self.search(&child, depth - 1, alpha, worst, 1);
                    if self.aborted {
                        break;
                    }
                    worst = worst.min(v);
                    if worst <= alpha {
                        break;
                    }
                }
                if self.aborted {
                    break;
                }
                let bound = worst <= alpha;
                scored.push((m, worst, bound));
                if !bound {
                    alpha = alpha.max(worst);
                }
            }
            if self.aborted {
                break;
            }
            scored.sort_by(|a, b| a.2.cmp(&b.2).then(b.1.total_cmp(&a.1)));
            chosen = scored[0].0;
            // Search the best move first next time.
            root.sort_by_key(|m| scored.iter().position(|s| s.0 == *m));
            stats.depth = depth;
            stats.iterations = depth as u64;
            stats.value = scored[0].1;
            stats.considered = scored
                .iter()
                .map(|&(m, v, b)| Considered {
                    mv: self.sim.game.move_text(self.sim.game.move_of(self.me, m)),
                    value: v,
                    visits: 0,
                    bound: b,
                    proven: false,
                })
                .collect();
            self.limits.ctl.report(stats);
            if !self.horizon {
                stats.complete = true;
                break;
            }
        }
        chosen
    }
}

trait Report {
    fn report(&self, s: &SearchStats);
}
impl Report for SearchControl<'_> {
    fn report(&self, s: &SearchStats) {
        if let Some(f) = self.progress {
            f(s);
        }
    }
}

/// Single-agent search: the first move of a shortest path to the best terminal goal.
fn puzzle(
    sim: &mut Sim,
    state: &State,
    o: &gamebot_ai::PuzzleOpts,
    ctl: &SearchControl,
    stats: &mut SearchStats,
) -> Result<u32> {
    if sim.game.roles().len() != 1 {
        return Err(GdlError::Strategy(
            "bfs, dfs and astar play one-role games".into(),
        ));
    }
    let limits = Limits::new(o.time, ctl);
    let dfs = o.kind == gamebot_ai::PuzzleKind::Dfs;
    // Parent links: state index -> (parent index, move index).
    let mut states: Vec<State> = vec![state.clone()];
    let mut parent: Vec<(u32, u32)> = vec![(u32::MAX, 0)];
    let mut depth: Vec<u32> = vec![0];
    let mut seen: FxHashSet<State> = FxHashSet::default();
    seen.insert(state.clone());
    let mut frontier: VecDeque<u32> = VecDeque::from([0]);
    let mut best: Option<(u32, f64)> = None;
    let mut expanded = 0u64;
    while let Some(i) = if dfs {
        frontier.pop_back()
    } else {
        frontier.pop_front()
    } {
        if limits.stop() || expanded >= o.nodes {
            break;
        }
        let st = states[i as usize].clone();
        sim.game.load_state(&st, &mut sim.sc);
        sim.nodes += 1;
        let Some(moves) = sim.loaded_moves() else {
            let g = sim.loaded_goals()[0];
            if i != 0 && best.is_none_or(|(_, b)| g > b) {
                best = Some((i, g));
                if g >= 100.0 {
                    break;
                }
            }
            continue;
        };
        expanded += 1;
        if o.depth.is_some_and(|d| depth[i as usize] >= d) {
            continue;
        }
        for &m in &moves[0] {
            let c = sim.child(&st, &[m]);
            if seen.insert(c.clone()) {
                states.push(c);
                parent.push((i, m));
                depth.push(depth[i as usize] + 1);
                frontier.push_back(states.len() as u32 - 1);
            }
        }
    }
    let Some((mut i, g)) = best else {
        return Err(GdlError::NoMove(format!(
            "no terminal state found within {expanded} expansions"
        )));
    };
    let mut path = Vec::new();
    while parent[i as usize].0 != u32::MAX {
        path.push(parent[i as usize].1);
        i = parent[i as usize].0;
    }
    path.reverse();
    stats.depth = path.len() as u32;
    stats.value = g / 50.0 - 1.0;
    stats.complete = frontier.is_empty() || g >= 100.0;
    stats.pv = path
        .iter()
        .map(|&m| sim.game.move_text(sim.game.move_of(0, m)))
        .collect();
    Ok(path[0])
}
