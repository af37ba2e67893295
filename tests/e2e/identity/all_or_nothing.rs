//! Every identity use case that writes several rows writes them in one transaction: when the
//! database refuses one statement (a trigger injected by the test, on SQLite and PostgreSQL
//! alike), nothing of the use case is kept, and once the fault is removed the same request
//! succeeds.

use e2e::assert_problem;
use reqwest::StatusCode;
use serde_json::{Value, json};
use testing::fault::Statement;

use super::{Identity, PASSWORD, tokens};

const NEW_PASSWORD: &str = "an entirely new passphrase";

#[tokio::test]
async fn a_registration_whose_confirmation_link_fails_creates_no_account() {
    let identity = Identity::spawn().await;
    let fault = identity
        .app
        .database
        .inject_fault("identity_one_time_tokens", Statement::Insert)
        .await;

    let failed = identity.register("alice@example.com").await;
    fault.remove().await;
    let login = identity.login("alice@example.com", PASSWORD).await;
    let retried = identity.register("alice@example.com").await;

    assert_problem(failed, StatusCode::INTERNAL_SERVER_ERROR).await;
    assert_problem(login, StatusCode::UNAUTHORIZED).await;
    assert_eq!(
        retried.status(),
        StatusCode::CREATED,
        "the email was not taken"
    );
}

#[tokio::test]
async fn a_confirmation_that_fails_does_not_spend_its_link() {
    let identity = Identity::spawn().await;
    identity.register("alice@example.com").await;
    let token = identity
        .token_from_mail("alice@example.com", "confirm-email", 1)
        .await;
    let fault = identity
        .app
        .database
        .inject_fault(
            "identity_users",
            Statement::UpdateOf("email_confirmed_at_ms"),
        )
        .await;

    let failed = identity
        .post("/confirm-email", json!({ "token": token }))
        .await;
    fault.remove().await;
    let retried = identity
        .post("/confirm-email", json!({ "token": token }))
        .await;

    assert_problem(failed, StatusCode::INTERNAL_SERVER_ERROR).await;
    assert_eq!(retried.status(), StatusCode::NO_CONTENT);
}

#[tokio::test]
async fn a_password_reset_that_fails_keeps_the_password_and_the_link() {
    let identity = Identity::spawn().await;
    identity.register("alice@example.com").await;
    let token = identity.reset_link("alice@example.com", 1).await;
    let reset = || {
        identity.post(
            "/reset-password",
            json!({ "token": token, "newPassword": NEW_PASSWORD }),
        )
    };
    let fault = identity
        .app
        .database
        .inject_fault("identity_users", Statement::UpdateOf("password_hash"))
        .await;

    let failed = reset().await;
    fault.remove().await;
    let old_password = identity.login("alice@example.com", PASSWORD).await;
    let retried = reset().await;

    assert_problem(failed, StatusCode::INTERNAL_SERVER_ERROR).await;
    assert_eq!(
        old_password.status(),
        StatusCode::OK,
        "the password is unchanged"
    );
    assert_eq!(
        retried.status(),
        StatusCode::NO_CONTENT,
        "the link is unspent"
    );
}

#[tokio::test]
async fn a_login_that_fails_opens_no_session() {
    let identity = Identity::spawn().await;
    identity.register("alice@example.com").await;
    let fault = identity
        .app
        .database
        .inject_fault("identity_refresh_tokens", Statement::Insert)
        .await;

    let failed = identity.login("alice@example.com", PASSWORD).await;
    fault.remove().await;
    let retried = tokens(identity.login("alice@example.com", PASSWORD).await).await;
    let sessions: Vec<Value> = identity
        .get_as(&retried.access, "/api/v1/auth/sessions")
        .await
        .json()
        .await
        .unwrap();

    assert_problem(failed, StatusCode::INTERNAL_SERVER_ERROR).await;
    assert_eq!(
        sessions.len(),
        1,
        "only the retried login's session: {sessions:?}"
    );
}

#[tokio::test]
async fn a_refresh_that_fails_keeps_the_presented_token_current() {
    let identity = Identity::spawn().await;
    let alice = identity.signed_in("alice@example.com").await;
    let fault = identity
        .app
        .database
        .inject_fault("identity_sessions", Statement::UpdateOf("expires_at_ms"))
        .await;

    let failed = identity.refresh(&alice.refresh).await;
    fault.remove().await;
    let retried = identity.refresh(&alice.refresh).await;

    assert_problem(failed, StatusCode::INTERNAL_SERVER_ERROR).await;
    tokens(retried).await;
}

#[tokio::test]
async fn a_lock_whose_audit_record_fails_leaves_the_account_unlocked() {
    let identity = Identity::spawn().await;
    let admin = identity.signed_in_admin("admin@example.com").await;
    let alice = identity.signed_in("alice@example.com").await;
    let alice_id = identity.user_id(&alice.access).await;
    let fault = identity
        .app
        .database
        .inject_fault("identity_admin_audit", Statement::Insert)
        .await;

    let failed = identity
        .admin_action(&admin.access, "lock", &alice_id)
        .await;
    let alice_meanwhile = identity.get_as(&alice.access, "/api/v1/auth/me").await;
    fault.remove().await;
    let retried = identity
        .admin_action(&admin.access, "lock", &alice_id)
        .await;

    assert_problem(failed, StatusCode::INTERNAL_SERVER_ERROR).await;
    assert_eq!(
        alice_meanwhile.status(),
        StatusCode::OK,
        "neither locked nor revoked"
    );
    assert_eq!(retried.status(), StatusCode::NO_CONTENT);
}

#[tokio::test]
async fn an_unlock_whose_audit_record_fails_leaves_the_account_locked() {
    let identity = Identity::spawn().await;
    let admin = identity.signed_in_admin("admin@example.com").await;
    let alice = identity.signed_in("alice@example.com").await;
    let alice_id = identity.user_id(&alice.access).await;
    let locked = identity
        .admin_action(&admin.access, "lock", &alice_id)
        .await;
    let fault = identity
        .app
        .database
        .inject_fault("identity_admin_audit", Statement::Insert)
        .await;

    let failed = identity
        .admin_action(&admin.access, "unlock", &alice_id)
        .await;
    let login_meanwhile = identity.login("alice@example.com", PASSWORD).await;
    fault.remove().await;
    let retried = identity
        .admin_action(&admin.access, "unlock", &alice_id)
        .await;

    assert_eq!(locked.status(), StatusCode::NO_CONTENT);
    assert_problem(failed, StatusCode::INTERNAL_SERVER_ERROR).await;
    assert_problem(login_meanwhile, StatusCode::FORBIDDEN).await;
    assert_eq!(retried.status(), StatusCode::NO_CONTENT);
}
