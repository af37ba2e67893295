//! The kernel: the vocabulary every layer of the service shares, with no infrastructure in it.
//!
//! It owns:
//! - [`problem`]: RFC 9457 problem details, the one shape of every error response;
//! - [`error`]: [`AppError`], the application error type, mapped to HTTP in exactly one place;
//! - [`operation_error`]: [`operation_error!`], an operation's own error type: an [`AppError`]
//!   documented with the statuses that operation can answer;
//! - [`context`]: the per-request context (request id, path) that problem responses cite;
//! - [`auth`]: the one authentication step and its outcome ([`Authentication`]), the
//!   [`Principal`], access-token keys and the bearer security scheme;
//! - [`client`]: the client address every per-client rule keys by;
//! - [`revocation`]: the in-memory set of revoked sessions the authentication step refuses;
//! - [`outage`]: one warning per outage of a dependency the service tolerates losing;
//! - [`pagination`]: page requests and paged results;
//! - [`timestamp`]: [`Timestamp`], every time the API sends, written one way;
//! - [`strict_string`]: request string fields that take strings only (poem-openapi's `String`
//!   would take `12` and `false` too).
//!
//! Nothing here talks to a database, Redis or the network: modules and the host depend on it,
//! it depends on none of them.

pub mod auth;
pub mod client;
pub mod context;
pub mod error;
pub mod operation_error;
pub mod outage;
pub mod pagination;
pub mod problem;
pub mod revocation;
pub mod strict_string;
#[cfg(test)]
mod test_log;
pub mod timestamp;

/// Where the host mounts every module's API; modules use it to build `Location` headers.
pub const API_PREFIX: &str = "/api/v1";

pub use auth::{
    AccessTokenClaims, AccessTokenKeys, Authentication, Authenticator, BearerAuth, Principal,
    Refusal,
};
pub use client::{ClientAddress, ClientAddressResolver, ForwardedHeader, client_address};
pub use context::RequestContext;
pub use error::{AppError, AppResult};
pub use operation_error::ErrorCase;
pub use pagination::{Page, PageRequest};
pub use problem::Problem;
pub use revocation::RevokedSessions;
pub use strict_string::StrictString;
pub use timestamp::Timestamp;
