//! Settings are validated at start-up, and errors name the key.

use infra::Environment;

fn load_error(environment: Environment, overrides: &[(&str, &str)]) -> String {
    app::config::load_with(environment, overrides)
        .expect_err("these settings must be refused")
        .to_string()
}

#[test]
fn the_embedded_defaults_load_in_every_environment_but_production() {
    for environment in [Environment::Development, Environment::Test] {
        let settings = app::config::load_with(environment, &[]).expect("defaults must load");
        assert_eq!(
            settings.server.port,
            if environment == Environment::Test {
                0
            } else {
                8080
            }
        );
    }
}

#[test]
fn a_value_of_the_wrong_type_names_its_key() {
    let message = load_error(Environment::Test, &[("server.port", "eighty")]);

    assert!(message.contains("server.port"), "{message}");
}

#[test]
fn an_invalid_value_names_its_key() {
    let message = load_error(Environment::Test, &[("database.url", "mysql://nope")]);

    assert!(message.contains("database.url"), "{message}");
}

#[test]
fn production_refuses_the_development_signing_key() {
    let message = load_error(Environment::Production, &[]);

    assert!(message.contains("auth.jwt_secret"), "{message}");
}

#[test]
fn production_starts_with_its_own_signing_key() {
    let settings = app::config::load_with(
        Environment::Production,
        &[(
            "auth.jwt_secret",
            "a-production-key-that-is-long-enough-1234",
        )],
    );

    assert!(settings.is_ok(), "{:?}", settings.err());
}

#[test]
fn secrets_are_not_printed_by_debug() {
    let settings = app::config::load_with(Environment::Test, &[]).unwrap();

    let printed = format!("{settings:?}");

    assert!(!printed.contains(settings.auth.jwt_secret.expose()));
}

#[tokio::test]
async fn production_refuses_to_start_without_an_smtp_server() {
    let database = testing::database::TestDatabase::sqlite();
    let settings = app::config::load_with(
        Environment::Production,
        &[
            (
                "auth.jwt_secret",
                "a-production-key-that-is-long-enough-1234",
            ),
            ("database.url", database.url()),
            ("server.port", "0"),
        ],
    )
    .unwrap();

    let error = app::Application::build(settings)
        .await
        .err()
        .expect("must refuse")
        .to_string();

    assert!(error.contains("mail.smtp_url"), "{error}");
}

#[test]
fn an_asymmetric_algorithm_without_its_keys_names_the_missing_key() {
    let message = load_error(Environment::Test, &[("auth.algorithm", "EdDSA")]);

    assert!(message.contains("auth.private_key_pem"), "{message}");
}

#[test]
fn a_trusted_proxy_that_is_not_an_address_or_network_names_its_key() {
    let error = load_error(
        Environment::Test,
        &[("server.trusted_proxies", "10.0.0.0/8,proxy.internal")],
    );

    assert!(error.contains("server.trusted_proxies"), "{error}");
    assert!(error.contains("proxy.internal"), "{error}");
}

#[test]
fn an_unknown_forwarding_header_names_its_key() {
    let error = load_error(
        Environment::Test,
        &[("server.forwarded_header", "x-real-ip")],
    );

    assert!(error.contains("server.forwarded_header"), "{error}");
}

#[test]
fn an_unknown_signing_algorithm_names_its_key() {
    let message = load_error(Environment::Test, &[("auth.algorithm", "HS512")]);

    assert!(message.contains("auth.algorithm"), "{message}");
    assert!(message.contains("HS512"), "{message}");
}

fn load_from_variables(variables: &[(&str, &str)]) -> Result<infra::Settings, String> {
    let variables = variables
        .iter()
        .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
        .collect();
    infra::Settings::load_with_variables(&app::config::EMBEDDED, Environment::Test, variables)
        .map_err(|err| err.to_string())
}

#[test]
fn cluster_nodes_from_the_environment_are_a_comma_separated_list() {
    let settings = load_from_variables(&[(
        "APP__REDIS__CLUSTER_NODES",
        "redis://10.0.0.1:7000,redis://10.0.0.2:7001",
    )])
    .expect("a cluster from the environment loads");

    assert_eq!(
        settings.redis.cluster_nodes(),
        ["redis://10.0.0.1:7000", "redis://10.0.0.2:7001"]
    );
    assert_eq!(settings.redis.url(), None);
}

#[test]
fn a_node_and_cluster_nodes_from_the_environment_are_refused_naming_both() {
    let message = load_from_variables(&[
        ("APP__REDIS__URL", "redis://10.0.0.1:6379"),
        ("APP__REDIS__CLUSTER_NODES", "redis://10.0.0.1:7000"),
    ])
    .expect_err("both topologies at once must be refused");

    assert!(message.contains("redis.url"), "{message}");
    assert!(message.contains("redis.cluster_nodes"), "{message}");
}

#[test]
fn a_redis_password_never_appears_in_the_printed_settings() {
    let settings = load_from_variables(&[
        ("APP__REDIS__PASSWORD", "hunter2-from-env"),
        (
            "APP__REDIS__CLUSTER_NODES",
            "redis://:in-url-secret@10.0.0.1:7000",
        ),
    ])
    .expect("loads");

    let printed = format!("{:?}", settings.redis);
    assert!(!printed.contains("hunter2-from-env"), "{printed}");
    assert!(!printed.contains("in-url-secret"), "{printed}");
}
