//! Lexical analysis of expressions (§5.1 of the language reference, `docs/language.md`).
//!
//! A value is cut into words and single separator characters; spaces and tabs
//! are then discarded everywhere (also inside string literals). The pieces are
//! turned into tokens left to right, then bracket groups are built.

/// Operators, symbolic and word-shaped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Assign,
    And,
    Or,
    Not,
    Abs,
    Union,
    Intersect,
    SetMinus,
    Subset,
    In,
}

impl Op {
    /// The operator's spelling, for messages.
    pub fn text(self) -> &'static str {
        match self {
            Op::Eq => "==",
            Op::Ne => "!=",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Add => "+",
            Op::Sub => "-",
            Op::Mul => "*",
            Op::Div => "/",
            Op::Rem => "%",
            Op::Assign => "=",
            Op::And => "AND",
            Op::Or => "OR",
            Op::Not => "NOT",
            Op::Abs => "ABS",
            Op::Union => "UNION",
            Op::Intersect => "INTERSECT",
            Op::SetMinus => "SETMINUS",
            Op::Subset => "SUBSET",
            Op::In => "IN",
        }
    }
}

/// A piece of an interpolated string literal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StrPiece {
    Text(String),
    Var(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Int(i32),
    Bool(bool),
    /// A string literal; a single `Text` piece when it has no variables.
    Str(Vec<StrPiece>),
    Var(String),
    Op(Op),
    /// Built-in function name (upper case only).
    Builtin(&'static str),
    /// Any other word: a user function name.
    Ident(String),
    Open(char),
    Close(char),
    Comma,
}

/// A token with its 1-based column within the lexed text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub tok: Tok,
    pub col: u32,
}

/// A lexical error at a column of the lexed text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexError {
    pub col: u32,
    pub message: String,
}

pub const BUILTINS: &[&str] = &[
    "IF",
    "FORALL",
    "FORSOME",
    "LOCTYPE",
    "ELTYPE",
    "STATE",
    "LOCATION",
    "CONTENT",
    "EMPTY",
    "INDEX",
    "INDEXA",
    "UNINDEX",
    "OWNER",
    "PLAYER",
    "SCORE",
    "ZINDEX",
    "MOVE",
    "SETOWNER",
    "SETSTATE",
    "SETZINDEX",
    "NEXTPLAYER",
];

fn is_separator(c: char) -> bool {
    matches!(
        c,
        '=' | '!'
            | '<'
            | '>'
            | '+'
            | '-'
            | '*'
            | '/'
            | '%'
            | '('
            | ')'
            | '{'
            | '}'
            | '['
            | ']'
            | ','
            | '"'
            | '$'
            | ' '
            | '\t'
    )
}

/// A raw piece: a word or a single separator character, with its column.
#[derive(Debug)]
struct Piece<'a> {
    text: &'a str,
    col: u32,
    sep: bool,
}

fn pieces(text: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut word_start: Option<usize> = None;
    let col_of = |byte: usize| text[..byte].chars().count() as u32 + 1;
    for (i, c) in text.char_indices() {
        if is_separator(c) {
            if let Some(s) = word_start.take() {
                out.push(Piece {
                    text: &text[s..i],
                    col: col_of(s),
                    sep: false,
                });
            }
            if c != ' ' && c != '\t' {
                out.push(Piece {
                    text: &text[i..i + c.len_utf8()],
                    col: col_of(i),
                    sep: true,
                });
            }
        } else if word_start.is_none() {
            word_start = Some(i);
        }
    }
    if let Some(s) = word_start {
        out.push(Piece {
            text: &text[s..],
            col: col_of(s),
            sep: false,
        });
    }
    out
}

fn word_op(w: &str) -> Option<Op> {
    Some(match w {
        "AND" => Op::And,
        "OR" => Op::Or,
        "NOT" => Op::Not,
        "ABS" => Op::Abs,
        "UNION" => Op::Union,
        "INTERSECT" => Op::Intersect,
        "SETMINUS" => Op::SetMinus,
        "SUBSET" => Op::Subset,
        "IN" => Op::In,
        _ => return None,
    })
}

/// Lexes one expression into tokens.
pub fn lex(text: &str) -> Result<Vec<Token>, LexError> {
    let ps = pieces(text);
    let mut out = Vec::new();
    let mut i = 0;
    while i < ps.len() {
        let p = &ps[i];
        let col = p.col;
        let next = ps.get(i + 1);
        let tok = match p.text {
            "$" => {
                let name = next.filter(|n| !n.sep).ok_or_else(|| LexError {
                    col,
                    message: "expected a variable name after `$`".into(),
                })?;
                i += 1;
                Tok::Var(name.text.to_string())
            }
            "!" => {
                let n = next.ok_or_else(|| LexError {
                    col,
                    message: "`!` at end of expression".into(),
                })?;
                i += 1;
                if n.text == "=" {
                    Tok::Op(Op::Ne)
                } else {
                    // The reference glues `!` to the next piece; only `!=` means anything.
                    Tok::Ident(format!("!{}", n.text))
                }
            }
            "<" | ">" | "=" => {
                if next.map(|n| n.text) == Some("=") {
                    i += 1;
                    Tok::Op(match p.text {
                        "<" => Op::Le,
                        ">" => Op::Ge,
                        _ => Op::Eq,
                    })
                } else {
                    Tok::Op(match p.text {
                        "<" => Op::Lt,
                        ">" => Op::Gt,
                        _ => Op::Assign,
                    })
                }
            }
            "+" => Tok::Op(Op::Add),
            "-" => Tok::Op(Op::Sub),
            "*" => Tok::Op(Op::Mul),
            "/" => Tok::Op(Op::Div),
            "%" => Tok::Op(Op::Rem),
            "(" | "{" | "[" => Tok::Open(p.text.chars().next().unwrap_or('(')),
            ")" | "}" | "]" => Tok::Close(p.text.chars().next().unwrap_or(')')),
            "," => Tok::Comma,
            "\"" => {
                let mut pieces_out: Vec<StrPiece> = Vec::new();
                let mut j = i + 1;
                let mut closed = false;
                while j < ps.len() {
                    let q = &ps[j];
                    if q.text == "\"" {
                        closed = true;
                        break;
                    }
                    if q.text == "$" {
                        let name = ps.get(j + 1).filter(|n| !n.sep).ok_or_else(|| LexError {
                            col: q.col,
                            message: "expected a variable name after `$` in string".into(),
                        })?;
                        if matches!(pieces_out.last(), Some(StrPiece::Var(_))) {
                            return Err(LexError {
                                col: q.col,
                                message: "two variables directly one after the other in a string \
                                          (the reference loses the first); put text between them"
                                    .into(),
                            });
                        }
                        pieces_out.push(StrPiece::Var(name.text.to_string()));
                        j += 2;
                        continue;
                    }
                    match pieces_out.last_mut() {
                        Some(StrPiece::Text(t)) => t.push_str(q.text),
                        _ => pieces_out.push(StrPiece::Text(q.text.to_string())),
                    }
                    j += 1;
                }
                if !closed {
                    return Err(LexError {
                        col,
                        message: "unterminated string literal".into(),
                    });
                }
                i = j;
                if pieces_out.is_empty() {
                    pieces_out.push(StrPiece::Text(String::new()));
                }
                Tok::Str(pieces_out)
            }
            w => {
                if let Some(op) = word_op(w) {
                    Tok::Op(op)
                } else if let Some(b) = BUILTINS.iter().find(|b| **b == w) {
                    Tok::Builtin(b)
                } else if w.eq_ignore_ascii_case("true") {
                    Tok::Bool(true)
                } else if w.eq_ignore_ascii_case("false") {
                    Tok::Bool(false)
                } else if w.starts_with(|c: char| c.is_ascii_digit()) {
                    if !w.chars().all(|c| c.is_ascii_digit()) {
                        return Err(LexError {
                            col,
                            message: format!("malformed integer `{w}`"),
                        });
                    }
                    let v: i32 = w.parse().map_err(|_| LexError {
                        col,
                        message: format!("integer `{w}` does not fit in 32 bits"),
                    })?;
                    Tok::Int(v)
                } else {
                    Tok::Ident(w.to_string())
                }
            }
        };
        out.push(Token { tok, col });
        i += 1;
    }
    Ok(out)
}

/// Splits a pattern (`element=`, `from=`, `to=`) into literal text and slots,
/// treating it like the inside of a string literal (§4.2).
pub fn pattern_pieces(text: &str) -> Result<Vec<StrPiece>, LexError> {
    let ps = pieces(text);
    let mut out: Vec<StrPiece> = Vec::new();
    let mut j = 0;
    while j < ps.len() {
        let q = &ps[j];
        if q.text == "$" {
            let name = ps.get(j + 1).filter(|n| !n.sep).ok_or_else(|| LexError {
                col: q.col,
                message: "expected a variable name after `$` in pattern".into(),
            })?;
            out.push(StrPiece::Var(name.text.to_string()));
            j += 2;
            continue;
        }
        if q.text == "\"" {
            return Err(LexError {
                col: q.col,
                message: "quotes are not allowed in a pattern".into(),
            });
        }
        match out.last_mut() {
            Some(StrPiece::Text(t)) => t.push_str(q.text),
            _ => out.push(StrPiece::Text(q.text.to_string())),
        }
        j += 1;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        lex(s).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn operators_glue_across_spaces() {
        assert_eq!(
            toks("$a < = 3"),
            vec![Tok::Var("a".into()), Tok::Op(Op::Le), Tok::Int(3)]
        );
        assert_eq!(
            toks("1 != 2"),
            vec![Tok::Int(1), Tok::Op(Op::Ne), Tok::Int(2)]
        );
        assert_eq!(toks("$X = $Y == 3").len(), 5);
    }

    #[test]
    fn strings_lose_spaces_and_interpolate() {
        assert_eq!(
            toks("\"a b\""),
            vec![Tok::Str(vec![StrPiece::Text("ab".into())])]
        );
        assert_eq!(
            toks("\"b($X, $Y)\""),
            vec![Tok::Str(vec![
                StrPiece::Text("b(".into()),
                StrPiece::Var("X".into()),
                StrPiece::Text(",".into()),
                StrPiece::Var("Y".into()),
                StrPiece::Text(")".into()),
            ])]
        );
    }

    #[test]
    fn keywords_are_upper_case_only_but_booleans_any_case() {
        assert_eq!(toks("and"), vec![Tok::Ident("and".into())]);
        assert_eq!(toks("TRUE"), vec![Tok::Bool(true)]);
        assert_eq!(toks("ANDY"), vec![Tok::Ident("ANDY".into())]);
    }

    #[test]
    fn bad_integers_are_errors() {
        assert!(lex("1.5").is_err());
        assert!(lex("99999999999").is_err());
        assert!(lex("2x").is_err());
        assert_eq!(lex("$").unwrap_err().col, 1);
    }
}
