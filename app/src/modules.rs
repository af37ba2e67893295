//! Every feature module the service mounts, in one visible place.
//!
//! To add a module: create its crate under `modules/`, add it to `app/Cargo.toml`, then add one
//! `mount::<YourModule>` line to [`mount_all`] and its API type to [`ModuleApis`]. The
//! `cargo xtask new-module` comments mark where the generator adds a new module's lines.

use std::sync::Arc;

use infra::Database;
use infra::module::{Module, ModuleContext, UserDirectory, mount};

/// The APIs of all modules, served together under `/api/v1` (a tuple of up to 16).
pub type ModuleApis = (
    <identity::IdentityModule as Module>::Api,
    <things::ThingsModule as Module>::Api,
    <legal::LegalModule as Module>::Api,
    <notifications::NotificationsModule as Module>::Api,
    // cargo xtask new-module: API types
);

/// The modules, mounted: their APIs and what the host wraps around them.
pub struct MountedModules {
    pub apis: ModuleApis,
    /// The legal module's enforcement of acceptance, which the host wraps its routes with (it
    /// lets everything through unless `legal.require_current_acceptance` is on).
    pub legal_enforcement: legal::RequireAcceptance,
}

/// Migrates and builds every module.
pub async fn mount_all(context: &ModuleContext) -> anyhow::Result<MountedModules> {
    let identity = mount::<identity::IdentityModule>(context).await?;
    let things = mount::<things::ThingsModule>(context).await?;
    let legal = mount::<legal::LegalModule>(context).await?;
    let notifications = mount::<notifications::NotificationsModule>(context).await?;
    // cargo xtask new-module: mounts
    Ok(MountedModules {
        legal_enforcement: legal.enforcement(),
        apis: (
            identity,
            things,
            legal,
            notifications,
            // cargo xtask new-module: APIs
        ),
    })
}

/// Documents the legal module's refusal (403) on the operations its enforcement covers.
pub fn document_legal_enforcement(document: &mut serde_json::Value) {
    legal::RequireAcceptance::document(document);
}

/// Who other modules may reach (`ModuleContext::directory`): the identity module's accounts.
pub fn directory(database: &Database) -> Arc<dyn UserDirectory> {
    Arc::new(identity::AccountDirectory::new(database.clone()))
}
