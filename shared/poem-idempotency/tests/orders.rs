//! The layer's promises, tried over HTTP against the example service (`examples/orders`) on a
//! real socket, with each store: in process, and Redis at `REDIS_URL` (default
//! `redis://127.0.0.1:6379`; the tests fail without one, never skip).
//!
//! The store's own semantics (atomic claims, fencing by lease token, expiry) are pinned by its
//! conformance suite (`store::conformance`), which the crate's unit tests run on both stores.

#[path = "../examples/orders/service.rs"]
#[allow(dead_code)]
mod service;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use poem::Server;
use poem::listener::{Acceptor as _, Listener as _, TcpListener};
use poem_idempotency::{Idempotency, IdempotencySettings};
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio::task::JoinHandle;

/// Where the layer keeps its records in a test.
#[derive(Debug, Clone, Copy)]
enum StoreKind {
    InProcess,
    Redis,
}

fn redis_url() -> String {
    std::env::var("REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".to_owned())
}

/// The example service on a port of its own, and a client of it.
struct Orders {
    base: String,
    layer: std::sync::Arc<Idempotency>,
    http: reqwest::Client,
    server: JoinHandle<()>,
    /// Forwards the layer's Redis connection while the test wants Redis up.
    relay: Option<RedisRelay>,
}

impl Drop for Orders {
    fn drop(&mut self) {
        self.server.abort();
    }
}

/// How a test wants the service.
struct Setup {
    store: StoreKind,
    settings: IdempotencySettings,
    shipping_takes: Duration,
}

impl Setup {
    fn new(store: StoreKind) -> Self {
        Self {
            store,
            settings: IdempotencySettings {
                lock_wait: Duration::from_millis(200),
                ..IdempotencySettings::default()
            },
            shipping_takes: Duration::from_millis(10),
        }
    }

    fn shipping_takes(mut self, duration: Duration) -> Self {
        self.shipping_takes = duration;
        self
    }

    fn settings(mut self, change: impl FnOnce(&mut IdempotencySettings)) -> Self {
        change(&mut self.settings);
        self
    }

    async fn start(self) -> Orders {
        let prefix = format!("test:{}:", hex::encode(rand::random::<[u8; 8]>()));
        let (idempotency, relay) = match self.store {
            StoreKind::InProcess => (Idempotency::in_process(self.settings), None),
            StoreKind::Redis => {
                let relay = RedisRelay::start().await;
                let redis = redis::Client::open(relay.url())
                    .expect("a Redis URL")
                    .get_connection_manager_with_config(
                        redis::aio::ConnectionManagerConfig::new()
                            .set_number_of_retries(0)
                            .set_connection_timeout(Some(Duration::from_millis(500)))
                            .set_response_timeout(Some(Duration::from_secs(2))),
                    )
                    .await
                    .unwrap_or_else(|err| {
                        panic!(
                            "these tests need Redis at {} (REDIS_URL): {err}",
                            redis_url()
                        )
                    });
                (
                    Idempotency::with_redis(redis, &prefix, self.settings),
                    Some(relay),
                )
            }
        };
        let layer = std::sync::Arc::new(idempotency);
        let app = service::service(
            service::OrdersApi::new(self.shipping_takes),
            std::sync::Arc::clone(&layer),
        );
        let acceptor = TcpListener::bind("127.0.0.1:0")
            .into_acceptor()
            .await
            .expect("a port");
        let address = acceptor.local_addr()[0]
            .as_socket_addr()
            .copied()
            .expect("a TCP address");
        let server = tokio::spawn(async move {
            let _ = Server::new_with_acceptor(acceptor).run(app).await;
        });
        Orders {
            base: format!("http://{address}"),
            layer,
            http: reqwest::Client::new(),
            server,
            relay,
        }
    }
}

impl Orders {
    async fn post(&self, path: &str, key: Option<&str>, body: Option<Value>) -> Answer {
        self.post_from(&self.http, path, key, body).await
    }

    async fn post_from(
        &self,
        client: &reqwest::Client,
        path: &str,
        key: Option<&str>,
        body: Option<Value>,
    ) -> Answer {
        let mut request = client.post(format!("{}{path}", self.base));
        if let Some(key) = key {
            request = request.header("Idempotency-Key", key);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        Answer::of(request.send().await.expect("an answer")).await
    }

    async fn create(&self, key: Option<&str>, item: &str) -> Answer {
        self.post("/orders", key, Some(json!({ "item": item, "quantity": 1 })))
            .await
    }

    async fn ship(&self, key: &str) -> Answer {
        self.post("/orders/1/ship", Some(key), None).await
    }

    async fn orders(&self) -> Vec<Value> {
        self.http
            .get(format!("{}/orders", self.base))
            .send()
            .await
            .expect("the orders")
            .json()
            .await
            .expect("JSON")
    }

    /// Stops the Redis the layer talks to: every store call fails from now on.
    fn stop_redis(&mut self) {
        self.relay.take().expect("a test on Redis");
    }
}

/// A response, read whole.
#[derive(Debug)]
struct Answer {
    status: StatusCode,
    replayed: bool,
    retry_after: Option<String>,
    body: Value,
}

impl Answer {
    async fn of(response: reqwest::Response) -> Self {
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|value| value.to_str().ok())
                .map(str::to_owned)
        };
        let replayed = header("x-idempotent-replay").as_deref() == Some("true");
        let retry_after = header("retry-after");
        let status = response.status();
        let body = response.json().await.unwrap_or(Value::Null);
        Self {
            status,
            replayed,
            retry_after,
            body,
        }
    }

    fn problem_type(&self) -> &str {
        self.body["type"].as_str().unwrap_or_default()
    }
}

/// A TCP relay to the test Redis: dropping it closes its port and every connection through it,
/// which is what a Redis that dies looks like to the layer.
struct RedisRelay {
    address: SocketAddr,
    accepting: JoinHandle<()>,
    connections: std::sync::Arc<std::sync::Mutex<Vec<JoinHandle<()>>>>,
}

impl RedisRelay {
    async fn start() -> Self {
        let target = redis::Client::open(redis_url())
            .expect("REDIS_URL is a Redis URL")
            .get_connection_info()
            .addr()
            .to_string();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port for the relay");
        let address = listener.local_addr().expect("the relay's address");
        let connections: std::sync::Arc<std::sync::Mutex<Vec<JoinHandle<()>>>> =
            std::sync::Arc::default();
        let tracked = std::sync::Arc::clone(&connections);
        let accepting = tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                let target = target.clone();
                let relay = tokio::spawn(async move {
                    if let Ok(mut redis) = TcpStream::connect(&target).await {
                        let _ = tokio::io::copy_bidirectional(&mut client, &mut redis).await;
                    }
                });
                tracked.lock().expect("the relay's connections").push(relay);
            }
        });
        Self {
            address,
            accepting,
            connections,
        }
    }

    /// `REDIS_URL` with the relay's address in place of the server's: its credentials, TLS
    /// scheme and database stay.
    fn url(&self) -> String {
        let url = redis_url();
        let (scheme, rest) = url.split_once("://").expect("a Redis URL has a scheme");
        let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
        let credentials = authority
            .rsplit_once('@')
            .map(|(credentials, _)| format!("{credentials}@"))
            .unwrap_or_default();
        format!("{scheme}://{credentials}{}/{path}", self.address)
    }
}

impl Drop for RedisRelay {
    fn drop(&mut self) {
        self.accepting.abort();
        for connection in self
            .connections
            .lock()
            .expect("the relay's connections")
            .drain(..)
        {
            connection.abort();
        }
    }
}

/// Runs `$test` (an async fn taking a [`StoreKind`]) once per store.
macro_rules! on_both_stores {
    ($($test:ident),* $(,)?) => {
        mod in_process {
            $(
                #[tokio::test]
                async fn $test() {
                    super::$test(super::StoreKind::InProcess).await;
                }
            )*
        }
        mod on_redis {
            $(
                #[tokio::test]
                async fn $test() {
                    super::$test(super::StoreKind::Redis).await;
                }
            )*
        }
    };
}

on_both_stores!(
    a_retry_with_the_same_key_gets_the_first_answer_and_executes_nothing,
    a_key_reused_with_another_body_is_a_422_that_executes_nothing,
    a_duplicate_while_the_first_runs_waits_then_gets_a_409_with_retry_after,
    a_duplicate_that_waits_long_enough_gets_the_first_answer,
    a_handler_slower_than_its_lease_keeps_its_key_by_renewing_it,
    two_callers_never_share_a_key,
    an_answer_too_large_to_keep_is_given_and_a_retry_executes_again,
    a_request_without_a_key_executes_each_time,
    an_operation_that_requires_a_key_refuses_a_request_without_one,
    a_malformed_key_is_a_400_problem,
);

async fn a_retry_with_the_same_key_gets_the_first_answer_and_executes_nothing(store: StoreKind) {
    let orders = Setup::new(store).start().await;
    let first = orders.create(Some("order-1"), "lamp").await;

    let retry = orders.create(Some("order-1"), "lamp").await;

    assert_eq!(first.status, StatusCode::CREATED);
    assert!(!first.replayed);
    assert_eq!(retry.status, StatusCode::CREATED);
    assert!(retry.replayed, "{retry:?}");
    assert_eq!(retry.body, first.body);
    assert_eq!(orders.orders().await.len(), 1);
}

async fn a_key_reused_with_another_body_is_a_422_that_executes_nothing(store: StoreKind) {
    let orders = Setup::new(store).start().await;
    orders.create(Some("order-1"), "lamp").await;

    let reuse = orders.create(Some("order-1"), "chair").await;

    assert_eq!(reuse.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reuse.problem_type(), "/problems/idempotency-key-reuse");
    assert_eq!(orders.orders().await.len(), 1);
}

async fn a_duplicate_while_the_first_runs_waits_then_gets_a_409_with_retry_after(store: StoreKind) {
    let orders = Setup::new(store)
        .shipping_takes(Duration::from_secs(2))
        .start()
        .await;
    orders.create(None, "lamp").await;
    let first = orders.ship("ship-1");
    let duplicate = async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        orders.ship("ship-1").await
    };

    let (first, duplicate) = tokio::join!(first, duplicate);

    assert_eq!(duplicate.status, StatusCode::CONFLICT, "{duplicate:?}");
    assert_eq!(
        duplicate.problem_type(),
        "/problems/idempotency-request-in-progress"
    );
    assert_eq!(duplicate.retry_after.as_deref(), Some("1"));
    assert_eq!(first.status, StatusCode::OK);
    assert_eq!(orders.orders().await[0]["shipments"], 1);
}

async fn a_duplicate_that_waits_long_enough_gets_the_first_answer(store: StoreKind) {
    let orders = Setup::new(store)
        .shipping_takes(Duration::from_millis(500))
        .settings(|settings| settings.lock_wait = Duration::from_secs(5))
        .start()
        .await;
    orders.create(None, "lamp").await;
    let first = orders.ship("ship-1");
    let duplicate = async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        orders.ship("ship-1").await
    };

    let (first, duplicate) = tokio::join!(first, duplicate);

    assert_eq!(duplicate.status, StatusCode::OK, "{duplicate:?}");
    assert!(duplicate.replayed);
    assert_eq!(duplicate.body, first.body);
    assert_eq!(orders.orders().await[0]["shipments"], 1);
}

async fn a_handler_slower_than_its_lease_keeps_its_key_by_renewing_it(store: StoreKind) {
    // Without renewal the lease would lapse at 300 ms and the duplicate at 900 ms would ship
    // the order a second time.
    let orders = Setup::new(store)
        .shipping_takes(Duration::from_millis(1500))
        .settings(|settings| {
            settings.lock_ttl = Duration::from_millis(300);
            settings.lock_wait = Duration::from_millis(100);
        })
        .start()
        .await;
    orders.create(None, "lamp").await;
    let first = orders.ship("ship-1");
    let duplicate = async {
        tokio::time::sleep(Duration::from_millis(900)).await;
        orders.ship("ship-1").await
    };

    let (first, duplicate) = tokio::join!(first, duplicate);
    let retry = orders.ship("ship-1").await;

    assert_eq!(duplicate.status, StatusCode::CONFLICT, "{duplicate:?}");
    assert_eq!(first.status, StatusCode::OK);
    assert!(retry.replayed);
    assert_eq!(orders.orders().await[0]["shipments"], 1);
}

async fn two_callers_never_share_a_key(store: StoreKind) {
    let orders = Setup::new(store).start().await;
    let other_client = reqwest::Client::builder()
        .local_address(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2)))
        .build()
        .expect("a client on 127.0.0.2");
    let body = json!({ "item": "lamp", "quantity": 1 });
    orders
        .post("/orders", Some("same-key"), Some(body.clone()))
        .await;

    let other = orders
        .post_from(&other_client, "/orders", Some("same-key"), Some(body))
        .await;

    assert_eq!(other.status, StatusCode::CREATED);
    assert!(!other.replayed, "another caller's answer was replayed");
    assert_eq!(other.body["number"], 2);
}

async fn an_answer_too_large_to_keep_is_given_and_a_retry_executes_again(store: StoreKind) {
    let orders = Setup::new(store)
        .settings(|settings| settings.max_response_bytes = 16)
        .start()
        .await;
    let first = orders.create(Some("order-1"), "lamp").await;

    let retry = orders.create(Some("order-1"), "lamp").await;

    assert_eq!(first.status, StatusCode::CREATED);
    assert_eq!(retry.status, StatusCode::CREATED);
    assert!(!retry.replayed);
    assert_eq!(orders.orders().await.len(), 2, "nothing was kept to replay");
}

async fn a_request_without_a_key_executes_each_time(store: StoreKind) {
    let orders = Setup::new(store).start().await;

    orders.create(None, "lamp").await;
    let second = orders.create(None, "lamp").await;

    assert!(!second.replayed);
    assert_eq!(orders.orders().await.len(), 2);
}

async fn an_operation_that_requires_a_key_refuses_a_request_without_one(store: StoreKind) {
    let orders = Setup::new(store).start().await;
    orders.create(None, "lamp").await;

    let unkeyed = orders.post("/orders/1/ship", None, None).await;

    assert_eq!(unkeyed.status, StatusCode::BAD_REQUEST);
    assert_eq!(unkeyed.problem_type(), "/problems/idempotency-key-missing");
    assert_eq!(orders.orders().await[0]["shipments"], 0);
}

async fn a_malformed_key_is_a_400_problem(store: StoreKind) {
    let orders = Setup::new(store).start().await;

    let malformed = orders.create(Some("\"unterminated"), "lamp").await;

    assert_eq!(malformed.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        malformed.problem_type(),
        "/problems/idempotency-key-invalid"
    );
    assert!(orders.orders().await.is_empty());
}

#[tokio::test]
async fn with_redis_down_a_keyed_request_executes_unguarded() {
    let mut orders = Setup::new(StoreKind::Redis).start().await;
    orders.stop_redis();

    let first = orders.create(Some("order-1"), "lamp").await;
    let retry = orders.create(Some("order-1"), "lamp").await;

    assert_eq!(first.status, StatusCode::CREATED);
    assert_eq!(retry.status, StatusCode::CREATED);
    assert!(!retry.replayed);
    assert_eq!(orders.orders().await.len(), 2, "fail-open: no guard");
    assert_eq!(orders.layer.metrics().degraded, 2, "each is counted");
    assert_eq!(
        orders.layer.store_outages(),
        1,
        "one outage, however many requests"
    );
}

/// Sends a keyed shipment, then resets the connection after `patience`: the client goes away
/// mid-request, as one whose process died or whose network dropped would (a reset, not a
/// polite close, is what makes the server drop the request).
async fn ship_and_hang_up(orders: &Orders, patience: Duration) {
    use tokio::io::AsyncWriteExt as _;
    let address = orders.base.trim_start_matches("http://");
    let mut connection = TcpStream::connect(address).await.expect("a connection");
    connection
        .write_all(
            b"POST /orders/1/ship HTTP/1.1\r\nHost: orders\r\nIdempotency-Key: ship-1\r\nContent-Length: 0\r\n\r\n",
        )
        .await
        .expect("the request is sent");
    tokio::time::sleep(patience).await;
    // Deprecated for blocking on drop, which a zero linger never does: it resets at once.
    #[allow(deprecated)]
    connection.set_linger(Some(Duration::ZERO)).expect("linger");
    drop(connection);
    // The server notices the reset on its next read: wait until it has rescued the execution.
    let noticed = async {
        while orders.layer.abandoned_executions_running() == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(5), noticed)
        .await
        .expect("the execution goes on without its client");
}

#[tokio::test]
async fn a_client_that_hangs_up_gets_the_finished_answer_on_retry() {
    let orders = Setup::new(StoreKind::InProcess)
        .shipping_takes(Duration::from_millis(600))
        .start()
        .await;
    orders.create(None, "lamp").await;

    ship_and_hang_up(&orders, Duration::from_millis(100)).await;
    // The execution goes on without its client, and shutdown waits for it.
    assert!(orders.layer.drain(Duration::from_secs(5)).await);
    let retry = orders.ship("ship-1").await;

    assert!(retry.replayed, "{retry:?}");
    assert_eq!(retry.body["shipments"], 1);
    assert_eq!(orders.layer.abandoned_executions_running(), 0);
    assert_eq!(orders.layer.metrics().completed_after_disconnect, 1);
}

#[tokio::test]
async fn a_drain_shorter_than_the_abandoned_execution_says_it_did_not_finish() {
    let orders = Setup::new(StoreKind::InProcess)
        .shipping_takes(Duration::from_secs(2))
        .start()
        .await;
    orders.create(None, "lamp").await;
    ship_and_hang_up(&orders, Duration::from_millis(100)).await;

    let drained = orders.layer.drain(Duration::from_millis(100)).await;

    assert!(!drained);
    assert_eq!(orders.layer.abandoned_executions_running(), 1);
}

#[tokio::test]
async fn with_redis_down_a_fail_closed_operation_answers_503_and_executes_nothing() {
    let mut orders = Setup::new(StoreKind::Redis).start().await;
    orders.create(None, "lamp").await;
    orders.stop_redis();

    let refused = orders.ship("ship-1").await;

    assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        refused.problem_type(),
        "/problems/idempotency-store-unavailable"
    );
    assert_eq!(refused.retry_after.as_deref(), Some("5"));
    assert_eq!(orders.orders().await[0]["shipments"], 0);
}

#[tokio::test]
async fn the_document_shows_the_header_and_each_intent() {
    let orders = Setup::new(StoreKind::InProcess).start().await;

    let document: Value = orders
        .http
        .get(format!("{}/openapi.json", orders.base))
        .send()
        .await
        .expect("the document")
        .json()
        .await
        .expect("JSON");

    let ship = &document["paths"]["/orders/{number}/ship"]["post"];
    assert_eq!(ship["x-idempotency"]["intent"], "idempotent");
    assert_eq!(ship["x-idempotency"]["keyRequired"], true);
    assert_eq!(ship["x-idempotency"]["onStoreFailure"], "reject");
    let header = ship["parameters"]
        .as_array()
        .and_then(|parameters| parameters.iter().find(|p| p["name"] == "Idempotency-Key"))
        .expect("the Idempotency-Key header is documented");
    assert_eq!(header["required"], true);
    assert!(ship["responses"]["503"].is_object());
    assert!(document["components"]["schemas"]["Problem"].is_object());
    let list = &document["paths"]["/orders"]["get"];
    assert!(
        list.get("x-idempotency").is_none(),
        "a safe method declares nothing"
    );
}

#[tokio::test]
async fn the_intent_gate_passes_on_the_example_service() {
    let orders = Setup::new(StoreKind::InProcess).start().await;

    let checked = poem_idempotency::gate::check_idempotency_intents(&orders.base, "", || {
        poem_idempotency::gate::GuardMarks::of(&orders.layer)
    })
    .await;

    assert_eq!(checked, Ok(()));
}
