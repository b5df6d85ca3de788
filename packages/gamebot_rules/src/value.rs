//! Run-time values of the expression language (§5.2).

use std::fmt;
use std::sync::Arc;

/// Index of an interned string (names, type names, literals) in the game's symbol table.
pub type Sym = u32;

/// A string value: interned when its text is known to the game (every name and
/// literal is), otherwise owned. Interned and owned strings are never equal,
/// because a text is only ever owned when the symbol table does not contain it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Str {
    Sym(Sym),
    /// `Arc<String>` rather than `Arc<str>`: a thin pointer keeps [`Value`] at
    /// 16 bytes, so evaluation results travel in registers.
    Dyn(Arc<String>),
}

/// A deferred call of a user function with frozen arguments (§5.11).
#[derive(Clone, Debug, PartialEq)]
pub struct Deferred {
    pub func: u32,
    pub args: Vec<Value>,
}

/// A member of a lazy set: a value or a deferred call.
#[derive(Clone, Debug)]
pub enum LazyMember {
    Value(Value),
    Deferred(Arc<Deferred>),
}

/// A value of the expression language.
#[derive(Clone, Debug)]
pub enum Value {
    Int(i32),
    Bool(bool),
    Str(Str),
    Set(Arc<Vec<Value>>),
    Lazy(Arc<Vec<LazyMember>>),
}

impl Value {
    /// The kind's name, for error messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Int(_) => "Int",
            Value::Bool(_) => "Bool",
            Value::Str(_) => "Str",
            Value::Set(_) => "Set",
            Value::Lazy(_) => "LazySet",
        }
    }
}

/// Structural equality of §5.6, including the reference's inverted argument
/// test for deferred calls (defect 14, kept: it never runs the calls).
impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Str(a), Value::Str(b)) => a == b,
            (Value::Set(a), Value::Set(b)) => {
                Arc::ptr_eq(a, b)
                    || (a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x == y))
            }
            (Value::Lazy(a), Value::Lazy(b)) => {
                a.len() == b.len()
                    && a.iter().zip(b.iter()).all(|(x, y)| match (x, y) {
                        (LazyMember::Value(x), LazyMember::Value(y)) => x == y,
                        (LazyMember::Deferred(x), LazyMember::Deferred(y)) => {
                            x.func == y.func
                                && x.args.len() == y.args.len()
                                && x.args.iter().zip(y.args.iter()).all(|(p, q)| p != q)
                        }
                        _ => false,
                    })
            }
            _ => false,
        }
    }
}

/// Renders values for messages and the CLI; needs the symbol table for interned strings.
pub struct Display<'a> {
    pub value: &'a Value,
    pub syms: &'a [Arc<str>],
}

impl fmt::Display for Display<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn go(v: &Value, syms: &[Arc<str>], f: &mut fmt::Formatter<'_>) -> fmt::Result {
            match v {
                Value::Int(i) => write!(f, "{i}"),
                Value::Bool(b) => write!(f, "{b}"),
                Value::Str(Str::Sym(s)) => write!(
                    f,
                    "\"{}\"",
                    syms.get(*s as usize).map(|s| &**s).unwrap_or("?")
                ),
                Value::Str(Str::Dyn(s)) => write!(f, "\"{s}\""),
                Value::Set(items) => {
                    write!(f, "{{")?;
                    for (i, x) in items.iter().enumerate() {
                        if i > 0 {
                            write!(f, ",")?;
                        }
                        go(x, syms, f)?;
                    }
                    write!(f, "}}")
                }
                Value::Lazy(items) => {
                    write!(f, "[")?;
                    for (i, x) in items.iter().enumerate() {
                        if i > 0 {
                            write!(f, ",")?;
                        }
                        match x {
                            LazyMember::Value(v) => go(v, syms, f)?,
                            LazyMember::Deferred(d) => {
                                write!(f, "<deferred call #{} with {} args>", d.func, d.args.len())?
                            }
                        }
                    }
                    write!(f, "]")
                }
            }
        }
        go(self.value, self.syms, f)
    }
}

// Evaluation results are `Result<Value, Box<EvalError>>`; at 16 bytes they are
// returned in registers, which matters for the tree-walking evaluator.
const _: () = assert!(std::mem::size_of::<Value>() == 16);
