//! The contract between a feature module and the host.
//!
//! A module is a crate under `modules/` that implements [`Module`]: a name (its settings
//! section and migration namespace), its migrations, and a constructor for its poem-openapi
//! API. The host calls [`mount`] once per module; nothing else couples them, and modules never
//! depend on one another. What one module needs of another's data reaches it through a port
//! the host fills in ([`UserDirectory`]).

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use kernel::{AppError, AppResult, Principal};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::redis::Redis;
use kernel::AccessTokenKeys;
use serde::de::DeserializeOwned;

use crate::database::{Database, Migration};
use crate::mail::Mailer;
use crate::rate_limit::RateLimiter;
use crate::revocation::Revocations;
use crate::settings::{Settings, SettingsError};

/// What the host hands every module: shared infrastructure, nothing module-specific.
#[derive(Clone)]
pub struct ModuleContext {
    pub settings: Settings,
    pub database: Database,
    /// Present when Redis is configured (`redis.url` or `redis.cluster_nodes`): commands,
    /// scripts and pub/sub, on a single node or a cluster alike.
    pub redis: Option<Redis>,
    pub tokens: Arc<AccessTokenKeys>,
    /// Outgoing mail: SMTP when `mail.smtp_url` is set, else the development log mailer.
    pub mailer: Arc<dyn Mailer>,
    /// Fixed-window limits, shared through Redis when it is configured.
    pub rate_limiter: RateLimiter,
    /// Revoked sessions: what a module revokes here, the authentication step refuses on every
    /// instance.
    pub revocations: Revocations,
    /// The accounts, as other modules may see them (the host answers from the identity module).
    pub directory: Arc<dyn UserDirectory>,
    /// Work a module runs beside its API; the host stops it at shutdown.
    pub background: BackgroundTasks,
}

/// What a [`UserDirectory`] answers: boxed, so that the host can hand the modules a
/// `dyn UserDirectory`.
pub type DirectoryFuture<'a, T> = Pin<Box<dyn Future<Output = AppResult<T>> + Send + 'a>>;

/// How a module that is not the identity module reaches an account's contact details, its
/// sessions and its roles.
pub trait UserDirectory: Send + Sync + 'static {
    /// The account `user_id`, or `None` when there is none.
    fn contact<'a>(&'a self, user_id: &'a str) -> DirectoryFuture<'a, Option<Contact>>;

    /// Why the session `session_id` of `user_id` no longer works, or `None` while it does.
    fn session_end<'a>(
        &'a self,
        user_id: &'a str,
        session_id: &'a str,
    ) -> DirectoryFuture<'a, Option<SessionEnd>>;

    /// The roles `user_id` holds now, while its session `session_id` still works; `None` when
    /// it does not (revoked, expired, another account's, older than the last password change)
    /// or the account is locked or gone. Read on every use, never cached: an access token's
    /// `roles` claim is what was true when it was issued.
    fn current_roles<'a>(
        &'a self,
        user_id: &'a str,
        session_id: &'a str,
    ) -> DirectoryFuture<'a, Option<Vec<String>>>;
}

/// Lets `principal` through when its account holds one of `roles` now, as `directory` reads it
/// from the database; the token's `roles` claim is not consulted, so a lock or a role removed
/// takes effect on the next request on every instance, whatever the revocations reached.
///
/// A session that no longer works is the 401 any check of a session in the database answers
/// ([`kernel::auth::SESSION_NO_LONGER_VALID`]; document it with
/// [`kernel::auth::SESSION_ENDED`]); a working one without the role is a 403 with `refusal`.
pub async fn require_any_role(
    directory: &dyn UserDirectory,
    principal: &Principal,
    roles: &[&str],
    refusal: &str,
) -> AppResult<()> {
    let current = directory
        .current_roles(&principal.subject, &principal.session_id)
        .await?
        .ok_or_else(|| AppError::Unauthorized(kernel::auth::SESSION_NO_LONGER_VALID.into()))?;
    if current.iter().any(|held| roles.contains(&held.as_str())) {
        Ok(())
    } else {
        Err(AppError::Forbidden(refusal.into()))
    }
}

/// Why a session ended, as other modules may learn it (to tell a client why what it held open
/// is closing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionEnd {
    /// Logged out, revoked by its owner, or revoked by a sign-in that linked a provider.
    Revoked,
    /// An administrator locked the account.
    AccountLocked,
    /// The password changed (or was removed) after the session opened.
    PasswordChanged,
}

/// What a module may know of an account to reach its owner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contact {
    /// The account's address once its owner confirmed it; `None` before: mail to an address
    /// nobody proved is theirs could reach a stranger.
    pub confirmed_email: Option<String>,
}

/// Background tasks of the modules, spawned on the runtime and aborted by the host at shutdown,
/// and the signal that shutdown began.
#[derive(Clone, Default)]
pub struct BackgroundTasks {
    tasks: Arc<Mutex<Vec<JoinHandle<()>>>>,
    stopping: CancellationToken,
}

impl BackgroundTasks {
    pub fn spawn(&self, task: impl Future<Output = ()> + Send + 'static) {
        let handle = tokio::spawn(task);
        self.tasks
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(handle);
    }

    /// Every task spawned so far, for the host to stop.
    pub fn take(&self) -> Vec<JoinHandle<()>> {
        std::mem::take(&mut *self.tasks.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Cancelled when the service begins to shut down. A response that would never end by
    /// itself (an event stream) ends then, instead of holding the shutdown for its whole grace.
    pub fn stopping(&self) -> CancellationToken {
        self.stopping.clone()
    }
}

impl ModuleContext {
    /// The module's own settings section (`[NAME]`), or its defaults when absent.
    pub fn module_settings<M: Module>(&self) -> Result<M::Settings, SettingsError> {
        self.settings.section(M::NAME)
    }
}

/// A feature module, as the host sees it.
pub trait Module {
    /// The settings section and migration namespace, e.g. `"things"`.
    const NAME: &'static str;
    /// The module's settings (`[NAME]` in the settings files).
    type Settings: DeserializeOwned + Default;
    /// The module's operations. Each unsafe one declares its idempotency intent
    /// (`#[poem_idempotency::intents]` on the API's impl): a module that forgets does not build, and
    /// says so in its own crate rather than in the host.
    type Api: poem_openapi::OpenApi + poem_idempotency::intent::DeclaredIntents + 'static;

    /// Schema changes, applied at start-up in version order.
    fn migrations() -> &'static [Migration];

    /// Builds the API from the shared infrastructure and the module's settings.
    fn api(context: &ModuleContext, settings: Self::Settings) -> anyhow::Result<Self::Api>;
}

/// Migrates the module's schema and builds its API.
pub async fn mount<M: Module>(context: &ModuleContext) -> anyhow::Result<M::Api> {
    let settings = context.module_settings::<M>()?;
    context.database.migrate(M::NAME, M::migrations()).await?;
    M::api(context, settings)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A directory whose one session (`session-1` of `user-1`) holds `roles`, or has ended.
    struct OneSession {
        roles: Option<Vec<String>>,
    }

    impl UserDirectory for OneSession {
        fn contact<'a>(&'a self, _: &'a str) -> DirectoryFuture<'a, Option<Contact>> {
            Box::pin(async { Ok(None) })
        }

        fn session_end<'a>(
            &'a self,
            _: &'a str,
            _: &'a str,
        ) -> DirectoryFuture<'a, Option<SessionEnd>> {
            Box::pin(async { Ok(None) })
        }

        fn current_roles<'a>(
            &'a self,
            user_id: &'a str,
            session_id: &'a str,
        ) -> DirectoryFuture<'a, Option<Vec<String>>> {
            let known = user_id == "user-1" && session_id == "session-1";
            Box::pin(async move { Ok(self.roles.clone().filter(|_| known)) })
        }
    }

    /// A caller whose token claims the administrator role, whatever the directory says.
    fn claiming_admin() -> Principal {
        Principal {
            subject: "user-1".into(),
            session_id: "session-1".into(),
            roles: vec!["admin".into()],
            expires_at: u64::MAX,
        }
    }

    async fn check(directory_roles: Option<&[&str]>) -> AppResult<()> {
        let directory = OneSession {
            roles: directory_roles.map(|roles| roles.iter().map(|r| (*r).to_owned()).collect()),
        };
        require_any_role(
            &directory,
            &claiming_admin(),
            &["admin", "notifications:send"],
            "Senders only.",
        )
        .await
    }

    #[tokio::test]
    async fn one_of_the_roles_held_now_lets_the_caller_through() {
        assert!(check(Some(&["notifications:send"])).await.is_ok());
    }

    #[tokio::test]
    async fn the_tokens_claim_alone_is_a_403_with_the_refusal() {
        let refused = check(Some(&[])).await.unwrap_err();

        assert!(
            matches!(&refused, AppError::Forbidden(detail) if detail == "Senders only."),
            "{refused:?}"
        );
    }

    #[tokio::test]
    async fn a_session_that_ended_is_the_401_of_a_dead_session() {
        let refused = check(None).await.unwrap_err();

        assert!(
            matches!(&refused, AppError::Unauthorized(detail) if detail == kernel::auth::SESSION_NO_LONGER_VALID),
            "{refused:?}"
        );
    }
}
