//! Refresh rotation, reuse detection, and access-token validation.

use e2e::assert_problem;
use kernel::{AccessTokenClaims, TokenVerifier};
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

/// Claims as the service would issue them for a real session of `alice`.
async fn alice_claims(identity: &Identity) -> (AccessTokenClaims, String) {
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
    (claims, auth.jwt_secret.expose().to_owned())
}

#[tokio::test]
async fn a_token_signed_with_another_key_is_refused() {
    let identity = Identity::spawn().await;
    let (claims, _) = alice_claims(&identity).await;
    let forged = TokenVerifier::hs256(
        b"an-attackers-own-key-an-attackers-own-key",
        &claims.iss,
        &claims.aud,
    )
    .unwrap()
    .sign(&claims)
    .unwrap();

    assert_problem(
        identity.get_as(&forged, "/api/v1/auth/me").await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
}

#[tokio::test]
async fn an_expired_token_is_refused() {
    let identity = Identity::spawn().await;
    let (mut claims, secret) = alice_claims(&identity).await;
    claims.iat -= 7_200;
    claims.exp = claims.iat + 60;
    let expired = TokenVerifier::hs256(secret.as_bytes(), &claims.iss, &claims.aud)
        .unwrap()
        .sign(&claims)
        .unwrap();

    assert_problem(
        identity.get_as(&expired, "/api/v1/auth/me").await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
}

#[tokio::test]
async fn a_token_for_another_audience_is_refused() {
    let identity = Identity::spawn().await;
    let (mut claims, secret) = alice_claims(&identity).await;
    claims.aud = "some-other-api".into();
    let token = TokenVerifier::hs256(secret.as_bytes(), &claims.iss, "some-other-api")
        .unwrap()
        .sign(&claims)
        .unwrap();

    assert_problem(
        identity.get_as(&token, "/api/v1/auth/me").await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
}

#[tokio::test]
async fn an_unsigned_alg_none_token_is_refused() {
    let identity = Identity::spawn().await;
    let (claims, _) = alice_claims(&identity).await;
    let encode = |bytes: &[u8]| {
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        let mut out = String::new();
        for chunk in bytes.chunks(3) {
            let n = chunk
                .iter()
                .enumerate()
                .fold(0u32, |acc, (i, b)| acc | (u32::from(*b) << (16 - 8 * i)));
            for i in 0..=chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            }
        }
        out
    };
    let unsigned = format!(
        "{}.{}.",
        encode(br#"{"alg":"none","typ":"JWT"}"#),
        encode(serde_json::to_string(&claims).unwrap().as_bytes())
    );

    assert_problem(
        identity.get_as(&unsigned, "/api/v1/auth/me").await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
}

#[tokio::test]
async fn access_tokens_can_be_signed_with_an_asymmetric_key() {
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

    let session = identity.signed_in("alice@example.com").await;

    assert_eq!(
        identity
            .get_as(&session.access, "/api/v1/auth/me")
            .await
            .status(),
        StatusCode::OK
    );
    let auth = &identity.app.settings.auth;
    let hs256 = TokenVerifier::hs256(
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
