//! Phase 4: template compilation. Each interpolated string gets a table from
//! integer arguments to the known texts (names and literals) it can produce,
//! dense when the argument ranges are small, so that evaluation looks names up
//! instead of building strings.

use super::*;
use crate::pattern::Pattern;
use smallvec::SmallVec;

impl Loader<'_> {
    pub(super) fn build_templates(&mut self) -> Vec<Template> {
        let raw = std::mem::take(&mut self.names.templates);
        let negatives_unknown = !self.names.syms.iter().any(|t| {
            t.as_bytes()
                .windows(2)
                .any(|w| w[0] == b'-' && w[1].is_ascii_digit())
        });
        let mut out = Vec::with_capacity(raw.len());
        for pieces in raw {
            let tpieces: Vec<TemplatePiece> = pieces
                .iter()
                .map(|p| match p {
                    StrPiece::Text(t) => TemplatePiece::Text(t.clone()),
                    StrPiece::Var(v) => TemplatePiece::Var(self.names.var(v)),
                })
                .collect();
            let vars: SmallVec<[VarId; 4]> = tpieces
                .iter()
                .filter_map(|p| match p {
                    TemplatePiece::Var(v) => Some(*v),
                    _ => None,
                })
                .collect();
            let mut cache = FxHashMap::default();
            // The template read as a pattern finds every known text it can produce from
            // non-negative integers; re-rendering rules out leading zeros.
            let as_pattern = Pattern::new("", &pieces, |n| {
                self.names.var_map.get(n).copied().unwrap_or(0)
            });
            if !as_pattern.has_literal_digits() {
                for (s, text) in self.names.syms.iter().enumerate() {
                    if let Some(b) = as_pattern.matches(text) {
                        let ints: SmallVec<[i32; 4]> = b.iter().map(|x| x.1).collect();
                        let mut rendered = String::new();
                        let mut k = 0;
                        for p in &tpieces {
                            match p {
                                TemplatePiece::Text(t) => rendered.push_str(t),
                                TemplatePiece::Var(_) => {
                                    rendered.push_str(&ints[k].to_string());
                                    k += 1;
                                }
                            }
                        }
                        if rendered == **text {
                            cache.insert(ints, s as Sym);
                        }
                    }
                }
            }
            let exhaustive = !as_pattern.has_literal_digits();
            let dense = dense_table(&cache, vars.len());
            if dense.is_some() {
                cache.clear();
            }
            out.push(Template {
                pieces: tpieces,
                vars,
                cache,
                dense,
                exhaustive,
                negatives_unknown,
            });
        }
        out
    }
}

/// A dense table over the argument ranges of `cache`, when it has at most 65536 cells.
fn dense_table(cache: &FxHashMap<SmallVec<[i32; 4]>, Sym>, arity: usize) -> Option<DenseTable> {
    if cache.is_empty() || arity == 0 {
        return None;
    }
    let mut mins: SmallVec<[i32; 4]> = SmallVec::from_elem(i32::MAX, arity);
    let mut maxs: SmallVec<[i32; 4]> = SmallVec::from_elem(i32::MIN, arity);
    for k in cache.keys() {
        for (i, &x) in k.iter().enumerate() {
            mins[i] = mins[i].min(x);
            maxs[i] = maxs[i].max(x);
        }
    }
    let mut cells: u64 = 1;
    let mut dims: SmallVec<[u32; 4]> = SmallVec::new();
    for i in 0..arity {
        let d = (maxs[i] as i64 - mins[i] as i64 + 1) as u64;
        cells = cells.saturating_mul(d);
        dims.push(d.min(u32::MAX as u64) as u32);
    }
    if cells > 65_536 {
        return None;
    }
    let mut table = vec![Sym::MAX; cells as usize];
    for (k, &s) in cache {
        let mut idx = 0usize;
        for (i, &x) in k.iter().enumerate() {
            idx = idx * dims[i] as usize + (x - mins[i]) as usize;
        }
        table[idx] = s;
    }
    Some(DenseTable { mins, dims, table })
}
