//! Two duplicates never both execute, and a slow or crashed original is handled.

use std::time::Duration;

use e2e::{RedisChoice, TestApp, WithIdempotencyKey, assert_problem, is_replay};
use poem_idempotency::key::{ClientKey, Fingerprint, ScopeKey};
use reqwest::{Method, StatusCode};
use serde_json::json;

use super::{COUNTED, spawn, spawn_default};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicate_that_arrives_while_the_first_runs_waits_and_gets_its_response() {
    const HANDLER: Duration = Duration::from_millis(400);
    const DUPLICATE_AFTER: Duration = Duration::from_millis(100);
    let (app, executions) = spawn_default().await;
    let send = || {
        app.request(
            Method::POST,
            &format!("{COUNTED}?sleepMs={}", HANDLER.as_millis()),
        )
        .idempotency_key("k")
        .json(&json!({}))
        .send()
    };

    let (first, (duplicate, waited)) = tokio::join!(send(), async {
        tokio::time::sleep(DUPLICATE_AFTER).await;
        let sent = std::time::Instant::now();
        let duplicate = send().await;
        (duplicate, sent.elapsed())
    });

    let (first, duplicate) = (first.unwrap(), duplicate.unwrap());
    assert_eq!(duplicate.status(), StatusCode::CREATED);
    assert!(is_replay(&duplicate));
    // It waited for the first to finish rather than finding a response already there (the
    // lower bound leaves room for the duplicate being sent a little late).
    assert!(
        waited >= HANDLER - DUPLICATE_AFTER - Duration::from_millis(100),
        "the duplicate answered after {waited:?}: it did not wait for the original"
    );
    assert_eq!(duplicate.text().await.unwrap(), first.text().await.unwrap());
    assert_eq!(executions.count(), 1);
}

#[tokio::test]
async fn a_duplicate_still_waiting_at_the_end_of_lock_wait_gets_a_409_with_retry_after() {
    let (app, executions) = spawn(
        TestApp::builder()
            .setting("idempotency.lock_wait", "150ms")
            .setting("redis.response_timeout", "150ms"),
    )
    .await;
    let send = || {
        app.request(Method::POST, &format!("{COUNTED}?sleepMs=800"))
            .idempotency_key("k")
            .json(&json!({}))
            .send()
    };

    let (first, duplicate) = tokio::join!(send(), async {
        tokio::time::sleep(Duration::from_millis(50)).await;
        send().await
    });

    assert_eq!(first.unwrap().status(), StatusCode::CREATED);
    let duplicate = duplicate.unwrap();
    assert_eq!(duplicate.headers()["retry-after"], "1");
    assert_problem(duplicate, StatusCode::CONFLICT).await;
    assert_eq!(executions.count(), 1);
    assert_eq!(app.idempotency.metrics().conflict, 1);
}

#[tokio::test]
async fn a_handler_slower_than_the_lease_keeps_its_exclusion() {
    let (app, executions) = spawn(
        TestApp::builder()
            .redis(RedisChoice::Shared)
            .setting("idempotency.lock_ttl", "600ms")
            .setting("idempotency.lock_wait", "100ms")
            // A Redis answer may not take longer than a duplicate waits (checked at start-up).
            .setting("redis.response_timeout", "100ms"),
    )
    .await;
    let send = || {
        app.request(Method::POST, &format!("{COUNTED}?sleepMs=2400"))
            .idempotency_key("k")
            .json(&json!({}))
            .send()
    };

    // The duplicate arrives after three leases' worth of time: only renewal keeps it out.
    let (first, duplicate) = tokio::join!(send(), async {
        tokio::time::sleep(Duration::from_millis(1800)).await;
        send().await
    });

    assert_eq!(first.unwrap().status(), StatusCode::CREATED);
    assert_problem(duplicate.unwrap(), StatusCode::CONFLICT).await;
    assert_eq!(executions.count(), 1);
    assert_eq!(app.idempotency.metrics().lease_lost, 0);
}

#[tokio::test]
async fn a_crashed_claim_frees_its_key_after_the_lease_not_after_the_retention() {
    let (app, executions) = spawn(
        TestApp::builder()
            .redis(RedisChoice::Shared)
            .setting("idempotency.lock_ttl", "1s")
            .setting("idempotency.lock_wait", "50ms")
            // A Redis answer may not take longer than a duplicate waits (checked at start-up).
            .setting("redis.response_timeout", "50ms"),
    )
    .await;
    // An instance claims the key and dies: nobody completes or releases its claim.
    let body = serde_json::to_vec(&json!({})).unwrap();
    let scope = ScopeKey::derive(
        "anon:127.0.0.1",
        "POST",
        COUNTED,
        &ClientKey::parse("k").unwrap().unwrap(),
    );
    let fingerprint = Fingerprint::of(&body, Some("application/json"), &format!("{COUNTED}?"));
    app.idempotency
        .store()
        .claim(&scope, &fingerprint, Duration::from_secs(1))
        .await
        .unwrap();
    let send = || {
        app.request(Method::POST, COUNTED)
            .idempotency_key("k")
            .json(&json!({}))
            .send()
    };

    let while_claimed = send().await.unwrap();
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    let after_lease = send().await.unwrap();

    assert_eq!(while_claimed.status(), StatusCode::CONFLICT);
    assert_eq!(after_lease.status(), StatusCode::CREATED);
    assert_eq!(executions.count(), 1);
}

#[tokio::test]
async fn a_guard_that_lost_its_lease_does_not_overwrite_its_successors_record() {
    const HELD: &str = "/api/v1/fixtures/idem/held";
    let (app, executions) = spawn(
        TestApp::builder()
            .redis(RedisChoice::Shared)
            .setting("idempotency.lock_ttl", "300ms")
            .setting("idempotency.lock_wait", "50ms")
            // A Redis answer may not take longer than a duplicate waits (checked at start-up).
            .setting("redis.response_timeout", "50ms"),
    )
    .await;
    let send = || {
        app.request(Method::POST, HELD)
            .idempotency_key("k")
            .json(&json!({}))
            .send()
    };
    // The first execution runs and is held; then its claim vanishes, as if its lease had expired
    // while its instance stalled.
    let stale = tokio::spawn(send());
    tokio::time::timeout(Duration::from_secs(10), executions.until(1))
        .await
        .expect("the first execution started");
    assert_eq!(
        app.lose_idempotency_records().await,
        1,
        "the claim vanishes"
    );

    // A successor claims the key, executes and stores its answer while the stale one is held;
    // only then does the stale one finish and try to store its own.
    let successor = send().await.unwrap();
    let successor_body = successor.text().await.unwrap();
    executions.release_first();
    let stale = stale.await.unwrap().unwrap();
    let stale_body = stale.text().await.unwrap();
    let later = send().await.unwrap();

    assert!(is_replay(&later));
    let later_body = later.text().await.unwrap();
    assert_eq!(later_body, successor_body, "the successor's record stands");
    assert_ne!(later_body, stale_body, "the stale answer is never replayed");
    assert_eq!(executions.count(), 2);
}
