//! End-to-end specifications of the service, compiled as one test binary.

mod architecture;
mod body_limit;
mod client_address;
mod compose;
mod degraded;
mod deployment;
mod docs;
mod errors;
mod health;
mod idempotency;
mod identity;
mod intents;
mod legal;
mod notifications;
mod redis_topologies;
mod serving;
mod settings;
mod startup;
mod swagger_browser;
mod things;
