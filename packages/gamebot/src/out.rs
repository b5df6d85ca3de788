//! Writing to stdout without panicking.
//!
//! `println!` panics when stdout is a closed pipe (`gamebot check F | head -1`).
//! Every command prints through `outln!`/`out!` instead: they return the
//! write error with `?`, and `main` ends the process quietly with exit code 0
//! when the error chain holds a broken pipe (the reader has all it wanted).

/// `println!` that propagates write errors with `?` (the caller returns `anyhow::Result`).
macro_rules! outln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($t)*)?
    }};
}

/// `print!` that flushes and propagates write errors with `?`.
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let mut w = std::io::stdout().lock();
        write!(w, $($t)*)?;
        w.flush()?
    }};
}

/// True when `e` (or anything in its cause chain) is a broken pipe.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
