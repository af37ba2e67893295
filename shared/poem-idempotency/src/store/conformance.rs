//! The semantics every backend must have, as tests:
//! [`store_conformance_suite!`](crate::store_conformance_suite) runs each of them on a backend
//! (the `conformance` feature offers them to other crates). Each test gets a fresh, isolated
//! store.

use std::time::Duration;

use bytes::Bytes;
use tokio::time::sleep;

use super::{Claim, LeaseToken, Store, StoredResponse};
use crate::key::{ClientKey, Fingerprint, ScopeKey};

const LEASE: Duration = Duration::from_secs(30);
const RETENTION: Duration = Duration::from_secs(60);
/// Short enough to wait out in a test; long enough that Redis (millisecond expiry) and a
/// busy CI machine cannot expire it between two consecutive calls.
const SHORT: Duration = Duration::from_millis(150);
/// Comfortably past `SHORT`.
const PAST_SHORT: Duration = Duration::from_millis(400);

fn scope(client_key: &str) -> ScopeKey {
    let client_key = ClientKey::parse(client_key)
        .expect("valid key")
        .expect("non-blank key");
    ScopeKey::derive("subject-1", "POST", "/orders", &client_key)
}

fn fp(body: &str) -> Fingerprint {
    Fingerprint::of(body.as_bytes(), Some("application/json"), "")
}

fn response(body: &'static [u8]) -> StoredResponse {
    StoredResponse {
        status: 201,
        content_type: Some("application/json".into()),
        location: Some("/orders/42".into()),
        etag: Some("\"v1\"".into()),
        body: Bytes::from_static(body),
    }
}

async fn acquire(store: &Store, key: &ScopeKey, fingerprint: &Fingerprint) -> LeaseToken {
    acquire_for(store, key, fingerprint, LEASE).await
}

async fn acquire_for(
    store: &Store,
    key: &ScopeKey,
    fingerprint: &Fingerprint,
    lease: Duration,
) -> LeaseToken {
    match store.claim(key, fingerprint, lease).await.expect("claim") {
        Claim::Acquired(token) => token,
        other => panic!("expected Acquired, got {other:?}"),
    }
}

async fn claim(store: &Store, key: &ScopeKey, fingerprint: &Fingerprint) -> Claim {
    store.claim(key, fingerprint, LEASE).await.expect("claim")
}

/// Completes `key`'s claim with `stored`, kept for [`RETENTION`]; whether the store kept it.
async fn complete(
    store: &Store,
    key: &ScopeKey,
    token: &LeaseToken,
    stored: &StoredResponse,
) -> bool {
    store
        .complete(key, token, stored, RETENTION)
        .await
        .expect("complete")
}

pub async fn claim_on_empty_acquires(store: Store) {
    let claim = claim(&store, &scope("k"), &fp("{}")).await;
    assert!(matches!(claim, Claim::Acquired(_)), "{claim:?}");
}

pub async fn second_claim_with_same_fingerprint_is_in_flight(store: Store) {
    let (key, fp) = (scope("k"), fp(r#"{"a":1}"#));
    acquire(&store, &key, &fp).await;
    assert_eq!(claim(&store, &key, &fp).await, Claim::InFlight);
    assert_eq!(claim(&store, &key, &fp).await, Claim::InFlight);
}

pub async fn different_fingerprint_is_mismatch_while_in_progress(store: Store) {
    let key = scope("k");
    acquire(&store, &key, &fp(r#"{"a":1}"#)).await;
    assert_eq!(
        claim(&store, &key, &fp(r#"{"a":2}"#)).await,
        Claim::Mismatch
    );
}

pub async fn different_fingerprint_is_mismatch_after_completion(store: Store) {
    let key = scope("k");
    let token = acquire(&store, &key, &fp(r#"{"a":1}"#)).await;
    assert!(complete(&store, &key, &token, &response(b"{}")).await);
    assert_eq!(
        claim(&store, &key, &fp(r#"{"a":2}"#)).await,
        Claim::Mismatch
    );
}

pub async fn completed_record_replays_every_field(store: Store) {
    let (key, fp) = (scope("k"), fp("{}"));
    // Not UTF-8, with NULs and every byte value: the body must survive byte for byte.
    let binary: Vec<u8> = (0..=255u8).chain([0, 0xFF, 0xC3, 0x28]).collect();
    let stored = StoredResponse {
        body: Bytes::from(binary),
        ..response(b"")
    };
    let token = acquire(&store, &key, &fp).await;
    assert!(complete(&store, &key, &token, &stored).await);
    assert_eq!(
        claim(&store, &key, &fp).await,
        Claim::Completed(stored.clone())
    );
    // Replaying does not consume the record.
    assert_eq!(claim(&store, &key, &fp).await, Claim::Completed(stored));
}

pub async fn completed_record_replays_empty_body_and_absent_headers(store: Store) {
    let (key, fp) = (scope("k"), fp(""));
    let stored = StoredResponse {
        status: 204,
        content_type: None,
        location: None,
        etag: None,
        body: Bytes::new(),
    };
    let token = acquire(&store, &key, &fp).await;
    assert!(complete(&store, &key, &token, &stored).await);
    assert_eq!(claim(&store, &key, &fp).await, Claim::Completed(stored));
}

pub async fn empty_header_values_are_not_confused_with_absent_ones(store: Store) {
    let (key, fp) = (scope("k"), fp(""));
    let stored = StoredResponse {
        status: 200,
        content_type: Some(String::new()),
        location: None,
        etag: Some(String::new()),
        body: Bytes::new(),
    };
    let token = acquire(&store, &key, &fp).await;
    assert!(complete(&store, &key, &token, &stored).await);
    assert_eq!(claim(&store, &key, &fp).await, Claim::Completed(stored));
}

pub async fn stale_token_cannot_complete(store: Store) {
    let (key, fp) = (scope("k"), fp("{}"));
    let stale = acquire_for(&store, &key, &fp, SHORT).await;
    sleep(PAST_SHORT).await;
    let current = acquire(&store, &key, &fp).await;

    assert!(!complete(&store, &key, &stale, &response(b"stale")).await);
    // Nothing was written: the record is still the second claimant's, in progress.
    assert_eq!(claim(&store, &key, &fp).await, Claim::InFlight);
    assert!(!store.release(&key, &stale).await.expect("release"));
    assert!(!store.renew(&key, &stale, LEASE).await.expect("renew"));
    assert_eq!(claim(&store, &key, &fp).await, Claim::InFlight);

    assert!(complete(&store, &key, &current, &response(b"current")).await);
    assert_eq!(
        claim(&store, &key, &fp).await,
        Claim::Completed(response(b"current"))
    );
}

pub async fn complete_after_the_record_vanished_writes_nothing(store: Store) {
    let (key, fp) = (scope("k"), fp("{}"));
    let token = acquire_for(&store, &key, &fp, SHORT).await;
    sleep(PAST_SHORT).await;
    assert!(!complete(&store, &key, &token, &response(b"late")).await);
    assert!(matches!(claim(&store, &key, &fp).await, Claim::Acquired(_)));
}

pub async fn complete_twice_is_refused(store: Store) {
    let (key, fp) = (scope("k"), fp("{}"));
    let token = acquire(&store, &key, &fp).await;
    let first = response(b"first");
    assert!(complete(&store, &key, &token, &first).await);
    // The token is spent once the record is completed: it cannot rewrite the response.
    assert!(!complete(&store, &key, &token, &response(b"second")).await);
    assert_eq!(claim(&store, &key, &fp).await, Claim::Completed(first));
}

pub async fn release_by_owner_lets_next_claim_acquire(store: Store) {
    let (key, fp) = (scope("k"), fp("{}"));
    let token = acquire(&store, &key, &fp).await;
    assert!(store.release(&key, &token).await.expect("release"));
    let next = acquire(&store, &key, &fp).await;
    assert_ne!(next, token);
    // The old token is dead even though the key is claimed again.
    assert!(!store.release(&key, &token).await.expect("release"));
}

pub async fn release_with_foreign_token_does_nothing(store: Store) {
    let (key, fp) = (scope("k"), fp("{}"));
    acquire(&store, &key, &fp).await;
    let foreign = LeaseToken::generate();
    assert!(!store.release(&key, &foreign).await.expect("release"));
    assert_eq!(claim(&store, &key, &fp).await, Claim::InFlight);
    // Nor on an absent key.
    assert!(
        !store
            .release(&scope("other"), &foreign)
            .await
            .expect("release")
    );
}

pub async fn release_after_completion_does_nothing(store: Store) {
    let (key, fp) = (scope("k"), fp("{}"));
    let token = acquire(&store, &key, &fp).await;
    assert!(complete(&store, &key, &token, &response(b"done")).await);
    assert!(!store.release(&key, &token).await.expect("release"));
    assert_eq!(
        claim(&store, &key, &fp).await,
        Claim::Completed(response(b"done"))
    );
}

pub async fn renew_extends_the_lease(store: Store) {
    let (key, fp) = (scope("k"), fp("{}"));
    let token = acquire_for(&store, &key, &fp, SHORT).await;
    assert!(store.renew(&key, &token, LEASE).await.expect("renew"));
    sleep(PAST_SHORT).await;
    assert_eq!(claim(&store, &key, &fp).await, Claim::InFlight);
    // And the renewed claim can still be completed.
    assert!(complete(&store, &key, &token, &response(b"ok")).await);
}

pub async fn renew_after_losing_the_lease_fails(store: Store) {
    let (key, fp) = (scope("k"), fp("{}"));
    let token = acquire_for(&store, &key, &fp, SHORT).await;
    sleep(PAST_SHORT).await;
    // Lost to expiry alone...
    assert!(!store.renew(&key, &token, LEASE).await.expect("renew"));
    // ...and to a new claimant, whose lease the renewal must not extend.
    let other = acquire_for(&store, &key, &fp, SHORT).await;
    assert!(!store.renew(&key, &token, LEASE).await.expect("renew"));
    sleep(PAST_SHORT).await;
    assert!(matches!(claim(&store, &key, &fp).await, Claim::Acquired(_)));
    assert!(!store.renew(&key, &other, LEASE).await.expect("renew"));
}

pub async fn renew_of_a_foreign_or_completed_record_fails(store: Store) {
    let (key, fp) = (scope("k"), fp("{}"));
    let token = acquire(&store, &key, &fp).await;
    assert!(
        !store
            .renew(&key, &LeaseToken::generate(), LEASE)
            .await
            .expect("renew")
    );
    assert!(complete(&store, &key, &token, &response(b"done")).await);
    assert!(!store.renew(&key, &token, LEASE).await.expect("renew"));
}

pub async fn in_progress_record_expires_after_the_lease(store: Store) {
    let (key, fp) = (scope("k"), fp("{}"));
    acquire_for(&store, &key, &fp, SHORT).await;
    assert_eq!(claim(&store, &key, &fp).await, Claim::InFlight);
    sleep(PAST_SHORT).await;
    assert!(matches!(claim(&store, &key, &fp).await, Claim::Acquired(_)));
}

pub async fn completed_record_expires_after_retention(store: Store) {
    let (key, fp) = (scope("k"), fp("{}"));
    let token = acquire(&store, &key, &fp).await;
    assert!(
        store
            .complete(&key, &token, &response(b"done"), SHORT)
            .await
            .expect("complete")
    );
    assert_eq!(
        claim(&store, &key, &fp).await,
        Claim::Completed(response(b"done"))
    );
    sleep(PAST_SHORT).await;
    // Expired: the key is free again, even for a different payload.
    assert!(matches!(
        claim(&store, &key, &self::fp(r#"{"other":true}"#)).await,
        Claim::Acquired(_)
    ));
}

pub async fn keys_are_independent(store: Store) {
    let fp = fp("{}");
    let token = acquire(&store, &scope("a"), &fp).await;
    acquire(&store, &scope("b"), &fp).await;
    assert!(complete(&store, &scope("a"), &token, &response(b"a")).await);
    // A token is bound to its key: `a`'s token cannot act on `b`.
    assert!(!store.release(&scope("b"), &token).await.expect("release"));
    assert_eq!(
        claim(&store, &scope("a"), &fp).await,
        Claim::Completed(response(b"a"))
    );
    assert_eq!(claim(&store, &scope("b"), &fp).await, Claim::InFlight);
}

/// Run it on a multi-threaded runtime too (the backends do): only then do the claims really
/// run at the same time, which is what a check-then-insert race would need to show.
pub async fn concurrent_claims_acquire_exactly_once(store: Store) {
    const CLAIMS: usize = 32;
    let (key, fp) = (scope("k"), fp("{}"));
    // Every task claims the moment the last one is ready, not one after another as spawned.
    let start = std::sync::Arc::new(tokio::sync::Barrier::new(CLAIMS));
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..CLAIMS {
        let (store, start) = (store.clone(), std::sync::Arc::clone(&start));
        tasks.spawn(async move {
            start.wait().await;
            store.claim(&key, &fp, LEASE).await.expect("claim")
        });
    }
    let claims = tasks.join_all().await;
    let acquired = claims
        .iter()
        .filter(|claim| matches!(claim, Claim::Acquired(_)))
        .count();
    assert_eq!(acquired, 1, "{claims:?}");
    assert_eq!(
        claims
            .iter()
            .filter(|claim| **claim == Claim::InFlight)
            .count(),
        31,
        "{claims:?}"
    );
}

pub async fn operations_counts_every_call(store: Store) {
    assert_eq!(store.operations(), 0);
    let clone = store.clone();
    let (key, fp) = (scope("k"), fp("{}"));
    let token = acquire(&clone, &key, &fp).await;
    assert!(clone.renew(&key, &token, LEASE).await.expect("renew"));
    assert!(complete(&store, &key, &token, &response(b"x")).await);
    assert!(!store.release(&key, &token).await.expect("release"));
    claim(&store, &key, &fp).await;
    // Shared by clones, and counting calls whatever their outcome.
    assert_eq!(store.operations(), 5);
    assert_eq!(clone.operations(), 5);
}
