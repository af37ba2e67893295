//! Infrastructure shared by the host and the modules.
//!
//! It owns:
//! - [`settings`]: the typed, layered settings tree (embedded TOML, then `APP__*` variables),
//!   validated at start-up with errors that name the offending key;
//! - [`database`]: the SQL pool (SQLite by default, PostgreSQL by URL) and per-module migrations;
//! - [`redis`]: the optional shared Redis connection;
//! - [`telemetry`]: logs, traces and metrics (OTLP when configured);
//! - [`http`]: the middleware every request passes through (request id, span, problem details);
//! - [`module`]: the small contract a feature module implements so the host can mount it.

pub mod database;
pub mod http;
pub mod module;
pub mod redis;
pub mod settings;
pub mod telemetry;

pub use database::{Database, Migration};
pub use module::{Module, ModuleContext};
pub use settings::{Environment, Secret, Settings, SettingsError};
