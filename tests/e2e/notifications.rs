//! The notifications module, end to end: sending, the recipient's list, the mail outbox and the
//! live stream.

use std::time::Duration;

use e2e::{RedisChoice, TestApp, TestAppBuilder, assert_problem};
use futures_util::StreamExt;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use sqlx::Row;
use testing::database::TestDatabase;
use testing::smtp::SmtpCatcher;

use crate::identity::{Identity, Tokens};

const ALICE: &str = "alice@example.com";

/// A service with an administrator (the sender) and alice (the recipient, address confirmed).
struct World {
    identity: Identity,
    admin: Tokens,
    alice: Tokens,
    alice_id: String,
}

/// Settings that make the mail worker quick to observe.
fn quick_outbox(builder: TestAppBuilder) -> TestAppBuilder {
    builder
        .setting("notifications.poll_interval", "50ms")
        .setting("notifications.retry_base", "50ms")
        .setting("notifications.retry_max", "200ms")
}

impl World {
    async fn spawn() -> Self {
        Self::spawn_with(TestApp::builder()).await
    }

    async fn spawn_with(builder: TestAppBuilder) -> Self {
        Self::spawn_mailing_to(builder, None).await
    }

    /// A world whose mail goes to `smtp_url` (see [`Identity::spawn_mailing_to`]).
    async fn spawn_mailing_to(builder: TestAppBuilder, smtp_url: Option<&str>) -> Self {
        let identity = Identity::spawn_mailing_to(quick_outbox(builder), smtp_url).await;
        let admin = identity.signed_in_admin("admin@example.com").await;
        let alice = identity.signed_in(ALICE).await;
        let alice_id = identity.user_id(&alice.access).await;
        confirm_address(database_of(&identity.app), ALICE).await;
        Self {
            identity,
            admin,
            alice,
            alice_id,
        }
    }

    fn app(&self) -> &TestApp {
        &self.identity.app
    }

    /// `POST /notifications` as `sender`, with a fresh Idempotency-Key.
    async fn send_as(&self, sender: &str, body: Value) -> reqwest::Response {
        self.app()
            .request(Method::POST, "/api/v1/notifications")
            .bearer_auth(sender)
            .header("Idempotency-Key", uuid::Uuid::new_v4().to_string())
            .json(&body)
            .send()
            .await
            .expect("request failed")
    }

    /// The administrator notifies alice over `channels`; the created notification.
    async fn notify_alice(&self, channels: &[&str]) -> Value {
        let response = self
            .send_as(&self.admin.access, self.to_alice(channels))
            .await;
        assert_eq!(response.status(), StatusCode::CREATED);
        response.json().await.unwrap()
    }

    fn to_alice(&self, channels: &[&str]) -> Value {
        json!({
            "recipientId": self.alice_id,
            "title": "Your export is ready",
            "body": "Download it from the exports page.",
            "channels": channels,
        })
    }

    async fn call_as(&self, token: &str, method: Method, path: &str) -> reqwest::Response {
        self.app()
            .request(method, &format!("/api/v1/notifications{path}"))
            .bearer_auth(token)
            .send()
            .await
            .expect("request failed")
    }

    async fn json_as(&self, token: &str, path: &str) -> Value {
        let response = self.call_as(token, Method::GET, path).await;
        assert_eq!(response.status(), StatusCode::OK, "GET {path}");
        response.json().await.unwrap()
    }
}

/// The database `app` runs on (which a test may have pointed at one it shares).
fn database_of(app: &TestApp) -> &str {
    app.settings.database.url.expose()
}

/// Marks `email`'s address confirmed, as following its confirmation link would.
async fn confirm_address(database: &str, email: &str) {
    let pool = sqlx::AnyPool::connect(database).await.unwrap();
    sqlx::query("UPDATE identity_users SET email_confirmed_at_ms = 1 WHERE email = $1")
        .bind(email)
        .execute(&pool)
        .await
        .unwrap();
}

/// The outbox rows: (state, attempts), oldest first.
async fn deliveries(database: &str) -> Vec<(String, i64)> {
    let pool = sqlx::AnyPool::connect(database).await.unwrap();
    sqlx::query("SELECT state, attempts FROM notification_deliveries ORDER BY created_at_ms, id")
        .fetch_all(&pool)
        .await
        .unwrap()
        .iter()
        .map(|row| (row.get("state"), row.get("attempts")))
        .collect()
}

/// Waits up to 10 s for the outbox to satisfy `done`.
async fn until_deliveries(database: &str, done: impl Fn(&[(String, i64)]) -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let rows = deliveries(database).await;
        if done(&rows) {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the outbox never got there: {rows:?}"
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// Waits up to 10 s for `count` mails to `to`.
async fn until_mails(
    mail: &SmtpCatcher,
    to: &str,
    count: usize,
) -> Vec<testing::smtp::CapturedMail> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let mails = mail.messages_to(to);
        if mails.len() >= count {
            return mails;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{} of {count} mails to {to} arrived",
            mails.len()
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// A local address where nothing listens.
async fn unused_address() -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    listener.local_addr().unwrap()
}

/// A mail server that refuses every session (`554` in its greeting), until dropped. Unlike an
/// unused address, its port stays taken, so no other test's catcher can take it and receive
/// the mail this test needs refused.
struct RefusingMailServer {
    address: std::net::SocketAddr,
    serving: tokio::task::JoinHandle<()>,
}

impl RefusingMailServer {
    async fn start() -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let serving = tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                use tokio::io::AsyncWriteExt as _;
                let _ = socket
                    .write_all(b"554 5.3.2 refusing every session for the test\r\n")
                    .await;
            }
        });
        Self { address, serving }
    }
}

impl Drop for RefusingMailServer {
    fn drop(&mut self) {
        self.serving.abort();
    }
}

#[tokio::test]
async fn an_administrator_notifies_an_account_which_finds_it_unread() {
    let world = World::spawn().await;

    let response = world
        .send_as(&world.admin.access, world.to_alice(&["inApp"]))
        .await;

    assert_eq!(response.status(), StatusCode::CREATED);
    let location = response.headers()["location"].to_str().unwrap().to_owned();
    let sent: Value = response.json().await.unwrap();
    assert_eq!(
        location,
        format!("/api/v1/notifications/{}", sent["id"].as_str().unwrap())
    );
    let page = world.json_as(&world.alice.access, "?unread=true").await;
    assert_eq!(page["total"], 1);
    assert_eq!(page["items"][0]["title"], "Your export is ready");
    assert!(page["items"][0].get("readAt").is_none());
    let count = world.json_as(&world.alice.access, "/unread-count").await;
    assert_eq!(count["count"], 1);
}

#[tokio::test]
async fn reading_one_and_then_all_empties_the_unread_count() {
    let world = World::spawn().await;
    let first = world.notify_alice(&["inApp"]).await;
    world.notify_alice(&["inApp"]).await;
    let path = format!("/{}/read", first["id"].as_str().unwrap());

    let read_one = world
        .call_as(&world.alice.access, Method::POST, &path)
        .await;
    let after_one = world.json_as(&world.alice.access, "/unread-count").await;
    let read_all = world
        .call_as(&world.alice.access, Method::POST, "/read-all")
        .await;

    assert_eq!(read_one.status(), StatusCode::NO_CONTENT);
    assert_eq!(after_one["count"], 1);
    assert_eq!(read_all.json::<Value>().await.unwrap()["marked"], 1);
    assert_eq!(
        world.json_as(&world.alice.access, "/unread-count").await["count"],
        0
    );
    assert_eq!(
        world.json_as(&world.alice.access, "?unread=true").await["total"],
        0
    );
}

#[tokio::test]
async fn an_account_without_the_sender_role_cannot_send() {
    let world = World::spawn().await;

    let response = world
        .send_as(&world.alice.access, world.to_alice(&["inApp"]))
        .await;

    assert_problem(response, StatusCode::FORBIDDEN).await;
    assert_eq!(world.json_as(&world.alice.access, "").await["total"], 0);
}

#[tokio::test]
async fn an_account_granted_the_sender_role_may_send() {
    let world = World::spawn().await;
    world.identity.register("sender@example.com").await;
    app::commands::grant_role(
        &world.app().settings,
        "sender@example.com",
        "notifications:send",
    )
    .await
    .expect("grant-role");
    let sender = crate::identity::tokens(
        world
            .identity
            .login("sender@example.com", crate::identity::PASSWORD)
            .await,
    )
    .await;

    let response = world
        .send_as(&sender.access, world.to_alice(&["inApp"]))
        .await;

    assert_eq!(response.status(), StatusCode::CREATED);
    assert_eq!(world.json_as(&world.alice.access, "").await["total"], 1);
}

#[tokio::test]
async fn sending_requires_an_idempotency_key_and_a_retry_with_it_notifies_once() {
    let world = World::spawn().await;
    let send = |key: Option<&str>| {
        let mut request = world
            .app()
            .request(Method::POST, "/api/v1/notifications")
            .bearer_auth(&world.admin.access)
            .json(&world.to_alice(&["inApp", "email"]));
        if let Some(key) = key {
            request = request.header("Idempotency-Key", key);
        }
        request.send()
    };

    let without_key = send(None).await.unwrap();
    let first = send(Some("export-ready-1")).await.unwrap();
    let retry = send(Some("export-ready-1")).await.unwrap();

    assert_problem(without_key, StatusCode::BAD_REQUEST).await;
    assert_eq!(first.status(), StatusCode::CREATED);
    assert_eq!(retry.status(), StatusCode::CREATED);
    assert!(e2e::is_replay(&retry));
    assert_eq!(world.json_as(&world.alice.access, "").await["total"], 1);
    until_mails(&world.identity.mail, ALICE, 1).await;
    assert_eq!(deliveries(database_of(world.app())).await.len(), 1);
}

#[tokio::test]
async fn a_notification_to_no_account_is_a_422_naming_the_field_and_one_to_no_channel_a_400() {
    let world = World::spawn().await;
    let mut nobody = world.to_alice(&["inApp"]);
    nobody["recipientId"] = json!("no-such-account");

    let to_nobody = world.send_as(&world.admin.access, nobody).await;
    let nowhere = world
        .send_as(&world.admin.access, world.to_alice(&[]))
        .await;

    let problem = assert_problem(to_nobody, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(problem["field"], "recipientId");
    assert_problem(nowhere, StatusCode::BAD_REQUEST).await;
    assert_eq!(world.json_as(&world.alice.access, "").await["total"], 0);
}

#[tokio::test]
async fn another_account_can_neither_see_read_nor_delete_it() {
    let world = World::spawn().await;
    let sent = world.notify_alice(&["inApp"]).await;
    let bob = world.identity.signed_in("bob@example.com").await;
    let path = format!("/{}", sent["id"].as_str().unwrap());

    let get = world.call_as(&bob.access, Method::GET, &path).await;
    let read = world
        .call_as(&bob.access, Method::POST, &format!("{path}/read"))
        .await;
    let delete = world.call_as(&bob.access, Method::DELETE, &path).await;

    assert_problem(get, StatusCode::NOT_FOUND).await;
    assert_problem(read, StatusCode::NOT_FOUND).await;
    assert_problem(delete, StatusCode::NOT_FOUND).await;
    assert_eq!(world.json_as(&bob.access, "").await["total"], 0);
    assert_eq!(
        world.json_as(&world.alice.access, "/unread-count").await["count"],
        1
    );
}

#[tokio::test]
async fn a_deleted_notification_is_gone() {
    let world = World::spawn().await;
    let sent = world.notify_alice(&["inApp"]).await;
    let path = format!("/{}", sent["id"].as_str().unwrap());

    let deleted = world
        .call_as(&world.alice.access, Method::DELETE, &path)
        .await;

    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    assert_problem(
        world.call_as(&world.alice.access, Method::GET, &path).await,
        StatusCode::NOT_FOUND,
    )
    .await;
}

#[tokio::test]
async fn an_email_notification_is_mailed_with_a_message_id_of_its_delivery() {
    let world = World::spawn().await;

    world.notify_alice(&["email"]).await;

    let mails = until_mails(&world.identity.mail, ALICE, 2).await;
    let mail = mails
        .iter()
        .find(|mail| mail.subject().as_deref() == Some("Your export is ready"))
        .expect("the notification mail");
    let message_id = mail.header("Message-ID").unwrap_or_default();
    assert!(
        message_id.starts_with("<notification-")
            && message_id.ends_with("@notifications.localhost>"),
        "{message_id}"
    );
    until_deliveries(database_of(world.app()), |rows| {
        rows == [("sent".into(), 1)]
    })
    .await;
    assert_eq!(
        world.json_as(&world.alice.access, "").await["total"],
        0,
        "email only"
    );
}

#[tokio::test]
async fn nothing_is_mailed_to_an_address_nobody_confirmed() {
    let world = World::spawn().await;
    let bob = world.identity.signed_in("bob@example.com").await;
    let bob_id = world.identity.user_id(&bob.access).await;
    let mut to_bob = world.to_alice(&["email"]);
    to_bob["recipientId"] = json!(bob_id);

    let response = world.send_as(&world.admin.access, to_bob).await;

    assert_eq!(response.status(), StatusCode::CREATED);
    until_deliveries(database_of(world.app()), |rows| {
        rows == [("skipped".into(), 1)]
    })
    .await;
    let mails_to_bob = world.identity.mail.messages_to("bob@example.com");
    assert!(
        mails_to_bob
            .iter()
            .all(|mail| mail.subject().as_deref() != Some("Your export is ready")),
        "only the confirmation link may reach bob"
    );
}

#[tokio::test]
async fn a_mail_waits_out_a_mail_server_outage_and_is_sent_when_it_is_back() {
    let smtp = unused_address().await;
    let world = World::spawn_mailing_to(TestApp::builder(), Some(&format!("smtp://{smtp}"))).await;

    world.notify_alice(&["email"]).await;
    until_deliveries(database_of(world.app()), |rows| {
        rows.len() == 1 && rows[0].0 == "pending" && rows[0].1 >= 2
    })
    .await;

    let back = SmtpCatcher::start_at(smtp)
        .await
        .expect("the mail server comes back");

    let mails = until_mails(&back, ALICE, 1).await;
    assert!(
        mails
            .iter()
            .any(|mail| mail.subject().as_deref() == Some("Your export is ready"))
    );
    until_deliveries(database_of(world.app()), |rows| rows[0].0 == "sent").await;
}

#[tokio::test]
async fn a_mail_that_keeps_failing_is_dead_lettered_after_its_last_attempt() {
    let smtp = RefusingMailServer::start().await;
    let world = World::spawn_mailing_to(
        TestApp::builder().setting("notifications.max_attempts", "3"),
        Some(&format!("smtp://{}", smtp.address)),
    )
    .await;

    world.notify_alice(&["email"]).await;

    until_deliveries(database_of(world.app()), |rows| {
        rows == [("dead".into(), 3)]
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        deliveries(database_of(world.app())).await,
        [("dead".into(), 3)],
        "a dead letter is never tried again"
    );
}

/// A second instance on `world`'s database, sending its mail to `smtp_url`.
async fn second_instance(world: &World, smtp_url: &str, builder: TestAppBuilder) -> TestApp {
    quick_outbox(builder)
        .setting("database.url", database_of(world.app()))
        .setting("mail.smtp_url", smtp_url)
        .spawn()
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_share_the_outbox_and_send_each_mail_once() {
    let world = World::spawn().await;
    let _other = second_instance(&world, &world.identity.mail.url(), TestApp::builder()).await;

    for _ in 0..20 {
        world.notify_alice(&["email"]).await;
    }

    until_deliveries(database_of(world.app()), |rows| {
        rows.len() == 20 && rows.iter().all(|(state, _)| state == "sent")
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let ids: Vec<String> = world
        .identity
        .mail
        .messages_to(ALICE)
        .iter()
        .filter(|mail| mail.subject().as_deref() == Some("Your export is ready"))
        .filter_map(|mail| mail.header("Message-ID"))
        .collect();
    let distinct: std::collections::HashSet<&String> = ids.iter().collect();
    assert_eq!((ids.len(), distinct.len()), (20, 20), "{ids:?}");
    assert!(
        deliveries(database_of(world.app()))
            .await
            .iter()
            .all(|(_, attempts)| *attempts == 1),
        "no mail was claimed twice"
    );
}

/// An SMTP server that accepts connections and never answers: a send to it hangs.
async fn silent_mail_server() -> (std::net::SocketAddr, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let server = tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            held.push(socket);
        }
    });
    (address, server)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mail_whose_worker_died_mid_send_is_taken_over_once_its_lease_ends() {
    let database = TestDatabase::create().await;
    let (silent, _server) = silent_mail_server().await;
    let world = World::spawn_mailing_to(
        TestApp::builder()
            .setting("database.url", database.url())
            .setting("notifications.claim_lease", "1s"),
        Some(&format!("smtp://{silent}")),
    )
    .await;
    world.notify_alice(&["email"]).await;
    until_deliveries(database.url(), |rows| rows == [("pending".into(), 1)]).await;
    let Identity { app: dying, mail } = world.identity;
    let survivor = quick_outbox(TestApp::builder())
        .setting("database.url", database.url())
        .setting("mail.smtp_url", &mail.url())
        .spawn()
        .await;

    // The instance whose worker holds the mail stops mid-send, its worker with it.
    dying.stop().await.expect("the first instance stops");

    let mails = until_mails(&mail, ALICE, 1).await;
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].subject().as_deref(), Some("Your export is ready"));
    until_deliveries(database.url(), |rows| rows == [("sent".into(), 2)]).await;
    drop(survivor);
}

/// Opens `token`'s notification stream on `app`.
async fn open_stream(app: &TestApp, token: &str) -> reqwest::Response {
    let response = app
        .request(Method::GET, "/api/v1/notifications/stream")
        .bearer_auth(token)
        .header("Accept", "text/event-stream")
        .send()
        .await
        .expect("the stream opens");
    assert_eq!(response.status(), StatusCode::OK);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/event-stream")
    );
    response
}

/// One server-sent event.
struct Event {
    /// Its `event:` field: `message` unless it names another.
    kind: String,
    /// Its data, as JSON.
    data: Value,
}

/// The stream's next event (10 s at the most); keep-alive comments are skipped.
async fn next_typed_event(
    stream: &mut (impl futures_util::Stream<Item = reqwest::Result<bytes::Bytes>> + Unpin),
    buffer: &mut String,
) -> Event {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(end) = buffer.find("\n\n") {
            let event: String = buffer.drain(..end + 2).collect();
            let field = |name: &str| {
                event
                    .lines()
                    .find_map(|line| line.strip_prefix(name))
                    .map(str::trim)
            };
            if let Some(data) = field("data:") {
                return Event {
                    kind: field("event:").unwrap_or("message").to_owned(),
                    data: serde_json::from_str(data).expect("event data is JSON"),
                };
            }
            continue; // a keep-alive comment
        }
        let chunk = tokio::time::timeout_at(deadline, stream.next())
            .await
            .expect("an event arrives within 10 s")
            .expect("the stream stays open")
            .expect("the stream reads");
        buffer.push_str(&String::from_utf8_lossy(&chunk));
    }
}

/// The data of the stream's next event, as JSON (10 s at the most).
async fn next_event(
    stream: &mut (impl futures_util::Stream<Item = reqwest::Result<bytes::Bytes>> + Unpin),
    buffer: &mut String,
) -> Value {
    next_typed_event(stream, buffer).await.data
}

/// The `end` event a stream closes with, and that it closes after it: the data saying why.
async fn end_of(
    stream: &mut (impl futures_util::Stream<Item = reqwest::Result<bytes::Bytes>> + Unpin),
) -> Value {
    let mut buffer = String::new();
    let event = next_typed_event(stream, &mut buffer).await;
    assert_eq!(
        event.kind, "end",
        "the stream went on delivering: {}",
        event.data
    );
    let closed = tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(chunk) = stream.next().await {
            buffer.push_str(&String::from_utf8_lossy(&chunk.expect("the stream reads")));
        }
    })
    .await;
    assert!(closed.is_ok(), "the stream closes after its end event");
    assert!(
        !buffer.contains("data:"),
        "nothing follows the end event: {buffer}"
    );
    event.data
}

#[tokio::test]
async fn a_notification_reaches_its_recipients_open_stream() {
    let world = World::spawn().await;
    let mut stream = open_stream(world.app(), &world.alice.access)
        .await
        .bytes_stream();

    let sent = world.notify_alice(&["inApp"]).await;

    let event = next_event(&mut stream, &mut String::new()).await;
    assert_eq!(event["id"], sent["id"]);
    assert_eq!(event["title"], "Your export is ready");
}

#[tokio::test]
async fn another_accounts_stream_gets_nothing_of_it() {
    let world = World::spawn().await;
    let bob = world.identity.signed_in("bob@example.com").await;
    let mut bobs = open_stream(world.app(), &bob.access).await.bytes_stream();
    let mut alices = open_stream(world.app(), &world.alice.access)
        .await
        .bytes_stream();

    world.notify_alice(&["inApp"]).await;
    next_event(&mut alices, &mut String::new()).await;

    let bob_got = tokio::time::timeout(Duration::from_millis(300), bobs.next()).await;
    assert!(bob_got.is_err(), "bob's stream stays silent");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_notification_sent_through_one_instance_reaches_a_stream_open_on_another() {
    let prefix = format!("test:{}:", testing::unique_suffix());
    let world = World::spawn_with(
        TestApp::builder()
            .redis(RedisChoice::Shared)
            .setting("redis.key_prefix", &prefix),
    )
    .await;
    let other = quick_outbox(TestApp::builder())
        .redis(RedisChoice::Shared)
        .setting("redis.key_prefix", &prefix)
        .setting("database.url", database_of(world.app()))
        .spawn()
        .await;
    let mut stream = open_stream(&other, &world.alice.access)
        .await
        .bytes_stream();

    let sent = world.notify_alice(&["inApp"]).await;

    let event = next_event(&mut stream, &mut String::new()).await;
    assert_eq!(event["id"], sent["id"]);
}

#[tokio::test]
async fn an_open_stream_ends_when_the_service_shuts_down_rather_than_holding_it() {
    let world = World::spawn_with(TestApp::builder().setting("server.shutdown_grace", "60s")).await;
    let mut stream = open_stream(world.app(), &world.alice.access)
        .await
        .bytes_stream();
    let World { identity, .. } = world;

    let stopped = tokio::time::timeout(Duration::from_secs(20), identity.app.stop()).await;

    assert!(
        stopped.is_ok(),
        "the shutdown waited on the stream for its 60 s grace"
    );
    let rest = tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(Ok(_)) = stream.next().await {}
    })
    .await;
    assert!(rest.is_ok(), "the stream ended");
}

// ---- A stream ends with its session (issue 34) ----
//
// Each test opens alice's stream, ends her session one way, then sends her a notification: the
// stream must say why it ends instead of delivering it.

#[tokio::test]
async fn a_stream_ends_saying_why_when_its_session_logs_out() {
    let world = World::spawn().await;
    let mut stream = open_stream(world.app(), &world.alice.access)
        .await
        .bytes_stream();

    let logout = world
        .identity
        .post("/revoke", json!({ "refreshToken": world.alice.refresh }))
        .await;
    assert_eq!(logout.status(), StatusCode::NO_CONTENT);
    world.notify_alice(&["inApp"]).await;

    let end = end_of(&mut stream).await;
    assert_eq!(end["reason"], "sessionRevoked", "{end}");
    assert!(end["detail"].is_string(), "{end}");
}

#[tokio::test]
async fn a_stream_ends_saying_why_when_its_session_is_revoked_from_another() {
    let world = World::spawn().await;
    let mut stream = open_stream(world.app(), &world.alice.access)
        .await
        .bytes_stream();
    let elsewhere =
        crate::identity::tokens(world.identity.login(ALICE, crate::identity::PASSWORD).await).await;
    let streaming_session = world.identity.other_session_id(&elsewhere.access).await;

    let revoked = world
        .identity
        .post_as(
            &elsewhere.access,
            &format!("/api/v1/auth/sessions/{streaming_session}/revoke"),
        )
        .await;
    assert_eq!(revoked.status(), StatusCode::NO_CONTENT);
    world.notify_alice(&["inApp"]).await;

    let end = end_of(&mut stream).await;
    assert_eq!(end["reason"], "sessionRevoked", "{end}");
}

#[tokio::test]
async fn a_stream_ends_saying_why_when_the_account_is_locked() {
    let world = World::spawn().await;
    let mut stream = open_stream(world.app(), &world.alice.access)
        .await
        .bytes_stream();

    let locked = world
        .identity
        .admin_action(&world.admin.access, "lock", &world.alice_id)
        .await;
    assert_eq!(locked.status(), StatusCode::NO_CONTENT);
    world.notify_alice(&["inApp"]).await;

    let end = end_of(&mut stream).await;
    assert_eq!(end["reason"], "accountLocked", "{end}");
}

#[tokio::test]
async fn a_stream_ends_saying_why_when_the_password_changes() {
    let world = World::spawn().await;
    let mut stream = open_stream(world.app(), &world.alice.access)
        .await
        .bytes_stream();

    let reset = world
        .identity
        .reset_password_by_mail(ALICE, "a brand new passphrase")
        .await;
    assert_eq!(reset.status(), StatusCode::NO_CONTENT);
    world.notify_alice(&["inApp"]).await;

    let end = end_of(&mut stream).await;
    assert_eq!(end["reason"], "passwordChanged", "{end}");
}

#[tokio::test]
async fn a_stream_ends_saying_why_when_its_access_token_expires() {
    let world = World::spawn_with(TestApp::builder().setting("auth.access_token_ttl", "3s")).await;
    let alice =
        crate::identity::tokens(world.identity.login(ALICE, crate::identity::PASSWORD).await).await;
    let mut stream = open_stream(world.app(), &alice.access).await.bytes_stream();

    let end = end_of(&mut stream).await;

    assert_eq!(end["reason"], "accessTokenExpired", "{end}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_on_another_instance_ends_when_its_session_is_revoked() {
    let prefix = format!("test:{}:", testing::unique_suffix());
    let world = World::spawn_with(
        TestApp::builder()
            .redis(RedisChoice::Shared)
            .setting("redis.key_prefix", &prefix),
    )
    .await;
    let other = quick_outbox(TestApp::builder())
        .redis(RedisChoice::Shared)
        .setting("redis.key_prefix", &prefix)
        .setting("database.url", database_of(world.app()))
        .spawn()
        .await;
    let mut stream = open_stream(&other, &world.alice.access)
        .await
        .bytes_stream();

    let logout = world
        .identity
        .post("/revoke", json!({ "refreshToken": world.alice.refresh }))
        .await;
    assert_eq!(logout.status(), StatusCode::NO_CONTENT);

    let end = end_of(&mut stream).await;
    assert_eq!(end["reason"], "sessionRevoked", "{end}");
}

/// A world whose mail server refused alice's notification mail until it was dead-lettered
/// (after 2 attempts), with the refusing server still running.
async fn world_with_a_dead_letter() -> (World, RefusingMailServer) {
    let smtp = RefusingMailServer::start().await;
    let world = World::spawn_mailing_to(
        TestApp::builder().setting("notifications.max_attempts", "2"),
        Some(&format!("smtp://{}", smtp.address)),
    )
    .await;
    world.notify_alice(&["email"]).await;
    until_deliveries(database_of(world.app()), |rows| {
        rows == [("dead".into(), 2)]
    })
    .await;
    (world, smtp)
}

impl World {
    async fn dead_letters_as(&self, token: &str) -> reqwest::Response {
        self.app()
            .request(Method::GET, "/api/v1/admin/mail/dead-letters")
            .bearer_auth(token)
            .send()
            .await
            .expect("request failed")
    }

    async fn retry_dead_letter_as(&self, token: &str, id: &str, key: &str) -> reqwest::Response {
        self.app()
            .request(
                Method::POST,
                &format!("/api/v1/admin/mail/dead-letters/{id}/retry"),
            )
            .bearer_auth(token)
            .header("Idempotency-Key", key)
            .send()
            .await
            .expect("request failed")
    }

    /// The id of the only dead letter, as the administrator lists it.
    async fn only_dead_letter(&self) -> String {
        let page: Value = self
            .dead_letters_as(&self.admin.access)
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(page["total"], 1, "{page}");
        page["items"][0]["id"].as_str().unwrap().to_owned()
    }
}

/// A mail server that accepts mail at `address`, once the refusing one there has let go.
async fn mail_server_back_at(smtp: RefusingMailServer) -> SmtpCatcher {
    let address = smtp.address;
    drop(smtp);
    for _ in 0..100 {
        if let Ok(back) = SmtpCatcher::start_at(address).await {
            return back;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the mail server could not come back at {address}");
}

#[tokio::test]
async fn a_dead_letter_is_listed_for_administrators_with_the_mail_servers_last_words() {
    let (world, _smtp) = world_with_a_dead_letter().await;

    let response = world.dead_letters_as(&world.admin.access).await;

    assert_eq!(response.status(), StatusCode::OK);
    let page: Value = response.json().await.unwrap();
    assert_eq!(page["total"], 1);
    let dead = &page["items"][0];
    assert_eq!(dead["state"], "dead");
    assert_eq!(dead["attempts"], 2);
    assert_eq!(dead["recipientId"], world.alice_id.as_str());
    assert!(
        dead["lastError"].as_str().unwrap().contains("554"),
        "{dead}"
    );
    e2e::assert_api_time(&dead["finishedAt"]);
}

#[tokio::test]
async fn a_retried_dead_letter_is_sent_once_the_mail_server_is_back_and_leaves_the_list() {
    let (world, smtp) = world_with_a_dead_letter().await;
    let id = world.only_dead_letter().await;
    let back = mail_server_back_at(smtp).await;

    let retried = world
        .retry_dead_letter_as(&world.admin.access, &id, "retry-1")
        .await;

    assert_eq!(retried.status(), StatusCode::ACCEPTED);
    let delivery: Value = retried.json().await.unwrap();
    assert_eq!(
        (&delivery["state"], &delivery["attempts"]),
        (&json!("pending"), &json!(0))
    );
    let mails = until_mails(&back, ALICE, 1).await;
    assert_eq!(mails[0].subject().as_deref(), Some("Your export is ready"));
    until_deliveries(database_of(world.app()), |rows| {
        rows == [("sent".into(), 1)]
    })
    .await;
    let page: Value = world
        .dead_letters_as(&world.admin.access)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(page["total"], 0);
}

#[tokio::test]
async fn a_dead_letter_retried_again_with_its_key_gets_the_first_answer_and_is_sent_once() {
    let (world, smtp) = world_with_a_dead_letter().await;
    let id = world.only_dead_letter().await;
    let back = mail_server_back_at(smtp).await;
    let first = world
        .retry_dead_letter_as(&world.admin.access, &id, "retry-1")
        .await;
    until_deliveries(database_of(world.app()), |rows| {
        rows == [("sent".into(), 1)]
    })
    .await;

    let again = world
        .retry_dead_letter_as(&world.admin.access, &id, "retry-1")
        .await;

    assert_eq!(first.status(), StatusCode::ACCEPTED);
    assert_eq!(again.status(), StatusCode::ACCEPTED);
    assert!(e2e::is_replay(&again));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(back.messages_to(ALICE).len(), 1);
}

#[tokio::test]
async fn only_administrators_see_or_retry_dead_letters() {
    let (world, _smtp) = world_with_a_dead_letter().await;
    let id = world.only_dead_letter().await;

    let listed = world.dead_letters_as(&world.alice.access).await;
    let retried = world
        .retry_dead_letter_as(&world.alice.access, &id, "alice-1")
        .await;

    assert_problem(listed, StatusCode::FORBIDDEN).await;
    assert_problem(retried, StatusCode::FORBIDDEN).await;
    assert_eq!(
        deliveries(database_of(world.app())).await,
        [("dead".into(), 2)]
    );
}

#[tokio::test]
async fn only_a_dead_letter_can_be_retried() {
    let world = World::spawn().await;
    world.notify_alice(&["email"]).await;
    until_deliveries(database_of(world.app()), |rows| {
        rows == [("sent".into(), 1)]
    })
    .await;
    let pool = sqlx::AnyPool::connect(database_of(world.app()))
        .await
        .unwrap();
    let sent: String = sqlx::query("SELECT id FROM notification_deliveries")
        .fetch_one(&pool)
        .await
        .unwrap()
        .get("id");

    let not_dead = world
        .retry_dead_letter_as(&world.admin.access, &sent, "retry-sent")
        .await;
    let unknown = world
        .retry_dead_letter_as(&world.admin.access, "no-such-mail", "retry-unknown")
        .await;

    assert_problem(not_dead, StatusCode::CONFLICT).await;
    assert_problem(unknown, StatusCode::NOT_FOUND).await;
    assert_eq!(
        deliveries(database_of(world.app())).await,
        [("sent".into(), 1)]
    );
}
