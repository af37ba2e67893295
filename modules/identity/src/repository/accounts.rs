//! Accounts (`identity_users`) and what administrators do to them. A lock also revokes the
//! account's sessions and records itself in the audit, all in the transaction of the change.

use infra::database::begin_write;
use kernel::{AppResult, PageRequest};

use super::one_time_tokens::{OneTimeTokenRecord, insert_one_time_token};
use super::sessions::{SessionRecord, revoke_sessions_of};
use super::{IdentityRepository, Transaction};
use crate::domain::ADMIN_ROLE;

/// One account per mailbox: `identity_users.email` is unique.
const UNIQUE_EMAIL: crud::UniqueField = crud::UniqueField {
    constraint: "identity_users_email_key",
    columns: "identity_users.email",
    field: "email",
    detail: "An account with this email already exists.",
};

/// An account as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct UserRecord {
    pub id: String,
    pub email: String,
    pub display_name: Option<String>,
    pub password_hash: String,
    #[sqlx(try_from = "StoredRoles")]
    pub roles: Vec<String>,
    pub email_confirmed_at_ms: Option<i64>,
    pub locked_at_ms: Option<i64>,
    pub created_at_ms: i64,
    /// When the password last changed (`None`: never since registration).
    pub password_changed_at_ms: Option<i64>,
}

/// The `roles` column: the roles joined by commas (`""` for none).
#[derive(sqlx::Type)]
#[sqlx(transparent)]
pub(super) struct StoredRoles(String);

impl From<StoredRoles> for Vec<String> {
    fn from(stored: StoredRoles) -> Self {
        stored
            .0
            .split(',')
            .filter(|r| !r.is_empty())
            .map(str::to_owned)
            .collect()
    }
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

/// The columns of a [`UserRecord`] (`identity_users`), for `SELECT`: a macro rather than
/// `format!`, so that each statement stays one piece of static text, which keeps every query
/// auditable.
macro_rules! user_columns {
    () => {
        "id, email, display_name, password_hash, roles, email_confirmed_at_ms, locked_at_ms, created_at_ms, password_changed_at_ms"
    };
}
pub(crate) use user_columns;

impl IdentityRepository {
    /// Inserts an account with its first confirmation token, in one transaction; a 409 naming
    /// `email` when another account has the address.
    #[tracing::instrument(name = "identity.repository.insert_user", skip_all)]
    pub async fn insert_user(
        &self,
        user: &UserRecord,
        confirmation: &OneTimeTokenRecord,
    ) -> AppResult<()> {
        let mut tx = begin_write(self.pool()).await?;
        insert_user_row(&mut tx, user).await?;
        insert_one_time_token(&mut tx, confirmation).await?;
        tx.commit().await?;
        Ok(())
    }

    #[tracing::instrument(name = "identity.repository.user_by_email", skip_all)]
    pub async fn user_by_email(&self, email: &str) -> AppResult<Option<UserRecord>> {
        let user = sqlx::query_as(concat!(
            "SELECT ",
            user_columns!(),
            " FROM identity_users WHERE email = $1"
        ))
        .bind(email)
        .fetch_optional(self.pool())
        .await?;
        Ok(user)
    }

    #[tracing::instrument(name = "identity.repository.user_by_id", skip_all)]
    pub async fn user_by_id(&self, id: &str) -> AppResult<Option<UserRecord>> {
        let user = sqlx::query_as(concat!(
            "SELECT ",
            user_columns!(),
            " FROM identity_users WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(self.pool())
        .await?;
        Ok(user)
    }

    #[tracing::instrument(name = "identity.repository.list_users", skip_all)]
    pub async fn list_users(&self, page: PageRequest) -> AppResult<(Vec<UserRecord>, u64)> {
        let users = sqlx::query_as(concat!(
            "SELECT ",
            user_columns!(),
            " FROM identity_users ORDER BY created_at_ms, id LIMIT $1 OFFSET $2"
        ))
        .bind(page.limit())
        .bind(page.offset())
        .fetch_all(self.pool())
        .await?;
        let total: i64 = sqlx::query_scalar("SELECT COUNT(*) AS n FROM identity_users")
            .fetch_one(self.pool())
            .await?;
        Ok((users, total.max(0) as u64))
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
    #[tracing::instrument(name = "identity.repository.change_lock", skip_all)]
    pub async fn change_lock(&self, change: &AdminChange<'_>) -> AppResult<ChangeOutcome> {
        let mut tx = begin_write(self.pool()).await?;
        sqlx::query("UPDATE identity_admin_changes SET changes = changes + 1 WHERE id = 1")
            .execute(&mut *tx)
            .await?;
        let actor: Option<UserRecord> = sqlx::query_as(concat!(
            "SELECT ",
            user_columns!(),
            " FROM identity_users WHERE id = $1"
        ))
        .bind(change.actor)
        .fetch_optional(&mut *tx)
        .await?;
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

    #[tracing::instrument(name = "identity.repository.set_roles", skip_all, fields(user.id = user_id))]
    pub async fn set_roles(&self, user_id: &str, roles: &[String]) -> AppResult<()> {
        sqlx::query("UPDATE identity_users SET roles = $1 WHERE id = $2")
            .bind(roles.join(","))
            .bind(user_id)
            .execute(self.pool())
            .await?;
        Ok(())
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repository::fixtures::{
        change, confirmation, lock, repository, second_session, session_of_a_new_user, user,
    };

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
}
