//! What refusing revoked sessions costs an authenticated request, measured without HTTP.
//!
//! The authentication step verifies the bearer token, then looks its session up in the
//! in-memory set of revoked sessions (`kernel::revocation`): no network, one read lock and one
//! hash lookup. Here the step is called directly on one valid token, against an empty set and
//! against a set of [`REVOKED`] live entries (far more revocations than a service sees within an
//! access token's lifetime), beside the token verification alone, alternating in blocks on CPU
//! only; the fastest block of each is kept. The difference between the step and verification
//! alone is what the revocation check adds; the report sets it against the server CPU of an
//! authenticated request over HTTP.

use std::sync::Arc;
use std::time::Instant;

use kernel::revocation::{RevokedSessions, unix_now_ms};
use kernel::{AccessTokenClaims, AccessTokenKeys, Authentication, Authenticator};
use poem::http::{HeaderMap, HeaderValue, header};

/// Live revoked sessions in the large set.
pub const REVOKED: usize = 100_000;

const CALLS_PER_BLOCK: u32 = 10_000;
const BLOCKS: u32 = 25;

/// Nanoseconds per call, fastest block of each.
#[derive(Debug, Clone, Copy)]
pub struct RevocationCost {
    pub verify_ns: f64,
    pub authenticate_empty_ns: f64,
    pub authenticate_full_ns: f64,
}

impl RevocationCost {
    /// What the check adds with [`REVOKED`] entries in the set.
    pub fn overhead_ns(&self) -> f64 {
        self.authenticate_full_ns - self.verify_ns
    }
}

pub async fn measure() -> anyhow::Result<RevocationCost> {
    let tokens = Arc::new(AccessTokenKeys::hs256(
        b"bench-only-secret-0123456789abcdef",
        "bench",
        "bench",
    )?);
    let now = unix_now_ms() / 1000;
    let token = tokens.sign(&AccessTokenClaims {
        sub: "bench".to_owned(),
        sid: "session-of-bench".to_owned(),
        roles: vec![],
        iss: "bench".to_owned(),
        aud: "bench".to_owned(),
        iat: now,
        exp: now + 600,
    })?;
    let mut headers = HeaderMap::new();
    headers.insert(
        header::AUTHORIZATION,
        HeaderValue::from_str(&format!("Bearer {token}"))?,
    );

    let empty = Authenticator::new(Arc::clone(&tokens), Arc::new(RevokedSessions::new()));
    let revoked = Arc::new(RevokedSessions::new());
    let until = unix_now_ms() + 3_600_000;
    for n in 0..REVOKED {
        revoked.insert(
            &format!("{:032x}", n as u128 * 0x9e37_79b9_7f4a_7c15),
            until,
        );
    }
    let full = Authenticator::new(Arc::clone(&tokens), revoked);
    for authenticator in [&empty, &full] {
        anyhow::ensure!(
            matches!(
                authenticator.authenticate(&headers).await,
                Authentication::Authenticated(_)
            ),
            "the bench token must authenticate"
        );
    }

    let mut best = [f64::INFINITY; 3];
    // Alternating blocks, so that a burst of other work on the machine hits all three alike.
    for _ in 0..BLOCKS {
        let started = Instant::now();
        for _ in 0..CALLS_PER_BLOCK {
            std::hint::black_box(tokens.verify(std::hint::black_box(&token)).is_ok());
        }
        best[0] = best[0].min(started.elapsed().as_nanos() as f64);
        for (slot, authenticator) in [(1, &empty), (2, &full)] {
            let started = Instant::now();
            for _ in 0..CALLS_PER_BLOCK {
                std::hint::black_box(authenticator.authenticate(&headers).await);
            }
            best[slot] = best[slot].min(started.elapsed().as_nanos() as f64);
        }
    }
    let per_call = |total: f64| total / f64::from(CALLS_PER_BLOCK);
    Ok(RevocationCost {
        verify_ns: per_call(best[0]),
        authenticate_empty_ns: per_call(best[1]),
        authenticate_full_ns: per_call(best[2]),
    })
}
