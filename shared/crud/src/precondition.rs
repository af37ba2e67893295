//! The conditional requests of RFC 9110 §13: a request's conditions, and how they are met.

use kernel::{AppError, AppResult};
use poem::http::HeaderMap;

use crate::conditional_headers::{IfMatch, IfNoneMatch};
use crate::entity_tag::{Condition, EntityTag};

/// The conditions of one request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Preconditions {
    if_match: Option<Condition>,
    if_none_match: Option<Condition>,
}

impl Preconditions {
    /// Reads `If-Match` and `If-None-Match`; 400 when one is malformed. (An operation
    /// documents them by taking [`IfMatch`] and [`IfNoneMatch`] parameters instead.)
    pub fn from_headers(headers: &HeaderMap) -> AppResult<Self> {
        Ok(Self {
            if_match: IfMatch::from_headers(headers)?.0,
            if_none_match: IfNoneMatch::from_headers(headers)?.0,
        })
    }

    /// The conditions of a write (PUT, PATCH, DELETE): 428 when `require_if_match` and the
    /// request has no `If-Match`.
    pub fn for_write(if_match: IfMatch, require_if_match: bool) -> AppResult<Self> {
        if require_if_match && !if_match.is_present() {
            return Err(AppError::PreconditionRequired(
                "This operation changes the resource only if it is still the version you read: \
                 send `If-Match` with the `ETag` you got."
                    .into(),
            ));
        }
        Ok(Self {
            if_match: if_match.0,
            if_none_match: None,
        })
    }

    /// The conditions of a read (GET): 304 Not Modified while `If-None-Match` matches.
    pub fn for_read(if_none_match: IfNoneMatch) -> Self {
        Self {
            if_match: None,
            if_none_match: if_none_match.0,
        }
    }

    /// Whether a write may proceed on the resource whose current tag is `current` (`None`:
    /// there is none): RFC 9110 §13.2.2, steps 1 and 3. `Err` is the 412.
    pub fn check_write(&self, current: Option<&EntityTag>) -> AppResult<()> {
        if let Some(condition) = &self.if_match
            && !current.is_some_and(|current| condition.matches_strongly(current))
        {
            return Err(AppError::PreconditionFailed(match current {
                Some(current) => format!(
                    "The resource changed since that version: its ETag is now {current}. \
                     Read it again, then retry with the new ETag."
                ),
                None => "There is no such resource to change.".to_owned(),
            }));
        }
        if let Some(condition) = &self.if_none_match
            && current.is_some_and(|current| condition.matches_weakly(current))
        {
            return Err(AppError::PreconditionFailed(
                "`If-None-Match` matches the resource's current version.".into(),
            ));
        }
        Ok(())
    }

    /// For a read (GET, HEAD): whether `If-None-Match` matches `current`, so the answer is 304
    /// Not Modified (RFC 9110 §13.2.2, step 3; `If-Match` on a read is evaluated as for a write).
    pub fn not_modified(&self, current: &EntityTag) -> AppResult<bool> {
        if self.if_match.is_some() {
            Self {
                if_match: self.if_match.clone(),
                if_none_match: None,
            }
            .check_write(Some(current))?;
        }
        Ok(self
            .if_none_match
            .as_ref()
            .is_some_and(|condition| condition.matches_weakly(current)))
    }

    /// The one version `If-Match` names, when that is all the request conditions on: the write
    /// can then be a single conditional statement with no read before it.
    pub(crate) fn single_version(&self) -> Option<i64> {
        match (&self.if_match, &self.if_none_match) {
            (Some(Condition::Tags(tags)), None) if tags.len() == 1 => tags[0].version(),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use poem::http::{HeaderValue, header};

    use super::*;

    fn headers(lines: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in lines {
            map.append(*name, HeaderValue::from_static(value));
        }
        map
    }

    fn preconditions(lines: &[(&'static str, &'static str)]) -> Preconditions {
        Preconditions::from_headers(&headers(lines)).expect("valid preconditions")
    }

    fn v(version: i64) -> EntityTag {
        EntityTag::of_version(version)
    }

    #[test]
    fn if_match_compares_strongly() {
        let cases: &[(&str, Option<i64>, bool)] = &[
            // (If-Match, current version, the write may proceed)
            ("\"v3\"", Some(3), true),
            ("\"v2\"", Some(3), false),
            ("\"v1\", \"v3\"", Some(3), true),
            ("W/\"v3\"", Some(3), false),
            ("*", Some(3), true),
            ("*", None, false),
            ("\"v3\"", None, false),
        ];
        for (if_match, current, holds) in cases {
            let preconditions = Preconditions::from_headers(&{
                let mut map = HeaderMap::new();
                map.insert(header::IF_MATCH, HeaderValue::from_str(if_match).unwrap());
                map
            })
            .unwrap();
            let outcome = preconditions.check_write(current.map(v).as_ref());
            assert_eq!(
                outcome.is_ok(),
                *holds,
                "If-Match {if_match}, current {current:?}"
            );
            if let Err(err) = outcome {
                assert_eq!(err.status().as_u16(), 412);
            }
        }
    }

    #[test]
    fn if_none_match_compares_weakly_and_star_means_any() {
        let write = preconditions(&[("if-none-match", "W/\"v3\"")]);
        assert!(write.check_write(Some(&v(3))).is_err());
        assert!(write.check_write(Some(&v(4))).is_ok());
        let create_only = preconditions(&[("if-none-match", "*")]);
        assert!(create_only.check_write(None).is_ok());
        assert!(create_only.check_write(Some(&v(1))).is_err());
    }

    #[test]
    fn a_read_is_not_modified_when_if_none_match_matches() {
        assert!(
            preconditions(&[("if-none-match", "\"v3\"")])
                .not_modified(&v(3))
                .unwrap()
        );
        assert!(
            preconditions(&[("if-none-match", "W/\"v3\", \"v9\"")])
                .not_modified(&v(3))
                .unwrap()
        );
        assert!(
            !preconditions(&[("if-none-match", "\"v2\"")])
                .not_modified(&v(3))
                .unwrap()
        );
        assert!(!preconditions(&[]).not_modified(&v(3)).unwrap());
        let read_if_match = preconditions(&[("if-match", "\"v2\"")]).not_modified(&v(3));
        assert_eq!(read_if_match.unwrap_err().status().as_u16(), 412);
    }

    #[test]
    fn an_empty_list_is_a_condition_no_version_meets() {
        let write = preconditions(&[("if-match", "")]);
        assert_eq!(
            write
                .check_write(Some(&v(1)))
                .unwrap_err()
                .status()
                .as_u16(),
            412
        );
        assert!(
            !preconditions(&[("if-none-match", " , ")])
                .not_modified(&v(1))
                .unwrap()
        );
    }

    #[test]
    fn several_header_lines_are_one_list() {
        let preconditions = preconditions(&[("if-match", "\"v1\""), ("if-match", "\"v3\"")]);
        assert!(preconditions.check_write(Some(&v(3))).is_ok());
    }

    #[test]
    fn malformed_conditions_are_a_400() {
        for value in ["v3", "\"v3", "*, \"v3\"", "\"v3\"x", "W/v3"] {
            let mut map = HeaderMap::new();
            map.insert(header::IF_MATCH, HeaderValue::from_str(value).unwrap());
            let err = Preconditions::from_headers(&map).expect_err(value);
            assert_eq!(err.status().as_u16(), 400, "{value:?}");
        }
    }

    #[test]
    fn a_required_if_match_is_a_428_when_absent() {
        let err = Preconditions::for_write(IfMatch::default(), true).unwrap_err();
        assert_eq!(err.status().as_u16(), 428);
        assert!(Preconditions::for_write(IfMatch::default(), false).is_ok());
    }
}
