//! Entity tags (RFC 9110 §8.8.3) and the conditions clients send with them: what both the
//! condition headers and the preconditions they make are built from.

use std::fmt;

use kernel::{AppError, AppResult};
use poem::http::{HeaderMap, header};

/// An entity tag: opaque text between double quotes, strong or weak (`W/"..."`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntityTag {
    weak: bool,
    opaque: String,
}

impl EntityTag {
    /// The strong tag of an entity's version: `"v3"`. Versions only grow, so a tag is never
    /// reused for other content.
    pub fn of_version(version: i64) -> Self {
        Self {
            weak: false,
            opaque: format!("v{version}"),
        }
    }

    /// The version a strong tag made by [`Self::of_version`] stands for.
    pub fn version(&self) -> Option<i64> {
        if self.weak {
            return None;
        }
        self.opaque.strip_prefix('v')?.parse().ok()
    }

    /// RFC 9110 §8.8.3.2: equal and both strong.
    fn strong_eq(&self, other: &EntityTag) -> bool {
        !self.weak && !other.weak && self.opaque == other.opaque
    }

    /// RFC 9110 §8.8.3.2: equal opaque tags, weak or not.
    fn weak_eq(&self, other: &EntityTag) -> bool {
        self.opaque == other.opaque
    }
}

/// The header value: `"v3"` or `W/"v3"`.
impl fmt::Display for EntityTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.weak {
            f.write_str("W/")?;
        }
        write!(f, "\"{}\"", self.opaque)
    }
}

/// `If-Match` or `If-None-Match`: `*`, or a list of tags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Condition {
    Any,
    Tags(Vec<EntityTag>),
}

impl Condition {
    /// Every line of `name`, as one list. `Ok(None)` when the header is absent.
    pub(crate) fn parse(headers: &HeaderMap, name: header::HeaderName) -> AppResult<Option<Self>> {
        let mut lines = headers.get_all(&name).iter().peekable();
        if lines.peek().is_none() {
            return Ok(None);
        }
        let invalid = || {
            AppError::Invalid(format!(
                "`{name}` must be `*` or a list of entity tags such as `\"v3\"`."
            ))
        };
        let mut tags = Vec::new();
        let mut any = false;
        for line in lines {
            let mut rest = line.to_str().map_err(|_| invalid())?;
            loop {
                rest = rest.trim_start_matches([' ', '\t', ',']);
                if rest.is_empty() {
                    break;
                }
                if let Some(after) = rest.strip_prefix('*') {
                    any = true;
                    rest = after;
                    continue;
                }
                let (weak, quoted) = match rest.strip_prefix("W/") {
                    Some(after) => (true, after),
                    None => (false, rest),
                };
                let quoted = quoted.strip_prefix('"').ok_or_else(invalid)?;
                let end = quoted.find('"').ok_or_else(invalid)?;
                let opaque = &quoted[..end];
                // etagc (RFC 9110 §8.8.3): visible characters but `"`, and obs-text.
                if opaque.bytes().any(|b| b < 0x21 || b == 0x7f) {
                    return Err(invalid());
                }
                tags.push(EntityTag {
                    weak,
                    opaque: opaque.to_owned(),
                });
                rest = &quoted[end + 1..];
                if !(rest.is_empty() || rest.starts_with([' ', '\t', ','])) {
                    return Err(invalid());
                }
            }
        }
        match (any, tags.is_empty()) {
            (true, true) => Ok(Some(Self::Any)),
            (true, false) => Err(invalid()),
            // `#entity-tag` may be an empty list (RFC 9110 §5.6.1): a condition no tag meets.
            (false, _) => Ok(Some(Self::Tags(tags))),
        }
    }

    /// `If-Match`'s comparison (RFC 9110 §13.1.1): `*`, or a tag strongly equal to `current`.
    pub(crate) fn matches_strongly(&self, current: &EntityTag) -> bool {
        match self {
            Self::Any => true,
            Self::Tags(tags) => tags.iter().any(|tag| tag.strong_eq(current)),
        }
    }

    /// `If-None-Match`'s comparison (RFC 9110 §13.1.2): `*`, or a tag weakly equal to `current`.
    pub(crate) fn matches_weakly(&self, current: &EntityTag) -> bool {
        match self {
            Self::Any => true,
            Self::Tags(tags) => tags.iter().any(|tag| tag.weak_eq(current)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::EntityTag;

    #[test]
    fn a_version_tag_is_strong_and_quoted() {
        let tag = EntityTag::of_version(3);
        assert_eq!(tag.to_string(), "\"v3\"");
        assert_eq!(tag.version(), Some(3));
    }
}
