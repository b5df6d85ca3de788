//! Duplicate names (§2.5): a second definition of an element type, location
//! type, location, element or rule is compared with the first, entry by
//! entry. An identical copy (Squares defines thirty elements twice) loads
//! with a warning; a different one is an error naming both lines, instead of
//! silently replacing the first.

use crate::error::Diagnostic;
use rustc_hash::FxHashMap;

/// One definition: the line of its opening key and its `key=value` entries.
struct Definition {
    line: u32,
    entries: Vec<(String, String)>,
}

/// The definitions of every named record, by (kind, name), in file order.
#[derive(Default)]
pub(super) struct Definitions {
    defs: FxHashMap<(&'static str, String), Vec<Definition>>,
    /// Insertion order, so diagnostics come out in file order.
    order: Vec<(&'static str, String)>,
    /// The record being read in each kind of section.
    current: FxHashMap<&'static str, String>,
}

impl Definitions {
    /// Records an entry of a record section: `name=` opens a definition
    /// (`kind` is the record kind, e.g. "location"); other keys belong to it.
    pub(super) fn entry(
        &mut self,
        kind: &'static str,
        opening: bool,
        key: &str,
        value: &str,
        line: u32,
    ) {
        let value = value.trim().to_string();
        if opening {
            let id = (kind, value.clone());
            let defs = self.defs.entry(id.clone()).or_default();
            if defs.is_empty() {
                self.order.push(id);
            }
            defs.push(Definition {
                line,
                entries: Vec::new(),
            });
            self.current.insert(kind, value);
        } else if let Some(name) = self.current.get(kind) {
            if let Some(def) = self
                .defs
                .get_mut(&(kind, name.clone()))
                .and_then(|d| d.last_mut())
            {
                def.entries.push((key.to_string(), value));
            }
        }
    }

    /// Errors (different redefinitions) and warnings (identical copies).
    pub(super) fn check(&self, errors: &mut Vec<Diagnostic>, warnings: &mut Vec<Diagnostic>) {
        for id in &self.order {
            let defs = &self.defs[id];
            let (kind, name) = id;
            let first = &defs[0];
            for again in &defs[1..] {
                if again.entries == first.entries {
                    warnings.push(Diagnostic {
                        line: again.line,
                        col: 1,
                        message: format!(
                            "{kind} `{name}` is defined again identically (first at line {}); the copy is ignored",
                            first.line
                        ),
                    });
                } else {
                    errors.push(Diagnostic {
                        line: again.line,
                        col: 1,
                        message: format!(
                            "{kind} `{name}` is defined twice, differently: at line {} and again at line {}; rename one",
                            first.line, again.line
                        ),
                    });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! Regression tests of issue 20 for the loader: duplicate names, checked
    //! `relevant=`, signature ranges, `score=` errors, capped error lists,
    //! and what `Game::load` reads.
    use crate::Game;

    const TTT: &str = include_str!("../../../../games/tictactoe.game");

    fn errors(text: &str) -> String {
        match Game::parse("t.game", text) {
            Ok(_) => String::new(),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn a_different_redefinition_is_an_error_naming_both_lines() {
        let text = TTT.replacen(
            "[LOCATIONS]\n",
            "[LOCATIONS]\nname=cell(1,1)\ntype=cell\npoint=1,1\n\n",
            1,
        );
        let e = errors(&text);
        assert!(
            e.contains("location `cell(1,1)` is defined twice, differently: at line 63 and again at line 67"),
            "{e}"
        );
    }

    #[test]
    fn an_identical_redefinition_loads_with_a_warning() {
        let block = "name=cell(1,1)\ntype=cell\npoint=200,360\ncamera=200,360\nrobot=-6,12,0\n\n";
        let text = TTT.replacen("[LOCATIONS]\n", &format!("[LOCATIONS]\n{block}"), 1);
        let g = Game::parse("t.game", &text).unwrap();
        assert!(
            g.warnings.iter().any(|w| w
                .message
                .contains("defined again identically (first at line 63)")),
            "{:?}",
            g.warnings
        );
        // Nothing was dropped: the same moves as the original game.
        let original = Game::parse("o.game", TTT).unwrap();
        assert_eq!(
            g.legal_moves(&g.initial_state()).unwrap().len(),
            original
                .legal_moves(&original.initial_state())
                .unwrap()
                .len()
        );
    }

    #[test]
    fn relevant_accepts_yes_and_no_only() {
        for bad in ["true", "1", "maybe"] {
            let e = errors(&TTT.replace("relevant=no", &format!("relevant={bad}")));
            assert!(
                e.contains(&format!("relevant=`{bad}`: expected yes or no")),
                "{e}"
            );
        }
        assert_eq!(errors(&TTT.replace("relevant=no", "relevant=No")), "");
    }

    #[test]
    fn signature_ranges_are_checked() {
        let e = errors(&TTT.replacen("hueMin=345", "hueMin=999", 1));
        assert!(
            e.contains("huemin=999 is out of range: accepted 0 to 360"),
            "{e}"
        );
        let e = errors(&TTT.replacen("saturationMin=0.45", "saturationMin=7", 1));
        assert!(
            e.contains("saturationmin=7 is out of range: accepted 0 to 1"),
            "{e}"
        );
        let e = errors(&TTT.replacen("sizeMin=600", "sizeMin=9000", 1));
        assert!(e.contains("sizeMin=9000 and sizeMax=2500"), "{e}");
    }

    #[test]
    fn a_bad_score_expression_is_not_preceded_by_a_pair_count_error() {
        let text = TTT.replace(
            "[SCORINGS]\n",
            "[SCORINGS]\nsituation=true\nplayer=1\nscore=1+\n",
        );
        let e = errors(&text);
        assert!(!e.contains("they pair up"), "{e}");
        assert!(e.starts_with("t.game:248:8: expected an operand"), "{e}");
    }

    #[test]
    fn long_error_lists_are_capped() {
        let junk = "no equals sign here\n".repeat(500);
        let e = errors(&format!("{TTT}\n{junk}"));
        assert_eq!(e.lines().count(), crate::error::ERRORS_SHOWN + 1, "{e}");
        assert!(e.ends_with("t.game: 400 more error(s) not shown"), "{e}");
    }

    #[test]
    fn load_reads_bounded_utf8_and_names_other_encodings() {
        let dir = std::env::temp_dir().join(format!("gamebot-rules-enc-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bom = dir.join("bom.game");
        std::fs::write(&bom, [&[0xEF, 0xBB, 0xBF][..], TTT.as_bytes()].concat()).unwrap();
        assert!(
            Game::load(&bom).is_ok(),
            "a UTF-8 byte-order mark is skipped"
        );
        let u16 = dir.join("u16.game");
        let bytes: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(TTT.encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        std::fs::write(&u16, bytes).unwrap();
        let e = Game::load(&u16).unwrap_err().to_string();
        assert!(
            e.contains("the file is UTF-16 (little-endian); save it as UTF-8"),
            "{e}"
        );
        let bad = dir.join("bad.game");
        std::fs::write(
            &bad,
            TTT.replacen("name=cell(1,1)", "name=cell(1,1)\u{0}", 1)
                .replace('\u{0}', "\u{7f}")
                .into_bytes()
                .into_iter()
                .map(|b| if b == 0x7f { 0xFF } else { b })
                .collect::<Vec<u8>>(),
        )
        .unwrap();
        let e = Game::load(&bad).unwrap_err().to_string();
        assert!(e.contains(":63:15: invalid UTF-8 byte 0xff"), "{e}");
        let e = Game::load("/dev/zero").unwrap_err().to_string();
        assert!(e.contains("limit"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
