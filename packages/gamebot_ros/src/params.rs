//! Node parameters: typed declarations with defaults, overridden from
//! `--params-file` YAML and `-p name:=value`, with clear errors naming the
//! parameter, the node and where the bad value came from.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// A parameter value, with the ROS 2 parameter types.
#[derive(Debug, Clone, PartialEq)]
pub enum ParamValue {
    /// `bool`
    Bool(bool),
    /// `integer` (64-bit)
    Integer(i64),
    /// `double`
    Double(f64),
    /// `string`
    String(String),
    /// `bool[]`
    BoolArray(Vec<bool>),
    /// `integer[]`
    IntegerArray(Vec<i64>),
    /// `double[]`
    DoubleArray(Vec<f64>),
    /// `string[]`
    StringArray(Vec<String>),
}

impl ParamValue {
    /// The ROS 2 type name of the value.
    pub fn type_name(&self) -> &'static str {
        match self {
            ParamValue::Bool(_) => "bool",
            ParamValue::Integer(_) => "integer",
            ParamValue::Double(_) => "double",
            ParamValue::String(_) => "string",
            ParamValue::BoolArray(_) => "bool array",
            ParamValue::IntegerArray(_) => "integer array",
            ParamValue::DoubleArray(_) => "double array",
            ParamValue::StringArray(_) => "string array",
        }
    }

    /// Parses a value as written after `-p name:=` (YAML syntax, as rcl does):
    /// `true`, `3`, `2.5`, `[1, 2]`, `'quoted'`, anything else is a string.
    pub fn parse_cli(text: &str) -> Result<ParamValue, String> {
        let yaml: serde_yaml::Value =
            serde_yaml::from_str(text).map_err(|e| format!("`{text}` is not valid YAML: {e}"))?;
        match yaml {
            serde_yaml::Value::Null => Ok(ParamValue::String(text.to_string())),
            other => ParamValue::from_yaml(&other),
        }
    }

    /// Converts a YAML scalar or sequence.
    pub fn from_yaml(v: &serde_yaml::Value) -> Result<ParamValue, String> {
        use serde_yaml::Value as Y;
        match v {
            Y::Bool(b) => Ok(ParamValue::Bool(*b)),
            Y::Number(n) => {
                if let Some(i) = n.as_i64() {
                    Ok(ParamValue::Integer(i))
                } else if n.is_u64() {
                    Err(format!("{n} does not fit a 64-bit signed integer"))
                } else {
                    Ok(ParamValue::Double(n.as_f64().unwrap_or(f64::NAN)))
                }
            }
            Y::String(s) => Ok(ParamValue::String(s.clone())),
            Y::Sequence(items) => {
                let vals: Vec<ParamValue> = items
                    .iter()
                    .map(ParamValue::from_yaml)
                    .collect::<Result<_, _>>()?;
                if vals.is_empty() {
                    // An empty list has no element type; rcl treats it as a string array.
                    return Ok(ParamValue::StringArray(vec![]));
                }
                if vals.iter().all(|v| matches!(v, ParamValue::Bool(_))) {
                    Ok(ParamValue::BoolArray(
                        vals.into_iter().filter_map(|v| v.as_bool()).collect(),
                    ))
                } else if vals.iter().all(|v| matches!(v, ParamValue::Integer(_))) {
                    Ok(ParamValue::IntegerArray(
                        vals.into_iter().filter_map(|v| v.as_i64()).collect(),
                    ))
                } else if vals
                    .iter()
                    .all(|v| matches!(v, ParamValue::Integer(_) | ParamValue::Double(_)))
                {
                    Ok(ParamValue::DoubleArray(
                        vals.into_iter().filter_map(|v| v.as_f64()).collect(),
                    ))
                } else if vals.iter().all(|v| matches!(v, ParamValue::String(_))) {
                    Ok(ParamValue::StringArray(
                        vals.into_iter()
                            .filter_map(|v| v.as_str().map(String::from))
                            .collect(),
                    ))
                } else {
                    Err(
                        "a list must hold values of one type (bools, numbers or strings)"
                            .to_string(),
                    )
                }
            }
            Y::Null => Err("empty value".to_string()),
            Y::Mapping(_) => Err("a mapping is not a parameter value".to_string()),
            Y::Tagged(t) => ParamValue::from_yaml(&t.value),
        }
    }

    /// The value as a bool, if it is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            ParamValue::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The value as an integer, if it is one.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            ParamValue::Integer(i) => Some(*i),
            _ => None,
        }
    }

    /// The value as a double; integers convert.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            ParamValue::Double(d) => Some(*d),
            ParamValue::Integer(i) => Some(*i as f64),
            _ => None,
        }
    }

    /// The value as a string, if it is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            ParamValue::String(s) => Some(s),
            _ => None,
        }
    }

    /// Converts `self` to the type of `like`, if ROS would accept it (an
    /// integer where a double is declared, an empty list for any array).
    fn coerce_to(&self, like: &ParamValue) -> Option<ParamValue> {
        use ParamValue as P;
        match (like, self) {
            (P::Bool(_), P::Bool(_))
            | (P::Integer(_), P::Integer(_))
            | (P::Double(_), P::Double(_))
            | (P::String(_), P::String(_))
            | (P::BoolArray(_), P::BoolArray(_))
            | (P::IntegerArray(_), P::IntegerArray(_))
            | (P::DoubleArray(_), P::DoubleArray(_))
            | (P::StringArray(_), P::StringArray(_)) => Some(self.clone()),
            (P::Double(_), P::Integer(i)) => Some(P::Double(*i as f64)),
            (P::DoubleArray(_), P::IntegerArray(v)) => {
                Some(P::DoubleArray(v.iter().map(|&i| i as f64).collect()))
            }
            (P::BoolArray(_), P::StringArray(v)) if v.is_empty() => Some(P::BoolArray(vec![])),
            (P::IntegerArray(_), P::StringArray(v)) if v.is_empty() => {
                Some(P::IntegerArray(vec![]))
            }
            (P::DoubleArray(_), P::StringArray(v)) if v.is_empty() => Some(P::DoubleArray(vec![])),
            _ => None,
        }
    }
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Bool(b) => write!(f, "{b}"),
            ParamValue::Integer(i) => write!(f, "{i}"),
            ParamValue::Double(d) => write!(f, "{d}"),
            ParamValue::String(s) => write!(f, "{s:?}"),
            ParamValue::BoolArray(v) => write!(f, "{v:?}"),
            ParamValue::IntegerArray(v) => write!(f, "{v:?}"),
            ParamValue::DoubleArray(v) => write!(f, "{v:?}"),
            ParamValue::StringArray(v) => write!(f, "{v:?}"),
        }
    }
}

/// A bad parameter value or declaration (boxed: errors are rare, results common).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error(transparent)]
pub struct ParamError(pub Box<ParamErrorKind>);

impl ParamError {
    /// What went wrong.
    pub fn kind(&self) -> &ParamErrorKind {
        &self.0
    }
}

impl From<ParamErrorKind> for ParamError {
    fn from(k: ParamErrorKind) -> Self {
        ParamError(Box::new(k))
    }
}

/// The kinds of [`ParamError`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ParamErrorKind {
    /// The override has the wrong type.
    #[error(
        "parameter `{name}` of node {node}: expected {expected}, got {got} {value} (from {origin})"
    )]
    WrongType {
        /// Node's fully qualified name.
        node: String,
        /// Parameter name.
        name: String,
        /// Declared type.
        expected: &'static str,
        /// Type of the override.
        got: &'static str,
        /// The override as written.
        value: String,
        /// Where the override came from (file or `-p`).
        origin: String,
    },
    /// The value is outside the declared range or set of choices.
    #[error(
        "parameter `{name}` of node {node}: {value} is not allowed: {constraint} (from {origin})"
    )]
    NotAllowed {
        /// Node's fully qualified name.
        node: String,
        /// Parameter name.
        name: String,
        /// The value.
        value: String,
        /// The constraint it breaks.
        constraint: String,
        /// Where the value came from (file, `-p` or `default`).
        origin: String,
    },
    /// Declared twice.
    #[error("parameter `{name}` of node {node} is declared twice")]
    AlreadyDeclared {
        /// Node's fully qualified name.
        node: String,
        /// Parameter name.
        name: String,
    },
    /// Not declared.
    #[error("parameter `{name}` of node {node} is not declared")]
    NotDeclared {
        /// Node's fully qualified name.
        node: String,
        /// Parameter name.
        name: String,
    },
}

/// A parameter value given from outside, and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamOverride {
    /// The value.
    pub value: ParamValue,
    /// `file.yaml` or `-p` (for error messages).
    pub source: String,
}

/// What a node declared about a parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamDescriptor {
    /// Parameter name.
    pub name: String,
    /// Default value (fixes the type).
    pub default: ParamValue,
    /// What it is for.
    pub description: String,
    /// Inclusive numeric range, for integer and double parameters.
    pub range: Option<(f64, f64)>,
    /// Allowed values, for string parameters.
    pub choices: Option<Vec<String>>,
}

impl ParamDescriptor {
    /// A descriptor with a default value and a description.
    pub fn new(name: &str, default: ParamValue, description: &str) -> ParamDescriptor {
        ParamDescriptor {
            name: name.to_string(),
            default,
            description: description.to_string(),
            range: None,
            choices: None,
        }
    }

    /// Restricts a number to `min..=max`.
    pub fn range(mut self, min: f64, max: f64) -> ParamDescriptor {
        self.range = Some((min, max));
        self
    }

    /// Restricts a string to one of `choices`.
    pub fn choices(mut self, choices: &[&str]) -> ParamDescriptor {
        self.choices = Some(choices.iter().map(|s| s.to_string()).collect());
        self
    }

    fn check(&self, node: &str, v: &ParamValue, source: &str) -> Result<(), ParamError> {
        let not_allowed = |constraint: String| -> ParamError {
            ParamErrorKind::NotAllowed {
                node: node.to_string(),
                name: self.name.clone(),
                value: v.to_string(),
                constraint,
                origin: source.to_string(),
            }
            .into()
        };
        if let (Some((lo, hi)), Some(x)) = (self.range, v.as_f64()) {
            if !(lo..=hi).contains(&x) {
                return Err(not_allowed(format!("must be in {lo}..={hi}")));
            }
        }
        if let (Some(choices), Some(s)) = (&self.choices, v.as_str()) {
            if !choices.iter().any(|c| c == s) {
                return Err(not_allowed(format!("must be one of {choices:?}")));
            }
        }
        Ok(())
    }
}

struct Store {
    declared: BTreeMap<String, (ParamDescriptor, ParamValue)>,
}

/// A node's parameters: overrides known at node creation, values fixed at
/// declaration. Cheap to clone (shared).
#[derive(Clone)]
pub struct Parameters {
    node: String,
    overrides: Arc<BTreeMap<String, ParamOverride>>,
    store: Arc<Mutex<Store>>,
}

impl fmt::Debug for Parameters {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Parameters")
            .field("node", &self.node)
            .field("values", &self.values())
            .finish()
    }
}

impl Parameters {
    /// Parameters of node `node` (fully qualified) with these overrides.
    pub fn new(node: &str, overrides: BTreeMap<String, ParamOverride>) -> Parameters {
        Parameters {
            node: node.to_string(),
            overrides: Arc::new(overrides),
            store: Arc::new(Mutex::new(Store {
                declared: BTreeMap::new(),
            })),
        }
    }

    fn store(&self) -> std::sync::MutexGuard<'_, Store> {
        self.store.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Declares a parameter; returns its value (the override if given, else
    /// the default), or why the override is not acceptable.
    pub fn declare(&self, desc: ParamDescriptor) -> Result<ParamValue, ParamError> {
        if self.store().declared.contains_key(&desc.name) {
            return Err(ParamErrorKind::AlreadyDeclared {
                node: self.node.clone(),
                name: desc.name,
            }
            .into());
        }
        desc.check(&self.node, &desc.default, "default")?;
        let value = match self.overrides.get(&desc.name) {
            None => desc.default.clone(),
            Some(o) => {
                let v =
                    o.value
                        .coerce_to(&desc.default)
                        .ok_or_else(|| ParamErrorKind::WrongType {
                            node: self.node.clone(),
                            name: desc.name.clone(),
                            expected: desc.default.type_name(),
                            got: o.value.type_name(),
                            value: o.value.to_string(),
                            origin: o.source.clone(),
                        })?;
                desc.check(&self.node, &v, &o.source)?;
                v
            }
        };
        self.store()
            .declared
            .insert(desc.name.clone(), (desc, value.clone()));
        Ok(value)
    }

    /// Declares a bool parameter.
    pub fn declare_bool(
        &self,
        name: &str,
        default: bool,
        description: &str,
    ) -> Result<bool, ParamError> {
        let v = self.declare(ParamDescriptor::new(
            name,
            ParamValue::Bool(default),
            description,
        ))?;
        Ok(v.as_bool().unwrap_or(default))
    }

    /// Declares an integer parameter in `min..=max`.
    pub fn declare_int(
        &self,
        name: &str,
        default: i64,
        min: i64,
        max: i64,
        description: &str,
    ) -> Result<i64, ParamError> {
        let d = ParamDescriptor::new(name, ParamValue::Integer(default), description)
            .range(min as f64, max as f64);
        Ok(self.declare(d)?.as_i64().unwrap_or(default))
    }

    /// Declares a double parameter in `min..=max`.
    pub fn declare_double(
        &self,
        name: &str,
        default: f64,
        min: f64,
        max: f64,
        description: &str,
    ) -> Result<f64, ParamError> {
        let d =
            ParamDescriptor::new(name, ParamValue::Double(default), description).range(min, max);
        Ok(self.declare(d)?.as_f64().unwrap_or(default))
    }

    /// Declares a string parameter.
    pub fn declare_string(
        &self,
        name: &str,
        default: &str,
        description: &str,
    ) -> Result<String, ParamError> {
        let v = self.declare(ParamDescriptor::new(
            name,
            ParamValue::String(default.into()),
            description,
        ))?;
        Ok(v.as_str().unwrap_or(default).to_string())
    }

    /// Declares a string parameter whose value must parse with `parse`
    /// (e.g. a strategy string); a value that does not is a
    /// [`ParamErrorKind::NotAllowed`] naming the node, the parameter, the
    /// value, the parser's reason and where the value came from.
    pub fn declare_parsed<T, E: std::fmt::Display>(
        &self,
        name: &str,
        default: &str,
        description: &str,
        parse: impl Fn(&str) -> Result<T, E>,
    ) -> Result<T, ParamError> {
        let text = self.declare_string(name, default, description)?;
        parse(&text).map_err(|e| {
            ParamErrorKind::NotAllowed {
                node: self.node.clone(),
                name: name.to_string(),
                value: format!("{text:?}"),
                constraint: e.to_string(),
                origin: self
                    .overrides
                    .get(name)
                    .map_or_else(|| "default".to_string(), |o| o.source.clone()),
            }
            .into()
        })
    }

    /// Declares a string parameter restricted to `choices`.
    pub fn declare_choice(
        &self,
        name: &str,
        default: &str,
        choices: &[&str],
        description: &str,
    ) -> Result<String, ParamError> {
        let d = ParamDescriptor::new(name, ParamValue::String(default.into()), description)
            .choices(choices);
        Ok(self.declare(d)?.as_str().unwrap_or(default).to_string())
    }

    /// Declares a string-array parameter.
    pub fn declare_string_array(
        &self,
        name: &str,
        default: &[&str],
        description: &str,
    ) -> Result<Vec<String>, ParamError> {
        let d = ParamDescriptor::new(
            name,
            ParamValue::StringArray(default.iter().map(|s| s.to_string()).collect()),
            description,
        );
        match self.declare(d)? {
            ParamValue::StringArray(v) => Ok(v),
            _ => Ok(default.iter().map(|s| s.to_string()).collect()),
        }
    }

    /// The current value of a declared parameter.
    pub fn get(&self, name: &str) -> Option<ParamValue> {
        self.store().declared.get(name).map(|(_, v)| v.clone())
    }

    /// Changes a declared parameter (type and constraints checked).
    pub fn set(&self, name: &str, value: ParamValue, source: &str) -> Result<(), ParamError> {
        let mut s = self.store();
        let Some((desc, cur)) = s.declared.get_mut(name) else {
            return Err(ParamErrorKind::NotDeclared {
                node: self.node.clone(),
                name: name.to_string(),
            }
            .into());
        };
        let v = value
            .coerce_to(&desc.default)
            .ok_or_else(|| ParamErrorKind::WrongType {
                node: self.node.clone(),
                name: name.to_string(),
                expected: desc.default.type_name(),
                got: value.type_name(),
                value: value.to_string(),
                origin: source.to_string(),
            })?;
        desc.check(&self.node, &v, source)?;
        *cur = v;
        Ok(())
    }

    /// Every declared parameter and its value.
    pub fn values(&self) -> BTreeMap<String, ParamValue> {
        self.store()
            .declared
            .iter()
            .map(|(k, (_, v))| (k.clone(), v.clone()))
            .collect()
    }

    /// Declarations, for describing the node.
    pub fn descriptors(&self) -> Vec<ParamDescriptor> {
        self.store()
            .declared
            .values()
            .map(|(d, _)| d.clone())
            .collect()
    }

    /// Overrides given for parameters the node never declared (likely typos);
    /// nodes log these after declaring everything.
    pub fn undeclared_overrides(&self) -> Vec<(String, String)> {
        let s = self.store();
        self.overrides
            .iter()
            .filter(|(k, _)| !s.declared.contains_key(*k))
            .map(|(k, o)| (k.clone(), o.source.clone()))
            .collect()
    }
}

/// One `node-pattern: ros__parameters: {...}` block of a parameters file.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamBlock {
    /// Node pattern: `/**`, `/ns/node`, `node`, `/**/node`, `/ns/*` ...
    pub pattern: String,
    /// Flattened parameters (`a: {b: 1}` gives `a.b`), in file order.
    pub params: Vec<(String, ParamValue)>,
}

/// A failure reading a parameters file.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("parameters file {path}: {message}")]
pub struct ParamsFileError {
    /// The file.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

/// Reads a ROS 2 parameters file (`node: ros__parameters: {...}` layout).
pub fn load_params_file(path: &Path) -> Result<Vec<ParamBlock>, ParamsFileError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| ParamsFileError {
        path: shown.clone(),
        message: e.to_string(),
    })?;
    parse_params_yaml(&text, &shown)
}

/// Parses the text of a parameters file; `path` names it in errors.
pub fn parse_params_yaml(text: &str, path: &str) -> Result<Vec<ParamBlock>, ParamsFileError> {
    let err = |message: String| ParamsFileError {
        path: path.to_string(),
        message,
    };
    let doc: serde_yaml::Value = serde_yaml::from_str(text).map_err(|e| err(e.to_string()))?;
    let serde_yaml::Value::Mapping(top) = doc else {
        if doc.is_null() {
            return Ok(vec![]);
        }
        return Err(err(
            "expected a mapping of node names to `ros__parameters`".into()
        ));
    };
    let mut blocks = vec![];
    for (k, v) in &top {
        let key = yaml_key(k).ok_or_else(|| err(format!("key {k:?} is not a string")))?;
        collect_blocks(&key, v, &mut blocks).map_err(err)?;
    }
    Ok(blocks)
}

fn yaml_key(k: &serde_yaml::Value) -> Option<String> {
    match k {
        serde_yaml::Value::String(s) => Some(s.clone()),
        serde_yaml::Value::Number(n) => Some(n.to_string()),
        serde_yaml::Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Walks nested namespace keys down to `ros__parameters`.
fn collect_blocks(
    path: &str,
    v: &serde_yaml::Value,
    out: &mut Vec<ParamBlock>,
) -> Result<(), String> {
    let serde_yaml::Value::Mapping(m) = v else {
        return Err(format!(
            "under `{path}`: expected `ros__parameters:` (a mapping), found a value"
        ));
    };
    let mut found = false;
    for (k, val) in m {
        let key =
            yaml_key(k).ok_or_else(|| format!("under `{path}`: key {k:?} is not a string"))?;
        if key == "ros__parameters" {
            found = true;
            let mut params = vec![];
            flatten("", val, &mut params).map_err(|e| format!("under `{path}`: {e}"))?;
            out.push(ParamBlock {
                pattern: path.to_string(),
                params,
            });
        } else {
            let sep = if path.ends_with('/') || key.starts_with('/') {
                ""
            } else {
                "/"
            };
            collect_blocks(&format!("{path}{sep}{key}"), val, out)?;
            found = true;
        }
    }
    if !found {
        return Err(format!("under `{path}`: no `ros__parameters`"));
    }
    Ok(())
}

fn flatten(
    prefix: &str,
    v: &serde_yaml::Value,
    out: &mut Vec<(String, ParamValue)>,
) -> Result<(), String> {
    let serde_yaml::Value::Mapping(m) = v else {
        return Err("`ros__parameters` must be a mapping".to_string());
    };
    for (k, val) in m {
        let key = yaml_key(k).ok_or_else(|| format!("parameter name {k:?} is not a string"))?;
        let name = if prefix.is_empty() {
            key
        } else {
            format!("{prefix}.{key}")
        };
        if let serde_yaml::Value::Mapping(_) = val {
            flatten(&name, val, out)?;
        } else {
            let pv = ParamValue::from_yaml(val).map_err(|e| format!("parameter `{name}`: {e}"))?;
            out.push((name, pv));
        }
    }
    Ok(())
}

/// Whether a parameters-file node pattern applies to the node `fq_name`
/// (`/ns/name`). Keys without a leading slash are taken as absolute; `*`
/// matches one name token, `**` any number of tokens.
pub fn pattern_matches(pattern: &str, fq_name: &str) -> bool {
    let pat = pattern.trim_start_matches('/');
    let pat_tokens: Vec<&str> = if pat.is_empty() {
        vec![]
    } else {
        pat.split('/').collect()
    };
    let name_tokens: Vec<&str> = fq_name
        .trim_start_matches('/')
        .split('/')
        .filter(|t| !t.is_empty())
        .collect();
    fn m(p: &[&str], n: &[&str]) -> bool {
        match p.first() {
            None => n.is_empty(),
            Some(&"**") => (0..=n.len()).any(|k| m(&p[1..], &n[k..])),
            Some(&tok) => !n.is_empty() && glob(tok, n[0]) && m(&p[1..], &n[1..]),
        }
    }
    fn glob(p: &str, s: &str) -> bool {
        // `*` inside a token matches any run of characters (rcl uses fnmatch).
        match p.find('*') {
            None => p == s,
            Some(i) => {
                let (head, tail) = (&p[..i], &p[i + 1..]);
                s.starts_with(head) && (head.len()..=s.len()).any(|k| glob(tail, &s[k..]))
            }
        }
    }
    m(&pat_tokens, &name_tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn overrides(pairs: &[(&str, ParamValue)]) -> BTreeMap<String, ParamOverride> {
        pairs
            .iter()
            .map(|(k, v)| {
                (
                    k.to_string(),
                    ParamOverride {
                        value: v.clone(),
                        source: "test.yaml".into(),
                    },
                )
            })
            .collect()
    }

    #[test]
    fn cli_values_use_yaml_types() {
        assert_eq!(
            ParamValue::parse_cli("true").unwrap(),
            ParamValue::Bool(true)
        );
        assert_eq!(
            ParamValue::parse_cli("42").unwrap(),
            ParamValue::Integer(42)
        );
        assert_eq!(
            ParamValue::parse_cli("2.5").unwrap(),
            ParamValue::Double(2.5)
        );
        assert_eq!(
            ParamValue::parse_cli("games/x.txt").unwrap(),
            ParamValue::String("games/x.txt".into())
        );
        assert_eq!(
            ParamValue::parse_cli("'42'").unwrap(),
            ParamValue::String("42".into())
        );
        assert_eq!(
            ParamValue::parse_cli("[1, 2.5]").unwrap(),
            ParamValue::DoubleArray(vec![1.0, 2.5])
        );
        assert_eq!(
            ParamValue::parse_cli("[a, b]").unwrap(),
            ParamValue::StringArray(vec!["a".into(), "b".into()])
        );
        assert!(ParamValue::parse_cli("[1, a]").is_err());
        assert!(ParamValue::parse_cli("{a: 1}").is_err());
    }

    #[test]
    fn declarations_take_overrides_and_reject_bad_ones() {
        let p = Parameters::new(
            "/planner",
            overrides(&[
                ("budget", ParamValue::Integer(500)),
                ("ratio", ParamValue::Integer(2)),
                ("strategy", ParamValue::Integer(3)),
                ("typo_param", ParamValue::Bool(true)),
            ]),
        );
        assert_eq!(p.declare_int("budget", 1000, 1, 60_000, "ms").unwrap(), 500);
        assert_eq!(p.declare_double("ratio", 1.0, 0.0, 10.0, "").unwrap(), 2.0);
        assert!(!p.declare_bool("verbose", false, "").unwrap());
        let e = p.declare_string("strategy", "mcts", "").unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.contains("`strategy`") && msg.contains("/planner") && msg.contains("test.yaml"),
            "{msg}"
        );
        assert!(msg.contains("expected string, got integer"), "{msg}");
        assert!(matches!(
            p.declare_bool("verbose", true, ""),
            Err(e) if matches!(e.kind(), ParamErrorKind::AlreadyDeclared { .. })
        ));
        assert_eq!(p.get("budget"), Some(ParamValue::Integer(500)));
        let und = p.undeclared_overrides();
        assert!(und.iter().any(|(k, _)| k == "typo_param"), "{und:?}");
        assert!(p
            .set("budget", ParamValue::Integer(0), "-p")
            .unwrap_err()
            .to_string()
            .contains("must be in 1..=60000"));
        p.set("budget", ParamValue::Integer(7), "-p").unwrap();
        assert_eq!(p.get("budget"), Some(ParamValue::Integer(7)));
        assert!(p.set("nope", ParamValue::Integer(7), "-p").is_err());
    }

    #[test]
    fn ranges_and_choices() {
        let p = Parameters::new(
            "/n",
            overrides(&[
                ("side", ParamValue::String("purple".into())),
                ("k", ParamValue::Integer(99)),
            ]),
        );
        let e = p
            .declare_choice("side", "white", &["white", "black"], "")
            .unwrap_err()
            .to_string();
        assert!(e.contains("must be one of"), "{e}");
        let e = p.declare_int("k", 1, 0, 10, "").unwrap_err().to_string();
        assert!(e.contains("99") && e.contains("0..=10"), "{e}");
    }

    #[test]
    fn parsed_values_fail_naming_node_parameter_value_and_origin() {
        let p = Parameters::new(
            "/n",
            overrides(&[("count", ParamValue::String("ten".into()))]),
        );
        let e = p
            .declare_parsed("count", "3", "", |t| t.parse::<u32>())
            .unwrap_err()
            .to_string();
        for part in ["/n", "count", "\"ten\"", "invalid digit", "test.yaml"] {
            assert!(e.contains(part), "`{part}` missing from: {e}");
        }
        assert_eq!(
            p.declare_parsed("other", "3", "", |t| t.parse::<u32>()),
            Ok(3)
        );
    }

    #[test]
    fn params_files_nest_and_flatten() {
        let text = "/**:\n  ros__parameters:\n    use_sim_time: false\nreferee:\n  ros__parameters:\n    game_file: games/tictactoe.txt\n    players: [human, 'mcts']\n    arm:\n      speed: 0.5\ngame:\n  planner:\n    ros__parameters:\n      time_budget_ms: 200\n";
        let blocks = parse_params_yaml(text, "nodes.yaml").unwrap();
        assert_eq!(blocks.len(), 3);
        assert_eq!(blocks[0].pattern, "/**");
        assert_eq!(
            blocks[1].params[2],
            ("arm.speed".to_string(), ParamValue::Double(0.5))
        );
        assert_eq!(blocks[2].pattern, "game/planner");
        let e = parse_params_yaml("referee:\n  game_file: x\n", "f.yaml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("f.yaml") && e.contains("referee"), "{e}");
        let e = parse_params_yaml("referee:\n  ros__parameters:\n    a: [1, x]\n", "f.yaml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("parameter `a`"), "{e}");
        assert!(parse_params_yaml(": : :", "f.yaml").is_err());
        assert!(parse_params_yaml("", "f.yaml").unwrap().is_empty());
    }

    #[test]
    fn node_patterns() {
        assert!(pattern_matches("/**", "/referee"));
        assert!(pattern_matches("/**", "/a/b/referee"));
        assert!(pattern_matches("referee", "/referee"));
        assert!(!pattern_matches("referee", "/game/referee"));
        assert!(pattern_matches("/game/referee", "/game/referee"));
        assert!(pattern_matches("game/referee", "/game/referee"));
        assert!(pattern_matches("/**/referee", "/game/referee"));
        assert!(pattern_matches("/**/referee", "/referee"));
        assert!(pattern_matches("/game/*", "/game/planner"));
        assert!(!pattern_matches("/game/*", "/game/x/planner"));
        assert!(pattern_matches("/plan*", "/planner_white"));
        assert!(!pattern_matches("/planner", "/planner_white"));
    }

    proptest::proptest! {
        #[test]
        fn params_yaml_never_panics(text in "[ -~\\n]{0,120}") {
            let _ = parse_params_yaml(&text, "p.yaml");
        }
    }
}
