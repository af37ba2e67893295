//! Every feature module the service mounts, in one visible place.
//!
//! To add a module: create its crate under `modules/`, add it to `app/Cargo.toml`, then add one
//! `mount::<YourModule>` line below and its API type to [`ModuleApis`].

use infra::module::{Module, ModuleContext, mount};

/// The APIs of all modules, served together under `/api/v1` (a tuple of up to 16).
pub type ModuleApis = (
    <identity::IdentityModule as Module>::Api,
    <things::ThingsModule as Module>::Api,
);

/// Migrates and builds every module.
pub async fn mount_all(context: &ModuleContext) -> anyhow::Result<ModuleApis> {
    Ok((
        mount::<identity::IdentityModule>(context).await?,
        mount::<things::ThingsModule>(context).await?,
    ))
}
