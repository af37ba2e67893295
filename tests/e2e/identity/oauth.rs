//! Sign-in with an OpenID Connect provider, against a real one (`oidc_provider`): the account a
//! sign-in finds or makes (the linking rule, ADR 0009), what a state, a code and an ID token
//! may be used for, and what a provider that cannot be reached answers.

use e2e::{CapturedLogs, TestApp, TestAppBuilder, assert_problem};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use testing::tools::Suite;

use super::oidc_provider::{
    CLIENT_ID, CLIENT_SECRET, Callback, EndUser, OTHER_REDIRECT_URI, ProviderOptions, REDIRECT_URI,
    provider, provider_with_claims_in_userinfo, sign_in_at_provider, start,
};
use super::{Identity, PASSWORD, Tokens, tokens};

/// The provider's name in the service's settings and paths.
const PROVIDER: &str = "test";

/// A password its owner sets by reset.
pub(super) const NEW_PASSWORD: &str = "a brand new passphrase";

/// A service configured with the test provider as `test`.
pub(super) async fn service() -> Identity {
    service_with(TestApp::builder()).await
}

pub(super) async fn service_with(builder: TestAppBuilder) -> Identity {
    Identity::spawn_with(with_provider(builder, &provider().issuer)).await
}

/// A service configured with the provider at `issuer` as `test`.
async fn service_with_issuer(issuer: &str) -> Identity {
    Identity::spawn_with(with_provider(TestApp::builder(), issuer)).await
}

fn with_provider(builder: TestAppBuilder, issuer: &str) -> TestAppBuilder {
    builder
        .setting("oauth.providers.test.issuer", issuer)
        .setting("oauth.providers.test.client_id", CLIENT_ID)
        .setting("oauth.providers.test.client_secret", CLIENT_SECRET)
        .setting("oauth.providers.test.redirect_uris", REDIRECT_URI)
        .setting("oauth.providers.test.display_name", "Test SSO")
}

impl Identity {
    /// `GET /auth/oauth/{provider}/authorize?redirectUri=...`
    async fn authorize(&self, provider: &str, redirect_uri: &str) -> reqwest::Response {
        self.authorize_with(&self.app.http, provider, redirect_uri)
            .await
    }

    /// [`Self::authorize`] for the test provider from the loopback address `source`.
    pub(super) async fn authorize_from(&self, source: &str) -> reqwest::Response {
        let client = self.app.client_from(source.parse().unwrap());
        self.authorize_with(&client, PROVIDER, REDIRECT_URI).await
    }

    async fn authorize_with(
        &self,
        client: &reqwest::Client,
        provider: &str,
        redirect_uri: &str,
    ) -> reqwest::Response {
        client
            .get(
                self.app
                    .url(&format!("/api/v1/auth/oauth/{provider}/authorize")),
            )
            .query(&[("redirectUri", redirect_uri)])
            .send()
            .await
            .expect("request failed")
    }

    /// What `authorize` answers for the test provider: where to send the browser, and the
    /// binding the front end keeps for the exchange.
    async fn start(&self) -> Started {
        let response = self.authorize(PROVIDER, REDIRECT_URI).await;
        assert_eq!(response.status(), StatusCode::OK);
        let body: Value = response.json().await.unwrap();
        Started {
            url: body["authorizationUrl"].as_str().unwrap().to_owned(),
            binding: body["binding"]
                .as_str()
                .expect("authorize answers a binding")
                .to_owned(),
        }
    }

    /// `POST /auth/oauth/test/exchange` with the binding `authorize` answered.
    async fn exchange(
        &self,
        callback: &Callback,
        redirect_uri: &str,
        binding: &str,
    ) -> reqwest::Response {
        self.post(
            &format!("/oauth/{PROVIDER}/exchange"),
            json!({
                "code": callback.code,
                "state": callback.state,
                "redirectUri": redirect_uri,
                "binding": binding,
            }),
        )
        .await
    }

    /// `POST /auth/oauth/test/exchange` with the code and state alone: what someone who saw the
    /// redirect back (not the front end that started the sign-in) can send.
    async fn exchange_unbound(&self, callback: &Callback) -> reqwest::Response {
        self.post(
            &format!("/oauth/{PROVIDER}/exchange"),
            json!({ "code": callback.code, "state": callback.state, "redirectUri": REDIRECT_URI }),
        )
        .await
    }

    /// The whole flow a front end drives: authorize, the browser at the provider, exchange.
    pub(super) async fn sign_in_with_provider(&self, user: &EndUser) -> reqwest::Response {
        let started = self.start().await;
        let callback = sign_in_at_provider(&started.url, user).await;
        self.exchange(&callback, REDIRECT_URI, &started.binding)
            .await
    }

    /// Registers `email` and confirms it through the mailed link.
    pub(super) async fn registered_and_confirmed(&self, email: &str) -> Tokens {
        let tokens = self.signed_in(email).await;
        let token = self.token_from_mail(email, "confirm-email", 1).await;
        let confirmed = self.post("/confirm-email", json!({ "token": token })).await;
        assert_eq!(confirmed.status(), StatusCode::NO_CONTENT);
        tokens
    }

    pub(super) async fn identities(&self, access: &str) -> Vec<Value> {
        let response = self.get_as(access, "/api/v1/auth/identities").await;
        assert_eq!(response.status(), StatusCode::OK);
        response.json().await.unwrap()
    }

    pub(super) async fn me(&self, access: &str) -> Value {
        self.get_as(access, "/api/v1/auth/me")
            .await
            .json()
            .await
            .unwrap()
    }

    pub(super) async fn session_count(&self, access: &str) -> usize {
        let sessions: Vec<Value> = self
            .get_as(access, "/api/v1/auth/sessions")
            .await
            .json()
            .await
            .unwrap();
        sessions.len()
    }
}

/// A sign-in as the front end that started it holds it.
pub(super) struct Started {
    pub(super) url: String,
    pub(super) binding: String,
}

pub(super) fn email() -> String {
    format!("oidc-{}@example.com", testing::unique_suffix())
}

#[tokio::test]
async fn the_configured_providers_are_listed() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;

    let response = identity.app.get("/api/v1/auth/oauth/providers").await;

    assert_eq!(response.status(), StatusCode::OK);
    let providers: Value = response.json().await.unwrap();
    assert_eq!(
        providers,
        json!([{ "name": "test", "displayName": "Test SSO" }])
    );
}

#[tokio::test]
async fn authorize_answers_the_providers_url_with_state_nonce_and_pkce() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;

    let response = identity.authorize(PROVIDER, REDIRECT_URI).await;

    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    let url = body["authorizationUrl"].as_str().unwrap();
    assert!(
        url.starts_with(&format!("{}/auth?", provider().issuer)),
        "{url}"
    );
    let state = body["state"].as_str().unwrap();
    for part in [
        "response_type=code",
        &format!("client_id={CLIENT_ID}"),
        &format!("state={state}"),
        "nonce=",
        "code_challenge=",
        "code_challenge_method=S256",
        "scope=openid",
    ] {
        assert!(url.contains(part), "{part} missing from {url}");
    }
    assert!(!url.contains(CLIENT_SECRET));
    let binding = body["binding"]
        .as_str()
        .expect("a binding for the exchange");
    assert!(binding.len() >= 43, "256 bits: {binding}");
    assert!(
        !url.contains(binding),
        "the binding never goes to the provider"
    );
}

#[tokio::test]
async fn a_first_sign_in_with_a_verified_email_makes_an_account() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let address = email();

    let signed_in = tokens(
        identity
            .sign_in_with_provider(&EndUser::new(&address, true))
            .await,
    )
    .await;

    let me = identity.me(&signed_in.access).await;
    assert_eq!(me["email"], address.as_str());
    assert_eq!(
        me["emailConfirmed"], true,
        "the provider verified the address"
    );
    let linked = identity.identities(&signed_in.access).await;
    assert_eq!(linked.len(), 1);
    assert_eq!(linked[0]["provider"], PROVIDER);
    assert_eq!(linked[0]["email"], address.as_str());
    assert_eq!(identity.session_count(&signed_in.access).await, 1);
}

#[tokio::test]
async fn a_provider_that_keeps_the_address_out_of_its_id_tokens_is_asked_its_userinfo() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service_with_issuer(&provider_with_claims_in_userinfo().issuer).await;
    let address = email();

    let signed_in = tokens(
        identity
            .sign_in_with_provider(&EndUser::new(&address, true))
            .await,
    )
    .await;

    let me = identity.me(&signed_in.access).await;
    assert_eq!(me["email"], address.as_str());
    assert_eq!(me["emailConfirmed"], true);
}

#[tokio::test]
async fn a_userinfo_address_the_provider_did_not_verify_links_nothing() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service_with_issuer(&provider_with_claims_in_userinfo().issuer).await;
    let address = email();
    let local = identity.registered_and_confirmed(&address).await;

    let response = identity
        .sign_in_with_provider(&EndUser::new(&address, false))
        .await;

    assert_problem(response, StatusCode::FORBIDDEN).await;
    assert!(identity.identities(&local.access).await.is_empty());
}

#[tokio::test]
async fn a_second_sign_in_finds_the_same_account_and_its_session_refreshes_like_any_other() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let user = EndUser::new(&email(), true);
    let first = tokens(identity.sign_in_with_provider(&user).await).await;

    let second = tokens(identity.sign_in_with_provider(&user).await).await;

    assert_eq!(
        identity.user_id(&first.access).await,
        identity.user_id(&second.access).await
    );
    assert_eq!(identity.session_count(&second.access).await, 2);
    let refreshed = identity.refresh(&second.refresh).await;
    assert_eq!(refreshed.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_verified_email_links_to_the_confirmed_account_with_that_address() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let address = email();
    let local = identity.registered_and_confirmed(&address).await;
    let account_id = identity.user_id(&local.access).await;

    let signed_in = tokens(
        identity
            .sign_in_with_provider(&EndUser::new(&address, true))
            .await,
    )
    .await;

    assert_eq!(identity.user_id(&signed_in.access).await, account_id);
    assert_eq!(identity.identities(&signed_in.access).await.len(), 1);
}

#[tokio::test]
async fn an_email_the_provider_did_not_verify_links_nothing() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let address = email();
    let local = identity.registered_and_confirmed(&address).await;

    let response = identity
        .sign_in_with_provider(&EndUser::new(&address, false))
        .await;

    assert_problem(response, StatusCode::FORBIDDEN).await;
    assert!(identity.identities(&local.access).await.is_empty());
    assert_eq!(identity.session_count(&local.access).await, 1);
}

#[tokio::test]
async fn an_unverified_email_makes_no_account_either() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let address = email();

    let response = identity
        .sign_in_with_provider(&EndUser::new(&address, false))
        .await;

    assert_problem(response, StatusCode::FORBIDDEN).await;
    let registered = identity.register(&address).await;
    assert_eq!(
        registered.status(),
        StatusCode::CREATED,
        "the address is still free"
    );
}

#[tokio::test]
async fn an_account_that_has_not_confirmed_its_address_is_not_linked() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let address = email();
    let local = identity.signed_in(&address).await;

    let response = identity
        .sign_in_with_provider(&EndUser::new(&address, true))
        .await;

    assert_problem(response, StatusCode::CONFLICT).await;
    assert!(identity.identities(&local.access).await.is_empty());
    assert_eq!(identity.session_count(&local.access).await, 1);
}

#[tokio::test]
async fn with_account_creation_off_a_first_sign_in_without_an_account_is_refused() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service_with(TestApp::builder().setting("oauth.create_accounts", "false")).await;

    let response = identity
        .sign_in_with_provider(&EndUser::new(&email(), true))
        .await;

    assert_problem(response, StatusCode::FORBIDDEN).await;
}

#[tokio::test]
async fn a_replayed_exchange_opens_no_second_session() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let started = identity.start().await;
    let callback = sign_in_at_provider(&started.url, &EndUser::new(&email(), true)).await;
    let first = tokens(
        identity
            .exchange(&callback, REDIRECT_URI, &started.binding)
            .await,
    )
    .await;

    let replayed = identity
        .exchange(&callback, REDIRECT_URI, &started.binding)
        .await;

    let problem = assert_problem(replayed, StatusCode::BAD_REQUEST).await;
    assert!(problem["detail"].as_str().unwrap().contains("state"));
    assert_eq!(identity.session_count(&first.access).await, 1);
}

#[tokio::test]
async fn no_secret_of_a_sign_in_reaches_the_logs() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let logs = CapturedLogs::install();
    let identity = service().await;
    let started = identity.start().await;
    let callback = sign_in_at_provider(&started.url, &EndUser::new(&email(), true)).await;

    let signed_in = tokens(
        identity
            .exchange(&callback, REDIRECT_URI, &started.binding)
            .await,
    )
    .await;
    identity
        .exchange(&callback, REDIRECT_URI, &started.binding)
        .await;

    let logged = logs.all().join("\n");
    assert!(!logged.is_empty(), "the service's logs were captured");
    for secret in [
        CLIENT_SECRET,
        &started.binding,
        &callback.code,
        &callback.state,
        &signed_in.access,
        &signed_in.refresh,
    ] {
        assert!(!logged.contains(secret), "a secret was logged: {logged}");
    }
}

#[tokio::test]
async fn a_used_code_under_a_fresh_state_is_refused_by_the_provider() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let started = identity.start().await;
    let callback = sign_in_at_provider(&started.url, &EndUser::new(&email(), true)).await;
    let first = tokens(
        identity
            .exchange(&callback, REDIRECT_URI, &started.binding)
            .await,
    )
    .await;
    let fresh: Value = identity
        .authorize(PROVIDER, REDIRECT_URI)
        .await
        .json()
        .await
        .unwrap();

    let replayed = identity
        .exchange(
            &Callback {
                code: callback.code.clone(),
                state: fresh["state"].as_str().unwrap().to_owned(),
            },
            REDIRECT_URI,
            fresh["binding"].as_str().unwrap(),
        )
        .await;

    assert_problem(replayed, StatusCode::UNAUTHORIZED).await;
    assert_eq!(identity.session_count(&first.access).await, 1);
}

#[tokio::test]
async fn a_state_the_service_never_issued_is_refused() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let started = identity.start().await;
    let callback = sign_in_at_provider(&started.url, &EndUser::new(&email(), true)).await;

    let response = identity
        .exchange(
            &Callback {
                code: callback.code,
                state: "a-state-nobody-issued".into(),
            },
            REDIRECT_URI,
            &started.binding,
        )
        .await;

    assert_problem(response, StatusCode::BAD_REQUEST).await;
}

#[tokio::test]
async fn sign_ins_started_from_one_address_are_limited_and_others_are_not() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity =
        service_with(TestApp::builder().setting("rate_limit.provider_sign_ins_per_address", "2"))
            .await;

    for _ in 0..2 {
        assert_eq!(
            identity.authorize_from("127.0.0.2").await.status(),
            StatusCode::OK
        );
    }
    let flooding = identity.authorize_from("127.0.0.2").await;
    let elsewhere = identity.authorize_from("127.0.0.3").await;

    assert!(flooding.headers().contains_key("retry-after"));
    assert_problem(flooding, StatusCode::TOO_MANY_REQUESTS).await;
    assert_eq!(elsewhere.status(), StatusCode::OK);
}

#[tokio::test]
async fn starts_for_an_unknown_provider_are_refused_without_being_counted() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity =
        service_with(TestApp::builder().setting("rate_limit.provider_sign_ins_per_address", "2"))
            .await;
    let client = identity.app.client_from("127.0.0.4".parse().unwrap());
    for _ in 0..5 {
        let unknown = identity
            .authorize_with(&client, "no-such-provider", REDIRECT_URI)
            .await;
        assert_problem(unknown, StatusCode::NOT_FOUND).await;
    }

    let known = identity.authorize_from("127.0.0.4").await;

    assert_eq!(known.status(), StatusCode::OK, "nothing was counted");
}

#[tokio::test]
async fn a_redirect_uri_outside_the_allow_list_is_refused() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;

    let authorize = identity.authorize(PROVIDER, OTHER_REDIRECT_URI).await;
    let exchange = identity
        .exchange(
            &Callback {
                code: "any".into(),
                state: "any".into(),
            },
            OTHER_REDIRECT_URI,
            "any",
        )
        .await;

    let problem = assert_problem(authorize, StatusCode::BAD_REQUEST).await;
    assert!(problem["detail"].as_str().unwrap().contains("redirectUri"));
    assert_problem(exchange, StatusCode::BAD_REQUEST).await;
}

#[tokio::test]
async fn an_exchange_must_name_the_redirect_uri_its_authorization_used() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service_with(TestApp::builder().setting(
        "oauth.providers.test.redirect_uris",
        &format!("{REDIRECT_URI},{OTHER_REDIRECT_URI}"),
    ))
    .await;
    let started = identity.start().await;
    let callback = sign_in_at_provider(&started.url, &EndUser::new(&email(), true)).await;

    let response = identity
        .exchange(&callback, OTHER_REDIRECT_URI, &started.binding)
        .await;

    assert_problem(response, StatusCode::BAD_REQUEST).await;
}

#[tokio::test]
async fn an_id_token_whose_nonce_does_not_match_is_refused() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let started = identity.start().await;
    // The browser reaches the provider with another nonce than the service keeps: the ID
    // token carries that one.
    let nonce = started
        .url
        .split('&')
        .find(|part| part.starts_with("nonce="))
        .unwrap();
    let tampered = started.url.replace(nonce, "nonce=chosen-by-someone-else");
    let address = email();
    let callback = sign_in_at_provider(&tampered, &EndUser::new(&address, true)).await;
    let logs = CapturedLogs::install();

    let response = identity
        .exchange(&callback, REDIRECT_URI, &started.binding)
        .await;

    assert_problem(response, StatusCode::UNAUTHORIZED).await;
    assert_eq!(
        logs.count(tracing::Level::WARN, "its nonce check failed"),
        1,
        "{:?}",
        logs.all()
    );
    assert_eq!(
        identity.register(&address).await.status(),
        StatusCode::CREATED,
        "no account was made"
    );
}

#[tokio::test]
async fn a_provider_that_cannot_be_reached_answers_502() {
    let identity = Identity::spawn_with(with_provider(
        TestApp::builder().setting("oauth.http_timeout", "2s"),
        &format!("http://127.0.0.1:{}", free_port()),
    ))
    .await;

    let authorize = identity.authorize(PROVIDER, REDIRECT_URI).await;

    let problem = assert_problem(authorize, StatusCode::BAD_GATEWAY).await;
    assert!(problem["detail"].as_str().unwrap().contains("`test`"));
    assert!(!problem.to_string().contains(CLIENT_SECRET));
}

/// A port nobody listens on (any more).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[tokio::test]
async fn a_provider_that_goes_down_before_the_exchange_answers_502_and_opens_nothing() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let own = start(ProviderOptions::default());
    let identity = service_with_issuer(&own.issuer).await;
    let address = email();
    let started = identity.start().await;
    let callback = sign_in_at_provider(&started.url, &EndUser::new(&address, true)).await;
    own.stop();

    let response = identity
        .exchange(&callback, REDIRECT_URI, &started.binding)
        .await;

    assert_problem(response, StatusCode::BAD_GATEWAY).await;
    assert_eq!(
        identity.register(&address).await.status(),
        StatusCode::CREATED,
        "no account was made"
    );
}

#[tokio::test]
async fn a_provider_that_rotated_its_signing_key_is_followed() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let port = free_port();
    let options = ProviderOptions {
        port,
        fresh_keys: true,
        ..ProviderOptions::default()
    };
    let before = start(options);
    let identity = service_with_issuer(&before.issuer).await;
    let user = EndUser::new(&email(), true);
    // The service reads (and keeps) the provider's discovery document and keys.
    tokens(identity.sign_in_with_provider(&user).await).await;
    before.stop();
    // The same provider, signing with a key the service has not seen.
    let after = start(options);

    let response = identity.sign_in_with_provider(&user).await;

    tokens(response).await;
    after.stop();
}

#[tokio::test]
async fn an_unknown_provider_is_404() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;

    let authorize = identity.authorize("nobody", REDIRECT_URI).await;
    let exchange = identity
        .post(
            "/oauth/nobody/exchange",
            json!({ "code": "c", "state": "s", "binding": "b", "redirectUri": REDIRECT_URI }),
        )
        .await;

    assert_problem(authorize, StatusCode::NOT_FOUND).await;
    assert_problem(exchange, StatusCode::NOT_FOUND).await;
}

#[tokio::test]
async fn a_locked_account_cannot_sign_in_with_a_provider() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let user = EndUser::new(&email(), true);
    let first = tokens(identity.sign_in_with_provider(&user).await).await;
    let user_id = identity.user_id(&first.access).await;
    let admin = identity.signed_in_admin(&email()).await;
    let locked = identity.admin_action(&admin.access, "lock", &user_id).await;
    assert_eq!(locked.status(), StatusCode::NO_CONTENT);

    let response = identity.sign_in_with_provider(&user).await;

    assert_problem(response, StatusCode::FORBIDDEN).await;
}

#[tokio::test]
async fn a_locked_account_is_not_linked_either() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let address = email();
    let local = identity.registered_and_confirmed(&address).await;
    let user_id = identity.user_id(&local.access).await;
    let admin = identity.signed_in_admin(&email()).await;
    identity.admin_action(&admin.access, "lock", &user_id).await;

    let response = identity
        .sign_in_with_provider(&EndUser::new(&address, true))
        .await;

    assert_problem(response, StatusCode::FORBIDDEN).await;
}

#[tokio::test]
async fn a_linked_identity_can_be_removed_from_an_account_with_a_password() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let address = email();
    identity.registered_and_confirmed(&address).await;
    tokens(
        identity
            .sign_in_with_provider(&EndUser::new(&address, true))
            .await,
    )
    .await;
    // The link by address removed the password from before it: the owner sets a new one.
    let reset = identity
        .reset_password_by_mail(&address, NEW_PASSWORD)
        .await;
    assert_eq!(reset.status(), StatusCode::NO_CONTENT);
    let local = tokens(identity.login(&address, NEW_PASSWORD).await).await;
    let linked = identity.identities(&local.access).await;

    let removed = identity
        .app
        .request(
            Method::DELETE,
            &format!(
                "/api/v1/auth/identities/{}",
                linked[0]["id"].as_str().unwrap()
            ),
        )
        .bearer_auth(&local.access)
        .send()
        .await
        .unwrap();

    assert_eq!(removed.status(), StatusCode::NO_CONTENT);
    assert!(identity.identities(&local.access).await.is_empty());
    let password_login = identity.login(&address, NEW_PASSWORD).await;
    assert_eq!(password_login.status(), StatusCode::OK);
}

#[tokio::test]
async fn the_only_way_to_sign_in_cannot_be_removed() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let signed_in = tokens(
        identity
            .sign_in_with_provider(&EndUser::new(&email(), true))
            .await,
    )
    .await;
    let linked = identity.identities(&signed_in.access).await;

    let removed = identity
        .app
        .request(
            Method::DELETE,
            &format!(
                "/api/v1/auth/identities/{}",
                linked[0]["id"].as_str().unwrap()
            ),
        )
        .bearer_auth(&signed_in.access)
        .send()
        .await
        .unwrap();

    assert_problem(removed, StatusCode::CONFLICT).await;
    assert_eq!(identity.identities(&signed_in.access).await.len(), 1);
}

#[tokio::test]
async fn an_account_made_by_a_provider_has_no_password_to_guess() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let address = email();
    tokens(
        identity
            .sign_in_with_provider(&EndUser::new(&address, true))
            .await,
    )
    .await;

    let response = identity.login(&address, "").await;
    let guessed = identity.login(&address, PASSWORD).await;

    assert_problem(response, StatusCode::UNAUTHORIZED).await;
    assert_problem(guessed, StatusCode::UNAUTHORIZED).await;
}

#[tokio::test]
async fn without_providers_the_operations_are_documented_and_answer_404() {
    let app = TestApp::spawn().await;

    let listed: Value = app
        .get("/api/v1/auth/oauth/providers")
        .await
        .json()
        .await
        .unwrap();
    let authorize = app
        .get("/api/v1/auth/oauth/google/authorize?redirectUri=https%3A%2F%2Fapp.example.com%2Fcb")
        .await;

    assert_eq!(listed, json!([]));
    assert_problem(authorize, StatusCode::NOT_FOUND).await;
}

// ---- The pre-registration takeover (issue 34) ----
//
// An attacker registers the victim's address with a password of their own and signs in. The
// victim confirms the address from the mail they receive, then signs in with a provider that
// asserts the same address verified: the sign-in links to that account. Nothing from before the
// link may still open it.

/// The account the attack made and the victim took over by signing in with the provider.
struct PreRegistered {
    address: String,
    account_id: String,
    /// The attacker's session from before the link.
    attacker: Tokens,
    /// The victim's session, from the sign-in that made the link.
    victim: Tokens,
}

impl Identity {
    async fn pre_registered_then_linked(&self) -> PreRegistered {
        let address = email();
        // The attacker registers the victim's address with their own password, and signs in.
        let attacker = self.signed_in(&address).await;
        let account_id = self.user_id(&attacker.access).await;
        // The victim confirms the address from the mail they receive.
        let token = self.token_from_mail(&address, "confirm-email", 1).await;
        let confirmed = self.post("/confirm-email", json!({ "token": token })).await;
        assert_eq!(confirmed.status(), StatusCode::NO_CONTENT);
        // The victim signs in with a provider that asserts the same address verified.
        let victim = tokens(
            self.sign_in_with_provider(&EndUser::new(&address, true))
                .await,
        )
        .await;
        assert_eq!(
            self.user_id(&victim.access).await,
            account_id,
            "the sign-in linked to the pre-registered account"
        );
        PreRegistered {
            address,
            account_id,
            attacker,
            victim,
        }
    }
}

#[tokio::test]
async fn a_password_set_before_a_link_by_address_no_longer_logs_in() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let attack = identity.pre_registered_then_linked().await;

    let attackers_login = identity.login(&attack.address, PASSWORD).await;

    assert_problem(attackers_login, StatusCode::UNAUTHORIZED).await;
}

#[tokio::test]
async fn sessions_opened_before_a_link_by_address_are_revoked() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let attack = identity.pre_registered_then_linked().await;

    let attackers_access = identity
        .get_as(&attack.attacker.access, "/api/v1/auth/me")
        .await;
    let attackers_refresh = identity.refresh(&attack.attacker.refresh).await;

    assert_problem(attackers_access, StatusCode::UNAUTHORIZED).await;
    assert_problem(attackers_refresh, StatusCode::UNAUTHORIZED).await;
    assert_eq!(
        identity.user_id(&attack.victim.access).await,
        attack.account_id,
        "the session of the sign-in that linked stays open"
    );
    assert_eq!(identity.session_count(&attack.victim.access).await, 1);
}

#[tokio::test]
async fn the_owner_is_mailed_when_a_provider_is_linked_by_address() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let attack = identity.pre_registered_then_linked().await;

    let mail = identity
        .mail_with_subject(
            &attack.address,
            "A sign-in provider was linked to your account",
        )
        .await;

    let text = mail.text_body().unwrap_or_default();
    assert!(text.contains("Test SSO"), "{text}");
    assert!(text.contains("/reset-password"), "{text}");
}

#[tokio::test]
async fn after_a_link_by_address_the_owner_sets_a_password_by_reset() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let attack = identity.pre_registered_then_linked().await;

    let reset = identity
        .reset_password_by_mail(&attack.address, NEW_PASSWORD)
        .await;
    let login = identity.login(&attack.address, NEW_PASSWORD).await;

    assert_eq!(reset.status(), StatusCode::NO_CONTENT);
    let owner = tokens(login).await;
    assert_eq!(identity.user_id(&owner.access).await, attack.account_id);
}

#[tokio::test]
async fn a_second_sign_in_with_a_linked_identity_revokes_nothing() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let user = EndUser::new(&email(), true);
    let first = tokens(identity.sign_in_with_provider(&user).await).await;

    tokens(identity.sign_in_with_provider(&user).await).await;

    assert_eq!(
        identity
            .get_as(&first.access, "/api/v1/auth/me")
            .await
            .status(),
        StatusCode::OK
    );
}

// ---- A sign-in bound to the client that started it (issue 34) ----

#[tokio::test]
async fn a_code_and_state_presented_without_the_binding_sign_nobody_in() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let authorized: Value = identity
        .authorize(PROVIDER, REDIRECT_URI)
        .await
        .json()
        .await
        .unwrap();
    let url = authorized["authorizationUrl"].as_str().unwrap();
    let callback = sign_in_at_provider(url, &EndUser::new(&email(), true)).await;

    // Someone who saw the redirect back (a log, a Referer, a shared link) has the code and
    // the state, not what `authorize` answered the front end.
    let without = identity.exchange_unbound(&callback).await;
    let with_a_guess = identity
        .exchange(&callback, REDIRECT_URI, "a-binding-of-their-own")
        .await;

    assert_problem(without, StatusCode::BAD_REQUEST).await;
    assert_problem(with_a_guess, StatusCode::BAD_REQUEST).await;
}

#[tokio::test]
async fn a_refused_unbound_exchange_leaves_the_sign_in_to_its_front_end() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let started = identity.start().await;
    let callback = sign_in_at_provider(&started.url, &EndUser::new(&email(), true)).await;
    identity
        .exchange(&callback, REDIRECT_URI, "a-binding-of-their-own")
        .await;

    let front_end = identity
        .exchange(&callback, REDIRECT_URI, &started.binding)
        .await;

    tokens(front_end).await;
}

#[tokio::test]
async fn a_callback_of_someone_elses_sign_in_is_refused() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    // The attacker starts a sign-in and signs in at the provider as themself...
    let attackers = identity.start().await;
    let attackers_callback =
        sign_in_at_provider(&attackers.url, &EndUser::new(&email(), true)).await;
    // ...then makes the victim's browser land on the callback with that code and state. The
    // victim's front end holds the binding of its own sign-in.
    let victims = identity.start().await;

    let response = identity
        .exchange(&attackers_callback, REDIRECT_URI, &victims.binding)
        .await;

    assert_problem(response, StatusCode::BAD_REQUEST).await;
}

impl Identity {
    /// `GET /auth/oauth/test/link` as the account of `access`.
    pub(super) async fn start_link_as(&self, access: &str) -> reqwest::Response {
        self.app
            .request(Method::GET, &format!("/api/v1/auth/oauth/{PROVIDER}/link"))
            .query(&[("redirectUri", REDIRECT_URI)])
            .bearer_auth(access)
            .send()
            .await
            .expect("request failed")
    }

    /// What `startOAuthLink` answers the account of `access`.
    pub(super) async fn started_link(&self, access: &str) -> Started {
        let response = self.start_link_as(access).await;
        assert_eq!(response.status(), StatusCode::OK);
        let body: Value = response.json().await.unwrap();
        Started {
            url: body["authorizationUrl"].as_str().unwrap().to_owned(),
            binding: body["binding"].as_str().unwrap().to_owned(),
        }
    }

    /// `POST /auth/oauth/test/link/exchange` as the account of `access`, with a fresh key.
    pub(super) async fn complete_link_as(
        &self,
        access: &str,
        callback: &Callback,
        binding: &str,
    ) -> reqwest::Response {
        self.app
            .request(
                Method::POST,
                &format!("/api/v1/auth/oauth/{PROVIDER}/link/exchange"),
            )
            .bearer_auth(access)
            .header("Idempotency-Key", uuid::Uuid::new_v4().to_string())
            .json(&json!({
                "code": callback.code,
                "state": callback.state,
                "redirectUri": REDIRECT_URI,
                "binding": binding,
            }))
            .send()
            .await
            .expect("request failed")
    }

    /// The whole link a front end drives for the account of `access`: start, the browser at
    /// the provider as `user`, complete.
    pub(super) async fn link_with_provider(
        &self,
        access: &str,
        user: &EndUser,
    ) -> reqwest::Response {
        let started = self.started_link(access).await;
        let callback = sign_in_at_provider(&started.url, user).await;
        self.complete_link_as(access, &callback, &started.binding)
            .await
    }
}

#[tokio::test]
async fn a_signed_in_account_links_a_provider_account_that_asserts_no_verified_address() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let address = email();
    let local = identity.registered_and_confirmed(&address).await;
    let at_provider = EndUser::new(&email(), false);

    let linked = identity
        .link_with_provider(&local.access, &at_provider)
        .await;

    assert_eq!(linked.status(), StatusCode::CREATED);
    let view: Value = linked.json().await.unwrap();
    assert_eq!(view["provider"], PROVIDER);
    // (The test provider's subject is the whole login it was given, which starts with it.)
    assert!(
        view["subject"]
            .as_str()
            .unwrap()
            .starts_with(&at_provider.subject)
    );
    assert!(
        view.get("email").is_none(),
        "an unverified address is not shown"
    );
    let listed = identity.identities(&local.access).await;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["id"], view["id"]);
    assert_eq!(
        identity.session_count(&local.access).await,
        1,
        "no session is opened and none is revoked"
    );
}

#[tokio::test]
async fn a_provider_account_linked_while_signed_in_then_signs_in_to_that_account() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let address = email();
    let local = identity.registered_and_confirmed(&address).await;
    let at_provider = EndUser::new(&email(), false);
    let linked = identity
        .link_with_provider(&local.access, &at_provider)
        .await;
    assert_eq!(linked.status(), StatusCode::CREATED);

    let signed_in = tokens(identity.sign_in_with_provider(&at_provider).await).await;

    assert_eq!(
        identity.me(&signed_in.access).await["email"],
        address.as_str()
    );
    let password_login = identity.login(&address, PASSWORD).await;
    assert_eq!(
        password_login.status(),
        StatusCode::OK,
        "an explicit link leaves the password alone"
    );
}

#[tokio::test]
async fn a_provider_account_linked_to_another_account_is_not_linked_again() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let at_provider = EndUser::new(&email(), true);
    tokens(identity.sign_in_with_provider(&at_provider).await).await;
    let alice = identity.registered_and_confirmed(&email()).await;

    let response = identity
        .link_with_provider(&alice.access, &at_provider)
        .await;

    let problem = assert_problem(response, StatusCode::CONFLICT).await;
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("another account"),
        "{problem}"
    );
    assert!(identity.identities(&alice.access).await.is_empty());
}

#[tokio::test]
async fn a_provider_account_linked_already_is_a_conflict_for_its_own_account_too() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let local = identity.registered_and_confirmed(&email()).await;
    let at_provider = EndUser::new(&email(), false);
    let first = identity
        .link_with_provider(&local.access, &at_provider)
        .await;
    assert_eq!(first.status(), StatusCode::CREATED);

    let again = identity
        .link_with_provider(&local.access, &at_provider)
        .await;

    assert_problem(again, StatusCode::CONFLICT).await;
    assert_eq!(identity.identities(&local.access).await.len(), 1);
}

#[tokio::test]
async fn a_link_started_by_one_account_cannot_be_completed_by_another() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let alice = identity.registered_and_confirmed(&email()).await;
    let mallory = identity.registered_and_confirmed(&email()).await;
    let started = identity.started_link(&alice.access).await;
    let callback = sign_in_at_provider(&started.url, &EndUser::new(&email(), false)).await;

    let response = identity
        .complete_link_as(&mallory.access, &callback, &started.binding)
        .await;

    assert_problem(response, StatusCode::BAD_REQUEST).await;
    assert!(identity.identities(&alice.access).await.is_empty());
    assert!(identity.identities(&mallory.access).await.is_empty());
}

#[tokio::test]
async fn a_links_state_signs_nobody_in() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let alice = identity.registered_and_confirmed(&email()).await;
    let started = identity.started_link(&alice.access).await;
    let callback = sign_in_at_provider(&started.url, &EndUser::new(&email(), true)).await;

    let response = identity
        .exchange(&callback, REDIRECT_URI, &started.binding)
        .await;

    assert_problem(response, StatusCode::BAD_REQUEST).await;
    assert!(identity.identities(&alice.access).await.is_empty());
}

#[tokio::test]
async fn a_sign_ins_state_links_nothing() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let alice = identity.registered_and_confirmed(&email()).await;
    let started = identity.start().await;
    let callback = sign_in_at_provider(&started.url, &EndUser::new(&email(), true)).await;

    let response = identity
        .complete_link_as(&alice.access, &callback, &started.binding)
        .await;

    assert_problem(response, StatusCode::BAD_REQUEST).await;
    assert!(identity.identities(&alice.access).await.is_empty());
}

#[tokio::test]
async fn linking_a_provider_account_takes_a_signed_in_caller() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;

    let response = identity
        .app
        .request(Method::GET, &format!("/api/v1/auth/oauth/{PROVIDER}/link"))
        .query(&[("redirectUri", REDIRECT_URI)])
        .send()
        .await
        .unwrap();

    assert_problem(response, StatusCode::UNAUTHORIZED).await;
}

#[tokio::test]
async fn a_provider_account_linked_while_signed_in_can_be_removed_as_any() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let local = identity.registered_and_confirmed(&email()).await;
    let linked: Value = identity
        .link_with_provider(&local.access, &EndUser::new(&email(), false))
        .await
        .json()
        .await
        .unwrap();

    let removed = identity
        .app
        .request(
            Method::DELETE,
            &format!("/api/v1/auth/identities/{}", linked["id"].as_str().unwrap()),
        )
        .bearer_auth(&local.access)
        .send()
        .await
        .unwrap();

    assert_eq!(removed.status(), StatusCode::NO_CONTENT);
    assert!(identity.identities(&local.access).await.is_empty());
}
