//! Checks every Rust mirror against its interface definition: gamebot's own
//! `msg/`, `srv/`, `action/` files and the standard definitions transcribed in
//! `testdata/ros/`. The Rust side is read through serde (serde-reflection
//! traces the real `Deserialize` impls), so what is compared is exactly what
//! goes on the wire: field names, their order and their types.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use gamebot_interfaces::idl::{
    self, ArrayKind, BaseType, FieldType, InterfaceKind, InterfaceSpec, MessageSpec,
};
use gamebot_interfaces::{visit_all, RosAction, RosMessage, RosService, TypeVisitor};
use serde_reflection::{ContainerFormat, Format, Registry, Tracer, TracerConfig};

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn interface_files() -> Vec<PathBuf> {
    let mut dirs = vec![];
    for kind in ["msg", "srv", "action"] {
        dirs.push(crate_dir().join(kind));
    }
    for pkg in std::fs::read_dir(crate_dir().join("testdata/ros")).unwrap() {
        let pkg = pkg.unwrap().path();
        if pkg.is_dir() {
            for kind in ["msg", "srv", "action"] {
                dirs.push(pkg.join(kind));
            }
        }
    }
    let mut files = vec![];
    for d in dirs {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for f in rd {
            let f = f.unwrap().path();
            if f.extension()
                .and_then(|e| e.to_str())
                .and_then(InterfaceKind::from_extension)
                .is_some()
            {
                files.push(f);
            }
        }
    }
    files.sort();
    files
}

/// Parses a file; gamebot's own files live in `packages/gamebot_interfaces/<kind>/`,
/// whose package folder is the crate folder, so the package name comes out right.
fn parse(path: &Path) -> InterfaceSpec {
    idl::load_interface(path).unwrap_or_else(|e| panic!("{e}"))
}

#[derive(Default)]
struct Collect {
    tracer: Option<Tracer>,
    messages: Vec<&'static str>,
    services: Vec<(&'static str, [&'static str; 2])>,
    actions: Vec<(&'static str, [&'static str; 3])>,
    errors: Vec<String>,
}

impl TypeVisitor for Collect {
    fn message<T: RosMessage>(&mut self) {
        let tracer = self
            .tracer
            .get_or_insert_with(|| Tracer::new(TracerConfig::default()));
        if let Err(e) = tracer.trace_simple_type::<T>() {
            self.errors
                .push(format!("{}: cannot trace: {e}", T::TYPE_NAME));
        }
        self.messages.push(T::TYPE_NAME);
    }
    fn service<S: RosService>(&mut self) {
        self.services.push((
            S::TYPE_NAME,
            [S::Request::TYPE_NAME, S::Response::TYPE_NAME],
        ));
    }
    fn action<A: RosAction>(&mut self) {
        self.actions.push((
            A::TYPE_NAME,
            [
                A::Goal::TYPE_NAME,
                A::Result::TYPE_NAME,
                A::Feedback::TYPE_NAME,
            ],
        ));
    }
}

/// Whether a serde format is the wire form of a ROS field type.
fn check_field(format: &Format, ty: &FieldType) -> Result<(), String> {
    let base_ok = |f: &Format| -> Result<(), String> {
        let ok = match (&ty.base, f) {
            (BaseType::Bool, Format::Bool) => true,
            (BaseType::Byte | BaseType::Char | BaseType::Uint8, Format::U8) => true,
            (BaseType::Int8, Format::I8) => true,
            (BaseType::Int16, Format::I16) => true,
            (BaseType::Uint16, Format::U16) => true,
            (BaseType::Int32, Format::I32) => true,
            (BaseType::Uint32, Format::U32) => true,
            (BaseType::Int64, Format::I64) => true,
            (BaseType::Uint64, Format::U64) => true,
            (BaseType::Float32, Format::F32) => true,
            (BaseType::Float64, Format::F64) => true,
            (BaseType::String(_), Format::Str) => true,
            (BaseType::Named { .. }, Format::TypeName(n)) => {
                Some(n.as_str()) == ty.base.full_name().as_deref()
            }
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            Err(format!("expected {}, Rust has {f:?}", ty))
        }
    };
    match (ty.array, format) {
        (ArrayKind::Single, f) => base_ok(f),
        (ArrayKind::Fixed(n), Format::TupleArray { content, size }) if *size == n => {
            base_ok(content)
        }
        (ArrayKind::Unbounded | ArrayKind::Bounded(_), Format::Seq(content)) => base_ok(content),
        (ArrayKind::Unbounded | ArrayKind::Bounded(_), Format::Bytes)
            if matches!(ty.base, BaseType::Uint8 | BaseType::Byte | BaseType::Char) =>
        {
            Ok(())
        }
        (_, f) => Err(format!("expected {}, Rust has {f:?}", ty)),
    }
}

/// Compares one traced Rust struct with a parsed message definition.
fn check_message(registry: &Registry, spec: &MessageSpec) -> Result<(), String> {
    let name = &spec.full_name;
    let Some(container) = registry.get(name) else {
        return Err(format!("{name}: no Rust mirror"));
    };
    let ContainerFormat::Struct(fields) = container else {
        return Err(format!(
            "{name}: Rust mirror is not a struct with named fields: {container:?}"
        ));
    };
    let rust: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
    let ros: Vec<&str> = spec.fields.iter().map(|f| f.name.as_str()).collect();
    if rust != ros {
        return Err(format!(
            "{name}: field names/order differ\n  .msg: {ros:?}\n  Rust: {rust:?}"
        ));
    }
    for (r, f) in fields.iter().zip(&spec.fields) {
        check_field(&r.value, &f.ty).map_err(|e| format!("{name}.{}: {e}", f.name))?;
    }
    Ok(())
}

#[test]
fn every_definition_parses_and_every_rust_mirror_matches_it() {
    let files = interface_files();
    assert!(
        files.len() >= 30,
        "found only {} interface files",
        files.len()
    );

    let mut parts: BTreeMap<String, MessageSpec> = BTreeMap::new();
    let mut services: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut actions: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for f in &files {
        let spec = parse(f);
        let part_names: Vec<String> = spec.parts.iter().map(|p| p.full_name.clone()).collect();
        match spec.kind {
            InterfaceKind::Message => {}
            InterfaceKind::Service => {
                services.insert(spec.full_name.clone(), part_names);
            }
            InterfaceKind::Action => {
                actions.insert(spec.full_name.clone(), part_names);
            }
        }
        for p in spec.parts {
            assert!(
                parts.insert(p.full_name.clone(), p).is_none(),
                "defined twice"
            );
        }
    }

    let mut c = Collect::default();
    visit_all(&mut c);
    assert!(c.errors.is_empty(), "{:#?}", c.errors);
    let registry = c
        .tracer
        .take()
        .unwrap()
        .registry()
        .expect("complete registry");

    let mut problems = vec![];
    // Every Rust message has a definition and matches it.
    for name in &c.messages {
        match parts.get(*name) {
            Some(spec) => {
                if let Err(e) = check_message(&registry, spec) {
                    problems.push(e);
                }
            }
            None => problems.push(format!("{name}: Rust mirror without a definition file")),
        }
    }
    // Every nested type reached by tracing is itself a listed mirror.
    for name in registry.keys() {
        if !c.messages.contains(&name.as_str()) {
            problems.push(format!(
                "{name}: nested in a mirror but not listed by visit_all"
            ));
        }
    }
    // Every definition part has a Rust mirror.
    let listed: BTreeSet<&str> = c.messages.iter().copied().collect();
    for name in parts.keys() {
        if !listed.contains(name.as_str()) {
            problems.push(format!("{name}: definition without a Rust mirror"));
        }
    }
    // Services and actions tie the right parts together.
    for (name, rust_parts) in &c.services {
        match services.get(*name) {
            Some(p) if p.iter().map(String::as_str).eq(rust_parts.iter().copied()) => {}
            other => problems.push(format!(
                "{name}: Rust parts {rust_parts:?}, definition {other:?}"
            )),
        }
    }
    for (name, rust_parts) in &c.actions {
        match actions.get(*name) {
            Some(p) if p.iter().map(String::as_str).eq(rust_parts.iter().copied()) => {}
            other => problems.push(format!(
                "{name}: Rust parts {rust_parts:?}, definition {other:?}"
            )),
        }
    }
    for name in services.keys() {
        if !c.services.iter().any(|(n, _)| n == name) {
            problems.push(format!(
                "{name}: service definition without a Rust RosService"
            ));
        }
    }
    for name in actions.keys() {
        if !c.actions.iter().any(|(n, _)| n == name) {
            problems.push(format!(
                "{name}: action definition without a Rust RosAction"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The checker itself must catch each kind of difference.
#[test]
fn checker_detects_differences() {
    #[derive(serde::Deserialize)]
    #[serde(rename = "t/msg/Swapped")]
    #[allow(dead_code)]
    struct Swapped {
        b: i32,
        a: i32,
    }
    #[derive(serde::Deserialize)]
    #[serde(rename = "t/msg/Width")]
    #[allow(dead_code)]
    struct Width {
        a: i64,
    }
    #[derive(serde::Deserialize)]
    #[serde(rename = "t/msg/Arr")]
    #[allow(dead_code)]
    struct Arr {
        a: Vec<f64>,
        s: Vec<u8>,
    }
    #[derive(serde::Deserialize)]
    #[serde(rename = "t/msg/Nest")]
    #[allow(dead_code)]
    struct Nest {
        p: Width,
    }
    let mut tracer = Tracer::new(TracerConfig::default());
    tracer.trace_simple_type::<Swapped>().unwrap();
    tracer.trace_simple_type::<Arr>().unwrap();
    tracer.trace_simple_type::<Nest>().unwrap();
    let registry = tracer.registry().unwrap();
    let spec = |name: &str, text: &str| {
        idl::parse_interface(InterfaceKind::Message, "t", name, text, name)
            .unwrap()
            .parts
            .remove(0)
    };
    let err = check_message(&registry, &spec("Swapped", "int32 a\nint32 b\n")).unwrap_err();
    assert!(err.contains("order"), "{err}");
    assert!(check_message(&registry, &spec("Swapped", "int32 b\nint32 a\n")).is_ok());
    let err = check_message(&registry, &spec("Width", "int32 a\n")).unwrap_err();
    assert!(err.contains("expected int32"), "{err}");
    let err = check_message(&registry, &spec("Arr", "float64[3] a\nuint8[] s\n")).unwrap_err();
    assert!(err.contains("float64[3]"), "{err}");
    let err = check_message(&registry, &spec("Arr", "float64[] a\nint8[] s\n")).unwrap_err();
    assert!(err.contains("int8[]"), "{err}");
    assert!(check_message(&registry, &spec("Arr", "float64[] a\nuint8[] s\n")).is_ok());
    let err = check_message(&registry, &spec("Nest", "other/Width p\n")).unwrap_err();
    assert!(err.contains("other/Width"), "{err}");
    assert!(check_message(&registry, &spec("Nest", "Width p\n")).is_ok());
    assert!(check_message(&registry, &spec("Missing", "int32 a\n"))
        .unwrap_err()
        .contains("no Rust mirror"));
}

/// `rosidl_generate_interfaces` must list exactly the files in msg/, srv/, action/.
#[test]
fn cmake_lists_every_interface_file() {
    let cmake = std::fs::read_to_string(crate_dir().join("CMakeLists.txt")).unwrap();
    let listed: BTreeSet<String> = cmake
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with('"') && l.ends_with('"'))
        .map(|l| l.trim_matches('"').to_string())
        .collect();
    let mut present = BTreeSet::new();
    for kind in ["msg", "srv", "action"] {
        for f in std::fs::read_dir(crate_dir().join(kind)).unwrap() {
            present.insert(format!(
                "{kind}/{}",
                f.unwrap().file_name().to_string_lossy()
            ));
        }
    }
    assert_eq!(listed, present);
}
