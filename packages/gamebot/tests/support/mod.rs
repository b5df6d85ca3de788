//! What the CLI and process tests of `gamebot` share: the repository root,
//! child processes that are killed when a test ends (also when an assertion
//! fails first) with their stderr in a log file, and the SSC-32U emulator
//! started as a person would (`gamebot ssc32 emulator`), whose first stdout
//! line is its pty.
#![allow(dead_code)] // each test binary uses a part

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// The repository root (games, config and urdf are named relative to it).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A child process whose stderr goes to a log file; stopped (SIGTERM, then
/// SIGKILL after 3 s) and reaped when dropped (the log is kept when the test
/// failed, for a look afterwards).
pub struct ChildProcess {
    pub name: String,
    pub child: Child,
    log: PathBuf,
}

impl ChildProcess {
    /// Starts `cmd` in the repository root; `tag` makes its log name unique.
    pub fn spawn(name: &str, tag: &str, mut cmd: Command) -> ChildProcess {
        let log = std::env::temp_dir().join(format!(
            "gamebot_test_{}_{tag}_{name}.log",
            std::process::id()
        ));
        let child = cmd
            .current_dir(repo())
            .stderr(std::fs::File::create(&log).expect("log file"))
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
        ChildProcess {
            name: name.into(),
            child,
            log,
        }
    }

    /// A ROS node executable: `exe --ros-args ARGS...` on DDS domain `domain`.
    pub fn ros_node(
        name: &str,
        tag: &str,
        exe: &str,
        domain: u16,
        args: &[String],
    ) -> ChildProcess {
        let mut cmd = Command::new(exe);
        cmd.arg("--ros-args")
            .args(args)
            .env("ROS_DOMAIN_ID", domain.to_string())
            .stdout(Stdio::null());
        ChildProcess::spawn(name, tag, cmd)
    }

    /// What the process wrote to stderr so far.
    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Asks the process to stop as Ctrl-C does and waits (20 s at most) for it.
    pub fn interrupt(&mut self) -> ExitStatus {
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").args(["-INT", &pid]).status();
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Some(s) = self.child.try_wait().expect("try_wait") {
                return s;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("{} did not stop on SIGINT:\n{}", self.name, self.log_text());
    }
}

impl Drop for ChildProcess {
    fn drop(&mut self) {
        // Asked to stop first, so it can remove what it made (the
        // emulator its `--link`); killed if it has not stopped in 3 s.
        if matches!(self.child.try_wait(), Ok(None)) {
            let pid = self.child.id().to_string();
            let _ = Command::new("kill").args(["-TERM", &pid]).status();
            let deadline = Instant::now() + Duration::from_secs(3);
            while Instant::now() < deadline && matches!(self.child.try_wait(), Ok(None)) {
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        if !std::thread::panicking() {
            std::fs::remove_file(&self.log).ok();
        }
    }
}

/// `gamebot ssc32 emulator --link LINK EXTRA...` and the pty device it
/// printed as its first line.
pub fn start_emulator(tag: &str, link: &Path, extra: &[&str]) -> (ChildProcess, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gamebot"));
    cmd.args(["ssc32", "emulator", "--link"])
        .arg(link)
        .args(extra)
        .stdout(Stdio::piped());
    let mut emu = ChildProcess::spawn("emulator", tag, cmd);
    let mut first = String::new();
    BufReader::new(emu.child.stdout.take().expect("piped stdout"))
        .read_line(&mut first)
        .expect("the emulator's first line");
    let device = first.trim_end().to_string();
    assert!(
        device.starts_with("/dev/pts/"),
        "the emulator's first line is its device: {first:?}\n{}",
        emu.log_text()
    );
    (emu, device)
}
