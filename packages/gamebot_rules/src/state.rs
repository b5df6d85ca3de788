//! The game state (§6): a compact value that is cheap to clone, compare and hash.

use crate::model::{ElementId, LocationId};
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

/// Marks an empty location.
pub const NO_ELEMENT: u16 = u16::MAX;

/// How a game stands: still running, drawn, or won by a player.
///
/// The ROS messages carry it as an integer ([`Outcome::code`]: −1 running,
/// 0 draw, n the winner); convert with [`Outcome::from_code`] at that edge only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Running,
    Draw,
    /// Won by player n (1..N).
    Won(i32),
}

impl Outcome {
    /// Whether the game is over (drawn or won).
    #[inline]
    pub fn is_over(self) -> bool {
        self != Outcome::Running
    }
    /// The winning player, if any.
    pub fn winner(self) -> Option<i32> {
        match self {
            Outcome::Won(p) => Some(p),
            _ => None,
        }
    }
    /// The wire integer: −1 running, 0 draw, n won by player n.
    pub fn code(self) -> i32 {
        match self {
            Outcome::Running => -1,
            Outcome::Draw => 0,
            Outcome::Won(p) => p,
        }
    }
    /// Reads a wire integer; `None` below −1.
    pub fn from_code(code: i32) -> Option<Outcome> {
        match code {
            -1 => Some(Outcome::Running),
            0 => Some(Outcome::Draw),
            p if p > 0 => Some(Outcome::Won(p)),
            _ => None,
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Running => write!(f, "running"),
            Outcome::Draw => write!(f, "draw"),
            Outcome::Won(p) => write!(f, "won by player {p}"),
        }
    }
}

/// An element attribute the rules can read and set (§6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Attr {
    /// State 1..k of the element's type.
    State,
    /// Owning player, 0 = nobody.
    Owner,
    /// Stacking order.
    ZIndex,
}

/// The attributes of one element.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ElementAttrs {
    pub state: i32,
    pub owner: i32,
    pub zindex: i32,
}

impl ElementAttrs {
    /// One attribute.
    #[inline]
    pub fn get(&self, a: Attr) -> i32 {
        match a {
            Attr::State => self.state,
            Attr::Owner => self.owner,
            Attr::ZIndex => self.zindex,
        }
    }
    /// Sets one attribute.
    #[inline]
    pub fn set(&mut self, a: Attr, v: i32) {
        *match a {
            Attr::State => &mut self.state,
            Attr::Owner => &mut self.owner,
            Attr::ZIndex => &mut self.zindex,
        } = v;
    }
}

/// A state's internal invariants do not hold, or its parts do not describe a possible position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StateError {
    #[error("expected {expected} {what}, got {got}")]
    Count {
        what: &'static str,
        expected: usize,
        got: usize,
    },
    #[error("player {player} out of range for {players} player(s)")]
    Player { player: i32, players: usize },
    #[error("outcome `{outcome}` out of range for {players} player(s)")]
    Outcome { outcome: Outcome, players: usize },
    #[error("element `{element}` on location #{location}, which does not exist")]
    NoSuchLocation {
        element: String,
        location: LocationId,
    },
    #[error("two elements on `{location}`")]
    TwoOnOne { location: String },
    #[error("element #{element} says it is on location #{location}, which holds something else")]
    Maps {
        element: usize,
        location: LocationId,
    },
    #[error("{placed} occupied locations for {elements} elements")]
    Placed { placed: usize, elements: usize },
}

/// Facts about the game a state needs for its identity (shared, never changes).
#[derive(Debug)]
pub(crate) struct Meta {
    pub relevant: Vec<bool>,
    pub elem_type: Vec<u16>,
    pub n_types: usize,
    /// Zobrist key per (location, element type).
    pub zobrist: Vec<u64>,
}

fn mix(mut z: u64) -> u64 {
    // splitmix64 finaliser: a good 64-bit mixer.
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Meta {
    pub fn new(relevant: Vec<bool>, elem_type: Vec<u16>, n_types: usize) -> Meta {
        let n = relevant.len() * n_types.max(1);
        let zobrist = (0..n as u64)
            .map(|i| mix(i.wrapping_add(0x9e37_79b9_7f4a_7c15)))
            .collect();
        Meta {
            relevant,
            elem_type,
            n_types,
            zobrist,
        }
    }
}

/// A position: where every element is, its state, owner and z-index, the
/// current player, the winner and the scores.
///
/// Equality and [`State::hash`] follow the recommended identity of §6.3: the
/// occupants of relevant locations by element *type*, state, owner and
/// z-index, plus current player, winner and scores. Element names and
/// irrelevant locations do not count.
///
/// A clone copies everything, epochs included; [`Clone::clone_from`] copies
/// into the target's own buffers, so refilling a state of the same game
/// allocates nothing ([`crate::Game::initial_state_into`]).
pub struct State {
    pub(crate) meta: Arc<Meta>,
    /// Location of every element.
    pub(crate) elem_loc: Vec<LocationId>,
    /// Occupant of every location, or [`NO_ELEMENT`].
    pub(crate) loc_elem: Vec<u16>,
    /// State, owner and z-index of every element.
    pub(crate) attrs: Vec<ElementAttrs>,
    pub(crate) scores: Vec<i32>,
    pub(crate) player: i32,
    pub(crate) outcome: Outcome,
    /// The hash of the contents ([`State::full_hash`]), or [`STALE_HASH`]
    /// when it has not been computed since the last change. Unless
    /// `keeps_hash`, the mutators only mark it stale and [`State::hash`]
    /// computes it when asked, so a playout that never asks pays nothing
    /// per move; with `keeps_hash` they update it (two keys a change), for
    /// searches that look up every position they make. Atomic so that a
    /// shared state stays `Sync`: two threads asking at once both compute
    /// the same value.
    hash: AtomicU64,
    /// Whether the mutators keep `hash` current ([`State::keep_hash`];
    /// copied by a clone). While set, `hash` is never stale.
    keeps_hash: bool,
    /// A number standing for the state's contents, or 0 for none: one no
    /// state has had yet (`compile::epoch_block`) when the state is made
    /// and when the engine has made a move in a game that memoizes a
    /// function (`compile::renew_epoch`), 0 after any mutator, copied by a
    /// clone. So two states with one epoch other than 0 have the same
    /// contents (one is a copy of the other, neither changed since), and a
    /// memo entry whose reads held in one holds in the other (`memo.rs`,
    /// `Entry::valid_in`).
    pub(crate) epoch: u64,
    /// The epoch the contents were last at and what changed since
    /// ([`State::touch`]): while `parent` is not 0, the contents are those
    /// of every state of epoch `parent` except for the items whose bits
    /// ([`content_bit`], [`location_bit`], [`attr_bit`], [`PLAYER_BIT`]) are
    /// in `changed`. So a memo entry whose reads held in epoch `parent` and
    /// read nothing under `changed` holds here (`memo.rs`, `Entry::mask`).
    /// Set by the mutators, kept by [`crate::compile::renew_epoch`], copied
    /// by a clone.
    pub(crate) parent: u64,
    pub(crate) changed: u64,
    /// Whether the mutators keep `parent` and `changed` (states of a game
    /// that memoizes, `Game::renews_epochs`; copied by a clone). Without,
    /// `parent` stays 0, which no memo entry's epoch is.
    pub(crate) track: bool,
}

/// [`State::hash`]'s mark for "not computed since the last change". A
/// state whose hash is this value computes it on every call: correct, and
/// one in 2^64.
const STALE_HASH: u64 = 0;

/// The bit of a location's occupant in [`State::changed`] and in a memo
/// entry's mask (several items share a bit: a shared bit only makes an
/// entry checked read by read).
#[inline(always)]
pub(crate) fn content_bit(l: usize) -> u64 {
    1 << (l % 24)
}

/// The bit of an element's location ([`content_bit`]).
#[inline(always)]
pub(crate) fn location_bit(e: usize) -> u64 {
    1 << (24 + e % 20)
}

/// The bit of an element's state, owner and z-index ([`content_bit`]).
#[inline(always)]
pub(crate) fn attr_bit(e: usize) -> u64 {
    1 << (44 + e % 19)
}

/// The bit of the current player and of the scores ([`content_bit`]).
pub(crate) const PLAYER_BIT: u64 = 1 << 63;

impl State {
    pub(crate) fn new(
        meta: Arc<Meta>,
        elem_loc: Vec<LocationId>,
        attrs: Vec<ElementAttrs>,
        n_locations: usize,
        scores: Vec<i32>,
    ) -> State {
        let mut loc_elem = vec![NO_ELEMENT; n_locations];
        for (e, &l) in elem_loc.iter().enumerate() {
            loc_elem[l as usize] = e as u16;
        }
        let s = State {
            meta,
            elem_loc,
            loc_elem,
            attrs,
            scores,
            player: 1,
            outcome: Outcome::Running,
            hash: AtomicU64::new(STALE_HASH),
            keeps_hash: false,
            epoch: crate::compile::epoch_block(),
            parent: 0,
            changed: 0,
            track: false,
        };
        s.hash();
        s
    }

    /// Location of an element.
    #[inline]
    pub fn location_of(&self, e: ElementId) -> LocationId {
        self.elem_loc[e as usize]
    }
    /// Element on a location, if any.
    #[inline]
    pub fn content(&self, l: LocationId) -> Option<ElementId> {
        let e = self.loc_elem[l as usize];
        (e != NO_ELEMENT).then_some(e)
    }
    /// State (1..k) of an element.
    #[inline]
    pub fn element_state(&self, e: ElementId) -> i32 {
        self.attrs[e as usize].state
    }
    /// Owner of an element (0 = nobody).
    #[inline]
    pub fn owner(&self, e: ElementId) -> i32 {
        self.attrs[e as usize].owner
    }
    /// Z-index of an element.
    #[inline]
    pub fn zindex(&self, e: ElementId) -> i32 {
        self.attrs[e as usize].zindex
    }
    /// The player to move, 1..N.
    #[inline]
    pub fn player(&self) -> i32 {
        self.player
    }
    /// Whether the game runs, is drawn or won.
    #[inline]
    pub fn outcome(&self) -> Outcome {
        self.outcome
    }
    /// Whether the game is over (drawn or won).
    pub fn is_over(&self) -> bool {
        self.outcome.is_over()
    }
    /// Attributes of an element.
    pub fn attrs(&self, e: ElementId) -> ElementAttrs {
        self.attrs[e as usize]
    }
    /// Score of every player (index 0 = player 1).
    #[inline]
    pub fn scores(&self) -> &[i32] {
        &self.scores
    }
    /// The Zobrist hash of the state's identity (§6.3): computed on the
    /// first call after a change, then kept until the next change.
    #[inline]
    pub fn hash(&self) -> u64 {
        match self.hash.load(Relaxed) {
            STALE_HASH => {
                let h = self.full_hash();
                self.hash.store(h, Relaxed);
                h
            }
            h => h,
        }
    }

    /// Whether the engine's changes keep [`State::hash`] current (two
    /// key computations a change) or only mark it for computing when next
    /// asked (the default: a random playout asks at most once). For searches
    /// that ask after every move (alpha-beta's transposition table, the
    /// puzzle solver's seen set). Copied by a clone.
    pub fn keep_hash(&mut self, on: bool) {
        if on {
            State::hash(self);
        }
        self.keeps_hash = on;
    }
    /// Number of elements.
    pub fn element_count(&self) -> usize {
        self.elem_loc.len()
    }
    /// Number of locations.
    pub fn location_count(&self) -> usize {
        self.loc_elem.len()
    }
    /// Whether location `l` is relevant to state identity.
    pub fn is_relevant(&self, l: LocationId) -> bool {
        self.meta.relevant[l as usize]
    }

    /// The key of element `e` on location `l` (0 on an irrelevant one):
    /// its type, state, owner and z-index there.
    fn occupant_key(&self, e: usize, l: usize) -> u64 {
        if !self.meta.relevant[l] {
            return 0;
        }
        let t = self.meta.elem_type[e] as usize;
        let ElementAttrs {
            state: st,
            owner: ow,
            zindex: z,
        } = self.attrs[e];
        let z0 = self.meta.zobrist[l * self.meta.n_types + t];
        mix(z0
            ^ (st as u32 as u64).wrapping_mul(0x2545_f491_4f6c_dd1d)
            ^ ((ow as u32 as u64) << 32).wrapping_mul(0x9e37_79b9)
            ^ (z as u32 as u64)
                .wrapping_mul(0xff51_afd7_ed55_8ccd)
                .rotate_left(17))
    }

    fn player_key(p: i32) -> u64 {
        mix(0x5bd1_e995_0000_0000 ^ p as u32 as u64)
    }
    fn outcome_key(o: Outcome) -> u64 {
        mix(0x1b87_3593_0000_0000 ^ o.code() as u32 as u64)
    }
    fn score_key(p: usize, s: i32) -> u64 {
        mix(0xcc9e_2d51_0000_0000 ^ ((p as u64) << 40) ^ s as u32 as u64)
    }

    /// The hash computed from the contents ([`State::hash`] keeps it).
    fn full_hash(&self) -> u64 {
        let mut h = Self::player_key(self.player) ^ Self::outcome_key(self.outcome);
        // Over the elements, not the locations (fewer, and no empty ones):
        // an empty location adds nothing.
        for (e, &l) in self.elem_loc.iter().enumerate() {
            h ^= self.occupant_key(e, l as usize);
        }
        for (p, &s) in self.scores.iter().enumerate() {
            h ^= Self::score_key(p, s);
        }
        h
    }

    /// Checks the internal invariants: element/location maps agree.
    pub fn check_consistency(&self) -> Result<(), StateError> {
        for (e, &l) in self.elem_loc.iter().enumerate() {
            if self.loc_elem.get(l as usize) != Some(&(e as u16)) {
                return Err(StateError::Maps {
                    element: e,
                    location: l,
                });
            }
        }
        let placed = self.loc_elem.iter().filter(|&&e| e != NO_ELEMENT).count();
        if placed != self.elem_loc.len() {
            return Err(StateError::Placed {
                placed,
                elements: self.elem_loc.len(),
            });
        }
        Ok(())
    }

    // ---- mutators (engine only); each updates the hash or marks it stale, sets the
    // epoch to 0 and marks what it changes (`touch`) ----

    /// Before a change of the items of `bits`: the epoch is 0; a tracking
    /// state with an epoch remembers it as its parent with nothing changed
    /// yet, and adds the bits to what changed since the parent.
    #[inline(always)]
    fn touch(&mut self, bits: impl FnOnce() -> u64) {
        if self.track {
            if self.epoch != 0 {
                self.parent = self.epoch;
                self.changed = 0;
            }
            self.changed |= bits();
        }
        self.epoch = 0;
    }

    /// After a change whose hash keys were `before` (computed only when
    /// `keeps_hash`) and are `after` now: the hash updated, or marked stale.
    #[inline(always)]
    fn rehash(&mut self, before: Option<u64>, after: impl FnOnce(&State) -> u64) {
        match before {
            Some(b) => {
                let a = after(self);
                *self.hash.get_mut() ^= b ^ a;
            }
            None => *self.hash.get_mut() = STALE_HASH,
        }
    }

    /// Moves element `e` onto `to`, which must be empty (every caller checks:
    /// `apply_with` rejects an occupied target, `MOVE` gives `false`).
    pub(crate) fn relocate(&mut self, e: ElementId, to: LocationId) {
        let from = self.elem_loc[e as usize] as usize;
        let to = to as usize;
        debug_assert_eq!(
            self.loc_elem[to], NO_ELEMENT,
            "relocate onto an occupied location"
        );
        self.touch(|| content_bit(from) | content_bit(to) | location_bit(e as usize));
        // Two keys, not four: `to` was empty and `from` is now.
        let before = self.keeps_hash.then(|| self.occupant_key(e as usize, from));
        self.loc_elem[from] = NO_ELEMENT;
        self.loc_elem[to] = e;
        self.elem_loc[e as usize] = to as LocationId;
        self.rehash(before, |s| s.occupant_key(e as usize, to));
    }

    pub(crate) fn set_attr(&mut self, e: ElementId, which: Attr, v: i32) {
        self.touch(|| attr_bit(e as usize));
        let l = self.elem_loc[e as usize] as usize;
        let before = self.keeps_hash.then(|| self.occupant_key(e as usize, l));
        self.attrs[e as usize].set(which, v);
        self.rehash(before, |s| s.occupant_key(e as usize, l));
    }

    pub(crate) fn set_player(&mut self, p: i32) {
        self.touch(|| PLAYER_BIT);
        let before = self.keeps_hash.then(|| Self::player_key(self.player));
        self.player = p;
        self.rehash(before, |_| Self::player_key(p));
    }

    pub(crate) fn set_outcome(&mut self, o: Outcome) {
        // No memo entry reads the outcome.
        self.touch(|| 0);
        let before = self.keeps_hash.then(|| Self::outcome_key(self.outcome));
        self.outcome = o;
        self.rehash(before, |_| Self::outcome_key(o));
    }

    /// Adds to player `p`'s score; `Err(old score)` and no change when the sum
    /// does not fit in 32 bits.
    pub(crate) fn add_score(&mut self, p: usize, amount: i32) -> Result<(), i32> {
        let old = self.scores[p];
        let new = old.checked_add(amount).ok_or(old)?;
        self.touch(|| PLAYER_BIT);
        let before = self.keeps_hash.then(|| Self::score_key(p, old));
        self.scores[p] = new;
        self.rehash(before, |_| Self::score_key(p, new));
        Ok(())
    }

    /// Identity key of one location: (type, state, owner, z) of a relevant occupant.
    fn identity(&self, l: usize) -> Option<(u16, ElementAttrs)> {
        let e = self.loc_elem[l];
        (e != NO_ELEMENT && self.meta.relevant[l])
            .then(|| (self.meta.elem_type[e as usize], self.attrs[e as usize]))
    }
}

impl Clone for State {
    fn clone(&self) -> State {
        State {
            meta: self.meta.clone(),
            elem_loc: self.elem_loc.clone(),
            loc_elem: self.loc_elem.clone(),
            attrs: self.attrs.clone(),
            scores: self.scores.clone(),
            player: self.player,
            outcome: self.outcome,
            hash: AtomicU64::new(self.hash.load(Relaxed)),
            keeps_hash: self.keeps_hash,
            epoch: self.epoch,
            parent: self.parent,
            changed: self.changed,
            track: self.track,
        }
    }

    /// The same result as `*self = src.clone()`, field by field, without
    /// allocating when the buffers have room (`Vec::clone_from` copies into
    /// the existing allocation: a state of the same game always has room)
    /// and without touching the shared `meta`'s count when it is the same.
    fn clone_from(&mut self, src: &State) {
        if !Arc::ptr_eq(&self.meta, &src.meta) {
            self.meta = src.meta.clone();
        }
        self.elem_loc.clone_from(&src.elem_loc);
        self.loc_elem.clone_from(&src.loc_elem);
        self.attrs.clone_from(&src.attrs);
        self.scores.clone_from(&src.scores);
        self.player = src.player;
        self.outcome = src.outcome;
        *self.hash.get_mut() = src.hash.load(Relaxed);
        self.keeps_hash = src.keeps_hash;
        self.epoch = src.epoch;
        self.parent = src.parent;
        self.changed = src.changed;
        self.track = src.track;
    }
}

impl PartialEq for State {
    fn eq(&self, other: &Self) -> bool {
        self.hash() == other.hash()
            && self.player == other.player
            && self.outcome == other.outcome
            && self.scores == other.scores
            && self.loc_elem.len() == other.loc_elem.len()
            && (0..self.loc_elem.len()).all(|l| self.identity(l) == other.identity(l))
    }
}
impl Eq for State {}

impl Hash for State {
    fn hash<H: Hasher>(&self, h: &mut H) {
        h.write_u64(self.hash());
    }
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("State")
            .field("player", &self.player)
            .field("outcome", &self.outcome)
            .field("scores", &self.scores)
            .field("elem_loc", &self.elem_loc)
            .field("hash", &format_args!("{:016x}", self.hash()))
            .finish()
    }
}
