//! The legal module: legal documents (terms, privacy policy, ...) in immutable, numbered
//! versions, the record of who accepted which, and optional enforcement of acceptance.
//!
//! What each file is for:
//!
//! - `lib.rs` (here): [`LegalModule`], the contract the host mounts, and [`LegalSettings`];
//! - [`api`]: the HTTP operations (public reads, administrators' publication, acceptances);
//!   their doc comments are the OpenAPI text;
//! - [`model`]: versions and acceptances as shown, what clients send, and [`model::Kind`], the
//!   one place a document kind is checked;
//! - [`repository`]: the SQL: versions numbered in the publishing transaction, acceptances only
//!   ever inserted (one per user, kind and version, by a unique constraint);
//! - [`enforcement`]: the middleware the host installs to refuse callers who have not accepted
//!   the current required versions, and its in-process memory of who has;
//! - `migrations/`: the schema, one dialect for SQLite and PostgreSQL.
//!
//! It depends only on the `shared/` crates. Administrators are recognised by the `admin` role as
//! the identity module holds it now, read through `ModuleContext::directory` on every
//! publication (never from the access token's claim): a locked administrator, or one whose role
//! was removed, is refused on the next request on every instance. Publishing and accepting are `#[idempotent]`, so durable: with
//! an `Idempotency-Key` the answer is committed with the effect, and a retry never publishes a
//! second version, even after a crash right after the commit. Accepting is also naturally
//! idempotent without a key.

pub mod api;
pub mod enforcement;
pub mod model;
pub mod repository;

use std::sync::Arc;
use std::time::Duration;

use infra::{Migration, Module, ModuleContext, SettingsError};
use serde::{Deserialize, Deserializer};

pub use api::LegalApi;
pub use enforcement::{ACCEPTANCE_REQUIRED, AcceptanceGate, RequireAcceptance};

use crate::model::Kind;

/// `[legal]` settings.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LegalSettings {
    /// Refuse an authenticated caller's requests to the other modules (403, problem type
    /// `/problems/legal-acceptance-required`) until they have accepted the current version of
    /// every kind in `required_kinds`.
    pub require_current_acceptance: bool,
    /// The kinds whose current version must be accepted when enforcing (a list, or one
    /// comma-separated string as environment variables give it).
    #[serde(deserialize_with = "list_or_comma_separated")]
    pub required_kinds: Vec<String>,
    /// How long an instance enforces the current versions it last read before reading them
    /// again: a version published on another instance is enforced here within this time (one
    /// published here, or one taking effect, at once).
    #[serde(with = "humantime_serde")]
    pub cache_ttl: Duration,
}

impl Default for LegalSettings {
    fn default() -> Self {
        Self {
            require_current_acceptance: false,
            required_kinds: vec!["terms".to_owned()],
            cache_ttl: Duration::from_secs(5),
        }
    }
}

impl LegalSettings {
    /// The required kinds, checked; the error names the key.
    pub fn required_kinds(&self) -> Result<Vec<Kind>, SettingsError> {
        let kinds = self
            .required_kinds
            .iter()
            .map(|kind| {
                Kind::parse(kind.trim()).map_err(|_| {
                    SettingsError::invalid(
                        "legal.required_kinds",
                        format!("`{kind}` is not a document kind (a lowercase slug, e.g. `terms`)"),
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        if self.require_current_acceptance && kinds.is_empty() {
            return Err(SettingsError::invalid(
                "legal.required_kinds",
                "must name at least one kind while legal.require_current_acceptance is on",
            ));
        }
        Ok(kinds)
    }
}

/// `["terms", "privacy"]`, or `"terms,privacy"` (how `APP__LEGAL__REQUIRED_KINDS` arrives).
fn list_or_comma_separated<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum ListOrText {
        List(Vec<String>),
        Text(String),
    }
    Ok(match ListOrText::deserialize(deserializer)? {
        ListOrText::List(items) => items,
        ListOrText::Text(text) => text
            .split(',')
            .map(str::trim)
            .filter(|item| !item.is_empty())
            .map(str::to_owned)
            .collect(),
    })
}

/// The module, as the host mounts it.
pub struct LegalModule;

impl Module for LegalModule {
    const NAME: &'static str = "legal";
    type Settings = LegalSettings;
    type Api = LegalApi;

    fn migrations() -> &'static [Migration] {
        // Every file in migrations/, in version order: build.rs finds them (module-build).
        include!(concat!(env!("OUT_DIR"), "/migrations.rs"))
    }

    fn api(context: &ModuleContext, settings: LegalSettings) -> anyhow::Result<LegalApi> {
        let required_kinds = settings.required_kinds()?;
        let repository = repository::LegalRepository::new(context.database.clone());
        let gate = Arc::new(AcceptanceGate::new(
            repository.clone(),
            settings.require_current_acceptance,
            &required_kinds,
            settings.cache_ttl,
        ));
        Ok(LegalApi::new(
            repository,
            gate,
            Arc::clone(&context.directory),
        ))
    }
}
