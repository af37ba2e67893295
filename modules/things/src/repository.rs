//! SQL for things. Every query filters by owner: one caller never sees another's things.
//!
//! Every statement is static text (ADR 0015): the columns a thing is read from are named once,
//! in [`thing_columns!`], and joined to each statement by `concat!`; rows become [`Thing`]s by its
//! `sqlx::FromRow`. The one statement built at run time is a list's, whose `ORDER BY` is made of
//! column-name constants (`crud::Sort`), never of request text.
//!
//! The statements that write a thing bind its fields (`name`, `description`) last, after the
//! row's id, owner, version and times, so that one more field is one more column after
//! `description` and one more placeholder at the end, and no other placeholder moves. That is
//! also the rule `cargo xtask new-module --field` follows at each
//! `// cargo xtask new-module: ...` line.

use crud::contains_pattern;
use infra::Database;
use infra::database::now_ms;
use kernel::{AppResult, PageRequest};
use sqlx::{AnyConnection, AnyPool, AssertSqlSafe};

use crate::model::{Thing, ThingChanges, ThingFields, ThingName, ThingOrder};

/// The columns of a [`Thing`], for `SELECT` and `RETURNING`: a macro, so that each statement
/// stays one piece of static text.
macro_rules! thing_columns {
    () => {
        // cargo xtask new-module: each field's column, read
        "id, name, description, version, created_at_ms, updated_at_ms"
    };
}

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
        let count: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM things
             WHERE owner_id = $1 AND ($2 IS NULL OR LOWER(name) LIKE $2 ESCAPE '\\')",
        )
        .bind(owner)
        .bind(name_contains.map(contains_pattern))
        .fetch_one(self.database.pool())
        .await?;
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
            concat!(
                "SELECT ",
                thing_columns!(),
                " FROM things
                 WHERE owner_id = $1 AND ($2 IS NULL OR LOWER(name) LIKE $2 ESCAPE '\\')
                 ORDER BY {} LIMIT $3 OFFSET $4"
            ),
            order.order_by("id")
        );
        let things = sqlx::query_as(AssertSqlSafe(statement))
            .bind(owner)
            .bind(name_contains.map(contains_pattern))
            .bind(page.limit())
            .bind(page.offset())
            .fetch_all(self.database.pool())
            .await?;
        Ok(things)
    }

    #[tracing::instrument(name = "things.repository.find", skip_all, fields(owner = owner, thing.id = id))]
    pub async fn find(&self, owner: &str, id: &str) -> AppResult<Option<Thing>> {
        let thing = sqlx::query_as(concat!(
            "SELECT ",
            thing_columns!(),
            " FROM things WHERE owner_id = $1 AND id = $2"
        ))
        .bind(owner)
        .bind(id)
        .fetch_optional(self.database.pool())
        .await?;
        Ok(thing)
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
        let now = now_ms();
        // cargo xtask new-module: each field's column, written
        let thing = sqlx::query_as(concat!(
            "INSERT INTO things (id, owner_id, version, created_at_ms, updated_at_ms, name, description)
             VALUES ($1, $2, 1, $3, $3, $4, $5)
             RETURNING ",
            thing_columns!()
        ))
        .bind(uuid::Uuid::now_v7().to_string())
        .bind(owner)
        .bind(now)
        .bind(fields.name.as_str())
        .bind(&fields.description)
        // cargo xtask new-module: each field's value, bound
        .fetch_one(&mut *tx)
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
        let version =
            sqlx::query_scalar("SELECT version FROM things WHERE owner_id = $1 AND id = $2")
                .bind(owner)
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
        Ok(version)
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
        // cargo xtask new-module: each field's column, written
        let thing = sqlx::query_as(concat!(
            "UPDATE things SET version = version + 1, updated_at_ms = $4,
                 name = $5, description = $6
             WHERE owner_id = $1 AND id = $2 AND version = $3
             RETURNING ",
            thing_columns!()
        ))
        .bind(owner)
        .bind(id)
        .bind(version)
        .bind(now_ms())
        .bind(fields.name.as_str())
        .bind(&fields.description)
        // cargo xtask new-module: each field's value, bound
        .fetch_optional(&mut *tx)
        .await?;
        Ok(thing)
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
        // cargo xtask new-module: each field's column, written
        let thing = sqlx::query_as(concat!(
            "UPDATE things SET version = version + 1, updated_at_ms = $4,
                 name = COALESCE($5, name),
                 description = CASE WHEN $6 THEN $7 ELSE description END
             WHERE owner_id = $1 AND id = $2 AND version = $3
             RETURNING ",
            thing_columns!()
        ))
        .bind(owner)
        .bind(id)
        .bind(version)
        .bind(now_ms())
        .bind(changes.name.as_ref().map(ThingName::as_str))
        .bind(changes.description.is_some())
        .bind(changes.description.clone().flatten())
        // cargo xtask new-module: each field's value, bound
        .fetch_optional(&mut *tx)
        .await?;
        Ok(thing)
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
