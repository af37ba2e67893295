//! Which requests the identity API counts against which limits, and when a count is taken back.
//!
//! Each request is counted in one or more buckets (see [`RateLimitSettings`] for the limits), its
//! client address's first. A request is refused with 429 at the first bucket over its limit; the
//! hits counted for it are then taken back, so refused requests do not eat into the next window.
//!
//! A login is counted *before* its password is checked, then taken back unless the password
//! was wrong: concurrent guesses are bounded like sequential ones (a check-then-count would let a
//! burst through), while only failures stay counted. A right password also clears its
//! (account, address) bucket, so an owner's typo streak ends with their login.

use infra::rate_limit::{RateLimitSettings, RateLimiter};
use kernel::{AppError, AppResult};

use crate::domain::Email;

/// One bucket and its limit.
type Bucket = (String, u32);

/// The identity API's limits on a shared [`RateLimiter`].
pub struct Throttle {
    limiter: RateLimiter,
    limits: RateLimitSettings,
}

impl Throttle {
    pub fn new(limiter: RateLimiter, limits: RateLimitSettings) -> Self {
        Self { limiter, limits }
    }

    /// A registration from `client` (an address group, [`kernel::client_address`]).
    pub async fn register(&self, client: &str) -> AppResult<()> {
        self.admit(&[(
            format!("register:address:{client}"),
            self.limits.register_per_address,
        )])
        .await
    }

    /// A sign-in with a provider started from `client`.
    pub async fn provider_sign_in(&self, client: &str) -> AppResult<()> {
        self.admit(&[(
            format!("oauth-authorize:address:{client}"),
            self.limits.provider_sign_ins_per_address,
        )])
        .await
    }

    /// A mail asked for `email` from `client`: per (account, address), per account (nobody can
    /// fill a victim's inbox) and per address.
    pub async fn mail(&self, email: &str, client: &str) -> AppResult<()> {
        let account = account(email);
        self.admit(&[
            (
                format!("email:address:{client}"),
                self.limits.email_per_address,
            ),
            (
                format!("email:account-address:{account}|{client}"),
                self.limits.email_per_account_address,
            ),
            (
                format!("email:account:{account}"),
                self.limits.email_per_account,
            ),
        ])
        .await
    }

    /// A login attempt on `email` from `client`, counted as a failure until
    /// [`LoginAttempt::settle`] learns otherwise.
    pub async fn login(&self, email: &str, client: &str) -> AppResult<LoginAttempt<'_>> {
        let account = account(email);
        // The address first: see `admit`.
        let buckets = [
            (
                format!("login:address:{client}"),
                self.limits.failed_logins_per_address,
            ),
            (
                format!("login:account-address:{account}|{client}"),
                self.limits.failed_logins_per_account_address,
            ),
            (
                format!("login:account:{account}"),
                self.limits.failed_logins_per_account,
            ),
        ];
        self.admit(&buckets).await?;
        Ok(LoginAttempt {
            throttle: self,
            buckets,
        })
    }

    /// Counts a hit in each bucket in turn; at the first one over its limit, takes back the
    /// hits counted so far and answers 429. Stopping there matters: buckets are created on
    /// their first hit, and a client already over its address's limit must not go on creating
    /// account buckets (which would fill an in-process limiter for everyone else).
    async fn admit(&self, buckets: &[Bucket]) -> AppResult<()> {
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

    async fn take_back(&self, buckets: &[Bucket]) {
        if !self.limits.enabled {
            return;
        }
        for (bucket, _) in buckets {
            self.limiter.take_back(bucket).await;
        }
    }
}

/// A login counted as a failure in its three buckets: per address, per (account, address), per
/// account.
pub struct LoginAttempt<'a> {
    throttle: &'a Throttle,
    buckets: [Bucket; 3],
}

impl LoginAttempt<'_> {
    /// Keeps the count only when the login failed on its credentials (401). A right password
    /// (a token pair, or a 403 for a locked or unconfirmed account) takes the hits back and
    /// clears the (account, address) bucket; a login that never got to check the password
    /// (503 busy, an internal error) takes them back.
    pub async fn settle<T>(self, outcome: &AppResult<T>) {
        let password_was_right = match outcome {
            Err(AppError::Unauthorized(_)) => return,
            Ok(_) | Err(AppError::Forbidden(_)) => true,
            Err(_) => false,
        };
        let throttle = self.throttle;
        if !throttle.limits.enabled {
            return;
        }
        let [(address, _), (pair, _), (account, _)] = &self.buckets;
        if password_was_right {
            throttle.limiter.clear(pair).await;
        } else {
            throttle.limiter.take_back(pair).await;
        }
        throttle.limiter.take_back(address).await;
        throttle.limiter.take_back(account).await;
    }
}

/// The account part of a bucket: the normalised address, so `A@x.io` and `a@x.io` share one.
fn account(email: &str) -> String {
    Email::parse(email)
        .map(|e| e.as_str().to_owned())
        .unwrap_or_else(|_| email.trim().to_lowercase())
}
