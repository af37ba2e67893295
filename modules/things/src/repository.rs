//! SQL for things. Every query filters by owner: one caller never sees another's things.

use infra::Database;
use infra::database::now_ms;
use kernel::{AppError, AppResult, PageRequest};
use sqlx::Row;
use sqlx::any::AnyRow;

use crate::model::{Thing, ThingInput};

#[derive(Debug, Clone)]
pub struct ThingRepository {
    database: Database,
}

impl ThingRepository {
    pub fn new(database: Database) -> Self {
        Self { database }
    }

    pub async fn count(&self, owner: &str) -> AppResult<u64> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM things WHERE owner_id = $1")
            .bind(owner)
            .fetch_one(self.database.pool())
            .await
            .map_err(AppError::internal)?;
        let count: i64 = row.try_get("n").map_err(AppError::internal)?;
        Ok(count.max(0) as u64)
    }

    pub async fn list(&self, owner: &str, page: PageRequest) -> AppResult<Vec<Thing>> {
        let rows = sqlx::query(
            "SELECT id, name, description, version, created_at_ms, updated_at_ms FROM things
             WHERE owner_id = $1 ORDER BY created_at_ms, id LIMIT $2 OFFSET $3",
        )
        .bind(owner)
        .bind(page.limit())
        .bind(page.offset())
        .fetch_all(self.database.pool())
        .await
        .map_err(AppError::internal)?;
        rows.iter().map(thing_from_row).collect()
    }

    pub async fn find(&self, owner: &str, id: &str) -> AppResult<Option<Thing>> {
        let row = sqlx::query(
            "SELECT id, name, description, version, created_at_ms, updated_at_ms FROM things
             WHERE owner_id = $1 AND id = $2",
        )
        .bind(owner)
        .bind(id)
        .fetch_optional(self.database.pool())
        .await
        .map_err(AppError::internal)?;
        row.as_ref().map(thing_from_row).transpose()
    }

    pub async fn insert(&self, owner: &str, input: &ThingInput) -> AppResult<Thing> {
        let now = now_ms();
        let thing = Thing {
            id: uuid::Uuid::now_v7().to_string(),
            name: input.trimmed_name().to_owned(),
            description: input.description.clone(),
            version: 1,
            created_at_ms: now,
            updated_at_ms: now,
        };
        sqlx::query(
            "INSERT INTO things (id, owner_id, name, description, version, created_at_ms, updated_at_ms)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&thing.id)
        .bind(owner)
        .bind(&thing.name)
        .bind(&thing.description)
        .bind(thing.version)
        .bind(thing.created_at_ms)
        .bind(thing.updated_at_ms)
        .execute(self.database.pool())
        .await
        .map_err(AppError::internal)?;
        Ok(thing)
    }

    /// The stored version of a thing; `None` when the owner has no such thing.
    pub async fn version(&self, owner: &str, id: &str) -> AppResult<Option<i64>> {
        let row = sqlx::query("SELECT version FROM things WHERE owner_id = $1 AND id = $2")
            .bind(owner)
            .bind(id)
            .fetch_optional(self.database.pool())
            .await
            .map_err(AppError::internal)?;
        row.map(|row| row.try_get("version").map_err(AppError::internal))
            .transpose()
    }

    /// Replaces the fields of a thing if it is still at `version`, in one statement; the thing
    /// as written, or `None` when the owner has no such thing at that version.
    pub async fn update(
        &self,
        owner: &str,
        id: &str,
        version: i64,
        input: &ThingInput,
    ) -> AppResult<Option<Thing>> {
        let row = sqlx::query(
            "UPDATE things SET name = $1, description = $2, version = version + 1, updated_at_ms = $3
             WHERE owner_id = $4 AND id = $5 AND version = $6
             RETURNING id, name, description, version, created_at_ms, updated_at_ms",
        )
        .bind(input.trimmed_name())
        .bind(&input.description)
        .bind(now_ms())
        .bind(owner)
        .bind(id)
        .bind(version)
        .fetch_optional(self.database.pool())
        .await
        .map_err(AppError::internal)?;
        row.as_ref().map(thing_from_row).transpose()
    }

    /// Deletes a thing if it is still at `version`; whether it did.
    pub async fn delete(&self, owner: &str, id: &str, version: i64) -> AppResult<bool> {
        let deleted =
            sqlx::query("DELETE FROM things WHERE owner_id = $1 AND id = $2 AND version = $3")
                .bind(owner)
                .bind(id)
                .bind(version)
                .execute(self.database.pool())
                .await
                .map_err(AppError::internal)?;
        Ok(deleted.rows_affected() > 0)
    }
}

fn thing_from_row(row: &AnyRow) -> AppResult<Thing> {
    Ok(Thing {
        id: row.try_get("id").map_err(AppError::internal)?,
        name: row.try_get("name").map_err(AppError::internal)?,
        description: row.try_get("description").map_err(AppError::internal)?,
        version: row.try_get("version").map_err(AppError::internal)?,
        created_at_ms: row.try_get("created_at_ms").map_err(AppError::internal)?,
        updated_at_ms: row.try_get("updated_at_ms").map_err(AppError::internal)?,
    })
}
