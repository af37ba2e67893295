//! SQL for things. Every query filters by owner: one caller never sees another's things.
//!
//! The statements that write a thing bind its fields (`name`, `description`) last, after the
//! row's id, owner, version and times, so that one more field is one more column and one more
//! placeholder at the end, and no other placeholder moves.

use crud::contains_pattern;
use infra::Database;
use infra::database::{now_ms, timestamp};
use kernel::{AppError, AppResult, PageRequest};
use sqlx::any::AnyRow;
use sqlx::{AnyConnection, AnyPool, AssertSqlSafe, Row};

use crate::model::{Thing, ThingChanges, ThingFields, ThingName, ThingOrder};

/// The columns every query that answers things reads (`SELECT` and `RETURNING`), in the order
/// of [`Thing`]; [`thing_from_row`] maps them.
const COLUMNS: &str = "id, name, description, version, created_at_ms, updated_at_ms";

#[derive(Debug, Clone)]
pub struct ThingRepository {
    database: Database,
}

impl ThingRepository {
    pub fn new(database: Database) -> Self {
        Self { database }
    }

    /// Where the writes' transactions begin: each write below runs inside one, which the API
    /// commits together with the request's answer (`poem_idempotency::OutcomeRecorder::commit`).
    pub fn pool(&self) -> &AnyPool {
        self.database.pool()
    }

    /// How many things `owner` holds whose name contains `name_contains` (any, when `None`).
    #[tracing::instrument(name = "things.repository.count", skip_all, fields(owner = owner))]
    pub async fn count(&self, owner: &str, name_contains: Option<&str>) -> AppResult<u64> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM things
             WHERE owner_id = $1 AND ($2 IS NULL OR LOWER(name) LIKE $2 ESCAPE '\\')",
        )
        .bind(owner)
        .bind(name_contains.map(contains_pattern))
        .fetch_one(self.database.pool())
        .await?;
        let count: i64 = row.try_get("n")?;
        Ok(count.max(0) as u64)
    }

    /// One page of `owner`'s things whose name contains `name_contains`, in `order` (ties broken
    /// by id, so pages never overlap or skip).
    #[tracing::instrument(name = "things.repository.list", skip_all, fields(owner = owner))]
    pub async fn list(
        &self,
        owner: &str,
        name_contains: Option<&str>,
        order: ThingOrder,
        page: PageRequest,
    ) -> AppResult<Vec<Thing>> {
        // The ORDER BY is made of column-name constants only (crud::Sort), never request text.
        let statement = format!(
            "SELECT {COLUMNS} FROM things
             WHERE owner_id = $1 AND ($2 IS NULL OR LOWER(name) LIKE $2 ESCAPE '\\')
             ORDER BY {} LIMIT $3 OFFSET $4",
            order.order_by("id")
        );
        let query = sqlx::query(AssertSqlSafe(statement));
        let rows = query
            .bind(owner)
            .bind(name_contains.map(contains_pattern))
            .bind(page.limit())
            .bind(page.offset())
            .fetch_all(self.database.pool())
            .await?;
        rows.iter().map(thing_from_row).collect()
    }

    #[tracing::instrument(name = "things.repository.find", skip_all, fields(owner = owner, thing.id = id))]
    pub async fn find(&self, owner: &str, id: &str) -> AppResult<Option<Thing>> {
        let row = sqlx::query(AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM things WHERE owner_id = $1 AND id = $2"
        )))
        .bind(owner)
        .bind(id)
        .fetch_optional(self.database.pool())
        .await?;
        row.as_ref().map(thing_from_row).transpose()
    }

    /// Creates a thing in `tx`, unless `owner` already holds `limit` things: `None` then. It
    /// first counts the thing on the owner's row, conditionally, so that concurrent creates
    /// queue there and the limit holds however many arrive at once.
    #[tracing::instrument(name = "things.repository.insert", skip_all, fields(owner = owner))]
    pub async fn insert(
        &self,
        tx: &mut AnyConnection,
        owner: &str,
        fields: &ThingFields,
        limit: u64,
    ) -> AppResult<Option<Thing>> {
        let now = now_ms();
        let thing = Thing {
            id: uuid::Uuid::now_v7().to_string(),
            name: fields.name.as_str().to_owned(),
            description: fields.description.clone(),
            version: 1,
            created_at: timestamp(now)?,
            updated_at: timestamp(now)?,
        };
        sqlx::query(
            "INSERT INTO things_owners (owner_id, things) VALUES ($1, 0) ON CONFLICT (owner_id) DO NOTHING",
        )
        .bind(owner)
        .execute(&mut *tx)
        .await?;
        let counted = sqlx::query(
            "UPDATE things_owners SET things = things + 1 WHERE owner_id = $1 AND things < $2",
        )
        .bind(owner)
        .bind(i64::try_from(limit).unwrap_or(i64::MAX))
        .execute(&mut *tx)
        .await?;
        if counted.rows_affected() == 0 {
            return Ok(None);
        }
        sqlx::query(
            "INSERT INTO things (id, owner_id, version, created_at_ms, updated_at_ms, name, description)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&thing.id)
        .bind(owner)
        .bind(thing.version)
        .bind(now)
        .bind(now)
        .bind(&thing.name)
        .bind(&thing.description)
        .execute(&mut *tx)
        .await?;
        Ok(Some(thing))
    }

    /// The stored version of a thing, read in `tx`; `None` when the owner has no such thing.
    #[tracing::instrument(name = "things.repository.version", skip_all, fields(owner = owner, thing.id = id))]
    pub async fn version(
        &self,
        tx: &mut AnyConnection,
        owner: &str,
        id: &str,
    ) -> AppResult<Option<i64>> {
        let row = sqlx::query("SELECT version FROM things WHERE owner_id = $1 AND id = $2")
            .bind(owner)
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
        row.map(|row| row.try_get("version").map_err(AppError::from))
            .transpose()
    }

    /// Replaces the fields of a thing in `tx` if it is still at `version`, in one statement;
    /// the thing as written, or `None` when the owner has no such thing at that version.
    #[tracing::instrument(name = "things.repository.update", skip_all, fields(owner = owner, thing.id = id))]
    pub async fn update(
        &self,
        tx: &mut AnyConnection,
        owner: &str,
        id: &str,
        version: i64,
        fields: &ThingFields,
    ) -> AppResult<Option<Thing>> {
        let row = sqlx::query(AssertSqlSafe(format!(
            "UPDATE things SET version = version + 1, updated_at_ms = $4,
                 name = $5, description = $6
             WHERE owner_id = $1 AND id = $2 AND version = $3
             RETURNING {COLUMNS}"
        )))
        .bind(owner)
        .bind(id)
        .bind(version)
        .bind(now_ms())
        .bind(fields.name.as_str())
        .bind(&fields.description)
        .fetch_optional(&mut *tx)
        .await?;
        row.as_ref().map(thing_from_row).transpose()
    }

    /// Applies a merge patch to a thing in `tx` if it is still at `version`, in one statement;
    /// the thing as written, or `None` when the owner has no such thing at that version.
    #[tracing::instrument(name = "things.repository.patch", skip_all, fields(owner = owner, thing.id = id))]
    pub async fn patch(
        &self,
        tx: &mut AnyConnection,
        owner: &str,
        id: &str,
        version: i64,
        changes: &ThingChanges,
    ) -> AppResult<Option<Thing>> {
        // A field the patch leaves out keeps its value: `CASE WHEN <changed> THEN <new> ELSE <old>`.
        let row = sqlx::query(AssertSqlSafe(format!(
            "UPDATE things SET version = version + 1, updated_at_ms = $4,
                 name = COALESCE($5, name),
                 description = CASE WHEN $6 THEN $7 ELSE description END
             WHERE owner_id = $1 AND id = $2 AND version = $3
             RETURNING {COLUMNS}"
        )))
        .bind(owner)
        .bind(id)
        .bind(version)
        .bind(now_ms())
        .bind(changes.name.as_ref().map(ThingName::as_str))
        .bind(changes.description.is_some())
        .bind(changes.description.clone().flatten())
        .fetch_optional(&mut *tx)
        .await?;
        row.as_ref().map(thing_from_row).transpose()
    }

    /// Deletes a thing in `tx` if it is still at `version`, and uncounts it from its owner;
    /// whether it did.
    #[tracing::instrument(name = "things.repository.delete", skip_all, fields(owner = owner, thing.id = id))]
    pub async fn delete(
        &self,
        tx: &mut AnyConnection,
        owner: &str,
        id: &str,
        version: i64,
    ) -> AppResult<bool> {
        let deleted =
            sqlx::query("DELETE FROM things WHERE owner_id = $1 AND id = $2 AND version = $3")
                .bind(owner)
                .bind(id)
                .bind(version)
                .execute(&mut *tx)
                .await?;
        if deleted.rows_affected() == 0 {
            return Ok(false);
        }
        sqlx::query("UPDATE things_owners SET things = things - 1 WHERE owner_id = $1")
            .bind(owner)
            .execute(&mut *tx)
            .await?;
        Ok(true)
    }
}

fn thing_from_row(row: &AnyRow) -> AppResult<Thing> {
    Ok(Thing {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        description: row.try_get("description")?,
        version: row.try_get("version")?,
        created_at: timestamp(row.try_get("created_at_ms")?)?,
        updated_at: timestamp(row.try_get("updated_at_ms")?)?,
    })
}
