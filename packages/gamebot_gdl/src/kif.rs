//! The KIF reader: text to S-expressions with positions.
//!
//! `;` starts a comment to the end of the line; symbols are case-insensitive
//! (folded to lower case); `?x` is a variable; `(` `)` group. Nesting deeper than
//! [`MAX_DEPTH`] is refused, so hostile input cannot exhaust the stack.

use crate::error::{Diagnostic, Pos};

/// Deepest nesting of parentheses accepted.
pub const MAX_DEPTH: usize = 200;

/// An S-expression of KIF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SExpr {
    /// A symbol or variable (`?x`), lower-cased.
    Atom(String, Pos),
    /// A parenthesised list.
    List(Vec<SExpr>, Pos),
}

impl SExpr {
    /// Where the expression starts.
    pub fn pos(&self) -> Pos {
        match self {
            SExpr::Atom(_, p) | SExpr::List(_, p) => *p,
        }
    }
    /// The symbol, when this is an atom.
    pub fn atom(&self) -> Option<&str> {
        match self {
            SExpr::Atom(s, _) => Some(s),
            SExpr::List(..) => None,
        }
    }
}

impl std::fmt::Display for SExpr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SExpr::Atom(s, _) => f.write_str(s),
            SExpr::List(items, _) => {
                f.write_str("(")?;
                for (i, it) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{it}")?;
                }
                f.write_str(")")
            }
        }
    }
}

fn is_delim(c: char) -> bool {
    c.is_whitespace() || c == '(' || c == ')' || c == ';'
}

/// Reads every top-level expression of `text`. `file` names the source in errors.
pub fn read(file: &str, text: &str) -> Result<Vec<SExpr>, Diagnostic> {
    let mut out = Vec::new();
    // Stack of open lists: (items, position of the parenthesis).
    let mut stack: Vec<(Vec<SExpr>, Pos)> = Vec::new();
    let mut chars = text.char_indices().peekable();
    let (mut line, mut col) = (1u32, 1u32);
    while let Some(&(i, c)) = chars.peek() {
        let pos = Pos { line, col };
        if c == '\n' {
            chars.next();
            line += 1;
            col = 1;
            continue;
        }
        if c.is_whitespace() {
            chars.next();
            col += 1;
            continue;
        }
        if c == ';' {
            while let Some(&(_, c)) = chars.peek() {
                if c == '\n' {
                    break;
                }
                chars.next();
            }
            continue;
        }
        if c == '(' {
            chars.next();
            col += 1;
            if stack.len() >= MAX_DEPTH {
                return Err(Diagnostic::new(
                    file,
                    pos,
                    format!("nesting deeper than {MAX_DEPTH} levels"),
                ));
            }
            stack.push((Vec::new(), pos));
            continue;
        }
        if c == ')' {
            chars.next();
            col += 1;
            let Some((items, p)) = stack.pop() else {
                return Err(Diagnostic::new(file, pos, "unmatched `)`"));
            };
            let e = SExpr::List(items, p);
            match stack.last_mut() {
                Some((parent, _)) => parent.push(e),
                None => out.push(e),
            }
            continue;
        }
        // A symbol: up to the next delimiter.
        let start = i;
        let mut end = i;
        while let Some(&(j, c)) = chars.peek() {
            if is_delim(c) {
                break;
            }
            if c.is_control() {
                return Err(Diagnostic::new(
                    file,
                    Pos { line, col },
                    format!("control character U+{:04X} in a symbol", c as u32),
                ));
            }
            chars.next();
            col += 1;
            end = j + c.len_utf8();
        }
        let word = &text[start..end];
        if word == "?" {
            return Err(Diagnostic::new(file, pos, "`?` without a variable name"));
        }
        let e = SExpr::Atom(word.to_lowercase(), pos);
        match stack.last_mut() {
            Some((parent, _)) => parent.push(e),
            None => out.push(e),
        }
    }
    if let Some((_, p)) = stack.last() {
        return Err(Diagnostic::new(file, *p, "`(` is never closed"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lists_comments_and_case() {
        let e = read("t", "; c\n(<= (Legal ?R Noop)\n  (ROLE ?r)) ; x\nterminal").unwrap();
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].to_string(), "(<= (legal ?r noop) (role ?r))");
        assert_eq!(e[0].pos(), Pos { line: 2, col: 1 });
        assert_eq!(e[1].pos(), Pos { line: 4, col: 1 });
    }

    #[test]
    fn positions_of_errors() {
        let err = read("f.gdl", "(a\n (b c)").unwrap_err();
        assert_eq!(err.to_string(), "f.gdl:1:1: `(` is never closed");
        let err = read("f.gdl", "(a)\n  )").unwrap_err();
        assert_eq!(err.to_string(), "f.gdl:2:3: unmatched `)`");
    }
}
