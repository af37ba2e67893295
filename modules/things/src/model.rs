//! The thing, as stored and as shown to clients.

use crud::EntityTag;
use poem_openapi::Object;

/// A thing owned by the caller.
#[derive(Debug, Clone, PartialEq, Object)]
#[oai(rename_all = "camelCase")]
pub struct Thing {
    /// Unique id.
    pub id: String,
    /// Display name, 1 to 200 characters.
    pub name: String,
    /// Optional free text, up to 2000 characters; absent when there is none.
    #[oai(skip_serializing_if_is_none)]
    pub description: Option<String>,
    /// Incremented on every update; the `ETag` is derived from it.
    pub version: i64,
    /// Creation time, milliseconds since the Unix epoch.
    pub created_at_ms: i64,
    /// Last update time, milliseconds since the Unix epoch.
    pub updated_at_ms: i64,
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
    /// Display name, 1 to 200 characters.
    #[oai(validator(min_length = 1, max_length = 200))]
    pub name: String,
    /// Optional free text, up to 2000 characters.
    #[oai(validator(max_length = 2000))]
    pub description: Option<String>,
}

impl ThingInput {
    /// The name without surrounding white space; blank names are refused by the API.
    pub fn trimmed_name(&self) -> &str {
        self.name.trim()
    }
}
