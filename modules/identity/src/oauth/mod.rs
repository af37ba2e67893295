//! Sign-in with an OpenID Connect provider: the use cases behind `/auth/oauth/*` and
//! `/auth/identities`, independent of HTTP.
//!
//! - [`settings`]: `[oauth]`, the providers and how a first sign-in finds its account;
//! - [`provider`]: one provider through the `openidconnect` crate (discovery, PKCE, ID tokens);
//! - [`repository`]: authorizations in progress and linked identities.
//!
//! The linking rule (ADR 0009) is [`OAuthService::plan`]: an identity `(provider, subject)`
//! belongs to one account; a first sign-in links to an existing account by email only when the
//! provider asserts `email_verified` and the account's address is confirmed; it never links or
//! makes an account on an address nobody verified. A signed-in account may also link a provider
//! account to itself explicitly ([`OAuthService::start_link`], [`OAuthService::link`]): having
//! both signed in and signed in at the provider proves the same person holds both, whatever
//! the provider says of the address.

pub mod provider;
pub mod repository;
pub mod settings;

use std::collections::BTreeMap;
use std::sync::Arc;

use infra::database::now_ms;
use kernel::{AppError, AppResult, Principal};
use poem::IntoResponse;
use poem_idempotency::{OutcomeRecorder, Recorded};

use crate::domain::{DisplayName, Email, OpaqueToken};
use crate::links::{Link, PROVIDER_LINKED, PROVIDER_LINKED_WHILE_SIGNED_IN};
use crate::repository::{IdentityRepository, SessionRecord, TokenPurpose, UserRecord};
use crate::service::{IdentityService, TokenPair};
use provider::{OidcProvider, VerifiedIdentity};
use repository::{IdentityRecord, LinkedBy, OAuthRepository, SignInPlan, StateRecord, Unlinked};
use settings::OAuthSettings;

/// What `authorize` answers.
pub struct Authorization {
    pub url: String,
    pub state: String,
    /// A secret for the client that asked, and no one else: the exchange needs it.
    pub binding: String,
    pub expires_at_ms: i64,
}

/// What `exchange` is given.
pub struct CodeExchange<'a> {
    pub provider: &'a str,
    pub code: &'a str,
    pub state: &'a str,
    pub binding: &'a str,
    pub redirect_uri: &'a str,
    pub user_agent: Option<String>,
}

/// What the sign-in operations answer for a provider the service does not know (404).
pub const NO_SUCH_PROVIDER: &str = "No sign-in provider has this name.";

fn no_such_provider() -> AppError {
    AppError::NotFound(NO_SUCH_PROVIDER.into())
}

fn unusable_state() -> AppError {
    AppError::Invalid(
        "The `state` is unknown, expired or already used, belongs to another provider or \
         redirect URI, or was not started with this `binding`: start the sign-in again."
            .into(),
    )
}

fn locked() -> AppError {
    AppError::Forbidden("This account is locked. Contact an administrator.".into())
}

/// Sign-in with the configured providers.
pub struct OAuthService {
    providers: BTreeMap<String, OidcProvider>,
    settings: OAuthSettings,
    repository: OAuthRepository,
    /// The accounts, read as the rest of the module reads them.
    accounts: IdentityRepository,
    identity: Arc<IdentityService>,
}

impl OAuthService {
    /// The providers of `settings`, checked (`production`: stricter, see
    /// [`OAuthSettings::validate`]).
    pub fn new(
        settings: OAuthSettings,
        production: bool,
        repository: OAuthRepository,
        accounts: IdentityRepository,
        identity: Arc<IdentityService>,
    ) -> anyhow::Result<Self> {
        settings.validate(production)?;
        let providers = settings
            .providers
            .iter()
            .map(|(name, provider)| {
                OidcProvider::new(
                    name,
                    provider.clone(),
                    settings.http_timeout,
                    settings.metadata_ttl,
                )
                .map(|provider| (name.clone(), provider))
            })
            .collect::<anyhow::Result<_>>()?;
        Ok(Self {
            providers,
            settings,
            repository,
            accounts,
            identity,
        })
    }

    /// The configured providers, by name.
    pub fn providers(&self) -> impl Iterator<Item = &OidcProvider> {
        self.providers.values()
    }

    fn provider(&self, name: &str) -> AppResult<&OidcProvider> {
        self.providers.get(name).ok_or_else(no_such_provider)
    }

    /// 404 unless `name` is a configured provider. The API asks before it counts a start
    /// against the caller's address, so requests for unknown providers cost nothing to refuse
    /// and fill no rate-limit bucket.
    pub fn known_provider(&self, name: &str) -> AppResult<()> {
        self.provider(name).map(drop)
    }

    fn allowed(provider: &OidcProvider, redirect_uri: &str) -> AppResult<()> {
        if provider.allows_redirect(redirect_uri) {
            Ok(())
        } else {
            Err(AppError::Invalid(
                "`redirectUri` is not one of this provider's allowed redirect URIs.".into(),
            ))
        }
    }

    /// Starts a sign-in: the provider's authorization URL, whose state, nonce and PKCE verifier
    /// are kept here (under the state's hash) until the exchange or `oauth.state_ttl`, with the
    /// hash of a binding answered to the caller alone (it never goes to the provider, so the
    /// browser's redirect back does not carry it).
    #[tracing::instrument(name = "identity.oauth.authorize", skip_all, fields(provider = provider))]
    pub async fn authorize(&self, provider: &str, redirect_uri: &str) -> AppResult<Authorization> {
        self.start(provider, redirect_uri, None).await
    }

    /// Starts linking a provider account to the caller's account: as [`Self::authorize`], with
    /// the state kept for this account's [`Self::link`] alone. The caller must have a
    /// confirmed address and a recent sign-in ([`IdentityService::authenticate_recent`]),
    /// checked here too so that nobody is sent to the provider for a link that cannot end.
    #[tracing::instrument(name = "identity.oauth.start_link", skip_all, fields(provider = provider, user.id = %principal.subject))]
    pub async fn start_link(
        &self,
        principal: &Principal,
        provider: &str,
        redirect_uri: &str,
    ) -> AppResult<Authorization> {
        let user = self.identity.authenticate_recent(principal).await?;
        self.start(provider, redirect_uri, Some(user.id)).await
    }

    async fn start(
        &self,
        provider: &str,
        redirect_uri: &str,
        link_user_id: Option<String>,
    ) -> AppResult<Authorization> {
        let provider = self.provider(provider)?;
        Self::allowed(provider, redirect_uri)?;
        let start = provider.authorize(redirect_uri).await?;
        let binding = OpaqueToken::generate();
        let now = now_ms();
        let expires_at_ms = now + self.settings.state_ttl.as_millis() as i64;
        self.repository
            .insert_state(&StateRecord {
                state_hash: OpaqueToken::hash_of(&start.state),
                binding_hash: binding.hash,
                provider: provider.name.clone(),
                redirect_uri: redirect_uri.to_owned(),
                nonce: start.nonce,
                pkce_verifier: start.pkce_verifier,
                created_at_ms: now,
                expires_at_ms,
                link_user_id,
            })
            .await?;
        Ok(Authorization {
            url: start.url,
            state: start.state,
            binding: binding.plain,
            expires_at_ms,
        })
    }

    /// Completes a sign-in: spends the state, exchanges the code, validates the ID token, finds
    /// or makes the account by the linking rule, and opens a session as a login does.
    #[tracing::instrument(name = "identity.oauth.exchange", skip_all)]
    pub async fn exchange(&self, request: CodeExchange<'_>) -> AppResult<TokenPair> {
        let (provider, verified) = self.verify(&request, None).await?;
        self.sign_in(&provider, verified, request.user_agent).await
    }

    /// Completes linking a provider account to the caller's account and commits `answer` with
    /// it, in the durable transaction it begins for `outcome`. The caller must still have a
    /// confirmed address and a recent sign-in; the state must have been started by this
    /// account ([`Self::start_link`]); the provider account must not be linked to any account
    /// yet. Once committed, the owner is mailed at the confirmed address, with a reset link
    /// that undoes the link (a reset removes identities linked while signed in, ADR 0017).
    #[tracing::instrument(name = "identity.oauth.link", skip_all, fields(user.id = %principal.subject))]
    pub async fn link<R: IntoResponse>(
        &self,
        outcome: &OutcomeRecorder,
        principal: &Principal,
        request: CodeExchange<'_>,
        answer: impl FnOnce(IdentityRecord) -> R,
    ) -> AppResult<Recorded<R>> {
        // An unknown provider is a 404 whoever asks, as for the start of a link.
        self.known_provider(request.provider)?;
        let user = self.identity.authenticate_recent(principal).await?;
        let (provider, verified) = self.verify(&request, Some(&user.id)).await?;
        if let Some(linked) = self
            .repository
            .identity(&provider, &verified.subject)
            .await?
        {
            return Err(AppError::Conflict(if linked.user_id == user.id {
                "This provider account is linked to the caller's account already.".into()
            } else {
                "This provider account is linked to another account: sign in with it there and \
                 remove the link first."
                    .into()
            }));
        }
        let now = now_ms();
        let identity = IdentityRecord {
            id: uuid::Uuid::now_v7().to_string(),
            user_id: user.id.clone(),
            provider,
            subject: verified.subject,
            // Shown only when the provider verified it.
            email: verified.email.filter(|_| verified.email_verified),
            linked_at_ms: now,
            last_used_at_ms: now,
            linked_by: LinkedBy::SignedIn,
        };
        let display_name = self.provider(&identity.provider)?.display_name.clone();
        let notice = self.identity.links().mint_in(
            &user,
            TokenPurpose::ResetPassword,
            Some(PROVIDER_LINKED_WHILE_SIGNED_IN),
            &[("provider", &display_name)],
        );
        let mut tx = outcome.begin(self.repository.pool()).await?;
        self.repository
            .link(&mut tx, &identity, &notice.record)
            .await?;
        let recorded = tx.commit(answer(identity)).await?;
        self.identity.links().mail(notice);
        Ok(recorded)
    }

    /// Spends the request's state (before anything else, whatever follows: a state works once,
    /// only for the client that started it, and only for what it was started for: a sign-in,
    /// or `link_user_id`'s link), exchanges the code and validates the ID token; the provider's
    /// name and what it verified.
    async fn verify(
        &self,
        request: &CodeExchange<'_>,
        link_user_id: Option<&str>,
    ) -> AppResult<(String, VerifiedIdentity)> {
        let provider = self.provider(request.provider)?;
        Self::allowed(provider, request.redirect_uri)?;
        let state = self
            .repository
            .take_state(
                &OpaqueToken::hash_of(request.state),
                &OpaqueToken::hash_of(request.binding),
                now_ms(),
            )
            .await?
            .filter(|state| {
                state.provider == provider.name
                    && state.redirect_uri == request.redirect_uri
                    && state.link_user_id.as_deref() == link_user_id
            })
            .ok_or_else(unusable_state)?;
        let verified = provider
            .exchange(
                request.code,
                request.redirect_uri,
                state.pkce_verifier,
                state.nonce,
            )
            .await?;
        Ok((provider.name.clone(), verified))
    }

    async fn sign_in(
        &self,
        provider: &str,
        verified: VerifiedIdentity,
        user_agent: Option<String>,
    ) -> AppResult<TokenPair> {
        let now = now_ms();
        let (user, plan) = self.plan(provider, verified, now).await?;
        let identity_id = match &plan {
            Plan::Linked(identity_id) => identity_id.clone(),
            Plan::Link(identity, _) | Plan::Create(identity) => identity.id.clone(),
        };
        let refresh = OpaqueToken::generate();
        let session = SessionRecord {
            id: uuid::Uuid::now_v7().to_string(),
            user_id: user.id.clone(),
            created_at_ms: now,
            last_used_at_ms: now,
            expires_at_ms: now + self.identity.refresh_token_ttl().as_millis() as i64,
            revoked_at_ms: None,
            user_agent: user_agent.map(|ua| ua.chars().take(200).collect()),
            identity_id: Some(identity_id),
        };
        let writes = match &plan {
            Plan::Linked(identity_id) => SignInPlan::Linked { identity_id },
            Plan::Link(identity, reset) => SignInPlan::Link {
                identity,
                reset: &reset.record,
            },
            Plan::Create(identity) => SignInPlan::Create {
                user: &user,
                identity,
            },
        };
        let Some(revoked) = self
            .repository
            .sign_in(&writes, &session, &refresh.hash)
            .await?
        else {
            // Locked (or, for a link, its address no longer confirmed) since it was read.
            return Err(locked());
        };
        // A link by address: the sessions from before it end everywhere, and the owner learns
        // why their password is gone (with a link to set one).
        self.identity.revoke_sessions(&revoked).await;
        if let Plan::Link(_, reset) = plan {
            self.identity.links().mail(reset);
        }
        self.identity.token_pair(&user, &session.id, refresh.plain)
    }

    /// The linking rule: which account `verified` signs in to, and what that writes.
    async fn plan(
        &self,
        provider: &str,
        verified: VerifiedIdentity,
        now: i64,
    ) -> AppResult<(UserRecord, Plan)> {
        if let Some(identity) = self
            .repository
            .identity(provider, &verified.subject)
            .await?
        {
            let user = self
                .accounts
                .user_by_id(&identity.user_id)
                .await?
                .ok_or_else(|| AppError::internal("a linked identity without its account"))?;
            if user.locked_at_ms.is_some() {
                return Err(locked());
            }
            return Ok((user, Plan::Linked(identity.id)));
        }
        // A first sign-in: only an address the provider verified may find or name an account.
        let email = verified
            .email
            .as_deref()
            .filter(|_| verified.email_verified)
            .and_then(|email| Email::parse(email).ok())
            .ok_or_else(|| {
                AppError::Forbidden(
                    "The provider did not assert a verified email address for this account, so \
                     it can neither be linked to an account nor make one."
                        .into(),
                )
            })?;
        let identity = |user_id: &str| IdentityRecord {
            id: uuid::Uuid::now_v7().to_string(),
            user_id: user_id.to_owned(),
            provider: provider.to_owned(),
            subject: verified.subject.clone(),
            email: Some(email.as_str().to_owned()),
            linked_at_ms: now,
            last_used_at_ms: now,
            linked_by: LinkedBy::VerifiedAddress,
        };
        match self.accounts.user_by_email(email.as_str()).await? {
            Some(user) if user.email_confirmed_at_ms.is_none() => Err(AppError::Conflict(
                "An account has this email address but has not confirmed it, so it is not \
                 linked: confirm the address (or reset the password) from that account's mail, \
                 then sign in with the provider again."
                    .into(),
            )),
            Some(user) if user.locked_at_ms.is_some() => Err(locked()),
            Some(user) => {
                let identity = identity(&user.id);
                let provider = self.provider(provider)?;
                let reset = self.identity.links().mint_in(
                    &user,
                    TokenPurpose::ResetPassword,
                    Some(PROVIDER_LINKED),
                    &[("provider", &provider.display_name)],
                );
                Ok((user, Plan::Link(identity, reset)))
            }
            None if !self.settings.create_accounts => Err(AppError::Forbidden(
                "No account has this email address, and this service makes none on sign-in with \
                 a provider: register first."
                    .into(),
            )),
            None => {
                let user = UserRecord {
                    id: uuid::Uuid::now_v7().to_string(),
                    email: email.as_str().to_owned(),
                    display_name: DisplayName::parse(verified.name.as_deref())
                        .ok()
                        .flatten()
                        .map(DisplayName::into_string),
                    // No password: a reset link sets one if the owner wants it.
                    password_hash: String::new(),
                    roles: Vec::new(),
                    // The provider verified it.
                    email_confirmed_at_ms: Some(now),
                    locked_at_ms: None,
                    created_at_ms: now,
                    password_changed_at_ms: None,
                };
                let identity = identity(&user.id);
                Ok((user, Plan::Create(identity)))
            }
        }
    }

    /// The caller's linked identities, oldest first.
    #[tracing::instrument(name = "identity.oauth.identities", skip_all, fields(user.id = %principal.subject))]
    pub async fn identities(&self, principal: &Principal) -> AppResult<Vec<IdentityRecord>> {
        let user = self.identity.authenticate(principal).await?;
        self.repository.identities_of(&user.id).await
    }

    /// Removes one of the caller's linked identities, and ends the sessions it opened, in the
    /// durable transaction it begins for `outcome` (after reading the account, so that the
    /// request holds one connection at a time), committed with `answer`; those sessions'
    /// access tokens are refused everywhere once it is.
    #[tracing::instrument(name = "identity.oauth.unlink", skip_all, fields(user.id = %principal.subject))]
    pub async fn unlink<R: IntoResponse>(
        &self,
        outcome: &OutcomeRecorder,
        principal: &Principal,
        identity_id: &str,
        answer: R,
    ) -> AppResult<Recorded<R>> {
        let user = self.identity.authenticate(principal).await?;
        let mut tx = outcome.begin(self.repository.pool()).await?;
        match self
            .repository
            .unlink(&mut tx, &user.id, identity_id, now_ms())
            .await?
        {
            Unlinked::Done { revoked } => {
                let recorded = tx.commit(answer).await?;
                self.identity.revoke_sessions(&revoked).await;
                Ok(recorded)
            }
            Unlinked::NoSuchIdentity => Err(AppError::NotFound(
                "The caller has no linked identity with this id.".into(),
            )),
            Unlinked::LastWayToSignIn => Err(AppError::Conflict(
                "This is the account's only way to sign in: set a password (through a reset \
                 link) or link another provider first."
                    .into(),
            )),
        }
    }
}

/// [`SignInPlan`], owning what it writes.
enum Plan {
    Linked(String),
    /// The identity, and the reset link mailed to the owner once it is linked.
    Link(IdentityRecord, Link),
    Create(IdentityRecord),
}
