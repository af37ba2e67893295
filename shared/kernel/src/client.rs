//! Which client sent a request, as far as this service can tell.
//!
//! One function, used by everything that keys state by client address (the rate limiter's
//! per-address buckets, the idempotency layer's anonymous scope), so that they always agree on
//! who "the same client" is. Making it proxy-aware is a change in this one place.

use poem::Request;

/// The client's IP address as text (`127.0.0.1`, `::1`), or `unknown` for a listener without
/// socket addresses.
pub fn client_address(req: &Request) -> String {
    req.remote_addr()
        .as_socket_addr()
        .map(|address| address.ip().to_string())
        .unwrap_or_else(|| "unknown".to_owned())
}
