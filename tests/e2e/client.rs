//! The typed client (`clients/rust`): generated from the committed document, and retrying as
//! its documentation says against the real service.

use crate::docs::{repository_file, updating_expectations};

#[test]
fn the_client_is_generated_from_the_committed_document() {
    let document = std::fs::read_to_string(repository_file("openapi/openapi.json")).unwrap();
    let generated = api_client::generate::client_code(&document);
    let path = repository_file("clients/rust/src/generated.rs");

    if updating_expectations() {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();

    assert!(
        committed == generated,
        "clients/rust/src/generated.rs is not what progenitor makes of openapi/openapi.json; \
         write it again with `cargo run -p api-client --features generate --bin generate-client` \
         (or `UPDATE_EXPECT=1 cargo test -p e2e --test e2e client::`)"
    );
}

mod against_the_service {
    use std::net::SocketAddr;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use api_client::types::{LoginRequest, ThingInput};
    use api_client::{Client, ClientOptions, RetryPolicy, was_replayed};
    use e2e::TestApp;
    use poem_idempotency::key::{ClientKey, Fingerprint, ScopeKey};
    use poem_idempotency::store::{Claim, LeaseToken};
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    use tokio::net::{TcpListener, TcpStream};

    /// When the proxy cuts a connection it resets.
    #[derive(Clone, Copy)]
    enum Cut {
        /// After the service answered: a call that took effect but whose answer was lost.
        AfterTheAnswer,
        /// As soon as the request is passed on, both ways (as the disconnect tests do): the
        /// service sees its client vanish mid-request.
        BeforeTheAnswer,
    }

    /// A TCP proxy in front of the service that cuts its first `resets` connections (see
    /// [`Cut`]) by resetting them, and relays later ones whole.
    struct ResettingProxy {
        address: SocketAddr,
        connections: Arc<AtomicUsize>,
    }

    impl ResettingProxy {
        async fn start(app: &TestApp, resets: usize) -> Self {
            Self::cutting(app, resets, Cut::AfterTheAnswer).await
        }

        async fn cutting(app: &TestApp, resets: usize, cut: Cut) -> Self {
            let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
            let address = listener.local_addr().unwrap();
            let upstream = app.address.trim_start_matches("http://").to_owned();
            let connections = Arc::new(AtomicUsize::new(0));
            let counted = Arc::clone(&connections);
            tokio::spawn(async move {
                while let Ok((client, _)) = listener.accept().await {
                    let reset = counted.fetch_add(1, Ordering::SeqCst) < resets;
                    tokio::spawn(relay(client, upstream.clone(), reset.then_some(cut)));
                }
            });
            Self {
                address,
                connections,
            }
        }

        fn url(&self) -> String {
            format!("http://{}", self.address)
        }

        /// The connections clients opened through the proxy: the attempts made.
        fn connections(&self) -> usize {
            self.connections.load(Ordering::SeqCst)
        }
    }

    async fn relay(mut client: TcpStream, upstream: String, cut: Option<Cut>) {
        let Some(request) = read_message(&mut client).await else {
            return;
        };
        let mut service = TcpStream::connect(upstream).await.unwrap();
        service.write_all(&request).await.unwrap();
        // Linger 0: closing sends RST, as a connection cut by a network or a proxy does.
        if let Some(Cut::BeforeTheAnswer) = cut {
            service.set_zero_linger().unwrap();
            client.set_zero_linger().unwrap();
            return;
        }
        let answer = read_message(&mut service)
            .await
            .expect("the service answers");
        if let Some(Cut::AfterTheAnswer) = cut {
            client.set_zero_linger().unwrap();
            return;
        }
        client.write_all(&answer).await.unwrap();
        let _ = client.shutdown().await;
    }

    /// One HTTP/1.1 message with a `Content-Length` (or no body): its head and body.
    async fn read_message(stream: &mut TcpStream) -> Option<Vec<u8>> {
        let mut message = Vec::new();
        let mut chunk = [0u8; 4096];
        loop {
            if let Some(end) = message.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&message[..end]).to_ascii_lowercase();
                let length: usize = head
                    .lines()
                    .find_map(|line| line.strip_prefix("content-length:"))
                    .map_or(0, |value| value.trim().parse().unwrap());
                if message.len() >= end + 4 + length {
                    return Some(message);
                }
            }
            let read = stream.read(&mut chunk).await.ok()?;
            if read == 0 {
                return None;
            }
            message.extend_from_slice(&chunk[..read]);
        }
    }

    /// A client of `base_url` signed in as `subject`, opening a connection per request (so
    /// that each attempt is one connection through the proxy).
    fn client_of(app: &TestApp, base_url: &str, subject: &str, retry: RetryPolicy) -> Client {
        let http = api_client::reqwest::Client::builder()
            .pool_max_idle_per_host(0)
            .build()
            .unwrap();
        let options = ClientOptions {
            access_token: Some(app.token_for(subject)),
            retry,
        };
        Client::new_with_client(base_url, http, options)
    }

    /// Quick retries, so that the tests wait on the service rather than on the backoff.
    fn quick_retries() -> RetryPolicy {
        RetryPolicy {
            first_delay: Duration::from_millis(10),
            max_delay: Duration::from_millis(200),
            ..RetryPolicy::default()
        }
    }

    fn thing(name: &str) -> api_client::types::builder::ThingInput {
        ThingInput::builder().name(name)
    }

    async fn things_of(client: &Client) -> usize {
        client.list_things().send().await.unwrap().items.len()
    }

    #[tokio::test]
    async fn a_create_whose_answer_was_lost_is_retried_with_its_key_and_replayed_once() {
        let app = TestApp::spawn().await;
        let proxy = ResettingProxy::start(&app, 1).await;
        let client = client_of(&app, &proxy.url(), "alice", quick_retries());

        let created = client.create_thing().body(thing("first")).send().await;

        let created = created.expect("the retry gets the stored answer");
        assert_eq!(created.status(), 201);
        assert!(was_replayed(&created), "the second attempt is a replay");
        assert_eq!(proxy.connections(), 2, "one attempt lost, one retry");
        assert_eq!(things_of(&client).await, 1, "one thing, not two");
    }

    #[tokio::test]
    async fn a_create_whose_connection_is_reset_mid_request_is_retried_and_made_once() {
        let app = TestApp::spawn().await;
        let proxy = ResettingProxy::cutting(&app, 1, Cut::BeforeTheAnswer).await;
        let client = client_of(&app, &proxy.url(), "alice", quick_retries());

        let created = client.create_thing().body(thing("first")).send().await;

        let created = created.expect("the retry is answered");
        assert_eq!(created.status(), 201);
        assert_eq!(proxy.connections(), 2, "one attempt cut, one retry");
        assert_eq!(things_of(&client).await, 1, "one thing, not two");
    }

    #[tokio::test]
    async fn a_non_idempotent_call_whose_answer_was_lost_is_not_retried() {
        let app = TestApp::spawn().await;
        let proxy = ResettingProxy::start(&app, 1).await;
        let client = client_of(&app, &proxy.url(), "alice", quick_retries());
        let credentials = LoginRequest::builder()
            .email("nobody@example.com")
            .password("not the password");

        let login = client.login().body(credentials).send().await;

        assert!(
            matches!(login, Err(api_client::Error::CommunicationError(_))),
            "the caller is told the exchange failed: {login:?}"
        );
        assert_eq!(proxy.connections(), 1, "no second attempt");
    }

    #[tokio::test]
    async fn a_call_without_a_failure_is_sent_once_with_a_fresh_key_and_is_no_replay() {
        let app = TestApp::spawn().await;
        let proxy = ResettingProxy::start(&app, 0).await;
        let client = client_of(&app, &proxy.url(), "alice", quick_retries());

        let first = client
            .create_thing()
            .body(thing("one"))
            .send()
            .await
            .unwrap();
        let second = client
            .create_thing()
            .body(thing("two"))
            .send()
            .await
            .unwrap();

        assert!(!was_replayed(&first) && !was_replayed(&second));
        assert_ne!(first.id, second.id, "each call has a key of its own");
        assert_eq!(proxy.connections(), 2);
    }

    /// What the service derives from alice's create with `key` and `name`: the record a
    /// running call would hold.
    fn claim_of_alice_s_create(key: &str, name: &str) -> (ScopeKey, Fingerprint) {
        let client_key = ClientKey::parse(key).unwrap().unwrap();
        let scope = ScopeKey::derive("user:alice", "POST", "/api/v1/things", &client_key);
        let body = serde_json::to_vec(&serde_json::json!({ "name": name })).unwrap();
        let fingerprint =
            Fingerprint::of_target(&body, Some("application/json"), "/api/v1/things", "");
        (scope, fingerprint)
    }

    /// Holds alice's create under `key` in flight in the service's store, as another
    /// instance running it would.
    async fn hold_in_flight(app: &TestApp, key: &str, name: &str) -> (ScopeKey, LeaseToken) {
        let (scope, fingerprint) = claim_of_alice_s_create(key, name);
        let claim = app
            .idempotency
            .store()
            .claim(&scope, &fingerprint, Duration::from_secs(60))
            .await
            .unwrap();
        let Claim::Acquired(token) = claim else {
            panic!("the key was free: {claim:?}");
        };
        (scope, token)
    }

    fn waiting_briefly() -> e2e::TestAppBuilder {
        TestApp::builder().setting("idempotency.lock_wait", "50ms")
    }

    #[tokio::test]
    async fn a_call_meeting_its_key_in_flight_waits_out_the_409_and_then_executes() {
        let app = waiting_briefly().spawn().await;
        let (scope, token) = hold_in_flight(&app, "held-key", "held").await;
        let client = client_of(&app, &app.address, "alice", quick_retries());

        let call = tokio::spawn({
            let client = client.clone();
            async move {
                client
                    .create_thing()
                    .idempotency_key("held-key")
                    .body(thing("held"))
                    .send()
                    .await
            }
        });
        while app.idempotency.metrics().conflict == 0 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        app.idempotency
            .store()
            .release(&scope, &token)
            .await
            .unwrap();
        let created = call.await.unwrap().expect("executed once the key was free");

        assert_eq!(created.status(), 201);
        assert!(!was_replayed(&created));
        assert_eq!(things_of(&client).await, 1);
    }

    #[tokio::test]
    async fn a_call_whose_key_stays_in_flight_ends_with_the_409_once_its_budget_is_spent() {
        let app = waiting_briefly().spawn().await;
        hold_in_flight(&app, "stuck-key", "stuck").await;
        let budget = RetryPolicy {
            max_attempts: 3,
            ..quick_retries()
        };
        let client = client_of(&app, &app.address, "alice", budget);

        let answer = client
            .create_thing()
            .idempotency_key("stuck-key")
            .body(thing("stuck"))
            .send()
            .await;

        let status = answer.as_ref().err().and_then(api_client::Error::status);
        assert_eq!(
            status,
            Some(api_client::reqwest::StatusCode::CONFLICT),
            "{answer:?}"
        );
        assert_eq!(
            app.idempotency.metrics().conflict,
            3,
            "three attempts, then the 409"
        );
        assert_eq!(things_of(&client).await, 0);
    }
}

/// Journeys of the suite spoken through the typed client, as a user of the service would: each
/// write is keyed by the client itself.
mod journeys {
    use api_client::types::{
        AcceptanceInput, Channel, EmailRequest, LoginRequest, NewNotification, PublishVersionInput,
        RegisterRequest, ResetPasswordRequest, ThingInput, ThingPatch,
    };
    use api_client::{Client, ClientOptions, ResponseValue, was_replayed};
    use e2e::TestApp;

    use crate::identity::Identity;

    const PASSWORD: &str = "correct horse battery";
    const NEW_PASSWORD: &str = "a brand new passphrase";

    fn anonymous(app: &TestApp) -> Client {
        Client::new(&app.address, ClientOptions::default())
    }

    fn signed_in(app: &TestApp, access_token: &str) -> Client {
        Client::new(&app.address, ClientOptions::with_access_token(access_token))
    }

    fn etag<T>(response: &ResponseValue<T>) -> String {
        response.headers()["etag"].to_str().unwrap().to_owned()
    }

    /// Registers `email` and signs in through the client: its access token.
    async fn registered(client: &Client, email: &str) -> String {
        client
            .register()
            .body(RegisterRequest::builder().email(email).password(PASSWORD))
            .send()
            .await
            .expect("registered");
        let tokens = client
            .login()
            .body(LoginRequest::builder().email(email).password(PASSWORD))
            .send()
            .await
            .expect("signed in");
        tokens.into_inner().access_token
    }

    #[tokio::test]
    async fn a_thing_is_created_read_replaced_patched_and_deleted() {
        let app = TestApp::spawn().await;
        let alice = signed_in(&app, &app.token_for("alice"));

        let created = alice
            .create_thing()
            .body(ThingInput::builder().name("lamp"))
            .send()
            .await
            .unwrap();
        let read = alice
            .get_thing()
            .id(created.id.clone())
            .send()
            .await
            .unwrap();
        let replaced = alice
            .update_thing()
            .id(created.id.clone())
            .if_match(etag(&read))
            .body(ThingInput::builder().name("desk lamp"))
            .send()
            .await
            .unwrap();
        let patched = alice
            .patch_thing()
            .id(created.id.clone())
            .if_match(etag(&replaced))
            .body(ThingPatch::builder().description(Some("brass".try_into().unwrap())))
            .send()
            .await
            .unwrap();
        let deleted = alice
            .delete_thing()
            .id(created.id.clone())
            .if_match(etag(&patched))
            .send()
            .await
            .unwrap();

        assert_eq!(created.status(), 201);
        assert!(!was_replayed(&created));
        assert_eq!(read.name, "lamp");
        assert_eq!(replaced.name, "desk lamp");
        assert_eq!(patched.name, "desk lamp");
        assert_eq!(patched.description.as_deref(), Some("brass"));
        assert_eq!(deleted.status(), 204);
        assert!(alice.list_things().send().await.unwrap().items.is_empty());
    }

    #[tokio::test]
    async fn a_password_is_reset_by_mail() {
        let identity = Identity::spawn().await;
        let client = anonymous(&identity.app);
        registered(&client, "alice@example.com").await;

        let asked = client
            .forgot_password()
            .body(EmailRequest::builder().email("alice@example.com"))
            .send()
            .await
            .unwrap();
        let token = identity
            .token_from_mail("alice@example.com", "reset-password", 1)
            .await;
        let reset = client
            .reset_password()
            .body(
                ResetPasswordRequest::builder()
                    .token(token)
                    .new_password(NEW_PASSWORD),
            )
            .send()
            .await
            .unwrap();
        let signed_in = client
            .login()
            .body(
                LoginRequest::builder()
                    .email("alice@example.com")
                    .password(NEW_PASSWORD),
            )
            .send()
            .await;

        assert_eq!(asked.status(), 202);
        assert_eq!(reset.status(), 204);
        assert!(signed_in.is_ok(), "the new password works: {signed_in:?}");
    }

    #[tokio::test]
    async fn a_notification_sent_by_an_administrator_reaches_its_recipient() {
        let app = TestApp::spawn().await;
        let alice = signed_in(
            &app,
            &registered(&anonymous(&app), "alice@example.com").await,
        );
        let alice_id = alice.me().send().await.unwrap().into_inner().id;
        let admin = signed_in(&app, &app.admin_token().await);

        let sent = admin
            .send_notification()
            .body(
                NewNotification::builder()
                    .recipient_id(alice_id)
                    .title("Welcome")
                    .body("Glad to have you.")
                    .channels(vec![Channel::InApp]),
            )
            .send()
            .await
            .unwrap();
        let inbox = alice.list_notifications().send().await.unwrap();

        assert_eq!(sent.status(), 201);
        assert_eq!(inbox.items.len(), 1);
        assert_eq!(inbox.items[0].title, "Welcome");
    }

    #[tokio::test]
    async fn a_published_legal_document_is_accepted() {
        let app = TestApp::spawn().await;
        let admin = signed_in(&app, &app.admin_token().await);
        let alice = signed_in(&app, &app.token_for("alice"));

        let published = admin
            .publish_legal_document_version()
            .kind("terms")
            .body(PublishVersionInput::builder().body("# Terms\n\nBe nice."))
            .send()
            .await
            .unwrap();
        let accepted = alice
            .accept_legal_document()
            .body(
                AcceptanceInput::builder()
                    .kind("terms")
                    .version(std::num::NonZeroU32::new(1).unwrap()),
            )
            .send()
            .await
            .unwrap();
        let mine = alice.get_my_legal_acceptances().send().await.unwrap();

        assert_eq!(published.status(), 201);
        assert_eq!(accepted.status(), 201);
        assert_eq!(mine.accepted.len(), 1);
        assert_eq!(mine.accepted[0].kind, "terms");
        assert!(mine.pending.is_empty());
    }
}
