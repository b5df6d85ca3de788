//! Expression syntax tree and parser (§5.3, §10): no precedence, every binary
//! operator right-associative, prefix operators extending to the end.
//!
//! Names are resolved while parsing: variables to slots, user functions to
//! function indices (defined or not; an undefined one fails when called),
//! strings to interned symbols, interpolated strings to templates.

use crate::lexer::{lex, LexError, Op, StrPiece, Tok, Token};
use crate::value::Sym;

/// Slot of a variable in the global namespace.
pub type VarId = u16;
/// Index of a function name (defined or not).
pub type FuncId = u32;

/// Built-in functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    If,
    LocType,
    ElType,
    State,
    Location,
    Content,
    Empty,
    Index,
    IndexA,
    Unindex,
    Owner,
    Player,
    Score,
    ZIndex,
    Move,
    SetOwner,
    SetState,
    SetZIndex,
    NextPlayer,
}

impl Builtin {
    fn from_name(n: &str) -> Option<(Builtin, usize, usize)> {
        // (builtin, minimum arguments, maximum arguments)
        use Builtin::*;
        Some(match n {
            "IF" => (If, 2, 3),
            "LOCTYPE" => (LocType, 1, 1),
            "ELTYPE" => (ElType, 1, 1),
            "STATE" => (State, 1, 1),
            "LOCATION" => (Location, 1, 1),
            "CONTENT" => (Content, 1, 1),
            "EMPTY" => (Empty, 1, 1),
            "INDEX" => (Index, 1, 1),
            "INDEXA" => (IndexA, 2, 2),
            "UNINDEX" => (Unindex, 1, 1),
            "OWNER" => (Owner, 1, 1),
            "PLAYER" => (Player, 0, 0),
            "SCORE" => (Score, 1, 1),
            "ZINDEX" => (ZIndex, 1, 1),
            "MOVE" => (Move, 3, 3),
            "SETOWNER" => (SetOwner, 2, 2),
            "SETSTATE" => (SetState, 2, 2),
            "SETZINDEX" => (SetZIndex, 2, 2),
            "NEXTPLAYER" => (NextPlayer, 0, 0),
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        use Builtin::*;
        match self {
            If => "IF",
            LocType => "LOCTYPE",
            ElType => "ELTYPE",
            State => "STATE",
            Location => "LOCATION",
            Content => "CONTENT",
            Empty => "EMPTY",
            Index => "INDEX",
            IndexA => "INDEXA",
            Unindex => "UNINDEX",
            Owner => "OWNER",
            Player => "PLAYER",
            Score => "SCORE",
            ZIndex => "ZINDEX",
            Move => "MOVE",
            SetOwner => "SETOWNER",
            SetState => "SETSTATE",
            SetZIndex => "SETZINDEX",
            NextPlayer => "NEXTPLAYER",
        }
    }
}

/// A compiled expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Int(i32),
    Bool(bool),
    Str(Sym),
    /// Interpolated string: index into the game's templates.
    Interp(u32),
    Var(VarId),
    Set(Box<[Expr]>),
    Lazy(Box<[LazyItem]>),
    Call(FuncId, Box<[Expr]>),
    Builtin(Builtin, Box<[Expr]>),
    /// `FORALL` (`all = true`) or `FORSOME`.
    Loop {
        all: bool,
        var: VarId,
        from: Box<Expr>,
        to: Box<Expr>,
        body: Box<Expr>,
    },
    Unary(Op, Box<Expr>),
    Binary(Op, Box<Expr>, Box<Expr>),
    Assign(VarId, Box<Expr>),
}

/// A member of a lazy-set literal.
#[derive(Clone, Debug, PartialEq)]
pub enum LazyItem {
    /// A user-function call: its arguments are evaluated and frozen, the call deferred.
    Defer(FuncId, Box<[Expr]>),
    Now(Expr),
}

impl Expr {
    /// Visits this expression and all sub-expressions.
    pub fn walk(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        match self {
            Expr::Set(xs) | Expr::Call(_, xs) | Expr::Builtin(_, xs) => {
                xs.iter().for_each(|x| x.walk(f))
            }
            Expr::Lazy(items) => {
                for it in items.iter() {
                    match it {
                        LazyItem::Defer(_, xs) => xs.iter().for_each(|x| x.walk(f)),
                        LazyItem::Now(x) => x.walk(f),
                    }
                }
            }
            Expr::Loop { from, to, body, .. } => {
                from.walk(f);
                to.walk(f);
                body.walk(f);
            }
            Expr::Unary(_, x) | Expr::Assign(_, x) => x.walk(f),
            Expr::Binary(_, a, b) => {
                a.walk(f);
                b.walk(f);
            }
            _ => {}
        }
    }
}

/// What the parser needs from the loader: name resolution.
pub trait Resolver {
    fn var(&mut self, name: &str) -> VarId;
    fn func(&mut self, name: &str) -> FuncId;
    fn sym(&mut self, text: &str) -> Sym;
    /// Registers an interpolated string; returns its template index.
    fn template(&mut self, pieces: &[StrPiece]) -> u32;
}

/// A parse error at a 1-based column of the expression text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub col: u32,
    pub message: String,
}

impl From<LexError> for ParseError {
    fn from(e: LexError) -> Self {
        ParseError {
            col: e.col,
            message: e.message,
        }
    }
}

#[derive(Debug)]
enum Item {
    Tok(Token),
    Group {
        open: char,
        col: u32,
        parts: Vec<Vec<Item>>,
    },
}

impl Item {
    fn col(&self) -> u32 {
        match self {
            Item::Tok(t) => t.col,
            Item::Group { col, .. } => *col,
        }
    }
}

/// A bracket group being built: (open char, column, finished parts, current part).
type OpenGroup = (char, u32, Vec<Vec<Item>>, Vec<Item>);

const MAX_NESTING: usize = 64;
const MAX_DEPTH: usize = 400;

fn group(tokens: Vec<Token>) -> Result<Vec<Item>, ParseError> {
    // Stack of open groups: (open char, col, finished parts, current part).
    let mut stack: Vec<OpenGroup> = Vec::new();
    let mut top: Vec<Item> = Vec::new();
    for t in tokens {
        match t.tok {
            Tok::Open(c) => {
                if stack.len() >= MAX_NESTING {
                    return Err(ParseError {
                        col: t.col,
                        message: "brackets nested too deeply".into(),
                    });
                }
                stack.push((c, t.col, Vec::new(), Vec::new()));
            }
            Tok::Comma => match stack.last_mut() {
                Some((_, _, parts, cur)) => {
                    if !cur.is_empty() {
                        parts.push(std::mem::take(cur));
                    }
                }
                None => {
                    return Err(ParseError {
                        col: t.col,
                        message: "`,` outside brackets".into(),
                    })
                }
            },
            Tok::Close(c) => {
                let Some((open, col, mut parts, cur)) = stack.pop() else {
                    return Err(ParseError {
                        col: t.col,
                        message: format!("unbalanced `{c}`: nothing to close"),
                    });
                };
                let want = match open {
                    '(' => ')',
                    '{' => '}',
                    _ => ']',
                };
                if c != want {
                    return Err(ParseError {
                        col: t.col,
                        message: format!(
                            "`{c}` closes `{open}` opened at column {col}; expected `{want}`"
                        ),
                    });
                }
                if !cur.is_empty() {
                    parts.push(cur);
                }
                let item = Item::Group { open, col, parts };
                match stack.last_mut() {
                    Some((_, _, _, cur)) => cur.push(item),
                    None => top.push(item),
                }
            }
            _ => {
                let item = Item::Tok(t);
                match stack.last_mut() {
                    Some((_, _, _, cur)) => cur.push(item),
                    None => top.push(item),
                }
            }
        }
    }
    if let Some((open, col, ..)) = stack.pop() {
        return Err(ParseError {
            col,
            message: format!("unbalanced `{open}`: never closed"),
        });
    }
    Ok(top)
}

/// Parses one expression text.
pub fn parse(text: &str, r: &mut dyn Resolver) -> Result<Expr, ParseError> {
    let items = group(lex(text)?)?;
    if items.is_empty() {
        return Err(ParseError {
            col: 1,
            message: "empty expression".into(),
        });
    }
    let e = Parser { r }.expr(&items, 1)?;
    check_depth(&e, 0).map_err(|_| ParseError {
        col: 1,
        message: "expression nested too deeply".into(),
    })?;
    Ok(e)
}

fn check_depth(e: &Expr, d: usize) -> Result<(), ()> {
    if d > MAX_DEPTH {
        return Err(());
    }
    let mut res = Ok(());
    match e {
        Expr::Set(xs) | Expr::Call(_, xs) | Expr::Builtin(_, xs) => {
            for x in xs.iter() {
                res = res.and(check_depth(x, d + 1));
            }
        }
        Expr::Lazy(items) => {
            for it in items.iter() {
                match it {
                    LazyItem::Defer(_, xs) => {
                        for x in xs.iter() {
                            res = res.and(check_depth(x, d + 1));
                        }
                    }
                    LazyItem::Now(x) => res = res.and(check_depth(x, d + 1)),
                }
            }
        }
        Expr::Loop { from, to, body, .. } => {
            res = check_depth(from, d + 1)
                .and(check_depth(to, d + 1))
                .and(check_depth(body, d + 1));
        }
        Expr::Unary(_, x) | Expr::Assign(_, x) => res = check_depth(x, d + 1),
        Expr::Binary(_, a, b) => res = check_depth(a, d + 1).and(check_depth(b, d + 1)),
        _ => {}
    }
    res
}

struct Parser<'r> {
    r: &'r mut dyn Resolver,
}

struct Segment {
    prefixes: Vec<Op>,
    operand: Expr,
    operand_col: u32,
    op: Option<(Op, u32)>,
}

impl Parser<'_> {
    fn expr(&mut self, items: &[Item], col: u32) -> Result<Expr, ParseError> {
        if items.is_empty() {
            return Err(ParseError {
                col,
                message: "expected an expression".into(),
            });
        }
        let mut segs: Vec<Segment> = Vec::new();
        let mut i = 0;
        loop {
            let mut prefixes = Vec::new();
            while let Some(Item::Tok(Token {
                tok: Tok::Op(op),
                col,
            })) = items.get(i)
            {
                match op {
                    Op::Not | Op::Abs | Op::Sub => prefixes.push(*op),
                    _ => {
                        return Err(ParseError {
                            col: *col,
                            message: format!("expected an operand, found operator `{}`", op.text()),
                        })
                    }
                }
                i += 1;
            }
            let Some(first) = items.get(i) else {
                let c = items.last().map(Item::col).unwrap_or(col);
                return Err(ParseError {
                    col: c,
                    message: "expected an operand at the end of the expression".into(),
                });
            };
            let operand_col = first.col();
            let operand = self.operand(items, &mut i)?;
            let op = match items.get(i) {
                None => None,
                Some(Item::Tok(Token {
                    tok: Tok::Op(op),
                    col,
                })) => match op {
                    Op::Not | Op::Abs => {
                        return Err(ParseError {
                            col: *col,
                            message: format!(
                                "`{}` is a prefix operator and cannot follow an operand",
                                op.text()
                            ),
                        })
                    }
                    _ => {
                        i += 1;
                        Some((*op, *col))
                    }
                },
                Some(other) => {
                    return Err(ParseError {
                        col: other.col(),
                        message: "expected an operator or the end of the expression".into(),
                    })
                }
            };
            let done = op.is_none();
            segs.push(Segment {
                prefixes,
                operand,
                operand_col,
                op,
            });
            if done {
                break;
            }
        }
        let mut acc: Option<Expr> = None;
        for seg in segs.into_iter().rev() {
            let mut e = match (seg.op, acc.take()) {
                (None, _) => seg.operand,
                (Some((Op::Assign, col)), Some(rhs)) => match seg.operand {
                    Expr::Var(v) => Expr::Assign(v, Box::new(rhs)),
                    _ => {
                        return Err(ParseError {
                            col: seg.operand_col.min(col),
                            message: "the left side of `=` must be a variable".into(),
                        })
                    }
                },
                (Some((op, _)), Some(rhs)) => {
                    Expr::Binary(op, Box::new(seg.operand), Box::new(rhs))
                }
                (Some((_, col)), None) => {
                    return Err(ParseError {
                        col,
                        message: "operator without right side".into(),
                    })
                }
            };
            for p in seg.prefixes.into_iter().rev() {
                e = Expr::Unary(p, Box::new(e));
            }
            acc = Some(e);
        }
        acc.ok_or(ParseError {
            col,
            message: "expected an expression".into(),
        })
    }

    fn parts(&mut self, parts: &[Vec<Item>], col: u32) -> Result<Box<[Expr]>, ParseError> {
        parts
            .iter()
            .map(|p| self.expr(p, col))
            .collect::<Result<Vec<_>, _>>()
            .map(Vec::into_boxed_slice)
    }

    fn call_args<'a>(items: &'a [Item], i: &mut usize) -> Option<&'a [Vec<Item>]> {
        if let Some(Item::Group {
            open: '(', parts, ..
        }) = items.get(*i)
        {
            *i += 1;
            Some(parts)
        } else {
            None
        }
    }

    fn operand(&mut self, items: &[Item], i: &mut usize) -> Result<Expr, ParseError> {
        let item = &items[*i];
        *i += 1;
        match item {
            Item::Group { open, col, parts } => match open {
                '(' => match parts.as_slice() {
                    [one] => self.expr(one, *col),
                    [] => Err(ParseError {
                        col: *col,
                        message: "empty parentheses".into(),
                    }),
                    _ => Err(ParseError {
                        col: *col,
                        message: "a parenthesised group must contain one expression, not a list"
                            .into(),
                    }),
                },
                '{' => Ok(Expr::Set(self.parts(parts, *col)?)),
                _ => {
                    let mut out = Vec::with_capacity(parts.len());
                    for p in parts {
                        out.push(self.lazy_item(p, *col)?);
                    }
                    Ok(Expr::Lazy(out.into_boxed_slice()))
                }
            },
            Item::Tok(t) => match &t.tok {
                Tok::Int(v) => Ok(Expr::Int(*v)),
                Tok::Bool(b) => Ok(Expr::Bool(*b)),
                Tok::Var(name) => Ok(Expr::Var(self.r.var(name))),
                Tok::Str(pieces) => Ok(match pieces.as_slice() {
                    [StrPiece::Text(s)] => Expr::Str(self.r.sym(s)),
                    _ => Expr::Interp(self.r.template(pieces)),
                }),
                Tok::Ident(name) => {
                    let args = match Self::call_args(items, i) {
                        Some(parts) => self.parts(parts, t.col)?,
                        None => Box::new([]),
                    };
                    Ok(Expr::Call(self.r.func(name), args))
                }
                Tok::Builtin(name) => {
                    let parts: &[Vec<Item>] = Self::call_args(items, i).unwrap_or(&[]);
                    self.builtin(name, parts, t.col)
                }
                Tok::Op(op) => Err(ParseError {
                    col: t.col,
                    message: format!("expected an operand, found operator `{}`", op.text()),
                }),
                Tok::Open(_) | Tok::Close(_) | Tok::Comma => Err(ParseError {
                    col: t.col,
                    message: "unexpected bracket".into(),
                }),
            },
        }
    }

    fn builtin(&mut self, name: &str, parts: &[Vec<Item>], col: u32) -> Result<Expr, ParseError> {
        if name == "FORALL" || name == "FORSOME" {
            if parts.len() != 4 {
                return Err(ParseError {
                    col,
                    message: format!(
                        "{name} takes 4 arguments ($var, from, to, body), found {}",
                        parts.len()
                    ),
                });
            }
            let var = match parts[0].as_slice() {
                [Item::Tok(Token {
                    tok: Tok::Var(v), ..
                })] => self.r.var(v),
                _ => {
                    return Err(ParseError {
                        col,
                        message: format!("the first argument of {name} must be a variable"),
                    })
                }
            };
            return Ok(Expr::Loop {
                all: name == "FORALL",
                var,
                from: Box::new(self.expr(&parts[1], col)?),
                to: Box::new(self.expr(&parts[2], col)?),
                body: Box::new(self.expr(&parts[3], col)?),
            });
        }
        let (b, min, max) = Builtin::from_name(name).ok_or_else(|| ParseError {
            col,
            message: format!("unknown built-in {name}"),
        })?;
        if parts.len() < min || parts.len() > max {
            let want = if min == max {
                format!("{min}")
            } else {
                format!("{min} to {max}")
            };
            return Err(ParseError {
                col,
                message: format!("{name} takes {want} argument(s), found {}", parts.len()),
            });
        }
        Ok(Expr::Builtin(b, self.parts(parts, col)?))
    }

    fn lazy_item(&mut self, part: &[Item], col: u32) -> Result<LazyItem, ParseError> {
        match part {
            [Item::Tok(Token {
                tok: Tok::Ident(name),
                ..
            })] => Ok(LazyItem::Defer(self.r.func(name), Box::new([]))),
            [Item::Tok(Token {
                tok: Tok::Ident(name),
                col,
            }), Item::Group {
                open: '(', parts, ..
            }] => {
                let f = self.r.func(name);
                Ok(LazyItem::Defer(f, self.parts(parts, *col)?))
            }
            _ => Ok(LazyItem::Now(self.expr(part, col)?)),
        }
    }
}

impl Expr {
    /// This expression with `f` applied to each direct sub-expression (the
    /// same node otherwise): the rebuilding step of a pass over the tree.
    pub(crate) fn map_children(self, f: &mut impl FnMut(Expr) -> Expr) -> Expr {
        fn all(xs: Box<[Expr]>, f: &mut impl FnMut(Expr) -> Expr) -> Box<[Expr]> {
            xs.into_vec().into_iter().map(f).collect()
        }
        match self {
            Expr::Set(xs) => Expr::Set(all(xs, f)),
            Expr::Call(g, xs) => Expr::Call(g, all(xs, f)),
            Expr::Builtin(b, xs) => Expr::Builtin(b, all(xs, f)),
            Expr::Lazy(items) => {
                let mut out = Vec::with_capacity(items.len());
                for it in items.into_vec() {
                    out.push(match it {
                        LazyItem::Defer(g, xs) => LazyItem::Defer(g, all(xs, f)),
                        LazyItem::Now(x) => LazyItem::Now(f(x)),
                    });
                }
                Expr::Lazy(out.into())
            }
            Expr::Loop {
                all: every,
                var,
                from,
                to,
                body,
            } => Expr::Loop {
                all: every,
                var,
                from: Box::new(f(*from)),
                to: Box::new(f(*to)),
                body: Box::new(f(*body)),
            },
            Expr::Assign(v, x) => Expr::Assign(v, Box::new(f(*x))),
            Expr::Unary(op, x) => Expr::Unary(op, Box::new(f(*x))),
            Expr::Binary(op, a, b) => Expr::Binary(op, Box::new(f(*a)), Box::new(f(*b))),
            e => e,
        }
    }

    /// Constant folding: operators whose operands are all literals are replaced
    /// by their value, bottom-up. Only operations that cannot fail are folded
    /// (integer arithmetic with a non-zero divisor and a result that fits in
    /// 32 bits, comparisons of integers,
    /// equality of literals, `NOT` of a Boolean), so every error still happens
    /// at run time, with the same message, exactly as before.
    pub fn fold(self) -> Expr {
        use crate::lexer::Op::*;
        match self {
            Expr::Unary(op, x) => match (op, x.fold()) {
                (Not, Expr::Bool(b)) => Expr::Bool(!b),
                // Overflowing operations are left to run time, where they are an error.
                (Abs, Expr::Int(i)) if i != i32::MIN => Expr::Int(i.abs()),
                (Sub, Expr::Int(i)) if i != i32::MIN => Expr::Int(-i),
                (op, x) => Expr::Unary(op, Box::new(x)),
            },
            Expr::Binary(op, a, b) => {
                let (a, b) = (a.fold(), b.fold());
                let folded = match (op, &a, &b) {
                    (Add, Expr::Int(x), Expr::Int(y)) => x.checked_add(*y).map(Expr::Int),
                    (Sub, Expr::Int(x), Expr::Int(y)) => x.checked_sub(*y).map(Expr::Int),
                    (Mul, Expr::Int(x), Expr::Int(y)) => x.checked_mul(*y).map(Expr::Int),
                    (Div, Expr::Int(x), Expr::Int(y)) if *y != 0 => {
                        x.checked_div(*y).map(Expr::Int)
                    }
                    (Rem, Expr::Int(x), Expr::Int(y)) if *y != 0 => {
                        Some(Expr::Int(x.wrapping_rem(*y)))
                    }
                    (Lt, Expr::Int(x), Expr::Int(y)) => Some(Expr::Bool(x < y)),
                    (Le, Expr::Int(x), Expr::Int(y)) => Some(Expr::Bool(x <= y)),
                    (Gt, Expr::Int(x), Expr::Int(y)) => Some(Expr::Bool(x > y)),
                    (Ge, Expr::Int(x), Expr::Int(y)) => Some(Expr::Bool(x >= y)),
                    (Eq | Ne, x, y) => literal_eq(x, y).map(|e| Expr::Bool(e == (op == Eq))),
                    _ => None,
                };
                folded.unwrap_or_else(|| Expr::Binary(op, Box::new(a), Box::new(b)))
            }
            e => e.map_children(&mut Expr::fold),
        }
    }
}

/// Equality of two literals (§5.6), `None` when either is not a literal.
fn literal_eq(a: &Expr, b: &Expr) -> Option<bool> {
    let lit = |e: &Expr| matches!(e, Expr::Int(_) | Expr::Bool(_) | Expr::Str(_));
    if !lit(a) || !lit(b) {
        return None;
    }
    Some(match (a, b) {
        (Expr::Int(x), Expr::Int(y)) => x == y,
        (Expr::Bool(x), Expr::Bool(y)) => x == y,
        (Expr::Str(x), Expr::Str(y)) => x == y,
        _ => false,
    })
}

/// The values of `args` when every one is an integer literal (a call
/// specialized for one element, `nim-orig`'s `Left(3)`).
pub(crate) fn int_literals(args: &[Expr]) -> Option<Vec<i32>> {
    args.iter()
        .map(|a| match a {
            &Expr::Int(i) => Some(i),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[derive(Default)]
    struct R {
        vars: HashMap<String, VarId>,
        funcs: HashMap<String, FuncId>,
        syms: HashMap<String, Sym>,
        templates: u32,
    }
    impl Resolver for R {
        fn var(&mut self, name: &str) -> VarId {
            let n = self.vars.len() as VarId;
            *self.vars.entry(name.into()).or_insert(n)
        }
        fn func(&mut self, name: &str) -> FuncId {
            let n = self.funcs.len() as FuncId;
            *self.funcs.entry(name.into()).or_insert(n)
        }
        fn sym(&mut self, text: &str) -> Sym {
            let n = self.syms.len() as Sym;
            *self.syms.entry(text.into()).or_insert(n)
        }
        fn template(&mut self, _: &[StrPiece]) -> u32 {
            self.templates += 1;
            self.templates - 1
        }
    }

    fn shape(s: &str) -> String {
        fn go(e: &Expr) -> String {
            match e {
                Expr::Int(i) => i.to_string(),
                Expr::Bool(b) => b.to_string(),
                Expr::Var(v) => format!("${v}"),
                Expr::Unary(op, x) => format!("({} {})", op.text(), go(x)),
                Expr::Binary(op, a, b) => format!("({} {} {})", go(a), op.text(), go(b)),
                Expr::Assign(v, x) => format!("(${v} = {})", go(x)),
                Expr::Call(f, a) => format!("f{f}/{}", a.len()),
                Expr::Builtin(b, a) => format!("{}/{}", b.name(), a.len()),
                other => format!("{other:?}"),
            }
        }
        go(&parse(s, &mut R::default()).unwrap())
    }

    #[test]
    fn right_associative_without_precedence() {
        assert_eq!(shape("1 + 2 * 3"), "(1 + (2 * 3))");
        assert_eq!(shape("2 * 3 + 1"), "(2 * (3 + 1))");
        assert_eq!(shape("-1 + 2"), "(- (1 + 2))");
        assert_eq!(shape("NOT a AND b"), "(NOT (f0/0 AND f1/0))");
        assert_eq!(shape("$X = $Y = 3"), "($0 = ($1 = 3))");
        assert_eq!(shape("1 + -2 * 3"), "(1 + (- (2 * 3)))");
        assert_eq!(shape("(1 + 2) * 3"), "((1 + 2) * 3)");
    }

    #[test]
    fn rejects_what_the_reference_silently_accepts() {
        let mut r = R::default();
        assert!(parse("F(1) 2 3", &mut r).is_err());
        assert!(parse("a NOT b", &mut r).is_err());
        assert!(parse("(1,2)", &mut r).is_err());
        assert!(parse("3 = 4", &mut r).is_err());
        assert!(parse("FORALL(1, 1, 2, true)", &mut r).is_err());
        assert!(parse("((1)", &mut r).is_err());
        assert!(parse("(1]", &mut r).is_err());
        assert!(parse("1,2", &mut r).is_err());
        assert!(parse("MOVE(1)", &mut r).is_err());
    }

    #[test]
    fn empty_parts_are_dropped() {
        assert_eq!(shape("f(a,,b)"), "f2/2");
    }
}
