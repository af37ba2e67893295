//! A real OpenID Connect provider for the sign-in tests: `oidc-provider` (OpenID-certified, from
//! npm, pinned by `tests/oidc/package-lock.json`) run by Node.js on a free port, once per test
//! binary, and the browser's part of a sign-in driven over plain HTTP (a cookie jar, no
//! redirects followed), as a user would click through its login and consent pages.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Mutex, OnceLock};

use reqwest::{StatusCode, header};
use testing::tools::Tool;

/// The client the provider knows this service as.
pub const CLIENT_ID: &str = "e2e-service";
pub const CLIENT_SECRET: &str = "e2e-client-secret-7f3a9c";
/// The redirect URI the service allows (and the provider has registered).
pub const REDIRECT_URI: &str = "http://127.0.0.1:9/auth/callback";
/// Registered with the provider, but not among the service's allowed redirect URIs.
pub const OTHER_REDIRECT_URI: &str = "http://127.0.0.1:9/elsewhere";

/// The running provider. The process reads its stdin until the test binary exits (which
/// closes the pipe), then ends itself: no provider outlives the tests.
pub struct TestProvider {
    pub issuer: String,
    process: Mutex<(Child, ChildStdin)>,
}

/// How a provider is started.
#[derive(Debug, Clone, Copy)]
pub struct ProviderOptions {
    /// Email claims in the ID token (else only in the userinfo answer).
    pub claims_in_id_token: bool,
    /// Where to listen; 0: a free port.
    pub port: u16,
    /// Sign with a new key (a new `kid`) rather than oidc-provider's quick-start keys.
    pub fresh_keys: bool,
}

impl Default for ProviderOptions {
    fn default() -> Self {
        Self {
            claims_in_id_token: true,
            port: 0,
            fresh_keys: false,
        }
    }
}

/// The provider, started on first use. Its ID tokens carry the email claims.
pub fn provider() -> &'static TestProvider {
    static PROVIDER: OnceLock<TestProvider> = OnceLock::new();
    PROVIDER.get_or_init(|| start(ProviderOptions::default()))
}

/// A second provider, whose ID tokens carry no email claims: its userinfo endpoint has them.
pub fn provider_with_claims_in_userinfo() -> &'static TestProvider {
    static PROVIDER: OnceLock<TestProvider> = OnceLock::new();
    PROVIDER.get_or_init(|| {
        start(ProviderOptions {
            claims_in_id_token: false,
            ..ProviderOptions::default()
        })
    })
}

impl TestProvider {
    /// Stops the provider (its port is free again when this returns).
    pub fn stop(&self) {
        let mut process = self.process.lock().unwrap();
        let _ = process.0.kill();
        let _ = process.0.wait();
    }
}

fn directory() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("oidc")
}

/// Installs the provider from the lock file unless it is there: CI installs it (`npm ci` in
/// .ci/run); a fresh clone or copy gets it here.
fn install() {
    let directory = directory();
    if directory.join("node_modules/oidc-provider").exists() {
        return;
    }
    let installed = Command::new(Tool::Npm.require())
        .args(["ci", "--no-audit", "--no-fund"])
        .current_dir(&directory)
        .status()
        .expect("npm starts");
    assert!(
        installed.success(),
        "npm ci in {} failed",
        directory.display()
    );
}

/// A provider of the test's own (stopped with [`TestProvider::stop`], or when the tests end).
pub fn start(options: ProviderOptions) -> TestProvider {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(install);
    let mut child = Command::new(Tool::Node.require())
        .arg("provider.mjs")
        .current_dir(directory())
        .env(
            "OIDC_CLAIMS_IN_ID_TOKEN",
            options.claims_in_id_token.to_string(),
        )
        .env("PORT", options.port.to_string())
        .env("OIDC_FRESH_KEYS", options.fresh_keys.to_string())
        .env("OIDC_CLIENT_ID", CLIENT_ID)
        .env("OIDC_CLIENT_SECRET", CLIENT_SECRET)
        .env(
            "OIDC_REDIRECT_URIS",
            format!("{REDIRECT_URI},{OTHER_REDIRECT_URI}"),
        )
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("node starts");
    let stdin = child.stdin.take().expect("piped stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
    let mut first_line = String::new();
    stdout
        .read_line(&mut first_line)
        .expect("the provider prints where it listens");
    // Drained for as long as it runs: a closed pipe would end the provider at its next line.
    std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
    let issuer = first_line
        .strip_prefix("listening ")
        .unwrap_or_else(|| panic!("the provider did not start: {first_line:?}"))
        .trim()
        .to_owned();
    TestProvider {
        issuer,
        process: Mutex::new((child, stdin)),
    }
}

/// Who signs in at the provider, and what it asserts about their address.
pub struct EndUser {
    pub subject: String,
    pub email: String,
    pub email_verified: bool,
}

impl EndUser {
    /// A new end-user with `email`, which the provider asserts verified or not.
    pub fn new(email: &str, email_verified: bool) -> Self {
        Self {
            subject: format!("user-{}", testing::unique_suffix()),
            email: email.to_owned(),
            email_verified,
        }
    }

    /// What the provider's login form takes as the login (see tests/oidc/provider.mjs).
    fn login(&self) -> String {
        format!("{}~{}~{}", self.subject, self.email, self.email_verified)
    }
}

/// What the provider sent the browser back with.
pub struct Callback {
    pub code: String,
    pub state: String,
}

/// Plays the browser from the provider's `authorization_url` to the redirect back: logs in as
/// `user` and consents. Panics if the provider does not send the browser back with a code.
pub async fn sign_in_at_provider(authorization_url: &str, user: &EndUser) -> Callback {
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    // The provider's origin (scheme, host, port): its own pages are there, the redirect back is
    // not.
    let after_scheme = authorization_url.find("://").unwrap() + 3;
    let origin_end = authorization_url[after_scheme..]
        .find('/')
        .map_or(authorization_url.len(), |at| after_scheme + at);
    let issuer = &authorization_url[..origin_end];
    let mut cookies = BTreeMap::<String, String>::new();
    let mut next = Step::Get(authorization_url.to_owned());
    for _ in 0..12 {
        let request = match &next {
            Step::Get(url) => http.get(url),
            Step::Post(url, form) => http
                .post(url)
                .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
                .body(form.clone()),
        };
        let cookie = cookies
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect::<Vec<_>>()
            .join("; ");
        let response = request
            .header(header::COOKIE, cookie)
            .send()
            .await
            .expect("the provider answers");
        for set in response.headers().get_all(header::SET_COOKIE) {
            let pair = set.to_str().unwrap().split(';').next().unwrap();
            if let Some((name, value)) = pair.split_once('=') {
                cookies.insert(name.trim().to_owned(), value.trim().to_owned());
            }
        }
        let status = response.status();
        if status.is_redirection() {
            let location = response.headers()[header::LOCATION].to_str().unwrap();
            let location = absolute(issuer, location);
            if !location.starts_with(issuer) {
                return callback(&location);
            }
            next = Step::Get(location);
            continue;
        }
        assert_eq!(status, StatusCode::OK, "the provider refused: {status}");
        let page = response.text().await.unwrap();
        let action = absolute(issuer, &attribute_after(&page, "<form", "action"));
        let form = if page.contains(r#"name="prompt" value="login""#) {
            format!(
                "prompt=login&login={}&password=anything",
                form_encode(&user.login())
            )
        } else {
            assert!(
                page.contains(r#"name="prompt" value="consent""#),
                "an unexpected provider page: {page}"
            );
            "prompt=consent".to_owned()
        };
        next = Step::Post(action, form);
    }
    panic!("the provider never sent the browser back");
}

enum Step {
    Get(String),
    Post(String, String),
}

fn absolute(issuer: &str, location: &str) -> String {
    if location.starts_with('/') {
        format!("{issuer}{location}")
    } else {
        location.to_owned()
    }
}

/// The value of `attribute` in the first `tag` of `page`.
fn attribute_after(page: &str, tag: &str, attribute: &str) -> String {
    let from_tag = &page[page.find(tag).expect("a form on the page")..];
    let marker = format!(r#"{attribute}=""#);
    let value = &from_tag[from_tag.find(&marker).expect("the attribute") + marker.len()..];
    value[..value.find('"').unwrap()].replace("&amp;", "&")
}

fn callback(location: &str) -> Callback {
    let query = location.split_once('?').map(|(_, q)| q).unwrap_or_default();
    let parameters: BTreeMap<&str, String> = query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .map(|(name, value)| (name, form_decode(value)))
        .collect();
    assert!(
        !parameters.contains_key("error"),
        "the provider answered an error: {location}"
    );
    Callback {
        code: parameters.get("code").expect("a code").clone(),
        state: parameters.get("state").expect("a state").clone(),
    }
}

/// `application/x-www-form-urlencoded`, for the login.
pub fn form_encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn form_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => {
                out.push(u8::from_str_radix(&text[i + 1..i + 3], 16).unwrap());
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap()
}
