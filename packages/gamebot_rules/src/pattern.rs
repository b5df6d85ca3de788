//! Name patterns of `element=`, `from=`, `to=` (§4.2).

use crate::expr::VarId;
use smallvec::SmallVec;

/// Variable bindings produced by a successful match, in slot order.
pub type Bindings = SmallVec<[(VarId, i32); 3]>;

/// A compiled pattern: literal text with slot positions.
#[derive(Clone, Debug)]
pub struct Pattern {
    /// The pattern with slots removed (the literal text L).
    literal: String,
    /// (byte position in `literal`, variable) per slot, in order.
    slots: Vec<(usize, VarId)>,
    /// The source text, for messages.
    pub source: String,
}

impl Pattern {
    /// Builds a pattern from literal pieces and slot variables.
    pub fn new(
        source: &str,
        pieces: &[crate::lexer::StrPiece],
        mut var: impl FnMut(&str) -> VarId,
    ) -> Pattern {
        let mut literal = String::new();
        let mut slots = Vec::new();
        for p in pieces {
            match p {
                crate::lexer::StrPiece::Text(t) => literal.push_str(t),
                crate::lexer::StrPiece::Var(v) => slots.push((literal.len(), var(v))),
            }
        }
        Pattern {
            literal,
            slots,
            source: source.to_string(),
        }
    }

    /// Whether literal digits make this pattern unable to match anything with slots
    /// (worth a warning, §11 defect 10).
    pub fn has_literal_digits(&self) -> bool {
        !self.slots.is_empty() && self.literal.bytes().any(|b| b.is_ascii_digit())
    }

    /// Variables bound by this pattern.
    pub fn vars(&self) -> impl Iterator<Item = VarId> + '_ {
        self.slots.iter().map(|s| s.1)
    }

    /// Matches a candidate name; returns the bindings on success.
    pub fn matches(&self, name: &str) -> Option<Bindings> {
        if self.slots.is_empty() {
            return (name == self.literal).then(Bindings::new);
        }
        let bytes = name.as_bytes();
        if bytes.first().is_some_and(|b| b.is_ascii_digit()) {
            return None;
        }
        let lit = self.literal.as_bytes();
        let mut out = Bindings::new();
        let mut li = 0; // position in the literal (= length of non-digit text so far)
        let mut i = 0;
        let mut slot = 0;
        while i < bytes.len() {
            if bytes[i].is_ascii_digit() {
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                let (pos, var) = *self.slots.get(slot)?;
                if pos != li {
                    return None;
                }
                let v: i32 = name[start..i].parse().ok()?;
                out.push((var, v));
                slot += 1;
            } else {
                if lit.get(li) != Some(&bytes[i]) {
                    return None;
                }
                li += 1;
                i += 1;
            }
        }
        (li == lit.len() && slot == self.slots.len()).then_some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::pattern_pieces;

    fn pat(s: &str) -> Pattern {
        let mut names: Vec<String> = Vec::new();
        Pattern::new(s, &pattern_pieces(s).unwrap(), |v| {
            if let Some(i) = names.iter().position(|n| n == v) {
                i as VarId
            } else {
                names.push(v.into());
                (names.len() - 1) as VarId
            }
        })
    }

    fn m(p: &str, c: &str) -> Option<Vec<i32>> {
        pat(p).matches(c).map(|b| b.iter().map(|x| x.1).collect())
    }

    #[test]
    fn reference_table() {
        assert_eq!(m("t($K)", "t(12)"), Some(vec![12]));
        assert_eq!(m("cell($X,$Y)", "cell(3,4)"), Some(vec![3, 4]));
        assert_eq!(m("cell($X,$Y)", "cell(3)"), None);
        assert_eq!(m("t($K)", "t(007)"), Some(vec![7]));
        assert_eq!(m("t($K)", "t(-1)"), None);
        assert_eq!(m("cell(1,$Y)", "cell(1,4)"), None);
        assert_eq!(m("row2($K)", "row2(4)"), None);
        assert_eq!(m("pos$K", "pos12"), Some(vec![12]));
        assert_eq!(m("cell($X,$X)", "cell(1,2)"), Some(vec![1, 2]));
        assert_eq!(m("bin", "bin"), Some(vec![]));
        assert_eq!(m("t($F)", "tray(1)"), None);
        assert_eq!(m("t($K)", "1t(2)"), None);
        assert_eq!(m("t($K)", "t(99999999999)"), None);
    }

    #[test]
    fn whitespace_is_removed() {
        assert_eq!(m("cell( $X , $Y )", "cell(3,4)"), Some(vec![3, 4]));
    }
}
