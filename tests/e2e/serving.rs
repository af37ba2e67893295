//! Request ids, CORS and graceful shutdown.

use std::time::Duration;

use e2e::TestApp;
use e2e::fixtures::FixtureApi;
use reqwest::StatusCode;

#[tokio::test]
async fn a_request_id_is_generated_when_the_client_sends_none() {
    let app = TestApp::spawn().await;

    let response = app.get("/health/live").await;

    let id = response.headers()["x-request-id"].to_str().unwrap();
    assert!(uuid::Uuid::parse_str(id).is_ok(), "{id}");
}

#[tokio::test]
async fn the_clients_request_id_is_echoed() {
    let app = TestApp::spawn().await;

    let response = app
        .http
        .get(app.url("/health/live"))
        .header("x-request-id", "trace-me-42")
        .send()
        .await
        .unwrap();

    assert_eq!(response.headers()["x-request-id"], "trace-me-42");
}

#[tokio::test]
async fn an_unprintable_request_id_is_replaced() {
    let app = TestApp::spawn().await;

    let response = app
        .http
        .get(app.url("/health/live"))
        .header("x-request-id", "a b")
        .send()
        .await
        .unwrap();

    assert_ne!(response.headers()["x-request-id"], "a b");
}

#[tokio::test]
async fn an_allowed_origin_gets_cors_headers_and_others_do_not() {
    let app = TestApp::builder()
        .setting("server.cors.allowed_origins", "https://app.example.com")
        .spawn()
        .await;

    let allowed = app
        .http
        .get(app.url("/health/live"))
        .header("origin", "https://app.example.com")
        .send()
        .await
        .unwrap();
    let refused = app
        .http
        .get(app.url("/health/live"))
        .header("origin", "https://evil.example.com")
        .send()
        .await
        .unwrap();

    assert_eq!(
        allowed.headers()["access-control-allow-origin"],
        "https://app.example.com"
    );
    assert!(
        refused
            .headers()
            .get("access-control-allow-origin")
            .is_none()
    );
}

#[tokio::test]
async fn shutdown_lets_an_in_flight_request_finish_then_refuses_new_ones() {
    let mut app = TestApp::builder().spawn_with(FixtureApi).await;
    let slow = {
        let http = app.http.clone();
        let url = app.url("/api/v1/fixtures/slow?ms=500");
        tokio::spawn(async move { http.get(url).send().await })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;

    let server = app.begin_stop().expect("server running");
    let finished = slow
        .await
        .unwrap()
        .expect("the in-flight request completes");
    server.await.unwrap().expect("the server stops cleanly");

    assert_eq!(finished.status(), StatusCode::OK);
    assert!(
        app.http.get(app.url("/health/live")).send().await.is_err(),
        "no new connections after shutdown"
    );
}
