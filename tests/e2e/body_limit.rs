//! `server.body_limit_bytes` holds on the body itself, however it is framed: HTTP/1.1 with
//! `Content-Length` or chunked, HTTP/2 with or without `content-length`. Over the limit is a
//! 413 problem that arrives while the client is still sending (so nothing buffered the whole
//! body); at the limit is accepted. The idempotency guard reads a keyed body through the same
//! limit, before it claims anything.

use std::time::Duration;

use bytes::Bytes;
use e2e::fixtures::Executions;
use e2e::{TestApp, assert_problem, spawn_with_idempotency_fixtures};
use futures_util::StreamExt as _;
use reqwest::StatusCode;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

const LIMIT: usize = 1024;
/// Unguarded: exercises the limit as every operation meets it.
const PLAIN: &str = "/api/v1/fixtures/idem/plain";
/// Guarded: with a key, the guard buffers the body.
const COUNTED: &str = "/api/v1/fixtures/idem/counted";
/// Long enough for any honest answer on a loaded machine; an answer that needed the rest of the
/// body would never come.
const ANSWER_WITHIN: Duration = Duration::from_secs(10);

async fn spawn() -> (TestApp, Executions) {
    let executions = Executions::default();
    let app = spawn_with_idempotency_fixtures(
        TestApp::builder().setting("server.body_limit_bytes", &LIMIT.to_string()),
        &executions,
    )
    .await;
    (app, executions)
}

/// A JSON document of exactly `size` bytes: `{"pad":"xxx…"}`.
fn json_of_size(size: usize) -> Bytes {
    let padding = "x".repeat(size - r#"{"pad":""}"#.len());
    Bytes::from(format!(r#"{{"pad":"{padding}"}}"#))
}

/// A body that sends `first` and then never ends: an answer to it cannot have waited for the
/// whole body.
fn never_ending(first: Bytes) -> reqwest::Body {
    let stream = futures_util::stream::iter([Ok::<_, std::io::Error>(first)])
        .chain(futures_util::stream::pending());
    reqwest::Body::wrap_stream(stream)
}

/// POSTs `body` as JSON to `path` over HTTP/2 with `headers`, and waits at most
/// [`ANSWER_WITHIN`] for the answer.
async fn http2_post(
    app: &TestApp,
    path: &str,
    headers: &[(&str, String)],
    body: reqwest::Body,
) -> reqwest::Response {
    let mut request = app
        .http2_client()
        .post(app.url(path))
        .header("content-type", "application/json")
        .body(body);
    for (name, value) in headers {
        request = request.header(*name, value);
    }
    let response = tokio::time::timeout(ANSWER_WITHIN, request.send())
        .await
        .expect("answered before the body was complete")
        .unwrap();
    assert_eq!(response.version(), reqwest::Version::HTTP_2);
    response
}

/// A body sent as one stream chunk, so reqwest declares no length (chunked over HTTP/1.1, no
/// `content-length` over HTTP/2).
fn streamed(body: Bytes) -> reqwest::Body {
    reqwest::Body::wrap_stream(futures_util::stream::iter([Ok::<_, std::io::Error>(body)]))
}

/// Writes an HTTP/1.1 request head and the start of its body on a raw socket, never finishes
/// the body, and returns the status line of the answer.
async fn raw_http1_status(app: &TestApp, path: &str, headers: &str, partial_body: &[u8]) -> String {
    let address = app.address.trim_start_matches("http://");
    let mut socket = tokio::net::TcpStream::connect(address).await.unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n{headers}\r\n"
    );
    socket.write_all(head.as_bytes()).await.unwrap();
    socket.write_all(partial_body).await.unwrap();
    let mut answer = Vec::new();
    let mut buffer = [0u8; 4096];
    tokio::time::timeout(ANSWER_WITHIN, async {
        while !answer.windows(2).any(|w| w == b"\r\n") {
            let read = socket.read(&mut buffer).await.unwrap();
            assert!(read > 0, "the connection closed without an answer");
            answer.extend_from_slice(&buffer[..read]);
        }
    })
    .await
    .expect("answered before the body was complete");
    let text = String::from_utf8_lossy(&answer);
    text.lines().next().unwrap_or_default().to_owned()
}

/// One HTTP/1.1 chunk holding `data`.
fn chunk(data: &[u8]) -> Vec<u8> {
    let mut framed = format!("{:x}\r\n", data.len()).into_bytes();
    framed.extend_from_slice(data);
    framed.extend_from_slice(b"\r\n");
    framed
}

#[tokio::test]
async fn http1_with_a_content_length_over_the_limit_is_a_413_before_the_body_is_sent() {
    let (app, executions) = spawn().await;

    let status = raw_http1_status(
        &app,
        PLAIN,
        &format!("Content-Length: {}\r\n", LIMIT * 4),
        b"{\"pad\":\"",
    )
    .await;

    assert_eq!(status, "HTTP/1.1 413 Payload Too Large");
    assert_eq!(executions.count(), 0);
}

#[tokio::test]
async fn http1_chunked_over_the_limit_is_a_413_while_the_client_is_still_sending() {
    let (app, executions) = spawn().await;

    let status = raw_http1_status(
        &app,
        PLAIN,
        "Transfer-Encoding: chunked\r\n",
        &chunk(&json_of_size(LIMIT + 1)),
    )
    .await;

    assert_eq!(status, "HTTP/1.1 413 Payload Too Large");
    assert_eq!(executions.count(), 0);
}

#[tokio::test]
async fn http1_chunked_over_the_limit_with_a_key_is_a_413_before_the_guard_claims() {
    let (app, executions) = spawn().await;
    let operations = app.idempotency.store().operations();

    let status = raw_http1_status(
        &app,
        COUNTED,
        "Transfer-Encoding: chunked\r\nIdempotency-Key: k\r\n",
        &chunk(&json_of_size(LIMIT + 1)),
    )
    .await;

    assert_eq!(status, "HTTP/1.1 413 Payload Too Large");
    assert_eq!(executions.count(), 0);
    assert_eq!(app.idempotency.store().operations(), operations);
}

#[tokio::test]
async fn http2_without_a_content_length_over_the_limit_is_a_413_while_the_client_is_still_sending()
{
    let (app, executions) = spawn().await;

    let response = http2_post(&app, PLAIN, &[], never_ending(json_of_size(LIMIT + 1))).await;

    assert_problem(response, StatusCode::PAYLOAD_TOO_LARGE).await;
    assert_eq!(executions.count(), 0);
}

#[tokio::test]
async fn http2_without_a_content_length_over_the_limit_with_a_key_is_a_413_before_the_guard_claims()
{
    let (app, executions) = spawn().await;
    let operations = app.idempotency.store().operations();

    let response = http2_post(
        &app,
        COUNTED,
        &[("idempotency-key", "k".to_owned())],
        never_ending(json_of_size(LIMIT + 1)),
    )
    .await;

    assert_problem(response, StatusCode::PAYLOAD_TOO_LARGE).await;
    assert_eq!(executions.count(), 0);
    assert_eq!(app.idempotency.store().operations(), operations);
}

#[tokio::test]
async fn http2_with_a_content_length_over_the_limit_is_a_413_before_the_body_is_sent() {
    let (app, executions) = spawn().await;

    let response = http2_post(
        &app,
        PLAIN,
        &[("content-length", (LIMIT * 4).to_string())],
        never_ending(Bytes::from_static(b"{\"pad\":\"")),
    )
    .await;

    assert_problem(response, StatusCode::PAYLOAD_TOO_LARGE).await;
    assert_eq!(executions.count(), 0);
}

#[tokio::test]
async fn a_body_of_exactly_the_limit_is_accepted_in_every_framing() {
    let (app, executions) = spawn().await;
    let body = json_of_size(LIMIT);
    let http1 = app.http.clone();
    let http2 = app.http2_client();
    let framings: [(&str, &reqwest::Client, reqwest::Body); 4] = [
        ("HTTP/1.1 Content-Length", &http1, body.clone().into()),
        ("HTTP/1.1 chunked", &http1, streamed(body.clone())),
        ("HTTP/2 content-length", &http2, body.clone().into()),
        ("HTTP/2 no content-length", &http2, streamed(body.clone())),
    ];

    for (framing, client, request_body) in framings {
        let response = client
            .post(app.url(PLAIN))
            .header("content-type", "application/json")
            .body(request_body)
            .send()
            .await
            .unwrap();

        assert_eq!(response.status(), StatusCode::CREATED, "{framing}");
    }
    assert_eq!(executions.count(), 4);
}

#[tokio::test]
async fn a_keyed_body_of_exactly_the_limit_is_guarded_over_http2() {
    let (app, executions) = spawn().await;
    let key = [("idempotency-key", "k".to_owned())];
    let send = || http2_post(&app, COUNTED, &key, streamed(json_of_size(LIMIT)));

    let first = send().await;
    let retry = send().await;

    assert_eq!(first.status(), StatusCode::CREATED);
    assert!(e2e::is_replay(&retry));
    assert_eq!(executions.count(), 1);
}
