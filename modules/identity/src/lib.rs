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
        &[
            Migration {
                version: 1,
                name: "create users, sessions and tokens",
                sql: include_str!("../migrations/0001_identity.sql"),
            },
            Migration {
                version: 2,
                name: "record password changes and logins",
                sql: include_str!("../migrations/0002_credential_changes.sql"),
            },
            Migration {
                version: 3,
                name: "audit administrators' locks and unlocks",
                sql: include_str!("../migrations/0003_admin_audit.sql"),
            },
            Migration {
                version: 4,
                name: "sign-in with OpenID Connect providers",
                sql: include_str!("../migrations/0004_oauth.sql"),
            },
            Migration {
                version: 5,
                name: "addresses accounts signed in from",
                sql: include_str!("../migrations/0005_known_addresses.sql"),
            },
            Migration {
                version: 6,
                name: "sign-ins bound to the client that started them",
                sql: include_str!("../migrations/0006_oauth_binding.sql"),
            },
            Migration {
                version: 7,
                name: "provider accounts linked by a signed-in account",
                sql: include_str!("../migrations/0007_oauth_link.sql"),
            },
            Migration {
                version: 8,
                name: "how identities were linked, and which opened a session",
                sql: include_str!("../migrations/0008_account_events.sql"),
            },
        ]
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
