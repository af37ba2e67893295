//! Administration: listing and locking accounts.

use e2e::{assert_api_time, assert_problem};
use reqwest::{Method, StatusCode};
use serde_json::Value;

use super::{Identity, PASSWORD, tokens};

#[tokio::test]
async fn only_administrators_list_accounts() {
    let identity = Identity::spawn().await;
    let admin = identity.signed_in_admin("admin@example.com").await;
    let user = identity.signed_in("alice@example.com").await;

    let as_admin = identity
        .get_as(&admin.access, "/api/v1/admin/users?perPage=10")
        .await;
    let as_user = identity.get_as(&user.access, "/api/v1/admin/users").await;

    assert_eq!(as_admin.status(), StatusCode::OK);
    let page: Value = as_admin.json().await.unwrap();
    assert_eq!(page["total"], 2);
    assert_problem(as_user, StatusCode::FORBIDDEN).await;
}

#[tokio::test]
async fn locking_an_account_ends_its_sessions_and_blocks_login_until_unlocked() {
    let identity = Identity::spawn().await;
    let admin = identity.signed_in_admin("admin@example.com").await;
    let alice = identity.signed_in("alice@example.com").await;
    let alice_id = identity.user_id(&alice.access).await;

    let locked = identity
        .admin_action(&admin.access, "lock", &alice_id)
        .await;
    let login_while_locked = identity.login("alice@example.com", PASSWORD).await;
    let refresh_while_locked = identity.refresh(&alice.refresh).await;
    let me_while_locked = identity.get_as(&alice.access, "/api/v1/auth/me").await;
    let unlocked = identity
        .admin_action(&admin.access, "unlock", &alice_id)
        .await;
    let login_after = identity.login("alice@example.com", PASSWORD).await;

    assert_eq!(locked.status(), StatusCode::NO_CONTENT);
    assert_problem(login_while_locked, StatusCode::FORBIDDEN).await;
    assert_problem(refresh_while_locked, StatusCode::UNAUTHORIZED).await;
    assert_problem(me_while_locked, StatusCode::UNAUTHORIZED).await;
    assert_eq!(unlocked.status(), StatusCode::NO_CONTENT);
    tokens(login_after).await;
}

#[tokio::test]
async fn a_non_administrator_cannot_lock_anyone() {
    let identity = Identity::spawn().await;
    let alice = identity.signed_in("alice@example.com").await;
    let bob = identity.signed_in("bob@example.com").await;
    let bob_id = identity.user_id(&bob.access).await;

    let response = identity.admin_action(&alice.access, "lock", &bob_id).await;

    assert_problem(response, StatusCode::FORBIDDEN).await;
    assert_eq!(
        identity
            .get_as(&bob.access, "/api/v1/auth/me")
            .await
            .status(),
        StatusCode::OK
    );
}

#[tokio::test]
async fn locking_an_unknown_account_is_a_404() {
    let identity = Identity::spawn().await;
    let admin = identity.signed_in_admin("admin@example.com").await;

    let response = identity
        .post_as(&admin.access, "/api/v1/admin/users/nobody/lock")
        .await;

    assert_problem(response, StatusCode::NOT_FOUND).await;
}

#[tokio::test]
async fn an_administrator_cannot_lock_their_own_account() {
    let identity = Identity::spawn().await;
    let admin = identity.signed_in_admin("admin@example.com").await;
    let admin_id = identity.user_id(&admin.access).await;

    let response = identity
        .admin_action(&admin.access, "lock", &admin_id)
        .await;

    assert_problem(response, StatusCode::FORBIDDEN).await;
    assert_eq!(
        identity
            .get_as(&admin.access, "/api/v1/auth/me")
            .await
            .status(),
        StatusCode::OK
    );
}

#[tokio::test]
async fn every_lock_and_unlock_is_audited_with_its_actor_target_and_request_id() {
    let identity = Identity::spawn().await;
    let admin = identity.signed_in_admin("admin@example.com").await;
    let admin_id = identity.user_id(&admin.access).await;
    let alice = identity.signed_in("alice@example.com").await;
    let alice_id = identity.user_id(&alice.access).await;

    let locked = identity
        .app
        .request(
            Method::POST,
            &format!("/api/v1/admin/users/{alice_id}/lock"),
        )
        .bearer_auth(&admin.access)
        .header("x-request-id", "lock-request-1")
        .send()
        .await
        .unwrap();
    identity
        .admin_action(&admin.access, "unlock", &alice_id)
        .await;
    let audit = identity.get_as(&admin.access, "/api/v1/admin/audit").await;

    assert_eq!(locked.status(), StatusCode::NO_CONTENT);
    assert_eq!(audit.status(), StatusCode::OK);
    let page: Value = audit.json().await.unwrap();
    assert_eq!(page["total"], 2);
    let (newest, oldest) = (&page["items"][0], &page["items"][1]);
    assert_eq!(newest["action"], "unlock");
    assert_eq!(oldest["action"], "lock");
    assert_eq!(oldest["actorId"], admin_id.as_str());
    assert_eq!(oldest["targetId"], alice_id.as_str());
    assert_eq!(oldest["requestId"], "lock-request-1");
    assert!(assert_api_time(&oldest["at"]) <= assert_api_time(&newest["at"]));
}

#[tokio::test]
async fn only_administrators_read_the_audit() {
    let identity = Identity::spawn().await;
    let alice = identity.signed_in("alice@example.com").await;

    let response = identity.get_as(&alice.access, "/api/v1/admin/audit").await;

    assert_problem(response, StatusCode::FORBIDDEN).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn administrators_locking_each_other_at_once_leave_one_of_them_active() {
    let identity = Identity::spawn().await;

    for round in 0..5 {
        let ada = identity
            .signed_in_admin(&format!("ada{round}@example.com"))
            .await;
        let bob = identity
            .signed_in_admin(&format!("bob{round}@example.com"))
            .await;
        let (ada_id, bob_id) = (
            identity.user_id(&ada.access).await,
            identity.user_id(&bob.access).await,
        );

        let (ada_locks_bob, bob_locks_ada) = tokio::join!(
            identity.admin_action(&ada.access, "lock", &bob_id),
            identity.admin_action(&bob.access, "lock", &ada_id),
        );

        let statuses = [ada_locks_bob.status(), bob_locks_ada.status()];
        let won = statuses
            .iter()
            .filter(|s| **s == StatusCode::NO_CONTENT)
            .count();
        // The loser was locked first: refused as revoked (401) or, when its check came before
        // the lock, as no longer an active administrator (403).
        let lost = statuses
            .iter()
            .filter(|s| [StatusCode::UNAUTHORIZED, StatusCode::FORBIDDEN].contains(s))
            .count();
        assert_eq!((won, lost), (1, 1), "round {round}: {statuses:?}");
        let winner = if ada_locks_bob.status() == StatusCode::NO_CONTENT {
            &ada
        } else {
            &bob
        };
        let still_admin = identity.get_as(&winner.access, "/api/v1/admin/users").await;
        assert_eq!(still_admin.status(), StatusCode::OK, "round {round}");
    }
}
