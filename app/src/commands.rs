//! One-off administrative commands run by `app` beside `serve`.

use std::sync::Arc;

use anyhow::Context as _;
use infra::mail::LogMailer;
use infra::module::ModuleContext;
use infra::rate_limit::RateLimiter;
use infra::revocation::Revocations;
use infra::settings::Settings;
use infra::{Database, Module as _};

/// Grants the administrator role to the account registered with `email`: how the first
/// administrator is made, without editing the database by hand.
pub async fn grant_admin(settings: &Settings, email: &str) -> anyhow::Result<String> {
    grant_role(settings, email, kernel::auth::ADMIN_ROLE).await
}

/// Grants `role` (e.g. `notifications:send`) to the account registered with `email`.
pub async fn grant_role(settings: &Settings, email: &str, role: &str) -> anyhow::Result<String> {
    let user = identity_service(settings)
        .await?
        .grant_role(email, role)
        .await
        .map_err(|err| anyhow::anyhow!("{err}"))
        .with_context(|| format!("cannot grant the role `{role}` to {email}"))?;
    Ok(user.id)
}

/// Removes the administrator role from the account registered with `email`.
pub async fn revoke_admin(settings: &Settings, email: &str) -> anyhow::Result<String> {
    revoke_role(settings, email, kernel::auth::ADMIN_ROLE).await
}

/// Removes `role` from the account registered with `email`; its next request is refused what
/// the role allowed, on every instance (role checks read the database).
pub async fn revoke_role(settings: &Settings, email: &str, role: &str) -> anyhow::Result<String> {
    let user = identity_service(settings)
        .await?
        .revoke_role(email, role)
        .await
        .map_err(|err| anyhow::anyhow!("{err}"))
        .with_context(|| format!("cannot remove the role `{role}` from {email}"))?;
    Ok(user.id)
}

/// The identity module's use cases on the database `settings` name, migrated, outside a
/// running service.
async fn identity_service(
    settings: &Settings,
) -> anyhow::Result<identity::service::IdentityService> {
    let database = Database::connect(&settings.database)
        .await
        .context("database.url")?;
    database
        .migrate(
            identity::IdentityModule::NAME,
            identity::IdentityModule::migrations(),
        )
        .await?;
    let context = ModuleContext {
        settings: settings.clone(),
        database: database.clone(),
        redis: None,
        tokens: Arc::new(crate::infrastructure::token_keys(&settings.auth)?),
        mailer: Arc::new(LogMailer),
        rate_limiter: RateLimiter::disabled(),
        // Changing roles revokes nothing: every role check reads the database.
        revocations: Revocations::in_process(settings.auth.access_token_ttl),
        directory: crate::modules::directory(&database),
        background: Default::default(),
    };
    let identity_settings = context.module_settings::<identity::IdentityModule>()?;
    identity::IdentityModule::service(&context, identity_settings)
}
