//! A typed client for the service, generated from `openapi/openapi.json` by
//! [progenitor](https://github.com/oxidecomputer/progenitor), that retries safely by default.
//!
//! ```ignore
//! let client = api_client::Client::new("http://127.0.0.1:8080", api_client::ClientOptions::default());
//! let thing = client
//!     .create_thing()
//!     .body(api_client::types::ThingInput::builder().name("first"))
//!     .send()
//!     .await?;
//! println!("{} (a replay: {})", thing.id, api_client::was_replayed(&thing));
//! ```
//!
//! (`examples/quick_start.rs` is the same, compiled by `cargo test`.)
//!
//! What it does on its own, from what the document declares of each operation:
//!
//! - **An operation declared idempotent** (`x-idempotency.intent: idempotent`) gets an
//!   `Idempotency-Key` per call (a UUID v4, unless the caller set one), the same on every retry;
//!   a connection that fails or resets, a timeout, a 502/503/504, and a 409 or 429 that says
//!   when to come back (`Retry-After`) are retried with exponential backoff and full jitter,
//!   `Retry-After` honoured, within [`RetryPolicy`]'s budget. The service then answers a retry
//!   of a call that already took effect with the stored answer ([`was_replayed`] says so), and
//!   never applies it twice.
//! - **A safe operation** (`GET`) is retried the same way, without a key.
//! - **A non-idempotent operation** (`x-idempotency.intent: non-idempotent`: logins, token
//!   refreshes) is never retried: its failure is the caller's to judge.
//!
//! `src/generated.rs` is progenitor's output for the committed document, with the table of
//! declared intents it reads; `cargo run -p api-client --features generate --bin
//! generate-client` writes it again, and a test of the e2e suite fails when it drifts from the
//! document.

#[cfg(feature = "generate")]
pub mod generate;
#[allow(
    clippy::all,
    clippy::pedantic,
    unused_imports,
    irrefutable_let_patterns,
    mismatched_lifetime_syntaxes
)]
mod generated;
mod retry;

pub use generated::*;
// The HTTP client the generated one is built on: `Client::new_with_client` takes one (timeouts,
// proxies, TLS), and it must be this version.
pub use reqwest;
pub use retry::{ClientOptions, RetryPolicy, was_replayed};
