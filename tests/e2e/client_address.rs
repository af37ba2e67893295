//! Who the client is: the socket's peer, unless the peer is a trusted proxy, in which case the
//! right-most untrusted address of its forwarding header; IPv6 clients grouped by /64. Observed
//! through what keys by client: the per-address registration limit and the anonymous
//! idempotency scope.

use std::net::IpAddr;

use e2e::{TestApp, TestAppBuilder};
use reqwest::{Method, StatusCode};
use serde_json::json;

/// A service allowing one registration per client address, trusting `trusted` as proxies.
async fn service_trusting(trusted: &str, header: &str) -> TestApp {
    limited(TestApp::builder().setting("server.trusted_proxies", trusted))
        .setting("server.forwarded_header", header)
        .spawn()
        .await
}

fn limited(builder: TestAppBuilder) -> TestAppBuilder {
    builder.setting("rate_limit.register_per_address", "1")
}

/// Registers a fresh account from `source`, sending `header` (a forwarding header).
async fn register(app: &TestApp, source: &str, header: (&str, &str)) -> StatusCode {
    let source: IpAddr = source.parse().expect("a loopback address");
    let email = format!("user-{}@example.com", testing::unique_suffix());
    app.client_from(source)
        .post(app.url("/api/v1/auth/register"))
        .header(header.0, header.1)
        .json(&json!({ "email": email, "password": "correct horse battery" }))
        .send()
        .await
        .expect("request failed")
        .status()
}

#[tokio::test]
async fn without_trusted_proxies_a_forwarded_for_header_is_ignored() {
    let app = limited(TestApp::builder()).spawn().await;

    let first = register(&app, "127.0.0.1", ("x-forwarded-for", "198.51.100.1")).await;
    let spoofed = register(&app, "127.0.0.1", ("x-forwarded-for", "198.51.100.2")).await;

    assert_eq!(first, StatusCode::CREATED);
    assert_eq!(
        spoofed,
        StatusCode::TOO_MANY_REQUESTS,
        "a client cannot escape its limit by naming another address"
    );
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_limit() {
    let app = service_trusting("127.0.0.1", "x-forwarded-for").await;

    let first = register(&app, "127.0.0.1", ("x-forwarded-for", "198.51.100.1")).await;
    let another_client = register(&app, "127.0.0.1", ("x-forwarded-for", "198.51.100.2")).await;
    let first_again = register(&app, "127.0.0.1", ("x-forwarded-for", "198.51.100.1")).await;

    assert_eq!(first, StatusCode::CREATED);
    assert_eq!(another_client, StatusCode::CREATED);
    assert_eq!(first_again, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn a_client_cannot_spoof_past_the_trusted_proxy() {
    let app = service_trusting("127.0.0.1", "x-forwarded-for").await;

    // The proxy appends the address it saw (198.51.100.1) to whatever the client sent.
    let first = register(
        &app,
        "127.0.0.1",
        ("x-forwarded-for", "6.6.6.1, 198.51.100.1"),
    )
    .await;
    let spoofed = register(
        &app,
        "127.0.0.1",
        ("x-forwarded-for", "6.6.6.2, 198.51.100.1"),
    )
    .await;

    assert_eq!(first, StatusCode::CREATED);
    assert_eq!(spoofed, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn an_untrusted_peer_is_the_client_whatever_it_forwards() {
    let app = service_trusting("127.0.0.1", "x-forwarded-for").await;

    let first = register(&app, "127.0.0.2", ("x-forwarded-for", "198.51.100.1")).await;
    let spoofed = register(&app, "127.0.0.2", ("x-forwarded-for", "198.51.100.2")).await;

    assert_eq!(first, StatusCode::CREATED);
    assert_eq!(spoofed, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn rfc_7239_forwarded_is_read_when_configured() {
    let app = service_trusting("127.0.0.0/24", "forwarded").await;

    let first = register(
        &app,
        "127.0.0.1",
        ("forwarded", "for=198.51.100.1;proto=https"),
    )
    .await;
    let another = register(
        &app,
        "127.0.0.1",
        ("forwarded", "for=\"198.51.100.2:4711\""),
    )
    .await;
    let first_again = register(&app, "127.0.0.1", ("forwarded", "for=198.51.100.1")).await;

    assert_eq!(first, StatusCode::CREATED);
    assert_eq!(another, StatusCode::CREATED);
    assert_eq!(first_again, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn ipv6_clients_in_one_slash_64_share_a_limit() {
    let app = service_trusting("127.0.0.1", "x-forwarded-for").await;

    let first = register(&app, "127.0.0.1", ("x-forwarded-for", "2001:db8:1:2::1")).await;
    let same_network = register(
        &app,
        "127.0.0.1",
        ("x-forwarded-for", "2001:db8:1:2:ffff::9"),
    )
    .await;
    let next_network = register(&app, "127.0.0.1", ("x-forwarded-for", "2001:db8:1:3::1")).await;

    assert_eq!(first, StatusCode::CREATED);
    assert_eq!(
        same_network,
        StatusCode::TOO_MANY_REQUESTS,
        "rotating within a /64 is the same client"
    );
    assert_eq!(next_network, StatusCode::CREATED);
}

#[tokio::test]
async fn anonymous_idempotency_keys_are_scoped_by_the_forwarded_client() {
    let app = service_trusting("127.0.0.1", "x-forwarded-for").await;
    let forgot_password = |client: &'static str, email: &'static str| {
        app.request(Method::POST, "/api/v1/auth/forgot-password")
            .header("x-forwarded-for", client)
            .header("idempotency-key", "shared-key-of-two-clients")
            .json(&json!({ "email": email }))
            .send()
    };

    let first = forgot_password("198.51.100.1", "a@example.com")
        .await
        .expect("request");
    let other_client = forgot_password("198.51.100.2", "b@example.com")
        .await
        .expect("request");
    let same_client_other_body = forgot_password("198.51.100.1", "b@example.com")
        .await
        .expect("request");

    assert_eq!(first.status(), StatusCode::ACCEPTED);
    assert_eq!(
        other_client.status(),
        StatusCode::ACCEPTED,
        "another client's equal key is another key"
    );
    assert_eq!(
        same_client_other_body.status(),
        StatusCode::UNPROCESSABLE_ENTITY,
        "the same client reusing its key for another body"
    );
}

#[tokio::test]
async fn a_client_over_ipv6_is_limited_by_its_slash_64() {
    let app = limited(TestApp::builder().setting("server.host", "::1"))
        .spawn()
        .await;

    let first = register(&app, "::1", ("x-forwarded-for", "198.51.100.1")).await;
    let second = register(&app, "::1", ("x-forwarded-for", "198.51.100.2")).await;

    assert!(
        app.url("/").starts_with("http://[::1]:"),
        "{}",
        app.url("/")
    );
    assert_eq!(first, StatusCode::CREATED);
    assert_eq!(second, StatusCode::TOO_MANY_REQUESTS);
}
