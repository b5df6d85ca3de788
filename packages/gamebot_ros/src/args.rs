//! `--ros-args` parsing, as `ros2 run` and `ros2 launch` pass them, and the
//! node configuration that results.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::names::{self, Remap};
use crate::params::{self, ParamOverride, ParamValue, ParamsFileError};
use crate::BusError;

/// A log severity (`--log-level`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum LogLevel {
    /// `debug`
    Debug,
    /// `info`
    Info,
    /// `warn`
    Warn,
    /// `error`
    Error,
    /// `fatal`
    Fatal,
}

impl LogLevel {
    /// Parses `debug`, `info`, `warn`/`warning`, `error`, `fatal` (any case).
    pub fn parse(s: &str) -> Option<LogLevel> {
        match s.to_ascii_lowercase().as_str() {
            "debug" => Some(LogLevel::Debug),
            "info" => Some(LogLevel::Info),
            "warn" | "warning" => Some(LogLevel::Warn),
            "error" => Some(LogLevel::Error),
            "fatal" => Some(LogLevel::Fatal),
            _ => None,
        }
    }

    /// The `rcl_interfaces/msg/Log` level byte.
    pub fn rosout_level(self) -> u8 {
        match self {
            LogLevel::Debug => 10,
            LogLevel::Info => 20,
            LogLevel::Warn => 30,
            LogLevel::Error => 40,
            LogLevel::Fatal => 50,
        }
    }
}

/// A bad command line.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ArgsError {
    /// An option needs a value that is missing.
    #[error("--ros-args: `{flag}` needs a value")]
    MissingValue {
        /// The option.
        flag: String,
    },
    /// Unknown option inside `--ros-args`.
    #[error("--ros-args: unknown option `{flag}` (known: -r/--remap, -p/--param, --params-file, --log-level, -e/--enclave, --enable/--disable-rosout-logs, --enable/--disable-stdout-logs, --disable-external-lib-logs)")]
    Unknown {
        /// The option.
        flag: String,
    },
    /// A remap or parameter rule not of the form `a:=b`.
    #[error("--ros-args: `{rule}` is not a valid {what} rule: {reason}")]
    BadRule {
        /// The rule as given.
        rule: String,
        /// `remap` or `parameter`.
        what: &'static str,
        /// Why.
        reason: String,
    },
    /// A bad `--log-level` value.
    #[error("--ros-args: `{0}` is not a log level (debug, info, warn, error, fatal)")]
    BadLogLevel(String),
    /// A parameters file could not be read.
    #[error(transparent)]
    ParamsFile(#[from] ParamsFileError),
}

/// A `-p [node:]name:=value` rule.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamRule {
    /// Only for this node (base name), or every node.
    pub node: Option<String>,
    /// Parameter name.
    pub name: String,
    /// Value.
    pub value: ParamValue,
}

/// Everything parsed from the command line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RosArgs {
    /// `-r __node:=NAME` rules: (node it applies to, new name).
    pub node_name: Vec<(Option<String>, String)>,
    /// `-r __ns:=NS` rules.
    pub namespace: Vec<(Option<String>, String)>,
    /// Topic/service remaps in order.
    pub remaps: Vec<Remap>,
    /// `-p` rules in order.
    pub params: Vec<ParamRule>,
    /// `--params-file` blocks, in file order, files in command-line order.
    pub param_files: Vec<(PathBuf, Vec<params::ParamBlock>)>,
    /// `--log-level [logger:=]level` rules.
    pub log_levels: Vec<(Option<String>, LogLevel)>,
    /// `--disable-rosout-logs` given.
    pub disable_rosout: bool,
    /// `--disable-stdout-logs` given.
    pub disable_stdout: bool,
    /// Arguments outside `--ros-args ... [--]`, program name excluded.
    pub user_args: Vec<String>,
}

impl RosArgs {
    /// Parses `std::env::args()`.
    pub fn from_env() -> Result<RosArgs, ArgsError> {
        RosArgs::parse(std::env::args().skip(1))
    }

    /// Parses arguments (without the program name). Parameters files are
    /// read here so a bad file is reported at start-up.
    pub fn parse<I, S>(args: I) -> Result<RosArgs, ArgsError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut out = RosArgs::default();
        let mut in_ros = false;
        let mut it = args.into_iter().map(Into::into).peekable();
        while let Some(a) = it.next() {
            if a == "--ros-args" {
                in_ros = true;
                continue;
            }
            if !in_ros {
                out.user_args.push(a);
                continue;
            }
            let mut value = |flag: &str| {
                it.next().ok_or_else(|| ArgsError::MissingValue {
                    flag: flag.to_string(),
                })
            };
            match a.as_str() {
                "--" => in_ros = false,
                "-r" | "--remap" => {
                    let rule = value(&a)?;
                    out.add_remap(&rule)?;
                }
                "-p" | "--param" => {
                    let rule = value(&a)?;
                    out.params.push(parse_param_rule(&rule)?);
                }
                "--params-file" => {
                    let path = PathBuf::from(value(&a)?);
                    let blocks = params::load_params_file(&path)?;
                    out.param_files.push((path, blocks));
                }
                "--log-level" => {
                    let v = value(&a)?;
                    let (logger, level) = match v.split_once(":=") {
                        Some((l, lv)) => (Some(l.to_string()), lv),
                        None => (None, v.as_str()),
                    };
                    let level =
                        LogLevel::parse(level).ok_or_else(|| ArgsError::BadLogLevel(v.clone()))?;
                    out.log_levels.push((logger, level));
                }
                "-e" | "--enclave" | "--log-config-file" | "--log-file-name" => {
                    // Security enclaves and log config files are accepted and
                    // ignored: neither applies to this implementation.
                    value(&a)?;
                }
                "--disable-rosout-logs" => out.disable_rosout = true,
                "--enable-rosout-logs" => out.disable_rosout = false,
                "--disable-stdout-logs" => out.disable_stdout = true,
                "--enable-stdout-logs" => out.disable_stdout = false,
                "--disable-external-lib-logs" | "--enable-external-lib-logs" => {}
                _ => return Err(ArgsError::Unknown { flag: a }),
            }
        }
        Ok(out)
    }

    fn add_remap(&mut self, rule: &str) -> Result<(), ArgsError> {
        let bad = |reason: &str| ArgsError::BadRule {
            rule: rule.to_string(),
            what: "remap",
            reason: reason.to_string(),
        };
        let (lhs, to) = rule
            .split_once(":=")
            .ok_or_else(|| bad("expected `from:=to`"))?;
        // `node:from` limits the rule to one node; `from` itself has no `:`.
        let (node, from) = match lhs.split_once(':') {
            Some((n, f)) => (Some(n.to_string()), f),
            None => (None, lhs),
        };
        if from.is_empty() || to.is_empty() {
            return Err(bad("both sides must be non-empty"));
        }
        match from {
            "__node" | "__name" => {
                names::validate_node_name(to).map_err(|e| bad(&e.to_string()))?;
                self.node_name.push((node, to.to_string()));
            }
            "__ns" => {
                names::normalize_namespace(to).map_err(|e| bad(&e.to_string()))?;
                self.namespace.push((node, to.to_string()));
            }
            f if f.starts_with("__") => {
                return Err(bad("unknown special name (known: __node, __ns)"))
            }
            _ => self.remaps.push(Remap {
                node,
                from: from.to_string(),
                to: to.to_string(),
            }),
        }
        Ok(())
    }

    /// The configuration of a node whose code calls it `default_name` in
    /// namespace `/`, with these arguments applied (name, namespace, remaps,
    /// parameters from files then from `-p`, log level).
    pub fn node_options(&self, default_name: &str) -> Result<NodeOptions, BusError> {
        names::validate_node_name(default_name)?;
        let applies = |n: &Option<String>| n.as_deref().is_none_or(|n| n == default_name);
        let name = self
            .node_name
            .iter()
            .rev()
            .find(|(n, _)| applies(n))
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| default_name.to_string());
        let namespace = self
            .namespace
            .iter()
            .rev()
            .find(|(n, _)| applies(n))
            .map(|(_, v)| v.as_str())
            .unwrap_or("/");
        let namespace = names::normalize_namespace(namespace)?;
        let fq = names::fully_qualified(&namespace, &name);

        let mut overrides = BTreeMap::new();
        for (path, blocks) in &self.param_files {
            for b in blocks
                .iter()
                .filter(|b| params::pattern_matches(&b.pattern, &fq))
            {
                for (k, v) in &b.params {
                    let o = ParamOverride {
                        value: v.clone(),
                        source: path.display().to_string(),
                    };
                    overrides.insert(k.clone(), o);
                }
            }
        }
        // `-p` rules win over files, whatever their order (as in rclcpp).
        for p in self.params.iter().filter(|p| {
            p.node
                .as_deref()
                .is_none_or(|n| n == name || n == default_name)
        }) {
            overrides.insert(
                p.name.clone(),
                ParamOverride {
                    value: p.value.clone(),
                    source: format!("-p {}", p.name),
                },
            );
        }
        let log_level = self
            .log_levels
            .iter()
            .rev()
            .find(|(l, _)| l.as_deref().is_none_or(|l| l == name || l == default_name))
            .map(|(_, lv)| *lv);
        Ok(NodeOptions {
            name: name.clone(),
            namespace,
            remaps: self
                .remaps
                .iter()
                .filter(|r| r.node.as_deref().is_none_or(|n| n == name))
                .cloned()
                .collect(),
            overrides,
            log_level,
            rosout: !self.disable_rosout,
        })
    }
}

fn parse_param_rule(rule: &str) -> Result<ParamRule, ArgsError> {
    let bad = |reason: String| ArgsError::BadRule {
        rule: rule.to_string(),
        what: "parameter",
        reason,
    };
    let (lhs, value) = rule
        .split_once(":=")
        .ok_or_else(|| bad("expected `name:=value`".into()))?;
    let (node, name) = match lhs.split_once(':') {
        Some((n, p)) => (Some(n.to_string()), p),
        None => (None, lhs),
    };
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
    {
        return Err(bad(format!("`{name}` is not a parameter name")));
    }
    let value = ParamValue::parse_cli(value).map_err(bad)?;
    Ok(ParamRule {
        node,
        name: name.to_string(),
        value,
    })
}

/// Everything a backend needs to create a node.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeOptions {
    /// Base name.
    pub name: String,
    /// Namespace (normalised, absolute).
    pub namespace: String,
    /// Remaps for this node.
    pub remaps: Vec<Remap>,
    /// Parameter overrides by name.
    pub overrides: BTreeMap<String, ParamOverride>,
    /// Log level, if set on the command line.
    pub log_level: Option<LogLevel>,
    /// Whether to publish log records on `/rosout`.
    pub rosout: bool,
}

impl NodeOptions {
    /// A node called `name` in namespace `/`, no remaps, no overrides.
    pub fn new(name: &str) -> NodeOptions {
        NodeOptions {
            name: name.to_string(),
            namespace: "/".to_string(),
            remaps: vec![],
            overrides: BTreeMap::new(),
            log_level: None,
            rosout: true,
        }
    }

    /// Sets the namespace.
    pub fn namespace(mut self, ns: &str) -> NodeOptions {
        self.namespace = ns.to_string();
        self
    }

    /// Adds a parameter override.
    pub fn param(mut self, name: &str, value: ParamValue) -> NodeOptions {
        self.overrides.insert(
            name.to_string(),
            ParamOverride {
                value,
                source: "code".to_string(),
            },
        );
        self
    }

    /// Adds a remap rule.
    pub fn remap(mut self, from: &str, to: &str) -> NodeOptions {
        self.remaps.push(Remap {
            node: None,
            from: from.to_string(),
            to: to.to_string(),
        });
        self
    }

    /// Checks the name and namespace and normalises the namespace.
    pub fn validated(mut self) -> Result<NodeOptions, BusError> {
        names::validate_node_name(&self.name)?;
        self.namespace = names::normalize_namespace(&self.namespace)?;
        Ok(self)
    }

    /// `/ns/name`.
    pub fn fully_qualified_name(&self) -> String {
        names::fully_qualified(&self.namespace, &self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Result<RosArgs, ArgsError> {
        RosArgs::parse(s.split_whitespace())
    }

    #[test]
    fn launch_style_arguments() {
        let dir = std::env::temp_dir().join(format!("gamebot_ros_args_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("p.yaml");
        std::fs::write(
            &file,
            "/**:\n  ros__parameters:\n    seed: 1\n    strategy: random\nplanner:\n  ros__parameters:\n    seed: 2\n/game/planner:\n  ros__parameters:\n    strategy: mcts\n",
        )
        .unwrap();
        let a = args(&format!(
            "--verbose --ros-args -r __node:=planner -r __ns:=/game -r chatter:=talk -r other:x:=y \
             --params-file {} -p seed:=9 -p other:seed:=5 --log-level debug -- extra",
            file.display()
        ))
        .unwrap();
        assert_eq!(a.user_args, vec!["--verbose", "extra"]);
        let o = a.node_options("gamebot_planner").unwrap();
        assert_eq!(o.name, "planner");
        assert_eq!(o.namespace, "/game");
        assert_eq!(o.fully_qualified_name(), "/game/planner");
        assert_eq!(o.remaps.len(), 1);
        assert_eq!(o.overrides["seed"].value, ParamValue::Integer(9));
        assert_eq!(o.overrides["seed"].source, "-p seed");
        // `/game/planner` matches, `planner` (= `/planner`) does not.
        assert_eq!(
            o.overrides["strategy"].value,
            ParamValue::String("mcts".into())
        );
        assert_eq!(o.log_level, Some(LogLevel::Debug));
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn node_specific_rules() {
        let a = args("--ros-args -r referee:__node:=ref2 -r planner:__ns:=/p -p planner:depth:=3")
            .unwrap();
        let r = a.node_options("referee").unwrap();
        assert_eq!((r.name.as_str(), r.namespace.as_str()), ("ref2", "/"));
        assert!(r.overrides.is_empty());
        let p = a.node_options("planner").unwrap();
        assert_eq!(p.namespace, "/p");
        assert_eq!(p.overrides["depth"].value, ParamValue::Integer(3));
    }

    #[test]
    fn bad_arguments_are_named() {
        let cases = [
            ("--ros-args -r", "`-r` needs a value"),
            ("--ros-args -r nocolon", "expected `from:=to`"),
            ("--ros-args -r __node:=9bad", "remap"),
            ("--ros-args -r __ns:=/a//b", "remap"),
            ("--ros-args -r __foo:=x", "unknown special name"),
            ("--ros-args -p x", "expected `name:=value`"),
            ("--ros-args -p a-b:=1", "not a parameter name"),
            ("--ros-args --log-level loud", "not a log level"),
            ("--ros-args --frobnicate", "unknown option `--frobnicate`"),
            (
                "--ros-args --params-file /nonexistent/gamebot.yaml",
                "/nonexistent/gamebot.yaml",
            ),
        ];
        for (line, needle) in cases {
            let e = args(line).unwrap_err().to_string();
            assert!(e.contains(needle), "{line}: {e}");
        }
        assert!(args("--ros-args").unwrap().node_options("1x").is_err());
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_arguments_never_panic(v in proptest::collection::vec("[-_:=a-z/_0-9]{0,12}", 0..8)) {
            let mut all = vec!["--ros-args".to_string()];
            all.extend(v);
            if let Ok(a) = RosArgs::parse(all) {
                let _ = a.node_options("n");
            }
        }
    }
}
