//! The thing, as stored and as shown to clients.
//!
//! The `// cargo xtask new-module: ...` lines mark where `cargo xtask new-module --field` puts a
//! new module's extra fields (ADR 0015); keep them where they are when you change this file.

use crud::{EntityTag, Sort, SortField};
use infra::database::UnixMs;
use kernel::{AppError, AppResult, StrictString, Timestamp};
use poem_openapi::Object;
use poem_openapi::types::MaybeUndefined;

/// A thing owned by the caller.
#[derive(Debug, Clone, PartialEq, Object, sqlx::FromRow)]
#[oai(rename_all = "camelCase")]
pub struct Thing {
    /// Unique id.
    pub id: String,
    /// Display name, 1 to 200 characters.
    pub name: String,
    /// Optional free text, up to 2000 characters; absent when there is none.
    #[oai(skip_serializing_if_is_none)]
    pub description: Option<String>,
    // cargo xtask new-module: a field as shown
    /// Incremented on every update; the `ETag` is derived from it.
    pub version: i64,
    /// When the thing was created (RFC 3339, UTC).
    #[sqlx(rename = "created_at_ms", try_from = "UnixMs")]
    pub created_at: Timestamp,
    /// When the thing last changed (RFC 3339, UTC).
    #[sqlx(rename = "updated_at_ms", try_from = "UnixMs")]
    pub updated_at: Timestamp,
}

impl Thing {
    /// The strong entity tag of this version (`"v3"`), for `ETag` and `If-Match`.
    pub fn etag(&self) -> String {
        EntityTag::of_version(self.version).to_string()
    }
}

/// The fields a client sets when creating or replacing a thing.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct ThingInput {
    /// Display name, 1 to 200 characters, not only spaces (leading and trailing spaces are
    /// trimmed).
    #[oai(validator(
        min_length = 1,
        max_length = 200,
        pattern = r"^[^\x00]*[^\x00\s][^\x00]*$"
    ))]
    pub name: StrictString,
    /// Optional free text, up to 2000 characters; absent or `null` for none.
    #[oai(nullable, validator(max_length = 2000))]
    pub description: Option<StrictString>,
    // cargo xtask new-module: a field as sent
}

/// What a list of things can be sorted by (`sort=name`, `sort=-updatedAt`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThingSortField {
    CreatedAt,
    UpdatedAt,
    Name,
}

impl SortField for ThingSortField {
    // `createdAt` first: oldest first is the default order.
    const FIELDS: &'static [(&'static str, Self)] = &[
        ("createdAt", Self::CreatedAt),
        ("updatedAt", Self::UpdatedAt),
        ("name", Self::Name),
    ];

    fn column(self) -> &'static str {
        match self {
            Self::CreatedAt => "created_at_ms",
            Self::UpdatedAt => "updated_at_ms",
            Self::Name => "name",
        }
    }
}

/// The order of a list of things.
pub type ThingOrder = Sort<ThingSortField>;

/// A thing's name: trimmed, 1 to 200 characters. The one place names are checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThingName(String);

impl ThingName {
    pub fn parse(name: &str) -> AppResult<Self> {
        let name = name.trim();
        match name.chars().count() {
            0 => Err(AppError::Invalid("`name` must not be blank.".into())),
            1..=200 => Ok(Self(name.to_owned())),
            _ => Err(AppError::Invalid(
                "`name` must be at most 200 characters.".into(),
            )),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A replacement, checked: what the repository writes.
#[derive(Debug, Clone)]
pub struct ThingFields {
    pub name: ThingName,
    pub description: Option<String>,
    // cargo xtask new-module: a field as checked
}

impl ThingInput {
    /// The fields, checked.
    pub fn parse(&self) -> AppResult<ThingFields> {
        Ok(ThingFields {
            name: ThingName::parse(&self.name)?,
            description: self.description.as_deref().map(str::to_owned),
            // cargo xtask new-module: checking a field
        })
    }
}

/// A JSON Merge Patch (RFC 7396) of a thing: a field left out stays as it is; `description:
/// null` removes the description. `name` cannot be removed.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct ThingPatch {
    /// A new display name, 1 to 200 characters, not only spaces.
    #[oai(validator(
        min_length = 1,
        max_length = 200,
        pattern = r"^[^\x00]*[^\x00\s][^\x00]*$"
    ))]
    pub name: MaybeUndefined<StrictString>,
    /// A new description (up to 2000 characters), or `null` to remove it.
    #[oai(nullable, validator(max_length = 2000))]
    pub description: MaybeUndefined<StrictString>,
    // cargo xtask new-module: a field in a patch
}

/// A merge patch, checked: `None` leaves a field as it is.
#[derive(Debug, Clone)]
pub struct ThingChanges {
    pub name: Option<ThingName>,
    /// `Some(None)` removes the description.
    pub description: Option<Option<String>>,
    // cargo xtask new-module: a field's change
}

impl ThingPatch {
    pub fn parse(&self) -> AppResult<ThingChanges> {
        let name = match &self.name {
            MaybeUndefined::Undefined => None,
            MaybeUndefined::Null => {
                return Err(AppError::Invalid(
                    "`name` cannot be removed: a thing always has one.".into(),
                ));
            }
            MaybeUndefined::Value(name) => Some(ThingName::parse(name)?),
        };
        Ok(ThingChanges {
            name,
            description: self
                .description
                .as_opt_deref()
                .map(|text| text.map(str::to_owned)),
            // cargo xtask new-module: checking a field's change
        })
    }
}
