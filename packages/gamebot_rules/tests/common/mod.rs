//! What the integration tests over every game file share.

use std::path::{Path, PathBuf};

/// `games/`, beside the workspace's packages.
pub fn games_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../games")
}

/// Every game file of `games/` and `games/bench/` (the original-style
/// benchmark fixtures), sorted.
pub fn game_files() -> Vec<PathBuf> {
    let root = games_dir();
    let mut v = Vec::new();
    for dir in [root.clone(), root.join("bench")] {
        if let Ok(rd) = std::fs::read_dir(&dir) {
            v.extend(
                rd.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "game")),
            );
        }
    }
    v.sort();
    v
}

/// A game file's path under `games/` (`bench/nim-orig.game`).
pub fn rel(f: &Path) -> String {
    f.strip_prefix(games_dir())
        .unwrap_or(f)
        .display()
        .to_string()
}
