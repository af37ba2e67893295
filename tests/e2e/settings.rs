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

fn generated_bytes() -> Vec<u8> {
    [uuid::Uuid::new_v4(), uuid::Uuid::new_v4()]
        .iter()
        .flat_map(|random| *random.as_bytes())
        .collect()
}

/// A signing key as `openssl rand -base64 32` makes one: 32 random bytes in base64.
fn generated_key() -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(generated_bytes())
}

/// A new Ed25519 private key, PEM (PKCS#8) as `openssl genpkey -algorithm ed25519` writes it:
/// RFC 8410's fixed prefix, then 32 random bytes.
fn generated_private_key_pem() -> String {
    use base64::Engine as _;
    let prefix = [
        0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04,
        0x20,
    ];
    let der = [&prefix[..], &generated_bytes()].concat();
    // The label apart: this file's text holds no PEM key for the repository scan below to find.
    let label = "PRIVATE KEY";
    format!(
        "-----BEGIN {label}-----\n{}\n-----END {label}-----\n",
        base64::engine::general_purpose::STANDARD.encode(der)
    )
}

/// A shared key and what a careless hand makes of it: each must be refused like the key.
fn derivatives(key: &str) -> Vec<String> {
    use base64::Engine as _;
    vec![
        key.to_owned(),
        format!("{key}-prod"),
        key.to_uppercase(),
        key.chars().rev().collect(),
        base64::engine::general_purpose::STANDARD.encode(key),
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(key),
    ]
}

/// A PEM key with a line of text before it, and with CRLF line endings: the same key.
fn pem_variants(pem: &str) -> Vec<String> {
    vec![
        pem.to_owned(),
        format!("a comment line\n{pem}"),
        pem.replace("\r\n", "\n").replace('\n', "\r\n"),
    ]
}

#[test]
fn production_starts_with_a_generated_signing_key() {
    let settings = app::config::load_with(
        Environment::Production,
        &[("auth.jwt_secret", &generated_key())],
    );

    assert!(settings.is_ok(), "{:?}", settings.err());
}

#[test]
fn production_refuses_a_signing_key_written_in_the_repository() {
    // The compose file's old key, and one the tests once used as "a production key".
    for key in [
        "compose-only-signing-key-replace-me-0123456789",
        "a-production-key-that-is-long-enough-1234",
    ] {
        let message = load_error(Environment::Production, &[("auth.jwt_secret", key)]);

        assert!(message.contains("auth.jwt_secret"), "{message}");
        assert!(message.contains("repository"), "{message}");
        assert!(!message.contains(key), "the key is not printed: {message}");
    }
}

#[test]
fn production_refuses_keys_made_from_the_development_key() {
    let development = app::config::load_with(Environment::Development, &[])
        .unwrap()
        .auth
        .jwt_secret
        .expose()
        .to_owned();

    for key in derivatives(&development) {
        let message = load_error(Environment::Production, &[("auth.jwt_secret", &key)]);

        assert!(message.contains("auth.jwt_secret"), "{message}");
        assert!(message.contains("repository"), "{message}");
        assert!(!message.contains(&key), "the key is not printed: {message}");
    }
}

#[test]
fn production_refuses_a_signing_key_of_fewer_than_32_bytes() {
    use base64::Engine as _;
    // 24 random bytes: 32 characters of base64, enough for development, not for production.
    let key = base64::engine::general_purpose::STANDARD.encode(&generated_bytes()[..24]);

    let message = load_error(Environment::Production, &[("auth.jwt_secret", &key)]);

    assert!(message.contains("auth.jwt_secret"), "{message}");
    assert!(message.contains("32"), "{message}");
}

#[test]
fn production_refuses_a_signing_key_with_too_little_entropy() {
    // Each decodes as base64 to 32 bytes or more: only its patterns give it away.
    for key in [
        "a".repeat(64),
        "0123456789".repeat(5),
        "changeme".repeat(6),
        "abc".repeat(16),
    ] {
        let message = load_error(Environment::Production, &[("auth.jwt_secret", &key)]);

        assert!(message.contains("auth.jwt_secret"), "{message}");
        assert!(message.contains("entropy"), "{message}");
    }
}

#[test]
fn production_refuses_the_repositorys_test_key_pair() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let private = std::fs::read_to_string(root.join("keys/ed25519-private.pem")).unwrap();
    let public = std::fs::read_to_string(root.join("keys/ed25519-public.pem")).unwrap();

    let message = load_error(
        Environment::Production,
        &[
            ("auth.algorithm", "EdDSA"),
            ("auth.private_key_pem", &private),
            ("auth.public_key_pem", &public),
        ],
    );

    assert!(message.contains("auth.private_key_pem"), "{message}");
    assert!(message.contains("repository"), "{message}");
}

#[test]
fn production_refuses_the_repositorys_public_key_beside_a_private_key_of_its_own() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let public = std::fs::read_to_string(root.join("keys/ed25519-public.pem")).unwrap();

    let message = load_error(
        Environment::Production,
        &[
            ("auth.algorithm", "EdDSA"),
            ("auth.private_key_pem", &generated_private_key_pem()),
            ("auth.public_key_pem", &public),
        ],
    );

    assert!(message.contains("auth.public_key_pem"), "{message}");
    assert!(message.contains("repository"), "{message}");
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
            ("auth.jwt_secret", &generated_key()),
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

/// A signing key some file of the repository holds.
#[derive(Debug)]
enum WrittenKey {
    /// An HS256 key (`jwt_secret = "..."`, `APP__AUTH__JWT_SECRET: ...`).
    Secret { file: String, key: String },
    /// A PEM private key.
    PrivatePem { file: String, pem: String },
    /// A PEM public key: verifying with it accepts tokens its (written) private key signs.
    PublicPem { file: String, pem: String },
}

/// Every signing key written in the files git tracks: `jwt_secret` values in settings, compose,
/// environment and Markdown files (not an interpolation such as `${JWT_SECRET:?...}`), and
/// every PEM private or public key, whatever the file.
fn keys_written_in_the_repository() -> Vec<WrittenKey> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits in the repository");
    let mut keys = Vec::new();
    for file in repository_files(root) {
        let file = file.as_str();
        let Ok(text) = std::fs::read_to_string(root.join(file)) else {
            continue; // not text (or gone from the work tree)
        };
        let mut rest = text.as_str();
        while let Some(start) = rest.find("-----BEGIN ") {
            let block = &rest[start..];
            let header_end = block.find('\n').unwrap_or(block.len());
            let end = block.find("-----END ").map(|at| {
                at + block[at..]
                    .find("-----\n")
                    .map_or(block.len() - at, |close| close + 5)
            });
            if let Some(end) = end {
                let (file, pem) = (file.to_owned(), block[..end].to_owned());
                if block[..header_end].contains("PRIVATE KEY") {
                    keys.push(WrittenKey::PrivatePem { file, pem });
                } else if block[..header_end].contains("PUBLIC KEY") {
                    keys.push(WrittenKey::PublicPem { file, pem });
                }
            }
            rest = &block[header_end..];
        }
        let settings_like = [".toml", ".yml", ".yaml", ".env", ".md", ".sh"]
            .iter()
            .any(|extension| file.ends_with(extension))
            || file.ends_with("Dockerfile");
        if !settings_like {
            continue;
        }
        for line in text.lines() {
            let lower = line.to_ascii_lowercase();
            let Some(at) = lower.find("jwt_secret") else {
                continue;
            };
            let after = line[at + "jwt_secret".len()..].trim_start();
            let Some(value) = after.strip_prefix('=').or_else(|| after.strip_prefix(':')) else {
                continue;
            };
            let value = value
                .split(" #")
                .next()
                .unwrap()
                .trim()
                .trim_matches(|c| c == '"' || c == '\'');
            if value.len() >= 16 && !value.starts_with('$') && !value.contains(' ') {
                keys.push(WrittenKey::Secret {
                    file: file.to_owned(),
                    key: value.to_owned(),
                });
            }
        }
    }
    keys
}

/// The repository's files, relative to `root`: those git tracks, or in a copy without git
/// (CI's renamed copy) every file but what `.gitignore` leaves out (builds, data, a `.env`
/// holding someone's own key).
fn repository_files(root: &std::path::Path) -> Vec<String> {
    let listed = std::process::Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root)
        .output();
    if let Ok(listed) = listed
        && listed.status.success()
    {
        return String::from_utf8(listed.stdout)
            .unwrap()
            .split('\0')
            .filter(|file| !file.is_empty())
            .map(str::to_owned)
            .collect();
    }
    fn walk(root: &std::path::Path, dir: &std::path::Path, files: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            let ignored = [".git", "target", "data", "node_modules", ".env"]
                .contains(&name.as_str())
                || name.ends_with(".db")
                || name.contains(".db-");
            if ignored {
                continue;
            }
            if path.is_dir() {
                walk(root, &path, files);
            } else {
                let relative = path.strip_prefix(root).unwrap();
                files.push(relative.to_string_lossy().into_owned());
            }
        }
    }
    let mut files = Vec::new();
    walk(root, root, &mut files);
    files
}

#[test]
fn every_signing_key_written_in_the_repository_is_refused_in_production() {
    let keys = keys_written_in_the_repository();
    assert!(
        keys.iter().any(|key| matches!(key,
            WrittenKey::Secret { file, .. } if file == "config/default.toml")),
        "the development key is found: {keys:?}"
    );
    assert!(
        keys.iter()
            .any(|key| matches!(key, WrittenKey::PrivatePem { .. })),
        "the test key pair's private key is found: {keys:?}"
    );
    assert!(
        keys.iter()
            .any(|key| matches!(key, WrittenKey::PublicPem { .. })),
        "the test key pair's public key is found: {keys:?}"
    );

    for written in &keys {
        let (file, messages) = match written {
            WrittenKey::Secret { file, key } => (
                file,
                derivatives(key)
                    .iter()
                    .map(|key| load_error(Environment::Production, &[("auth.jwt_secret", key)]))
                    .collect::<Vec<_>>(),
            ),
            WrittenKey::PrivatePem { file, pem } => (
                file,
                pem_variants(pem)
                    .iter()
                    .map(|pem| {
                        load_error(
                            Environment::Production,
                            &[
                                ("auth.algorithm", "EdDSA"),
                                ("auth.private_key_pem", pem),
                                ("auth.public_key_pem", "a public key"),
                            ],
                        )
                    })
                    .collect(),
            ),
            WrittenKey::PublicPem { file, pem } => (
                file,
                pem_variants(pem)
                    .iter()
                    .map(|pem| {
                        load_error(
                            Environment::Production,
                            &[
                                ("auth.algorithm", "EdDSA"),
                                ("auth.private_key_pem", &generated_private_key_pem()),
                                ("auth.public_key_pem", pem),
                            ],
                        )
                    })
                    .collect(),
            ),
        };
        for message in messages {
            assert!(
                message.contains("repository"),
                "a key written in {file} (or one made from it) is not refused as the \
                 repository's: {message}"
            );
        }
    }
}
