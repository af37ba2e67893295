//! The host: it loads settings, builds the shared infrastructure, mounts every module under
//! `/api/v1`, serves the OpenAPI document and Swagger UI, and runs the server.
//!
//! Where to look:
//! - [`modules`]: the one place modules are wired in;
//! - [`startup`]: start-up as named steps, and serving;
//! - [`infrastructure`]: the settings checked and what the modules are given, connected;
//! - [`middleware`]: the middleware stack, outermost first;
//! - [`docs`]: the OpenAPI document (as served, and as committed in `openapi/openapi.json`)
//!   and Swagger UI;
//! - [`health`]: liveness and readiness probes;
//! - [`config`]: the embedded settings files;
//! - [`commands`]: one-off administrative commands (`app grant-admin`, `app revoke-admin`).
//!
//! `app check-idempotency`, the deployment checker, is a client of the service and lives with
//! the clients (`clients/deployment-check`); the binary only hands it its arguments.

pub mod commands;
pub mod config;
pub mod docs;
pub mod health;
pub mod infrastructure;
pub mod middleware;
pub mod modules;
pub mod startup;

pub use startup::Application;
