//! The conditional requests of RFC 9110 §13, and writes made under them.

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
    fn single_version(&self) -> Option<i64> {
        match (&self.if_match, &self.if_none_match) {
            (Some(Condition::Tags(tags)), None) if tags.len() == 1 => tags[0].version(),
            _ => None,
        }
    }
}

/// How often a conditional write re-reads after losing a race before giving up (409).
const ATTEMPTS: usize = 3;

/// Writes an entity under `preconditions`, with its version as the guard against lost updates.
///
/// `current()` reads the stored version (`None` when there is no such entity); `write(v)`
/// writes only if the stored version is still `v`, in one statement (e.g.
/// `UPDATE ... WHERE id = $1 AND version = $2 RETURNING ...`), and returns the written entity
/// (`None` when the version was no longer `v`). Answers `Ok(None)` when there is no entity and
/// the conditions allow that (the caller's 404), 412 when a condition fails, 409 when the
/// entity kept changing under this write.
///
/// When `If-Match` names one version, the write goes first and nothing is read unless it fails
/// (to tell the 404 from the 412). Otherwise the version is read, the conditions evaluated on
/// it, and the write made conditional on that same version.
pub async fn conditional_write<T, Current, Write>(
    preconditions: &Preconditions,
    current: impl Fn() -> Current,
    write: impl Fn(i64) -> Write,
) -> AppResult<Option<T>>
where
    Current: Future<Output = AppResult<Option<i64>>>,
    Write: Future<Output = AppResult<Option<T>>>,
{
    if let Some(version) = preconditions.single_version() {
        if let Some(written) = write(version).await? {
            return Ok(Some(written));
        }
        let current = current().await?.map(EntityTag::of_version);
        preconditions.check_write(current.as_ref())?;
        // The version matched after all: it was written back to it meanwhile. Go the long way.
    }
    for _ in 0..ATTEMPTS {
        let Some(version) = current().await? else {
            preconditions.check_write(None)?;
            return Ok(None);
        };
        preconditions.check_write(Some(&EntityTag::of_version(version)))?;
        if let Some(written) = write(version).await? {
            return Ok(Some(written));
        }
    }
    Err(AppError::Conflict(
        "The resource kept changing while this request tried to change it; retry.".into(),
    ))
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

    /// A stored version and the writes made to it, for [`conditional_write`].
    /// (version, writes made, reads after which another writer still moves the version on)
    struct Stored(std::sync::Mutex<(Option<i64>, usize, usize)>);

    impl Stored {
        fn new(version: Option<i64>) -> Self {
            Self::raced(version, 0)
        }
        /// Another writer changes the entity right after each of the first `races` reads.
        fn raced(version: Option<i64>, races: usize) -> Self {
            Self(std::sync::Mutex::new((version, 0, races)))
        }
        async fn current(&self) -> AppResult<Option<i64>> {
            let mut stored = self.0.lock().unwrap();
            let read = stored.0;
            if stored.2 > 0 {
                stored.2 -= 1;
                stored.0 = stored.0.map(|version| version + 1);
            }
            Ok(read)
        }
        async fn write(&self, expected: i64) -> AppResult<Option<i64>> {
            let mut stored = self.0.lock().unwrap();
            stored.1 += 1;
            match stored.0 {
                Some(version) if version == expected => {
                    stored.0 = Some(version + 1);
                    Ok(Some(version + 1))
                }
                _ => Ok(None),
            }
        }
        fn writes(&self) -> usize {
            self.0.lock().unwrap().1
        }
    }

    async fn write_under(
        stored: &Stored,
        lines: &[(&'static str, &'static str)],
    ) -> AppResult<Option<i64>> {
        conditional_write(
            &preconditions(lines),
            || stored.current(),
            |expected| stored.write(expected),
        )
        .await
    }

    #[tokio::test]
    async fn a_matching_if_match_writes_once_without_a_read() {
        let stored = Stored::new(Some(3));
        let written = write_under(&stored, &[("if-match", "\"v3\"")])
            .await
            .unwrap();
        assert_eq!(written, Some(4));
        assert_eq!(stored.writes(), 1);
    }

    #[tokio::test]
    async fn a_stale_if_match_is_a_412_and_writes_nothing() {
        let stored = Stored::new(Some(4));
        let err = write_under(&stored, &[("if-match", "\"v3\"")])
            .await
            .unwrap_err();
        assert_eq!(err.status().as_u16(), 412);
        assert_eq!(stored.current().await.unwrap(), Some(4));
    }

    #[tokio::test]
    async fn a_missing_entity_is_none_without_conditions_and_a_412_with_if_match() {
        let stored = Stored::new(None);
        assert_eq!(write_under(&stored, &[]).await.unwrap(), None);
        let err = write_under(&stored, &[("if-match", "\"v1\"")])
            .await
            .unwrap_err();
        assert_eq!(err.status().as_u16(), 412);
    }

    #[tokio::test]
    async fn a_write_that_loses_a_race_reads_again_and_writes_the_newer_version() {
        let stored = Stored::raced(Some(7), 1);

        let written = write_under(&stored, &[]).await.unwrap();

        assert_eq!(
            written,
            Some(9),
            "written over 8, the version another writer made"
        );
        assert_eq!(stored.writes(), 2, "the first write, at 7, changed nothing");
    }

    #[tokio::test]
    async fn a_write_that_keeps_losing_is_a_409() {
        let stored = Stored::raced(Some(7), 10);

        let err = write_under(&stored, &[]).await.unwrap_err();

        assert_eq!(err.status().as_u16(), 409);
    }

    #[tokio::test]
    async fn an_unconditional_write_guards_on_the_version_it_read() {
        let stored = Stored::new(Some(7));
        assert_eq!(write_under(&stored, &[]).await.unwrap(), Some(8));
        assert_eq!(
            write_under(&stored, &[("if-match", "\"v1\", \"v8\"")])
                .await
                .unwrap(),
            Some(9)
        );
    }
}
