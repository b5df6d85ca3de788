//! A parser for ROS 2 interface definition files (`.msg`, `.srv`, `.action`).
//!
//! It reads what decides the wire format — field names, types, array kinds and
//! their order — plus constants and default values, and rejects what `rosidl`
//! rejects in those parts (bad names, unknown primitive spellings, malformed
//! array bounds). Used by the mirror test and by tools that generate types for
//! other languages from the same files.

use std::fmt;
use std::path::Path;

/// A parse failure, naming the file (or source name) and 1-based line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{source_name}:{line}: {message}")]
pub struct ParseError {
    /// File path or other source name given to the parser.
    pub source_name: String,
    /// 1-based line number (0 when the error concerns the whole file).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Failure to read or parse an interface file.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file could not be parsed.
    #[error(transparent)]
    Parse(#[from] ParseError),
}

/// A primitive or named (nested message) base type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum BaseType {
    /// `bool`
    Bool,
    /// `byte` (an octet on the wire)
    Byte,
    /// `char` (a uint8 on the wire in ROS 2)
    Char,
    /// `int8`
    Int8,
    /// `uint8`
    Uint8,
    /// `int16`
    Int16,
    /// `uint16`
    Uint16,
    /// `int32`
    Int32,
    /// `uint32`
    Uint32,
    /// `int64`
    Int64,
    /// `uint64`
    Uint64,
    /// `float32`
    Float32,
    /// `float64`
    Float64,
    /// `string` or `string<=N`
    String(Option<usize>),
    /// `wstring` or `wstring<=N`
    WString(Option<usize>),
    /// A nested message: `pkg/Name`, or `Name` of the same package.
    Named {
        /// Package, fully resolved (the file's own package when not written).
        package: String,
        /// Message name.
        name: String,
    },
}

impl BaseType {
    /// Full ROS name of a named type, `pkg/msg/Name`; `None` for primitives.
    pub fn full_name(&self) -> Option<String> {
        match self {
            BaseType::Named { package, name } => Some(format!("{package}/msg/{name}")),
            _ => None,
        }
    }
}

impl fmt::Display for BaseType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            BaseType::Bool => "bool",
            BaseType::Byte => "byte",
            BaseType::Char => "char",
            BaseType::Int8 => "int8",
            BaseType::Uint8 => "uint8",
            BaseType::Int16 => "int16",
            BaseType::Uint16 => "uint16",
            BaseType::Int32 => "int32",
            BaseType::Uint32 => "uint32",
            BaseType::Int64 => "int64",
            BaseType::Uint64 => "uint64",
            BaseType::Float32 => "float32",
            BaseType::Float64 => "float64",
            BaseType::String(None) => "string",
            BaseType::String(Some(n)) => return write!(f, "string<={n}"),
            BaseType::WString(None) => "wstring",
            BaseType::WString(Some(n)) => return write!(f, "wstring<={n}"),
            BaseType::Named { package, name } => return write!(f, "{package}/{name}"),
        };
        f.write_str(s)
    }
}

/// Whether and how a field is an array.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArrayKind {
    /// A single value.
    Single,
    /// `T[N]`: exactly N elements, no length on the wire.
    Fixed(usize),
    /// `T[]`: a sequence with its length on the wire.
    Unbounded,
    /// `T[<=N]`: a sequence of at most N elements.
    Bounded(usize),
}

/// A field or constant type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FieldType {
    /// Element type.
    pub base: BaseType,
    /// Array kind.
    pub array: ArrayKind,
}

impl fmt::Display for FieldType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.base)?;
        match self.array {
            ArrayKind::Single => Ok(()),
            ArrayKind::Fixed(n) => write!(f, "[{n}]"),
            ArrayKind::Unbounded => write!(f, "[]"),
            ArrayKind::Bounded(n) => write!(f, "[<={n}]"),
        }
    }
}

/// One field of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// Field name.
    pub name: String,
    /// Field type.
    pub ty: FieldType,
    /// Default value as written, if any.
    pub default: Option<String>,
    /// 1-based line in the source.
    pub line: usize,
}

/// A constant of a message (not on the wire).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constant {
    /// Constant name (upper case).
    pub name: String,
    /// Constant type (a primitive).
    pub ty: FieldType,
    /// Value as written.
    pub value: String,
}

/// A parsed message (or one part of a service/action).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageSpec {
    /// Package the definition belongs to.
    pub package: String,
    /// Full ROS type name, e.g. `std_msgs/msg/Header` or
    /// `gamebot_interfaces/srv/SubmitMove_Request`.
    pub full_name: String,
    /// Fields in wire order.
    pub fields: Vec<Field>,
    /// Constants.
    pub constants: Vec<Constant>,
}

/// What kind of interface file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InterfaceKind {
    /// `.msg`: one part.
    Message,
    /// `.srv`: request, response.
    Service,
    /// `.action`: goal, result, feedback.
    Action,
}

impl InterfaceKind {
    /// From a file extension (`msg`, `srv`, `action`).
    pub fn from_extension(ext: &str) -> Option<InterfaceKind> {
        match ext {
            "msg" => Some(InterfaceKind::Message),
            "srv" => Some(InterfaceKind::Service),
            "action" => Some(InterfaceKind::Action),
            _ => None,
        }
    }

    fn folder(self) -> &'static str {
        match self {
            InterfaceKind::Message => "msg",
            InterfaceKind::Service => "srv",
            InterfaceKind::Action => "action",
        }
    }

    fn part_suffixes(self) -> &'static [&'static str] {
        match self {
            InterfaceKind::Message => &[""],
            InterfaceKind::Service => &["_Request", "_Response"],
            InterfaceKind::Action => &["_Goal", "_Result", "_Feedback"],
        }
    }
}

/// A parsed interface file: one part for a message, two for a service, three
/// for an action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InterfaceSpec {
    /// Kind of file.
    pub kind: InterfaceKind,
    /// Full name without part suffix, e.g. `gamebot_interfaces/action/PlanMove`.
    pub full_name: String,
    /// The parts, in file order.
    pub parts: Vec<MessageSpec>,
}

const PRIMITIVES: &[(&str, BaseType)] = &[
    ("bool", BaseType::Bool),
    ("byte", BaseType::Byte),
    ("char", BaseType::Char),
    ("int8", BaseType::Int8),
    ("uint8", BaseType::Uint8),
    ("int16", BaseType::Int16),
    ("uint16", BaseType::Uint16),
    ("int32", BaseType::Int32),
    ("uint32", BaseType::Uint32),
    ("int64", BaseType::Int64),
    ("uint64", BaseType::Uint64),
    ("float32", BaseType::Float32),
    ("float64", BaseType::Float64),
];

/// Parses an interface file's text. `package` is the package it belongs to,
/// `name` the type name (file stem), `source_name` what errors call it.
pub fn parse_interface(
    kind: InterfaceKind,
    package: &str,
    name: &str,
    text: &str,
    source_name: &str,
) -> Result<InterfaceSpec, ParseError> {
    let err = |line: usize, message: String| ParseError {
        source_name: source_name.to_string(),
        line,
        message,
    };
    if !is_valid_type_name(name) {
        return Err(err(
            0,
            format!("`{name}` is not a valid type name (CamelCase, letters and digits)"),
        ));
    }
    if !is_valid_field_name(package) {
        return Err(err(0, format!("`{package}` is not a valid package name")));
    }
    let suffixes = kind.part_suffixes();
    let base_name = format!("{package}/{}/{name}", kind.folder());
    let mut parts: Vec<MessageSpec> = vec![new_part(package, &base_name, suffixes[0])];
    for (idx, raw) in text.lines().enumerate() {
        let line_no = idx + 1;
        let line = strip_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        if line == "---" {
            if parts.len() == suffixes.len() {
                return Err(err(
                    line_no,
                    format!(
                        "a {} file has {} parts separated by `---`; found one more",
                        kind.folder(),
                        suffixes.len()
                    ),
                ));
            }
            parts.push(new_part(package, &base_name, suffixes[parts.len()]));
            continue;
        }
        let part = parts.last_mut().expect("at least one part");
        parse_line(line, line_no, package, part).map_err(|m| err(line_no, m))?;
    }
    if parts.len() != suffixes.len() {
        return Err(err(
            text.lines().count(),
            format!(
                "a {} file needs {} parts separated by `---`; found {}",
                kind.folder(),
                suffixes.len(),
                parts.len()
            ),
        ));
    }
    Ok(InterfaceSpec {
        kind,
        full_name: base_name,
        parts,
    })
}

/// Reads and parses `<...>/<package>/<msg|srv|action>/<Name>.<ext>`; the
/// package is the name of the folder above the kind folder.
pub fn load_interface(path: &Path) -> Result<InterfaceSpec, LoadError> {
    let shown = path.display().to_string();
    let bad = |message: &str| {
        LoadError::Parse(ParseError {
            source_name: shown.clone(),
            line: 0,
            message: message.to_string(),
        })
    };
    let kind = path
        .extension()
        .and_then(|e| e.to_str())
        .and_then(InterfaceKind::from_extension)
        .ok_or_else(|| bad("extension must be .msg, .srv or .action"))?;
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .ok_or_else(|| bad("no file name"))?;
    let package = path
        .parent()
        .and_then(|p| p.parent())
        .and_then(|p| p.file_name())
        .and_then(|p| p.to_str())
        .ok_or_else(|| {
            bad("cannot tell the package: expected <package>/<msg|srv|action>/<Name>.<ext>")
        })?;
    let text = std::fs::read_to_string(path).map_err(|source| LoadError::Io {
        path: shown.clone(),
        source,
    })?;
    Ok(parse_interface(kind, package, name, &text, &shown)?)
}

fn new_part(package: &str, base_name: &str, suffix: &str) -> MessageSpec {
    MessageSpec {
        package: package.to_string(),
        full_name: format!("{base_name}{suffix}"),
        fields: Vec::new(),
        constants: Vec::new(),
    }
}

/// Removes a `#` comment that is not inside a quoted string.
fn strip_comment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match (quote, c) {
            (Some(_), '\\') => escaped = true,
            (Some(q), c) if c == q => quote = None,
            (None, '"') | (None, '\'') => quote = Some(c),
            (None, '#') => return &line[..i],
            _ => {}
        }
    }
    line
}

fn parse_line(
    line: &str,
    _line_no: usize,
    package: &str,
    part: &mut MessageSpec,
) -> Result<(), String> {
    let (ty_text, rest) = split_first_word(line);
    let rest = rest.trim_start();
    if rest.is_empty() {
        return Err(format!("`{ty_text}` has no field name"));
    }
    let ty = parse_type(ty_text, package)?;
    // A constant is `TYPE NAME=VALUE`; the name ends at `=` or whitespace.
    let name_end = rest
        .find(|c: char| c == '=' || c.is_whitespace())
        .unwrap_or(rest.len());
    let name = &rest[..name_end];
    let after = rest[name_end..].trim_start();
    if let Some(value) = after.strip_prefix('=') {
        if !is_valid_constant_name(name) {
            return Err(format!(
                "`{name}` is not a valid constant name (UPPER_CASE)"
            ));
        }
        if ty.array != ArrayKind::Single || matches!(ty.base, BaseType::Named { .. }) {
            return Err(format!(
                "constant `{name}` must have a primitive, non-array type"
            ));
        }
        let value = value.trim();
        if value.is_empty() {
            return Err(format!("constant `{name}` has no value"));
        }
        check_literal(&ty.base, value).map_err(|m| format!("constant `{name}`: {m}"))?;
        if part.constants.iter().any(|c| c.name == name) {
            return Err(format!("constant `{name}` defined twice"));
        }
        part.constants.push(Constant {
            name: name.to_string(),
            ty,
            value: value.to_string(),
        });
        return Ok(());
    }
    if !is_valid_field_name(name) {
        return Err(format!(
            "`{name}` is not a valid field name (lower case letters, digits and single underscores, starting with a letter)"
        ));
    }
    if part.fields.iter().any(|f| f.name == name) {
        return Err(format!("field `{name}` defined twice"));
    }
    let default = if after.is_empty() {
        None
    } else {
        if matches!(ty.base, BaseType::Named { .. }) {
            return Err(format!(
                "field `{name}` of a message type cannot have a default value"
            ));
        }
        if ty.array == ArrayKind::Single {
            check_literal(&ty.base, after).map_err(|m| format!("default of `{name}`: {m}"))?;
        } else if !(after.starts_with('[') && after.ends_with(']')) {
            return Err(format!(
                "default of array field `{name}` must be written `[a, b, ...]`"
            ));
        }
        Some(after.to_string())
    };
    part.fields.push(Field {
        name: name.to_string(),
        ty,
        default,
        line: _line_no,
    });
    Ok(())
}

fn split_first_word(s: &str) -> (&str, &str) {
    match s.find(char::is_whitespace) {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    }
}

/// Parses `base`, `base[N]`, `base[]`, `base[<=N]`, with `string<=N` bounds.
fn parse_type(text: &str, package: &str) -> Result<FieldType, String> {
    let (base_text, array) = match text.find('[') {
        None => (text, ArrayKind::Single),
        Some(open) => {
            let inner = text[open + 1..]
                .strip_suffix(']')
                .ok_or_else(|| format!("type `{text}`: missing `]`"))?;
            let array = if inner.is_empty() {
                ArrayKind::Unbounded
            } else if let Some(n) = inner.strip_prefix("<=") {
                ArrayKind::Bounded(parse_bound(n, text)?)
            } else {
                ArrayKind::Fixed(parse_bound(inner, text)?)
            };
            (&text[..open], array)
        }
    };
    let base = if let Some(n) = base_text.strip_prefix("string<=") {
        BaseType::String(Some(parse_bound(n, text)?))
    } else if let Some(n) = base_text.strip_prefix("wstring<=") {
        BaseType::WString(Some(parse_bound(n, text)?))
    } else if base_text == "string" {
        BaseType::String(None)
    } else if base_text == "wstring" {
        BaseType::WString(None)
    } else if let Some((_, b)) = PRIMITIVES.iter().find(|(n, _)| *n == base_text) {
        b.clone()
    } else {
        let (pkg, name) = match base_text.split_once('/') {
            Some((p, n)) => (p, n),
            None => (package, base_text),
        };
        if !is_valid_field_name(pkg) || !is_valid_type_name(name) {
            return Err(format!(
                "unknown type `{base_text}` (not a primitive, nor pkg/Name)"
            ));
        }
        BaseType::Named {
            package: pkg.to_string(),
            name: name.to_string(),
        }
    };
    Ok(FieldType { base, array })
}

fn parse_bound(n: &str, whole: &str) -> Result<usize, String> {
    match n.parse::<usize>() {
        Ok(v) if v > 0 => Ok(v),
        _ => Err(format!("type `{whole}`: `{n}` is not a positive size")),
    }
}

fn check_literal(base: &BaseType, value: &str) -> Result<(), String> {
    let ok = match base {
        BaseType::Bool => matches!(value, "true" | "false" | "True" | "False" | "0" | "1"),
        BaseType::Float32 | BaseType::Float64 => value.parse::<f64>().is_ok(),
        BaseType::Int8 => value.parse::<i8>().is_ok(),
        BaseType::Int16 => value.parse::<i16>().is_ok(),
        BaseType::Int32 => value.parse::<i32>().is_ok(),
        BaseType::Int64 => value.parse::<i64>().is_ok(),
        BaseType::Uint8 | BaseType::Byte | BaseType::Char => value.parse::<u8>().is_ok(),
        BaseType::Uint16 => value.parse::<u16>().is_ok(),
        BaseType::Uint32 => value.parse::<u32>().is_ok(),
        BaseType::Uint64 => value.parse::<u64>().is_ok(),
        BaseType::String(_) | BaseType::WString(_) => true,
        BaseType::Named { .. } => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!("`{value}` is not a valid {base} value"))
    }
}

/// ROS 2 field (and package) names: lower case letters, digits and single
/// underscores, starting with a letter, not ending with an underscore.
pub fn is_valid_field_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && !s.contains("__")
        && !s.ends_with('_')
}

/// ROS 2 type names: CamelCase letters and digits, starting with a capital.
pub fn is_valid_type_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_uppercase())
        && s.chars().all(|c| c.is_ascii_alphanumeric())
}

/// Constant names: upper case letters, digits and underscores, starting with a letter.
pub fn is_valid_constant_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_uppercase())
        && s.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        && !s.contains("__")
        && !s.ends_with('_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(text: &str) -> Result<InterfaceSpec, ParseError> {
        parse_interface(InterfaceKind::Message, "pkg", "Thing", text, "Thing.msg")
    }

    #[test]
    fn parses_fields_constants_defaults_and_arrays() {
        let spec = msg("# comment\nint32 A=3 # trailing\nstring S=\"x # not a comment\"\n\
                        std_msgs/Header header\nfloat64 w 1\nuint8[16] id\nPoint[] pts\nstring<=5[<=3] names\n")
            .unwrap();
        let p = &spec.parts[0];
        assert_eq!(p.full_name, "pkg/msg/Thing");
        assert_eq!(p.constants.len(), 2);
        assert_eq!(p.constants[1].value, "\"x # not a comment\"");
        let names: Vec<_> = p.fields.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["header", "w", "id", "pts", "names"]);
        assert_eq!(
            p.fields[0].ty.base.full_name().unwrap(),
            "std_msgs/msg/Header"
        );
        assert_eq!(p.fields[1].default.as_deref(), Some("1"));
        assert_eq!(p.fields[2].ty.array, ArrayKind::Fixed(16));
        assert_eq!(
            p.fields[3].ty.base,
            BaseType::Named {
                package: "pkg".into(),
                name: "Point".into()
            }
        );
        assert_eq!(p.fields[3].ty.array, ArrayKind::Unbounded);
        assert_eq!(p.fields[4].ty.base, BaseType::String(Some(5)));
        assert_eq!(p.fields[4].ty.array, ArrayKind::Bounded(3));
        assert_eq!(p.fields[4].ty.to_string(), "string<=5[<=3]");
    }

    #[test]
    fn splits_service_and_action_parts() {
        let s = parse_interface(
            InterfaceKind::Service,
            "p",
            "Srv",
            "int32 a\n---\nbool ok\n",
            "S.srv",
        )
        .unwrap();
        assert_eq!(s.parts[0].full_name, "p/srv/Srv_Request");
        assert_eq!(s.parts[1].full_name, "p/srv/Srv_Response");
        let a = parse_interface(
            InterfaceKind::Action,
            "p",
            "Act",
            "int32 a\n---\n---\nuint8 f\n",
            "A.action",
        )
        .unwrap();
        assert_eq!(a.parts.len(), 3);
        assert!(a.parts[1].fields.is_empty());
        assert_eq!(a.parts[2].full_name, "p/action/Act_Feedback");
    }

    #[test]
    fn rejects_bad_input_with_line_numbers() {
        let cases = [
            ("int32 a\nint33 b\n", 2, "unknown type"),
            ("int32 Bad\n", 1, "not a valid field name"),
            ("int32 a__b\n", 1, "not a valid field name"),
            ("int32 a\nint32 a\n", 2, "defined twice"),
            ("int32 lower=1\n", 1, "not a valid constant name"),
            ("int8 X=300\n", 1, "not a valid int8"),
            ("uint8[0] a\n", 1, "not a positive size"),
            ("uint8[3 a\n", 1, "missing `]`"),
            ("float64\n", 1, "no field name"),
            ("int32 a\n---\nint32 b\n", 0, ""),
            ("Point p 3\n", 1, "cannot have a default"),
            ("int32[] a 3\n", 1, "[a, b, ...]"),
        ];
        for (text, line, needle) in cases {
            let e = msg(text).unwrap_err();
            assert!(e.message.contains(needle), "{text:?}: {e}");
            if line > 0 {
                assert_eq!(e.line, line, "{text:?}: {e}");
            }
            assert!(e.to_string().starts_with("Thing.msg:"), "{e}");
        }
        let e = parse_interface(
            InterfaceKind::Action,
            "p",
            "A",
            "int32 a\n---\nint32 b\n",
            "A.action",
        )
        .unwrap_err();
        assert!(e.message.contains("needs 3 parts"), "{e}");
        let e =
            parse_interface(InterfaceKind::Service, "p", "S", "---\n---\n", "S.srv").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(parse_interface(InterfaceKind::Message, "p", "lower", "", "x").is_err());
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_text_never_panics(text in "[ -~\\n]{0,200}") {
            let _ = msg(&text);
        }

        #[test]
        fn valid_field_lines_round_trip(
            name in "[a-z][a-z0-9]{0,6}(_[a-z0-9]{1,4}){0,2}",
            prim in 0usize..13,
            arr in 0usize..4,
            n in 1usize..50,
        ) {
            let base = PRIMITIVES[prim].0;
            let suffix = match arr { 0 => String::new(), 1 => format!("[{n}]"), 2 => "[]".into(), _ => format!("[<={n}]") };
            let spec = msg(&format!("{base}{suffix} {name}\n")).unwrap();
            let f = &spec.parts[0].fields[0];
            proptest::prop_assert_eq!(&f.name, &name);
            proptest::prop_assert_eq!(f.ty.to_string(), format!("{base}{suffix}"));
        }
    }
}
