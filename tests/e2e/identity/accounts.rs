//! Registering, logging in, and the account journey.

use e2e::{assert_api_time, assert_problem};
use reqwest::StatusCode;
use serde_json::{Value, json};

use super::{Identity, PASSWORD, tokens};

#[tokio::test]
async fn registering_answers_201_with_the_account_and_never_the_password() {
    let identity = Identity::spawn().await;

    let response = identity
        .post(
            "/register",
            json!({ "email": "Alice@Example.com", "password": PASSWORD, "displayName": "Alice" }),
        )
        .await;

    assert_eq!(response.status(), StatusCode::CREATED);
    let text = response.text().await.unwrap();
    let user: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(user["email"], "alice@example.com");
    assert_eq!(user["displayName"], "Alice");
    assert_eq!(user["emailConfirmed"], false);
    assert!(
        !text.contains(PASSWORD) && !text.contains("argon2"),
        "{text}"
    );
}

#[tokio::test]
async fn registering_a_taken_email_in_any_case_is_a_409_problem_naming_the_field() {
    let identity = Identity::spawn().await;
    identity.register("alice@example.com").await;

    let response = identity.register("ALICE@example.com").await;

    let problem = assert_problem(response, StatusCode::CONFLICT).await;
    assert_eq!(problem["field"], "email");
}

#[tokio::test]
async fn an_address_wrapped_in_a_mailbox_is_refused_not_a_second_account() {
    let identity = Identity::spawn().await;
    identity.register("alice@example.com").await;

    for disguised in [
        "x<alice@example.com>",
        "\"y\"<alice@example.com>",
        "Alice <alice@example.com>",
    ] {
        let response = identity.register(disguised).await;

        assert_problem(response, StatusCode::BAD_REQUEST).await;
    }
    identity
        .mail
        .wait_for_message_to("alice@example.com", std::time::Duration::from_secs(10))
        .await
        .expect("alice's own confirmation mail");
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(
        identity.mail.messages_to("alice@example.com").len(),
        1,
        "only alice's own confirmation mail reached her"
    );
}

#[tokio::test]
async fn the_same_mailbox_spelled_with_an_unnormalised_domain_is_the_same_account() {
    let identity = Identity::spawn().await;
    identity.register("alice@bücher.example").await;

    let response = identity.register("ALICE@xn--BCHER-kva.example").await;

    assert_problem(response, StatusCode::CONFLICT).await;
}

#[tokio::test]
async fn a_display_name_with_a_line_break_is_refused() {
    let identity = Identity::spawn().await;

    let response = identity
        .post(
            "/register",
            json!({
                "email": "alice@example.com",
                "password": PASSWORD,
                "displayName": "Alice\r\nBcc: eve@example.com"
            }),
        )
        .await;

    assert_problem(response, StatusCode::BAD_REQUEST).await;
}

#[tokio::test]
async fn an_invalid_email_or_a_short_password_is_a_400_problem() {
    let identity = Identity::spawn().await;

    let bad_email = identity
        .post(
            "/register",
            json!({ "email": "not-an-email", "password": PASSWORD }),
        )
        .await;
    let short = identity
        .post(
            "/register",
            json!({ "email": "bob@example.com", "password": "short" }),
        )
        .await;

    assert_problem(bad_email, StatusCode::BAD_REQUEST).await;
    assert_problem(short, StatusCode::BAD_REQUEST).await;
}

#[tokio::test]
async fn an_unknown_email_and_a_wrong_password_get_the_same_401() {
    let identity = Identity::spawn().await;
    identity.register("alice@example.com").await;

    let unknown = assert_problem(
        identity.login("nobody@example.com", PASSWORD).await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
    let wrong = assert_problem(
        identity.login("alice@example.com", "wrong password!").await,
        StatusCode::UNAUTHORIZED,
    )
    .await;

    for field in ["type", "title", "status", "detail"] {
        assert_eq!(unknown[field], wrong[field], "{field}");
    }
}

#[tokio::test]
async fn the_full_journey_register_confirm_login_refresh_revoke() {
    let identity = Identity::spawn().await;

    identity.register("alice@example.com").await;
    let confirmation = identity
        .token_from_mail("alice@example.com", "confirm-email", 1)
        .await;
    assert_eq!(
        identity
            .post("/confirm-email", json!({ "token": confirmation }))
            .await
            .status(),
        StatusCode::NO_CONTENT
    );
    let first = tokens(identity.login("alice@example.com", PASSWORD).await).await;
    let me: Value = identity
        .get_as(&first.access, "/api/v1/auth/me")
        .await
        .json()
        .await
        .unwrap();
    let second = tokens(identity.refresh(&first.refresh).await).await;
    let revoked = identity
        .post("/revoke", json!({ "refreshToken": second.refresh }))
        .await;
    let after_revoke = identity.refresh(&second.refresh).await;

    assert_eq!(me["email"], "alice@example.com");
    assert_eq!(me["emailConfirmed"], true);
    assert_ne!(first.refresh, second.refresh);
    assert_eq!(revoked.status(), StatusCode::NO_CONTENT);
    assert_problem(after_revoke, StatusCode::UNAUTHORIZED).await;
}

#[tokio::test]
async fn login_requires_a_confirmed_email_when_configured() {
    let identity = Identity::spawn_with(
        e2e::TestApp::builder().setting("identity.require_confirmed_email", "true"),
    )
    .await;
    identity.register("alice@example.com").await;

    let before = identity.login("alice@example.com", PASSWORD).await;
    let token = identity
        .token_from_mail("alice@example.com", "confirm-email", 1)
        .await;
    identity
        .post("/confirm-email", json!({ "token": token }))
        .await;
    let after = identity.login("alice@example.com", PASSWORD).await;

    assert_problem(before, StatusCode::FORBIDDEN).await;
    assert_eq!(after.status(), StatusCode::OK);
}

#[tokio::test]
async fn an_account_and_its_sessions_give_their_times_in_rfc_3339_with_milliseconds() {
    let identity = Identity::spawn().await;
    let alice = identity.signed_in("alice@example.com").await;

    let me: Value = identity
        .get_as(&alice.access, "/api/v1/auth/me")
        .await
        .json()
        .await
        .unwrap();
    let sessions: Vec<Value> = identity
        .get_as(&alice.access, "/api/v1/auth/sessions")
        .await
        .json()
        .await
        .unwrap();

    let registered = assert_api_time(&me["createdAt"]);
    let session = &sessions[0];
    let began = assert_api_time(&session["createdAt"]);
    assert!(registered <= began);
    assert!(began <= assert_api_time(&session["lastUsedAt"]));
    assert!(began < assert_api_time(&session["expiresAt"]));
}

#[tokio::test]
async fn the_caller_lists_its_sessions_and_revokes_one() {
    let identity = Identity::spawn().await;
    let laptop = identity.signed_in("alice@example.com").await;
    let phone = tokens(identity.login("alice@example.com", PASSWORD).await).await;

    let sessions: Vec<Value> = identity
        .get_as(&laptop.access, "/api/v1/auth/sessions")
        .await
        .json()
        .await
        .unwrap();
    let phone_session = sessions.iter().find(|s| s["current"] == false).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let revoked = identity
        .post_as(
            &laptop.access,
            &format!("/api/v1/auth/sessions/{phone_session}/revoke"),
        )
        .await;
    let remaining: Vec<Value> = identity
        .get_as(&laptop.access, "/api/v1/auth/sessions")
        .await
        .json()
        .await
        .unwrap();

    assert_eq!(sessions.len(), 2);
    assert_eq!(revoked.status(), StatusCode::NO_CONTENT);
    assert_eq!(remaining.len(), 1);
    assert_problem(
        identity.refresh(&phone.refresh).await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
    assert_problem(
        identity.get_as(&phone.access, "/api/v1/auth/me").await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
}

#[tokio::test]
async fn a_caller_cannot_revoke_another_callers_session() {
    let identity = Identity::spawn().await;
    let alice = identity.signed_in("alice@example.com").await;
    let bob = identity.signed_in("bob@example.com").await;
    let bobs: Vec<Value> = identity
        .get_as(&bob.access, "/api/v1/auth/sessions")
        .await
        .json()
        .await
        .unwrap();

    let response = identity
        .post_as(
            &alice.access,
            &format!(
                "/api/v1/auth/sessions/{}/revoke",
                bobs[0]["id"].as_str().unwrap()
            ),
        )
        .await;

    assert_problem(response, StatusCode::NOT_FOUND).await;
    assert_eq!(
        identity
            .get_as(&bob.access, "/api/v1/auth/me")
            .await
            .status(),
        StatusCode::OK
    );
}
