//! Administration: listing and locking accounts.

use e2e::assert_problem;
use reqwest::StatusCode;
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
        .post_as(
            &admin.access,
            &format!("/api/v1/admin/users/{alice_id}/lock"),
        )
        .await;
    let login_while_locked = identity.login("alice@example.com", PASSWORD).await;
    let refresh_while_locked = identity.refresh(&alice.refresh).await;
    let me_while_locked = identity.get_as(&alice.access, "/api/v1/auth/me").await;
    let unlocked = identity
        .post_as(
            &admin.access,
            &format!("/api/v1/admin/users/{alice_id}/unlock"),
        )
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

    let response = identity
        .post_as(&alice.access, &format!("/api/v1/admin/users/{bob_id}/lock"))
        .await;

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
