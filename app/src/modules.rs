//! Every feature module the service mounts, in one visible place.
//!
//! To add a module: create its crate under `modules/`, add it to `app/Cargo.toml`, then add one
//! `mount::<YourModule>` line below and its API type to [`ModuleApis`].

use std::sync::Arc;

use infra::Database;
use infra::module::{Module, ModuleContext, UserDirectory, mount};

/// The APIs of all modules, served together under `/api/v1` (a tuple of up to 16).
pub type ModuleApis = (
    <identity::IdentityModule as Module>::Api,
    <things::ThingsModule as Module>::Api,
    <legal::LegalModule as Module>::Api,
    <notifications::NotificationsModule as Module>::Api,
);

/// Migrates and builds every module.
pub async fn mount_all(context: &ModuleContext) -> anyhow::Result<ModuleApis> {
    Ok((
        mount::<identity::IdentityModule>(context).await?,
        mount::<things::ThingsModule>(context).await?,
        mount::<legal::LegalModule>(context).await?,
        mount::<notifications::NotificationsModule>(context).await?,
    ))
}

/// The legal module's enforcement of acceptance, which the host wraps its routes with (it lets
/// everything through unless `legal.require_current_acceptance` is on). `.2` is the legal API's
/// place in [`ModuleApis`].
pub fn legal_enforcement(apis: &ModuleApis) -> legal::RequireAcceptance {
    apis.2.enforcement()
}

/// Documents the legal module's refusal (403) on the operations its enforcement covers.
pub fn document_legal_enforcement(document: &mut serde_json::Value) {
    legal::RequireAcceptance::document(document);
}

/// Who other modules may reach (`ModuleContext::directory`): the identity module's accounts.
pub fn directory(database: &Database) -> Arc<dyn UserDirectory> {
    Arc::new(identity::AccountDirectory::new(database.clone()))
}
