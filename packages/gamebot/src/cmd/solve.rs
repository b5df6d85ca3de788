//! `gamebot solve GAME --strategy bfs|dfs|astar[:options] [--json]` — solves a
//! one-player puzzle and prints the solution path, or says there is none.
//! Exit code 0 when solved, 1 when there is no solution (or none was found
//! within the limits).

use crate::common::{apply_text, load_game, move_list};
use gamebot_ai::puzzle::solve;
use gamebot_ai::{strategy_help_of, SearchControl, Spec};

#[derive(clap::Args)]
#[command(after_help = format!("Strategies:\n{}", strategy_help_of(&["bfs", "dfs", "astar"])))]
pub struct Args {
    /// Game file.
    game: String,
    /// bfs (fewest moves), dfs (some solution) or astar (cheapest), with
    /// options (listed below).
    #[arg(long, default_value = "astar")]
    strategy: String,
    /// Start after these moves (whitespace separated, `element:from->to`).
    #[arg(long)]
    moves: Option<String>,
    /// Print `{"solved":bool,"length":n,"moves":[...],"expanded":n,...}`.
    #[arg(long)]
    json: bool,
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let game = load_game(&a.game)?;
    if game.player_count() != 1 {
        anyhow::bail!(
            "{}: solve is for one-player puzzles, and this game has {} players: a line of moves \
             that wins against an opponent who cooperates is not a solution (use `play` or `tournament`)",
            game.file,
            game.player_count()
        );
    }
    let spec: Spec = a.strategy.parse()?;
    let Spec::Puzzle(opts) = &spec else {
        anyhow::bail!(
            "solve needs a puzzle search (bfs, dfs or astar), not `{}`",
            spec.name()
        );
    };
    let mut state = game.initial_state();
    for (i, m) in move_list(a.moves.as_deref(), None)?.iter().enumerate() {
        apply_text(&game, &mut state, i + 1, m)?;
    }
    let sol = solve(&game, &state, opts, &SearchControl::new())?;
    let texts: Vec<String> = sol.moves.iter().map(|m| game.move_text(m)).collect();
    if a.json {
        let j = serde_json::json!({
            "solved": sol.solved,
            "length": texts.len(),
            "moves": texts,
            "expanded": sol.expanded,
            "generated": sol.generated,
            "cost": sol.cost,
            "exhausted": sol.exhausted,
            "seconds": sol.seconds,
        });
        outln!("{j}");
    } else if sol.solved {
        outln!(
            "solved in {} moves (cost {}) by {spec}:",
            texts.len(),
            sol.cost
        );
        for (i, t) in texts.iter().enumerate() {
            outln!("{:>4}. {t}", i + 1);
        }
        outln!(
            "{} positions expanded, {} generated, {:.3} s",
            sol.expanded,
            sol.generated,
            sol.seconds
        );
    } else if sol.exhausted {
        outln!(
            "no solution: all {} reachable positions were examined ({:.3} s)",
            sol.expanded,
            sol.seconds
        );
    } else {
        outln!(
            "no solution found within the limits of {spec} ({} positions expanded, {:.3} s)",
            sol.expanded,
            sol.seconds
        );
    }
    Ok(if sol.solved { 0 } else { 1 })
}
