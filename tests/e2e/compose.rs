//! What can be checked of the Docker stack without starting it: the files parse, every path they
//! name exists, and the environment they give the service is settings it really reads. Starting
//! it for real (the image built, the stack up, the journey and tests against it) is
//! `cargo xtask test compose`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use infra::Environment;
use serde_json::Value;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits in the repository")
        .to_path_buf()
}

fn compose() -> Value {
    let text = std::fs::read_to_string(repo_root().join("docker-compose.yml"))
        .expect("docker-compose.yml exists");
    serde_norway::from_str(&text).expect("docker-compose.yml is valid YAML")
}

fn app_environment(compose: &Value) -> Vec<(String, String)> {
    compose["services"]["app"]["environment"]
        .as_object()
        .expect("the app service has an environment map")
        .iter()
        .map(|(k, v)| {
            (
                k.clone(),
                v.as_str()
                    .map(str::to_owned)
                    .unwrap_or_else(|| v.to_string()),
            )
        })
        .collect()
}

/// `APP__SERVER__PORT` -> `server.port`
fn settings_key(variable: &str) -> Option<String> {
    variable
        .strip_prefix("APP__")
        .map(|rest| rest.to_ascii_lowercase().replace("__", "."))
}

/// Every dotted key that `config/default.toml` defines.
fn known_keys() -> BTreeSet<String> {
    fn walk(prefix: &str, table: &toml::Table, keys: &mut BTreeSet<String>) {
        for (key, value) in table {
            let path = if prefix.is_empty() {
                key.clone()
            } else {
                format!("{prefix}.{key}")
            };
            if let toml::Value::Table(inner) = value {
                walk(&path, inner, keys);
            }
            keys.insert(path);
        }
    }
    let text = std::fs::read_to_string(repo_root().join("config/default.toml")).unwrap();
    let mut keys = BTreeSet::new();
    walk(
        "",
        &text
            .parse::<toml::Table>()
            .expect("config/default.toml is TOML"),
        &mut keys,
    );
    keys
}

/// A signing key as `openssl rand -base64 32` makes one.
fn generated_key() -> String {
    use base64::Engine as _;
    let bytes: Vec<u8> = [uuid::Uuid::new_v4(), uuid::Uuid::new_v4()]
        .iter()
        .flat_map(|random| *random.as_bytes())
        .collect();
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// `value` with compose's `${NAME}`, `${NAME:?message}` and `${NAME:-default}` replaced from
/// `environment` (a required variable missing from it is a test failure, as compose would
/// refuse to start).
fn interpolate(value: &str, environment: &[(&str, String)]) -> String {
    let mut out = String::new();
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find('}').expect("a closed ${...}") + start;
        let expression = &rest[start + 2..end];
        let name_end = expression.find(':').unwrap_or(expression.len());
        let (name, modifier) = expression.split_at(name_end);
        let found = environment.iter().find(|(n, _)| *n == name).map(|(_, v)| v);
        match (found, modifier.strip_prefix(":-")) {
            (Some(value), _) => out.push_str(value),
            (None, Some(default)) => out.push_str(default),
            (None, None) => panic!("compose needs ${name} from the environment"),
        }
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// The variable a value requires from the environment (`${NAME:?message}`), if it is one.
fn required_variable(value: &str) -> Option<&str> {
    let inner = value.strip_prefix("${")?.strip_suffix('}')?;
    let (name, message) = inner.split_once(":?")?;
    (!message.trim().is_empty()).then_some(name)
}

#[test]
fn the_stack_takes_its_signing_key_from_the_environment() {
    let compose = compose();
    let variables: std::collections::HashMap<String, String> =
        app_environment(&compose).into_iter().collect();

    let key = &variables["APP__AUTH__JWT_SECRET"];

    assert_eq!(
        required_variable(key),
        Some("JWT_SECRET"),
        "compose must refuse to start without a key from the environment, and hold none: {key}"
    );
}

#[test]
fn the_stack_has_the_service_and_every_backing_service() {
    let compose = compose();

    let services: BTreeSet<&str> = compose["services"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();

    for expected in [
        "app",
        "redis",
        "postgres",
        "otel-collector",
        "jaeger",
        "mailpit",
    ] {
        assert!(
            services.contains(expected),
            "docker-compose.yml lacks `{expected}`"
        );
    }
}

#[test]
fn every_build_path_and_mounted_file_exists() {
    let compose = compose();
    let root = repo_root();

    let build = &compose["services"]["app"]["build"];
    let context = root.join(build["context"].as_str().unwrap());
    assert!(
        context
            .join(build["dockerfile"].as_str().unwrap())
            .is_file(),
        "the Dockerfile exists"
    );
    for (name, service) in compose["services"].as_object().unwrap() {
        for volume in service["volumes"].as_array().into_iter().flatten() {
            let source = volume.as_str().unwrap().split(':').next().unwrap();
            if source.starts_with('.') {
                assert!(
                    root.join(source).exists(),
                    "{name} mounts {source}, which does not exist"
                );
            }
        }
    }
}

#[test]
fn every_app_variable_is_a_setting_the_service_reads_and_they_load_in_production() {
    let compose = compose();
    let known = known_keys();
    let variables = app_environment(&compose);

    // What `docker compose` is given from the environment (or `.env`), as the README says.
    let environment = [("JWT_SECRET", generated_key())];
    let overrides: Vec<(String, String)> = variables
        .iter()
        .filter_map(|(name, value)| {
            settings_key(name).map(|key| (key, interpolate(value, &environment)))
        })
        .collect();
    for (key, _) in &overrides {
        assert!(
            known.contains(key),
            "docker-compose.yml sets `{key}`, which config/default.toml does not define"
        );
    }
    let borrowed: Vec<(&str, &str)> = overrides
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let environment = variables
        .iter()
        .find(|(k, _)| k == "APP_ENV")
        .map(|(_, v)| v.parse::<Environment>().unwrap());

    let settings =
        app::config::load_with(environment.unwrap_or(Environment::Development), &borrowed);

    assert!(
        settings.is_ok(),
        "the compose environment must load: {:?}",
        settings.err()
    );
}

#[test]
fn redis_and_postgresql_are_published_on_loopback_only_and_redis_needs_the_services_password() {
    let compose = compose();
    let services = &compose["services"];
    let variables: std::collections::HashMap<String, String> =
        app_environment(&compose).into_iter().collect();

    for service in ["redis", "postgres"] {
        for port in services[service]["ports"].as_array().into_iter().flatten() {
            assert!(
                port.as_str().unwrap().starts_with("127.0.0.1:"),
                "{service} publishes {port} beyond this machine"
            );
        }
    }
    let command: Vec<&str> = services["redis"]["command"]
        .as_array()
        .unwrap()
        .iter()
        .map(|part| part.as_str().unwrap())
        .collect();
    let password = command
        .windows(2)
        .find(|pair| pair[0] == "--requirepass")
        .map(|pair| pair[1])
        .expect("Redis requires a password");
    assert!(
        variables["APP__REDIS__URL"].contains(&format!(":{password}@")),
        "the service connects with that password"
    );
}

#[test]
fn the_service_urls_point_at_the_ports_the_stack_exposes() {
    let compose = compose();
    let variables: std::collections::HashMap<String, String> =
        app_environment(&compose).into_iter().collect();
    let services = &compose["services"];

    let port_of = |service: &str, container_port: &str| -> bool {
        let declared = services[service]["ports"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|p| p.as_str().unwrap().rsplit(':').next() == Some(container_port));
        declared || service == "jaeger"
    };
    assert!(variables["APP__REDIS__URL"].contains("redis:6379") && port_of("redis", "6379"));
    assert!(
        variables["APP__DATABASE__URL"].contains("@postgres:5432/app")
            && port_of("postgres", "5432")
    );
    assert!(
        variables["APP__TELEMETRY__OTLP_ENDPOINT"].contains("otel-collector:4318")
            && port_of("otel-collector", "4318")
    );
    assert!(
        variables["APP__MAIL__SMTP_URL"].contains("mailpit:1025") && port_of("mailpit", "1025")
    );
    let app_port = &variables["APP__SERVER__PORT"];
    assert!(
        port_of("app", app_port),
        "the app publishes its server.port {app_port}"
    );
}
