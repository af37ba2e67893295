//! Role-gated operations outside the identity module (the dead letters, legal publication,
//! sending notifications) read the caller's session and roles in the database on every request:
//! an access token's `roles` claim, true when it was issued, neither grants nor keeps a role.
//!
//! No test here has Redis, and none relies on a revocation reaching the instance that checks:
//! what another instance or a restart leaves this one not knowing, the database still says.

use base64::Engine as _;
use e2e::{TestApp, assert_problem};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

const DEAD_LETTERS: &str = "/api/v1/admin/mail/dead-letters";
const TERMS_VERSIONS: &str = "/api/v1/legal/documents/terms/versions";

async fn list_dead_letters(app: &TestApp, token: &str) -> reqwest::Response {
    app.request(Method::GET, DEAD_LETTERS)
        .bearer_auth(token)
        .send()
        .await
        .expect("request failed")
}

async fn publish_terms(app: &TestApp, token: &str) -> reqwest::Response {
    app.request(Method::POST, TERMS_VERSIONS)
        .bearer_auth(token)
        .json(&json!({ "body": "# Terms" }))
        .send()
        .await
        .expect("request failed")
}

/// Sends a notification to the caller's own account.
async fn notify_self(app: &TestApp, token: &str) -> reqwest::Response {
    let recipient = user_id(app, token).await;
    app.request(Method::POST, "/api/v1/notifications")
        .bearer_auth(token)
        .header("Idempotency-Key", uuid::Uuid::new_v4().to_string())
        .json(&json!({
            "recipientId": recipient,
            "title": "Reminder",
            "body": "Renew the certificate.",
            "channels": ["inApp"],
        }))
        .send()
        .await
        .expect("request failed")
}

async fn user_id(app: &TestApp, token: &str) -> String {
    let me: Value = app
        .request(Method::GET, "/api/v1/auth/me")
        .bearer_auth(token)
        .send()
        .await
        .expect("request failed")
        .json()
        .await
        .expect("the caller's account");
    me["id"].as_str().expect("an id").to_owned()
}

/// The `roles` claim of an access token (its payload is not encrypted, only signed).
fn claimed_roles(token: &str) -> Vec<String> {
    let payload = token.split('.').nth(1).expect("a JWT");
    let claims: Value = serde_json::from_slice(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(payload)
            .expect("base64url"),
    )
    .expect("JSON claims");
    serde_json::from_value(claims["roles"].clone()).expect("a list of roles")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_administrator_locked_on_another_instance_is_refused_here_at_once() {
    // Two instances on one database without Redis: the lock revokes the session on the
    // instance that made it, and this one never hears of it (as after a restart).
    let here = TestApp::spawn().await;
    let elsewhere = TestApp::builder()
        .setting("database.url", here.database.url())
        .spawn()
        .await;
    let ada = here.signed_in_admin("ada@example.com").await;
    let ada_id = user_id(&here, &ada).await;
    let bob = elsewhere.signed_in_admin("bob@example.com").await;
    assert_eq!(
        list_dead_letters(&here, &ada).await.status(),
        StatusCode::OK,
        "ada's token works before the lock"
    );
    let locked = elsewhere
        .request(Method::POST, &format!("/api/v1/admin/users/{ada_id}/lock"))
        .bearer_auth(&bob)
        .send()
        .await
        .expect("request failed");
    assert_eq!(locked.status(), StatusCode::NO_CONTENT);

    let listed = list_dead_letters(&here, &ada).await;
    let published = publish_terms(&here, &ada).await;

    let listed = assert_problem(listed, StatusCode::UNAUTHORIZED).await;
    assert_problem(published, StatusCode::UNAUTHORIZED).await;
    assert_eq!(listed["detail"], kernel::auth::SESSION_NO_LONGER_VALID);
    let documents: Value = here
        .get("/api/v1/legal/documents")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(documents["total"], 0, "nothing was published");
}

#[tokio::test]
async fn an_administrator_whose_role_was_removed_is_refused_with_a_token_still_claiming_it() {
    let app = TestApp::spawn().await;
    let ada = app.signed_in_admin("ada@example.com").await;
    assert_eq!(claimed_roles(&ada), ["admin"]);

    app::commands::revoke_admin(&app.settings, "ada@example.com")
        .await
        .expect("revoke-admin");
    let listed = list_dead_letters(&app, &ada).await;
    let published = publish_terms(&app, &ada).await;

    let listed = assert_problem(listed, StatusCode::FORBIDDEN).await;
    let published = assert_problem(published, StatusCode::FORBIDDEN).await;
    assert_eq!(
        listed["detail"],
        "Dead letters are for administrators only."
    );
    assert_eq!(published["detail"], kernel::auth::NOT_AN_ADMINISTRATOR);
}

#[tokio::test]
async fn a_sender_whose_role_was_removed_can_no_longer_send() {
    let app = TestApp::spawn().await;
    app.signed_in("sender@example.com").await;
    app::commands::grant_role(&app.settings, "sender@example.com", "notifications:send")
        .await
        .expect("grant-role");
    let sender = app.signed_in("sender@example.com").await;
    assert_eq!(
        notify_self(&app, &sender).await.status(),
        StatusCode::CREATED
    );

    app::commands::revoke_role(&app.settings, "sender@example.com", "notifications:send")
        .await
        .expect("revoke-role");
    let sent = notify_self(&app, &sender).await;

    assert_problem(sent, StatusCode::FORBIDDEN).await;
}

/// The claim is not the source of truth either way: a role granted after the token was issued
/// counts on the next request, without a new login.
#[tokio::test]
async fn a_role_granted_after_the_token_was_issued_counts_at_once() {
    let app = TestApp::spawn().await;
    let ada = app.signed_in("ada@example.com").await;
    assert!(claimed_roles(&ada).is_empty());

    app::commands::grant_admin(&app.settings, "ada@example.com")
        .await
        .expect("grant-admin");
    let listed = list_dead_letters(&app, &ada).await;
    let published = publish_terms(&app, &ada).await;

    assert_eq!(listed.status(), StatusCode::OK);
    assert_eq!(published.status(), StatusCode::CREATED);
}
