//! The addresses each account signed in from (`identity_known_addresses`, hashed): the rate
//! limits (api/throttle.rs) spare them, so strangers cannot lock an owner out of them.

use infra::database::begin_write;
use kernel::AppResult;

use super::IdentityRepository;

impl IdentityRepository {
    /// Whether the account registered with `email` signed in successfully from the address
    /// hashed as `address_hash` at or after `since_ms`.
    #[tracing::instrument(name = "identity.repository.signed_in_from", skip_all)]
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
    #[tracing::instrument(name = "identity.repository.remember_address", skip_all, fields(user.id = user_id))]
    pub async fn remember_address(
        &self,
        user_id: &str,
        address_hash: &str,
        now_ms: i64,
        forget_before_ms: i64,
    ) -> AppResult<()> {
        let mut tx = begin_write(self.pool()).await?;
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
}
