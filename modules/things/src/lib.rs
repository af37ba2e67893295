//! The things module: create, read, update, patch, delete and list a simple owned entity.
//!
//! It is the worked example of a module, meant to be copied. What each file is for:
//!
//! - `lib.rs` (here): [`ThingsModule`], the contract the host mounts, which wires the rest;
//! - [`api`]: the HTTP operations; their doc comments are the OpenAPI text;
//! - [`repository`]: the SQL, every query filtered by owner;
//! - [`model`]: the thing as shown, what clients send (`ThingInput`, `ThingPatch`), and the one
//!   place fields are checked (`ThingName`), plus the fields a list sorts by;
//! - [`settings`]: [`ThingsSettings`], the `[things]` section;
//! - `migrations/`: the schema, one dialect for SQLite and PostgreSQL, one file per change
//!   (`<version>_<what_it_does>.sql`), found there by `build.rs`: a change is a new file.
//!
//! Each file uses only files listed after it, so the dependencies point one way: `api` uses
//! `repository`, `model` and `settings`, `repository` uses `model`, and nothing uses `lib.rs`.
//!
//! It depends only on the `shared/` crates. Create, replace, patch and delete inherit their
//! intents from `crud::intents` (idempotent: a client that retries with the same
//! `Idempotency-Key` gets the first response back instead of a second thing); replace, patch and
//! delete are conditional on the version the client read (`If-Match`, through
//! `crud::conditional_write`), and the per-owner limit is counted on the owner's row in the
//! create's own transaction, so no burst of creates can pass it.

pub mod api;
pub mod model;
pub mod repository;
pub mod settings;

use infra::{Migration, Module, ModuleContext};

pub use api::ThingsApi;
pub use settings::ThingsSettings;

use crate::repository::ThingRepository;

/// The module, as the host mounts it.
pub struct ThingsModule;

impl Module for ThingsModule {
    const NAME: &'static str = "things";
    type Settings = ThingsSettings;
    type Api = ThingsApi;

    fn migrations() -> &'static [Migration] {
        // Every file in migrations/, in version order: build.rs finds them (module-build).
        include!(concat!(env!("OUT_DIR"), "/migrations.rs"))
    }

    fn api(context: &ModuleContext, settings: ThingsSettings) -> anyhow::Result<ThingsApi> {
        let repository = ThingRepository::new(context.database.clone());
        Ok(ThingsApi::new(repository, settings))
    }
}
