//! `[oauth]` settings: the OpenID Connect providers accounts may sign in with, and how a first
//! sign-in finds or makes its account. None is configured by default.

use std::collections::BTreeMap;
use std::time::Duration;

use infra::settings::Secret;
use openidconnect::{IssuerUrl, RedirectUrl};
use serde::{Deserialize, Deserializer};

/// `[oauth]`
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OAuthSettings {
    /// `[oauth.providers.<name>]`: the name is what the API's `{provider}` says.
    pub providers: BTreeMap<String, ProviderSettings>,
    /// Whether a first sign-in that finds no account to link makes one (with the address the
    /// provider verified); `false` signs in only accounts that exist.
    pub create_accounts: bool,
    /// How long an authorization may take, from `authorize` to `exchange`.
    #[serde(with = "humantime_serde")]
    pub state_ttl: Duration,
    /// How long one call to a provider (discovery, keys, token) may take.
    #[serde(with = "humantime_serde")]
    pub http_timeout: Duration,
    /// How long a provider's discovery document and keys are kept before they are read again
    /// (an ID token signed with a key not among them re-reads them at once: key rotation).
    #[serde(with = "humantime_serde")]
    pub metadata_ttl: Duration,
}

impl Default for OAuthSettings {
    fn default() -> Self {
        Self {
            providers: BTreeMap::new(),
            create_accounts: true,
            state_ttl: Duration::from_secs(10 * 60),
            http_timeout: Duration::from_secs(10),
            metadata_ttl: Duration::from_secs(60 * 60),
        }
    }
}

/// `[oauth.providers.<name>]`: one OpenID Connect provider and this service's client there.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProviderSettings {
    /// The issuer URL; its `/.well-known/openid-configuration` is read for the rest.
    pub issuer: String,
    pub client_id: String,
    /// Never printed (`Secret`).
    pub client_secret: Secret,
    /// Scopes asked for besides `openid` (a list, or comma-separated).
    #[serde(default = "default_scopes", deserialize_with = "list")]
    pub scopes: Vec<String>,
    /// The only redirect URIs a front end may name, compared exactly (a list, or
    /// comma-separated). Each must also be registered with the provider.
    #[serde(deserialize_with = "list")]
    pub redirect_uris: Vec<String>,
    /// What a front end shows on its button; the name when absent.
    #[serde(default)]
    pub display_name: Option<String>,
}

fn default_scopes() -> Vec<String> {
    vec!["email".to_owned(), "profile".to_owned()]
}

/// A list from TOML, or a comma-separated string from an environment variable.
fn list<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Items {
        List(Vec<String>),
        Text(String),
    }
    let items = match Items::deserialize(deserializer)? {
        Items::List(items) => items,
        Items::Text(text) => text.split(',').map(str::to_owned).collect(),
    };
    Ok(items
        .into_iter()
        .map(|item| item.trim().to_owned())
        .filter(|item| !item.is_empty())
        .collect())
}

impl OAuthSettings {
    /// Checks every provider; the error names the key at fault. In production the issuer must
    /// be `https://`: discovery over plain HTTP would let anyone on the path choose the keys
    /// the ID tokens are checked with.
    pub fn validate(&self, production: bool) -> anyhow::Result<()> {
        for (name, provider) in &self.providers {
            let key = |field: &str| format!("oauth.providers.{name}.{field}");
            let well_named = (1..=32).contains(&name.len())
                && name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-_".contains(&b));
            anyhow::ensure!(
                well_named,
                "invalid setting `oauth.providers.{name}`: a provider's name is 1 to 32 lower-case \
                 letters, digits, `-` or `_`"
            );
            let issuer = IssuerUrl::new(provider.issuer.clone())
                .ok()
                .filter(|url| matches!(url.url().scheme(), "http" | "https"))
                .ok_or_else(|| {
                    anyhow::anyhow!("invalid setting `{}`: not an http(s) URL", key("issuer"))
                })?;
            anyhow::ensure!(
                !production || issuer.url().scheme() == "https",
                "invalid setting `{}`: must be an https:// URL in production",
                key("issuer")
            );
            anyhow::ensure!(
                !provider.client_id.trim().is_empty(),
                "invalid setting `{}`: must not be empty",
                key("client_id")
            );
            anyhow::ensure!(
                !provider.redirect_uris.is_empty(),
                "invalid setting `{}`: list the front end's redirect URIs",
                key("redirect_uris")
            );
            for uri in &provider.redirect_uris {
                RedirectUrl::new(uri.clone())
                    .ok()
                    .filter(|url| matches!(url.url().scheme(), "http" | "https"))
                    .ok_or_else(|| {
                        anyhow::anyhow!(
                            "invalid setting `{}`: `{uri}` is not an absolute http(s) URL",
                            key("redirect_uris")
                        )
                    })?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn provider() -> ProviderSettings {
        ProviderSettings {
            issuer: "https://id.example.com".into(),
            client_id: "client".into(),
            client_secret: Secret::new("s3cr3t-value"),
            scopes: default_scopes(),
            redirect_uris: vec!["https://app.example.com/callback".into()],
            display_name: None,
        }
    }

    fn with(name: &str, provider: ProviderSettings) -> OAuthSettings {
        OAuthSettings {
            providers: BTreeMap::from([(name.to_owned(), provider)]),
            ..OAuthSettings::default()
        }
    }

    #[test]
    fn a_complete_provider_is_accepted() {
        with("acme", provider()).validate(true).unwrap();
    }

    #[test]
    fn a_bad_value_is_refused_naming_its_key() {
        let cases = [
            with("Acme!", provider()),
            with(
                "acme",
                ProviderSettings {
                    issuer: "not a url".into(),
                    ..provider()
                },
            ),
            with(
                "acme",
                ProviderSettings {
                    redirect_uris: vec![],
                    ..provider()
                },
            ),
            with(
                "acme",
                ProviderSettings {
                    redirect_uris: vec!["/relative".into()],
                    ..provider()
                },
            ),
        ];
        for (settings, key) in cases.iter().zip([
            "oauth.providers.Acme!",
            "oauth.providers.acme.issuer",
            "oauth.providers.acme.redirect_uris",
            "oauth.providers.acme.redirect_uris",
        ]) {
            let error = settings.validate(false).unwrap_err().to_string();
            assert!(error.contains(key), "{error}");
        }
    }

    #[test]
    fn production_refuses_an_issuer_over_plain_http() {
        let plain = with(
            "acme",
            ProviderSettings {
                issuer: "http://id.example.com".into(),
                ..provider()
            },
        );

        plain.validate(false).unwrap();
        let error = plain.validate(true).unwrap_err().to_string();
        assert!(error.contains("oauth.providers.acme.issuer"), "{error}");
    }

    #[test]
    fn the_client_secret_never_prints() {
        assert!(!format!("{:?}", provider()).contains("s3cr3t-value"));
        assert!(format!("{:?}", provider()).contains("[redacted]"));
    }

    #[test]
    fn lists_come_as_lists_or_comma_separated() {
        let from_env: ProviderSettings = serde_json::from_value(serde_json::json!({
            "issuer": "https://id.example.com", "client_id": "c", "client_secret": "s",
            "redirect_uris": "https://a.example.com/cb, https://b.example.com/cb",
        }))
        .unwrap();
        assert_eq!(
            from_env.redirect_uris,
            ["https://a.example.com/cb", "https://b.example.com/cb"]
        );
        assert_eq!(from_env.scopes, ["email", "profile"]);
    }
}
