//! Refresh rotation, reuse detection, and access-token validation.

use e2e::assert_problem;
use kernel::{AccessTokenClaims, AccessTokenKeys};
use reqwest::StatusCode;

use super::{Identity, tokens};

#[tokio::test]
async fn a_refresh_token_works_once() {
    let identity = Identity::spawn().await;
    let first = identity.signed_in("alice@example.com").await;

    tokens(identity.refresh(&first.refresh).await).await;
    let again = identity.refresh(&first.refresh).await;

    assert_problem(again, StatusCode::UNAUTHORIZED).await;
}

#[tokio::test]
async fn reusing_a_rotated_refresh_token_revokes_the_whole_session() {
    let identity = Identity::spawn().await;
    let stolen = identity.signed_in("alice@example.com").await;
    let legitimate = tokens(identity.refresh(&stolen.refresh).await).await;

    let replay = identity.refresh(&stolen.refresh).await;
    let legitimate_next = identity.refresh(&legitimate.refresh).await;

    assert_problem(replay, StatusCode::UNAUTHORIZED).await;
    assert_problem(legitimate_next, StatusCode::UNAUTHORIZED).await;
    assert_problem(
        identity.get_as(&legitimate.access, "/api/v1/auth/me").await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
}

#[tokio::test]
async fn an_unknown_refresh_token_is_a_401() {
    let identity = Identity::spawn().await;

    assert_problem(
        identity.refresh("not-a-token").await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
}

/// Claims as the service would issue them for a real session of `alice`, the HS256 secret, and
/// the access token the service issued for that session.
async fn alice_session(identity: &Identity) -> (AccessTokenClaims, String, String) {
    let session = identity.signed_in("alice@example.com").await;
    let me: serde_json::Value = identity
        .get_as(&session.access, "/api/v1/auth/me")
        .await
        .json()
        .await
        .unwrap();
    let auth = &identity.app.settings.auth;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let sessions: Vec<serde_json::Value> = identity
        .get_as(&session.access, "/api/v1/auth/sessions")
        .await
        .json()
        .await
        .unwrap();
    let claims = AccessTokenClaims {
        sub: me["id"].as_str().unwrap().to_owned(),
        sid: sessions[0]["id"].as_str().unwrap().to_owned(),
        roles: vec!["admin".into()],
        iss: auth.issuer.clone(),
        aud: auth.audience.clone(),
        iat: now,
        exp: now + 600,
    };
    (claims, auth.jwt_secret.expose().to_owned(), session.access)
}

/// [`alice_session`] without the issued token.
async fn alice_claims(identity: &Identity) -> (AccessTokenClaims, String) {
    let (claims, secret, _) = alice_session(identity).await;
    (claims, secret)
}

/// A service signing access tokens with the test Ed25519 key pair, and the public key's PEM.
async fn identity_signing_with_ed25519() -> (Identity, String) {
    let keys = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("keys");
    let private = std::fs::read_to_string(keys.join("ed25519-private.pem")).unwrap();
    let public = std::fs::read_to_string(keys.join("ed25519-public.pem")).unwrap();
    let identity = Identity::spawn_with(
        e2e::TestApp::builder()
            .setting("auth.algorithm", "EdDSA")
            .setting("auth.private_key_pem", &private)
            .setting("auth.public_key_pem", &public),
    )
    .await;
    (identity, public)
}

/// Base64url without padding, as JWTs encode their parts.
fn b64url(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Signs `claims` with HS256 and `secret`.
fn hs256(secret: &[u8], claims: &AccessTokenClaims) -> String {
    AccessTokenKeys::hs256(secret, &claims.iss, &claims.aud)
        .unwrap()
        .sign(claims)
        .unwrap()
}

/// A token with any header and claims, signed with HS256 and `secret` by hand, so that the
/// header can name an algorithm the library would not sign with.
fn hand_made(header: &serde_json::Value, claims: &AccessTokenClaims, secret: &[u8]) -> String {
    use hmac::{KeyInit as _, Mac as _};
    let signing_input = format!(
        "{}.{}",
        b64url(header.to_string().as_bytes()),
        b64url(serde_json::to_string(claims).unwrap().as_bytes())
    );
    let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(secret).unwrap();
    mac.update(signing_input.as_bytes());
    format!("{signing_input}.{}", b64url(&mac.finalize().into_bytes()))
}

/// What `GET /me` answers to `token`.
async fn me_with(identity: &Identity, token: &str) -> StatusCode {
    identity.get_as(token, "/api/v1/auth/me").await.status()
}

/// Each rejection below first signs the same claims correctly and sees them accepted (so the 401
/// cannot come from elsewhere: the session check, a malformed hand-made token), then changes
/// exactly one property.
async fn accepted_then_refused(identity: &Identity, valid: &str, altered: &str, what: &str) {
    assert_eq!(
        me_with(identity, valid).await,
        StatusCode::OK,
        "the control token must be accepted"
    );
    assert_problem(
        identity.get_as(altered, "/api/v1/auth/me").await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
    assert_eq!(
        me_with(identity, altered).await,
        StatusCode::UNAUTHORIZED,
        "{what}"
    );
}

#[tokio::test]
async fn a_token_signed_with_another_key_is_refused() {
    let identity = Identity::spawn().await;
    let (claims, secret) = alice_claims(&identity).await;

    let valid = hs256(secret.as_bytes(), &claims);
    let forged = hs256(b"an-attackers-own-key-an-attackers-own-key", &claims);

    accepted_then_refused(&identity, &valid, &forged, "another key").await;
}

#[tokio::test]
async fn a_token_with_a_tampered_signature_is_refused() {
    let identity = Identity::spawn().await;
    let (claims, secret) = alice_claims(&identity).await;
    let valid = hs256(secret.as_bytes(), &claims);

    let mut tampered = valid.clone();
    let last = tampered.pop().unwrap();
    tampered.push(if last == 'A' { 'B' } else { 'A' });

    accepted_then_refused(
        &identity,
        &valid,
        &tampered,
        "one character of the signature",
    )
    .await;
}

/// Signs alice's claims correctly (accepted), then with `change` applied to them (refused).
async fn refused_when_claims_change(change: impl FnOnce(&mut AccessTokenClaims), what: &str) {
    let identity = Identity::spawn().await;
    let (claims, secret) = alice_claims(&identity).await;
    let valid = hs256(secret.as_bytes(), &claims);

    let mut changed = claims.clone();
    change(&mut changed);

    // By hand: the library would refuse to sign claims that fail its own validation settings.
    let changed = hand_made(
        &serde_json::json!({ "alg": "HS256", "typ": "JWT" }),
        &changed,
        secret.as_bytes(),
    );
    accepted_then_refused(&identity, &valid, &changed, what).await;
}

#[tokio::test]
async fn an_expired_token_is_refused() {
    refused_when_claims_change(|claims| claims.exp = claims.iat - 3_600, "expiry").await;
}

#[tokio::test]
async fn a_token_for_another_audience_is_refused() {
    refused_when_claims_change(|claims| claims.aud = "some-other-api".into(), "audience").await;
}

#[tokio::test]
async fn a_token_from_another_issuer_is_refused() {
    refused_when_claims_change(|claims| claims.iss = "someone-else".into(), "issuer").await;
}

#[tokio::test]
async fn a_token_naming_another_subject_is_refused() {
    refused_when_claims_change(
        |claims| claims.sub = uuid::Uuid::new_v4().to_string(),
        "subject",
    )
    .await;
}

#[tokio::test]
async fn an_unsigned_alg_none_token_is_refused() {
    let identity = Identity::spawn().await;
    let (claims, secret) = alice_claims(&identity).await;
    let valid = hand_made(
        &serde_json::json!({ "alg": "HS256", "typ": "JWT" }),
        &claims,
        secret.as_bytes(),
    );

    let signed_part = valid.rsplit_once('.').unwrap().0;
    let (_, payload) = signed_part.split_once('.').unwrap();
    let unsigned = format!("{}.{payload}.", b64url(br#"{"alg":"none","typ":"JWT"}"#));

    accepted_then_refused(&identity, &valid, &unsigned, "alg none").await;
}

#[tokio::test]
async fn an_hs256_token_keyed_with_the_public_key_is_refused_by_an_asymmetric_configuration() {
    // Algorithm confusion: the public key is public, so a verifier that accepted HS256 "signed"
    // with it as the HMAC secret would accept anyone's tokens.
    let (identity, public) = identity_signing_with_ed25519().await;
    let (claims, _, issued) = alice_session(&identity).await;

    let confused = hand_made(
        &serde_json::json!({ "alg": "HS256", "typ": "JWT" }),
        &claims,
        public.as_bytes(),
    );

    accepted_then_refused(&identity, &issued, &confused, "HS256 with the public key").await;
}

#[tokio::test]
async fn access_tokens_can_be_signed_with_an_asymmetric_key() {
    let (identity, _) = identity_signing_with_ed25519().await;

    let session = identity.signed_in("alice@example.com").await;

    assert_eq!(
        identity
            .get_as(&session.access, "/api/v1/auth/me")
            .await
            .status(),
        StatusCode::OK
    );
    let auth = &identity.app.settings.auth;
    let hs256 = AccessTokenKeys::hs256(
        auth.jwt_secret.expose().as_bytes(),
        &auth.issuer,
        &auth.audience,
    )
    .unwrap();
    assert!(
        hs256.verify(&session.access).is_err(),
        "the token is not signed with the HS256 secret"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_refreshes_with_one_token_let_exactly_one_win_and_revoke_the_session() {
    const RACERS: usize = 5;
    let identity = Identity::spawn().await;
    let session = identity.signed_in("alice@example.com").await;

    let answers =
        futures_util::future::join_all((0..RACERS).map(|_| identity.refresh(&session.refresh)))
            .await;

    let statuses: Vec<StatusCode> = answers.iter().map(reqwest::Response::status).collect();
    let winners: Vec<reqwest::Response> = answers
        .into_iter()
        .filter(|answer| answer.status() == StatusCode::OK)
        .collect();
    assert_eq!(winners.len(), 1, "exactly one rotation wins: {statuses:?}");
    assert_eq!(
        statuses
            .iter()
            .filter(|status| **status == StatusCode::UNAUTHORIZED)
            .count(),
        RACERS - 1,
        "{statuses:?}"
    );
    // The losers presented a token that had just been superseded: reuse, as far as the service
    // can tell, so the session is revoked and the winner's new pair is dead too.
    let winner = tokens(winners.into_iter().next().unwrap()).await;
    assert_problem(
        identity.refresh(&winner.refresh).await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
}
