//! A database per test.
//!
//! With `TEST_DATABASE_URL` (a PostgreSQL URL), each test gets a database of its own created on
//! that server; databases that earlier runs left behind are dropped once they are an hour old.
//! Without it, each test gets a fresh SQLite file in a temporary directory.

use std::time::{SystemTime, UNIX_EPOCH};

use sqlx::{Connection, Executor, PgConnection};

/// A database that belongs to one test.
pub struct TestDatabase {
    url: String,
    engine: &'static str,
    _dir: Option<tempfile::TempDir>,
}

impl TestDatabase {
    /// Creates the test's database on the engine chosen by `TEST_DATABASE_URL`.
    pub async fn create() -> Self {
        match std::env::var("TEST_DATABASE_URL") {
            Ok(url) if !url.trim().is_empty() => Self::postgres(&url).await,
            _ => Self::sqlite(),
        }
    }

    /// A fresh SQLite file.
    pub fn sqlite() -> Self {
        let dir = tempfile::tempdir().expect("cannot create a temporary directory for SQLite");
        let url = format!("sqlite://{}/app.db", dir.path().display());
        Self {
            url,
            engine: "sqlite",
            _dir: Some(dir),
        }
    }

    /// A new database on the PostgreSQL server at `server_url`.
    pub async fn postgres(server_url: &str) -> Self {
        let mut admin = PgConnection::connect(server_url)
            .await
            .unwrap_or_else(|err| {
                panic!("TEST_DATABASE_URL={server_url} did not accept a connection: {err}")
            });
        drop_stale_databases(&mut admin).await;
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or_default();
        let name = format!("test_{now}_{}", crate::unique_suffix());
        admin
            .execute(sqlx::AssertSqlSafe(format!("CREATE DATABASE \"{name}\"")))
            .await
            .unwrap_or_else(|err| panic!("cannot create test database {name}: {err}"));
        let _ = admin.close().await;
        let url = replace_database(server_url, &name);
        Self {
            url,
            engine: "postgres",
            _dir: None,
        }
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    /// `sqlite` or `postgres`.
    pub fn engine(&self) -> &'static str {
        self.engine
    }
}

/// A PostgreSQL server for a test that needs one whatever the suite runs on: `TEST_DATABASE_URL`,
/// else the local one CI and a fresh machine have. Without one, `test` is left out loudly (a line
/// on the terminal), and fails where every suite is required (`CI=true` or `TEST_REQUIRE_ALL=1`).
pub async fn postgres_server_for(test: &str) -> Option<String> {
    let server = std::env::var("TEST_DATABASE_URL")
        .ok()
        .filter(|url| url.starts_with("postgres"))
        .unwrap_or_else(|| "postgres://postgres@127.0.0.1:5432/test".to_owned());
    let connects = tokio::time::timeout(
        std::time::Duration::from_secs(5),
        <PgConnection as Connection>::connect(&server),
    )
    .await;
    match connects {
        Ok(Ok(_)) => Some(server),
        failed => {
            let why = format!(
                "needs a PostgreSQL server (TEST_DATABASE_URL, else {server}): {}",
                match failed {
                    Ok(Err(error)) => error.to_string(),
                    _ => "no answer in 5 s".to_owned(),
                }
            );
            assert!(
                !crate::tools::every_suite_required(),
                "{test} {why}; every suite is required here (CI or TEST_REQUIRE_ALL is set)"
            );
            crate::tools::say(&format!("LEFT OUT {test}: {why}\n"));
            None
        }
    }
}

async fn drop_stale_databases(admin: &mut PgConnection) {
    let cutoff = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default()
        - 3_600;
    let names: Vec<(String,)> =
        sqlx::query_as("SELECT datname FROM pg_database WHERE datname LIKE 'test\\_%\\_%'")
            .fetch_all(&mut *admin)
            .await
            .unwrap_or_default();
    for (name,) in names {
        let created = name
            .split('_')
            .nth(1)
            .and_then(|secs| secs.parse::<u64>().ok());
        if created.is_some_and(|secs| secs < cutoff) {
            let _ = admin
                .execute(sqlx::AssertSqlSafe(format!(
                    "DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"
                )))
                .await;
        }
    }
}

/// The same server URL with another database name.
fn replace_database(url: &str, database: &str) -> String {
    let (base, query) = url
        .split_once('?')
        .map_or((url, None), |(b, q)| (b, Some(q)));
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let path_start = base[scheme_end..].find('/').map(|i| i + scheme_end);
    let server = path_start.map_or(base, |i| &base[..i]);
    match query {
        Some(query) => format!("{server}/{database}?{query}"),
        None => format!("{server}/{database}"),
    }
}

#[cfg(test)]
mod tests {
    use super::replace_database;

    #[test]
    fn replaces_the_database_name_and_keeps_the_query() {
        assert_eq!(
            replace_database("postgres://u@h:5432/test", "x"),
            "postgres://u@h:5432/x"
        );
        assert_eq!(
            replace_database("postgres://u@h/test?sslmode=disable", "x"),
            "postgres://u@h/x?sslmode=disable"
        );
        assert_eq!(replace_database("postgres://u@h", "x"), "postgres://u@h/x");
    }
}
