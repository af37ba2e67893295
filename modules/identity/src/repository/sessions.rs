//! Login sessions (`identity_sessions`) and every refresh token ever issued for them
//! (`identity_refresh_tokens`): kept after use, so that a replayed token is recognised.

use infra::database::begin_write;
use kernel::AppResult;

use super::accounts::StoredRoles;
use super::{IdentityRepository, Transaction};

/// A login session, renewed by refresh tokens.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SessionRecord {
    pub id: String,
    pub user_id: String,
    pub created_at_ms: i64,
    pub last_used_at_ms: i64,
    pub expires_at_ms: i64,
    pub revoked_at_ms: Option<i64>,
    pub user_agent: Option<String>,
    /// The linked identity it was opened with; `None` for a password login. Removing the
    /// identity ends the session.
    pub identity_id: Option<String>,
}

impl SessionRecord {
    /// Neither revoked nor expired at `now_ms`.
    pub fn is_active(&self, now_ms: i64) -> bool {
        self.revoked_at_ms.is_none() && self.expires_at_ms > now_ms
    }
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

/// A refresh token as [`IdentityRepository::refresh_token_state`] reads it: its session, and
/// whether it was exchanged.
#[derive(sqlx::FromRow)]
struct RefreshTokenRow {
    #[sqlx(flatten)]
    session: SessionRecord,
    superseded_at_ms: Option<i64>,
}

/// The roles of the account behind a working session, as
/// [`IdentityRepository::current_roles`] reads them.
#[derive(sqlx::FromRow)]
struct CurrentRoles {
    #[sqlx(try_from = "StoredRoles")]
    roles: Vec<String>,
}

/// The columns of a [`SessionRecord`] (`identity_sessions`), for `SELECT`: a macro, so that
/// each statement stays one piece of static text.
macro_rules! session_columns {
    () => {
        "id, user_id, created_at_ms, last_used_at_ms, expires_at_ms, revoked_at_ms, user_agent, identity_id"
    };
}

impl IdentityRepository {
    /// Opens a session with its first refresh token, if the account is still as the login
    /// found it: unlocked, with the password hash it verified (`verified_hash`). It then stores
    /// `new_hash` (the same, or an upgraded hash of the same password). `Ok(false)` when the
    /// account changed meanwhile.
    ///
    /// The conditional update of the account row comes first, so a concurrent lock or password
    /// reset (which update that row too) is ordered with it: either this login commits first
    /// and the other revokes its session, or the other commits first and this update matches
    /// nothing.
    #[tracing::instrument(name = "identity.repository.open_session", skip_all)]
    pub async fn open_session(
        &self,
        session: &SessionRecord,
        refresh_token_hash: &str,
        verified_hash: &str,
        new_hash: &str,
    ) -> AppResult<bool> {
        let mut tx = begin_write(self.pool()).await?;
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

    #[tracing::instrument(name = "identity.repository.refresh_token_state", skip_all)]
    pub async fn refresh_token_state(&self, token_hash: &str) -> AppResult<RefreshTokenState> {
        // The session's columns unqualified: none of `identity_refresh_tokens` shares a name
        // with one of them.
        let row: Option<RefreshTokenRow> = sqlx::query_as(concat!(
            "SELECT ",
            session_columns!(),
            ", t.superseded_at_ms
             FROM identity_refresh_tokens t JOIN identity_sessions s ON s.id = t.session_id
             WHERE t.token_hash = $1"
        ))
        .bind(token_hash)
        .fetch_optional(self.pool())
        .await?;
        let Some(RefreshTokenRow {
            session,
            superseded_at_ms,
        }) = row
        else {
            return Ok(RefreshTokenState::Unknown);
        };
        Ok(match superseded_at_ms {
            Some(_) => RefreshTokenState::Superseded {
                session_id: session.id,
            },
            None => RefreshTokenState::Current { session },
        })
    }

    /// Swaps the session's current refresh token for a new one. `Ok(false)` when the old token
    /// was superseded meanwhile (a concurrent refresh won): the caller treats it as reuse.
    #[tracing::instrument(name = "identity.repository.rotate_refresh_token", skip_all, fields(session.id = session_id))]
    pub async fn rotate_refresh_token(
        &self,
        session_id: &str,
        old_hash: &str,
        new_hash: &str,
        now_ms: i64,
        expires_at_ms: i64,
    ) -> AppResult<bool> {
        let mut tx = begin_write(self.pool()).await?;
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

    #[tracing::instrument(name = "identity.repository.session", skip_all, fields(session.id = session_id))]
    pub async fn session(&self, session_id: &str) -> AppResult<Option<SessionRecord>> {
        let session = sqlx::query_as(concat!(
            "SELECT ",
            session_columns!(),
            " FROM identity_sessions WHERE id = $1"
        ))
        .bind(session_id)
        .fetch_optional(self.pool())
        .await?;
        Ok(session)
    }

    /// The roles of `user_id` while its session `session_id` works at `now_ms`, or `None`.
    /// One statement, joining the session and its account by their primary keys, checks what
    /// [`SessionRecord::is_active`], [`super::UserRecord::outdates`] and an unlocked account
    /// check over two reads: it answers every role-gated request of the other modules
    /// (`infra::UserDirectory::current_roles`).
    #[tracing::instrument(name = "identity.repository.current_roles", skip_all, fields(user.id = user_id, session.id = session_id))]
    pub async fn current_roles(
        &self,
        user_id: &str,
        session_id: &str,
        now_ms: i64,
    ) -> AppResult<Option<Vec<String>>> {
        let current: Option<CurrentRoles> = sqlx::query_as(
            "SELECT u.roles FROM identity_sessions s JOIN identity_users u ON u.id = s.user_id
             WHERE s.id = $1 AND s.user_id = $2
               AND s.revoked_at_ms IS NULL AND s.expires_at_ms > $3
               AND u.locked_at_ms IS NULL
               AND (u.password_changed_at_ms IS NULL OR s.created_at_ms >= u.password_changed_at_ms)",
        )
        .bind(session_id)
        .bind(user_id)
        .bind(now_ms)
        .fetch_optional(self.pool())
        .await?;
        Ok(current.map(|current| current.roles))
    }

    #[tracing::instrument(name = "identity.repository.active_sessions", skip_all, fields(user.id = user_id))]
    pub async fn active_sessions(
        &self,
        user_id: &str,
        now_ms: i64,
    ) -> AppResult<Vec<SessionRecord>> {
        let sessions = sqlx::query_as(concat!(
            "SELECT ",
            session_columns!(),
            " FROM identity_sessions
             WHERE user_id = $1 AND revoked_at_ms IS NULL AND expires_at_ms > $2 ORDER BY created_at_ms, id"
        ))
        .bind(user_id)
        .bind(now_ms)
        .fetch_all(self.pool())
        .await?;
        Ok(sessions)
    }

    /// Revokes one session; whether it was active.
    #[tracing::instrument(name = "identity.repository.revoke_session", skip_all, fields(session.id = session_id))]
    pub async fn revoke_session(&self, session_id: &str, now_ms: i64) -> AppResult<bool> {
        let result = sqlx::query("UPDATE identity_sessions SET revoked_at_ms = $1 WHERE id = $2 AND revoked_at_ms IS NULL")
            .bind(now_ms)
            .bind(session_id)
            .execute(self.pool())
            .await?;
        Ok(result.rows_affected() > 0)
    }
}

/// Inserts a new session with its first refresh token.
pub(crate) async fn insert_session(
    tx: &mut Transaction,
    session: &SessionRecord,
    refresh_token_hash: &str,
) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO identity_sessions (id, user_id, created_at_ms, last_used_at_ms, expires_at_ms, revoked_at_ms, user_agent, identity_id)
         VALUES ($1, $2, $3, $4, $5, NULL, $6, $7)",
    )
    .bind(&session.id)
    .bind(&session.user_id)
    .bind(session.created_at_ms)
    .bind(session.last_used_at_ms)
    .bind(session.expires_at_ms)
    .bind(&session.user_agent)
    .bind(&session.identity_id)
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

/// Revokes every active session of an account; returns their ids.
pub(crate) async fn revoke_sessions_of(
    tx: &mut Transaction,
    user_id: &str,
    now_ms: i64,
) -> AppResult<Vec<String>> {
    let revoked = sqlx::query_scalar(
        "UPDATE identity_sessions SET revoked_at_ms = $1 WHERE user_id = $2 AND revoked_at_ms IS NULL RETURNING id",
    )
    .bind(now_ms)
    .bind(user_id)
    .fetch_all(&mut **tx)
    .await?;
    Ok(revoked)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::ADMIN_ROLE;
    use crate::repository::fixtures::{
        confirmation, lock, repository, reset, reset_token, second_session, session_of_a_new_user,
        user,
    };

    /// A fresh account with `roles` and a working session, made at 1 and expiring at 1000:
    /// the session's id.
    async fn session_with_roles(repository: &IdentityRepository, roles: &[&str]) -> String {
        repository
            .insert_user(&user("ada", roles), &confirmation("ada"))
            .await
            .unwrap();
        let session = SessionRecord {
            id: "ada-session".into(),
            user_id: "ada".into(),
            created_at_ms: 1,
            last_used_at_ms: 1,
            expires_at_ms: 1000,
            revoked_at_ms: None,
            user_agent: None,
            identity_id: None,
        };
        assert!(
            repository
                .open_session(&session, "ada-refresh", "hash", "hash")
                .await
                .unwrap()
        );
        session.id
    }

    #[tokio::test]
    async fn a_working_session_answers_its_accounts_roles_as_stored_now() {
        let repository = repository().await;
        let session = session_with_roles(&repository, &[ADMIN_ROLE]).await;
        repository
            .set_roles(
                "ada",
                &[ADMIN_ROLE.to_owned(), "notifications:send".to_owned()],
            )
            .await
            .unwrap();

        let roles = repository.current_roles("ada", &session, 10).await.unwrap();

        assert_eq!(
            roles,
            Some(vec![ADMIN_ROLE.to_owned(), "notifications:send".to_owned()])
        );
    }

    #[tokio::test]
    async fn a_session_that_no_longer_works_answers_no_roles() {
        // Each ends the session one way, as another instance's write would, without revoking it
        // unless that is the way.
        let endings = [
            ("revoked", "UPDATE identity_sessions SET revoked_at_ms = 5"),
            (
                "account locked",
                "UPDATE identity_users SET locked_at_ms = 5",
            ),
            (
                "password changed since",
                "UPDATE identity_users SET password_changed_at_ms = 5",
            ),
            ("expired", "UPDATE identity_sessions SET expires_at_ms = 10"),
        ];
        for (ending, statement) in endings {
            let repository = repository().await;
            let session = session_with_roles(&repository, &[ADMIN_ROLE]).await;
            sqlx::query(statement)
                .execute(repository.pool())
                .await
                .unwrap();

            let roles = repository.current_roles("ada", &session, 10).await.unwrap();

            assert_eq!(roles, None, "{ending}");
        }
    }

    #[tokio::test]
    async fn a_session_answers_no_roles_for_another_account() {
        let repository = repository().await;
        let session = session_with_roles(&repository, &[ADMIN_ROLE]).await;
        repository
            .insert_user(&user("bob", &[ADMIN_ROLE]), &confirmation("bob"))
            .await
            .unwrap();

        let roles = repository.current_roles("bob", &session, 10).await.unwrap();

        assert_eq!(roles, None);
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
}
