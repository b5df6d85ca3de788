//! `alphabeta`: negamax with alpha-beta pruning, iterative deepening, a
//! transposition table keyed by the Zobrist hash, and move ordering (TT move,
//! two killer moves per ply, history heuristic). Budget: a fixed depth, a time,
//! a node count, or any combination (whichever ends first; the last completed
//! depth decides, or the current one if its first move — the previous best — was
//! searched completely). Values as in [`crate::minimax`].

use crate::control::{Limits, SearchControl};
use crate::error::{AiError, Result};
use crate::minimax::{Evaluator, DISCOUNT};
use crate::spec::{AlphaBetaOpts, Spec};
use crate::stats::{Considered, Decision, SearchStats};
use crate::worker::Worker;
use crate::{ensure_running, Strategy};
use gamebot_rules::{EquivalenceKey, Game, Move, State};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rustc_hash::FxHashMap;

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;
const NO_MOVE: u16 = u16::MAX;
/// Table depth of a subtree searched to the end of the game: exact at any depth.
const SOLVED: i16 = i16::MAX;
/// Iterative deepening never goes deeper than this.
const MAX_DEPTH: u32 = 128;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    value: f64,
    depth: i16,
    flag: u8,
    generation: u8,
    best: u16,
}

/// A fixed-size transposition table, one entry per slot; a slot is replaced
/// by a search at least as deep, or when its entry is from an older move.
struct Table {
    entries: Vec<Entry>,
    mask: usize,
    generation: u8,
}

impl Table {
    fn new(mb: usize) -> Table {
        let n = (mb << 20) / std::mem::size_of::<Entry>();
        let n = n.next_power_of_two() >> usize::from(!n.is_power_of_two());
        Table {
            entries: vec![Entry::default(); n.max(1024)],
            mask: n.max(1024) - 1,
            generation: 0,
        }
    }
    fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[key as usize & self.mask];
        (e.flag != 0 && e.key == key).then_some(e)
    }
    fn store(&mut self, key: u64, depth: i32, value: f64, flag: u8, best: u16) {
        let slot = &mut self.entries[key as usize & self.mask];
        if slot.flag == 0
            || slot.key == key
            || slot.generation != self.generation
            || depth as i16 >= slot.depth
        {
            *slot = Entry {
                key,
                value,
                depth: depth as i16,
                flag,
                generation: self.generation,
                best,
            };
        }
    }
    fn used(&self) -> u64 {
        self.entries
            .iter()
            .filter(|e| e.flag != 0 && e.generation == self.generation)
            .count() as u64
    }
}

/// The alpha-beta player. Its transposition table and history survive between
/// moves of a game.
pub struct AlphaBeta {
    opts: AlphaBetaOpts,
    table: Option<Table>,
    history: FxHashMap<EquivalenceKey, u64>,
    rng: ChaCha8Rng,
}

impl AlphaBeta {
    /// An alpha-beta player with these options.
    pub fn new(opts: AlphaBetaOpts) -> AlphaBeta {
        AlphaBeta {
            rng: ChaCha8Rng::seed_from_u64(opts.seed.unwrap_or(0)),
            opts,
            table: None,
            history: FxHashMap::default(),
        }
    }
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

struct Search<'g, 'a> {
    w: Worker<'g>,
    ev: Evaluator,
    limits: Limits,
    max_nodes: Option<u64>,
    table: &'a mut Table,
    history: &'a mut FxHashMap<EquivalenceKey, u64>,
    killers: Vec<[Option<EquivalenceKey>; 2]>,
    /// Mixed into every table key: values are from the searching player's view.
    root_key: u64,
    nodes: u64,
    aborted: bool,
    /// A running position was evaluated at the horizon in this iteration.
    horizon: bool,
}

impl Search<'_, '_> {
    fn stop(&mut self) -> bool {
        if !self.aborted && (self.limits.stop() || self.max_nodes.is_some_and(|n| self.nodes >= n))
        {
            self.aborted = true;
        }
        self.aborted
    }

    fn key(&self, st: &State) -> u64 {
        st.hash() ^ self.root_key
    }

    /// Orders `moves` in place: TT move, killers, then history; stable otherwise.
    fn order(&self, st: &State, moves: &mut [Move], tt_best: u16, ply: usize) {
        let game = self.w.game;
        let killers = self.killers.get(ply).copied().unwrap_or([None, None]);
        let mut keyed: Vec<(u64, usize)> = moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let k = game.equivalence_key(st, m);
                let score = if i == tt_best as usize {
                    u64::MAX
                } else if killers[0] == Some(k) {
                    u64::MAX - 2
                } else if killers[1] == Some(k) {
                    u64::MAX - 3
                } else {
                    self.history.get(&k).copied().unwrap_or(0).min(u64::MAX - 4)
                };
                (score, i)
            })
            .collect();
        keyed.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let orig: Vec<Move> = moves.to_vec();
        for (slot, (_, i)) in moves.iter_mut().zip(keyed) {
            *slot = orig[i].clone();
        }
    }

    /// Negamax value of `st` for its side to move (fail-soft); `mover` made the
    /// last move, `ext` turn extensions are left.
    #[allow(clippy::too_many_arguments)]
    fn ab(
        &mut self,
        st: &State,
        mut depth: i32,
        ply: usize,
        mut alpha: f64,
        beta: f64,
        mover: i32,
        mut ext: u32,
    ) -> Result<f64> {
        self.nodes += 1;
        if self.stop() {
            return Ok(0.0);
        }
        if st.is_over() {
            return Ok(self.ev.terminal(st));
        }
        if depth <= 0 && st.player() == mover && ext > 0 {
            depth = 1;
            ext -= 1;
        }
        if depth <= 0 {
            self.horizon = true;
            return self.ev.leaf(&mut self.w, st);
        }
        let key = self.key(st);
        let mut tt_best = NO_MOVE;
        if let Some(e) = self.table.probe(key) {
            tt_best = e.best;
            if e.depth as i32 >= depth {
                let cut = match e.flag {
                    EXACT => true,
                    LOWER => e.value >= beta,
                    UPPER => e.value <= alpha,
                    _ => false,
                };
                if cut {
                    // Only a subtree searched to its end is exact at any depth.
                    self.horizon |= e.depth != SOLVED;
                    return Ok(e.value);
                }
            }
        }
        // Generation order identifies moves in the table (it is deterministic).
        let generated = self.w.moves(st)?;
        if generated.is_empty() {
            return Ok(0.0); // stuck: a draw (§7.11)
        }
        let outer_horizon = std::mem::replace(&mut self.horizon, false);
        let mut moves = generated.clone();
        if (tt_best as usize) >= moves.len() {
            tt_best = NO_MOVE;
        }
        self.order(st, &mut moves, tt_best, ply);
        let side = self.ev.side(st);
        let alpha0 = alpha;
        let mut best = f64::NEG_INFINITY;
        let mut best_mv: Option<&Move> = None;
        for mv in &moves {
            let c = self.w.child(st, mv)?;
            let v = if self.ev.side(&c) == side {
                DISCOUNT
                    * self.ab(
                        &c,
                        depth - 1,
                        ply + 1,
                        alpha / DISCOUNT,
                        beta / DISCOUNT,
                        st.player(),
                        ext,
                    )?
            } else {
                -DISCOUNT
                    * self.ab(
                        &c,
                        depth - 1,
                        ply + 1,
                        -beta / DISCOUNT,
                        -alpha / DISCOUNT,
                        st.player(),
                        ext,
                    )?
            };
            if self.aborted {
                return Ok(0.0);
            }
            if v > best {
                best = v;
                best_mv = Some(mv);
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                let k = self.w.game.equivalence_key(st, mv);
                if self.killers.len() <= ply {
                    self.killers.resize(ply + 1, [None, None]);
                }
                let ks = &mut self.killers[ply];
                if ks[0] != Some(k) {
                    ks[1] = ks[0];
                    ks[0] = Some(k);
                }
                *self.history.entry(k).or_insert(0) += (depth * depth) as u64;
                break;
            }
        }
        let flag = if best <= alpha0 {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        let best_index = best_mv
            .and_then(|b| generated.iter().position(|m| m == b))
            .map_or(NO_MOVE, |i| i as u16);
        let stored_depth = if self.horizon { depth } else { SOLVED as i32 };
        self.table.store(key, stored_depth, best, flag, best_index);
        self.horizon |= outer_horizon;
        Ok(best)
    }

    /// The expected line from `st`, following the table's best moves.
    fn pv(&mut self, st: &State, first: &Move, max: u32) -> Result<Vec<String>> {
        let game = self.w.game;
        let mut out = vec![game.move_text(first)];
        let mut s = self.w.child(st, first)?;
        let mut seen = vec![st.hash()];
        while (out.len() as u32) < max && !s.is_over() && !seen.contains(&s.hash()) {
            seen.push(s.hash());
            let Some(e) = self.table.probe(self.key(&s)) else {
                break;
            };
            let moves = self.w.moves(&s)?;
            let Some(m) = moves.get(e.best as usize) else {
                break;
            };
            out.push(game.move_text(m));
            s = self.w.child(&s, m)?;
        }
        Ok(out)
    }
}

impl Strategy for AlphaBeta {
    fn spec(&self) -> Spec {
        Spec::AlphaBeta(self.opts.clone())
    }

    fn choose(&mut self, game: &Game, state: &State, ctl: &SearchControl) -> Result<Decision> {
        ensure_running(state)?;
        let strategy = self.spec().to_string();
        let o = &self.opts;
        let max_depth = match o.depth {
            Some(d) => d.min(MAX_DEPTH),
            None if o.time.is_some() || o.nodes.is_some() => MAX_DEPTH,
            None => AlphaBetaOpts::DEFAULT_DEPTH,
        };
        let table = self.table.get_or_insert_with(|| Table::new(o.tt_mb));
        table.generation = table.generation.wrapping_add(1);
        // Old history still orders well, but should not dominate the new position.
        self.history.values_mut().for_each(|v| *v /= 4);
        let ev = Evaluator::new(game, o.heuristic, o.scale, state.player())?;
        let me = state.player();
        let mut s = Search {
            w: Worker::new(game),
            ev,
            limits: Limits::new(o.time, &ctl.cancel),
            max_nodes: o.nodes,
            table,
            history: &mut self.history,
            killers: Vec::new(),
            root_key: mix(0xab00 ^ state.player() as u64),
            nodes: 1,
            aborted: false,
            horizon: false,
        };
        let mut moves = s.w.moves(state)?;
        if moves.is_empty() {
            return Err(AiError::NoMove(
                "the player to move has no legal move".into(),
            ));
        }
        if moves.len() == 1 && o.time.is_some() {
            // A forced move: keep the time for the moves that need it.
            let mut stats = SearchStats {
                strategy: strategy.clone(),
                threads: 1,
                nodes: 1,
                pv: vec![game.move_text(&moves[0])],
                seconds: s.limits.elapsed().as_secs_f64(),
                ..Default::default()
            };
            stats.considered = vec![Considered {
                mv: stats.pv[0].clone(),
                value: 0.0,
                visits: 1,
                bound: false,
                proven: false,
            }];
            return Ok(Decision {
                mv: moves.swap_remove(0),
                stats,
            });
        }
        if o.seed.is_some() {
            moves.shuffle(&mut self.rng);
        }
        // (move, value, nodes, exact) from the last completed iteration.
        let mut root: Vec<(Move, f64, u64, bool)> =
            moves.iter().map(|m| (m.clone(), 0.0, 0, false)).collect();
        let mut best: Option<(Move, f64)> = None;
        let mut stats = SearchStats {
            strategy: strategy.clone(),
            threads: 1,
            ..Default::default()
        };
        let reused = s.table.used();
        for depth in 1..=max_depth {
            if let (Some(t), Some(_)) = (o.time, &best) {
                // The next depth would very likely not finish in the remaining time.
                if s.limits.elapsed().as_secs_f64() > 0.6 * t.as_secs_f64() {
                    break;
                }
            }
            s.horizon = false;
            let mut alpha = f64::NEG_INFINITY;
            let mut iter_best: Option<(usize, f64)> = None;
            let mut results = root.clone();
            for (i, r) in results.iter_mut().enumerate() {
                let before = s.nodes;
                let c = s.w.child(state, &r.0)?;
                let v = if s.ev.side(&c) == 1.0 {
                    DISCOUNT
                        * s.ab(
                            &c,
                            depth as i32 - 1,
                            1,
                            alpha / DISCOUNT,
                            f64::INFINITY,
                            me,
                            o.ext,
                        )?
                } else {
                    -DISCOUNT
                        * s.ab(
                            &c,
                            depth as i32 - 1,
                            1,
                            f64::NEG_INFINITY,
                            -alpha / DISCOUNT,
                            me,
                            o.ext,
                        )?
                };
                if s.aborted {
                    break;
                }
                let improved = v > alpha;
                *r = (r.0.clone(), v, s.nodes - before, improved || i == 0);
                if improved {
                    alpha = v;
                    iter_best = Some((i, v));
                }
            }
            if s.aborted {
                // The first move of an iteration is the previous best: if it and
                // possibly better ones were searched, their result stands.
                if let Some((i, v)) = iter_best {
                    best = Some((results[i].0.clone(), v));
                }
                break;
            }
            let (bi, bv) = iter_best.expect("a completed iteration has a best move");
            best = Some((results[bi].0.clone(), bv));
            // Best first, then the others by their (bound) values; ties keep order.
            let best_entry = results.remove(bi);
            results.sort_by(|a, b| b.1.total_cmp(&a.1));
            results.insert(0, best_entry);
            root = results;
            stats.depth = depth;
            stats.iterations = depth as u64;
            stats.value = bv;
            stats.pv = s.pv(state, &root[0].0, depth)?;
            stats.nodes = s.nodes;
            stats.seconds = s.limits.elapsed().as_secs_f64();
            ctl.report(&stats);
            if !s.horizon {
                stats.complete = true;
                break; // the whole game tree was searched
            }
            if bv.abs() > 0.5 {
                break; // a forced result within this depth; deeper cannot change it
            }
        }
        let (mv, value) = best.unwrap_or_else(|| (root[0].0.clone(), 0.0));
        if stats.pv.first().is_none_or(|p| *p != game.move_text(&mv)) {
            stats.pv = vec![game.move_text(&mv)];
        }
        stats.value = value;
        stats.nodes = s.nodes;
        stats.reused = reused;
        stats.seconds = s.limits.elapsed().as_secs_f64();
        stats.considered = root
            .iter()
            .map(|(m, v, n, exact)| Considered {
                mv: game.move_text(m),
                value: *v,
                visits: *n,
                bound: !*exact,
                proven: false,
            })
            .collect();
        Ok(Decision { mv, stats })
    }
}
