//! ROS 2 names: validation of node names and namespaces, expansion of
//! relative and private (`~`) topic names, and remapping.

use crate::BusError;

/// A remap rule `from:=to`, optionally only for node `node`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Remap {
    /// Only for the node with this (base) name; `None` for every node.
    pub node: Option<String>,
    /// Name to replace (expanded against the node before comparing).
    pub from: String,
    /// Replacement (expanded against the node).
    pub to: String,
}

fn bad(name: &str, reason: impl Into<String>) -> BusError {
    BusError::InvalidName {
        name: name.to_string(),
        reason: reason.into(),
    }
}

fn valid_token(t: &str) -> bool {
    !t.is_empty()
        && !t.starts_with(|c: char| c.is_ascii_digit())
        && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !t.contains("__")
}

/// Checks a node base name: letters, digits and underscores, not starting with a digit.
pub fn validate_node_name(name: &str) -> Result<(), BusError> {
    if name.is_empty() {
        return Err(bad(name, "node name is empty"));
    }
    if name.starts_with(|c: char| c.is_ascii_digit())
        || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return Err(bad(
            name,
            "node names use letters, digits and underscores and do not start with a digit",
        ));
    }
    Ok(())
}

/// Normalises and checks a namespace: absolute, `/` or `/a/b` (a missing
/// leading slash is added, as rcl does).
pub fn normalize_namespace(ns: &str) -> Result<String, BusError> {
    if ns.is_empty() || ns == "/" {
        return Ok("/".to_string());
    }
    let abs = if ns.starts_with('/') {
        ns.to_string()
    } else {
        format!("/{ns}")
    };
    if abs.ends_with('/') {
        return Err(bad(ns, "namespace must not end with `/`"));
    }
    if !abs[1..].split('/').all(valid_token) {
        return Err(bad(ns, "namespace tokens use letters, digits and single underscores and do not start with a digit"));
    }
    Ok(abs)
}

/// The fully qualified node name, `/ns/name`.
pub fn fully_qualified(namespace: &str, name: &str) -> String {
    if namespace == "/" {
        format!("/{name}")
    } else {
        format!("{namespace}/{name}")
    }
}

/// Expands a topic/service name for node `name` in namespace `namespace`
/// (already normalised): `/abs` stays, `~` and `~/x` are private to the node,
/// `{node}` and `{ns}` are substituted, anything else is relative to the
/// namespace. Returns the absolute name or why it is invalid.
pub fn expand(topic: &str, namespace: &str, name: &str) -> Result<String, BusError> {
    if topic.is_empty() {
        return Err(bad(topic, "name is empty"));
    }
    if topic.contains("//") {
        return Err(bad(topic, "name must not contain `//`"));
    }
    let fq_node = fully_qualified(namespace, name);
    let substituted = topic
        .replace("{node}", name)
        .replace("{namespace}", namespace)
        .replace("{ns}", namespace);
    let expanded = if substituted == "~" {
        fq_node
    } else if let Some(rest) = substituted.strip_prefix("~/") {
        format!("{fq_node}/{rest}")
    } else if substituted.starts_with('~') {
        return Err(bad(topic, "`~` must be followed by `/`"));
    } else if substituted.starts_with('/') {
        substituted
    } else if namespace == "/" {
        format!("/{substituted}")
    } else {
        format!("{namespace}/{substituted}")
    };
    // Substituting `/` for `{ns}` can produce `//`; collapse it like rcl.
    let expanded = expanded.replace("//", "/");
    if expanded.len() > 1 && expanded.ends_with('/') {
        return Err(bad(topic, "name must not end with `/`"));
    }
    if expanded.contains('{') || expanded.contains('}') {
        return Err(bad(
            topic,
            "unknown substitution (only {node} and {ns} exist)",
        ));
    }
    if !expanded[1..].split('/').all(valid_token) {
        return Err(bad(
            topic,
            "name tokens use letters, digits and single underscores and do not start with a digit",
        ));
    }
    Ok(expanded)
}

/// Expands `topic` and applies the first matching remap rule (node-specific
/// rules only for node `name`), as rcl does.
pub fn resolve(
    topic: &str,
    namespace: &str,
    name: &str,
    remaps: &[Remap],
) -> Result<String, BusError> {
    let expanded = expand(topic, namespace, name)?;
    for r in remaps {
        if r.node.as_deref().is_some_and(|n| n != name) || r.from.starts_with("__") {
            continue;
        }
        if expand(&r.from, namespace, name)? == expanded {
            return expand(&r.to, namespace, name);
        }
    }
    Ok(expanded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expansion_follows_ros2_rules() {
        assert_eq!(expand("chatter", "/", "n").unwrap(), "/chatter");
        assert_eq!(expand("chatter", "/a/b", "n").unwrap(), "/a/b/chatter");
        assert_eq!(expand("/x/y", "/a", "n").unwrap(), "/x/y");
        assert_eq!(expand("~", "/a", "n").unwrap(), "/a/n");
        assert_eq!(
            expand("~/plan_move", "/", "planner").unwrap(),
            "/planner/plan_move"
        );
        assert_eq!(expand("{node}/x", "/a", "n").unwrap(), "/a/n/x");
        assert_eq!(expand("{ns}/x", "/", "n").unwrap(), "/x");
        for badname in ["", "a//b", "a/", "1a", "a b", "~x", "a__b", "{foo}"] {
            assert!(expand(badname, "/", "n").is_err(), "{badname}");
        }
    }

    #[test]
    fn namespaces_and_node_names() {
        assert_eq!(normalize_namespace("").unwrap(), "/");
        assert_eq!(normalize_namespace("robot").unwrap(), "/robot");
        assert_eq!(normalize_namespace("/a/b").unwrap(), "/a/b");
        assert!(normalize_namespace("/a/").is_err());
        assert!(normalize_namespace("/a//b").is_err());
        assert!(validate_node_name("referee").is_ok());
        assert!(validate_node_name("9x").is_err());
        assert!(validate_node_name("a-b").is_err());
        assert_eq!(fully_qualified("/", "n"), "/n");
        assert_eq!(fully_qualified("/a", "n"), "/a/n");
    }

    #[test]
    fn remaps_match_expanded_names() {
        let remaps = vec![
            Remap {
                node: Some("other".into()),
                from: "state".into(),
                to: "nope".into(),
            },
            Remap {
                node: None,
                from: "/game/state".into(),
                to: "state2".into(),
            },
            Remap {
                node: Some("n".into()),
                from: "~/x".into(),
                to: "/y".into(),
            },
        ];
        assert_eq!(
            resolve("/game/state", "/r", "n", &remaps).unwrap(),
            "/r/state2"
        );
        assert_eq!(
            resolve("game/state", "/", "n", &remaps).unwrap(),
            "/r/state2".replace("/r", "")
        );
        assert_eq!(resolve("~/x", "/", "n", &remaps).unwrap(), "/y");
        assert_eq!(resolve("state", "/", "n", &remaps).unwrap(), "/state");
    }
}
