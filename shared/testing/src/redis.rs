//! Finding Redis for tests, and private Redis servers a test can stop and start: plain,
//! with a password, or serving TLS only.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::process::Supervised;
use crate::tls::TlsFiles;

/// The Redis every test shares (each test uses its own key prefix).
///
/// `REDIS_URL` if set (the compose stack's Redis needs it, with its password); else
/// 127.0.0.1:6379 if it answers; else a `redis-server` from `PATH`, started once for this test
/// process (and killed by its watchdog when the process ends). Panics with instructions when
/// none is available, or when 127.0.0.1:6379 wants a password that `REDIS_URL` does not give.
pub fn shared_redis_url() -> String {
    static URL: OnceLock<String> = OnceLock::new();
    URL.get_or_init(|| {
        if let Ok(url) = std::env::var("REDIS_URL")
            && !url.trim().is_empty()
        {
            return url;
        }
        let local = "redis://127.0.0.1:6379".to_owned();
        if answers(&local) {
            return local;
        }
        if wants_a_password(&local) {
            panic!(
                "the Redis on 127.0.0.1:6379 wants a password (the compose stack's does): \
                 give the tests its URL, e.g. \
                 REDIS_URL=redis://:compose-only-redis-password@127.0.0.1:6379"
            );
        }
        match RedisServer::start() {
            Ok(server) => {
                let url = server.url();
                // The shared server lives as long as the test process: its watchdog, not a
                // drop, kills it.
                std::mem::forget(server);
                url
            }
            Err(err) => panic!(
                "the tests need Redis: set REDIS_URL, run one on 127.0.0.1:6379, \
                 or install redis-server (e.g. `apt-get install redis-server`) so the tests can start one ({err})"
            ),
        }
    })
    .clone()
}

/// Whether a Redis at `url` answers PING within a second.
pub fn answers(url: &str) -> bool {
    ::redis::Client::open(url).is_ok_and(|client| client_answers(&client))
}

/// Whether a Redis at `url` answers, but refuses commands until it is given a password.
fn wants_a_password(url: &str) -> bool {
    let Ok(client) = ::redis::Client::open(url) else {
        return false;
    };
    let Ok(mut connection) = client.get_connection_with_timeout(Duration::from_secs(1)) else {
        return false;
    };
    ::redis::cmd("PING")
        .query::<String>(&mut connection)
        .is_err_and(|err| {
            err.kind() == ::redis::ErrorKind::AuthenticationFailed || err.code() == Some("NOAUTH")
        })
}

/// Whether the Redis `client` points at answers PING within a second.
fn client_answers(client: &::redis::Client) -> bool {
    let Ok(mut connection) = client.get_connection_with_timeout(Duration::from_secs(1)) else {
        return false;
    };
    ::redis::cmd("PING")
        .query::<String>(&mut connection)
        .is_ok()
}

/// A `redis-server` owned by one test, on its own port, that the test may stop and restart
/// (to prove the service survives a Redis outage). Killed when dropped, and by a watchdog
/// when the test process ends (so a forgotten one leaves no orphan).
pub struct RedisServer {
    port: u16,
    password: Option<String>,
    /// Set when the server serves TLS only: its CA and certificate, in `dir`.
    tls: Option<TlsFiles>,
    process: Option<Supervised>,
    dir: tempfile::TempDir,
}

impl RedisServer {
    /// Starts `redis-server` from `PATH` on a free port, keeping nothing on disk.
    pub fn start() -> std::io::Result<Self> {
        Self::start_with(None, false)
    }

    /// Starts one that requires `password` (`requirepass`); [`Self::url`] carries it.
    pub fn start_with_password(password: &str) -> std::io::Result<Self> {
        Self::start_with(Some(password.to_owned()), false)
    }

    /// Starts one that serves TLS only (`--port 0 --tls-port P`), with a certificate for
    /// `localhost` and 127.0.0.1 signed by a CA made for it: [`Self::url`] is `rediss://`, and
    /// a client must trust [`Self::ca_certificate_pem`] (as [`Self::client`] does). Clients
    /// present no certificate (`--tls-auth-clients no`).
    pub fn start_tls() -> std::io::Result<Self> {
        Self::start_with(None, true)
    }

    /// [`Self::start_tls`] with a password, like [`Self::start_with_password`].
    pub fn start_tls_with_password(password: &str) -> std::io::Result<Self> {
        Self::start_with(Some(password.to_owned()), true)
    }

    fn start_with(password: Option<String>, tls: bool) -> std::io::Result<Self> {
        let dir = tempfile::tempdir()?;
        let tls = tls.then(|| TlsFiles::generate(dir.path())).transpose()?;
        let mut server = Self {
            port: crate::free_port(),
            password,
            tls,
            process: None,
            dir,
        };
        server.restart()?;
        Ok(server)
    }

    /// The URL to reach it, with its password if it has one; `rediss://` when it serves TLS.
    pub fn url(&self) -> String {
        match &self.password {
            Some(password) => format!("{}://:{password}@127.0.0.1:{}", self.scheme(), self.port),
            None => self.url_without_password(),
        }
    }

    /// The URL without credentials, whatever the server requires.
    pub fn url_without_password(&self) -> String {
        format!("{}://127.0.0.1:{}", self.scheme(), self.port)
    }

    fn scheme(&self) -> &'static str {
        if self.tls.is_some() {
            "rediss"
        } else {
            "redis"
        }
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// A client for [`Self::url`] that trusts the server's CA when it serves TLS.
    pub fn client(&self) -> ::redis::RedisResult<::redis::Client> {
        match &self.tls {
            Some(tls) => ::redis::Client::build_with_tls(self.url(), tls.redis_certificates()),
            None => ::redis::Client::open(self.url()),
        }
    }

    /// The CA certificate (PEM) a client must trust. Panics unless started with TLS.
    pub fn ca_certificate_pem(&self) -> Vec<u8> {
        self.tls_files().ca_certificate_pem().to_vec()
    }

    /// The CA certificate's file (PEM). Panics unless started with TLS.
    pub fn ca_certificate_path(&self) -> &Path {
        self.tls_files().ca_certificate_path()
    }

    fn tls_files(&self) -> &TlsFiles {
        self.tls
            .as_ref()
            .expect("this RedisServer does not serve TLS: start it with RedisServer::start_tls")
    }

    /// Stops the server (SIGKILL, like a crash); the port stays reserved for [`Self::restart`].
    pub fn stop(&mut self) {
        // Dropping it kills the server.
        self.process = None;
    }

    /// Starts the server again on the same port and waits until it answers.
    pub fn restart(&mut self) -> std::io::Result<()> {
        self.stop();
        let port = self.port.to_string();
        let mut command = Command::new(redis_server_binary()?);
        command.args(["--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]);
        match &self.tls {
            Some(tls) => {
                command
                    .args([
                        "--port",
                        "0",
                        "--tls-port",
                        &port,
                        "--tls-auth-clients",
                        "no",
                    ])
                    .arg("--tls-cert-file")
                    .arg(tls.certificate_path())
                    .arg("--tls-key-file")
                    .arg(tls.key_path())
                    .arg("--tls-ca-cert-file")
                    .arg(tls.ca_certificate_path());
            }
            None => {
                command.args(["--port", &port]);
            }
        }
        command
            .args(
                self.password
                    .iter()
                    .flat_map(|password| ["--requirepass", password.as_str()]),
            )
            .arg("--dir")
            .arg(self.dir.path());
        // With TLS, answering means answering a client that trusts the CA.
        let client = self.client().map_err(std::io::Error::other)?;
        let process = self
            .process
            .insert(Supervised::spawn(command, self.dir.path())?);
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if client_answers(&client) {
                return Ok(());
            }
            if process.has_exited() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Err(std::io::Error::other(format!(
            "redis-server on port {} did not answer within 10 s (or exited)",
            self.port
        )))
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// `redis-server` from `REDIS_SERVER_BIN` or `PATH`.
pub(crate) fn redis_server_binary() -> std::io::Result<PathBuf> {
    crate::tools::Tool::RedisServer.located()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ping(client: &::redis::Client) -> ::redis::RedisResult<String> {
        let mut connection = client.get_connection_with_timeout(Duration::from_secs(2))?;
        ::redis::cmd("PING").query(&mut connection)
    }

    #[test]
    fn a_tls_server_answers_a_client_that_trusts_its_ca_and_only_that_one() {
        crate::needs_tools_of!(crate::tools::Suite::PrivateRedis);
        let server = RedisServer::start_tls().expect("a TLS redis-server");
        assert_eq!(
            server.url(),
            format!("rediss://127.0.0.1:{}", server.port())
        );
        assert!(
            server
                .ca_certificate_pem()
                .starts_with(b"-----BEGIN CERTIFICATE-----")
        );
        assert_eq!(
            std::fs::read(server.ca_certificate_path()).expect("the CA file"),
            server.ca_certificate_pem()
        );

        let trusting = ::redis::Client::build_with_tls(
            server.url(),
            ::redis::TlsCertificates {
                client_tls: None,
                root_cert: Some(server.ca_certificate_pem()),
            },
        )
        .expect("a client trusting the CA");
        assert_eq!(ping(&trusting).expect("PING over TLS"), "PONG");

        // Another CA's certificate: the handshake must fail, whatever the system trusts.
        let elsewhere = tempfile::tempdir().expect("a directory");
        let other_ca = TlsFiles::generate(elsewhere.path()).expect("another CA");
        let distrusting =
            ::redis::Client::build_with_tls(server.url(), other_ca.redis_certificates())
                .expect("a client trusting another CA");
        assert!(
            ping(&distrusting).is_err(),
            "a client not trusting the CA is refused"
        );
        // And there is no plaintext port to fall back on.
        assert!(!answers(&format!("redis://127.0.0.1:{}", server.port())));
    }

    #[test]
    fn a_tls_server_with_a_password_takes_it_in_the_url() {
        crate::needs_tools_of!(crate::tools::Suite::PrivateRedis);
        let server = RedisServer::start_tls_with_password("secret").expect("a TLS redis-server");
        assert_eq!(
            server.url(),
            format!("rediss://:secret@127.0.0.1:{}", server.port())
        );
        assert_eq!(
            ping(&server.client().expect("client")).expect("PING"),
            "PONG"
        );
    }
}
