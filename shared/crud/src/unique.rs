//! Unique constraints as the API's conflicts: a write that another entity's value refuses is a
//! 409 naming the request field, not a 500. The database is the arbiter (two concurrent writes
//! cannot both pass a check made before them), and this maps its refusal.

use kernel::AppError;

/// A unique constraint of an entity's table, and the request field whose value it guards.
#[derive(Debug, Clone, Copy)]
pub struct UniqueField {
    /// The constraint's (or unique index's) name, as PostgreSQL reports it; an inline `UNIQUE`
    /// on `table.column` is named `table_column_key`.
    pub constraint: &'static str,
    /// Its columns as SQLite reports them: `table.column`, comma-separated.
    pub columns: &'static str,
    /// The request field, as the API spells it.
    pub field: &'static str,
    /// What the client is told.
    pub detail: &'static str,
}

impl UniqueField {
    /// Whether `error` is a violation of this constraint.
    pub fn violated_by(&self, error: &sqlx::Error) -> bool {
        let sqlx::Error::Database(error) = error else {
            return false;
        };
        if !error.is_unique_violation() {
            return false;
        }
        match error.constraint() {
            Some(constraint) => constraint == self.constraint,
            // SQLite names no constraint: "UNIQUE constraint failed: table.a, table.b".
            None => error
                .message()
                .rsplit_once("failed: ")
                .is_some_and(|(_, columns)| columns.trim() == self.columns),
        }
    }
}

/// `error` as the service's error: a violation of one of `unique` is a 409 naming its field
/// ([`AppError::Duplicate`]); anything else is internal.
pub fn database_error(error: sqlx::Error, unique: &[UniqueField]) -> AppError {
    match unique.iter().find(|field| field.violated_by(&error)) {
        Some(field) => AppError::Duplicate {
            field: field.field,
            detail: field.detail.to_owned(),
        },
        None => AppError::internal(error),
    }
}
