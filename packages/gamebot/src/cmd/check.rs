//! `gamebot check GAME...` — lint game files.

use gamebot_rules::Game;

/// A game file, or standard input for `-` (bounded and UTF-8 checked like files).
fn load(path: &str) -> anyhow::Result<Result<Game, gamebot_rules::LoadError>> {
    if path != "-" {
        return Ok(Game::load(path));
    }
    let bytes = gamebot_input::read_bounded_from(
        std::io::stdin().lock(),
        "<stdin>",
        gamebot_input::TEXT_LIMIT,
    )?;
    let text = gamebot_input::decode_text("<stdin>", bytes)?;
    Ok(Game::parse("<stdin>", &text))
}

#[derive(clap::Args)]
pub struct Args {
    /// Game files to check; `-` reads one game from standard input (named `<stdin>`).
    #[arg(required = true)]
    games: Vec<String>,
    /// Also print warnings (problems that do not stop a game from loading).
    #[arg(long, short = 'W')]
    warnings: bool,
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let mut failed = false;
    for path in &a.games {
        match load(path)? {
            Ok(g) => {
                if a.warnings {
                    for w in &g.warnings {
                        outln!("{}:{}:{}: warning: {}", g.file, w.line, w.col, w.message);
                    }
                }
                outln!(
                    "{}: ok: {} player(s), {} element(s), {} location(s), {} rule(s){}",
                    g.file,
                    g.player_count(),
                    g.elements.len(),
                    g.locations.len(),
                    g.rules().len(),
                    if g.warnings.is_empty() {
                        String::new()
                    } else {
                        format!(", {} warning(s)", g.warnings.len())
                    }
                );
            }
            Err(e) => {
                failed = true;
                outln!("{e}");
            }
        }
    }
    Ok(if failed { 1 } else { 0 })
}
