//! A crash after the commit, with a real process.
//!
//! An instance of the service (this binary, started again as a child process) handles a keyed
//! request and aborts right after the handler committed its effect, before the idempotency
//! store keeps the response: the failpoint `idempotency-after-handler`, compiled into test
//! builds only. The client's retry goes to a second instance sharing the database and Redis.
//!
//! - For a durable operation (every `#[idempotent]` one whose effect is in the database: the
//!   fixture's, and each module's: `things.rs` holds the worked example's), the retry is answered
//!   with the response the first instance committed with its effect: the effect happened once.
//! - For an operation whose effect is outside the database, the same crash makes the retry
//!   execute again: the effect happens twice. That is the window durable operations close,
//!   shown here to exist.
//!
//! A binary of its own without the standard test harness: the child is this same executable,
//! told by an environment variable to serve instead of test. Output follows cargo's format.

use std::io::{BufRead as _, BufReader};
use std::os::unix::process::ExitStatusExt as _;
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use e2e::fixtures::EffectsFixtureApi;
use e2e::{RedisChoice, TestApp, TestAppBuilder, is_replay};
use reqwest::StatusCode;
use serde_json::{Value, json};
use testing::database::TestDatabase;

// A file of crash tests per entity module (`cargo xtask new-module` adds one).
mod things;

/// Set in the child: the database URL and the Redis key prefix it serves with, tab-separated.
const CHILD: &str = "CRASH_TEST_CHILD";
/// What the child prints once it listens, followed by its base URL.
const LISTENING: &str = "crash-child-listening ";
/// The abort, once the handler returned (see `poem_idempotency::guard`).
const FAILPOINTS: &str = "idempotency-after-handler=return";

const DURABLE: &str = "/api/v1/fixtures/effects/transactional";
const PLAIN: &str = "/api/v1/fixtures/effects/plain";

/// Both instances: a short lease, so that the retry does not wait long for the crashed
/// instance's claim to lapse.
fn instance(database_url: &str, prefix: &str) -> TestAppBuilder {
    TestApp::builder()
        .redis(RedisChoice::Shared)
        .setting("redis.key_prefix", prefix)
        .setting("database.url", database_url)
        .setting("idempotency.lock_ttl", "1s")
}

fn main() -> ExitCode {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a Tokio runtime");
    if let Ok(spec) = std::env::var(CHILD) {
        runtime.block_on(serve_until_aborted(&spec));
        return ExitCode::FAILURE;
    }
    let own: [(&str, Test); 9] = [
        (
            "a_durable_operation_replays_after_a_crash_after_its_commit",
            || Box::pin(a_durable_operation_replays_after_a_crash_after_its_commit()),
        ),
        (
            "an_operation_outside_the_database_executes_again_after_the_same_crash",
            || Box::pin(an_operation_outside_the_database_executes_again_after_the_same_crash()),
        ),
        (
            "a_legal_version_published_just_before_a_crash_is_published_once",
            || Box::pin(a_legal_version_published_just_before_a_crash_is_published_once()),
        ),
        (
            "an_acceptance_recorded_just_before_a_crash_answers_its_first_201",
            || Box::pin(an_acceptance_recorded_just_before_a_crash_answers_its_first_201()),
        ),
        (
            "a_notification_sent_just_before_a_crash_is_sent_once",
            || Box::pin(a_notification_sent_just_before_a_crash_is_sent_once()),
        ),
        (
            "a_notification_deleted_just_before_a_crash_answers_its_first_204",
            || Box::pin(a_notification_deleted_just_before_a_crash_answers_its_first_204()),
        ),
        (
            "an_identity_unlinked_just_before_a_crash_answers_its_first_204",
            || Box::pin(an_identity_unlinked_just_before_a_crash_answers_its_first_204()),
        ),
        (
            "a_password_reset_just_before_a_crash_answers_its_first_204",
            || Box::pin(a_password_reset_just_before_a_crash_answers_its_first_204()),
        ),
        (
            "an_address_confirmed_just_before_a_crash_answers_its_first_204",
            || Box::pin(an_address_confirmed_just_before_a_crash_answers_its_first_204()),
        ),
    ];
    let tests: Vec<(&str, Test)> = [&own[..], things::TESTS].concat();
    let mut run = testing::harness::Run::start(tests.len());
    for (name, test) in tests {
        if !run.chosen(name) {
            continue;
        }
        let outcome = runtime.block_on(async { tokio::spawn(test()).await });
        run.record(name, outcome.map_err(|panic| panic.to_string()));
    }
    run.finish()
}

type TestFuture = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>;

/// A test: starts its future.
type Test = fn() -> TestFuture;

/// The child: serves with the fixtures until the failpoint aborts it.
async fn serve_until_aborted(spec: &str) {
    let _failpoints = fail::FailScenario::setup();
    let (database_url, prefix) = spec.split_once('\t').expect("database URL and prefix");
    let fixture = EffectsFixtureApi::connect(database_url).await;
    let app = instance(database_url, prefix).spawn_with(fixture).await;
    println!("{LISTENING}{}", app.address);
    tokio::time::sleep(Duration::from_secs(120)).await;
    eprintln!("the crash child was never made to crash");
}

/// The first instance, in a child process that aborts after its first handler.
struct CrashingInstance {
    child: Child,
    address: String,
}

impl CrashingInstance {
    fn start(database_url: &str, prefix: &str) -> Self {
        let mut child = Command::new(std::env::current_exe().expect("this test binary"))
            .env(CHILD, format!("{database_url}\t{prefix}"))
            .env("FAILPOINTS", FAILPOINTS)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting the crashing instance");
        let stdout = child.stdout.take().expect("the child's stdout");
        let address = BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .find_map(|line| line.strip_prefix(LISTENING).map(str::to_owned))
            .expect("the crashing instance says where it listens");
        Self { child, address }
    }

    /// Sends the first request, which the instance answers by dying, and waits for it to die.
    async fn send_and_crash(&mut self, request: &KeyedRequest) {
        let sent = request
            .to(&reqwest::Client::new(), &self.address)
            .timeout(Duration::from_secs(20))
            .send()
            .await;
        assert!(
            sent.is_err(),
            "the first instance answered instead of crashing: {sent:?}"
        );
        let deadline = Instant::now() + Duration::from_secs(10);
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("the child's status") {
                break status;
            }
            assert!(Instant::now() < deadline, "the first instance did not die");
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        assert_eq!(
            status.signal(),
            Some(6),
            "the first instance died of the failpoint's abort (SIGABRT): {status:?}"
        );
    }
}

impl Drop for CrashingInstance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A request the client sends with a key, then again as its retry.
struct KeyedRequest {
    method: reqwest::Method,
    path: String,
    body: Option<Value>,
    /// `Authorization` and `If-Match`, for the operations that need them.
    headers: Vec<(&'static str, String)>,
}

impl KeyedRequest {
    fn post(path: &str, body: Value) -> Self {
        Self {
            method: reqwest::Method::POST,
            path: path.to_owned(),
            body: Some(body),
            headers: Vec::new(),
        }
    }

    fn header(mut self, name: &'static str, value: String) -> Self {
        self.headers.push((name, value));
        self
    }

    fn to(&self, client: &reqwest::Client, base: &str) -> reqwest::RequestBuilder {
        let mut request = client
            .request(self.method.clone(), format!("{base}{}", self.path))
            .header("idempotency-key", "crash-key");
        for (name, value) in &self.headers {
            request = request.header(*name, value);
        }
        match &self.body {
            Some(body) => request.json(body),
            None => request,
        }
    }
}

/// A service sharing its database and Redis prefix with the instance that will crash; the
/// retry goes to it.
struct Survivor {
    app: TestApp,
    fixture: EffectsFixtureApi,
    prefix: String,
}

impl Survivor {
    async fn start() -> Self {
        let database = TestDatabase::create().await;
        let prefix = format!("test:{}:", testing::unique_suffix());
        let fixture = EffectsFixtureApi::connect(database.url()).await;
        let database_url = database.url().to_owned();
        let app = instance(&database_url, &prefix)
            .database(database)
            .spawn_with(fixture.clone())
            .await;
        Self {
            app,
            fixture,
            prefix,
        }
    }

    /// Sends `request` to a crashing instance on the same database and Redis, then the retry
    /// here.
    async fn crash_then_retry(&self, request: &KeyedRequest) -> reqwest::Response {
        let database_url = self.app.settings.database.url.expose().to_owned();
        let mut first = CrashingInstance::start(&database_url, &self.prefix);
        first.send_and_crash(request).await;
        request
            .to(&self.app.http, &self.app.address)
            .send()
            .await
            .expect("the retry is answered")
    }

    /// How many rows of `table` match `condition` (SQL with `$1` bound to `value`).
    async fn rows(&self, table: &str, condition: &str, value: &str) -> i64 {
        use sqlx::Row as _;
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT COUNT(*) AS n FROM {table} WHERE {condition}"
        )))
        .bind(value)
        .fetch_one(self.fixture.pool())
        .await
        .and_then(|row| row.try_get("n"))
        .expect("counting rows")
    }
}

/// The retry, sent to a second instance sharing the database and Redis; and that instance,
/// which keeps the database (and so the effects) alive.
async fn crash_then_retry(path: &str) -> (reqwest::Response, Survivor) {
    let survivor = Survivor::start().await;
    let retry = survivor
        .crash_then_retry(&KeyedRequest::post(path, json!({ "label": "crashed" })))
        .await;
    (retry, survivor)
}

async fn a_durable_operation_replays_after_a_crash_after_its_commit() {
    let (retry, survivor) = crash_then_retry(DURABLE).await;
    let fixture = &survivor.fixture;

    assert_eq!(retry.status(), StatusCode::CREATED);
    assert!(is_replay(&retry), "the committed answer is replayed");
    let answer: Value = retry.json().await.expect("a JSON answer");
    assert_eq!(answer["label"], "crashed");
    assert_eq!(
        fixture.effects("crashed").await,
        1,
        "the effect happened once"
    );
}

async fn an_operation_outside_the_database_executes_again_after_the_same_crash() {
    let (retry, survivor) = crash_then_retry(PLAIN).await;
    let fixture = &survivor.fixture;

    assert_eq!(retry.status(), StatusCode::CREATED);
    assert!(!is_replay(&retry), "nothing was kept to replay");
    assert_eq!(
        fixture.effects("crashed").await,
        2,
        "the effect happened twice: the window durable operations close"
    );
}

const TERMS_VERSIONS: &str = "/api/v1/legal/documents/terms/versions";

fn bearer(token: String) -> String {
    format!("Bearer {token}")
}

async fn a_legal_version_published_just_before_a_crash_is_published_once() {
    let survivor = Survivor::start().await;
    let publish = KeyedRequest::post(TERMS_VERSIONS, json!({ "body": "# Terms" }))
        .header("authorization", bearer(survivor.app.admin_token().await));

    let retry = survivor.crash_then_retry(&publish).await;

    assert_eq!(retry.status(), StatusCode::CREATED);
    assert!(is_replay(&retry), "the committed answer is replayed");
    let answer: Value = retry.json().await.expect("a version");
    assert_eq!(answer["version"], 1);
    assert_eq!(
        survivor.rows("legal_versions", "kind = $1", "terms").await,
        1,
        "published once, not as version 2"
    );
}

async fn an_acceptance_recorded_just_before_a_crash_answers_its_first_201() {
    let survivor = Survivor::start().await;
    let published = survivor
        .app
        .request(reqwest::Method::POST, TERMS_VERSIONS)
        .bearer_auth(survivor.app.admin_token().await)
        .json(&json!({ "body": "# Terms" }))
        .send()
        .await
        .expect("publishing");
    assert_eq!(published.status(), StatusCode::CREATED);
    let accept = KeyedRequest::post(
        "/api/v1/legal/acceptances",
        json!({ "kind": "terms", "version": 1 }),
    )
    .header("authorization", bearer(survivor.app.token_for("alice")));

    let retry = survivor.crash_then_retry(&accept).await;

    // Without the committed answer the retry would find the acceptance and answer 200.
    assert_eq!(retry.status(), StatusCode::CREATED);
    assert!(is_replay(&retry), "the committed answer is replayed");
    assert_eq!(
        survivor
            .rows("legal_acceptances", "user_id = $1", "alice")
            .await,
        1
    );
}

impl Survivor {
    /// Registers bob; his account's id.
    async fn bob(&self) -> String {
        use sqlx::Row as _;
        let registered = self
            .app
            .request(reqwest::Method::POST, "/api/v1/auth/register")
            .json(&json!({ "email": "bob@example.com", "password": "correct horse battery" }))
            .send()
            .await
            .expect("registering");
        assert_eq!(registered.status(), StatusCode::CREATED);
        sqlx::query("SELECT id FROM identity_users WHERE email = $1")
            .bind("bob@example.com")
            .fetch_one(self.fixture.pool())
            .await
            .and_then(|row| row.try_get("id"))
            .expect("bob's account")
    }

    /// Stores a live single-use link token for `user` (as a mail would carry it), for
    /// `purpose` (`reset_password` or `confirm_email`): the token.
    async fn link_token(&self, user: &str, purpose: &str) -> String {
        use sha2::Digest as _;
        let token = format!("crash-{purpose}-token");
        let hash: String = sha2::Sha256::digest(token.as_bytes())
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect();
        let now = i64::try_from(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .expect("clock")
                .as_millis(),
        )
        .expect("milliseconds");
        sqlx::query(
            "INSERT INTO identity_one_time_tokens
             (token_hash, user_id, purpose, created_at_ms, expires_at_ms) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(hash)
        .bind(user)
        .bind(purpose)
        .bind(now)
        .bind(now + 3_600_000)
        .execute(self.fixture.pool())
        .await
        .expect("storing a link token");
        token
    }
}

async fn a_password_reset_just_before_a_crash_answers_its_first_204() {
    let survivor = Survivor::start().await;
    let bob = survivor.bob().await;
    let token = survivor.link_token(&bob, "reset_password").await;
    let reset = KeyedRequest::post(
        "/api/v1/auth/reset-password",
        json!({ "token": token, "newPassword": "another horse battery staple" }),
    );

    let retry = survivor.crash_then_retry(&reset).await;

    // Without the committed answer the retry would meet the spent link and answer 400.
    assert_eq!(retry.status(), StatusCode::NO_CONTENT);
    assert!(is_replay(&retry), "the committed answer is replayed");
}

async fn an_address_confirmed_just_before_a_crash_answers_its_first_204() {
    let survivor = Survivor::start().await;
    let bob = survivor.bob().await;
    let token = survivor.link_token(&bob, "confirm_email").await;
    let confirm = KeyedRequest::post("/api/v1/auth/confirm-email", json!({ "token": token }));

    let retry = survivor.crash_then_retry(&confirm).await;

    assert_eq!(retry.status(), StatusCode::NO_CONTENT);
    assert!(is_replay(&retry), "the committed answer is replayed");
}

async fn a_notification_sent_just_before_a_crash_is_sent_once() {
    let survivor = Survivor::start().await;
    let bob = survivor.bob().await;
    let send = KeyedRequest::post(
        "/api/v1/notifications",
        json!({ "recipientId": bob, "title": "Hello", "body": "Once.", "channels": ["inApp"] }),
    )
    .header("authorization", bearer(survivor.app.admin_token().await));

    let retry = survivor.crash_then_retry(&send).await;

    assert_eq!(retry.status(), StatusCode::CREATED);
    assert!(is_replay(&retry), "the committed answer is replayed");
    assert_eq!(
        survivor
            .rows("notifications", "recipient_id = $1", &bob)
            .await,
        1,
        "bob is notified once"
    );
}

async fn a_notification_deleted_just_before_a_crash_answers_its_first_204() {
    let survivor = Survivor::start().await;
    let bob = survivor.bob().await;
    let sent: Value = survivor
        .app
        .request(reqwest::Method::POST, "/api/v1/notifications")
        .bearer_auth(survivor.app.admin_token().await)
        .header("idempotency-key", "the-send")
        .json(&json!({ "recipientId": bob, "title": "Hello", "body": "Soon gone.", "channels": ["inApp"] }))
        .send()
        .await
        .expect("sending")
        .json()
        .await
        .expect("a notification");
    let id = sent["id"].as_str().expect("an id").to_owned();
    let delete = KeyedRequest {
        method: reqwest::Method::DELETE,
        path: format!("/api/v1/notifications/{id}"),
        body: None,
        headers: vec![("authorization", bearer(survivor.app.token_for(&bob)))],
    };

    let retry = survivor.crash_then_retry(&delete).await;

    // Without the committed answer the retry would find nothing and answer 404.
    assert_eq!(retry.status(), StatusCode::NO_CONTENT);
    assert!(is_replay(&retry), "the committed answer is replayed");
    assert_eq!(survivor.rows("notifications", "id = $1", &id).await, 0);
}

impl Survivor {
    /// Links a provider account to `user`, as a first sign-in with the provider would: the
    /// linked identity's id.
    async fn linked_identity(&self, user: &str) -> String {
        let id = format!("crash-identity-{}", testing::unique_suffix());
        sqlx::query(
            "INSERT INTO identity_linked_identities
             (id, user_id, provider, subject, email, linked_at_ms, last_used_at_ms)
             VALUES ($1, $2, 'example', 'provider-subject', NULL, 0, 0)",
        )
        .bind(&id)
        .bind(user)
        .execute(self.fixture.pool())
        .await
        .expect("linking an identity");
        id
    }

    /// Signs bob in: his access token.
    async fn bob_signed_in(&self) -> String {
        let signed_in: Value = self
            .app
            .request(reqwest::Method::POST, "/api/v1/auth/login")
            .json(&json!({ "email": "bob@example.com", "password": "correct horse battery" }))
            .send()
            .await
            .expect("signing in")
            .json()
            .await
            .expect("tokens");
        signed_in["accessToken"]
            .as_str()
            .expect("an access token")
            .to_owned()
    }
}

async fn an_identity_unlinked_just_before_a_crash_answers_its_first_204() {
    let survivor = Survivor::start().await;
    let bob = survivor.bob().await;
    let identity = survivor.linked_identity(&bob).await;
    let unlink = KeyedRequest {
        method: reqwest::Method::DELETE,
        path: format!("/api/v1/auth/identities/{identity}"),
        body: None,
        headers: vec![("authorization", bearer(survivor.bob_signed_in().await))],
    };

    let retry = survivor.crash_then_retry(&unlink).await;

    // Without the committed answer the retry would find no such identity and answer 404.
    assert_eq!(retry.status(), StatusCode::NO_CONTENT);
    assert!(is_replay(&retry), "the committed answer is replayed");
    assert_eq!(
        survivor
            .rows("identity_linked_identities", "id = $1", &identity)
            .await,
        0
    );
}
