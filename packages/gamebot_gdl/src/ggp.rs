//! The player side of the general game playing protocol (the messages a game
//! manager sends in HTTP POST bodies) and a player's match state. The
//! transport (HTTP) is the caller's; [`Player::handle`] maps a message text
//! to the reply text.
//!
//! Messages: `(info)`, `(start id role description startclock playclock)`,
//! `(play id moves)`, `(stop id moves)`, `(abort id)` (and `(preview ...)`,
//! answered `ready`). `moves` is `nil` before the first move, else the joint
//! move of the previous step in role order.

use crate::ai::{self, GdlStrategy};
use crate::error::{GdlError, Result};
use crate::game::{Game, Move, State};
use crate::kif::{self, SExpr};
use gamebot_ai::{CancelToken, SearchControl, Spec};
use std::sync::mpsc;
use std::time::Duration;

/// A parsed manager message.
#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    Info,
    Preview,
    Start {
        id: String,
        role: String,
        rules: Vec<SExpr>,
        start_clock: u64,
        play_clock: u64,
    },
    Play {
        id: String,
        moves: Option<Vec<SExpr>>,
    },
    Stop {
        id: String,
        moves: Option<Vec<SExpr>>,
    },
    Abort {
        id: String,
    },
}

fn bad(msg: impl Into<String>) -> GdlError {
    GdlError::Protocol(msg.into())
}

fn symbol(e: Option<&SExpr>, what: &str) -> Result<String> {
    match e {
        Some(SExpr::Atom(s, _)) => Ok(s.clone()),
        Some(other) => Err(bad(format!("{what} must be a symbol, got `{other}`"))),
        None => Err(bad(format!("missing {what}"))),
    }
}

fn clock(e: Option<&SExpr>, what: &str) -> Result<u64> {
    let s = symbol(e, what)?;
    s.parse::<u64>()
        .ok()
        .filter(|&v| v <= 86_400)
        .ok_or_else(|| {
            bad(format!(
                "{what} `{s}` is not a number of seconds (0..86400)"
            ))
        })
}

fn moves(e: Option<&SExpr>) -> Result<Option<Vec<SExpr>>> {
    match e {
        Some(SExpr::Atom(s, _)) if s == "nil" => Ok(None),
        Some(SExpr::List(items, _)) => Ok(Some(items.clone())),
        Some(other) => Err(bad(format!("moves must be `nil` or a list, got `{other}`"))),
        None => Err(bad("missing moves")),
    }
}

/// Parses one message.
pub fn parse_message(text: &str) -> Result<Message> {
    let exprs = kif::read("message", text).map_err(|d| bad(d.to_string()))?;
    let [SExpr::List(items, _)] = exprs.as_slice() else {
        return Err(bad("a message is one parenthesised list"));
    };
    let kind = symbol(items.first(), "message type")?;
    let arity = |n: usize| -> Result<()> {
        if items.len() == n + 1 {
            Ok(())
        } else {
            Err(bad(format!(
                "`{kind}` takes {n} argument(s), got {}",
                items.len() - 1
            )))
        }
    };
    Ok(match kind.as_str() {
        "info" => {
            arity(0)?;
            Message::Info
        }
        "preview" => Message::Preview,
        "start" => {
            arity(5)?;
            let SExpr::List(rules, _) = &items[3] else {
                return Err(bad("the game description must be a list of sentences"));
            };
            Message::Start {
                id: symbol(items.get(1), "match id")?,
                role: symbol(items.get(2), "role")?,
                rules: rules.clone(),
                start_clock: clock(items.get(4), "start clock")?,
                play_clock: clock(items.get(5), "play clock")?,
            }
        }
        "play" => {
            arity(2)?;
            Message::Play {
                id: symbol(items.get(1), "match id")?,
                moves: moves(items.get(2))?,
            }
        }
        "stop" => {
            arity(2)?;
            Message::Stop {
                id: symbol(items.get(1), "match id")?,
                moves: moves(items.get(2))?,
            }
        }
        "abort" => {
            arity(1)?;
            Message::Abort {
                id: symbol(items.get(1), "match id")?,
            }
        }
        other => return Err(bad(format!("unknown message `{other}`"))),
    })
}

/// The spec with its thinking time set to `budget` where it has no other limit.
fn with_budget(spec: &Spec, budget: Duration) -> Spec {
    let budget = budget.max(Duration::from_millis(100));
    let mut s = spec.clone();
    match &mut s {
        Spec::Mcts(o) if o.iterations.is_none() => o.time = Some(budget),
        Spec::Mc(o) if o.time.is_none() => {
            o.time = Some(budget);
            o.playouts = Some(u64::MAX);
        }
        Spec::AlphaBeta(o) if o.depth.is_none() && o.time.is_none() => o.time = Some(budget),
        _ => {}
    }
    s
}

struct Match {
    id: String,
    game: Game,
    role: usize,
    state: State,
    strategy: Box<dyn GdlStrategy>,
    play_clock: Duration,
}

/// A GGP player: one match at a time.
pub struct Player {
    spec: Spec,
    current: Option<Match>,
    /// Time kept back from the play clock for the network and the reply.
    pub margin: Duration,
}

impl Player {
    /// A player using the strategy `spec` (its time options are replaced by the play clock).
    pub fn new(spec: Spec) -> Player {
        Player {
            spec,
            current: None,
            margin: Duration::from_millis(600),
        }
    }

    /// Whether a match is running.
    pub fn busy(&self) -> bool {
        self.current.is_some()
    }

    /// The reply to a message; an error for a message that cannot be served
    /// (malformed, unknown match, illegal moves). Never panics.
    pub fn handle(&mut self, text: &str) -> Result<String> {
        match parse_message(text)? {
            Message::Info => Ok(if self.busy() { "busy" } else { "available" }.into()),
            Message::Preview => Ok("ready".into()),
            Message::Start {
                id,
                role,
                rules,
                play_clock,
                ..
            } => {
                let game = Game::from_sexprs(&format!("match {id}"), &rules)?;
                let r = game
                    .role_index(&role)
                    .ok_or_else(|| bad(format!("`{role}` is not a role of the game")))?;
                tracing::info!(match_id = %id, role = %role, "match started");
                self.current = Some(Match {
                    id,
                    state: game.initial_state(),
                    role: r,
                    game,
                    strategy: ai::build(&with_budget(
                        &self.spec,
                        Duration::from_secs(play_clock).saturating_sub(self.margin),
                    )),
                    play_clock: Duration::from_secs(play_clock),
                });
                Ok("ready".into())
            }
            Message::Play { id, moves } => {
                let margin = self.margin;
                let m = self.current_match(&id)?;
                if let Some(ms) = moves {
                    m.advance(&ms)?;
                }
                let mv = m.choose(margin)?;
                Ok(m.game.move_text(mv))
            }
            Message::Stop { id, moves } => {
                let m = self.current_match(&id)?;
                if let Some(ms) = moves {
                    m.advance(&ms)?;
                }
                let mut sc = m.game.scratch();
                let goals = m.game.goals(&m.state, &mut sc);
                tracing::info!(match_id = %id, ?goals, "match stopped");
                self.current = None;
                Ok("done".into())
            }
            Message::Abort { id } => {
                self.current_match(&id)?;
                self.current = None;
                Ok("done".into())
            }
        }
    }

    fn current_match(&mut self, id: &str) -> Result<&mut Match> {
        let Some(m) = self.current.as_mut() else {
            return Err(bad(format!("unknown match `{id}` (no match running)")));
        };
        if m.id != id {
            return Err(bad(format!("unknown match `{id}` (playing `{}`)", m.id)));
        }
        Ok(m)
    }
}

impl Match {
    fn advance(&mut self, ms: &[SExpr]) -> Result<()> {
        let n = self.game.roles().len();
        if ms.len() != n {
            return Err(bad(format!("{} moves for {n} roles", ms.len())));
        }
        let joint: Vec<Move> = ms
            .iter()
            .enumerate()
            .map(|(r, e)| {
                self.game
                    .move_of_sexpr(r, e)
                    .ok_or_else(|| bad(format!("`{e}` is not a move of {}", self.game.roles()[r])))
            })
            .collect::<Result<_>>()?;
        let mut sc = self.game.scratch();
        self.state = self.game.next_state(&self.state, &joint, &mut sc)?;
        Ok(())
    }

    fn choose(&mut self, margin: Duration) -> Result<Move> {
        let budget = self
            .play_clock
            .saturating_sub(margin)
            .max(Duration::from_millis(100));
        // Anytime: a watchdog cancels the search when the budget is spent.
        let cancel = CancelToken::new();
        let (done, wait) = mpsc::channel::<()>();
        let c = cancel.clone();
        let watchdog = std::thread::spawn(move || {
            if wait.recv_timeout(budget).is_err() {
                c.cancel();
            }
        });
        let ctl = SearchControl::new().with_cancel(cancel);
        let d = self
            .strategy
            .choose(&self.game, &self.state, self.role, &ctl);
        let _ = done.send(());
        let _ = watchdog.join();
        let d = d?;
        tracing::debug!(mv = %self.game.move_text(d.mv), nodes = d.stats.nodes, "move chosen");
        Ok(d.mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_messages() {
        assert_eq!(parse_message("(INFO)").unwrap(), Message::Info);
        match parse_message("(play m1 ((mark 1 1) noop))").unwrap() {
            Message::Play { id, moves } => {
                assert_eq!(id, "m1");
                assert_eq!(moves.unwrap().len(), 2);
            }
            m => panic!("{m:?}"),
        }
        assert!(matches!(
            parse_message("(stop m1 nil)").unwrap(),
            Message::Stop { moves: None, .. }
        ));
        for bad in [
            "",
            "info",
            "(info) (info)",
            "(play m1)",
            "(start m1 x (role x) 10)",
            "(start m1 x ((role x)) ten 5)",
            "(play m1 noop)",
            "(dance)",
            "(abort (m1))",
        ] {
            assert!(parse_message(bad).is_err(), "{bad}");
        }
    }
}
