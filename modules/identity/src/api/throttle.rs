//! Which requests the identity API counts against which limits, and when a count is taken back.
//!
//! Each request is counted in one or more buckets (see [`RateLimitSettings`] for the limits), its
//! client address's first. A request is refused with 429 at the first bucket over its limit; the
//! hits counted for it are then taken back, so refused requests do not eat into the next window.
//!
//! The `login:*` and `email:*` buckets bound password guessing and mail to an account, so they
//! are [`Bucket::credential`]: a full in-process limiter never evicts them to make room for the
//! others (registrations, sign-ins with a provider started), which cost an attacker nothing to
//! multiply and are [`Bucket::ordinary`].
//!
//! A login is counted *before* its password is checked, then taken back unless the password
//! was wrong: concurrent guesses are bounded like sequential ones (a check-then-count would let a
//! burst through), while only failures stay counted. A right password also clears its
//! (account, address) bucket, so an owner's typo streak ends with their login.
//!
//! **Known addresses.** The per-account buckets (logins, mails) are the only ones failures from
//! anywhere can fill, so they are the ones a stranger could aim at an owner. A client address
//! from which the account signed in successfully within `rate_limit.known_address_ttl` is not
//! counted in them (nor refused by them): its own (account, address) and address buckets still
//! apply. Every other address, new ones included, is: distributed guessing stays bounded by the
//! account's limit, and a guesser cannot make the owner's usual address answer 429.

use std::time::Duration;

use infra::database::now_ms;
use infra::rate_limit::{Bucket, RateLimitSettings, RateLimiter};
use kernel::{AppError, AppResult};

use crate::domain::{Email, OpaqueToken};
use crate::repository::IdentityRepository;
use crate::service::TokenPair;

/// One bucket and its limit.
type BucketLimit = (Bucket, u32);

/// The identity API's limits on a shared [`RateLimiter`].
pub struct Throttle {
    limiter: RateLimiter,
    limits: RateLimitSettings,
    /// Where the accounts signed in from.
    accounts: IdentityRepository,
}

impl Throttle {
    pub fn new(
        limiter: RateLimiter,
        limits: RateLimitSettings,
        accounts: IdentityRepository,
    ) -> Self {
        Self {
            limiter,
            limits,
            accounts,
        }
    }

    /// A registration from `client` (an address group, [`kernel::client_address`]).
    pub async fn register(&self, client: &str) -> AppResult<()> {
        self.admit(&[(
            Bucket::ordinary(format!("register:address:{client}")),
            self.limits.register_per_address,
        )])
        .await
    }

    /// A sign-in with a provider started from `client`.
    pub async fn provider_sign_in(&self, client: &str) -> AppResult<()> {
        self.admit(&[(
            Bucket::ordinary(format!("oauth-authorize:address:{client}")),
            self.limits.provider_sign_ins_per_address,
        )])
        .await
    }

    /// A mail asked for `email` from `client`: per address, per (account, address), and per
    /// account (nobody can fill a victim's inbox) unless the account signed in from there.
    pub async fn mail(&self, email: &str, client: &str) -> AppResult<()> {
        let account = account(email);
        let buckets = [
            (
                Bucket::credential(format!("email:address:{client}")),
                self.limits.email_per_address,
            ),
            (
                Bucket::credential(format!("email:account-address:{account}|{client}")),
                self.limits.email_per_account_address,
            ),
        ];
        let per_account = (
            Bucket::credential(format!("email:account:{account}")),
            self.limits.email_per_account,
        );
        self.admit_for_account(&buckets, &account, client, per_account)
            .await
            .map(drop)
    }

    /// A login attempt on `email` from `client`, counted as a failure until
    /// [`LoginAttempt::settle`] learns otherwise.
    pub async fn login(&self, email: &str, client: &str) -> AppResult<LoginAttempt<'_>> {
        let account = account(email);
        let address = (
            Bucket::credential(format!("login:address:{client}")),
            self.limits.failed_logins_per_address,
        );
        let pair = (
            Bucket::credential(format!("login:account-address:{account}|{client}")),
            self.limits.failed_logins_per_account_address,
        );
        let per_account = (
            Bucket::credential(format!("login:account:{account}")),
            self.limits.failed_logins_per_account,
        );
        let buckets = [address, pair];
        let account = self
            .admit_for_account(&buckets, &account, client, per_account)
            .await?;
        let [address, pair] = buckets;
        Ok(LoginAttempt {
            throttle: self,
            client: client.to_owned(),
            address,
            pair,
            account,
        })
    }

    /// Remembers that `user_id` signed in from `client` (a login, or a sign-in with a
    /// provider): from there, failures elsewhere no longer count against it. Best effort: a
    /// sign-in is not refused because this could not be written.
    pub async fn signed_in(&self, user_id: &str, client: &str) {
        if !self.limits.enabled {
            return;
        }
        let now = now_ms();
        let remembered = self
            .accounts
            .remember_address(
                user_id,
                &OpaqueToken::hash_of(client),
                now,
                now - millis(self.limits.known_address_ttl),
            )
            .await;
        if let Err(err) = remembered {
            tracing::warn!(error = %err, "could not remember the address of a sign-in");
        }
    }

    /// Whether the account `account` (a normalised address) signed in from `client` within
    /// `rate_limit.known_address_ttl`. Unknown when that cannot be read: the stricter side.
    async fn known(&self, account: &str, client: &str) -> bool {
        let since = now_ms() - millis(self.limits.known_address_ttl);
        self.accounts
            .signed_in_from(account, &OpaqueToken::hash_of(client), since)
            .await
            .unwrap_or_else(|err| {
                tracing::warn!(error = %err, "could not read the addresses an account signed in from");
                false
            })
    }

    /// Admits `buckets` (the address's first: see [`Self::admit`]), then the account's own
    /// `per_account` bucket unless `client` is an address the account signed in from; the
    /// per-account bucket counted, if it was. The address is looked up only for a request its
    /// own buckets let through, so a flood from one address costs no query.
    async fn admit_for_account(
        &self,
        buckets: &[BucketLimit],
        account: &str,
        client: &str,
        per_account: BucketLimit,
    ) -> AppResult<Option<BucketLimit>> {
        if !self.limits.enabled {
            return Ok(None);
        }
        self.admit(buckets).await?;
        if self.known(account, client).await {
            return Ok(None);
        }
        if let Err(refused) = self.admit(std::slice::from_ref(&per_account)).await {
            self.take_back(buckets).await;
            return Err(refused);
        }
        Ok(Some(per_account))
    }

    /// Counts a hit in each bucket in turn; at the first one over its limit, takes back the
    /// hits counted so far and answers 429. Stopping there matters: buckets are created on
    /// their first hit, and a client already over its address's limit must not go on creating
    /// account buckets (which would fill an in-process limiter's credential map for everyone
    /// else).
    async fn admit(&self, buckets: &[BucketLimit]) -> AppResult<()> {
        if !self.limits.enabled {
            return Ok(());
        }
        for (counted, (bucket, limit)) in buckets.iter().enumerate() {
            let decision = self.limiter.hit(bucket, *limit, self.limits.window).await;
            if let Some(retry_after_secs) = decision.retry_after_secs() {
                self.take_back(&buckets[..=counted]).await;
                return Err(AppError::TooManyRequests { retry_after_secs });
            }
        }
        Ok(())
    }

    async fn take_back(&self, buckets: &[BucketLimit]) {
        if !self.limits.enabled {
            return;
        }
        for (bucket, _) in buckets {
            self.limiter.take_back(bucket).await;
        }
    }
}

/// A login counted as a failure in its buckets.
pub struct LoginAttempt<'a> {
    throttle: &'a Throttle,
    client: String,
    address: BucketLimit,
    /// Per (account, address).
    pair: BucketLimit,
    /// Per account: not for an address the account signed in from.
    account: Option<BucketLimit>,
}

impl LoginAttempt<'_> {
    /// Keeps the count only when the login failed on its credentials (401). A right password
    /// (a token pair, or a 403 for a locked or unconfirmed account) takes the hits back and
    /// clears the (account, address) bucket, and a token pair makes the address a known one;
    /// a login that never got to check the password (503 busy, an internal error) takes them
    /// back.
    pub async fn settle(self, outcome: &AppResult<TokenPair>) {
        let password_was_right = match outcome {
            Err(AppError::Unauthorized(_)) => return,
            Ok(_) | Err(AppError::Forbidden(_)) => true,
            Err(_) => false,
        };
        let throttle = self.throttle;
        if !throttle.limits.enabled {
            return;
        }
        if password_was_right {
            throttle.limiter.clear(&self.pair.0).await;
        } else {
            throttle.limiter.take_back(&self.pair.0).await;
        }
        throttle.limiter.take_back(&self.address.0).await;
        if let Some((account, _)) = &self.account {
            throttle.limiter.take_back(account).await;
        }
        if let Ok(pair) = outcome {
            throttle.signed_in(&pair.user_id, &self.client).await;
        }
    }
}

fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

/// The account part of a bucket: the normalised address, so `A@x.io` and `a@x.io` share one.
fn account(email: &str) -> String {
    Email::parse(email)
        .map(|e| e.as_str().to_owned())
        .unwrap_or_else(|_| email.trim().to_lowercase())
}
