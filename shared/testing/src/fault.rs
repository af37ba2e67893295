//! Faults injected into the database itself, for all-or-nothing tests.
//!
//! A use case that writes several rows must keep none of them when one statement fails. To
//! prove it, a test makes the database refuse one statement (a trigger that raises on an insert
//! into, or an update of a column of, one table), runs the use case, checks that nothing of it
//! was kept, removes the fault and runs it again. The trigger is the same idea on SQLite and
//! PostgreSQL, written in each one's dialect.

use sqlx::{AnyConnection, Connection};

use crate::database::TestDatabase;

/// Which statement the database refuses.
#[derive(Debug, Clone, Copy)]
pub enum Statement {
    /// Any insert into the table.
    Insert,
    /// Any update that sets this column.
    UpdateOf(&'static str),
}

/// A trigger that makes the database refuse one kind of statement on one table, until removed.
pub struct InjectedFault {
    url: String,
    engine: &'static str,
    name: String,
    table: &'static str,
}

/// What the injected trigger raises: a test can tell its failure from any other.
pub const FAULT_MESSAGE: &str = "injected fault";

impl TestDatabase {
    /// Makes `statement` on `table` fail in the database, for every connection.
    pub async fn inject_fault(&self, table: &'static str, statement: Statement) -> InjectedFault {
        let name = format!("injected_fault_{}", crate::unique_suffix());
        let event = match statement {
            Statement::Insert => "INSERT".to_owned(),
            Statement::UpdateOf(column) => format!("UPDATE OF {column}"),
        };
        let sql = match self.engine() {
            "postgres" => format!(
                "CREATE FUNCTION {name}() RETURNS trigger AS $$ \
                 BEGIN RAISE EXCEPTION '{FAULT_MESSAGE}'; END $$ LANGUAGE plpgsql; \
                 CREATE TRIGGER {name} BEFORE {event} ON {table} \
                 FOR EACH ROW EXECUTE FUNCTION {name}();"
            ),
            _ => format!(
                "CREATE TRIGGER {name} BEFORE {event} ON {table} \
                 BEGIN SELECT RAISE(ABORT, '{FAULT_MESSAGE}'); END;"
            ),
        };
        let fault = InjectedFault {
            url: self.url().to_owned(),
            engine: self.engine(),
            name,
            table,
        };
        fault.execute(&sql).await;
        fault
    }
}

impl InjectedFault {
    /// Drops the trigger: the statement works again.
    pub async fn remove(self) {
        let name = &self.name;
        let sql = match self.engine {
            "postgres" => format!(
                "DROP TRIGGER {name} ON {}; DROP FUNCTION {name}();",
                self.table
            ),
            _ => format!("DROP TRIGGER {name};"),
        };
        self.execute(&sql).await;
    }

    async fn execute(&self, sql: &str) {
        sqlx::any::install_default_drivers();
        let mut connection = AnyConnection::connect(&self.url)
            .await
            .unwrap_or_else(|err| panic!("connecting to the test database: {err}"));
        sqlx::raw_sql(sqlx::AssertSqlSafe(sql.to_owned()))
            .execute(&mut connection)
            .await
            .unwrap_or_else(|err| panic!("injecting or removing a fault ({sql}): {err}"));
        let _ = connection.close().await;
    }
}
