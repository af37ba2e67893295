//! The settings files, embedded so that the binary runs from any directory.

use infra::settings::{EmbeddedConfig, Environment, Settings, SettingsError};

/// `config/*.toml`, compiled in.
pub const EMBEDDED: EmbeddedConfig = EmbeddedConfig {
    default: include_str!("../../config/default.toml"),
    development: include_str!("../../config/development.toml"),
    test: include_str!("../../config/test.toml"),
    production: include_str!("../../config/production.toml"),
};

/// Loads the settings for the environment named by `APP_ENV`.
pub fn load() -> Result<Settings, SettingsError> {
    Settings::load(&EMBEDDED, Environment::from_env()?, &[])
}

/// Loads settings for `environment` with dotted-key overrides on top (used by tests and tools).
pub fn load_with(
    environment: Environment,
    overrides: &[(&str, &str)],
) -> Result<Settings, SettingsError> {
    Settings::load(&EMBEDDED, environment, overrides)
}
