//! SQL for accounts, sessions and tokens. Times are Unix milliseconds; ids are UUIDv7 strings.

use infra::Database;
use poem_idempotency::{PreparedOutcome, Recorded};

use crate::domain::ADMIN_ROLE;
use kernel::{AppError, AppResult, PageRequest};
use sqlx::Row;
use sqlx::any::AnyRow;

/// One account per mailbox: `identity_users.email` is unique.
const UNIQUE_EMAIL: crud::UniqueField = crud::UniqueField {
    constraint: "identity_users_email_key",
    columns: "identity_users.email",
    field: "email",
    detail: "An account with this email already exists.",
};

/// An account as stored.
#[derive(Debug, Clone)]
pub struct UserRecord {
    pub id: String,
    pub email: String,
    pub display_name: Option<String>,
    pub password_hash: String,
    pub roles: Vec<String>,
    pub email_confirmed_at_ms: Option<i64>,
    pub locked_at_ms: Option<i64>,
    pub created_at_ms: i64,
    /// When the password last changed (`None`: never since registration).
    pub password_changed_at_ms: Option<i64>,
}

impl UserRecord {
    /// Holds the administrator role and is not locked.
    pub fn is_active_admin(&self) -> bool {
        self.locked_at_ms.is_none() && self.roles.iter().any(|role| role == ADMIN_ROLE)
    }

    /// Whether the account can log in with a password (one made by signing in with a provider
    /// has none until its owner sets one through a reset link).
    pub fn has_password(&self) -> bool {
        !self.password_hash.is_empty()
    }

    /// Whether a session opened at `created_at_ms` predates the last password change.
    pub fn outdates(&self, session: &SessionRecord) -> bool {
        self.password_changed_at_ms
            .is_some_and(|changed| session.created_at_ms < changed)
    }
}

/// A login session, renewed by refresh tokens.
#[derive(Debug, Clone)]
pub struct SessionRecord {
    pub id: String,
    pub user_id: String,
    pub created_at_ms: i64,
    pub last_used_at_ms: i64,
    pub expires_at_ms: i64,
    pub revoked_at_ms: Option<i64>,
    pub user_agent: Option<String>,
}

impl SessionRecord {
    /// Neither revoked nor expired at `now_ms`.
    pub fn is_active(&self, now_ms: i64) -> bool {
        self.revoked_at_ms.is_none() && self.expires_at_ms > now_ms
    }
}

/// What an administrator does to an account.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AdminAction {
    Lock,
    Unlock,
}

impl AdminAction {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Lock => "lock",
            Self::Unlock => "unlock",
        }
    }
}

/// One administrator's change to one account, as the audit records it.
#[derive(Debug, Clone)]
pub struct AdminChange<'a> {
    pub actor: &'a str,
    pub action: AdminAction,
    pub target: &'a str,
    pub at_ms: i64,
    /// The `X-Request-Id` of the request that made the change.
    pub request_id: Option<&'a str>,
}

/// How an [`AdminChange`] ended.
#[derive(Debug, PartialEq, Eq)]
pub enum ChangeOutcome {
    /// Made and recorded; the sessions a lock revoked.
    Done {
        revoked: Vec<String>,
    },
    NoSuchAccount,
    /// The actor was locked or lost the role before its change could commit.
    ActorNotAnActiveAdmin,
}

/// An audit record.
#[derive(Debug, Clone)]
pub struct AuditRecord {
    pub id: String,
    pub actor_id: String,
    pub action: String,
    pub target_id: String,
    pub at_ms: i64,
    pub request_id: Option<String>,
}

/// What a presented refresh token turned out to be.
pub enum RefreshTokenState {
    Unknown,
    /// The session's current token.
    Current {
        session: SessionRecord,
    },
    /// A token that was already exchanged: someone replays it.
    Superseded {
        session_id: String,
    },
}

/// A one-time token as stored (its hash, never the token).
#[derive(Debug, Clone)]
pub struct OneTimeTokenRecord {
    pub token_hash: String,
    pub user_id: String,
    pub purpose: TokenPurpose,
    pub created_at_ms: i64,
    pub expires_at_ms: i64,
}

/// Why a one-time token is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenPurpose {
    ResetPassword,
    ConfirmEmail,
}

impl TokenPurpose {
    fn as_str(self) -> &'static str {
        match self {
            Self::ResetPassword => "reset_password",
            Self::ConfirmEmail => "confirm_email",
        }
    }
}

#[derive(Debug, Clone)]
pub struct IdentityRepository {
    database: Database,
}

/// The account columns [`user_from_row`] reads, then `$tail`. A macro rather than `format!`:
/// sqlx takes only static query text, which keeps every query auditable.
macro_rules! select_users {
    ($tail:literal) => {
        concat!(
            "SELECT id, email, display_name, password_hash, roles, email_confirmed_at_ms, locked_at_ms, created_at_ms, password_changed_at_ms FROM identity_users ",
            $tail
        )
    };
}
pub(crate) use select_users;

/// The session columns [`session_from_row`] reads, then `$tail`.
macro_rules! select_sessions {
    ($tail:literal) => {
        concat!(
            "SELECT id, user_id, created_at_ms, last_used_at_ms, expires_at_ms, revoked_at_ms, user_agent FROM identity_sessions ",
            $tail
        )
    };
}

impl IdentityRepository {
    pub fn new(database: Database) -> Self {
        Self { database }
    }

    pub(crate) fn pool(&self) -> &sqlx::AnyPool {
        self.database.pool()
    }

    /// Inserts an account with its first confirmation token, in one transaction; a 409 naming
    /// `email` when another account has the address.
    pub async fn insert_user(
        &self,
        user: &UserRecord,
        confirmation: &OneTimeTokenRecord,
    ) -> AppResult<()> {
        let mut tx = self.pool().begin().await?;
        insert_user_row(&mut tx, user).await?;
        insert_one_time_token(&mut tx, confirmation).await?;
        tx.commit().await?;
        Ok(())
    }

    pub async fn user_by_email(&self, email: &str) -> AppResult<Option<UserRecord>> {
        let row = sqlx::query(select_users!("WHERE email = $1"))
            .bind(email)
            .fetch_optional(self.pool())
            .await?;
        row.as_ref().map(user_from_row).transpose()
    }

    pub async fn user_by_id(&self, id: &str) -> AppResult<Option<UserRecord>> {
        let row = sqlx::query(select_users!("WHERE id = $1"))
            .bind(id)
            .fetch_optional(self.pool())
            .await?;
        row.as_ref().map(user_from_row).transpose()
    }

    pub async fn list_users(&self, page: PageRequest) -> AppResult<(Vec<UserRecord>, u64)> {
        let rows = sqlx::query(select_users!(
            "ORDER BY created_at_ms, id LIMIT $1 OFFSET $2"
        ))
        .bind(page.limit())
        .bind(page.offset())
        .fetch_all(self.pool())
        .await?;
        let total: i64 = sqlx::query("SELECT COUNT(*) AS n FROM identity_users")
            .fetch_one(self.pool())
            .await
            .and_then(|row| row.try_get("n"))?;
        let users = rows
            .iter()
            .map(user_from_row)
            .collect::<AppResult<Vec<_>>>()?;
        Ok((users, total.max(0) as u64))
    }

    /// Spends a confirmation token, confirms its account's email and records the operation's
    /// `answer`, in one transaction. Returns the account and the recorded answer, or `None` when
    /// the token was invalid, expired or spent.
    pub async fn confirm_email<R>(
        &self,
        token_hash: &str,
        at_ms: i64,
        answer: PreparedOutcome<R>,
    ) -> AppResult<Option<(String, Recorded<R>)>> {
        let mut tx = self.pool().begin().await?;
        let Some(user_id) =
            spend_one_time_token(&mut tx, token_hash, TokenPurpose::ConfirmEmail, at_ms).await?
        else {
            return Ok(None);
        };
        sqlx::query("UPDATE identity_users SET email_confirmed_at_ms = $1 WHERE id = $2 AND email_confirmed_at_ms IS NULL")
            .bind(at_ms)
            .bind(&user_id)
            .execute(&mut *tx)
            .await?;
        let recorded = answer.record(&mut tx).await?;
        tx.commit().await?;
        Ok(Some((user_id, recorded)))
    }

    /// Locks or unlocks `change.target` on behalf of `change.actor`, and records it in the
    /// audit, in one transaction. A lock also revokes every session of the account, so a login
    /// or refresh racing it either finishes first (and its session is revoked here) or sees the
    /// lock.
    ///
    /// Changes run one at a time (they first update one shared row), and the actor must still
    /// be an unlocked administrator when its change commits. As administrators cannot lock
    /// themselves, at least one active administrator remains after any lock, however many
    /// administrators lock each other at once.
    pub async fn change_lock(&self, change: &AdminChange<'_>) -> AppResult<ChangeOutcome> {
        let mut tx = self.pool().begin().await?;
        sqlx::query("UPDATE identity_admin_changes SET changes = changes + 1 WHERE id = 1")
            .execute(&mut *tx)
            .await?;
        let actor = sqlx::query(select_users!("WHERE id = $1"))
            .bind(change.actor)
            .fetch_optional(&mut *tx)
            .await?
            .as_ref()
            .map(user_from_row)
            .transpose()?;
        if !actor.is_some_and(|actor| actor.is_active_admin()) {
            return Ok(ChangeOutcome::ActorNotAnActiveAdmin);
        }
        let changed = match change.action {
            AdminAction::Lock => sqlx::query(
                "UPDATE identity_users SET locked_at_ms = COALESCE(locked_at_ms, $1) WHERE id = $2",
            )
            .bind(change.at_ms),
            AdminAction::Unlock => {
                sqlx::query("UPDATE identity_users SET locked_at_ms = NULL WHERE id = $1")
            }
        }
        .bind(change.target)
        .execute(&mut *tx)
        .await?;
        if changed.rows_affected() == 0 {
            return Ok(ChangeOutcome::NoSuchAccount);
        }
        let revoked = match change.action {
            AdminAction::Lock => revoke_sessions_of(&mut tx, change.target, change.at_ms).await?,
            AdminAction::Unlock => Vec::new(),
        };
        sqlx::query(
            "INSERT INTO identity_admin_audit (id, actor_id, action, target_id, at_ms, request_id)
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(uuid::Uuid::now_v7().to_string())
        .bind(change.actor)
        .bind(change.action.as_str())
        .bind(change.target)
        .bind(change.at_ms)
        .bind(change.request_id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(ChangeOutcome::Done { revoked })
    }

    /// One page of the audit, newest first, and the total.
    pub async fn audit(&self, page: PageRequest) -> AppResult<(Vec<AuditRecord>, u64)> {
        let rows = sqlx::query(
            "SELECT id, actor_id, action, target_id, at_ms, request_id FROM identity_admin_audit
             ORDER BY at_ms DESC, id DESC LIMIT $1 OFFSET $2",
        )
        .bind(page.limit())
        .bind(page.offset())
        .fetch_all(self.pool())
        .await?;
        let total: i64 = sqlx::query("SELECT COUNT(*) AS n FROM identity_admin_audit")
            .fetch_one(self.pool())
            .await
            .and_then(|row| row.try_get("n"))?;
        let records = rows
            .iter()
            .map(|row| {
                Ok(AuditRecord {
                    id: row.try_get("id")?,
                    actor_id: row.try_get("actor_id")?,
                    action: row.try_get("action")?,
                    target_id: row.try_get("target_id")?,
                    at_ms: row.try_get("at_ms")?,
                    request_id: row.try_get("request_id")?,
                })
            })
            .collect::<AppResult<Vec<_>>>()?;
        Ok((records, total.max(0) as u64))
    }

    pub async fn set_roles(&self, user_id: &str, roles: &[String]) -> AppResult<()> {
        sqlx::query("UPDATE identity_users SET roles = $1 WHERE id = $2")
            .bind(roles.join(","))
            .bind(user_id)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// Opens a session with its first refresh token, if the account is still as the login
    /// found it: unlocked, with the password hash it verified (`verified_hash`). It then stores
    /// `new_hash` (the same, or an upgraded hash of the same password). `Ok(false)` when the
    /// account changed meanwhile.
    ///
    /// The conditional update of the account row comes first, so a concurrent lock or password
    /// reset (which update that row too) is ordered with it: either this login commits first
    /// and the other revokes its session, or the other commits first and this update matches
    /// nothing.
    pub async fn open_session(
        &self,
        session: &SessionRecord,
        refresh_token_hash: &str,
        verified_hash: &str,
        new_hash: &str,
    ) -> AppResult<bool> {
        let mut tx = self.pool().begin().await?;
        let current = sqlx::query(
            "UPDATE identity_users SET last_login_at_ms = $1, password_hash = $2
             WHERE id = $3 AND locked_at_ms IS NULL AND password_hash = $4",
        )
        .bind(session.created_at_ms)
        .bind(new_hash)
        .bind(&session.user_id)
        .bind(verified_hash)
        .execute(&mut *tx)
        .await?;
        if current.rows_affected() != 1 {
            return Ok(false);
        }
        insert_session(&mut tx, session, refresh_token_hash).await?;
        tx.commit().await?;
        Ok(true)
    }

    pub async fn refresh_token_state(&self, token_hash: &str) -> AppResult<RefreshTokenState> {
        // The session's columns under their own names, so `session_from_row` reads them.
        let row = sqlx::query(
            "SELECT s.id, s.user_id, s.created_at_ms, s.last_used_at_ms, s.expires_at_ms, s.revoked_at_ms, s.user_agent, t.superseded_at_ms
             FROM identity_refresh_tokens t JOIN identity_sessions s ON s.id = t.session_id
             WHERE t.token_hash = $1",
        )
        .bind(token_hash)
        .fetch_optional(self.pool())
        .await?;
        let Some(row) = row else {
            return Ok(RefreshTokenState::Unknown);
        };
        let session = session_from_row(&row)?;
        let superseded: Option<i64> = row.try_get("superseded_at_ms")?;
        Ok(match superseded {
            Some(_) => RefreshTokenState::Superseded {
                session_id: session.id,
            },
            None => RefreshTokenState::Current { session },
        })
    }

    /// Swaps the session's current refresh token for a new one. `Ok(false)` when the old token
    /// was superseded meanwhile (a concurrent refresh won): the caller treats it as reuse.
    pub async fn rotate_refresh_token(
        &self,
        session_id: &str,
        old_hash: &str,
        new_hash: &str,
        now_ms: i64,
        expires_at_ms: i64,
    ) -> AppResult<bool> {
        let mut tx = self.pool().begin().await?;
        let superseded = sqlx::query(
            "UPDATE identity_refresh_tokens SET superseded_at_ms = $1 WHERE token_hash = $2 AND superseded_at_ms IS NULL",
        )
        .bind(now_ms)
        .bind(old_hash)
        .execute(&mut *tx)
        .await?;
        if superseded.rows_affected() != 1 {
            return Ok(false);
        }
        sqlx::query("INSERT INTO identity_refresh_tokens (token_hash, session_id, issued_at_ms, superseded_at_ms) VALUES ($1, $2, $3, NULL)")
            .bind(new_hash)
            .bind(session_id)
            .bind(now_ms)
            .execute(&mut *tx)
            .await?;
        // In the same transaction: a session revoked (or expired) since the caller read it is not
        // renewed, and dropping the transaction undoes the rotation.
        let renewed = sqlx::query(
            "UPDATE identity_sessions SET last_used_at_ms = $1, expires_at_ms = $2
             WHERE id = $3 AND revoked_at_ms IS NULL AND expires_at_ms > $1",
        )
        .bind(now_ms)
        .bind(expires_at_ms)
        .bind(session_id)
        .execute(&mut *tx)
        .await?;
        if renewed.rows_affected() != 1 {
            return Ok(false);
        }
        tx.commit().await?;
        Ok(true)
    }

    pub async fn session(&self, session_id: &str) -> AppResult<Option<SessionRecord>> {
        let row = sqlx::query(select_sessions!("WHERE id = $1"))
            .bind(session_id)
            .fetch_optional(self.pool())
            .await?;
        row.as_ref().map(session_from_row).transpose()
    }

    pub async fn active_sessions(
        &self,
        user_id: &str,
        now_ms: i64,
    ) -> AppResult<Vec<SessionRecord>> {
        let rows = sqlx::query(
            select_sessions!(
                "WHERE user_id = $1 AND revoked_at_ms IS NULL AND expires_at_ms > $2 ORDER BY created_at_ms, id"
            ),
        )
        .bind(user_id)
        .bind(now_ms)
        .fetch_all(self.pool())
        .await?;
        rows.iter().map(session_from_row).collect()
    }

    /// Revokes one session; whether it was active.
    pub async fn revoke_session(&self, session_id: &str, now_ms: i64) -> AppResult<bool> {
        let result = sqlx::query("UPDATE identity_sessions SET revoked_at_ms = $1 WHERE id = $2 AND revoked_at_ms IS NULL")
            .bind(now_ms)
            .bind(session_id)
            .execute(self.pool())
            .await?;
        Ok(result.rows_affected() > 0)
    }

    /// Spends a reset token, sets the new password hash, revokes every session of the account
    /// and records the operation's `answer`, in one transaction: all of it happens, or none.
    /// Returns the sessions revoked and the recorded answer, or `None` when the token was
    /// invalid, expired or spent (concurrently too: the conditional update lets one use win).
    pub async fn reset_password<R>(
        &self,
        token_hash: &str,
        new_hash: &str,
        now_ms: i64,
        answer: PreparedOutcome<R>,
    ) -> AppResult<Option<(Vec<String>, Recorded<R>)>> {
        let mut tx = self.pool().begin().await?;
        let Some(user_id) =
            spend_one_time_token(&mut tx, token_hash, TokenPurpose::ResetPassword, now_ms).await?
        else {
            return Ok(None);
        };
        sqlx::query("UPDATE identity_users SET password_hash = $1, password_changed_at_ms = $2 WHERE id = $3")
            .bind(new_hash)
            .bind(now_ms)
            .bind(&user_id)
            .execute(&mut *tx)
            .await?;
        let revoked = revoke_sessions_of(&mut tx, &user_id, now_ms).await?;
        let recorded = answer.record(&mut tx).await?;
        tx.commit().await?;
        Ok(Some((revoked, recorded)))
    }

    /// Whether the account registered with `email` signed in successfully from the address
    /// hashed as `address_hash` at or after `since_ms`.
    pub async fn signed_in_from(
        &self,
        email: &str,
        address_hash: &str,
        since_ms: i64,
    ) -> AppResult<bool> {
        let row = sqlx::query(
            "SELECT 1 AS known FROM identity_known_addresses k JOIN identity_users u ON u.id = k.user_id
             WHERE u.email = $1 AND k.address_hash = $2 AND k.last_seen_at_ms >= $3",
        )
        .bind(email)
        .bind(address_hash)
        .bind(since_ms)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.is_some())
    }

    /// Records that `user_id` signed in from the address hashed as `address_hash` at `now_ms`,
    /// and forgets its addresses last seen before `forget_before_ms`.
    pub async fn remember_address(
        &self,
        user_id: &str,
        address_hash: &str,
        now_ms: i64,
        forget_before_ms: i64,
    ) -> AppResult<()> {
        let mut tx = self.pool().begin().await?;
        sqlx::query(
            "INSERT INTO identity_known_addresses (user_id, address_hash, last_seen_at_ms) VALUES ($1, $2, $3)
             ON CONFLICT (user_id, address_hash) DO UPDATE SET last_seen_at_ms = excluded.last_seen_at_ms",
        )
        .bind(user_id)
        .bind(address_hash)
        .bind(now_ms)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "DELETE FROM identity_known_addresses WHERE user_id = $1 AND last_seen_at_ms < $2",
        )
        .bind(user_id)
        .bind(forget_before_ms)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Stores a new one-time token. The account's other live tokens of that purpose stay valid
    /// (see [`crate::links`]): using any of them spends them all.
    pub async fn add_one_time_token(&self, token: &OneTimeTokenRecord) -> AppResult<()> {
        let mut tx = self.pool().begin().await?;
        insert_one_time_token(&mut tx, token).await?;
        Ok(tx.commit().await?)
    }

    /// Whether a one-time token is unused and unexpired now, without spending it (to avoid
    /// hashing a new password for a token that cannot work).
    pub async fn one_time_token_is_live(
        &self,
        token_hash: &str,
        purpose: TokenPurpose,
        now_ms: i64,
    ) -> AppResult<bool> {
        let row = sqlx::query(
            "SELECT 1 AS live FROM identity_one_time_tokens WHERE token_hash = $1 AND purpose = $2 AND used_at_ms IS NULL AND expires_at_ms > $3",
        )
        .bind(token_hash)
        .bind(purpose.as_str())
        .bind(now_ms)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.is_some())
    }
}

pub(crate) type Transaction = sqlx::Transaction<'static, sqlx::Any>;

/// Inserts a new session with its first refresh token.
pub(crate) async fn insert_session(
    tx: &mut Transaction,
    session: &SessionRecord,
    refresh_token_hash: &str,
) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO identity_sessions (id, user_id, created_at_ms, last_used_at_ms, expires_at_ms, revoked_at_ms, user_agent)
         VALUES ($1, $2, $3, $4, $5, NULL, $6)",
    )
    .bind(&session.id)
    .bind(&session.user_id)
    .bind(session.created_at_ms)
    .bind(session.last_used_at_ms)
    .bind(session.expires_at_ms)
    .bind(&session.user_agent)
    .execute(&mut **tx)
    .await?;
    sqlx::query("INSERT INTO identity_refresh_tokens (token_hash, session_id, issued_at_ms, superseded_at_ms) VALUES ($1, $2, $3, NULL)")
        .bind(refresh_token_hash)
        .bind(&session.id)
        .bind(session.created_at_ms)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

pub(crate) async fn insert_one_time_token(
    tx: &mut Transaction,
    token: &OneTimeTokenRecord,
) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO identity_one_time_tokens (token_hash, user_id, purpose, created_at_ms, expires_at_ms, used_at_ms) VALUES ($1, $2, $3, $4, $5, NULL)",
    )
    .bind(&token.token_hash)
    .bind(&token.user_id)
    .bind(token.purpose.as_str())
    .bind(token.created_at_ms)
    .bind(token.expires_at_ms)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Marks a live one-time token used, with every other unused token of its account and purpose,
/// and returns its account. The first update is conditional, so of two concurrent uses (of one
/// token, or of two tokens of one account) exactly one wins.
async fn spend_one_time_token(
    tx: &mut Transaction,
    token_hash: &str,
    purpose: TokenPurpose,
    now_ms: i64,
) -> AppResult<Option<String>> {
    // First the account row's lock: spends of one account's tokens queue here, one at a time.
    // (Without it, on PostgreSQL, two transactions each spending one token and then the other
    // would deadlock.)
    sqlx::query(
        "UPDATE identity_users SET roles = roles
         WHERE id = (SELECT user_id FROM identity_one_time_tokens WHERE token_hash = $1)",
    )
    .bind(token_hash)
    .execute(&mut **tx)
    .await?;
    let row = sqlx::query(
        "UPDATE identity_one_time_tokens SET used_at_ms = $1
         WHERE token_hash = $2 AND purpose = $3 AND used_at_ms IS NULL AND expires_at_ms > $1
         RETURNING user_id",
    )
    .bind(now_ms)
    .bind(token_hash)
    .bind(purpose.as_str())
    .fetch_optional(&mut **tx)
    .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let user_id: String = row.try_get("user_id")?;
    sqlx::query(
        "UPDATE identity_one_time_tokens SET used_at_ms = $1
         WHERE user_id = $2 AND purpose = $3 AND used_at_ms IS NULL",
    )
    .bind(now_ms)
    .bind(&user_id)
    .bind(purpose.as_str())
    .execute(&mut **tx)
    .await?;
    Ok(Some(user_id))
}

/// Revokes every active session of an account; returns their ids.
pub(crate) async fn revoke_sessions_of(
    tx: &mut Transaction,
    user_id: &str,
    now_ms: i64,
) -> AppResult<Vec<String>> {
    let rows = sqlx::query(
        "UPDATE identity_sessions SET revoked_at_ms = $1 WHERE user_id = $2 AND revoked_at_ms IS NULL RETURNING id",
    )
    .bind(now_ms)
    .bind(user_id)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter()
        .map(|row| row.try_get("id").map_err(AppError::from))
        .collect()
}

pub(crate) fn user_from_row(row: &AnyRow) -> AppResult<UserRecord> {
    let roles: String = row.try_get("roles")?;
    Ok(UserRecord {
        id: row.try_get("id")?,
        email: row.try_get("email")?,
        display_name: row.try_get("display_name")?,
        password_hash: row.try_get("password_hash")?,
        roles: roles
            .split(',')
            .filter(|r| !r.is_empty())
            .map(str::to_owned)
            .collect(),
        email_confirmed_at_ms: row.try_get("email_confirmed_at_ms")?,
        locked_at_ms: row.try_get("locked_at_ms")?,
        created_at_ms: row.try_get("created_at_ms")?,
        password_changed_at_ms: row.try_get("password_changed_at_ms")?,
    })
}

/// Writes a new account's row; a taken email is a 409 naming `email`. The unique index is the
/// arbiter, so two concurrent registrations (by password or by provider) cannot both win.
pub(crate) async fn insert_user_row(tx: &mut Transaction, user: &UserRecord) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO identity_users (id, email, display_name, password_hash, roles, email_confirmed_at_ms, locked_at_ms, created_at_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(&user.id)
    .bind(&user.email)
    .bind(&user.display_name)
    .bind(&user.password_hash)
    .bind(user.roles.join(","))
    .bind(user.email_confirmed_at_ms)
    .bind(user.locked_at_ms)
    .bind(user.created_at_ms)
    .execute(&mut **tx)
    .await
    .map_err(|error| crud::database_error(error, &[UNIQUE_EMAIL]))?;
    Ok(())
}

fn session_from_row(row: &AnyRow) -> AppResult<SessionRecord> {
    Ok(SessionRecord {
        id: row.try_get("id")?,
        user_id: row.try_get("user_id")?,
        created_at_ms: row.try_get("created_at_ms")?,
        last_used_at_ms: row.try_get("last_used_at_ms")?,
        expires_at_ms: row.try_get("expires_at_ms")?,
        revoked_at_ms: row.try_get("revoked_at_ms")?,
        user_agent: row.try_get("user_agent")?,
    })
}

#[cfg(test)]
mod tests {
    use infra::module::Module as _;
    use infra::settings::{DatabaseSettings, Secret};

    use super::*;

    async fn repository() -> IdentityRepository {
        let database = Database::connect(&DatabaseSettings {
            url: Secret::new("sqlite::memory:"),
            max_connections: 1,
        })
        .await
        .unwrap();
        database
            .migrate("identity", crate::IdentityModule::migrations())
            .await
            .unwrap();
        IdentityRepository::new(database)
    }

    /// The confirmation token registration stores with an account.
    fn confirmation(user_id: &str) -> OneTimeTokenRecord {
        OneTimeTokenRecord {
            token_hash: format!("confirm-{user_id}"),
            user_id: user_id.to_owned(),
            purpose: TokenPurpose::ConfirmEmail,
            created_at_ms: 1,
            expires_at_ms: i64::MAX,
        }
    }

    fn reset_token(user_id: &str, token_hash: &str) -> OneTimeTokenRecord {
        OneTimeTokenRecord {
            token_hash: token_hash.to_owned(),
            user_id: user_id.to_owned(),
            purpose: TokenPurpose::ResetPassword,
            created_at_ms: 5,
            expires_at_ms: i64::MAX,
        }
    }

    fn user(id: &str, roles: &[&str]) -> UserRecord {
        UserRecord {
            id: id.into(),
            email: format!("{id}@example.com"),
            display_name: None,
            password_hash: "hash".into(),
            roles: roles.iter().map(|role| (*role).to_owned()).collect(),
            email_confirmed_at_ms: None,
            locked_at_ms: None,
            created_at_ms: 1,
            password_changed_at_ms: None,
        }
    }

    /// `actor` locks `target` at `at_ms`.
    async fn change(
        repository: &IdentityRepository,
        actor: &str,
        action: AdminAction,
        target: &str,
        at_ms: i64,
    ) -> ChangeOutcome {
        repository
            .change_lock(&AdminChange {
                actor,
                action,
                target,
                at_ms,
                request_id: Some("request-1"),
            })
            .await
            .unwrap()
    }

    /// Resets the password with reset token `token`, outside any keyed request (nothing to
    /// record); the sessions revoked, or `None` when the token did not work.
    async fn reset(
        repository: &IdentityRepository,
        token: &str,
        new_hash: &str,
        at_ms: i64,
    ) -> Option<Vec<String>> {
        let answer = poem_idempotency::OutcomeRecorder::default()
            .prepare(())
            .await
            .unwrap();
        repository
            .reset_password(token, new_hash, at_ms, answer)
            .await
            .unwrap()
            .map(|(revoked, _)| revoked)
    }

    /// Confirms with token `token` outside any keyed request; the account, or `None`.
    async fn confirm(repository: &IdentityRepository, token: &str, at_ms: i64) -> Option<String> {
        let answer = poem_idempotency::OutcomeRecorder::default()
            .prepare(())
            .await
            .unwrap();
        repository
            .confirm_email(token, at_ms, answer)
            .await
            .unwrap()
            .map(|(user_id, _)| user_id)
    }

    /// An administrator (made on first use) locks `target` at `at_ms`.
    async fn lock(repository: &IdentityRepository, target: &str, at_ms: i64) -> ChangeOutcome {
        // Made on the first call; later calls meet the unique email, which is as good.
        let _ = repository
            .insert_user(&user("admin", &[ADMIN_ROLE]), &confirmation("admin"))
            .await;
        change(repository, "admin", AdminAction::Lock, target, at_ms).await
    }

    #[tokio::test]
    async fn locks_and_unlocks_are_audited_newest_first() {
        let repository = repository().await;
        repository
            .insert_user(&user("bob", &[]), &confirmation("bob"))
            .await
            .unwrap();

        lock(&repository, "bob", 10).await;
        change(&repository, "admin", AdminAction::Unlock, "bob", 20).await;
        let (records, total) = repository
            .audit(PageRequest::new(None, None))
            .await
            .unwrap();

        assert_eq!(total, 2);
        let seen: Vec<_> = records
            .iter()
            .map(|r| {
                (
                    r.actor_id.as_str(),
                    r.action.as_str(),
                    r.target_id.as_str(),
                    r.at_ms,
                )
            })
            .collect();
        assert_eq!(
            seen,
            [("admin", "unlock", "bob", 20), ("admin", "lock", "bob", 10)]
        );
        assert_eq!(records[0].request_id.as_deref(), Some("request-1"));
    }

    #[tokio::test]
    async fn a_locked_administrator_can_no_longer_lock_and_nothing_is_recorded() {
        let repository = repository().await;
        repository
            .insert_user(&user("ada", &[ADMIN_ROLE]), &confirmation("ada"))
            .await
            .unwrap();
        repository
            .insert_user(&user("bob", &[]), &confirmation("bob"))
            .await
            .unwrap();
        lock(&repository, "ada", 10).await;

        let by_locked_admin = change(&repository, "ada", AdminAction::Lock, "bob", 20).await;
        let by_non_admin = change(&repository, "bob", AdminAction::Lock, "admin", 30).await;

        assert_eq!(by_locked_admin, ChangeOutcome::ActorNotAnActiveAdmin);
        assert_eq!(by_non_admin, ChangeOutcome::ActorNotAnActiveAdmin);
        let bob = repository.user_by_id("bob").await.unwrap().unwrap();
        assert_eq!(bob.locked_at_ms, None);
        let (_, total) = repository
            .audit(PageRequest::new(None, None))
            .await
            .unwrap();
        assert_eq!(total, 1, "only the lock that happened");
    }

    #[tokio::test]
    async fn using_one_of_several_live_links_spends_them_all() {
        let repository = repository().await;
        repository
            .insert_user(&user("ada", &[]), &confirmation("ada"))
            .await
            .unwrap();
        for token in ["t1", "t2", "t3"] {
            repository
                .add_one_time_token(&OneTimeTokenRecord {
                    token_hash: token.to_owned(),
                    purpose: TokenPurpose::ConfirmEmail,
                    ..confirmation("ada")
                })
                .await
                .unwrap();
        }
        let purpose = TokenPurpose::ConfirmEmail;
        for token in ["t1", "t2", "t3"] {
            assert!(
                repository
                    .one_time_token_is_live(token, purpose, 6)
                    .await
                    .unwrap()
            );
        }

        let spent = confirm(&repository, "t2", 7).await;

        assert_eq!(spent.as_deref(), Some("ada"));
        for token in ["t1", "t2", "t3"] {
            assert!(
                !repository
                    .one_time_token_is_live(token, purpose, 8)
                    .await
                    .unwrap()
            );
        }
        assert_eq!(confirm(&repository, "t1", 9).await, None);
    }

    async fn session_of_a_new_user(repository: &IdentityRepository, refresh_hash: &str) -> String {
        let user = UserRecord {
            id: "user-1".into(),
            email: "alice@example.com".into(),
            display_name: None,
            password_hash: "hash".into(),
            roles: vec![],
            email_confirmed_at_ms: None,
            locked_at_ms: None,
            created_at_ms: 1,
            password_changed_at_ms: None,
        };
        repository
            .insert_user(&user, &confirmation("user-1"))
            .await
            .unwrap();
        let session = SessionRecord {
            id: "session-1".into(),
            user_id: user.id,
            created_at_ms: 1,
            last_used_at_ms: 1,
            expires_at_ms: i64::MAX,
            revoked_at_ms: None,
            user_agent: None,
        };
        assert!(
            repository
                .open_session(&session, refresh_hash, "hash", "hash")
                .await
                .unwrap()
        );
        session.id
    }

    #[tokio::test]
    async fn a_live_session_rotates_its_refresh_token() {
        let repository = repository().await;
        let session = session_of_a_new_user(&repository, "old").await;

        let rotated = repository
            .rotate_refresh_token(&session, "old", "new", 10, i64::MAX)
            .await
            .unwrap();

        assert!(rotated);
    }

    #[tokio::test]
    async fn a_session_revoked_since_it_was_read_does_not_rotate() {
        let repository = repository().await;
        let session = session_of_a_new_user(&repository, "old").await;
        repository.revoke_session(&session, 5).await.unwrap();

        let rotated = repository
            .rotate_refresh_token(&session, "old", "new", 10, i64::MAX)
            .await
            .unwrap();

        assert!(!rotated);
        assert!(
            matches!(
                repository.refresh_token_state("new").await.unwrap(),
                RefreshTokenState::Unknown
            ),
            "the rotation was undone: no new token"
        );
    }

    fn second_session() -> SessionRecord {
        SessionRecord {
            id: "session-2".into(),
            user_id: "user-1".into(),
            created_at_ms: 20,
            last_used_at_ms: 20,
            expires_at_ms: i64::MAX,
            revoked_at_ms: None,
            user_agent: None,
        }
    }

    #[tokio::test]
    async fn a_login_that_checked_the_password_before_a_lock_opens_no_session() {
        let repository = repository().await;
        session_of_a_new_user(&repository, "r1").await;
        lock(&repository, "user-1", 10).await;

        let opened = repository
            .open_session(&second_session(), "r2", "hash", "hash")
            .await
            .unwrap();

        assert!(!opened);
        assert!(repository.session("session-2").await.unwrap().is_none());
    }

    #[tokio::test]
    async fn a_login_that_verified_a_password_since_changed_opens_no_session() {
        let repository = repository().await;
        session_of_a_new_user(&repository, "r1").await;
        repository
            .add_one_time_token(&reset_token("user-1", "t"))
            .await
            .unwrap();
        reset(&repository, "t", "new-hash", 10).await;

        let opened = repository
            .open_session(&second_session(), "r2", "hash", "hash")
            .await
            .unwrap();

        assert!(!opened, "the login verified the old hash");
    }

    #[tokio::test]
    async fn a_lock_returns_every_session_it_revoked() {
        let repository = repository().await;
        let first = session_of_a_new_user(&repository, "r1").await;
        assert!(
            repository
                .open_session(&second_session(), "r2", "hash", "hash")
                .await
                .unwrap()
        );

        let ChangeOutcome::Done { mut revoked } = lock(&repository, "user-1", 30).await else {
            panic!("the lock was refused");
        };
        revoked.sort();

        assert_eq!(revoked, vec![first, "session-2".to_owned()]);
        assert_eq!(
            lock(&repository, "nobody", 30).await,
            ChangeOutcome::NoSuchAccount
        );
    }

    #[tokio::test]
    async fn a_reset_token_resets_once_and_records_the_change() {
        let repository = repository().await;
        let session = session_of_a_new_user(&repository, "r1").await;
        repository
            .add_one_time_token(&reset_token("user-1", "t"))
            .await
            .unwrap();

        let first = reset(&repository, "t", "new-hash", 10).await;
        let second = reset(&repository, "t", "other-hash", 11).await;

        assert_eq!(first, Some(vec![session]));
        assert_eq!(second, None);
        let user = repository.user_by_id("user-1").await.unwrap().unwrap();
        assert_eq!(user.password_hash, "new-hash");
        assert_eq!(user.password_changed_at_ms, Some(10));
    }
}
