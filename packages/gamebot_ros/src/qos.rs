//! Quality of service: the three DDS policies the graph uses.

/// Whether lost samples are retransmitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reliability {
    /// Every sample reaches every matched subscription (retransmitted if lost).
    Reliable,
    /// Samples may be dropped (camera frames, joint states).
    BestEffort,
}

/// Whether late-joining subscriptions get earlier samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Durability {
    /// Only samples published after the subscription matched.
    Volatile,
    /// The publisher keeps its last `depth` samples for late joiners ("latched").
    TransientLocal,
}

/// A QoS profile: reliability, durability and history depth (keep-last).
///
/// Matching follows DDS: a subscription matches a publisher when it asks for
/// no more than is offered (a reliable subscription does not match a
/// best-effort publisher; a transient-local subscription does not match a
/// volatile publisher). Both backends apply the same rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Qos {
    /// Reliability.
    pub reliability: Reliability,
    /// Durability.
    pub durability: Durability,
    /// Keep-last history depth (at least 1).
    pub depth: usize,
}

impl Qos {
    /// Reliable, volatile, keep last `depth` (the ROS 2 default profile has depth 10).
    pub const fn reliable(depth: usize) -> Qos {
        Qos {
            reliability: Reliability::Reliable,
            durability: Durability::Volatile,
            depth,
        }
    }

    /// Best-effort, volatile, keep last `depth` (sensor data).
    pub const fn best_effort(depth: usize) -> Qos {
        Qos {
            reliability: Reliability::BestEffort,
            durability: Durability::Volatile,
            depth,
        }
    }

    /// Reliable, transient-local, keep last `depth` (latched state).
    pub const fn latched(depth: usize) -> Qos {
        Qos {
            reliability: Reliability::Reliable,
            durability: Durability::TransientLocal,
            depth,
        }
    }

    /// The ROS 2 default profile: reliable, volatile, depth 10.
    pub const fn default_profile() -> Qos {
        Qos::reliable(10)
    }

    /// ROS 2 services default: reliable, volatile, depth 10.
    pub const fn services() -> Qos {
        Qos::reliable(10)
    }

    /// ROS 2 sensor-data profile: best-effort, volatile, depth 5.
    pub const fn sensor_data() -> Qos {
        Qos::best_effort(5)
    }

    /// `/rosout`: reliable, transient-local, depth 1000.
    pub const fn rosout() -> Qos {
        Qos::latched(1000)
    }

    /// Same profile with another durability.
    pub const fn with_durability(mut self, durability: Durability) -> Qos {
        self.durability = durability;
        self
    }

    /// Whether a subscription with QoS `self` matches a publisher offering `offered`.
    pub fn is_compatible_with_offer(&self, offered: &Qos) -> bool {
        let rel_ok = !(self.reliability == Reliability::Reliable
            && offered.reliability == Reliability::BestEffort);
        let dur_ok = !(self.durability == Durability::TransientLocal
            && offered.durability == Durability::Volatile);
        rel_ok && dur_ok
    }

    /// History depth, never below 1.
    pub fn effective_depth(&self) -> usize {
        self.depth.max(1)
    }
}

impl Default for Qos {
    fn default() -> Self {
        Qos::default_profile()
    }
}

impl std::fmt::Display for Qos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let r = match self.reliability {
            Reliability::Reliable => "reliable",
            Reliability::BestEffort => "best-effort",
        };
        let d = match self.durability {
            Durability::Volatile => "volatile",
            Durability::TransientLocal => "transient-local",
        };
        write!(f, "{r}, {d}, depth {}", self.depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dds_request_offer_rules() {
        let rel = Qos::reliable(5);
        let be = Qos::best_effort(5);
        let latched = Qos::latched(1);
        assert!(rel.is_compatible_with_offer(&rel));
        assert!(!rel.is_compatible_with_offer(&be));
        assert!(be.is_compatible_with_offer(&rel));
        assert!(be.is_compatible_with_offer(&be));
        assert!(!latched.is_compatible_with_offer(&rel));
        assert!(rel.is_compatible_with_offer(&latched));
        assert!(latched.is_compatible_with_offer(&latched));
        assert_eq!(Qos::reliable(0).effective_depth(), 1);
        assert_eq!(
            Qos::latched(3).to_string(),
            "reliable, transient-local, depth 3"
        );
    }
}
