//! HTTP request idempotency via client-supplied `Idempotency-Key` headers, for poem-openapi
//! operations (the Rust implementation of ADR-017, with the gaps it admits closed).
//!
//! It owns:
//! - [`key`]: parsing the header, scoping a key to (caller, method, route template), and
//!   fingerprinting a request's payload;
//! - [`store`]: the record store, in process or in Redis, with atomic claim / complete /
//!   release / renew fenced by lease tokens;
//! - [`guard`]: the endpoint a poem-openapi `transform` wraps an operation with, and the
//!   shared [`Idempotency`] state the host installs;
//! - [`metrics`]: the counters (executed, replayed, conflict, key reuse, degraded, lease lost);
//! - [`settings`]: the `[idempotency]` section.
//!
//! Opting an operation in is one attribute: `#[oai(..., transform = "idempotent")]`.

pub mod guard;
pub mod key;
pub mod metrics;
pub mod settings;
pub mod store;

pub use guard::{
    GuardOptions, IDEMPOTENCY_KEY, IDEMPOTENT_REPLAY, Idempotency, guard, idempotent,
    idempotent_key_required,
};
pub use metrics::MetricsSnapshot;
pub use settings::IdempotencySettings;
