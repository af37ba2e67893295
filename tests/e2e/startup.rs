//! Many instances, one database: instances started at the same moment against a fresh database
//! all start and serve, and the migrations are applied (and recorded) once.

use e2e::TestApp;
use reqwest::StatusCode;
use sqlx::any::install_default_drivers;
use testing::database::TestDatabase;

/// Rows in `schema_migrations` of the database at `url`.
async fn recorded_migrations(url: &str) -> i64 {
    install_default_drivers();
    let pool = sqlx::AnyPool::connect(url)
        .await
        .expect("the test database");
    let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM schema_migrations")
        .fetch_one(&pool)
        .await
        .expect("schema_migrations exists");
    count
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn three_instances_started_at_once_on_a_fresh_database_all_serve_and_migrate_once() {
    let shared = TestDatabase::create().await;
    let alone = TestApp::spawn().await;
    let instance = || {
        TestApp::builder()
            .setting("database.url", shared.url())
            .spawn()
    };

    let (first, second, third) = tokio::join!(instance(), instance(), instance());

    for app in [&first, &second, &third] {
        assert_eq!(app.get("/health/ready").await.status(), StatusCode::OK);
    }
    assert_eq!(
        recorded_migrations(shared.url()).await,
        recorded_migrations(alone.database.url()).await,
        "every migration recorded once, as a single instance records them"
    );
}
