//! Temporal stabilisation: an observation is *stable* after K consecutive
//! frames agree on every location's content, and nothing is reported while
//! the board is occluded (a per-frame occlusion cue from the detector, or a
//! sudden change over much of the image between consecutive frames).

use serde::Serialize;

use crate::detect::{Observation, Occlusion};

/// Tuning of the filter.
#[derive(Clone, Debug, PartialEq)]
pub struct FilterConfig {
    /// Consecutive agreeing, unoccluded frames needed for stability.
    pub k: usize,
    /// A thumbnail cell whose grey level changes by more than this counts as changed.
    pub change_threshold: u8,
    /// More than this fraction of changed cells between consecutive frames is an occlusion.
    pub change_fraction: f64,
}

impl Default for FilterConfig {
    fn default() -> Self {
        FilterConfig {
            k: 3,
            change_threshold: 24,
            change_fraction: 0.15,
        }
    }
}

/// What the filter says after a frame.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum FilterStatus {
    /// The board is covered; the last stable observation (if any) still holds.
    Occluded(Occlusion),
    /// The content is settling: `agreeing` of the required K frames agree so far.
    Settling { agreeing: usize },
    /// The frame confirms a stable observation; `changed` is true on the first
    /// frame that makes a new content stable.
    Stable { changed: bool },
}

/// The temporal filter. Feed it every detector observation in order.
#[derive(Debug)]
pub struct TemporalFilter {
    config: FilterConfig,
    previous_thumb: Option<Vec<u8>>,
    candidate: Option<Observation>,
    agreeing: usize,
    stable: Option<Observation>,
}

impl TemporalFilter {
    /// A filter with the given tuning (`k` of 0 is treated as 1).
    pub fn new(mut config: FilterConfig) -> TemporalFilter {
        config.k = config.k.max(1);
        TemporalFilter {
            config,
            previous_thumb: None,
            candidate: None,
            agreeing: 0,
            stable: None,
        }
    }

    /// The last stable observation, if any.
    pub fn stable(&self) -> Option<&Observation> {
        self.stable.as_ref()
    }

    /// Forgets everything (e.g. a new game).
    pub fn reset(&mut self) {
        self.previous_thumb = None;
        self.candidate = None;
        self.agreeing = 0;
        self.stable = None;
    }

    /// Fraction of thumbnail cells that differ by more than the threshold.
    fn change_fraction(&self, a: &[u8], b: &[u8]) -> f64 {
        if a.len() != b.len() || a.is_empty() {
            return 0.0;
        }
        let t = self.config.change_threshold;
        let changed = a.iter().zip(b).filter(|(x, y)| x.abs_diff(**y) > t).count();
        changed as f64 / a.len() as f64
    }

    /// Processes one frame's observation.
    pub fn push(&mut self, obs: Observation) -> FilterStatus {
        let sudden = self
            .previous_thumb
            .as_ref()
            .map(|p| self.change_fraction(p, &obs.thumbnail))
            .filter(|f| *f > self.config.change_fraction);
        self.previous_thumb = Some(obs.thumbnail.clone());
        let occlusion = obs
            .occlusion
            .clone()
            .or(sudden.map(|fraction| Occlusion::SuddenChange { fraction }));
        if let Some(o) = occlusion {
            // Whatever was settling is void: the occluder may have hidden a move.
            self.candidate = None;
            self.agreeing = 0;
            return FilterStatus::Occluded(o);
        }
        match &self.candidate {
            Some(c) if c.same_content(&obs) => self.agreeing += 1,
            _ => self.agreeing = 1,
        }
        self.candidate = Some(obs);
        if self.agreeing < self.config.k {
            return FilterStatus::Settling {
                agreeing: self.agreeing,
            };
        }
        let cand = self.candidate.as_ref().expect("candidate was just set");
        let changed = !self.stable.as_ref().is_some_and(|s| s.same_content(cand));
        self.stable = Some(cand.clone());
        FilterStatus::Stable { changed }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::LocationObservation;
    use proptest::prelude::*;

    fn obs(content: &[Option<usize>], occluded: bool, thumb: u8) -> Observation {
        Observation {
            locations: content
                .iter()
                .enumerate()
                .map(|(i, c)| LocationObservation {
                    index: i,
                    class: *c,
                    blob: None,
                    confidence: 1.0,
                })
                .collect(),
            blobs: vec![],
            unmatched: vec![],
            occlusion: occluded.then_some(Occlusion::LargeForeground { area: 1e5 }),
            thumbnail: vec![thumb; 768],
        }
    }

    #[test]
    fn stable_after_k_agreeing_frames() {
        let mut f = TemporalFilter::new(FilterConfig::default());
        let a = [Some(0), None];
        assert_eq!(
            f.push(obs(&a, false, 100)),
            FilterStatus::Settling { agreeing: 1 }
        );
        assert_eq!(
            f.push(obs(&a, false, 100)),
            FilterStatus::Settling { agreeing: 2 }
        );
        assert_eq!(
            f.push(obs(&a, false, 100)),
            FilterStatus::Stable { changed: true }
        );
        assert_eq!(
            f.push(obs(&a, false, 100)),
            FilterStatus::Stable { changed: false }
        );
        let b = [None, Some(1)];
        assert_eq!(
            f.push(obs(&b, false, 101)),
            FilterStatus::Settling { agreeing: 1 }
        );
        assert_eq!(f.stable().unwrap().class_at(0), Some(0));
    }

    #[test]
    fn sudden_change_is_an_occlusion() {
        let mut f = TemporalFilter::new(FilterConfig::default());
        let a = [Some(0)];
        f.push(obs(&a, false, 100));
        assert!(matches!(
            f.push(obs(&a, false, 200)),
            FilterStatus::Occluded(Occlusion::SuddenChange { .. })
        ));
        // After the change, K fresh frames are needed.
        assert_eq!(
            f.push(obs(&a, false, 200)),
            FilterStatus::Settling { agreeing: 1 }
        );
    }

    proptest! {
        /// Whatever the sequence, an occluded frame is never reported stable,
        /// and a stable report always follows K unoccluded agreeing frames.
        #[test]
        fn occluded_frames_never_stable(
            frames in prop::collection::vec((0usize..3, any::<bool>(), 0u8..3), 1..60),
            k in 1usize..5,
        ) {
            let mut f = TemporalFilter::new(FilterConfig { k, ..FilterConfig::default() });
            let mut history: Vec<(usize, bool)> = Vec::new();
            for (content, occ, thumb) in frames {
                let status = f.push(obs(&[Some(content)], occ, 100 + thumb));
                history.push((content, occ));
                if occ {
                    prop_assert!(matches!(status, FilterStatus::Occluded(_)));
                }
                if let FilterStatus::Stable { .. } = status {
                    prop_assert!(history.len() >= k);
                    let tail = &history[history.len() - k..];
                    prop_assert!(tail.iter().all(|&(c, o)| !o && c == content));
                    prop_assert_eq!(f.stable().unwrap().class_at(0), Some(content));
                }
            }
        }
    }
}
