//! A claimed execution runs to the end whatever its client does. A client that
//! resets its TCP connection or its HTTP/2 stream (the moment clients retry) does not leave a
//! claim nobody renews: the retry waits for the response and gets it replayed. Shutdown waits
//! for such executions too.
//!
//! (hyper cancels a request's handler when its HTTP/2 stream is reset or its HTTP/1.1
//! connection is reset; a connection merely closed with a FIN is noticed only when the answer
//! is written, after the handler has finished. The tests use the two that cancel.)

use std::time::Duration;

use e2e::fixtures::Executions;
use e2e::{RedisChoice, TestApp, WithIdempotencyKey, is_replay};
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt as _;

use super::{COUNTED, spawn};

/// The fixture sleeps this long before it records its side effect.
const HANDLER_MS: u64 = 300;
/// The client gives up after this long: well inside the handler's sleep.
const CLIENT_GIVES_UP: Duration = Duration::from_millis(50);

/// How a client vanishes mid-request.
#[derive(Clone, Copy)]
enum Vanish {
    /// HTTP/1.1, then a TCP reset (RST) of the connection.
    ResetConnection,
    /// HTTP/2 (h2c), then the client drops the request: an RST_STREAM.
    ResetHttp2Stream,
}

/// Sends the slow counted request with `key` and vanishes after [`CLIENT_GIVES_UP`].
async fn send_and_vanish(app: &TestApp, vanish: Vanish, key: &str) {
    match vanish {
        Vanish::ResetConnection => {
            let address = app.address.trim_start_matches("http://");
            let mut socket = tokio::net::TcpStream::connect(address).await.unwrap();
            let body = r#"{"order":1}"#;
            let request = format!(
                "POST {COUNTED}?sleepMs={HANDLER_MS} HTTP/1.1\r\nHost: {address}\r\n\
                 Content-Type: application/json\r\nIdempotency-Key: {key}\r\n\
                 Content-Length: {}\r\n\r\n{body}",
                body.len()
            );
            socket.write_all(request.as_bytes()).await.unwrap();
            tokio::time::sleep(CLIENT_GIVES_UP).await;
            // Linger 0: closing sends RST, as a client killed or timing out hard does.
            socket.set_zero_linger().unwrap();
            drop(socket);
        }
        Vanish::ResetHttp2Stream => {
            let abandoned = app
                .http2_client()
                .post(app.url(&format!("{COUNTED}?sleepMs={HANDLER_MS}")))
                .idempotency_key(key)
                .json(&json!({ "order": 1 }))
                .timeout(CLIENT_GIVES_UP)
                .send()
                .await;
            assert!(
                abandoned.as_ref().is_err_and(reqwest::Error::is_timeout),
                "the client must give up before the handler answers: {abandoned:?}"
            );
        }
    }
}

/// The retry: the same request and key, on a fresh connection.
async fn retry(app: &TestApp, client: &reqwest::Client, key: &str) -> reqwest::Response {
    client
        .post(app.url(&format!("{COUNTED}?sleepMs={HANDLER_MS}")))
        .idempotency_key(key)
        .json(&json!({ "order": 1 }))
        .send()
        .await
        .expect("the retry is answered")
}

async fn assert_replayed_once(response: reqwest::Response, app: &TestApp, executions: &Executions) {
    assert_eq!(response.status(), StatusCode::CREATED);
    assert!(
        is_replay(&response),
        "the retry gets the original's response"
    );
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["execution"], 1);
    assert_eq!(
        executions.count(),
        1,
        "the side effect happened exactly once"
    );
    assert_eq!(app.idempotency.metrics().completed_after_disconnect, 1);
}

async fn retry_after_disconnect(redis: RedisChoice, vanish: Vanish) {
    let (app, executions) = spawn(TestApp::builder().redis(redis)).await;

    send_and_vanish(&app, vanish, "k").await;
    let response = retry(&app, &app.http, "k").await;

    assert_replayed_once(response, &app, &executions).await;
}

#[tokio::test]
async fn a_client_that_resets_its_connection_gets_the_completed_response_on_retry_in_process() {
    retry_after_disconnect(RedisChoice::None, Vanish::ResetConnection).await;
}

#[tokio::test]
async fn a_client_that_resets_its_connection_gets_the_completed_response_on_retry_on_redis() {
    retry_after_disconnect(RedisChoice::Shared, Vanish::ResetConnection).await;
}

#[tokio::test]
async fn a_client_that_resets_its_http2_stream_gets_the_completed_response_on_retry_in_process() {
    retry_after_disconnect(RedisChoice::None, Vanish::ResetHttp2Stream).await;
}

#[tokio::test]
async fn a_client_that_resets_its_http2_stream_gets_the_completed_response_on_retry_on_redis() {
    retry_after_disconnect(RedisChoice::Shared, Vanish::ResetHttp2Stream).await;
}

#[tokio::test]
async fn an_execution_whose_client_left_is_stored_before_shutdown_ends_and_replays_on_a_new_instance()
 {
    let namespace = format!("test:{}:", testing::unique_suffix());
    let instance = || {
        TestApp::builder()
            .redis(RedisChoice::Shared)
            .setting("redis.key_prefix", &namespace)
            // A retry that finds the key still claimed answers 409 almost at once, so the replay
            // below proves the record was stored before shutdown returned.
            .setting("idempotency.lock_wait", "50ms")
            .setting("redis.response_timeout", "50ms")
    };
    let (old, executions) = spawn(instance()).await;
    send_and_vanish(&old, Vanish::ResetHttp2Stream, "k").await;

    // Shutdown arrives while the abandoned execution still sleeps; the client has gone, so
    // there is no connection to drain: only the layer's own tracking keeps it alive.
    old.stop().await.expect("the server stops cleanly");
    let new = e2e::spawn_with_idempotency_fixtures(instance(), &executions).await;
    let response = retry(&new, &new.http, "k").await;

    assert_eq!(response.status(), StatusCode::CREATED);
    assert!(is_replay(&response));
    assert_eq!(executions.count(), 1);
}

#[tokio::test]
async fn a_request_in_flight_at_shutdown_completes_and_its_retry_replays_on_a_new_instance() {
    let namespace = format!("test:{}:", testing::unique_suffix());
    let instance = || {
        TestApp::builder()
            .redis(RedisChoice::Shared)
            .setting("redis.key_prefix", &namespace)
    };
    let (mut old, executions) = spawn(instance()).await;
    let in_flight = tokio::spawn({
        let request = old
            .http
            .post(old.url(&format!("{COUNTED}?sleepMs={HANDLER_MS}")))
            .idempotency_key("k")
            .json(&json!({ "order": 1 }));
        async move { request.send().await }
    });
    tokio::time::sleep(CLIENT_GIVES_UP).await;

    let server = old.begin_stop().expect("the server was running");
    let answered = in_flight.await.unwrap().expect("answered during the drain");
    server.await.unwrap().expect("the server stops cleanly");
    let new = e2e::spawn_with_idempotency_fixtures(instance(), &executions).await;
    let retried = retry(&new, &new.http, "k").await;

    assert_eq!(answered.status(), StatusCode::CREATED);
    assert!(is_replay(&retried));
    assert_eq!(executions.count(), 1);
}

#[tokio::test]
async fn a_panicking_handler_releases_its_key_at_once() {
    let (app, executions) = spawn(TestApp::builder().redis(RedisChoice::Shared)).await;
    let send = || {
        app.request(reqwest::Method::POST, "/api/v1/fixtures/idem/panics")
            .idempotency_key("k")
            .json(&json!({}))
            .send()
    };

    let panicked = send().await.unwrap();
    let retried = send().await.unwrap();

    e2e::assert_problem(panicked, StatusCode::INTERNAL_SERVER_ERROR).await;
    assert_eq!(
        retried.status(),
        StatusCode::CREATED,
        "the retry executes, not a 409"
    );
    assert!(!is_replay(&retried));
    assert_eq!(executions.count(), 2);
}
