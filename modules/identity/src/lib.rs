//! The identity module: accounts, access and refresh tokens, sessions, password reset, email
//! confirmation and account locking.
//!
//! - [`domain`]: parsed emails and passwords, argon2id hashing, opaque tokens;
//! - [`repository`]: the SQL (every token is stored as a hash, never in clear);
//! - [`service`]: the use cases, independent of HTTP;
//! - [`links`]: one-time links (reset, confirmation), minted and mailed off the request path;
//! - [`api`]: `/auth/*` and `/admin/users/*`, each operation declaring its idempotency intent;
//! - [`directory`]: the accounts as other modules may see them (`infra::UserDirectory`);
//! - [`oauth`]: sign-in with an OpenID Connect provider, and linked identities (ADR 0009).
//!
//! Access tokens are short-lived JWTs (signed with the host's keys); refresh tokens are opaque,
//! single-use and rotated on every refresh, and a replayed one revokes its session.

pub mod api;
pub mod directory;
pub mod domain;
pub mod links;
pub mod oauth;
pub mod repository;
pub mod service;
pub mod settings;

use std::sync::Arc;

use infra::rate_limit::RateLimitSettings;
use infra::settings::Environment;
use infra::{Migration, Module, ModuleContext};

pub use api::admin::{AdminApi, UsersAdminBase};
pub use api::auth::AuthApi;
pub use api::oauth::OAuthApi;
use api::throttle::Throttle;
pub use directory::AccountDirectory;
pub use settings::IdentitySettings;

use crate::domain::PasswordHasher;
use crate::oauth::OAuthService;
use crate::oauth::repository::OAuthRepository;
use crate::oauth::settings::OAuthSettings;
use crate::repository::IdentityRepository;
use crate::service::IdentityService;

/// The module, as the host mounts it.
pub struct IdentityModule;

impl IdentityModule {
    /// The use cases over `context`, for the host's command-line tools (e.g. `grant-admin`).
    pub fn service(
        context: &ModuleContext,
        settings: IdentitySettings,
    ) -> anyhow::Result<IdentityService> {
        Ok(IdentityService::new(
            IdentityRepository::new(context.database.clone()),
            PasswordHasher::new(settings.argon2)?,
            Arc::clone(&context.tokens),
            context.settings.auth.access_token_ttl,
            settings,
            Arc::clone(&context.mailer),
            context.revocations.clone(),
        ))
    }
}

impl Module for IdentityModule {
    const NAME: &'static str = "identity";
    type Settings = IdentitySettings;
    type Api = (AuthApi, AdminApi, OAuthApi);

    fn migrations() -> &'static [Migration] {
        // Every file in migrations/, in version order: build.rs finds them (module-build).
        include!(concat!(env!("OUT_DIR"), "/migrations.rs"))
    }

    fn api(context: &ModuleContext, settings: IdentitySettings) -> anyhow::Result<Self::Api> {
        let limits: RateLimitSettings = context.settings.section("rate_limit")?;
        // `[oauth]` is its own section (the providers are not about passwords and mails), read
        // here because sign-in with a provider opens this module's sessions.
        let oauth: OAuthSettings = context.settings.section("oauth")?;
        let service = Arc::new(Self::service(context, settings)?);
        let oauth = OAuthService::new(
            oauth,
            context.settings.environment == Environment::Production,
            OAuthRepository::new(context.database.clone()),
            IdentityRepository::new(context.database.clone()),
            Arc::clone(&service),
        )?;
        Ok((
            AuthApi::new(
                Arc::clone(&service),
                Throttle::new(
                    context.rate_limiter.clone(),
                    limits.clone(),
                    IdentityRepository::new(context.database.clone()),
                ),
            ),
            AdminApi::new(UsersAdminBase::new(service)),
            OAuthApi::new(
                Arc::new(oauth),
                Throttle::new(
                    context.rate_limiter.clone(),
                    limits,
                    IdentityRepository::new(context.database.clone()),
                ),
            ),
        ))
    }
}
