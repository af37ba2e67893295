//! The administrators' audit (`identity_admin_audit`), read here. Its rows are written by
//! `change_lock` (accounts.rs), in the transaction of the change each records.

use kernel::{AppResult, PageRequest};

use super::IdentityRepository;

/// An audit record.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AuditRecord {
    pub id: String,
    pub actor_id: String,
    pub action: String,
    pub target_id: String,
    pub at_ms: i64,
    pub request_id: Option<String>,
}

impl IdentityRepository {
    /// One page of the audit, newest first, and the total.
    #[tracing::instrument(name = "identity.repository.audit", skip_all)]
    pub async fn audit(&self, page: PageRequest) -> AppResult<(Vec<AuditRecord>, u64)> {
        let records = sqlx::query_as(
            "SELECT id, actor_id, action, target_id, at_ms, request_id FROM identity_admin_audit
             ORDER BY at_ms DESC, id DESC LIMIT $1 OFFSET $2",
        )
        .bind(page.limit())
        .bind(page.offset())
        .fetch_all(self.pool())
        .await?;
        let total: i64 = sqlx::query_scalar("SELECT COUNT(*) AS n FROM identity_admin_audit")
            .fetch_one(self.pool())
            .await?;
        Ok((records, total.max(0) as u64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repository::AdminAction;
    use crate::repository::fixtures::{change, confirmation, lock, repository, user};

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
}
