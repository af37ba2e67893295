//! The end-to-end harness: starts the real service on a free port, over a real socket, with a
//! database and a Redis key namespace of its own, so every test runs in parallel with the rest.
//!
//! Tests read as specifications: `TestApp::spawn()` (or `TestApp::builder()...spawn()`), act
//! with the typed helpers, assert on the answer.

pub mod fixtures;

use std::time::{SystemTime, UNIX_EPOCH};

use infra::settings::{Environment, Settings};
use kernel::{AccessTokenClaims, AccessTokenKeys};
use poem_openapi::OpenApi;
use reqwest::StatusCode;
use serde_json::Value;
use testing::database::TestDatabase;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// The password of the accounts [`TestApp::signed_in`] makes.
pub const TEST_PASSWORD: &str = "correct horse battery";

/// Which Redis, if any, the service under test uses.
#[derive(Debug, Clone)]
pub enum RedisChoice {
    /// No Redis: in-process stores.
    None,
    /// The shared test Redis, under a key prefix of this test's own: a single node, or the
    /// shared local Redis Cluster when `TEST_REDIS=cluster` (see [`shared_redis_topology`]).
    Shared,
    /// A specific Redis (e.g. a private server the test stops and restarts).
    Url(String),
    /// A specific Redis Cluster, by its seed nodes (e.g. one a test fails over).
    Cluster(Vec<String>),
}

/// Where [`RedisChoice::Shared`] is: the shared single node, or with `TEST_REDIS=cluster` the
/// local cluster this test binary starts once (three masters, three replicas), so that the
/// suites written against the shared Redis run unchanged on a cluster.
pub fn shared_redis_topology() -> infra::redis::Topology {
    match std::env::var("TEST_REDIS").as_deref() {
        Ok("cluster") => infra::redis::Topology::Cluster(
            testing::redis_cluster::shared_redis_cluster().seed_urls(),
        ),
        Ok("node") | Ok("") | Err(_) => {
            infra::redis::Topology::Node(testing::redis::shared_redis_url())
        }
        Ok(other) => panic!("TEST_REDIS is `{other}`: use `node` (the default) or `cluster`"),
    }
}

/// Whether the suites written against the shared Redis keep their idempotency records in
/// PostgreSQL instead (`TEST_IDEMPOTENCY_STORE=postgres`, with a PostgreSQL `TEST_DATABASE_URL`):
/// the service then has no Redis and `idempotency.store = "postgres"`, so the same tests prove
/// the PostgreSQL store behind the whole service.
pub fn idempotency_store_in_postgres() -> bool {
    match std::env::var("TEST_IDEMPOTENCY_STORE").as_deref() {
        Ok("postgres") => true,
        Ok("") | Err(_) => false,
        Ok(other) => {
            panic!("TEST_IDEMPOTENCY_STORE is `{other}`: use `postgres` or leave it unset")
        }
    }
}

/// With [`idempotency_store_in_postgres`], the database each shared Redis namespace stands for:
/// instances a test makes share a store by sharing `redis.key_prefix`, and a PostgreSQL store
/// is shared by sharing the database it is a table of.
static STORE_DATABASES: std::sync::LazyLock<
    std::sync::Mutex<std::collections::HashMap<String, String>>,
> = std::sync::LazyLock::new(Default::default);

/// Configures a service before starting it.
pub struct TestAppBuilder {
    overrides: Vec<(String, String)>,
    redis: RedisChoice,
    database: Option<TestDatabase>,
}

impl TestAppBuilder {
    /// Sets one setting by its dotted key, e.g. `("server.body_limit_bytes", "64")`.
    pub fn setting(mut self, key: &str, value: &str) -> Self {
        self.overrides.push((key.to_owned(), value.to_owned()));
        self
    }

    pub fn redis(mut self, redis: RedisChoice) -> Self {
        self.redis = redis;
        self
    }

    /// Uses an existing database (e.g. shared by two instances) instead of a new one.
    pub fn database(mut self, database: TestDatabase) -> Self {
        self.database = Some(database);
        self
    }

    /// Starts the service with every module.
    pub async fn spawn(self) -> TestApp {
        self.spawn_with(()).await
    }

    /// Tries to start the service and returns why it refused to, whether its settings did not
    /// load or building it failed (panics if it started).
    pub async fn start_up_error(self) -> String {
        let (_database, _namespace, settings) = self.try_settings().await;
        let settings = match settings {
            Ok(settings) => settings,
            Err(err) => return format!("{:#}", anyhow::Error::from(err)),
        };
        match app::Application::build(settings).await {
            Ok(_) => panic!("the service started, but these settings must stop it"),
            Err(err) => format!("{err:#}"),
        }
    }

    /// Builds the service without starting it, for a test that serves it itself (for example
    /// with `run_until_stopped`, which waits for a real SIGTERM). Keep the database alive as
    /// long as the service.
    pub async fn build_with<X: OpenApi + poem_idempotency::intent::DeclaredIntents + 'static>(
        self,
        extra: X,
    ) -> (app::Application, TestDatabase) {
        let (database, _namespace, settings) = self.settings().await;
        let application = app::Application::build_with(settings, extra)
            .await
            .expect("the service must start");
        (application, database)
    }

    /// The database, Redis namespace and settings this builder describes.
    async fn settings(self) -> (TestDatabase, String, Settings) {
        let (database, namespace, settings) = self.try_settings().await;
        (
            database,
            namespace,
            settings.expect("test settings must load"),
        )
    }

    /// [`Self::settings`], keeping the error of settings that do not load.
    async fn try_settings(
        self,
    ) -> (
        TestDatabase,
        String,
        Result<Settings, infra::settings::SettingsError>,
    ) {
        let database = match self.database {
            Some(database) => database,
            None => TestDatabase::create().await,
        };
        let namespace = format!("test:{}:", testing::unique_suffix());
        let store_in_postgres =
            matches!(self.redis, RedisChoice::Shared) && idempotency_store_in_postgres();
        if store_in_postgres {
            assert!(
                database.url().starts_with("postgres"),
                "TEST_IDEMPOTENCY_STORE=postgres needs a PostgreSQL TEST_DATABASE_URL"
            );
        }
        let topology = match &self.redis {
            RedisChoice::None => None,
            RedisChoice::Shared if store_in_postgres => None,
            RedisChoice::Shared => Some(shared_redis_topology()),
            RedisChoice::Url(url) => Some(infra::redis::Topology::Node(url.clone())),
            RedisChoice::Cluster(nodes) => Some(infra::redis::Topology::Cluster(nodes.clone())),
        };
        let (redis_url, cluster_nodes) = match topology {
            None => (String::new(), String::new()),
            Some(infra::redis::Topology::Node(url)) => (url, String::new()),
            Some(infra::redis::Topology::Cluster(nodes)) => (String::new(), nodes.join(",")),
        };
        let mut overrides: Vec<(String, String)> = vec![
            ("server.host".into(), "127.0.0.1".into()),
            ("server.port".into(), "0".into()),
            ("database.url".into(), database.url().to_owned()),
            ("redis.url".into(), redis_url),
            ("redis.cluster_nodes".into(), cluster_nodes),
            ("redis.key_prefix".into(), namespace.clone()),
        ];
        if store_in_postgres {
            overrides.push(("idempotency.store".into(), "postgres".into()));
        }
        let shared_namespace = self
            .overrides
            .iter()
            .rev()
            .find(|(key, _)| key == "redis.key_prefix")
            .map(|(_, prefix)| prefix.clone());
        overrides.extend(self.overrides);
        if let Some(namespace) = shared_namespace.filter(|_| store_in_postgres) {
            // The first instance of a namespace lends its database to the later ones.
            let mut databases = STORE_DATABASES
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let url = databases
                .entry(namespace)
                .or_insert_with(|| database.url().to_owned());
            overrides.push(("database.url".into(), url.clone()));
        }
        let borrowed: Vec<(&str, &str)> = overrides
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let settings = app::config::load_with(Environment::Test, &borrowed);
        (database, namespace, settings)
    }

    /// Starts the service with an extra, test-only API mounted beside the modules.
    pub async fn spawn_with<X: OpenApi + poem_idempotency::intent::DeclaredIntents + 'static>(
        self,
        extra: X,
    ) -> TestApp {
        let (database, namespace, settings) = self.settings().await;
        let application = app::Application::build_with(settings.clone(), extra)
            .await
            .expect("the service must start");
        let address = format!("http://{}", application.local_addr());
        let idempotency = application.idempotency();
        let (stop, stopped) = oneshot::channel::<()>();
        let server = tokio::spawn(application.run_until(async {
            let _ = stopped.await;
        }));
        TestApp {
            address,
            http: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .expect("HTTP client"),
            settings,
            idempotency,
            namespace,
            database,
            administrator: tokio::sync::OnceCell::new(),
            stop: Some(stop),
            server: Some(server),
        }
    }
}

/// A running service under test.
pub struct TestApp {
    /// `http://127.0.0.1:PORT`
    pub address: String,
    pub http: reqwest::Client,
    pub settings: Settings,
    /// The idempotency layer's state: counters and store.
    pub idempotency: std::sync::Arc<poem_idempotency::Idempotency>,
    /// This test's Redis key prefix.
    pub namespace: String,
    pub database: TestDatabase,
    /// [`Self::admin_token`]'s access token, made at its first use.
    administrator: tokio::sync::OnceCell<String>,
    stop: Option<oneshot::Sender<()>>,
    server: Option<JoinHandle<std::io::Result<()>>>,
}

impl TestApp {
    pub fn builder() -> TestAppBuilder {
        install_test_subscriber();
        TestAppBuilder {
            overrides: Vec::new(),
            redis: RedisChoice::None,
            database: None,
        }
    }

    /// A service on defaults: its own database, no Redis.
    pub async fn spawn() -> TestApp {
        Self::builder().spawn().await
    }

    /// What the intent gate watches: the guard's store calls and its looks for committed
    /// outcomes.
    pub fn guard_marks(&self) -> poem_idempotency::gate::GuardMarks {
        poem_idempotency::gate::GuardMarks::of(&self.idempotency)
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.address, path)
    }

    /// A request to `path`, to finish with reqwest's builder (and [`WithIdempotencyKey`]).
    pub fn request(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        self.http.request(method, self.url(path))
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.http
            .get(self.url(path))
            .send()
            .await
            .expect("GET failed")
    }

    /// Sends `body` as JSON with `method` to `path`, authenticated as `subject`.
    pub async fn send_json_as(
        &self,
        subject: &str,
        method: reqwest::Method,
        path: &str,
        body: &Value,
    ) -> reqwest::Response {
        self.http
            .request(method, self.url(path))
            .bearer_auth(self.token_for(subject))
            .json(body)
            .send()
            .await
            .expect("request failed")
    }

    /// GETs `path` authenticated as `subject`.
    pub async fn get_as(&self, subject: &str, path: &str) -> reqwest::Response {
        self.http
            .get(self.url(path))
            .bearer_auth(self.token_for(subject))
            .send()
            .await
            .expect("GET failed")
    }

    /// The keys this service has written to the shared test Redis under `pattern` (after its
    /// namespace), e.g. `idempotency:*`.
    /// The idempotency records the service's store holds, each with the milliseconds it has
    /// left: its Redis keys (`idempotency:*` under the namespace), or with
    /// [`idempotency_store_in_postgres`] the rows of the PostgreSQL store's table.
    pub async fn idempotency_records(&self) -> Vec<(String, i64)> {
        if self.idempotency.store().backend_name() == "postgres" {
            let rows: Vec<(String, i64)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT encode(scope_key, 'hex'), CAST(EXTRACT(EPOCH FROM expires_at - statement_timestamp()) * 1000 AS BIGINT)
                 FROM {}",
                poem_idempotency::store::POSTGRES_DEFAULT_TABLE
            )))
            .fetch_all(&self.store_database().await)
            .await
            .expect("the PostgreSQL store's records");
            return rows;
        }
        let mut redis = shared_redis().await;
        let mut records = Vec::new();
        for key in self.redis_keys("idempotency:*").await {
            let left: i64 = redis::cmd("PTTL")
                .arg(&key)
                .query_async(&mut redis)
                .await
                .expect("PTTL");
            records.push((key, left));
        }
        records
    }

    /// Deletes every idempotency record the store holds for this service (what a store is left
    /// with after a FLUSHALL, or a process that died before keeping an answer); how many.
    pub async fn lose_idempotency_records(&self) -> u64 {
        if self.idempotency.store().backend_name() == "postgres" {
            return sqlx::query(sqlx::AssertSqlSafe(format!(
                "DELETE FROM {}",
                poem_idempotency::store::POSTGRES_DEFAULT_TABLE
            )))
            .execute(&self.store_database().await)
            .await
            .expect("deleting the PostgreSQL store's records")
            .rows_affected();
        }
        let keys = self.redis_keys("idempotency:*").await;
        if keys.is_empty() {
            return 0;
        }
        let deleted: u64 = redis::cmd("DEL")
            .arg(&keys)
            .query_async(&mut shared_redis().await)
            .await
            .expect("DEL");
        deleted
    }

    /// The database the service runs on, where a PostgreSQL store keeps its table.
    async fn store_database(&self) -> sqlx::PgPool {
        sqlx::PgPool::connect(self.settings.database.url.expose())
            .await
            .expect("the service's PostgreSQL database")
    }

    pub async fn redis_keys(&self, pattern: &str) -> Vec<String> {
        let mut redis = shared_redis().await;
        redis::cmd("KEYS")
            .arg(format!("{}{pattern}", self.namespace))
            .query_async(&mut redis)
            .await
            .expect("KEYS")
    }

    /// A signed access token for `subject`, as the identity module would issue it, of a
    /// session the database does not hold: enough where only the token is verified, not for a
    /// role-gated operation (see [`Self::signed_in`]).
    pub fn token_for(&self, subject: &str) -> String {
        let now = unix_now();
        self.sign_token(subject, now, now + 600)
    }

    /// A token for `subject` signed with the service's own key that expired an hour ago.
    pub fn expired_token_for(&self, subject: &str) -> String {
        let now = unix_now();
        self.sign_token(subject, now - 7_200, now - 3_600)
    }

    /// Registers `email` (unless an instance on this database did) and logs in: an access
    /// token of a real session, which operations that check the session in the database
    /// accept (a [`Self::token_for`] token names a session that does not exist).
    pub async fn signed_in(&self, email: &str) -> String {
        self.register(email).await;
        self.log_in(email).await
    }

    /// [`Self::signed_in`] as an administrator: the account is granted the role as
    /// `app grant-admin` does before it logs in. Role-gated operations read the role in the
    /// database, so a token merely claiming it would not do.
    pub async fn signed_in_admin(&self, email: &str) -> String {
        self.register(email).await;
        app::commands::grant_admin(&self.settings, email)
            .await
            .expect("grant-admin");
        self.log_in(email).await
    }

    /// The access token of this service's administrator (`administrator@example.com`, made
    /// at the first call), for tests that need one without caring who.
    pub async fn admin_token(&self) -> String {
        self.administrator
            .get_or_init(|| self.signed_in_admin("administrator@example.com"))
            .await
            .clone()
    }

    /// Registers `email` with [`TEST_PASSWORD`]; an account an instance on this database
    /// registered already is as good.
    async fn register(&self, email: &str) {
        let registered = self
            .request(reqwest::Method::POST, "/api/v1/auth/register")
            .json(&serde_json::json!({ "email": email, "password": TEST_PASSWORD }))
            .send()
            .await
            .expect("registering");
        assert!(
            [StatusCode::CREATED, StatusCode::CONFLICT].contains(&registered.status()),
            "registering {email}: {}",
            registered.status()
        );
    }

    /// Logs in as `email` with [`TEST_PASSWORD`]: the access token.
    async fn log_in(&self, email: &str) -> String {
        let login = self
            .request(reqwest::Method::POST, "/api/v1/auth/login")
            .json(&serde_json::json!({ "email": email, "password": TEST_PASSWORD }))
            .send()
            .await
            .expect("logging in");
        assert_eq!(login.status(), StatusCode::OK, "logging in as {email}");
        let tokens: Value = login.json().await.expect("a token pair");
        tokens["accessToken"]
            .as_str()
            .expect("an access token")
            .to_owned()
    }

    fn sign_token(&self, subject: &str, issued_at: u64, expires_at: u64) -> String {
        let auth = &self.settings.auth;
        let verifier = AccessTokenKeys::hs256(
            auth.jwt_secret.expose().as_bytes(),
            &auth.issuer,
            &auth.audience,
        )
        .expect("test signing key");
        verifier
            .sign(&AccessTokenClaims {
                sub: subject.to_owned(),
                sid: format!("session-of-{subject}"),
                roles: Vec::new(),
                iss: auth.issuer.clone(),
                aud: auth.audience.clone(),
                iat: issued_at,
                exp: expires_at,
            })
            .expect("signing a test token")
    }

    /// An HTTP client that speaks HTTP/2 without negotiation (h2c prior knowledge), as a load
    /// balancer talking to its backends does.
    pub fn http2_client(&self) -> reqwest::Client {
        reqwest::Client::builder()
            .http2_prior_knowledge()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("HTTP/2 client")
    }

    /// An HTTP client whose connections come from `source`, e.g. `127.0.0.2`: another client
    /// address on the same machine.
    pub fn client_from(&self, source: std::net::IpAddr) -> reqwest::Client {
        reqwest::Client::builder()
            .local_address(source)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("HTTP client")
    }

    /// Asks the server to stop and waits until it has drained its in-flight requests.
    pub async fn stop(mut self) -> std::io::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        match self.server.take() {
            Some(server) => server.await.expect("server task panicked"),
            None => Ok(()),
        }
    }

    /// Signals the server to stop without waiting.
    pub fn begin_stop(&mut self) -> Option<JoinHandle<std::io::Result<()>>> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        self.server.take()
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock")
        .as_secs()
}

/// A token naming `subject` with the service's issuer and audience, signed with a key that is not
/// the service's: what a forger would send.
pub fn forged_token(settings: &Settings, subject: &str) -> String {
    let auth = &settings.auth;
    AccessTokenKeys::hs256(
        b"an-attackers-own-key-an-attackers-own-key",
        &auth.issuer,
        &auth.audience,
    )
    .expect("a usable key")
    .sign(&AccessTokenClaims {
        sub: subject.to_owned(),
        sid: "forged".to_owned(),
        roles: vec!["admin".to_owned()],
        iss: auth.issuer.clone(),
        aud: auth.audience.clone(),
        iat: 0,
        exp: u64::MAX / 2,
    })
    .expect("signing")
}

/// Asserts that `response` is an RFC 9457 problem with `status`, and returns its body.
pub async fn assert_problem(response: reqwest::Response, status: StatusCode) -> Value {
    assert_eq!(response.status(), status, "unexpected status");
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    assert_eq!(
        content_type, "application/problem+json",
        "a problem must be problem+json"
    );
    let request_id = response
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let body: Value = response.json().await.expect("problem body is JSON");
    assert_eq!(body["status"], status.as_u16(), "problem status: {body}");
    assert!(body["type"].is_string(), "problem type: {body}");
    assert!(body["title"].is_string(), "problem title: {body}");
    assert!(body["detail"].is_string(), "problem detail: {body}");
    assert!(body["instance"].is_string(), "problem instance: {body}");
    assert_eq!(
        body["requestId"].as_str(),
        request_id.as_deref(),
        "problem requestId must echo X-Request-Id: {body}"
    );
    body
}

/// A connection to the shared test Redis (node or cluster, [`shared_redis_topology`]), for
/// tests that inspect or disturb it. On a cluster, `KEYS` asks every master.
pub async fn shared_redis() -> infra::redis::RedisConnection {
    redis_connection(shared_redis_topology()).await
}

/// A connection to the Redis at `topology`, for tests that inspect or disturb it.
pub async fn redis_connection(topology: infra::redis::Topology) -> infra::redis::RedisConnection {
    let mut options = infra::redis::RedisOptions::new(topology);
    // Inspection may ask every master of a busy cluster.
    options.response_timeout = std::time::Duration::from_secs(5);
    match infra::redis::Redis::connect(options).await {
        Ok((redis, infra::redis::AtStartup::Available)) => redis.connection(),
        Ok((_, infra::redis::AtStartup::Unavailable(err))) | Err(err) => {
            panic!("the test Redis does not answer: {err}")
        }
    }
}

/// Adds the `Idempotency-Key` header to a request.
pub trait WithIdempotencyKey {
    fn idempotency_key(self, key: &str) -> Self;
}

impl WithIdempotencyKey for reqwest::RequestBuilder {
    fn idempotency_key(self, key: &str) -> Self {
        self.header("Idempotency-Key", key)
    }
}

/// Asserts `value` is a time as the API writes every one: RFC 3339 in UTC with exactly three
/// fraction digits (`2026-12-06T04:30:59.120Z`), and returns it parsed.
pub fn assert_api_time(value: &Value) -> time::OffsetDateTime {
    let text = value
        .as_str()
        .unwrap_or_else(|| panic!("not a string: {value}"));
    let parsed = time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339)
        .unwrap_or_else(|error| panic!("{text}: {error}"));
    let fraction = text.get(19..23);
    assert!(
        text.len() == 24 && text.ends_with('Z') && fraction.is_some_and(|f| f.starts_with('.')),
        "{text} is not written YYYY-MM-DDTHH:MM:SS.mmmZ"
    );
    parsed
}

/// Whether the response says it is a replay.
pub fn is_replay(response: &reqwest::Response) -> bool {
    response
        .headers()
        .get("x-idempotent-replay")
        .is_some_and(|v| v == "true")
}

/// Starts a service with the idempotency fixtures mounted, counting into `executions`.
pub async fn spawn_with_idempotency_fixtures(
    builder: TestAppBuilder,
    executions: &fixtures::Executions,
) -> TestApp {
    builder
        .spawn_with(fixtures::IdempotencyFixtureApi::new(executions.clone()))
        .await
}

/// The log events (INFO and above) emitted on this test's thread while it is alive: what the
/// service under test logged, since the test's runtime (current-thread) runs its tasks here.
pub struct CapturedLogs {
    events: Events,
}

type Events = std::sync::Arc<std::sync::Mutex<Vec<(tracing::Level, String)>>>;

thread_local! {
    /// Where [`ThreadCapture`] sends this thread's events, while a test captures them.
    static CAPTURE: std::cell::RefCell<Option<Events>> = const { std::cell::RefCell::new(None) };
}

impl CapturedLogs {
    pub fn install() -> Self {
        install_test_subscriber();
        let events = Events::default();
        CAPTURE.with(|capture| *capture.borrow_mut() = Some(std::sync::Arc::clone(&events)));
        Self { events }
    }

    /// How many events at `level` had a message containing `text`.
    pub fn count(&self, level: tracing::Level, text: &str) -> usize {
        self.events
            .lock()
            .expect("log capture")
            .iter()
            .filter(|(l, message)| *l == level && message.contains(text))
            .count()
    }

    /// Every captured message, for assertion failures.
    pub fn all(&self) -> Vec<String> {
        self.events
            .lock()
            .expect("log capture")
            .iter()
            .map(|(level, message)| format!("{level} {message}"))
            .collect()
    }
}

impl Drop for CapturedLogs {
    fn drop(&mut self) {
        CAPTURE.with(|capture| capture.borrow_mut().take());
    }
}

/// Installs, once per test process, a global subscriber that hands each thread's INFO-and-above
/// events to that thread's [`CapturedLogs`], if any.
///
/// Why global rather than a subscriber scoped to the capturing test's thread: tracing caches
/// each callsite's interest process-wide, and with only thread-scoped subscribers a cache
/// rebuild on one test's thread can race another's and leave a callsite marked "never", so an
/// event goes unseen. A global subscriber that is interested in every INFO callsite keeps them
/// all at least "sometimes", whatever else is installed.
pub fn install_test_subscriber() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        use tracing_subscriber::Layer as _;
        use tracing_subscriber::layer::SubscriberExt as _;
        let subscriber = tracing_subscriber::registry()
            .with(ThreadCapture.with_filter(tracing_subscriber::filter::LevelFilter::INFO));
        // Another global subscriber (a test binary that sets its own) is fine too.
        let _ = tracing::subscriber::set_global_default(subscriber);
    });
}

struct ThreadCapture;

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for ThreadCapture {
    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        struct Message(String);
        impl tracing::field::Visit for Message {
            fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
                if field.name() == "message" {
                    self.0 = format!("{value:?}");
                }
            }
        }
        CAPTURE.with(|capture| {
            if let Some(events) = capture.borrow().as_ref() {
                let mut message = Message(String::new());
                event.record(&mut message);
                events
                    .lock()
                    .expect("log capture")
                    .push((*event.metadata().level(), message.0));
            }
        });
    }
}
