//! The legal module, end to end: versioned documents, acceptances, and the optional enforcement
//! of acceptance, on SQLite or PostgreSQL.

use std::time::Duration;

use e2e::{TestApp, WithIdempotencyKey, assert_problem, is_replay};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use testing::database::TestDatabase;

const USER_AGENT: &str = "legal-e2e/1.0 (specification)";

/// A service that refuses callers who have not accepted the current `terms`.
async fn enforcing() -> TestApp {
    TestApp::builder()
        .setting("legal.require_current_acceptance", "true")
        .spawn()
        .await
}

fn versions_path(kind: &str) -> String {
    format!("/api/v1/legal/documents/{kind}/versions")
}

/// The administrator publishes `body` to `kind`'s versions.
async fn publish(app: &TestApp, kind: &str, body: &Value) -> reqwest::Response {
    app.request(Method::POST, &versions_path(kind))
        .bearer_auth(app.admin_token().await)
        .json(body)
        .send()
        .await
        .expect("request failed")
}

/// The administrator publishes a version of `kind` in effect at once; the version as answered.
async fn published(app: &TestApp, kind: &str) -> Value {
    let response = publish(app, kind, &json!({ "body": format!("# {kind}\n\nText.") })).await;
    assert_eq!(response.status(), StatusCode::CREATED);
    response.json().await.unwrap()
}

/// `subject` accepts `version` of `kind`.
async fn accept(app: &TestApp, subject: &str, kind: &str, version: i64) -> reqwest::Response {
    app.request(Method::POST, "/api/v1/legal/acceptances")
        .bearer_auth(app.token_for(subject))
        .header("user-agent", USER_AGENT)
        .json(&json!({ "kind": kind, "version": version }))
        .send()
        .await
        .expect("request failed")
}

async fn my_acceptances(app: &TestApp, subject: &str) -> Value {
    let response = app.get_as(subject, "/api/v1/legal/acceptances/me").await;
    assert_eq!(response.status(), StatusCode::OK);
    response.json().await.unwrap()
}

async fn current_documents(app: &TestApp) -> Vec<Value> {
    let response = app.get("/api/v1/legal/documents").await;
    assert_eq!(response.status(), StatusCode::OK);
    let page: Value = response.json().await.unwrap();
    page["items"].as_array().unwrap().clone()
}

fn in_a_day() -> String {
    let at = time::OffsetDateTime::now_utc() + time::Duration::days(1);
    at.format(&time::format_description::well_known::Rfc3339)
        .unwrap()
}

// Publishing

#[tokio::test]
async fn publishing_answers_201_with_version_1_and_its_location() {
    let app = TestApp::spawn().await;

    let response = publish(&app, "terms", &json!({ "body": "# Terms\n\nBe nice." })).await;

    assert_eq!(response.status(), StatusCode::CREATED);
    let location = response.headers()["location"].to_str().unwrap().to_owned();
    let version: Value = response.json().await.unwrap();
    assert_eq!(location, "/api/v1/legal/documents/terms/versions/1");
    assert_eq!(version["kind"], "terms");
    assert_eq!(version["version"], 1);
    assert_eq!(version["body"], "# Terms\n\nBe nice.");
    assert_eq!(version["effectiveAt"], version["publishedAt"]);
}

#[tokio::test]
async fn versions_are_numbered_per_kind_in_publication_order() {
    let app = TestApp::spawn().await;

    let first = published(&app, "terms").await;
    let second = published(&app, "terms").await;
    let other_kind = published(&app, "privacy").await;

    assert_eq!(first["version"], 1);
    assert_eq!(second["version"], 2);
    assert_eq!(other_kind["version"], 1);
}

#[tokio::test]
async fn concurrent_publishes_never_share_a_number() {
    let app = TestApp::spawn().await;

    let answers = futures_util::future::join_all((0..6).map(|n| {
        let app = &app;
        async move { publish(app, "terms", &json!({ "body": format!("text {n}") })).await }
    }))
    .await;

    let mut numbers = Vec::new();
    for answer in answers {
        assert_eq!(answer.status(), StatusCode::CREATED);
        numbers.push(
            answer.json::<Value>().await.unwrap()["version"]
                .as_i64()
                .unwrap(),
        );
    }
    numbers.sort_unstable();
    assert_eq!(numbers, vec![1, 2, 3, 4, 5, 6]);
}

#[tokio::test]
async fn a_publish_retried_with_its_key_publishes_one_version() {
    let app = TestApp::spawn().await;
    let admin = app.admin_token().await;
    let send = || {
        app.request(Method::POST, &versions_path("terms"))
            .bearer_auth(&admin)
            .idempotency_key("publish-terms-once")
            .json(&json!({ "body": "# Terms" }))
            .send()
    };

    let first = send().await.unwrap();
    let retry = send().await.unwrap();

    assert_eq!(first.status(), StatusCode::CREATED);
    assert_eq!(retry.status(), StatusCode::CREATED);
    assert!(is_replay(&retry));
    assert_eq!(
        retry.json::<Value>().await.unwrap(),
        first.json::<Value>().await.unwrap()
    );
    assert_eq!(published(&app, "terms").await["version"], 2);
}

#[tokio::test]
async fn only_administrators_publish() {
    let app = TestApp::spawn().await;
    let mallory = app.signed_in("mallory@example.com").await;

    let response = app
        .request(Method::POST, &versions_path("terms"))
        .bearer_auth(mallory)
        .json(&json!({ "body": "# Terms" }))
        .send()
        .await
        .expect("request failed");

    assert_problem(response, StatusCode::FORBIDDEN).await;
    assert!(current_documents(&app).await.is_empty());
}

#[tokio::test]
async fn publishing_without_a_token_is_a_401() {
    let app = TestApp::spawn().await;

    let response = app
        .request(Method::POST, &versions_path("terms"))
        .json(&json!({ "body": "# Terms" }))
        .send()
        .await
        .unwrap();

    assert_problem(response, StatusCode::UNAUTHORIZED).await;
}

#[tokio::test]
async fn bad_input_to_publish_is_a_400_and_publishes_nothing() {
    let app = TestApp::spawn().await;
    let long_kind = "t".repeat(41);

    let bad = [
        ("terms", json!({ "body": "   " })),
        ("terms", json!({ "body": "" })),
        ("terms", json!({ "body": 12 })),
        ("terms", json!({ "body": "a\u{0}b" })),
        ("terms", json!({ "body": "x".repeat(100_001) })),
        (
            "terms",
            json!({ "body": "# Terms", "effectiveAt": "tomorrow" }),
        ),
        ("Terms", json!({ "body": "# Terms" })),
        ("terms%20x", json!({ "body": "# Terms" })),
        (long_kind.as_str(), json!({ "body": "# Terms" })),
    ];
    for (kind, body) in bad {
        let response = publish(&app, kind, &body).await;
        assert_problem(response, StatusCode::BAD_REQUEST).await;
    }

    assert!(current_documents(&app).await.is_empty());
    assert_eq!(published(&app, "terms").await["version"], 1);
}

// Reading

#[tokio::test]
async fn a_published_version_is_readable_without_authentication() {
    let app = TestApp::spawn().await;
    let version = published(&app, "terms").await;

    let response = app.get("/api/v1/legal/documents/terms/versions/1").await;

    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.json::<Value>().await.unwrap(), version);
}

#[tokio::test]
async fn an_unknown_version_is_a_404_problem() {
    let app = TestApp::spawn().await;
    published(&app, "terms").await;

    for path in [
        "/api/v1/legal/documents/terms/versions/2",
        "/api/v1/legal/documents/privacy/versions/1",
    ] {
        assert_problem(app.get(path).await, StatusCode::NOT_FOUND).await;
    }
}

#[tokio::test]
async fn the_document_list_shows_the_current_version_of_each_kind() {
    let app = TestApp::spawn().await;
    published(&app, "terms").await;
    let terms = published(&app, "terms").await;
    let privacy = published(&app, "privacy").await;

    let documents = current_documents(&app).await;

    assert_eq!(documents, vec![privacy, terms]);
}

#[tokio::test]
async fn a_version_that_takes_effect_later_is_not_current_until_then() {
    let app = TestApp::spawn().await;
    let now = published(&app, "terms").await;
    let later = publish(
        &app,
        "terms",
        &json!({ "body": "# Terms 2", "effectiveAt": in_a_day() }),
    )
    .await;
    assert_eq!(later.status(), StatusCode::CREATED);

    let documents = current_documents(&app).await;

    assert_eq!(documents, vec![now]);
    let upcoming = app.get("/api/v1/legal/documents/terms/versions/2").await;
    assert_eq!(upcoming.status(), StatusCode::OK);
}

// Accepting

#[tokio::test]
async fn accepting_the_current_version_records_who_what_when_and_from_where() {
    let app = TestApp::spawn().await;
    published(&app, "terms").await;

    let response = accept(&app, "alice", "terms", 1).await;

    assert_eq!(response.status(), StatusCode::CREATED);
    let request_id = response.headers()["x-request-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let record: Value = response.json().await.unwrap();
    assert_eq!(record["userId"], "alice");
    assert_eq!(record["kind"], "terms");
    assert_eq!(record["version"], 1);
    assert_eq!(record["clientAddress"], "127.0.0.1");
    assert_eq!(record["userAgent"], USER_AGENT);
    assert_eq!(record["requestId"], request_id.as_str());
    assert!(record["acceptedAt"].is_string(), "{record}");
    assert!(record["id"].is_string(), "{record}");
}

#[tokio::test]
async fn accepting_again_without_a_key_answers_200_with_the_first_record() {
    let app = TestApp::spawn().await;
    published(&app, "terms").await;
    let first: Value = accept(&app, "alice", "terms", 1)
        .await
        .json()
        .await
        .unwrap();

    let again = accept(&app, "alice", "terms", 1).await;

    assert_eq!(again.status(), StatusCode::OK);
    assert_eq!(again.json::<Value>().await.unwrap(), first);
    assert_eq!(
        my_acceptances(&app, "alice").await["accepted"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[tokio::test]
async fn concurrent_first_acceptances_make_one_record() {
    let app = TestApp::spawn().await;
    published(&app, "terms").await;

    let (one, two) = tokio::join!(
        accept(&app, "alice", "terms", 1),
        accept(&app, "alice", "terms", 1)
    );

    let mut statuses = [one.status(), two.status()];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::OK, StatusCode::CREATED]);
    let (one, two): (Value, Value) = (one.json().await.unwrap(), two.json().await.unwrap());
    assert_eq!(one["id"], two["id"]);
    let mine = my_acceptances(&app, "alice").await;
    assert_eq!(mine["accepted"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn an_acceptance_retried_with_its_key_is_replayed() {
    let app = TestApp::spawn().await;
    published(&app, "terms").await;
    let send = || {
        app.request(Method::POST, "/api/v1/legal/acceptances")
            .bearer_auth(app.token_for("alice"))
            .idempotency_key("accept-terms-1")
            .json(&json!({ "kind": "terms", "version": 1 }))
            .send()
    };

    let first = send().await.unwrap();
    let retry = send().await.unwrap();

    assert_eq!(first.status(), StatusCode::CREATED);
    assert_eq!(retry.status(), StatusCode::CREATED);
    assert!(is_replay(&retry));
}

#[tokio::test]
async fn accepting_a_superseded_version_is_a_409_problem() {
    let app = TestApp::spawn().await;
    published(&app, "terms").await;
    published(&app, "terms").await;

    let response = accept(&app, "alice", "terms", 1).await;

    let problem = assert_problem(response, StatusCode::CONFLICT).await;
    assert!(
        problem["detail"].as_str().unwrap().contains("superseded"),
        "{problem}"
    );
}

#[tokio::test]
async fn accepting_a_version_not_yet_in_effect_is_a_409_problem() {
    let app = TestApp::spawn().await;
    publish(
        &app,
        "terms",
        &json!({ "body": "# Terms", "effectiveAt": in_a_day() }),
    )
    .await;

    let response = accept(&app, "alice", "terms", 1).await;

    assert_problem(response, StatusCode::CONFLICT).await;
}

#[tokio::test]
async fn accepting_an_unknown_version_is_a_404_problem() {
    let app = TestApp::spawn().await;
    published(&app, "terms").await;

    for (kind, version) in [("terms", 2), ("privacy", 1)] {
        let response = accept(&app, "alice", kind, version).await;
        assert_problem(response, StatusCode::NOT_FOUND).await;
    }
}

#[tokio::test]
async fn bad_input_to_accept_is_a_400_and_records_nothing() {
    let app = TestApp::spawn().await;
    published(&app, "terms").await;

    for body in [
        json!({ "kind": "Terms", "version": 1 }),
        json!({ "kind": "terms", "version": 0 }),
        json!({ "kind": "terms", "version": "1" }),
        json!({ "kind": 1, "version": 1 }),
        json!({ "kind": "terms" }),
        json!({ "kind": "ter\u{0}ms", "version": 1 }),
    ] {
        let response = app
            .send_json_as("alice", Method::POST, "/api/v1/legal/acceptances", &body)
            .await;
        assert_problem(response, StatusCode::BAD_REQUEST).await;
    }

    assert!(
        my_acceptances(&app, "alice").await["accepted"]
            .as_array()
            .unwrap()
            .is_empty()
    );
}

#[tokio::test]
async fn accepting_needs_a_caller() {
    let app = TestApp::spawn().await;
    published(&app, "terms").await;

    let response = app
        .request(Method::POST, "/api/v1/legal/acceptances")
        .json(&json!({ "kind": "terms", "version": 1 }))
        .send()
        .await
        .unwrap();

    assert_problem(response, StatusCode::UNAUTHORIZED).await;
}

#[tokio::test]
async fn my_acceptances_show_what_was_accepted_and_what_is_pending() {
    let app = TestApp::spawn().await;
    published(&app, "terms").await;
    published(&app, "privacy").await;
    accept(&app, "alice", "terms", 1).await;

    let mine = my_acceptances(&app, "alice").await;

    let accepted = mine["accepted"].as_array().unwrap();
    assert_eq!(accepted.len(), 1);
    assert_eq!(accepted[0]["kind"], "terms");
    let pending = mine["pending"].as_array().unwrap();
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0]["kind"], "privacy");
    assert_eq!(pending[0]["version"], 1);
    assert_eq!(
        pending[0]["required"], false,
        "nothing is enforced by default"
    );
}

#[tokio::test]
async fn a_new_version_is_pending_again_for_those_who_accepted_the_previous_one() {
    let app = enforcing().await;
    published(&app, "terms").await;
    accept(&app, "alice", "terms", 1).await;
    published(&app, "terms").await;

    let mine = my_acceptances(&app, "alice").await;

    let pending = mine["pending"].as_array().unwrap();
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0]["version"], 2);
    assert_eq!(pending[0]["required"], true);
}

// Enforcement

#[tokio::test]
async fn without_enforcement_a_caller_who_accepted_nothing_is_served() {
    let app = TestApp::spawn().await;
    published(&app, "terms").await;

    let response = app.get_as("alice", "/api/v1/things").await;

    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn with_enforcement_a_caller_who_has_not_accepted_gets_a_403_naming_what_to_accept() {
    let app = enforcing().await;
    published(&app, "terms").await;

    let response = app.get_as("alice", "/api/v1/things").await;

    let problem = assert_problem(response, StatusCode::FORBIDDEN).await;
    assert_eq!(problem["type"], "/problems/legal-acceptance-required");
    let detail = problem["detail"].as_str().unwrap();
    assert!(detail.contains("terms version 1"), "{detail}");
}

#[tokio::test]
async fn with_enforcement_a_refused_write_changes_nothing() {
    let app = enforcing().await;
    published(&app, "terms").await;

    let refused = app
        .send_json_as(
            "alice",
            Method::POST,
            "/api/v1/things",
            &json!({ "name": "lamp" }),
        )
        .await;
    accept(&app, "alice", "terms", 1).await;

    assert_problem(refused, StatusCode::FORBIDDEN).await;
    let things: Value = app
        .get_as("alice", "/api/v1/things")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(things["total"], 0);
}

#[tokio::test]
async fn with_enforcement_accepting_the_current_version_lets_the_caller_through() {
    let app = enforcing().await;
    published(&app, "terms").await;
    assert_eq!(
        app.get_as("alice", "/api/v1/things").await.status(),
        StatusCode::FORBIDDEN
    );

    accept(&app, "alice", "terms", 1).await;

    assert_eq!(
        app.get_as("alice", "/api/v1/things").await.status(),
        StatusCode::OK
    );
}

#[tokio::test]
async fn with_enforcement_a_new_version_is_required_as_soon_as_it_is_published() {
    let app = enforcing().await;
    published(&app, "terms").await;
    accept(&app, "alice", "terms", 1).await;
    assert_eq!(
        app.get_as("alice", "/api/v1/things").await.status(),
        StatusCode::OK
    );

    published(&app, "terms").await;

    let response = app.get_as("alice", "/api/v1/things").await;
    let problem = assert_problem(response, StatusCode::FORBIDDEN).await;
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("terms version 2"),
        "{problem}"
    );
}

#[tokio::test]
async fn with_enforcement_a_version_is_required_once_it_takes_effect() {
    let app = enforcing().await;
    published(&app, "terms").await;
    accept(&app, "alice", "terms", 1).await;
    let soon = time::OffsetDateTime::now_utc() + time::Duration::milliseconds(1_500);
    let soon = soon
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    publish(
        &app,
        "terms",
        &json!({ "body": "# Terms 2", "effectiveAt": soon }),
    )
    .await;
    assert_eq!(
        app.get_as("alice", "/api/v1/things").await.status(),
        StatusCode::OK
    );

    tokio::time::sleep(Duration::from_millis(1_700)).await;

    let response = app.get_as("alice", "/api/v1/things").await;
    assert_problem(response, StatusCode::FORBIDDEN).await;
}

#[tokio::test]
async fn with_enforcement_the_legal_and_auth_apis_health_and_docs_stay_open() {
    let app = enforcing().await;
    published(&app, "terms").await;

    for path in [
        "/api/v1/legal/acceptances/me",
        "/api/v1/legal/documents",
        "/health/ready",
        "/openapi.json",
        "/docs/",
    ] {
        let response = app.get_as("alice", path).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
    }
    // A test token has no session in the database: /auth answers 401, not the legal 403.
    let me = app.get_as("alice", "/api/v1/auth/me").await;
    assert_problem(me, StatusCode::UNAUTHORIZED).await;
}

#[tokio::test]
async fn with_enforcement_anonymous_requests_get_their_usual_401() {
    let app = enforcing().await;
    published(&app, "terms").await;

    let response = app.get("/api/v1/things").await;

    assert_problem(response, StatusCode::UNAUTHORIZED).await;
}

#[tokio::test]
async fn with_enforcement_only_the_required_kinds_must_be_accepted() {
    let app = enforcing().await;
    published(&app, "terms").await;
    published(&app, "privacy").await;

    accept(&app, "alice", "terms", 1).await;

    assert_eq!(
        app.get_as("alice", "/api/v1/things").await.status(),
        StatusCode::OK
    );
}

#[tokio::test]
async fn with_enforcement_every_required_kind_must_be_accepted() {
    let app = TestApp::builder()
        .setting("legal.require_current_acceptance", "true")
        .setting("legal.required_kinds", "terms,privacy")
        .spawn()
        .await;
    published(&app, "terms").await;
    published(&app, "privacy").await;

    accept(&app, "alice", "terms", 1).await;

    let response = app.get_as("alice", "/api/v1/things").await;
    let problem = assert_problem(response, StatusCode::FORBIDDEN).await;
    let detail = problem["detail"].as_str().unwrap();
    assert!(detail.contains("privacy version 1"), "{detail}");
    assert!(!detail.contains("terms"), "{detail}");
}

#[tokio::test]
async fn with_enforcement_nothing_is_required_before_a_version_is_published() {
    let app = enforcing().await;

    let response = app.get_as("alice", "/api/v1/things").await;

    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn with_enforcement_a_version_published_on_another_instance_is_required_within_the_cache_ttl()
{
    let database = TestDatabase::create().await;
    let instance = || {
        TestApp::builder()
            .setting("database.url", database.url())
            .setting("legal.require_current_acceptance", "true")
            .setting("legal.cache_ttl", "300ms")
            .spawn()
    };
    let (publisher, other) = (instance().await, instance().await);
    published(&publisher, "terms").await;
    accept(&other, "alice", "terms", 1).await;
    assert_eq!(
        other.get_as("alice", "/api/v1/things").await.status(),
        StatusCode::OK
    );

    published(&publisher, "terms").await;
    tokio::time::sleep(Duration::from_millis(400)).await;

    let response = other.get_as("alice", "/api/v1/things").await;
    assert_problem(response, StatusCode::FORBIDDEN).await;
}

// Settings

#[tokio::test]
async fn a_required_kind_that_is_not_a_slug_stops_start_up_naming_the_key() {
    let error = TestApp::builder()
        .setting("legal.required_kinds", "Terms of Service")
        .start_up_error()
        .await;

    assert!(error.contains("legal.required_kinds"), "{error}");
}

#[tokio::test]
async fn enforcing_with_no_required_kind_stops_start_up_naming_the_key() {
    let error = TestApp::builder()
        .setting("legal.require_current_acceptance", "true")
        .setting("legal.required_kinds", "")
        .start_up_error()
        .await;

    assert!(error.contains("legal.required_kinds"), "{error}");
}

#[tokio::test]
async fn an_unknown_legal_setting_stops_start_up_naming_it() {
    let error = TestApp::builder()
        .setting("legal.require_acceptance", "true")
        .start_up_error()
        .await;

    assert!(error.contains("legal"), "{error}");
    assert!(error.contains("require_acceptance"), "{error}");
}

/// A keyed acceptance holds one connection at a time: a service with a single one (an in-memory
/// SQLite database has no more) still records it, and a busy pool cannot deadlock on it.
#[tokio::test]
async fn a_keyed_acceptance_needs_one_database_connection() {
    let app = TestApp::builder()
        .setting("database.max_connections", "1")
        .spawn()
        .await;
    published(&app, "terms").await;

    let accepted = app
        .request(Method::POST, "/api/v1/legal/acceptances")
        .bearer_auth(app.token_for("alice"))
        .idempotency_key("k1")
        .json(&json!({ "kind": "terms", "version": 1 }))
        .send()
        .await
        .expect("request failed");

    assert_eq!(accepted.status(), StatusCode::CREATED);
}

/// RFC 3339 to Unix milliseconds, as the API writes its times.
fn unix_ms(rfc3339: &Value) -> i128 {
    let text = rfc3339.as_str().expect("a time is a string");
    let at = time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339)
        .expect("an RFC 3339 time");
    at.unix_timestamp_nanos() / 1_000_000
}

#[tokio::test]
async fn no_acceptance_of_a_version_is_recorded_once_a_newer_one_is_published() {
    let app = TestApp::spawn().await;
    for round in 0..5 {
        let kind = format!("terms-{round}");
        let first = published(&app, &kind).await;

        // Twenty users accept version 1 while version 2 is published.
        let users: Vec<String> = (0..20).map(|n| format!("user-{round}-{n}")).collect();
        let accepts =
            futures_util::future::join_all(users.iter().map(|user| accept(&app, user, &kind, 1)));
        let (answers, second) = tokio::join!(accepts, published(&app, &kind));

        assert_eq!(first["version"], 1);
        let superseded_at = unix_ms(&second["effectiveAt"]);
        for answer in answers {
            match answer.status() {
                StatusCode::CREATED => {
                    let record: Value = answer.json().await.unwrap();
                    assert!(
                        unix_ms(&record["acceptedAt"]) < superseded_at,
                        "round {round}: version 1 accepted at {} although version 2 took \
                         effect at {}",
                        record["acceptedAt"],
                        second["effectiveAt"]
                    );
                }
                StatusCode::CONFLICT => {}
                other => panic!("round {round}: an acceptance answered {other}"),
            }
        }
    }
}
