//! Password reset and email confirmation: every link mailed works until it expires or one of its
//! kind is used, which spends them all.

use std::time::Duration;

use e2e::{TestApp, assert_problem};
use reqwest::StatusCode;
use serde_json::json;

use super::{Identity, PASSWORD};

const NEW_PASSWORD: &str = "a brand new passphrase";

#[tokio::test]
async fn forgot_password_answers_202_alike_for_known_and_unknown_emails_and_mails_only_the_known() {
    let identity = Identity::spawn().await;
    identity.register("alice@example.com").await;

    let known = identity
        .post("/forgot-password", json!({ "email": "alice@example.com" }))
        .await;
    let unknown = identity
        .post("/forgot-password", json!({ "email": "nobody@example.com" }))
        .await;

    assert_eq!(known.status(), StatusCode::ACCEPTED);
    assert_eq!(unknown.status(), StatusCode::ACCEPTED);
    assert_eq!(known.text().await.unwrap(), unknown.text().await.unwrap());
    identity
        .token_from_mail("alice@example.com", "reset-password", 1)
        .await;
    assert_eq!(identity.mail_count("nobody@example.com").await, 0);
}

#[tokio::test]
async fn resetting_the_password_changes_it_and_ends_every_session() {
    let identity = Identity::spawn().await;
    let session = identity.signed_in("alice@example.com").await;

    let reset = identity
        .reset_password_by_mail("alice@example.com", NEW_PASSWORD)
        .await;

    assert_eq!(reset.status(), StatusCode::NO_CONTENT);
    assert_problem(
        identity.login("alice@example.com", PASSWORD).await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
    assert_eq!(
        identity
            .login("alice@example.com", NEW_PASSWORD)
            .await
            .status(),
        StatusCode::OK
    );
    assert_problem(
        identity.refresh(&session.refresh).await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
}

#[tokio::test]
async fn a_reset_token_works_once() {
    let identity = Identity::spawn().await;
    let token = reset_token_of_a_new_account(&identity, "alice@example.com").await;
    let first = identity
        .post(
            "/reset-password",
            json!({ "token": token, "newPassword": NEW_PASSWORD }),
        )
        .await;
    assert_eq!(
        first.status(),
        StatusCode::NO_CONTENT,
        "the first use works"
    );

    let again = identity
        .post(
            "/reset-password",
            json!({ "token": token, "newPassword": "yet another passphrase" }),
        )
        .await;

    assert_problem(again, StatusCode::BAD_REQUEST).await;
}

#[tokio::test]
async fn an_older_reset_link_still_works_and_using_it_spends_the_newer_one() {
    let identity = Identity::spawn().await;
    identity.register("alice@example.com").await;
    let older = identity.reset_link("alice@example.com", 1).await;
    let newer = identity.reset_link("alice@example.com", 2).await;

    let with_older = identity
        .post(
            "/reset-password",
            json!({ "token": older, "newPassword": NEW_PASSWORD }),
        )
        .await;
    let with_newer = identity
        .post(
            "/reset-password",
            json!({ "token": newer, "newPassword": NEW_PASSWORD }),
        )
        .await;

    assert_eq!(with_older.status(), StatusCode::NO_CONTENT);
    assert_problem(with_newer, StatusCode::BAD_REQUEST).await;
}

#[tokio::test]
async fn an_expired_reset_token_is_refused() {
    let identity =
        Identity::spawn_with(TestApp::builder().setting("identity.reset_token_ttl", "1s")).await;
    identity.register("alice@example.com").await;
    let token = identity.reset_link("alice@example.com", 1).await;

    tokio::time::sleep(Duration::from_millis(1_200)).await;
    let late = identity
        .post(
            "/reset-password",
            json!({ "token": token, "newPassword": NEW_PASSWORD }),
        )
        .await;

    assert_problem(late, StatusCode::BAD_REQUEST).await;
}

#[tokio::test]
async fn a_confirmation_link_works_once_and_spends_the_others() {
    let identity = Identity::spawn().await;
    identity.register("alice@example.com").await;
    let first = identity
        .token_from_mail("alice@example.com", "confirm-email", 1)
        .await;
    identity
        .post(
            "/send-email-confirmation",
            json!({ "email": "alice@example.com" }),
        )
        .await;
    let second = identity
        .token_from_mail("alice@example.com", "confirm-email", 2)
        .await;

    let confirmed = identity
        .post("/confirm-email", json!({ "token": first }))
        .await;
    let reused = identity
        .post("/confirm-email", json!({ "token": first }))
        .await;
    let spent = identity
        .post("/confirm-email", json!({ "token": second }))
        .await;

    assert_eq!(confirmed.status(), StatusCode::NO_CONTENT);
    assert_problem(reused, StatusCode::BAD_REQUEST).await;
    assert_problem(spent, StatusCode::BAD_REQUEST).await;
}

#[tokio::test]
async fn an_expired_confirmation_token_is_refused() {
    let identity =
        Identity::spawn_with(TestApp::builder().setting("identity.confirmation_token_ttl", "1s"))
            .await;
    identity.register("alice@example.com").await;
    let token = identity
        .token_from_mail("alice@example.com", "confirm-email", 1)
        .await;

    tokio::time::sleep(Duration::from_millis(1_200)).await;

    assert_problem(
        identity
            .post("/confirm-email", json!({ "token": token }))
            .await,
        StatusCode::BAD_REQUEST,
    )
    .await;
}

#[tokio::test]
async fn send_email_confirmation_answers_202_alike_and_mails_only_unconfirmed_accounts() {
    let identity = Identity::spawn().await;
    identity.register("alice@example.com").await;
    identity
        .token_from_mail("alice@example.com", "confirm-email", 1)
        .await;

    let known = identity
        .post(
            "/send-email-confirmation",
            json!({ "email": "alice@example.com" }),
        )
        .await;
    let unknown = identity
        .post(
            "/send-email-confirmation",
            json!({ "email": "nobody@example.com" }),
        )
        .await;

    assert_eq!(known.status(), StatusCode::ACCEPTED);
    assert_eq!(unknown.status(), StatusCode::ACCEPTED);
    identity
        .token_from_mail("alice@example.com", "confirm-email", 2)
        .await;
    assert_eq!(identity.mail_count("nobody@example.com").await, 0);
}

#[tokio::test]
async fn mails_carry_text_and_html_bodies_with_the_link() {
    let identity = Identity::spawn().await;
    identity.post("/register", json!({ "email": "alice@example.com", "password": PASSWORD, "displayName": "Alice <3" })).await;
    let token = identity
        .token_from_mail("alice@example.com", "confirm-email", 1)
        .await;

    let mail = identity.mail.messages_to("alice@example.com").remove(0);

    assert_eq!(
        mail.subject().as_deref(),
        Some("Confirm your email address")
    );
    let html = mail.html_body().unwrap();
    assert!(html.contains(&token), "{html}");
    assert!(
        html.contains("Alice &lt;3"),
        "values are escaped in HTML: {html}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_uses_of_one_reset_token_change_the_password_once() {
    let identity = Identity::spawn().await;
    let token = reset_token_of_a_new_account(&identity, "alice@example.com").await;
    let passwords = ["first racer's passphrase", "second racer's passphrase"];

    let answers = futures_util::future::join_all(passwords.iter().map(|password| {
        identity.post(
            "/reset-password",
            json!({ "token": token, "newPassword": password }),
        )
    }))
    .await;

    let statuses: Vec<StatusCode> = answers.iter().map(reqwest::Response::status).collect();
    let winner = statuses
        .iter()
        .position(|status| *status == StatusCode::NO_CONTENT)
        .unwrap_or_else(|| panic!("one use succeeds: {statuses:?}"));
    assert_eq!(
        statuses[1 - winner],
        StatusCode::BAD_REQUEST,
        "the other finds the token spent: {statuses:?}"
    );
    let logins = [
        identity
            .login("alice@example.com", passwords[winner])
            .await
            .status(),
        identity
            .login("alice@example.com", passwords[1 - winner])
            .await
            .status(),
        identity.login("alice@example.com", PASSWORD).await.status(),
    ];
    assert_eq!(
        logins,
        [
            StatusCode::OK,
            StatusCode::UNAUTHORIZED,
            StatusCode::UNAUTHORIZED
        ],
        "only the winner's password works"
    );
}

/// Registers `email`, asks for a reset link and returns the token it carries.
async fn reset_token_of_a_new_account(identity: &Identity, email: &str) -> String {
    identity.register(email).await;
    identity.reset_link(email, 1).await
}
