//! What the legal module shows and takes: document versions, what an administrator sends to
//! publish one, acceptances and what a caller sends to make one, and the one place a document
//! kind is checked ([`Kind`]). A [`DocumentVersion`] and an [`Acceptance`] are also the rows the
//! repository reads (`sqlx::FromRow`): each field says the column it comes from when the names
//! differ (times are kept as Unix milliseconds, `*_at_ms`).

use infra::database::UnixMs;
use kernel::{AppError, AppResult, StrictString, Timestamp};
use poem_openapi::Object;

/// The documented pattern of a kind: a lowercase slug, a letter then letters, digits or `-`.
/// (It excludes NUL, as a pattern on a `StrictString` must.)
pub const KIND_PATTERN: &str = r"^[a-z][a-z0-9-]*$";

/// The longest kind.
pub const KIND_MAX_LENGTH: usize = 40;

/// The longest document body, in characters.
pub const BODY_MAX_LENGTH: usize = 100_000;

/// A kind of document (`terms`, `privacy`, ...): a lowercase slug of 1 to 40 characters, a
/// letter first, then letters, digits and `-`. The one place kinds are checked.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Kind(String);

impl Kind {
    pub fn parse(kind: &str) -> AppResult<Self> {
        let mut chars = kind.chars();
        let valid = kind.len() <= KIND_MAX_LENGTH
            && chars.next().is_some_and(|c| c.is_ascii_lowercase())
            && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if valid {
            Ok(Self(kind.to_owned()))
        } else {
            Err(AppError::Invalid(format!(
                "`kind` must be a lowercase slug of 1 to {KIND_MAX_LENGTH} characters: a letter, \
                 then letters, digits or `-` (e.g. `terms`)."
            )))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// One version of a legal document. Versions never change once published.
#[derive(Debug, Clone, PartialEq, Object, sqlx::FromRow)]
#[oai(rename_all = "camelCase")]
pub struct DocumentVersion {
    /// The kind of document, e.g. `terms` or `privacy`.
    pub kind: String,
    /// The version number, from 1, assigned in publication order per kind.
    pub version: i64,
    /// The text, in Markdown.
    pub body: String,
    /// When the version was published (RFC 3339, UTC).
    #[sqlx(rename = "published_at_ms", try_from = "UnixMs")]
    pub published_at: Timestamp,
    /// When the version takes effect (RFC 3339, UTC): from then on, unless a higher-numbered
    /// version has taken effect too, it is the current version of its kind.
    #[sqlx(rename = "effective_at_ms", try_from = "UnixMs")]
    pub effective_at: Timestamp,
}

/// What an administrator sends to publish a new version of a document.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct PublishVersionInput {
    /// The text, in Markdown: 1 to 100000 characters, not only spaces.
    #[oai(validator(
        min_length = 1,
        max_length = 100000,
        pattern = r"^[^\x00]*[^\x00\s][^\x00]*$"
    ))]
    pub body: StrictString,
    /// When the version takes effect (RFC 3339). Absent, `null`, or a time already past: at
    /// once (the stored `effectiveAt` is then the publication time).
    #[oai(nullable)]
    pub effective_at: Option<Timestamp>,
}

/// A publication, checked: what the repository writes.
#[derive(Debug, Clone)]
pub struct Publication {
    pub kind: Kind,
    pub body: String,
    /// Unix milliseconds; never before `published_at_ms`.
    pub effective_at_ms: i64,
    pub published_at_ms: i64,
    /// The administrator's user id (kept, not shown).
    pub published_by: String,
}

impl PublishVersionInput {
    /// The publication, checked, as of `now_ms`.
    pub fn parse(&self, kind: &str, published_by: &str, now_ms: i64) -> AppResult<Publication> {
        let kind = Kind::parse(kind)?;
        if self.body.trim().is_empty() {
            return Err(AppError::Invalid("`body` must not be blank.".into()));
        }
        if self.body.chars().count() > BODY_MAX_LENGTH {
            return Err(AppError::Invalid(format!(
                "`body` must be at most {BODY_MAX_LENGTH} characters."
            )));
        }
        let effective_at_ms = self
            .effective_at
            .map_or(now_ms, Timestamp::unix_ms)
            .max(now_ms);
        Ok(Publication {
            kind,
            body: self.body.as_str().to_owned(),
            effective_at_ms,
            published_at_ms: now_ms,
            published_by: published_by.to_owned(),
        })
    }
}

/// What a caller sends to accept a version of a document.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct AcceptanceInput {
    /// The kind of document, e.g. `terms`.
    #[oai(validator(min_length = 1, max_length = 40, pattern = r"^[a-z][a-z0-9-]*$"))]
    pub kind: StrictString,
    /// The version accepted: the current version of that kind.
    #[oai(validator(minimum(value = "1"), maximum(value = "4294967295")))]
    pub version: u32,
}

/// The record that a user accepted a version of a document. Records are evidence: they are
/// never changed or deleted.
#[derive(Debug, Clone, PartialEq, Object, sqlx::FromRow)]
#[oai(rename_all = "camelCase")]
pub struct Acceptance {
    /// Unique id of the record.
    pub id: String,
    /// Who accepted: the user id.
    pub user_id: String,
    /// The kind of document accepted.
    pub kind: String,
    /// The version accepted.
    pub version: i64,
    /// When (RFC 3339, UTC).
    #[sqlx(rename = "accepted_at_ms", try_from = "UnixMs")]
    pub accepted_at: Timestamp,
    /// The client address the acceptance came from (an IPv4 address, or an IPv6 /64).
    pub client_address: String,
    /// The `User-Agent` the acceptance was sent with (up to 512 characters), if any.
    #[oai(skip_serializing_if_is_none)]
    pub user_agent: Option<String>,
    /// The `X-Request-Id` of the request that made the record.
    #[oai(skip_serializing_if_is_none)]
    pub request_id: Option<String>,
}

/// A current version the caller has not accepted yet.
#[derive(Debug, Clone, PartialEq, Object)]
#[oai(rename_all = "camelCase")]
pub struct PendingVersion {
    /// The kind of document.
    pub kind: String,
    /// Its current version.
    pub version: i64,
    /// When that version took effect (RFC 3339, UTC).
    pub effective_at: Timestamp,
    /// Whether the service refuses the caller's other requests until it is accepted (when the
    /// service enforces acceptance of this kind).
    pub required: bool,
}

/// What the caller accepted, and what is still pending.
#[derive(Debug, Clone, PartialEq, Object)]
#[oai(rename_all = "camelCase")]
pub struct MyAcceptances {
    /// Every acceptance the caller made, newest first.
    pub accepted: Vec<Acceptance>,
    /// The current versions the caller has not accepted, by kind.
    pub pending: Vec<PendingVersion>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_lowercase_slugs() {
        for good in ["terms", "privacy", "cookie-policy", "t2", "a"] {
            assert!(Kind::parse(good).is_ok(), "{good}");
        }
        let too_long = "a".repeat(KIND_MAX_LENGTH + 1);
        for bad in [
            "",
            "Terms",
            "2terms",
            "-terms",
            "terms policy",
            "terms\n",
            "términos",
            too_long.as_str(),
        ] {
            assert!(Kind::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn an_effective_time_in_the_past_takes_effect_at_publication() {
        let input = PublishVersionInput {
            body: "# Terms".into(),
            effective_at: Some(Timestamp::from_unix_ms(0)),
        };

        let publication = input.parse("terms", "admin", 1_000).unwrap();

        assert_eq!(publication.effective_at_ms, 1_000);
    }

    #[test]
    fn a_blank_body_is_refused() {
        let input = PublishVersionInput {
            body: " \n ".into(),
            effective_at: None,
        };

        assert!(input.parse("terms", "admin", 0).is_err());
    }
}
