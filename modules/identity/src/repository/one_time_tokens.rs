//! One-time tokens (`identity_one_time_tokens`: reset and confirmation links, as hashes) and
//! what spending one does, in the same transaction, so that a link works once or not at all.

use infra::database::begin_write;
use kernel::AppResult;
use poem_idempotency::{PreparedOutcome, Recorded};

use super::sessions::revoke_sessions_of;
use super::{IdentityRepository, Transaction};
use crate::oauth::repository::LinkedBy;

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

impl IdentityRepository {
    /// Spends a confirmation token, confirms its account's email and records the operation's
    /// `answer`, in one transaction. Returns the account and the recorded answer, or `None` when
    /// the token was invalid, expired or spent.
    #[tracing::instrument(name = "identity.repository.confirm_email", skip_all)]
    pub async fn confirm_email<R>(
        &self,
        token_hash: &str,
        at_ms: i64,
        answer: PreparedOutcome<R>,
    ) -> AppResult<Option<(String, Recorded<R>)>> {
        let mut tx = begin_write(self.pool()).await?;
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

    /// Spends a reset token, sets the new password hash, revokes every session of the account,
    /// removes the identities linked while signed in and the addresses it signed in from, and
    /// records the operation's `answer`, in one transaction: all of it happens, or none.
    /// Returns the sessions revoked and the recorded answer, or `None` when the token was
    /// invalid, expired or spent (concurrently too: the conditional update lets one use win).
    #[tracing::instrument(name = "identity.repository.reset_password", skip_all)]
    pub async fn reset_password<R>(
        &self,
        token_hash: &str,
        new_hash: &str,
        now_ms: i64,
        answer: PreparedOutcome<R>,
    ) -> AppResult<Option<(Vec<String>, Recorded<R>)>> {
        let mut tx = begin_write(self.pool()).await?;
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
        // A reset is the owner's way back in (it proves the mailbox): what anyone holding one
        // of the account's sessions could have added goes too (ADR 0017).
        sqlx::query("DELETE FROM identity_linked_identities WHERE user_id = $1 AND linked_by = $2")
            .bind(&user_id)
            .bind(LinkedBy::SignedIn.as_str())
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM identity_known_addresses WHERE user_id = $1")
            .bind(&user_id)
            .execute(&mut *tx)
            .await?;
        let recorded = answer.record(&mut tx).await?;
        tx.commit().await?;
        Ok(Some((revoked, recorded)))
    }

    /// Stores a new one-time token. The account's other live tokens of that purpose stay valid
    /// (see [`crate::links`]): using any of them spends them all.
    #[tracing::instrument(name = "identity.repository.add_one_time_token", skip_all)]
    pub async fn add_one_time_token(&self, token: &OneTimeTokenRecord) -> AppResult<()> {
        let mut tx = begin_write(self.pool()).await?;
        insert_one_time_token(&mut tx, token).await?;
        Ok(tx.commit().await?)
    }

    /// Whether a one-time token is unused and unexpired now, without spending it (to avoid
    /// hashing a new password for a token that cannot work).
    #[tracing::instrument(name = "identity.repository.one_time_token_is_live", skip_all)]
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

pub(crate) async fn insert_one_time_token(
    tx: &mut sqlx::AnyConnection,
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
    .execute(&mut *tx)
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
    let user_id: Option<String> = sqlx::query_scalar(
        "UPDATE identity_one_time_tokens SET used_at_ms = $1
         WHERE token_hash = $2 AND purpose = $3 AND used_at_ms IS NULL AND expires_at_ms > $1
         RETURNING user_id",
    )
    .bind(now_ms)
    .bind(token_hash)
    .bind(purpose.as_str())
    .fetch_optional(&mut **tx)
    .await?;
    let Some(user_id) = user_id else {
        return Ok(None);
    };
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repository::fixtures::{
        confirmation, repository, reset, reset_token, session_of_a_new_user, user,
    };

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
