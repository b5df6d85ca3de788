//! `gamebot gdl ...` — the GDL front-end: check/validate, legal moves, self-play,
//! play in the terminal, benchmark, and a GGP player over HTTP.

use anyhow::{bail, Context, Result};
use gamebot_ai::{strategy_help, SearchControl, Spec};
use gamebot_gdl::ai::{self, GdlStrategy};
use gamebot_gdl::ggp::Player;
use gamebot_gdl::validate::{validate, Options};
use gamebot_gdl::{kif, Game, Move, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::io::{BufRead, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

#[derive(clap::Subcommand)]
pub enum Action {
    /// Static checks (file:line:col per problem), then random simulations with a report per check.
    Check(CheckArgs),
    /// Legal moves of every role after a sequence of joint moves.
    Legal(LegalArgs),
    /// Games between strategies (random by default) with statistics.
    Selfplay(SelfplayArgs),
    /// Play one role in the terminal against a strategy.
    Play(PlayArgs),
    /// Random playouts/s and positions/s of GDL games.
    Bench(BenchArgs),
    /// A general game playing player: answers GGP game managers over HTTP on 127.0.0.1.
    Player(PlayerArgs),
}

pub fn run(a: Action) -> Result<i32> {
    match a {
        Action::Check(a) => check(a),
        Action::Legal(a) => legal(a),
        Action::Selfplay(a) => selfplay(a),
        Action::Play(a) => play(a),
        Action::Bench(a) => bench(a),
        Action::Player(a) => player(a),
    }
}

fn load(path: &str) -> Result<Game> {
    Game::load(path).map_err(|e| anyhow::anyhow!("{e}"))
}

#[derive(clap::Args)]
pub struct CheckArgs {
    /// GDL files.
    #[arg(required = true)]
    files: Vec<String>,
    /// Random games per file.
    #[arg(long, default_value_t = 200, value_parser = crate::limits::GAMES)]
    games: usize,
    /// A random game longer than this fails the termination check.
    #[arg(long, default_value_t = 1000, value_parser = crate::limits::MAX_MOVES)]
    max_steps: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn check(a: CheckArgs) -> Result<i32> {
    let mut code = 0;
    for f in &a.files {
        let text = std::fs::read_to_string(f).with_context(|| format!("cannot read {f}"))?;
        let problems = gamebot_gdl::check_text(f, &text);
        if !problems.is_empty() {
            for p in &problems {
                outln!("{p}");
            }
            code = 1;
            continue;
        }
        let game = match Game::parse(f, &text) {
            Ok(g) => g,
            Err(e) => {
                outln!("{e}");
                code = 1;
                continue;
            }
        };
        let s = game.size();
        outln!(
            "{f}: static checks passed; {} roles, {} ground atoms, {} ground rules ({} dynamic), {} base propositions",
            game.roles().len(),
            s.atoms,
            s.ground_rules,
            s.dynamic_rules,
            s.base
        );
        let r = validate(
            &game,
            &Options {
                games: a.games,
                max_steps: a.max_steps,
                seed: a.seed,
            },
        );
        outln!("{r}");
        if !r.passed() {
            code = 1;
        }
    }
    Ok(code)
}

/// Reads joint moves: each top-level KIF list is one step, one move per role.
fn joint_moves(game: &Game, text: &str) -> Result<Vec<Vec<Move>>> {
    let steps = kif::read("--moves", text).map_err(|d| anyhow::anyhow!("{d}"))?;
    let n = game.roles().len();
    let mut out = Vec::new();
    for (i, s) in steps.iter().enumerate() {
        let items: Vec<&kif::SExpr> = match s {
            kif::SExpr::List(items, _) if n > 1 || items.len() == 1 => items.iter().collect(),
            // One role: the move itself.
            _ if n == 1 => vec![s],
            _ => bail!("step {}: `{s}` is not a list of {n} moves", i + 1),
        };
        if items.len() != n {
            bail!("step {}: {} moves given for {n} roles", i + 1, items.len());
        }
        let mut joint = Vec::new();
        for (r, e) in items.iter().enumerate() {
            joint.push(game.move_of_sexpr(r, e).with_context(|| {
                format!("step {}: `{e}` is not a move of {}", i + 1, game.roles()[r])
            })?);
        }
        out.push(joint);
    }
    Ok(out)
}

#[derive(clap::Args)]
pub struct LegalArgs {
    /// GDL file.
    file: String,
    /// Joint moves, one parenthesised list per step in role order,
    /// e.g. "((put 1 1) noop) (noop (put 2 2))".
    #[arg(long)]
    moves: Option<String>,
}

fn legal(a: LegalArgs) -> Result<i32> {
    let game = load(&a.file)?;
    let mut sc = game.scratch();
    let mut st = game.initial_state();
    if let Some(m) = &a.moves {
        for (i, joint) in joint_moves(&game, m)?.iter().enumerate() {
            st = match game.next_state(&st, joint, &mut sc) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("error: step {}: {e}", i + 1);
                    return Ok(2);
                }
            };
        }
    }
    if game.is_terminal(&st, &mut sc) {
        let goals = game.goals(&st, &mut sc);
        outln!("terminal");
        for (r, g) in game.roles().iter().zip(goals) {
            outln!("goal {r} {}", g.map_or("none".into(), |g| g.to_string()));
        }
        return Ok(0);
    }
    let moves = game.legal_moves(&st, &mut sc);
    for (r, ms) in game.roles().iter().zip(moves) {
        let mut t: Vec<String> = ms.iter().map(|&m| game.move_text(m)).collect();
        t.sort();
        outln!("{r}: {}", t.join(" "));
    }
    Ok(0)
}

#[derive(clap::Args)]
#[command(after_help = format!("Strategies:\n{}", strategy_help()))]
pub struct SelfplayArgs {
    /// GDL file.
    file: String,
    /// Number of games.
    #[arg(long, default_value_t = 100, value_parser = crate::limits::GAMES)]
    games: usize,
    /// Strategy per role, in role order (repeat the option); missing roles play random.
    #[arg(long = "player")]
    players: Vec<String>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games stop after this many steps.
    #[arg(long, default_value_t = 1000, value_parser = crate::limits::MAX_MOVES)]
    max_steps: usize,
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct SelfplaySummary {
    game: String,
    games: usize,
    roles: Vec<String>,
    mean_goals: Vec<f64>,
    /// Games each role scored strictly more than every other role.
    wins: Vec<usize>,
    mean_length: f64,
    unfinished: usize,
}

fn specs_for(game: &Game, players: &[String], seed: u64) -> Result<Vec<Spec>> {
    let mut out = Vec::new();
    for r in 0..game.roles().len() {
        let text = players.get(r).cloned().unwrap_or_else(|| "random".into());
        let mut spec: Spec = text.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
        if let Spec::Random(o) = &mut spec {
            o.seed.get_or_insert(seed.wrapping_add(r as u64));
        }
        out.push(spec);
    }
    Ok(out)
}

/// Plays one game between strategies; returns the goals and the length (None: unfinished).
fn play_game(
    game: &Game,
    players: &mut [Box<dyn GdlStrategy>],
    max_steps: usize,
) -> Result<(Vec<Option<u8>>, usize, bool)> {
    let mut sc = game.scratch();
    let mut st = game.initial_state();
    let ctl = SearchControl::new();
    for step in 0..max_steps {
        if game.is_terminal(&st, &mut sc) {
            return Ok((game.goals(&st, &mut sc), step, true));
        }
        let mut joint = Vec::new();
        for (r, p) in players.iter_mut().enumerate() {
            joint.push(
                p.choose(game, &st, r, &ctl)
                    .map_err(|e| anyhow::anyhow!("step {}: {}: {e}", step + 1, game.roles()[r]))?
                    .mv,
            );
        }
        st = game
            .next_state(&st, &joint, &mut sc)
            .map_err(|e| anyhow::anyhow!("step {}: {e}", step + 1))?;
    }
    let done = game.is_terminal(&st, &mut sc);
    Ok((game.goals(&st, &mut sc), max_steps, done))
}

fn selfplay(a: SelfplayArgs) -> Result<i32> {
    let game = load(&a.file)?;
    let n = game.roles().len();
    let specs = specs_for(&game, &a.players, a.seed)?;
    let mut sum = vec![0f64; n];
    let mut wins = vec![0usize; n];
    let (mut length, mut unfinished) = (0usize, 0usize);
    for _ in 0..a.games {
        let mut players: Vec<Box<dyn GdlStrategy>> = specs.iter().map(ai::build).collect();
        let (goals, len, done) = play_game(&game, &mut players, a.max_steps)?;
        length += len;
        if !done {
            unfinished += 1;
        }
        let g: Vec<f64> = goals.iter().map(|g| g.unwrap_or(0) as f64).collect();
        for r in 0..n {
            sum[r] += g[r];
            if (0..n).all(|o| o == r || g[r] > g[o]) {
                wins[r] += 1;
            }
        }
    }
    let s = SelfplaySummary {
        game: game.name.clone(),
        games: a.games,
        roles: game.roles().to_vec(),
        mean_goals: sum.iter().map(|x| x / a.games.max(1) as f64).collect(),
        wins,
        mean_length: length as f64 / a.games.max(1) as f64,
        unfinished,
    };
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&s)?);
    } else {
        outln!(
            "{}: {} games, mean length {:.1}",
            s.game,
            s.games,
            s.mean_length
        );
        for (r, spec) in specs.iter().enumerate() {
            outln!(
                "  {:<10} {:<24} mean goal {:>6.2}  wins {}",
                s.roles[r],
                spec,
                s.mean_goals[r],
                s.wins[r]
            );
        }
        if unfinished > 0 {
            outln!(
                "  {unfinished} games unfinished after {} steps",
                a.max_steps
            );
        }
    }
    Ok(0)
}

#[derive(clap::Args)]
#[command(after_help = format!("Strategies:\n{}", strategy_help()))]
pub struct PlayArgs {
    /// GDL file.
    file: String,
    /// The computer's strategy for the other roles.
    #[arg(long, default_value = "mcts:time=1s")]
    vs: String,
    /// The role the person plays (default: the first).
    #[arg(long)]
    role: Option<String>,
}

fn play(a: PlayArgs) -> Result<i32> {
    let game = load(&a.file)?;
    let me = match &a.role {
        Some(r) => game.role_index(r).with_context(|| {
            format!(
                "`{r}` is not a role of {} ({})",
                a.file,
                game.roles().join(", ")
            )
        })?,
        None => 0,
    };
    let spec: Spec = a.vs.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut others: Vec<Box<dyn GdlStrategy>> =
        (0..game.roles().len()).map(|_| ai::build(&spec)).collect();
    let mut sc = game.scratch();
    let mut st = game.initial_state();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let ctl = SearchControl::new();
    let mut step = 1;
    loop {
        outln!("\nstep {step}: {}", game.state_text(&st).join(" "));
        if game.is_terminal(&st, &mut sc) {
            let goals = game.goals(&st, &mut sc);
            for (r, g) in game.roles().iter().zip(goals) {
                outln!("goal {r}: {}", g.map_or("none".into(), |g| g.to_string()));
            }
            return Ok(0);
        }
        let legal = game.legal_moves(&st, &mut sc);
        let mine = &legal[me];
        let my_move = if mine.len() == 1 {
            outln!(
                "you ({}) play {}",
                game.roles()[me],
                game.move_text(mine[0])
            );
            mine[0]
        } else {
            loop {
                outln!("your moves ({}):", game.roles()[me]);
                for (i, m) in mine.iter().enumerate() {
                    outln!("  {:>3}. {}", i + 1, game.move_text(*m));
                }
                out!("move (number or KIF)> ");
                std::io::stdout().flush()?;
                let Some(line) = lines.next() else {
                    outln!();
                    return Ok(0);
                };
                let line = line?;
                let t = line.trim();
                if let Ok(k) = t.parse::<usize>() {
                    if (1..=mine.len()).contains(&k) {
                        break mine[k - 1];
                    }
                }
                match game.parse_move(me, t) {
                    Ok(m) if mine.contains(&m) => break m,
                    Ok(_) => outln!("`{t}` is not legal now"),
                    Err(e) => outln!("{e}"),
                }
            }
        };
        let mut joint = Vec::new();
        for (r, p) in others.iter_mut().enumerate() {
            if r == me {
                joint.push(my_move);
                continue;
            }
            let d = p
                .choose(&game, &st, r, &ctl)
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            if legal[r].len() > 1 {
                outln!(
                    "{} plays {} (value {:+.2}, {} nodes, {:.2} s)",
                    game.roles()[r],
                    game.move_text(d.mv),
                    d.stats.value,
                    d.stats.nodes,
                    d.stats.seconds
                );
            }
            joint.push(d.mv);
        }
        st = game.next_state(&st, &joint, &mut sc)?;
        step += 1;
    }
}

#[derive(clap::Args)]
pub struct BenchArgs {
    /// GDL files (default: every games/gdl/*.gdl).
    files: Vec<String>,
    /// Measuring time per game, in seconds.
    #[arg(long, default_value_t = 3.0, value_parser = crate::limits::SECONDS)]
    seconds: f64,
    /// Print a JSON list (the rows of `gamebot bench rules --json`).
    #[arg(long)]
    json: bool,
    /// Playouts are cut after this many steps.
    #[arg(long, default_value_t = 300, value_parser = crate::limits::MAX_MOVES)]
    max_moves: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

use super::bench_rules::{print_rows, Row};

/// One random playout; returns (positions, sum of joint-move counts, length).
fn bench_playout(
    game: &Game,
    sc: &mut gamebot_gdl::Scratch,
    rng: &mut ChaCha8Rng,
    max_moves: usize,
    buf: &mut Vec<u32>,
    choice: &mut Vec<u32>,
) -> (usize, usize, usize) {
    let mut st: State = game.initial_state();
    let (mut positions, mut branching) = (0, 0);
    for len in 0..=max_moves {
        game.load_state(&st, sc);
        positions += 1;
        if game.loaded_terminal(sc) || len == max_moves {
            return (positions, branching, len);
        }
        choice.clear();
        let mut joint = 1;
        for r in 0..game.roles().len() {
            game.loaded_legal(sc, r, buf);
            if buf.is_empty() {
                return (positions, branching, len);
            }
            joint *= buf.len();
            choice.push(buf[rng.gen_range(0..buf.len())]);
        }
        branching += joint;
        st = game.loaded_next(sc, choice);
    }
    (positions, branching, max_moves)
}

fn gdl_files_or_all(given: &[String]) -> Result<Vec<String>> {
    if !given.is_empty() {
        return Ok(given.to_vec());
    }
    let mut found: Vec<String> = std::fs::read_dir("games/gdl")
        .context("cannot list games/gdl/ (run from the repository root or name the files)")?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "gdl"))
        .map(|p| p.display().to_string())
        .collect();
    found.sort();
    Ok(found)
}

fn bench(a: BenchArgs) -> Result<i32> {
    let mut rows = Vec::new();
    for f in gdl_files_or_all(&a.files)? {
        let game = load(&f)?;
        let mut sc = game.scratch();
        let mut rng = ChaCha8Rng::seed_from_u64(a.seed);
        let (mut buf, mut choice) = (Vec::new(), Vec::new());
        let (mut n, mut positions, mut branching, mut length) = (0usize, 0usize, 0usize, 0usize);
        let budget = Duration::from_secs_f64(a.seconds.max(0.0));
        let start = Instant::now();
        while start.elapsed() < budget || n == 0 {
            let (p, b, l) =
                bench_playout(&game, &mut sc, &mut rng, a.max_moves, &mut buf, &mut choice);
            n += 1;
            positions += p;
            branching += b;
            length += l;
        }
        let secs = start.elapsed().as_secs_f64();
        rows.push(Row {
            game: format!("gdl/{}", game.name),
            games_per_s: n as f64 / secs,
            positions_per_s: positions as f64 / secs,
            mean_branching: branching as f64 / (positions.saturating_sub(n)).max(1) as f64,
            mean_length: length as f64 / n as f64,
        });
    }
    print_rows(&rows, a.json)?;
    Ok(0)
}

#[derive(clap::Args)]
#[command(after_help = format!("Strategies:\n{}", strategy_help()))]
pub struct PlayerArgs {
    /// TCP port on 127.0.0.1 (0: any free port; the chosen one is printed).
    #[arg(long, default_value_t = 9147)]
    port: u16,
    /// The strategy; its time budget is replaced by the play clock.
    #[arg(long, default_value = "mcts")]
    strategy: String,
    /// Milliseconds kept back from the play clock for the network.
    #[arg(long, default_value_t = 600, value_parser = crate::limits::MILLIS)]
    margin_ms: u64,
}

/// Largest request head and body accepted.
const MAX_HEAD: usize = 16 * 1024;
const MAX_BODY: usize = 4 * 1024 * 1024;

fn player(a: PlayerArgs) -> Result<i32> {
    let spec: Spec = a.strategy.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
    let listener = TcpListener::bind(("127.0.0.1", a.port))
        .with_context(|| format!("cannot listen on 127.0.0.1:{}", a.port))?;
    let addr = listener.local_addr()?;
    outln!("listening on {addr}");
    std::io::stdout().flush()?;
    let mut p = Player::new(spec);
    p.margin = Duration::from_millis(a.margin_ms);
    for conn in listener.incoming() {
        let stream = match conn {
            Ok(s) => s,
            Err(e) => {
                tracing::warn!("accept on {addr}: {e}");
                continue;
            }
        };
        let peer = stream
            .peer_addr()
            .map(|a| a.to_string())
            .unwrap_or_default();
        if let Err(e) = serve(stream, &mut p) {
            tracing::warn!("request from {peer} on port {}: {e:#}", addr.port());
        }
    }
    Ok(0)
}

/// An HTTP failure to answer with a status.
struct HttpError(u16, String);

fn respond(stream: &mut TcpStream, status: u16, body: &str) -> std::io::Result<()> {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        405 => "Method Not Allowed",
        411 => "Length Required",
        413 => "Payload Too Large",
        _ => "Error",
    };
    write!(
        stream,
        "HTTP/1.0 {status} {reason}\r\nContent-Type: text/acl\r\nContent-Length: {}\r\nAccess-Control-Allow-Origin: *\r\nAccess-Control-Allow-Methods: POST, GET, OPTIONS\r\nAccess-Control-Allow-Headers: Content-Type\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    stream.flush()
}

/// After an early answer: reads (a bounded amount of) what the client still sends,
/// so closing the socket does not reset the connection before the answer is read.
fn drain(stream: &mut TcpStream) {
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(200)));
    let mut buf = [0u8; 4096];
    let mut total = 0;
    while total < MAX_HEAD {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => total += n,
        }
    }
}

/// Reads one request; returns the method and body.
fn read_request(stream: &mut TcpStream) -> Result<(String, String), HttpError> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && !head.ends_with(b"\n\n") {
        match stream.read(&mut byte) {
            Ok(0) => {
                return Err(HttpError(
                    400,
                    "connection closed in the request head".into(),
                ))
            }
            Ok(_) => head.push(byte[0]),
            Err(e) => return Err(HttpError(400, format!("reading the request head: {e}"))),
        }
        if head.len() > MAX_HEAD {
            return Err(HttpError(
                413,
                format!("request head over {MAX_HEAD} bytes"),
            ));
        }
    }
    let head =
        String::from_utf8(head).map_err(|_| HttpError(400, "request head is not UTF-8".into()))?;
    let mut lines = head.lines();
    let request = lines.next().unwrap_or_default();
    let mut parts = request.split_whitespace();
    let method = parts.next().unwrap_or_default().to_string();
    if parts.next().is_none() || !parts.next().is_some_and(|v| v.starts_with("HTTP/")) {
        return Err(HttpError(
            400,
            format!("malformed request line `{request}`"),
        ));
    }
    let mut length = None;
    for l in lines {
        if let Some((k, v)) = l.split_once(':') {
            if k.trim().eq_ignore_ascii_case("content-length") {
                length =
                    Some(v.trim().parse::<usize>().map_err(|_| {
                        HttpError(400, format!("bad Content-Length `{}`", v.trim()))
                    })?);
            }
        }
    }
    if method != "POST" {
        return Ok((method, String::new()));
    }
    let Some(n) = length else {
        return Err(HttpError(411, "POST without Content-Length".into()));
    };
    if n > MAX_BODY {
        return Err(HttpError(413, format!("body over {MAX_BODY} bytes")));
    }
    let mut body = vec![0u8; n];
    stream
        .read_exact(&mut body)
        .map_err(|e| HttpError(400, format!("reading a {n}-byte body: {e}")))?;
    let body = String::from_utf8(body).map_err(|_| HttpError(400, "body is not UTF-8".into()))?;
    Ok((method, body))
}

fn serve(mut stream: TcpStream, p: &mut Player) -> Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    stream.set_write_timeout(Some(Duration::from_secs(10)))?;
    let (method, body) = match read_request(&mut stream) {
        Ok(x) => x,
        Err(HttpError(status, msg)) => {
            respond(&mut stream, status, &msg)?;
            drain(&mut stream);
            bail!("{msg}");
        }
    };
    match method.as_str() {
        "POST" => {}
        "OPTIONS" => return Ok(respond(&mut stream, 200, "")?),
        "GET" => {
            return Ok(respond(
                &mut stream,
                200,
                if p.busy() { "busy" } else { "available" },
            )?)
        }
        m => {
            respond(&mut stream, 405, "only POST")?;
            bail!("method {m}");
        }
    }
    tracing::debug!("request: {body}");
    match p.handle(&body) {
        Ok(reply) => {
            respond(&mut stream, 200, &reply)?;
            Ok(())
        }
        Err(e) => {
            respond(&mut stream, 400, &e.to_string())?;
            bail!("{e}")
        }
    }
}

/// `gamebot tournament FILE.gdl --players ...`: a round robin between strategies
/// on a two-role GDL game. A game scores goal/100 for each side; "won" means the
/// higher goal. Games run one after the other.
pub fn tournament(
    file: &str,
    players: &[String],
    games: usize,
    swap_sides: bool,
    seed: u64,
    max_plies: usize,
) -> Result<i32> {
    let game = load(file)?;
    if game.roles().len() != 2 {
        bail!(
            "{file}: a tournament needs a two-role game, this one has {}",
            game.roles().len()
        );
    }
    if games == 0 {
        bail!("--games must be at least 1");
    }
    let names = gamebot_ai::tournament::player_names(players);
    let specs = players
        .iter()
        .map(|s| s.parse::<Spec>().map_err(|e| anyhow::anyhow!("{e}")))
        .collect::<Result<Vec<_>>>()?;
    outln!(
        "{} (GDL): {} players, {games} games per pairing, {}, seed {seed}",
        game.name,
        names.len(),
        if swap_sides {
            "sides alternate"
        } else {
            "first-listed player plays the first role"
        }
    );
    let w = names.iter().map(|n| n.len()).max().unwrap_or(6).max(8);
    outln!(
        "\n{:<w$}  {:<w$}  {:>5} {:>5} {:>5} {:>5}  {:>6}  {:>9}",
        "player a",
        "player b",
        "games",
        "a won",
        "draws",
        "b won",
        "score",
        "Elo diff"
    );
    let mut k = 0u64;
    for a in 0..specs.len() {
        for b in a + 1..specs.len() {
            let (mut aw, mut dr, mut bw, mut score) = (0, 0, 0, 0.0);
            for i in 0..games {
                k += 1;
                let game_seed = seed.wrapping_mul(1_000_003).wrapping_add(k);
                let a_first = !swap_sides || i % 2 == 0;
                let order = if a_first { [a, b] } else { [b, a] };
                let mut ps: Vec<Box<dyn GdlStrategy>> = order
                    .iter()
                    .enumerate()
                    .map(|(r, &p)| ai::build(&specs[p].with_default_seed(game_seed + r as u64)))
                    .collect();
                let (goals, _, _) = play_game(&game, &mut ps, max_plies)?;
                let g: Vec<f64> = goals.iter().map(|g| g.unwrap_or(0) as f64).collect();
                let (ga, gb) = if a_first { (g[0], g[1]) } else { (g[1], g[0]) };
                score += if ga + gb > 0.0 { ga / (ga + gb) } else { 0.5 };
                match ga.partial_cmp(&gb) {
                    Some(std::cmp::Ordering::Greater) => aw += 1,
                    Some(std::cmp::Ordering::Less) => bw += 1,
                    _ => dr += 1,
                }
            }
            let s = score / games as f64;
            outln!(
                "{:<w$}  {:<w$}  {:>5} {:>5} {:>5} {:>5}  {:>6.3}  {:>+9.0}",
                names[a],
                names[b],
                games,
                aw,
                dr,
                bw,
                s,
                gamebot_ai::tournament::elo_difference(s)
            );
        }
    }
    Ok(0)
}
