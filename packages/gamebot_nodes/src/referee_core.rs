//! The referee's game logic, independent of any transport.

use gamebot_rules::{
    physical_actions, Game, LoadError, Move, Outcome, PhysicalAction, RobotSpec, RuleError, State,
};
use std::sync::Arc;

/// Who plays a side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    /// A person whose moves arrive as text or clicks through `SubmitMove`.
    Human,
    /// A person whose moves are read from the board by the camera
    /// (`/board/observation`, see [`crate::move_inference`]).
    Camera,
    /// The computer, with a strategy string of `gamebot_ai` (e.g. `mcts:time=1s`),
    /// checked by [`PlayerKind::parse`]; empty means the planner's default.
    Ai(String),
}

/// A player kind that names no known strategy (or bad options).
#[derive(Debug, thiserror::Error)]
#[error("bad player kind `{text}`: {reason}")]
pub struct PlayerKindError {
    /// The kind as given.
    pub text: String,
    /// Why its strategy does not parse (part of the message, not a separate cause).
    pub reason: Box<gamebot_ai::AiError>,
}

impl PlayerKind {
    /// Parses `human`, `camera` or `ai:<strategy>` (a bare strategy string also means AI;
    /// `ai:` alone is the planner's default strategy). The strategy must parse
    /// as a `gamebot_ai` strategy string.
    pub fn parse(s: &str) -> Result<PlayerKind, PlayerKindError> {
        match s.trim() {
            "human" | "" => Ok(PlayerKind::Human),
            "camera" => Ok(PlayerKind::Camera),
            other => {
                let strategy = other.strip_prefix("ai:").unwrap_or(other).trim();
                if !strategy.is_empty() {
                    strategy
                        .parse::<gamebot_ai::Spec>()
                        .map_err(|reason| PlayerKindError {
                            text: s.to_string(),
                            reason: Box::new(reason),
                        })?;
                }
                Ok(PlayerKind::Ai(strategy.to_string()))
            }
        }
    }

    /// Parses one kind per player.
    pub fn parse_all(texts: &[String]) -> Result<Vec<PlayerKind>, PlayerKindError> {
        texts.iter().map(|t| PlayerKind::parse(t)).collect()
    }

    /// The text form accepted by [`PlayerKind::parse`].
    pub fn text(&self) -> String {
        match self {
            PlayerKind::Human => "human".into(),
            PlayerKind::Camera => "camera".into(),
            PlayerKind::Ai(s) => format!("ai:{s}"),
        }
    }
}

/// Why the referee refused something.
#[derive(Debug, thiserror::Error)]
pub enum RefereeError {
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error(transparent)]
    Rule(#[from] RuleError),
    #[error(transparent)]
    PlayerKind(#[from] PlayerKindError),
    #[error("the game has {players} player(s) but {kinds} player kind(s) were given")]
    Kinds { players: usize, kinds: usize },
    #[error("the game is over")]
    GameOver,
    #[error("move history step {step}: {error}")]
    History { step: usize, error: RuleError },
    #[error("cannot plan the arm's actions: {0}")]
    Plan(#[from] gamebot_rules::PlanError),
}

/// A physical action with names and arm coordinates filled in.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionInfo {
    pub action: PhysicalAction,
    pub element: String,
    pub element_type: String,
    pub from_location: String,
    pub to_location: String,
    /// `robot=` coordinates (cm, arm base frame) of the locations, when given as x,y,z.
    pub from_position: Option<[f64; 3]>,
    pub to_position: Option<[f64; 3]>,
    /// `robot=` coordinates (cm) of the pieces standing near either end when
    /// the action starts ([`NEIGHBOUR_RADIUS_CM`]), for the gripper to keep clear of.
    pub neighbours: Vec<[f64; 3]>,
}

/// How far from an action's ends (cm) a piece counts as a neighbour the
/// gripper's fingers must keep clear of: beyond any jaw's reach.
pub const NEIGHBOUR_RADIUS_CM: f64 = 6.0;

/// What happened when a move was played.
#[derive(Clone, Debug)]
pub struct Played {
    pub player: i32,
    pub ply: usize,
    pub text: String,
    pub mv: Move,
    pub actions: Vec<ActionInfo>,
    /// Whether the game goes on, is drawn or won.
    pub outcome: Outcome,
}

/// One location of the board for a state message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocationView {
    pub location: String,
    pub location_type: String,
    pub relevant: bool,
    pub element: String,
    pub element_type: String,
    pub element_state: i32,
    pub owner: i32,
}

/// The authoritative game.
pub struct RefereeCore {
    game: Arc<Game>,
    kinds: Vec<PlayerKind>,
    state: State,
    history: Vec<String>,
    legal: Vec<Move>,
    game_number: u32,
    /// The board whose placement (registration) takes `robot=` positions
    /// to the arm's frame; none = as the game gives them.
    board: Option<Arc<gamebot_kinematics::Board>>,
}

/// Replays a move history from the initial position (used by the stateless planner too).
pub fn replay(game: &Game, history: &[String]) -> Result<State, RefereeError> {
    let mut st = game.initial_state();
    for (i, m) in history.iter().enumerate() {
        let mv = game
            .find_move(&st, m)
            .map_err(|error| RefereeError::History { step: i + 1, error })?;
        game.apply(&mut st, &mv)
            .map_err(|error| RefereeError::History { step: i + 1, error })?;
    }
    Ok(st)
}

impl RefereeCore {
    /// Starts game number 1 of `game` with the given player kinds (one per player).
    pub fn new(game: Arc<Game>, kinds: Vec<PlayerKind>) -> Result<RefereeCore, RefereeError> {
        if kinds.len() != game.player_count() {
            return Err(RefereeError::Kinds {
                players: game.player_count(),
                kinds: kinds.len(),
            });
        }
        let state = game.initial_state();
        let mut r = RefereeCore {
            game,
            kinds,
            state,
            history: Vec::new(),
            legal: Vec::new(),
            game_number: 1,
            board: None,
        };
        r.refresh()?;
        Ok(r)
    }

    /// Loads a game file and starts it; `kinds` are the player kinds as text
    /// (one per player, see [`PlayerKind::parse`]), checked here.
    pub fn load(path: &str, kinds: &[String]) -> Result<RefereeCore, RefereeError> {
        let kinds = PlayerKind::parse_all(kinds)?;
        Self::new(Arc::new(Game::load(path)?), kinds)
    }

    /// Starts a new game (same file unless another game is given) with the given
    /// player kinds as text (empty: the same kinds); the game number increases.
    /// Kinds are checked before anything changes.
    pub fn new_game(
        &mut self,
        game: Option<Arc<Game>>,
        kinds: &[String],
    ) -> Result<u32, RefereeError> {
        let game = game.unwrap_or_else(|| self.game.clone());
        let kinds = if kinds.is_empty() {
            self.kinds.clone()
        } else {
            PlayerKind::parse_all(kinds)?
        };
        let n = self.game_number + 1;
        let board = self.board.take();
        *self = RefereeCore::new(game, kinds)?;
        self.game_number = n;
        self.board = board;
        Ok(n)
    }

    fn refresh(&mut self) -> Result<(), RefereeError> {
        self.legal = self.game.legal_moves(&self.state)?;
        self.game.settle(&mut self.state, &self.legal);
        Ok(())
    }

    pub fn game(&self) -> &Arc<Game> {
        &self.game
    }
    pub fn state(&self) -> &State {
        &self.state
    }
    pub fn history(&self) -> &[String] {
        &self.history
    }
    pub fn game_number(&self) -> u32 {
        self.game_number
    }
    pub fn kinds(&self) -> &[PlayerKind] {
        &self.kinds
    }
    /// The player to move.
    pub fn player(&self) -> i32 {
        self.state.player()
    }
    /// Who plays the side to move.
    pub fn kind_to_move(&self) -> &PlayerKind {
        &self.kinds[self.state.player() as usize - 1]
    }
    /// Whether the game runs, is drawn or won.
    pub fn outcome(&self) -> Outcome {
        self.state.outcome()
    }
    pub fn is_over(&self) -> bool {
        self.state.is_over()
    }

    /// The legal moves as sorted `element:from->to` texts.
    pub fn legal_texts(&self) -> Vec<String> {
        let mut v: Vec<String> = self.legal.iter().map(|m| self.game.move_text(m)).collect();
        v.sort();
        v.dedup();
        v
    }

    /// Validates and plays a move given as text, from whichever side is to move.
    pub fn submit(&mut self, text: &str) -> Result<Played, RefereeError> {
        if self.is_over() {
            return Err(RefereeError::GameOver);
        }
        let mv = self.game.find_move(&self.state, text.trim())?;
        self.play(mv)
    }

    /// Plays a move already known to be legal (e.g. from the planner).
    pub fn play(&mut self, mv: Move) -> Result<Played, RefereeError> {
        let mut next = self.state.clone();
        self.game.apply(&mut next, &mv)?;
        let actions = physical_actions(&self.game, &self.state, &next)?;
        let actions = self.describe_all(&self.state, actions);
        let player = self.state.player();
        let text = self.game.move_text(&mv);
        self.state = next;
        self.history.push(text.clone());
        self.refresh()?;
        Ok(Played {
            player,
            ply: self.history.len(),
            text,
            mv,
            actions,
            outcome: self.state.outcome(),
        })
    }

    /// The position after `mv` and its physical actions, without playing it
    /// (the arm moves first; the move counts once the camera confirms it).
    pub fn preview(&self, mv: &Move) -> Result<(State, Vec<ActionInfo>), RefereeError> {
        if self.is_over() {
            return Err(RefereeError::GameOver);
        }
        let mut next = self.state.clone();
        self.game.apply(&mut next, mv)?;
        let actions = physical_actions(&self.game, &self.state, &next)?;
        let legal = self.game.legal_moves(&next)?;
        self.game.settle(&mut next, &legal);
        Ok((next, self.describe_all(&self.state, actions)))
    }

    /// Finds a legal move given as text (no change).
    pub fn find(&self, text: &str) -> Result<Move, RefereeError> {
        if self.is_over() {
            return Err(RefereeError::GameOver);
        }
        Ok(self.game.find_move(&self.state, text.trim())?)
    }

    /// The actions with names, positions and neighbours, carried out from `before`.
    fn describe_all(&self, before: &State, actions: Vec<PhysicalAction>) -> Vec<ActionInfo> {
        let m = |l: u16| self.robot_point(l).map(|p| p.map(|v| v / 100.0));
        let near =
            gamebot_rules::neighbours(&self.game, before, &actions, m, NEIGHBOUR_RADIUS_CM / 100.0);
        actions
            .into_iter()
            .zip(near)
            .map(|(a, n)| ActionInfo {
                neighbours: n.into_iter().map(|p| p.map(|v| v * 100.0)).collect(),
                ..self.describe(a)
            })
            .collect()
    }

    /// `mv`, or the equivalent move (another piece of the same supply) whose
    /// pieces lie on top of their stacks: the one an arm can take.
    pub fn top_of_stack(&self, mv: &Move) -> Move {
        crate::stack_order::prefer_top_of_stack(&self.game, &self.state, mv, |l| {
            self.robot_point(l).map(|p| p.map(|v| v / 100.0))
        })
    }

    /// The board whose placement ([`gamebot_kinematics::Board::to_arm_cm`])
    /// the actions' positions go through; kept across new games.
    pub fn set_board(&mut self, board: Option<gamebot_kinematics::Board>) {
        self.board = board.map(Arc::new);
    }

    /// The board's turn-over station (a FLIP goes through it), if any.
    pub fn flip_station(&self) -> Option<gamebot_kinematics::FlipStation> {
        self.board.as_ref().and_then(|b| b.flip_station)
    }

    /// Where every location lies for the arm (m, `base_link`), in game
    /// order, through the board's placement; `None` for locations without
    /// `robot=x,y,z`. What the markers and the arm's goals both use.
    pub fn location_positions_m(&self) -> Vec<Option<[f64; 3]>> {
        (0..self.game.locations.len() as u16)
            .map(|l| self.robot_point(l).map(|p| p.map(|v| v / 100.0)))
            .collect()
    }

    /// The `robot=` coordinates (cm) of a location, when given as x,y,z,
    /// where the arm finds them (through the board's placement, if any).
    pub fn robot_point(&self, l: u16) -> Option<[f64; 3]> {
        match self.game.locations[l as usize].robot {
            Some(RobotSpec::Cartesian(p)) => Some(match &self.board {
                Some(b) => b.to_arm_cm(p),
                None => p,
            }),
            _ => None,
        }
    }

    fn describe(&self, a: PhysicalAction) -> ActionInfo {
        let g = &self.game;
        let pos = |l: u16| self.robot_point(l);
        let (e, from, to) = match a {
            PhysicalAction::Transfer { element, from, to } => (element, from, to),
            PhysicalAction::Flip { element, at, .. } => (element, at, at),
        };
        ActionInfo {
            element: g.elements[e as usize].name.clone(),
            element_type: g.element_type_of(e).name.clone(),
            from_location: g.locations[from as usize].name.clone(),
            to_location: g.locations[to as usize].name.clone(),
            from_position: pos(from),
            to_position: pos(to),
            neighbours: Vec::new(),
            action: a,
        }
    }

    /// Every location with its occupant, for the state message.
    pub fn board(&self) -> Vec<LocationView> {
        let g = &self.game;
        (0..g.locations.len() as u16)
            .map(|l| {
                let loc = &g.locations[l as usize];
                let (element, element_type, element_state, owner) = match self.state.content(l) {
                    Some(e) => (
                        g.elements[e as usize].name.clone(),
                        g.element_type_of(e).name.clone(),
                        self.state.element_state(e),
                        self.state.owner(e),
                    ),
                    None => (String::new(), String::new(), 0, 0),
                };
                LocationView {
                    location: loc.name.clone(),
                    location_type: g.location_type_of(l).name.clone(),
                    relevant: g.is_relevant(l),
                    element,
                    element_type,
                    element_state,
                    owner,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games_dir() -> std::path::PathBuf {
        std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../games"))
    }

    #[test]
    fn a_registered_board_moves_the_positions_sent_to_the_arm() {
        let path = games_dir().join("tictactoe.game");
        let kinds = ["human".to_string(), "human".to_string()];
        let mut r = RefereeCore::load(path.to_str().unwrap(), &kinds).unwrap();
        let mv = r.game().find_move(r.state(), &r.legal_texts()[0]).unwrap();
        let (_, plain) = r.preview(&mv).unwrap();
        let a4 = gamebot_kinematics::Board::load_named("a4").unwrap();
        let text = std::fs::read_to_string(a4.path()).unwrap()
            + "placement: {offset_mm: [7, -4], rotation_deg: 0}\n";
        let moved = gamebot_kinematics::Board::parse(a4.path(), &text).unwrap();
        // Unregistered: exactly the game's numbers.
        r.set_board(Some(a4));
        let (_, same) = r.preview(&mv).unwrap();
        assert_eq!(same[0].to_position, plain[0].to_position);
        r.set_board(Some(moved));
        assert_eq!(r.new_game(None, &[]).unwrap(), 2);
        let (_, shifted) = r.preview(&mv).unwrap();
        let (a, b) = (
            plain[0].to_position.unwrap(),
            shifted[0].to_position.unwrap(),
        );
        assert!(
            (b[0] - a[0] - 0.7).abs() < 1e-9 && (b[1] - a[1] + 0.4).abs() < 1e-9,
            "{a:?} {b:?}"
        );
    }

    #[test]
    fn plays_validates_and_ends_tictactoe() {
        let path = games_dir().join("tictactoe.game");
        let mut r = RefereeCore::load(
            path.to_str().unwrap(),
            &["human".to_string(), "ai:random".to_string()],
        )
        .unwrap();
        assert_eq!(r.kind_to_move(), &PlayerKind::Human);
        let bad = r.submit("nonsense:a->b").unwrap_err().to_string();
        assert!(
            bad.contains("cannot read move") || bad.contains("no element"),
            "{bad}"
        );
        // Play until the end with the first legal move each time; every move has one transfer.
        while !r.is_over() {
            let m = r.legal_texts()[0].clone();
            let p = r.submit(&m).unwrap();
            assert_eq!(p.actions.len(), 1, "{:?}", p.actions);
            assert!(
                p.actions[0].to_position.is_some(),
                "tic-tac-toe cells have robot coordinates"
            );
        }
        assert!(r.submit("x").is_err());
        let replayed = replay(r.game(), r.history()).unwrap();
        assert_eq!(&replayed, r.state());
        assert_eq!(r.new_game(None, &[]).unwrap(), 2);
        // A mistyped kind is refused before anything changes.
        let e = r
            .new_game(None, &["human".into(), "ai:mctz".into()])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("ai:mctz") && e.contains("unknown strategy"),
            "{e}"
        );
        assert_eq!(r.game_number(), 2);
        assert!(r.history().is_empty());
    }

    #[test]
    fn player_kinds_parse() {
        assert_eq!(PlayerKind::parse("human").unwrap(), PlayerKind::Human);
        assert_eq!(
            PlayerKind::parse("ai:mcts:time=1s").unwrap(),
            PlayerKind::Ai("mcts:time=1s".into())
        );
        assert_eq!(
            PlayerKind::parse("alphabeta:depth=3").unwrap().text(),
            "ai:alphabeta:depth=3"
        );
        assert_eq!(
            PlayerKind::parse("ai:").unwrap(),
            PlayerKind::Ai(String::new())
        );
        for bad in ["ai:mcts:tme=1s", "alphabeta:depth=x", "huamn"] {
            let e = PlayerKind::parse(bad).unwrap_err();
            assert!(e.to_string().contains(bad), "{e}");
        }
        let path = games_dir().join("tictactoe.game");
        let e = RefereeCore::load(path.to_str().unwrap(), &["human".into(), "mtcs".into()])
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("`mtcs`") && e.contains("available"), "{e}");
    }

    #[test]
    fn the_arm_takes_the_top_piece_of_a_supply_stack_and_keeps_clear_of_neighbours() {
        let path = games_dir().join("connect4.game");
        let r = RefereeCore::load(
            path.to_str().unwrap(),
            &["ai:random".to_string(), "human".to_string()],
        )
        .unwrap();
        // sr(1) is the bottom of the first supply stack.
        let bottom = r.find("r(1):sr(1)->b(1,1)").unwrap();
        let mv = r.top_of_stack(&bottom);
        let (_, actions) = r.preview(&mv).unwrap();
        assert_eq!(actions.len(), 1);
        let a = &actions[0];
        assert_ne!(a.from_location, "sr(1)");
        let z = a.from_position.unwrap()[2];
        assert!(z > 0.0, "{a:?}");
        // The stack below and the first move's empty board: the only
        // neighbours are the other supply stacks' pieces, none on the same spot.
        let [fx, fy, _] = a.from_position.unwrap();
        for n in &a.neighbours {
            let d = (n[0] - fx).hypot(n[1] - fy);
            assert!(d > 0.2 && d < NEIGHBOUR_RADIUS_CM, "{n:?}");
        }
        // A move from the top is kept as it is.
        assert_eq!(r.top_of_stack(&mv), mv);
    }
}
