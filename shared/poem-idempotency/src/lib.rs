#![doc = include_str!("../README.md")]
//!
//! ## The crate's parts
//!
//! - [`key`]: parsing the header, scoping a key to (caller, method, route template), and
//!   fingerprinting a request's payload and preconditions;
//! - [`store`]: the record store, in process or in Redis, with atomic claim / complete /
//!   release / renew fenced by lease tokens, and its conformance suite;
//! - [`mod@guard`]: the endpoint a poem-openapi `transform` wraps an operation with, and the
//!   shared [`Idempotency`] state the service installs;
//! - [`host`]: what the layer needs from the service ([`Host`]);
//! - [`durable`]: outcomes committed in the operation's own database transaction;
//! - [`metrics`]: the counters (executed, replayed, conflict, key reuse, degraded, lease lost);
//! - [`settings`]: how it stores, waits and expires;
//! - [`intent`] and [`openapi`]: what each operation declares (with [`intents`]) and how the
//!   declarations appear in the OpenAPI document;
//! - `gate` (feature `gate`): the check of a running service against its document.

#![deny(missing_docs)]

mod buffer;
pub mod durable;
#[cfg(feature = "gate")]
pub mod gate;
pub mod guard;
pub mod host;
pub mod intent;
pub mod key;
pub mod metrics;
pub mod openapi;
mod outage;
// Planted protocol bugs, for the simulation to find (feature `simulation`; off unless switched on).
#[cfg(feature = "simulation")]
pub mod planted;
#[cfg(not(feature = "simulation"))]
mod planted;
pub mod settings;
pub mod store;
#[cfg(not(feature = "durable"))]
mod without_durable;

pub use poem_idempotency_macros::intents;

pub use durable::{DurableError, OutcomeRecorder, PreparedOutcome, Recorded};
#[cfg(feature = "durable")]
pub use durable::{
    DurableOutcomes, DurableTransaction, OutcomeConnection, OutcomeDatabase, WriteTransaction,
};
pub use guard::{
    GuardOptions, IDEMPOTENCY_KEY, IDEMPOTENT_REPLAY, Idempotency, guard, guard_declared,
    idempotent,
};
pub use host::{Caller, DefaultHost, Host, IdempotencyProblem, ProblemKind};
pub use metrics::MetricsSnapshot;
pub use settings::{IdempotencySettings, StoreKind};

#[doc(hidden)]
pub mod __private {
    // What `#[intents]` expands to refers to poem through here, so an API crate needs no direct
    // dependency on the exact poem the guard is built for.
    pub use poem;
    pub use poem_openapi;
}
