//! The identity use cases, independent of HTTP.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use infra::database::now_ms;
use infra::mail::Mailer;
use infra::revocation::Revocations;
use kernel::{
    AccessTokenClaims, AccessTokenKeys, AppError, AppResult, PageRequest, Principal, RequestContext,
};
use poem_idempotency::{PreparedOutcome, Recorded};

use crate::domain::{
    ADMIN_ROLE, DisplayName, Email, HashingSlots, OpaqueToken, Password, PasswordHasher,
};
use crate::links::{LinkMailer, LinkQueue};
use crate::repository::{
    AdminAction, AdminChange, AuditRecord, ChangeOutcome, IdentityRepository, RefreshTokenState,
    SessionRecord, TokenPurpose, UserRecord,
};
use crate::settings::IdentitySettings;

/// The one answer to every failed login, whatever failed: no hint about which emails exist.
fn invalid_credentials() -> AppError {
    AppError::Unauthorized("The email or password is incorrect.".into())
}

/// What linking a provider account answers an account whose address is not confirmed.
pub const UNCONFIRMED_FOR_LINK: &str = "Confirm the account's email address before linking a provider account: the owner is told \
     of every link there.";

/// What linking a provider account answers a caller whose sign-in is not recent.
pub const SIGN_IN_AGAIN_FOR_LINK: &str = "Linking a provider account needs a recent sign-in: log \
     in again (or sign in with a linked provider) and link with the new session's token";

/// What the administrators' operations on one account answer when no account has the id.
pub const NO_SUCH_ACCOUNT: &str = "No account has this id.";

fn not_an_administrator() -> AppError {
    AppError::Forbidden(kernel::auth::NOT_AN_ADMINISTRATOR.into())
}

fn invalid_session() -> AppError {
    AppError::Unauthorized(kernel::auth::SESSION_NO_LONGER_VALID.into())
}

fn invalid_refresh_token() -> AppError {
    AppError::Unauthorized(
        "The refresh token is invalid, expired or already used: log in again.".into(),
    )
}

/// The one answer to a one-time token that cannot be used: it does not say which of invalid,
/// expired, used or superseded it was.
fn unusable_token(purpose: TokenPurpose) -> AppError {
    let what = match purpose {
        TokenPurpose::ResetPassword => "reset",
        TokenPurpose::ConfirmEmail => "confirmation",
    };
    AppError::Invalid(format!(
        "The {what} token is invalid, expired or already used."
    ))
}

/// A freshly issued access and refresh token.
pub struct TokenPair {
    /// The account they are for (never answered: for the throttle's known addresses).
    pub user_id: String,
    pub access_token: String,
    pub refresh_token: String,
    pub expires_in_secs: u64,
}

/// Everything the identity module does.
pub struct IdentityService {
    repository: IdentityRepository,
    hasher: PasswordHasher,
    tokens: Arc<AccessTokenKeys>,
    access_token_ttl: Duration,
    settings: IdentitySettings,
    links: LinkMailer,
    link_requests: LinkQueue,
    hashing: HashingSlots,
    revocations: Revocations,
}

impl IdentityService {
    pub fn new(
        repository: IdentityRepository,
        hasher: PasswordHasher,
        tokens: Arc<AccessTokenKeys>,
        access_token_ttl: Duration,
        settings: IdentitySettings,
        mailer: Arc<dyn Mailer>,
        revocations: Revocations,
    ) -> Self {
        let hashing = HashingSlots::new(settings.max_concurrent_hashes, settings.hash_wait);
        let links = LinkMailer::new(repository.clone(), Arc::new(settings.clone()), mailer);
        Self {
            repository,
            hasher,
            tokens,
            access_token_ttl,
            settings,
            link_requests: LinkQueue::start(links.clone()),
            links,
            hashing,
            revocations,
        }
    }

    /// Creates an account and mails a confirmation link.
    #[tracing::instrument(name = "identity.register", skip_all)]
    pub async fn register(
        &self,
        email: &str,
        password: &str,
        display_name: Option<String>,
    ) -> AppResult<UserRecord> {
        let email = Email::parse(email)?;
        let password = Password::parse(password, "password")?;
        let display_name =
            DisplayName::parse(display_name.as_deref())?.map(DisplayName::into_string);
        let user = UserRecord {
            id: uuid::Uuid::now_v7().to_string(),
            email: email.as_str().to_owned(),
            display_name,
            password_hash: self.hash_off_thread(password).await?,
            roles: Vec::new(),
            email_confirmed_at_ms: None,
            locked_at_ms: None,
            created_at_ms: now_ms(),
            password_changed_at_ms: None,
        };
        // The account and its confirmation token in one transaction; the mail once both are in.
        let confirmation = self.links.mint(&user, TokenPurpose::ConfirmEmail);
        self.repository
            .insert_user(&user, &confirmation.record)
            .await?;
        self.links.mail(confirmation);
        Ok(user)
    }

    /// Checks credentials and opens a session.
    #[tracing::instrument(name = "identity.login", skip_all)]
    pub async fn login(
        &self,
        email: &str,
        password: &str,
        user_agent: Option<String>,
    ) -> AppResult<TokenPair> {
        let user = match Email::parse(email) {
            Ok(email) => self.repository.user_by_email(email.as_str()).await?,
            Err(_) => None,
        };
        // An account without a password (made by signing in with a provider) is checked against
        // the dummy hash like an unknown email: the same time, and never a match.
        let stored = user
            .as_ref()
            .filter(|u| u.has_password())
            .map(|u| u.password_hash.clone());
        let hasher = self.hasher.clone();
        let candidate = password.to_owned();
        // Verified even when the account does not exist (against a dummy hash): the same work,
        // so the same time, for an unknown email and a wrong password.
        let matches = self
            .hashing
            .run(move || hasher.verify(&candidate, stored.as_deref()))
            .await?;
        let Some(user) = user.filter(|_| matches) else {
            return Err(invalid_credentials());
        };
        if user.locked_at_ms.is_some() {
            return Err(AppError::Forbidden(
                "This account is locked. Contact an administrator.".into(),
            ));
        }
        if self.settings.require_confirmed_email && user.email_confirmed_at_ms.is_none() {
            return Err(AppError::Forbidden(
                "Confirm your email address before logging in.".into(),
            ));
        }
        // The hash parameters were raised since this password was set: upgrade it now, while we
        // hold the plain password (stored with the session, below).
        let stored_hash = if self.hasher.is_outdated(&user.password_hash) {
            self.hash_off_thread(Password::parse(password, "password")?)
                .await?
        } else {
            user.password_hash.clone()
        };
        let now = now_ms();
        let refresh = OpaqueToken::generate();
        let session = SessionRecord {
            id: uuid::Uuid::now_v7().to_string(),
            user_id: user.id.clone(),
            created_at_ms: now,
            last_used_at_ms: now,
            expires_at_ms: now + self.settings.refresh_token_ttl.as_millis() as i64,
            revoked_at_ms: None,
            user_agent: user_agent.map(|ua| ua.chars().take(200).collect()),
            identity_id: None,
        };
        if !self
            .repository
            .open_session(&session, &refresh.hash, &user.password_hash, &stored_hash)
            .await?
        {
            // Locked, or the password changed, since it was checked: this login is too late.
            return Err(invalid_credentials());
        }
        self.token_pair(&user, &session.id, refresh.plain)
    }

    /// Exchanges a refresh token for a new pair; the old refresh token stops working. A token
    /// that was already exchanged revokes its whole session: someone is replaying it.
    #[tracing::instrument(name = "identity.refresh", skip_all)]
    pub async fn refresh(&self, refresh_token: &str) -> AppResult<TokenPair> {
        let old_hash = OpaqueToken::hash_of(refresh_token);
        let session = match self.repository.refresh_token_state(&old_hash).await? {
            RefreshTokenState::Unknown => return Err(invalid_refresh_token()),
            RefreshTokenState::Superseded { session_id } => {
                tracing::warn!(
                    session_id,
                    "a superseded refresh token was presented: revoking its session"
                );
                self.end_session(&session_id).await?;
                return Err(invalid_refresh_token());
            }
            RefreshTokenState::Current { session } => session,
        };
        let now = now_ms();
        if !session.is_active(now) {
            return Err(invalid_refresh_token());
        }
        let user = self
            .unlocked_user(&session.user_id, invalid_refresh_token)
            .await?;
        if user.outdates(&session) {
            return Err(invalid_refresh_token());
        }
        let refresh = OpaqueToken::generate();
        let expires = now + self.settings.refresh_token_ttl.as_millis() as i64;
        if !self
            .repository
            .rotate_refresh_token(&session.id, &old_hash, &refresh.hash, now, expires)
            .await?
        {
            // A concurrent refresh exchanged it first (the same as a replay), or the session was
            // revoked or expired meanwhile: either way it ends here.
            self.end_session(&session.id).await?;
            return Err(invalid_refresh_token());
        }
        self.token_pair(&user, &session.id, refresh.plain)
    }

    /// Ends the session a refresh token belongs to.
    #[tracing::instrument(name = "identity.revoke", skip_all)]
    pub async fn revoke(&self, refresh_token: &str) -> AppResult<()> {
        let session_id = match self
            .repository
            .refresh_token_state(&OpaqueToken::hash_of(refresh_token))
            .await?
        {
            RefreshTokenState::Unknown => return Err(invalid_refresh_token()),
            RefreshTokenState::Superseded { session_id } => session_id,
            RefreshTokenState::Current { session } => session.id,
        };
        self.end_session(&session_id).await
    }

    /// Revokes a session in the database, and its access tokens on every instance.
    async fn end_session(&self, session_id: &str) -> AppResult<()> {
        if self.repository.revoke_session(session_id, now_ms()).await? {
            self.revocations.revoke(&[session_id]).await;
        }
        Ok(())
    }

    /// The caller's account, checked against the database: a revoked session, a locked or
    /// deleted account stop working here even while the access token has not expired.
    #[tracing::instrument(name = "identity.authenticate", skip_all, fields(user.id = %principal.subject))]
    pub async fn authenticate(&self, principal: &Principal) -> AppResult<UserRecord> {
        self.authenticated_session(principal)
            .await
            .map(|(user, _)| user)
    }

    /// [`Self::authenticate`] for what could hand the account to someone else (linking a
    /// provider account): the account's address must be confirmed (the owner is told there),
    /// and the caller must have signed in within `identity.recent_sign_in`. An access token
    /// alone, stolen from an older session, is not enough.
    #[tracing::instrument(name = "identity.authenticate_recent", skip_all, fields(user.id = %principal.subject))]
    pub async fn authenticate_recent(&self, principal: &Principal) -> AppResult<UserRecord> {
        let (user, session) = self.authenticated_session(principal).await?;
        if user.email_confirmed_at_ms.is_none() {
            return Err(AppError::Forbidden(UNCONFIRMED_FOR_LINK.into()));
        }
        let signed_in_for = now_ms().saturating_sub(session.created_at_ms);
        if signed_in_for > self.settings.recent_sign_in.as_millis() as i64 {
            return Err(AppError::Forbidden(format!(
                "{SIGN_IN_AGAIN_FOR_LINK} (within {})",
                humantime::format_duration(self.settings.recent_sign_in)
            )));
        }
        Ok(user)
    }

    /// The caller's account and session, both still good.
    async fn authenticated_session(
        &self,
        principal: &Principal,
    ) -> AppResult<(UserRecord, SessionRecord)> {
        let session = self
            .repository
            .session(&principal.session_id)
            .await?
            .ok_or_else(invalid_session)?;
        if !session.is_active(now_ms()) || session.user_id != principal.subject {
            return Err(invalid_session());
        }
        let user = self
            .unlocked_user(&principal.subject, invalid_session)
            .await?;
        if user.outdates(&session) {
            return Err(invalid_session());
        }
        Ok((user, session))
    }

    /// The account, unless it is gone or locked: then `refused()`.
    async fn unlocked_user(
        &self,
        user_id: &str,
        refused: fn() -> AppError,
    ) -> AppResult<UserRecord> {
        match self.repository.user_by_id(user_id).await? {
            Some(user) if user.locked_at_ms.is_none() => Ok(user),
            _ => Err(refused()),
        }
    }

    /// [`Self::authenticate`], and the caller must be an administrator.
    #[tracing::instrument(name = "identity.authenticate_admin", skip_all, fields(user.id = %principal.subject))]
    pub async fn authenticate_admin(&self, principal: &Principal) -> AppResult<UserRecord> {
        let user = self.authenticate(principal).await?;
        if !user.is_active_admin() {
            return Err(not_an_administrator());
        }
        Ok(user)
    }

    #[tracing::instrument(name = "identity.sessions", skip_all, fields(user.id = %principal.subject))]
    pub async fn sessions(&self, principal: &Principal) -> AppResult<Vec<SessionRecord>> {
        let user = self.authenticate(principal).await?;
        self.repository.active_sessions(&user.id, now_ms()).await
    }

    /// Revokes one of the caller's sessions.
    #[tracing::instrument(name = "identity.revoke_session", skip_all, fields(user.id = %principal.subject, session.id = session_id))]
    pub async fn revoke_session(&self, principal: &Principal, session_id: &str) -> AppResult<()> {
        let user = self.authenticate(principal).await?;
        let session = self.repository.session(session_id).await?;
        match session {
            Some(session) if session.user_id == user.id => self.end_session(session_id).await,
            _ => Err(AppError::NotFound("The caller has no such session.".into())),
        }
    }

    /// Mails a reset link when the account exists; says nothing either way, and takes the same
    /// path either way: the account is looked up after the answer (see [`crate::links`]).
    pub fn forgot_password(&self, email: &str) -> AppResult<()> {
        self.request_link(email, TokenPurpose::ResetPassword)
    }

    /// Sets a new password with a reset token and ends every session of the account. `answer`
    /// is the operation's response, committed with the reset (see `poem_idempotency::durable`).
    #[tracing::instrument(name = "identity.reset_password", skip_all)]
    pub async fn reset_password<R>(
        &self,
        token: &str,
        new_password: &str,
        answer: PreparedOutcome<R>,
    ) -> AppResult<Recorded<R>> {
        let password = Password::parse(new_password, "newPassword")?;
        let token_hash = OpaqueToken::hash_of(token);
        // Checked before hashing, so a guessed token costs no argon2; spent (atomically, with
        // the rest) after it.
        if !self
            .repository
            .one_time_token_is_live(&token_hash, TokenPurpose::ResetPassword, now_ms())
            .await?
        {
            return Err(unusable_token(TokenPurpose::ResetPassword));
        }
        let hash = self.hash_off_thread(password).await?;
        let (revoked, recorded) = self
            .repository
            .reset_password(&token_hash, &hash, now_ms(), answer)
            .await?
            .ok_or_else(|| unusable_token(TokenPurpose::ResetPassword))?;
        self.revocations.revoke(&revoked).await;
        Ok(recorded)
    }

    /// Mails a confirmation link when the account exists and is unconfirmed; says nothing
    /// either way (as [`Self::forgot_password`]).
    pub fn send_email_confirmation(&self, email: &str) -> AppResult<()> {
        self.request_link(email, TokenPurpose::ConfirmEmail)
    }

    fn request_link(&self, email: &str, purpose: TokenPurpose) -> AppResult<()> {
        match Email::parse(email) {
            Ok(email) => self.link_requests.request(email, purpose),
            // No account can have it: nothing to send, and nothing to say.
            Err(_) => Ok(()),
        }
    }

    /// Confirms the email address of the token's account, spending the token (and the
    /// account's other confirmation links) and recording `answer` in the same transaction.
    #[tracing::instrument(name = "identity.confirm_email", skip_all)]
    pub async fn confirm_email<R>(
        &self,
        token: &str,
        answer: PreparedOutcome<R>,
    ) -> AppResult<Recorded<R>> {
        self.repository
            .confirm_email(&OpaqueToken::hash_of(token), now_ms(), answer)
            .await?
            .map(|(_, recorded)| recorded)
            .ok_or_else(|| unusable_token(TokenPurpose::ConfirmEmail))
    }

    #[tracing::instrument(name = "identity.list_users", skip_all)]
    pub async fn list_users(&self, page: PageRequest) -> AppResult<(Vec<UserRecord>, u64)> {
        self.repository.list_users(page).await
    }

    /// Locks an account and ends its sessions, their access tokens included, on behalf of
    /// `admin`; recorded in the audit.
    #[tracing::instrument(name = "identity.lock", skip_all, fields(user.id = user_id, admin.id = %admin.id))]
    pub async fn lock(&self, admin: &UserRecord, user_id: &str) -> AppResult<()> {
        self.change_lock(admin, user_id, AdminAction::Lock).await
    }

    /// Lifts a lock on behalf of `admin`; recorded in the audit.
    #[tracing::instrument(name = "identity.unlock", skip_all, fields(user.id = user_id, admin.id = %admin.id))]
    pub async fn unlock(&self, admin: &UserRecord, user_id: &str) -> AppResult<()> {
        self.change_lock(admin, user_id, AdminAction::Unlock).await
    }

    async fn change_lock(
        &self,
        admin: &UserRecord,
        target: &str,
        action: AdminAction,
    ) -> AppResult<()> {
        let request_id = RequestContext::current().map(|context| context.request_id().to_owned());
        let change = AdminChange {
            actor: &admin.id,
            action,
            target,
            at_ms: now_ms(),
            request_id: request_id.as_deref(),
        };
        match self.repository.change_lock(&change).await? {
            ChangeOutcome::Done { revoked } => {
                self.revocations.revoke(&revoked).await;
                Ok(())
            }
            ChangeOutcome::NoSuchAccount => Err(AppError::NotFound(NO_SUCH_ACCOUNT.into())),
            // Locked (by another administrator) or demoted while this request ran.
            ChangeOutcome::ActorNotAnActiveAdmin => Err(not_an_administrator()),
        }
    }

    /// One page of the lock and unlock audit, newest first.
    #[tracing::instrument(name = "identity.audit", skip_all)]
    pub async fn audit(&self, page: PageRequest) -> AppResult<(Vec<AuditRecord>, u64)> {
        self.repository.audit(page).await
    }

    /// Grants the administrator role to an existing account (used by `app grant-admin`).
    #[tracing::instrument(name = "identity.grant_admin", skip_all)]
    pub async fn grant_admin(&self, email: &str) -> AppResult<UserRecord> {
        self.grant_role(email, ADMIN_ROLE).await
    }

    /// Grants `role` (lower-case letters, digits, `:`, `_`, `-`; e.g. `notifications:send`) to
    /// the account registered with `email`. Every role-gated operation reads the roles in the
    /// database, so it takes effect on the account's next request; the access tokens' `roles`
    /// claim shows it from the next login or refresh.
    #[tracing::instrument(name = "identity.grant_role", skip_all)]
    pub async fn grant_role(&self, email: &str, role: &str) -> AppResult<UserRecord> {
        let mut user = self.account_for_roles(email, role).await?;
        if !user.roles.iter().any(|r| r == role) {
            user.roles.push(role.to_owned());
            self.repository.set_roles(&user.id, &user.roles).await?;
        }
        Ok(user)
    }

    /// Removes the administrator role from an existing account (used by `app revoke-admin`).
    #[tracing::instrument(name = "identity.revoke_admin", skip_all)]
    pub async fn revoke_admin(&self, email: &str) -> AppResult<UserRecord> {
        self.revoke_role(email, ADMIN_ROLE).await
    }

    /// Removes `role` from the account registered with `email` (nothing to do when it lacks
    /// it). Role-gated operations read the roles in the database, so the account's next
    /// request is refused what the role allowed, even with an access token that still claims
    /// it; its sessions stay open.
    #[tracing::instrument(name = "identity.revoke_role", skip_all)]
    pub async fn revoke_role(&self, email: &str, role: &str) -> AppResult<UserRecord> {
        let mut user = self.account_for_roles(email, role).await?;
        if user.roles.iter().any(|r| r == role) {
            user.roles.retain(|r| r != role);
            self.repository.set_roles(&user.id, &user.roles).await?;
        }
        Ok(user)
    }

    /// The account registered with `email`, once `role` is known to be a role name.
    async fn account_for_roles(&self, email: &str, role: &str) -> AppResult<UserRecord> {
        let well_formed = !role.is_empty()
            && role.len() <= 64
            && role
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b":_-".contains(&b));
        if !well_formed {
            return Err(AppError::Invalid(format!(
                "`{role}` is not a role name: use lower-case letters, digits, `:`, `_` and `-`."
            )));
        }
        let email = Email::parse(email)?;
        self.repository
            .user_by_email(email.as_str())
            .await?
            .ok_or_else(|| AppError::NotFound(NO_SUCH_ACCOUNT.into()))
    }

    /// Refuses the tokens of `session_ids` (already revoked in the database) on every instance.
    #[tracing::instrument(name = "identity.revoke_sessions", skip_all)]
    pub(crate) async fn revoke_sessions(&self, session_ids: &[String]) {
        self.revocations.revoke(session_ids).await;
    }

    /// The one-time links' mailer.
    pub(crate) fn links(&self) -> &LinkMailer {
        &self.links
    }

    /// How long a new session's refresh token lives.
    pub(crate) fn refresh_token_ttl(&self) -> Duration {
        self.settings.refresh_token_ttl
    }

    /// The token pair of a session just opened for `user`.
    pub(crate) fn token_pair(
        &self,
        user: &UserRecord,
        session_id: &str,
        refresh_token: String,
    ) -> AppResult<TokenPair> {
        let issued_at = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_err(AppError::internal)?
            .as_secs();
        let claims = AccessTokenClaims {
            sub: user.id.clone(),
            sid: session_id.to_owned(),
            roles: user.roles.clone(),
            iss: self.tokens.issuer().to_owned(),
            aud: self.tokens.audience().to_owned(),
            iat: issued_at,
            exp: issued_at + self.access_token_ttl.as_secs(),
        };
        Ok(TokenPair {
            user_id: user.id.clone(),
            access_token: self.tokens.sign(&claims).map_err(AppError::internal)?,
            refresh_token,
            expires_in_secs: self.access_token_ttl.as_secs(),
        })
    }

    /// argon2 is deliberately slow: keep it off the async workers, a bounded number at once.
    async fn hash_off_thread(&self, password: Password) -> AppResult<String> {
        let hasher = self.hasher.clone();
        self.hashing.run(move || hasher.hash(&password)).await?
    }
}
