//! The account-event policy (ADR 0017), row by row: for each event, which sessions end, which
//! credentials go and what the owner is told. No credential outlives its owner's say: the
//! attacks of a pre-registrant (who registered the owner's address first) and of a thief
//! holding a 15-minute access token are among the rows. The administrator-role rows are in
//! `tests/e2e/roles.rs`.

use e2e::{TestApp, assert_problem};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use testing::tools::Suite;

use super::oauth::{NEW_PASSWORD, email, service, service_with};
use super::oidc_provider::{EndUser, sign_in_at_provider};
use super::{Identity, PASSWORD, Tokens, tokens};

/// The loopback address the attacker signs in and guesses from.
const ATTACKER_ADDRESS: &str = "127.0.0.7";

/// What the owner is mailed when a signed-in caller links a provider account.
const ADDED_SUBJECT: &str = "A sign-in provider was added to your account";

impl Identity {
    /// `DELETE /auth/identities/{id}` as the account of `access`.
    async fn unlink_as(&self, access: &str, identity_id: &str) -> reqwest::Response {
        self.app
            .request(
                Method::DELETE,
                &format!("/api/v1/auth/identities/{identity_id}"),
            )
            .bearer_auth(access)
            .send()
            .await
            .expect("request failed")
    }

    /// Confirms `address` with the `count`-th confirmation link it received.
    async fn confirm(&self, address: &str, count: usize) {
        let token = self.token_from_mail(address, "confirm-email", count).await;
        let confirmed = self.post("/confirm-email", json!({ "token": token })).await;
        assert_eq!(confirmed.status(), StatusCode::NO_CONTENT);
    }

    /// Links `user`'s provider account to the account of `access`, which must succeed; the
    /// identity's id.
    async fn linked(&self, access: &str, user: &EndUser) -> String {
        let linked = self.link_with_provider(access, user).await;
        assert_eq!(linked.status(), StatusCode::CREATED, "the link is made");
        let view: Value = linked.json().await.unwrap();
        view["id"].as_str().unwrap().to_owned()
    }

    /// Whether the session of `tokens` still works: its access token and its refresh token.
    async fn session_works(&self, tokens: &Tokens) -> bool {
        let access = self.get_as(&tokens.access, "/api/v1/auth/me").await;
        access.status() == StatusCode::OK
    }

    /// The owner of `address` signs in with a provider that vouches for it: a first sign-in
    /// links the account with that address (or makes one).
    async fn owner_signs_in_by_verified_address(&self, address: &str) -> Tokens {
        tokens(
            self.sign_in_with_provider(&EndUser::new(address, true))
                .await,
        )
        .await
    }

    /// Registers `address` and signs in from `source`, which the account then knows.
    async fn registered_and_signed_in_from(&self, source: &str, address: &str) {
        self.register(address).await;
        tokens(self.login_from(source, address, PASSWORD).await).await;
    }

    /// Two wrong passwords for `address` from `source` are checked and the third is refused:
    /// `source` is not an address the account signed in from, so the account's own limit
    /// (two, [`service_with_two_failures_per_account`]) holds there.
    async fn assert_the_accounts_limit_holds_at(&self, source: &str, address: &str) {
        let mut statuses = Vec::new();
        for _ in 0..3 {
            let guess = self.login_from(source, address, "a wrong guess").await;
            statuses.push(guess.status());
        }
        assert_eq!(
            statuses,
            [
                StatusCode::UNAUTHORIZED,
                StatusCode::UNAUTHORIZED,
                StatusCode::TOO_MANY_REQUESTS
            ]
        );
    }
}

/// A service whose accounts take two failed logins per window from addresses they never
/// signed in from.
async fn service_with_two_failures_per_account() -> Identity {
    service_with(TestApp::builder().setting("rate_limit.failed_logins_per_account", "2")).await
}

/// A provider account whose address the provider did not verify: its first sign-in can
/// neither link nor make an account (403), so a 200 means it is linked to something.
fn attackers_provider_account() -> EndUser {
    EndUser::new(&email(), false)
}

// ---- Register ----

#[tokio::test]
async fn registering_an_address_that_has_an_account_leaves_the_account_as_it_was() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let address = email();
    let owner = identity.registered_and_confirmed(&address).await;

    let again = identity
        .post(
            "/register",
            json!({ "email": address, "password": "another passphrase" }),
        )
        .await;

    assert_problem(again, StatusCode::CONFLICT).await;
    assert!(identity.session_works(&owner).await);
    tokens(identity.login(&address, PASSWORD).await).await;
}

// ---- Confirm the address ----

#[tokio::test]
async fn confirming_the_address_ends_no_session_and_spends_the_other_confirmation_links() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let address = email();
    let owner = identity.signed_in(&address).await;
    identity
        .post("/send-email-confirmation", json!({ "email": address }))
        .await;
    let second = identity.token_from_mail(&address, "confirm-email", 2).await;

    identity.confirm(&address, 1).await;

    assert!(identity.session_works(&owner).await);
    let spent = identity
        .post("/confirm-email", json!({ "token": second }))
        .await;
    assert_problem(spent, StatusCode::BAD_REQUEST).await;
}

// ---- Password reset (set or replace a password) ----

#[tokio::test]
async fn a_reset_ends_every_session_and_removes_a_provider_a_session_thief_linked() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let address = email();
    // The owner signs in; a thief copies the fresh session's access token and links his own
    // provider account with it (the owner is mailed, and resets the password).
    let owner = identity.registered_and_confirmed(&address).await;
    let thiefs = attackers_provider_account();
    identity.linked(&owner.access, &thiefs).await;

    let reset = identity
        .reset_password_by_mail(&address, NEW_PASSWORD)
        .await;

    assert_eq!(reset.status(), StatusCode::NO_CONTENT);
    assert!(!identity.session_works(&owner).await, "every session ends");
    let thiefs_sign_in = identity.sign_in_with_provider(&thiefs).await;
    assert_problem(thiefs_sign_in, StatusCode::FORBIDDEN).await;
}

#[tokio::test]
async fn a_reset_keeps_the_identities_linked_by_verified_address() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let address = email();
    // An account a provider made, by the address it verified; its owner then sets a password.
    let at_provider = EndUser::new(&address, true);
    let first = tokens(identity.sign_in_with_provider(&at_provider).await).await;

    let reset = identity
        .reset_password_by_mail(&address, NEW_PASSWORD)
        .await;

    assert_eq!(reset.status(), StatusCode::NO_CONTENT);
    assert!(!identity.session_works(&first).await, "every session ends");
    let again = tokens(identity.sign_in_with_provider(&at_provider).await).await;
    assert_eq!(identity.identities(&again.access).await.len(), 1);
    tokens(identity.login(&address, NEW_PASSWORD).await).await;
}

#[tokio::test]
async fn a_reset_forgets_the_addresses_the_account_signed_in_from() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service_with_two_failures_per_account().await;
    let address = email();
    identity
        .registered_and_signed_in_from(ATTACKER_ADDRESS, &address)
        .await;

    identity
        .reset_password_by_mail(&address, NEW_PASSWORD)
        .await;

    // No longer known there: its failures count against the account's own limit again.
    identity
        .assert_the_accounts_limit_holds_at(ATTACKER_ADDRESS, &address)
        .await;
}

// ---- Link by verified address (a first sign-in with a provider) ----
//
// The pre-registration attack: the attacker registers the owner's address with a password of
// his own before the owner ever signs up. Once the owner confirms the address (from the mail she
// receives) and signs in with a provider that vouches for it, the account is hers, and nothing
// the attacker set up may still open it.

#[tokio::test]
async fn a_provider_the_pre_registrant_linked_signs_nobody_in_after_the_owners_link_by_address() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let address = email();
    identity.register(&address).await;
    identity.confirm(&address, 1).await;
    let attacker = tokens(identity.login(&address, PASSWORD).await).await;
    let attackers = attackers_provider_account();
    identity.linked(&attacker.access, &attackers).await;

    let owner = identity.owner_signs_in_by_verified_address(&address).await;

    let attackers_sign_in = identity.sign_in_with_provider(&attackers).await;
    assert_problem(attackers_sign_in, StatusCode::FORBIDDEN).await;
    assert_eq!(
        identity.identities(&owner.access).await.len(),
        1,
        "only the owner's provider is linked"
    );
}

#[tokio::test]
async fn addresses_the_pre_registrant_signed_in_from_are_forgotten_by_the_link_by_address() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service_with_two_failures_per_account().await;
    let address = email();
    identity
        .registered_and_signed_in_from(ATTACKER_ADDRESS, &address)
        .await;
    identity.confirm(&address, 1).await;

    identity.owner_signs_in_by_verified_address(&address).await;

    // Known no longer: the attacker's guesses are held to the account's limit.
    identity
        .assert_the_accounts_limit_holds_at(ATTACKER_ADDRESS, &address)
        .await;
}

#[tokio::test]
async fn a_one_time_link_mailed_before_a_link_by_address_no_longer_works() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let address = email();
    identity.register(&address).await;
    identity.confirm(&address, 1).await;
    let earlier_reset = identity.reset_link(&address, 1).await;

    identity.owner_signs_in_by_verified_address(&address).await;

    let used = identity
        .post(
            "/reset-password",
            json!({ "token": earlier_reset, "newPassword": NEW_PASSWORD }),
        )
        .await;
    assert_problem(used, StatusCode::BAD_REQUEST).await;
}

// ---- Link while signed in ----
//
// The thief: he holds one of the owner's access tokens (15 minutes), not her password.

#[tokio::test]
async fn linking_needs_a_confirmed_address() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let unconfirmed = identity.signed_in(&email()).await;

    let started = identity.start_link_as(&unconfirmed.access).await;

    let problem = assert_problem(started, StatusCode::FORBIDDEN).await;
    assert!(
        problem["detail"].as_str().unwrap().contains("Confirm"),
        "{problem}"
    );
}

/// A service whose sign-ins are recent for one second.
async fn service_with_a_short_recent_sign_in() -> Identity {
    service_with(TestApp::builder().setting("identity.recent_sign_in", "1s")).await
}

/// Past `identity.recent_sign_in` of [`service_with_a_short_recent_sign_in`].
async fn after_the_sign_in_is_no_longer_recent() {
    tokio::time::sleep(std::time::Duration::from_millis(1_200)).await;
}

#[tokio::test]
async fn an_access_token_of_an_older_session_cannot_start_a_link() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service_with_a_short_recent_sign_in().await;
    let owner = identity.registered_and_confirmed(&email()).await;
    after_the_sign_in_is_no_longer_recent().await;

    let thiefs_start = identity.start_link_as(&owner.access).await;

    let problem = assert_problem(thiefs_start, StatusCode::FORBIDDEN).await;
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("recent sign-in"),
        "{problem}"
    );
}

#[tokio::test]
async fn an_access_token_of_an_older_session_cannot_complete_a_link() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service_with_a_short_recent_sign_in().await;
    let owner = identity.registered_and_confirmed(&email()).await;
    let started = identity.started_link(&owner.access).await;
    let callback = sign_in_at_provider(&started.url, &attackers_provider_account()).await;
    after_the_sign_in_is_no_longer_recent().await;

    let completed = identity
        .complete_link_as(&owner.access, &callback, &started.binding)
        .await;

    assert_problem(completed, StatusCode::FORBIDDEN).await;
    assert!(identity.identities(&owner.access).await.is_empty());
}

#[tokio::test]
async fn a_refreshed_session_is_not_a_recent_sign_in() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service_with_a_short_recent_sign_in().await;
    let owner = identity.registered_and_confirmed(&email()).await;
    after_the_sign_in_is_no_longer_recent().await;
    let refreshed = tokens(identity.refresh(&owner.refresh).await).await;

    let started = identity.start_link_as(&refreshed.access).await;

    assert_problem(started, StatusCode::FORBIDDEN).await;
}

#[tokio::test]
async fn a_new_login_lets_the_owner_link() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service_with_a_short_recent_sign_in().await;
    let address = email();
    identity.registered_and_confirmed(&address).await;
    after_the_sign_in_is_no_longer_recent().await;
    let again = tokens(identity.login(&address, PASSWORD).await).await;

    let linked = identity
        .link_with_provider(&again.access, &EndUser::new(&email(), false))
        .await;

    assert_eq!(linked.status(), StatusCode::CREATED);
}

#[tokio::test]
async fn the_owner_is_mailed_of_a_link_made_while_signed_in_and_its_link_undoes_it() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let address = email();
    let owner = identity.registered_and_confirmed(&address).await;
    let thiefs = attackers_provider_account();
    identity.linked(&owner.access, &thiefs).await;

    let notice = identity.mail_with_subject(&address, ADDED_SUBJECT).await;
    let token = identity
        .token_from_mail(&address, "reset-password", 1)
        .await;
    let reset = identity
        .post(
            "/reset-password",
            json!({ "token": token, "newPassword": NEW_PASSWORD }),
        )
        .await;

    let text = notice.text_body().unwrap_or_default();
    assert!(text.contains("Test SSO"), "{text}");
    assert_eq!(reset.status(), StatusCode::NO_CONTENT);
    let thiefs_sign_in = identity.sign_in_with_provider(&thiefs).await;
    assert_problem(thiefs_sign_in, StatusCode::FORBIDDEN).await;
}

// ---- Unlink ----

#[tokio::test]
async fn removing_an_identity_ends_the_sessions_it_opened() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let owner = identity.registered_and_confirmed(&email()).await;
    let at_provider = EndUser::new(&email(), false);
    let identity_id = identity.linked(&owner.access, &at_provider).await;
    let by_provider = tokens(identity.sign_in_with_provider(&at_provider).await).await;

    let removed = identity.unlink_as(&owner.access, &identity_id).await;

    assert_eq!(removed.status(), StatusCode::NO_CONTENT);
    assert!(!identity.session_works(&by_provider).await);
    assert_problem(
        identity.refresh(&by_provider.refresh).await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
    assert!(
        identity.session_works(&owner).await,
        "the password's session stays"
    );
}

// ---- Lock and unlock ----

#[tokio::test]
async fn a_lock_ends_every_session_and_the_linked_provider_signs_nobody_in() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let admin = identity.signed_in_admin(&email()).await;
    let at_provider = EndUser::new(&email(), true);
    let owner = tokens(identity.sign_in_with_provider(&at_provider).await).await;
    let owner_id = identity.user_id(&owner.access).await;

    let locked = identity
        .admin_action(&admin.access, "lock", &owner_id)
        .await;

    assert_eq!(locked.status(), StatusCode::NO_CONTENT);
    assert!(!identity.session_works(&owner).await);
    let sign_in = identity.sign_in_with_provider(&at_provider).await;
    assert_problem(sign_in, StatusCode::FORBIDDEN).await;
}

#[tokio::test]
async fn an_unlock_lets_the_owner_sign_in_again_and_revives_no_session() {
    testing::needs_tools_of!(Suite::OpenIdProvider);
    let identity = service().await;
    let admin = identity.signed_in_admin(&email()).await;
    let at_provider = EndUser::new(&email(), true);
    let owner = tokens(identity.sign_in_with_provider(&at_provider).await).await;
    let owner_id = identity.user_id(&owner.access).await;
    identity
        .admin_action(&admin.access, "lock", &owner_id)
        .await;

    let unlocked = identity
        .admin_action(&admin.access, "unlock", &owner_id)
        .await;

    assert_eq!(unlocked.status(), StatusCode::NO_CONTENT);
    assert!(!identity.session_works(&owner).await, "no session revives");
    tokens(identity.sign_in_with_provider(&at_provider).await).await;
}
