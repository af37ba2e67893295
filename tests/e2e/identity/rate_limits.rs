//! Brute-force limits, answered with 429 and `Retry-After`. Logins count failures per (account,
//! address), per account and per address, so a guesser is stopped without locking the owner out;
//! mail requests are limited the same three ways, and every link mailed stays valid.
//! Distinct clients are distinct loopback source addresses (127.0.0.x).

use e2e::{RedisChoice, TestApp, assert_problem};
use reqwest::StatusCode;
use serde_json::json;
use testing::tools::Suite;

use super::{Identity, PASSWORD};

const GUESSER: &str = "127.0.0.2";
const OWNER: &str = "127.0.0.3";
const WRONG: &str = "wrong password!";

/// The seconds a 429 asks the client to wait.
fn retry_after(response: &reqwest::Response) -> u64 {
    response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

#[tokio::test]
async fn a_guesser_is_stopped_on_its_address_while_the_owner_logs_in_from_another() {
    let identity = Identity::spawn().await;
    identity.register("alice@example.com").await;

    let mut answers = Vec::new();
    for _ in 0..15 {
        answers.push(
            identity
                .login_from(GUESSER, "alice@example.com", WRONG)
                .await,
        );
    }
    let owner = identity
        .login_from(OWNER, "alice@example.com", PASSWORD)
        .await;
    let guesser_with_the_right_password = identity
        .login_from(GUESSER, "alice@example.com", PASSWORD)
        .await;

    let statuses: Vec<StatusCode> = answers.iter().map(reqwest::Response::status).collect();
    assert_eq!(statuses[..5], [StatusCode::UNAUTHORIZED; 5]);
    assert_eq!(statuses[5..], [StatusCode::TOO_MANY_REQUESTS; 10]);
    assert!(retry_after(&answers[14]) >= 1);
    assert_eq!(
        owner.status(),
        StatusCode::OK,
        "the owner is not locked out"
    );
    assert_problem(
        guesser_with_the_right_password,
        StatusCode::TOO_MANY_REQUESTS,
    )
    .await;
}

#[tokio::test]
async fn failures_on_many_accounts_from_one_address_are_limited() {
    let identity = Identity::spawn_with(
        TestApp::builder().setting("rate_limit.failed_logins_per_address", "3"),
    )
    .await;

    for n in 0..3 {
        let response = identity.login(&format!("user{n}@example.com"), WRONG).await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "attempt {n}");
    }
    let limited = identity.login("user9@example.com", WRONG).await;
    let elsewhere = identity.login_from(OWNER, "user9@example.com", WRONG).await;

    assert!(retry_after(&limited) >= 1);
    assert_problem(limited, StatusCode::TOO_MANY_REQUESTS).await;
    assert_eq!(elsewhere.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn failures_on_one_account_from_many_addresses_are_limited() {
    let identity = Identity::spawn_with(
        TestApp::builder().setting("rate_limit.failed_logins_per_account", "3"),
    )
    .await;

    for source in ["127.0.0.2", "127.0.0.3", "127.0.0.4"] {
        let response = identity
            .login_from(source, "alice@example.com", WRONG)
            .await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "from {source}");
    }
    let limited = identity
        .login_from("127.0.0.5", "ALICE@example.com", WRONG)
        .await;

    assert_problem(limited, StatusCode::TOO_MANY_REQUESTS).await;
}

#[tokio::test]
async fn successful_logins_are_not_counted() {
    let identity = Identity::spawn_with(
        TestApp::builder()
            .setting("rate_limit.failed_logins_per_address", "2")
            .setting("rate_limit.failed_logins_per_account", "2"),
    )
    .await;
    identity.register("alice@example.com").await;

    for n in 0..5 {
        let response = identity.login("alice@example.com", PASSWORD).await;
        assert_eq!(response.status(), StatusCode::OK, "login {n}");
    }
}

#[tokio::test]
async fn a_successful_login_clears_the_failures_of_its_account_and_address() {
    let identity = Identity::spawn_with(
        TestApp::builder().setting("rate_limit.failed_logins_per_account_address", "3"),
    )
    .await;
    identity.register("alice@example.com").await;
    identity.login("alice@example.com", WRONG).await;
    identity.login("alice@example.com", WRONG).await;

    let success = identity.login("alice@example.com", PASSWORD).await;
    let mut after = Vec::new();
    for _ in 0..4 {
        after.push(identity.login("alice@example.com", WRONG).await.status());
    }

    assert_eq!(success.status(), StatusCode::OK);
    assert_eq!(
        after,
        [
            StatusCode::UNAUTHORIZED,
            StatusCode::UNAUTHORIZED,
            StatusCode::UNAUTHORIZED,
            StatusCode::TOO_MANY_REQUESTS
        ],
        "three new failures are allowed after the success"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_guesses_are_bounded_like_sequential_ones() {
    let identity = Identity::spawn_with(
        TestApp::builder().setting("rate_limit.failed_logins_per_account_address", "3"),
    )
    .await;
    identity.register("alice@example.com").await;

    let guesses = (0..12).map(|_| identity.login("alice@example.com", WRONG));
    let statuses: Vec<StatusCode> = futures_util::future::join_all(guesses)
        .await
        .iter()
        .map(reqwest::Response::status)
        .collect();

    let checked = statuses
        .iter()
        .filter(|s| **s == StatusCode::UNAUTHORIZED)
        .count();
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::TOO_MANY_REQUESTS)
        .count();
    assert_eq!((checked, refused), (3, 9), "{statuses:?}");
}

#[tokio::test]
async fn a_stranger_cannot_keep_the_owner_from_a_working_reset_link() {
    let identity = Identity::spawn().await;
    identity.register("alice@example.com").await;
    let forgot = |source| identity.forgot_password_from(source, "alice@example.com");

    let mut strangers = Vec::new();
    for _ in 0..5 {
        strangers.push(forgot(GUESSER).await.status());
    }
    let owners = forgot(OWNER).await;
    let owners_link = identity
        .token_from_mail("alice@example.com", "reset-password", 4)
        .await;
    let reset = identity
        .post(
            "/reset-password",
            json!({ "token": owners_link, "newPassword": "a brand new passphrase" }),
        )
        .await;

    assert_eq!(strangers[..3], [StatusCode::ACCEPTED; 3]);
    assert_eq!(strangers[3..], [StatusCode::TOO_MANY_REQUESTS; 2]);
    assert_eq!(owners.status(), StatusCode::ACCEPTED);
    assert_eq!(
        reset.status(),
        StatusCode::NO_CONTENT,
        "the links a stranger caused did not spend the owner's"
    );
}

#[tokio::test]
async fn mails_for_one_account_are_limited_across_addresses() {
    let identity =
        Identity::spawn_with(TestApp::builder().setting("rate_limit.email_per_account", "2")).await;
    identity.register("alice@example.com").await;
    let forgot = |source| identity.forgot_password_from(source, "alice@example.com");

    let first = forgot("127.0.0.2").await;
    let second = forgot("127.0.0.3").await;
    let third = forgot("127.0.0.4").await;

    assert_eq!(first.status(), StatusCode::ACCEPTED);
    assert_eq!(second.status(), StatusCode::ACCEPTED);
    assert_problem(third, StatusCode::TOO_MANY_REQUESTS).await;
    identity
        .token_from_mail("alice@example.com", "reset-password", 2)
        .await;
    assert_eq!(
        identity.mail_count("alice@example.com").await,
        3,
        "the confirmation and two resets"
    );
}

#[tokio::test]
async fn registrations_from_one_address_are_limited() {
    let identity =
        Identity::spawn_with(TestApp::builder().setting("rate_limit.register_per_address", "1"))
            .await;

    identity.register("alice@example.com").await;
    let second_registration = identity.register("bob@example.com").await;

    assert_problem(second_registration, StatusCode::TOO_MANY_REQUESTS).await;
}

#[tokio::test]
async fn limits_hold_across_instances_sharing_redis() {
    let namespace = format!("test:{}:", testing::unique_suffix());
    let builder = || {
        TestApp::builder()
            .redis(RedisChoice::Shared)
            .setting("redis.key_prefix", &namespace)
            .setting("rate_limit.failed_logins_per_account_address", "3")
    };
    let first = Identity::spawn_with(builder()).await;
    let second = Identity::spawn_with(builder()).await;

    let allowed = [
        first.login("alice@example.com", WRONG).await,
        second.login("alice@example.com", WRONG).await,
        first.login("alice@example.com", WRONG).await,
    ];
    let limited = second.login("alice@example.com", WRONG).await;

    for (n, response) in allowed.iter().enumerate() {
        assert_eq!(
            response.status(),
            StatusCode::UNAUTHORIZED,
            "attempt {} of 3 is within the shared limit",
            n + 1
        );
    }
    assert_problem(limited, StatusCode::TOO_MANY_REQUESTS).await;
}

#[tokio::test]
async fn limits_can_be_switched_off() {
    let identity = Identity::spawn_with(
        TestApp::builder()
            .setting("rate_limit.enabled", "false")
            .setting("rate_limit.failed_logins_per_account_address", "1"),
    )
    .await;

    identity.login("alice@example.com", WRONG).await;
    let second = identity.login("alice@example.com", WRONG).await;

    assert_eq!(second.status(), StatusCode::UNAUTHORIZED);
}

// ---- Lockouts the owner survives (issue 34) ----

const ALICE: &str = "alice@example.com";

/// 25 addresses the account never signed in from: 127.0.0.10 to 127.0.0.34.
fn strangers() -> impl Iterator<Item = String> {
    (10..=34).map(|n| format!("127.0.0.{n}"))
}

/// Registers alice and signs her in once from [`OWNER`], the address she always uses.
async fn alice_signed_in_from_her_address(identity: &Identity) {
    identity.register(ALICE).await;
    let login = identity.login_from(OWNER, ALICE, PASSWORD).await;
    assert_eq!(login.status(), StatusCode::OK);
}

/// 125 failed logins on alice's account, 5 from each stranger (within each address's own
/// limits); what they were answered.
async fn distributed_guessing(identity: &Identity) -> Vec<StatusCode> {
    let mut answers = Vec::new();
    for source in strangers() {
        for _ in 0..5 {
            answers.push(identity.login_from(&source, ALICE, WRONG).await.status());
        }
    }
    answers
}

#[tokio::test]
async fn distributed_guessing_does_not_lock_the_owner_out_of_an_address_she_signed_in_from() {
    let identity = Identity::spawn().await;
    alice_signed_in_from_her_address(&identity).await;
    distributed_guessing(&identity).await;

    let owner = identity.login_from(OWNER, ALICE, PASSWORD).await;

    assert_eq!(
        owner.status(),
        StatusCode::OK,
        "the owner is not locked out"
    );
}

#[tokio::test]
async fn distributed_guessing_stays_bounded_and_limits_a_new_address() {
    let identity = Identity::spawn().await;
    alice_signed_in_from_her_address(&identity).await;

    let answers = distributed_guessing(&identity).await;
    let from_a_new_address = identity.login_from("127.0.0.50", ALICE, PASSWORD).await;

    let checked = answers
        .iter()
        .filter(|status| **status == StatusCode::UNAUTHORIZED)
        .count();
    assert_eq!(checked, 100, "the account's limit bounds the guesses");
    assert_problem(from_a_new_address, StatusCode::TOO_MANY_REQUESTS).await;
}

/// Ten forgot-password calls for alice from strangers: the account's mail limit, used up.
async fn mail_requests_from_strangers(identity: &Identity) {
    // Three per address (each address's own limit), ten in all.
    let sources = strangers().flat_map(|source| std::iter::repeat_n(source, 3));
    for source in sources.take(10) {
        let asked = identity.forgot_password_from(&source, ALICE).await;
        assert_eq!(asked.status(), StatusCode::ACCEPTED);
    }
}

#[tokio::test]
async fn mail_requests_from_strangers_do_not_keep_the_owner_from_a_reset_link() {
    let identity = Identity::spawn().await;
    alice_signed_in_from_her_address(&identity).await;
    mail_requests_from_strangers(&identity).await;

    let owners = identity.forgot_password_from(OWNER, ALICE).await;

    assert_eq!(owners.status(), StatusCode::ACCEPTED);
    identity.token_from_mail(ALICE, "reset-password", 11).await;
}

#[tokio::test]
async fn mail_requests_from_a_new_address_are_still_limited_by_the_account() {
    let identity = Identity::spawn().await;
    alice_signed_in_from_her_address(&identity).await;
    mail_requests_from_strangers(&identity).await;

    let from_a_new_address = identity.forgot_password_from("127.0.0.50", ALICE).await;

    assert_problem(from_a_new_address, StatusCode::TOO_MANY_REQUESTS).await;
}

// ---- A full in-process limiter (issue 34) ----

/// A failed login from each of 40 addresses on an account of its own: 120 buckets.
async fn flood(identity: &Identity) -> Vec<StatusCode> {
    let mut answers = Vec::new();
    for n in 100..140 {
        let source = format!("127.0.0.{n}");
        let account = format!("flood-{n}@example.com");
        answers.push(identity.login_from(&source, &account, WRONG).await.status());
    }
    answers
}

#[tokio::test]
async fn a_full_in_process_limiter_makes_room_for_new_clients() {
    let identity =
        Identity::spawn_with(TestApp::builder().setting("rate_limit.memory_capacity", "30")).await;

    let answers = flood(&identity).await;

    assert_eq!(
        answers,
        [StatusCode::UNAUTHORIZED; 40],
        "nobody was refused"
    );
}

#[tokio::test]
async fn a_flood_that_fills_the_limiter_does_not_reset_a_guessers_count() {
    let identity =
        Identity::spawn_with(TestApp::builder().setting("rate_limit.memory_capacity", "30")).await;
    identity.register(ALICE).await;
    for _ in 0..5 {
        identity.login_from(GUESSER, ALICE, WRONG).await;
    }

    flood(&identity).await;
    let guesser = identity.login_from(GUESSER, ALICE, PASSWORD).await;

    assert_problem(guesser, StatusCode::TOO_MANY_REQUESTS).await;
}

#[tokio::test]
async fn cheap_traffic_that_fills_the_limiter_does_not_lift_the_per_account_cap() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = super::oauth::service_with(
        TestApp::builder()
            .setting("rate_limit.memory_capacity", "30")
            .setting("rate_limit.failed_logins_per_account", "3"),
    )
    .await;
    identity.register(ALICE).await;
    for n in 60..63 {
        let guess = identity
            .login_from(&format!("127.0.0.{n}"), ALICE, WRONG)
            .await;
        assert_eq!(guess.status(), StatusCode::UNAUTHORIZED);
    }

    // Sign-in starts cost the attacker nothing but a request: 40 addresses, 5 each, so every
    // one of their buckets counts more than the account's.
    for n in 100..140 {
        for _ in 0..5 {
            let started = identity.authorize_from(&format!("127.0.1.{n}")).await;
            assert_eq!(started.status(), StatusCode::OK);
        }
    }
    let guess = identity.login_from("127.0.0.70", ALICE, WRONG).await;

    assert_problem(guess, StatusCode::TOO_MANY_REQUESTS).await;
}
