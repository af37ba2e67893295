//! Infrastructure shared by the host and the modules.
//!
//! It owns:
//! - [`settings`]: the typed, layered settings tree (embedded TOML, then `APP__*` variables),
//!   validated at start-up with errors that name the offending key;
//! - [`database`]: the SQL pool (SQLite by default, PostgreSQL by URL) and per-module migrations;
//! - [`redis`]: the optional shared Redis connection;
//! - [`telemetry`]: logs, traces and metrics (OTLP when configured);
//! - [`idempotency`]: the template's side of the idempotency layer's contract (who is asking,
//!   how its refusals read);
//! - [`http`]: the middleware every request passes through (request id, span, problem details);
//! - [`mail`]: outgoing mail (SMTP, or the log in development) and its templates;
//! - [`rate_limit`]: fixed-window limits for abuse-prone endpoints, shared through Redis when
//!   configured;
//! - [`revocation`]: revoked sessions, shared by every instance through Redis pub/sub;
//! - [`module`]: the small contract a feature module implements so the host can mount it.

pub mod database;
pub mod http;
pub mod idempotency;
pub mod mail;
pub mod module;
pub mod rate_limit;
pub mod redis;
pub mod revocation;
pub mod settings;
pub mod telemetry;

pub use database::{Database, Migration};
pub use module::{
    BackgroundTasks, Contact, DirectoryFuture, Module, ModuleContext, SessionEnd, UserDirectory,
    require_any_role,
};
pub use settings::{Environment, Secret, Settings, SettingsError};
