//! SQL for sign-in with a provider: authorizations in progress (under the hash of their
//! `state`, single use) and the identities linked to accounts. Every sign-in's writes (a new
//! account, a new link, the session) are one transaction.

use infra::Database;
use infra::database::begin_write;
use kernel::{AppError, AppResult};

use crate::repository::{
    OneTimeTokenRecord, SessionRecord, UserRecord, insert_one_time_token, insert_session,
    insert_user_row, revoke_sessions_of, user_columns,
};

/// One identity per provider account: `(provider, subject)` is unique. (Only its detection is
/// used: a violation is a 409 about the sign-in, not about a request field.)
const UNIQUE_IDENTITY: crud::UniqueField = crud::UniqueField {
    constraint: "identity_linked_identities_provider_subject_key",
    columns: "identity_linked_identities.provider, identity_linked_identities.subject",
    field: "code",
    detail: "",
};

/// An authorization in progress, as stored.
#[derive(sqlx::FromRow)]
pub struct StateRecord {
    pub state_hash: String,
    /// The hash of the binding `authorize` answered: the exchange must present it.
    pub binding_hash: String,
    pub provider: String,
    pub redirect_uri: String,
    pub nonce: String,
    pub pkce_verifier: String,
    pub created_at_ms: i64,
    pub expires_at_ms: i64,
    /// The account that started it to link a provider account to itself; `None` for a
    /// sign-in.
    pub link_user_id: Option<String>,
}

/// A provider account linked to a local account.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct IdentityRecord {
    pub id: String,
    pub user_id: String,
    pub provider: String,
    pub subject: String,
    pub email: Option<String>,
    pub linked_at_ms: i64,
    pub last_used_at_ms: i64,
    #[sqlx(try_from = "String")]
    pub linked_by: LinkedBy,
}

/// How an identity came to be linked, which decides what a password reset removes (ADR 0017).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkedBy {
    /// A first sign-in, by the address the provider verified and the account had confirmed (or
    /// made the account with it): the provider vouched for the owner's mailbox.
    VerifiedAddress,
    /// A signed-in account linked it to itself: whoever held one of its sessions could have.
    SignedIn,
}

impl LinkedBy {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::VerifiedAddress => "verified_address",
            Self::SignedIn => "signed_in",
        }
    }
}

impl TryFrom<String> for LinkedBy {
    type Error = String;

    fn try_from(stored: String) -> Result<Self, Self::Error> {
        match stored.as_str() {
            "verified_address" => Ok(Self::VerifiedAddress),
            "signed_in" => Ok(Self::SignedIn),
            _ => Err(format!("`{stored}` is not a way an identity is linked")),
        }
    }
}

/// Which account a sign-in opens its session on, and what it writes to get there.
pub enum SignInPlan<'a> {
    /// An identity linked before.
    Linked { identity_id: &'a str },
    /// Link `identity` to its existing account, which must still be unlocked and confirmed.
    /// Nothing from before the link may open it for someone else (it may be a stranger's
    /// pre-registration, ADR 0017): its password, its other linked identities, its known
    /// addresses and its unused one-time links are removed, its sessions are revoked, and
    /// `reset` (the link mailed to the owner to set a new password) is stored.
    Link {
        identity: &'a IdentityRecord,
        reset: &'a OneTimeTokenRecord,
    },
    /// A new account, with `identity` linked to it.
    Create {
        user: &'a UserRecord,
        identity: &'a IdentityRecord,
    },
}

/// How unlinking an identity ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Unlinked {
    /// Removed, with the sessions it had opened (their ids).
    Done {
        revoked: Vec<String>,
    },
    NoSuchIdentity,
    /// The account has no password and no other identity: it would have no way to sign in.
    LastWayToSignIn,
}

/// The columns of an [`IdentityRecord`] (`identity_linked_identities`), for `SELECT`: a
/// macro, so that each statement stays one piece of static text, as sqlx takes.
macro_rules! identity_columns {
    () => {
        "id, user_id, provider, subject, email, linked_at_ms, last_used_at_ms, linked_by"
    };
}

#[derive(Debug, Clone)]
pub struct OAuthRepository {
    database: Database,
}

impl OAuthRepository {
    pub fn new(database: Database) -> Self {
        Self { database }
    }

    pub(crate) fn pool(&self) -> &sqlx::AnyPool {
        self.database.pool()
    }

    /// Keeps an authorization in progress, and drops the ones that expired.
    #[tracing::instrument(name = "identity.oauth.repository.insert_state", skip_all)]
    pub async fn insert_state(&self, state: &StateRecord) -> AppResult<()> {
        let mut tx = begin_write(self.pool()).await?;
        sqlx::query("DELETE FROM identity_oauth_states WHERE expires_at_ms <= $1")
            .bind(state.created_at_ms)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO identity_oauth_states (state_hash, binding_hash, provider, redirect_uri, nonce, pkce_verifier, created_at_ms, expires_at_ms, link_user_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&state.state_hash)
        .bind(&state.binding_hash)
        .bind(&state.provider)
        .bind(&state.redirect_uri)
        .bind(&state.nonce)
        .bind(&state.pkce_verifier)
        .bind(state.created_at_ms)
        .bind(state.expires_at_ms)
        .bind(&state.link_user_id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Takes (deletes) the authorization stored under `state_hash` and bound to
    /// `binding_hash`, if it has not expired at `now_ms`. One delete: of two exchanges with one
    /// state, exactly one gets it; one without the binding gets nothing and spends nothing, so
    /// the client that started the sign-in can still finish it.
    #[tracing::instrument(name = "identity.oauth.repository.take_state", skip_all)]
    pub async fn take_state(
        &self,
        state_hash: &str,
        binding_hash: &str,
        now_ms: i64,
    ) -> AppResult<Option<StateRecord>> {
        let state: Option<StateRecord> = sqlx::query_as(
            "DELETE FROM identity_oauth_states WHERE state_hash = $1 AND binding_hash = $2
             RETURNING state_hash, binding_hash, provider, redirect_uri, nonce, pkce_verifier, created_at_ms, expires_at_ms, link_user_id",
        )
        .bind(state_hash)
        .bind(binding_hash)
        .fetch_optional(self.pool())
        .await?;
        Ok(state.filter(|state| state.expires_at_ms > now_ms))
    }

    /// The identity `subject` at `provider`, if linked.
    #[tracing::instrument(name = "identity.oauth.repository.identity", skip_all, fields(provider = provider))]
    pub async fn identity(
        &self,
        provider: &str,
        subject: &str,
    ) -> AppResult<Option<IdentityRecord>> {
        let identity = sqlx::query_as(concat!(
            "SELECT ",
            identity_columns!(),
            " FROM identity_linked_identities WHERE provider = $1 AND subject = $2"
        ))
        .bind(provider)
        .bind(subject)
        .fetch_optional(self.pool())
        .await?;
        Ok(identity)
    }

    /// The identities linked to an account, oldest first.
    #[tracing::instrument(name = "identity.oauth.repository.identities_of", skip_all, fields(user.id = user_id))]
    pub async fn identities_of(&self, user_id: &str) -> AppResult<Vec<IdentityRecord>> {
        let identities = sqlx::query_as(concat!(
            "SELECT ",
            identity_columns!(),
            " FROM identity_linked_identities WHERE user_id = $1 ORDER BY linked_at_ms, id"
        ))
        .bind(user_id)
        .fetch_all(self.pool())
        .await?;
        Ok(identities)
    }

    /// Makes `plan`'s writes and opens `session` (with its first refresh token), in one
    /// transaction; the sessions it revoked (a link's). `Ok(None)` when the account changed
    /// since it was read (locked, or for a link no longer confirmed): nothing is written. The
    /// conditional update of the account row comes first, so a concurrent lock, login or reset
    /// is ordered with it, as for a password login.
    #[tracing::instrument(name = "identity.oauth.repository.sign_in", skip_all)]
    pub async fn sign_in(
        &self,
        plan: &SignInPlan<'_>,
        session: &SessionRecord,
        refresh_token_hash: &str,
    ) -> AppResult<Option<Vec<String>>> {
        let mut revoked = Vec::new();
        let now = session.created_at_ms;
        let mut tx = begin_write(self.pool()).await?;
        match plan {
            SignInPlan::Linked { identity_id } => {
                let current = sqlx::query(
                    "UPDATE identity_users SET last_login_at_ms = $1 WHERE id = $2 AND locked_at_ms IS NULL",
                )
                .bind(now)
                .bind(&session.user_id)
                .execute(&mut *tx)
                .await?;
                if current.rows_affected() != 1 {
                    return Ok(None);
                }
                sqlx::query(
                    "UPDATE identity_linked_identities SET last_used_at_ms = $1 WHERE id = $2 AND user_id = $3",
                )
                .bind(now)
                .bind(identity_id)
                .bind(&session.user_id)
                .execute(&mut *tx)
                .await?;
            }
            SignInPlan::Link { identity, reset } => {
                // The password goes (a login that verified it now matches nothing), and its
                // change time outdates every older session wherever the database is asked.
                let current = sqlx::query(
                    "UPDATE identity_users SET last_login_at_ms = $1, password_hash = '', password_changed_at_ms = $1
                     WHERE id = $2 AND locked_at_ms IS NULL AND email_confirmed_at_ms IS NOT NULL",
                )
                .bind(now)
                .bind(&identity.user_id)
                .execute(&mut *tx)
                .await?;
                if current.rows_affected() != 1 {
                    return Ok(None);
                }
                revoked = revoke_sessions_of(&mut tx, &identity.user_id, now).await?;
                forget_what_a_pre_registrant_could_hold(&mut tx, &identity.user_id, now).await?;
                insert_one_time_token(&mut tx, reset).await?;
                insert_identity(&mut tx, identity).await?;
            }
            SignInPlan::Create { user, identity } => {
                // A taken email: registered (by password or another provider) since it was
                // looked up.
                insert_user_row(&mut tx, user).await?;
                sqlx::query("UPDATE identity_users SET last_login_at_ms = $1 WHERE id = $2")
                    .bind(now)
                    .bind(&user.id)
                    .execute(&mut *tx)
                    .await?;
                insert_identity(&mut tx, identity).await?;
            }
        }
        insert_session(&mut tx, session, refresh_token_hash).await?;
        tx.commit().await?;
        Ok(Some(revoked))
    }

    /// Links `identity` to its account in `tx` (a signed-in account linking a provider account
    /// to itself), with `reset`, the link mailed to the owner to undo it. 409 when that
    /// provider account is linked already, to any account: the unique pair decides between
    /// concurrent links and sign-ins.
    #[tracing::instrument(name = "identity.oauth.repository.link", skip_all, fields(user.id = %identity.user_id))]
    pub async fn link(
        &self,
        tx: &mut sqlx::AnyConnection,
        identity: &IdentityRecord,
        reset: &OneTimeTokenRecord,
    ) -> AppResult<()> {
        insert_identity(tx, identity).await?;
        insert_one_time_token(tx, reset).await
    }

    /// Removes an identity of `user_id` in `tx`, with the sessions it opened (revoked), unless
    /// it is the account's last way to sign in (no password, no other identity). The account
    /// row is locked first, so two removals of an account's last two identities queue and the
    /// second sees the first.
    #[tracing::instrument(name = "identity.oauth.repository.unlink", skip_all, fields(user.id = user_id))]
    pub async fn unlink(
        &self,
        tx: &mut sqlx::AnyConnection,
        user_id: &str,
        identity_id: &str,
        now_ms: i64,
    ) -> AppResult<Unlinked> {
        sqlx::query("UPDATE identity_users SET roles = roles WHERE id = $1")
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        let user: Option<UserRecord> = sqlx::query_as(concat!(
            "SELECT ",
            user_columns!(),
            " FROM identity_users WHERE id = $1"
        ))
        .bind(user_id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(user) = user else {
            return Ok(Unlinked::NoSuchIdentity);
        };
        let linked: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) AS n FROM identity_linked_identities WHERE user_id = $1",
        )
        .bind(user_id)
        .fetch_one(&mut *tx)
        .await?;
        let exists = sqlx::query(
            "SELECT 1 AS found FROM identity_linked_identities WHERE id = $1 AND user_id = $2",
        )
        .bind(identity_id)
        .bind(user_id)
        .fetch_optional(&mut *tx)
        .await?
        .is_some();
        if !exists {
            return Ok(Unlinked::NoSuchIdentity);
        }
        if linked <= 1 && !user.has_password() {
            return Ok(Unlinked::LastWayToSignIn);
        }
        sqlx::query("DELETE FROM identity_linked_identities WHERE id = $1 AND user_id = $2")
            .bind(identity_id)
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        let revoked = sqlx::query_scalar(
            "UPDATE identity_sessions SET revoked_at_ms = $1
             WHERE identity_id = $2 AND user_id = $3 AND revoked_at_ms IS NULL RETURNING id",
        )
        .bind(now_ms)
        .bind(identity_id)
        .bind(user_id)
        .fetch_all(&mut *tx)
        .await?;
        Ok(Unlinked::Done { revoked })
    }
}

/// Removes, in `tx`, what someone other than the owner may have added to `user_id` before a
/// link by address proved the mailbox: the identities linked to it, the addresses it signed in
/// from (each would keep its guesses past the account's limit) and its unused one-time links.
async fn forget_what_a_pre_registrant_could_hold(
    tx: &mut sqlx::AnyConnection,
    user_id: &str,
    now_ms: i64,
) -> AppResult<()> {
    sqlx::query("DELETE FROM identity_linked_identities WHERE user_id = $1")
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM identity_known_addresses WHERE user_id = $1")
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "UPDATE identity_one_time_tokens SET used_at_ms = $1 WHERE user_id = $2 AND used_at_ms IS NULL",
    )
    .bind(now_ms)
    .bind(user_id)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

async fn insert_identity(tx: &mut sqlx::AnyConnection, identity: &IdentityRecord) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO identity_linked_identities (id, user_id, provider, subject, email, linked_at_ms, last_used_at_ms, linked_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(&identity.id)
    .bind(&identity.user_id)
    .bind(&identity.provider)
    .bind(&identity.subject)
    .bind(&identity.email)
    .bind(identity.linked_at_ms)
    .bind(identity.last_used_at_ms)
    .bind(identity.linked_by.as_str())
    .execute(&mut *tx)
    .await
    .map_err(|error| {
        if UNIQUE_IDENTITY.violated_by(&error) {
            AppError::Conflict(
                "This provider account was linked to an account concurrently: sign in again."
                    .into(),
            )
        } else {
            AppError::from(error)
        }
    })?;
    Ok(())
}
