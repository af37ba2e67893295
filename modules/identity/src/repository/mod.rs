//! SQL for accounts, sessions and tokens. Times are Unix milliseconds; ids are UUIDv7 strings.
//!
//! Every statement is static text (ADR 0015): a record's columns, when several statements read
//! them, are named once in a `<record>_columns!` macro and joined to each statement by
//! `concat!`; rows become records by their `sqlx::FromRow`.
//!
//! One file per thing stored, each an `impl IdentityRepository` block with its records:
//! `accounts` (and the administrators' changes to them), `sessions` (and their refresh tokens),
//! `one_time_tokens` (reset and confirmation links, and what spending one does), `audit` and
//! `known_addresses`. An operation that writes several of them keeps them in one transaction;
//! it lives with the thing it is about.

mod accounts;
mod audit;
mod known_addresses;
mod one_time_tokens;
mod sessions;

use infra::Database;

pub use self::accounts::{AdminAction, AdminChange, ChangeOutcome, UserRecord};
pub(crate) use self::accounts::{insert_user_row, user_columns};
pub use self::audit::AuditRecord;
pub(crate) use self::one_time_tokens::insert_one_time_token;
pub use self::one_time_tokens::{OneTimeTokenRecord, TokenPurpose};
pub use self::sessions::{RefreshTokenState, SessionRecord};
pub(crate) use self::sessions::{insert_session, revoke_sessions_of};

#[derive(Debug, Clone)]
pub struct IdentityRepository {
    database: Database,
}

impl IdentityRepository {
    pub fn new(database: Database) -> Self {
        Self { database }
    }

    pub(crate) fn pool(&self) -> &sqlx::AnyPool {
        self.database.pool()
    }
}

pub(crate) type Transaction = infra::database::WriteTransaction;

/// What the tests of every file here start from (they span concerns: a lock revokes sessions, a
/// reset spends a token): a migrated in-memory database, and accounts, sessions and tokens in it.
#[cfg(test)]
mod fixtures {
    use infra::module::Module as _;
    use infra::settings::{DatabaseSettings, Secret};

    use super::*;
    use crate::domain::ADMIN_ROLE;

    pub(super) async fn repository() -> IdentityRepository {
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
    pub(super) fn confirmation(user_id: &str) -> OneTimeTokenRecord {
        OneTimeTokenRecord {
            token_hash: format!("confirm-{user_id}"),
            user_id: user_id.to_owned(),
            purpose: TokenPurpose::ConfirmEmail,
            created_at_ms: 1,
            expires_at_ms: i64::MAX,
        }
    }

    pub(super) fn reset_token(user_id: &str, token_hash: &str) -> OneTimeTokenRecord {
        OneTimeTokenRecord {
            token_hash: token_hash.to_owned(),
            user_id: user_id.to_owned(),
            purpose: TokenPurpose::ResetPassword,
            created_at_ms: 5,
            expires_at_ms: i64::MAX,
        }
    }

    pub(super) fn user(id: &str, roles: &[&str]) -> UserRecord {
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
    pub(super) async fn change(
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
    pub(super) async fn reset(
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

    /// An administrator (made on first use) locks `target` at `at_ms`.
    pub(super) async fn lock(
        repository: &IdentityRepository,
        target: &str,
        at_ms: i64,
    ) -> ChangeOutcome {
        // Made on the first call; later calls meet the unique email, which is as good.
        let _ = repository
            .insert_user(&user("admin", &[ADMIN_ROLE]), &confirmation("admin"))
            .await;
        change(repository, "admin", AdminAction::Lock, target, at_ms).await
    }

    pub(super) async fn session_of_a_new_user(
        repository: &IdentityRepository,
        refresh_hash: &str,
    ) -> String {
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
            identity_id: None,
        };
        assert!(
            repository
                .open_session(&session, refresh_hash, "hash", "hash")
                .await
                .unwrap()
        );
        session.id
    }

    pub(super) fn second_session() -> SessionRecord {
        SessionRecord {
            id: "session-2".into(),
            user_id: "user-1".into(),
            created_at_ms: 20,
            last_used_at_ms: 20,
            expires_at_ms: i64::MAX,
            revoked_at_ms: None,
            user_agent: None,
            identity_id: None,
        }
    }
}
