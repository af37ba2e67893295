//! Finding Redis for tests, and private Redis servers a test can stop and start.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The Redis every test shares (each test uses its own key prefix).
///
/// `REDIS_URL` if set; else 127.0.0.1:6379 if it answers; else a `redis-server` from `PATH`,
/// started once for this test process. Panics with instructions when none is available.
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
        match RedisServer::start() {
            Ok(server) => {
                let url = server.url();
                // The shared server lives as long as the test process.
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
    let Ok(client) = ::redis::Client::open(url) else {
        return false;
    };
    let Ok(mut connection) = client.get_connection_with_timeout(Duration::from_secs(1)) else {
        return false;
    };
    ::redis::cmd("PING")
        .query::<String>(&mut connection)
        .is_ok()
}

/// A `redis-server` owned by one test, on its own port, that the test may stop and restart
/// (to prove the service survives a Redis outage). Killed when dropped.
pub struct RedisServer {
    port: u16,
    password: Option<String>,
    child: Option<Child>,
    dir: tempfile::TempDir,
}

impl RedisServer {
    /// Starts `redis-server` from `PATH` on a free port, keeping nothing on disk.
    pub fn start() -> std::io::Result<Self> {
        Self::start_with(None)
    }

    /// Starts one that requires `password` (`requirepass`); [`Self::url`] carries it.
    pub fn start_with_password(password: &str) -> std::io::Result<Self> {
        Self::start_with(Some(password.to_owned()))
    }

    fn start_with(password: Option<String>) -> std::io::Result<Self> {
        let dir = tempfile::tempdir()?;
        let mut server = Self {
            port: crate::free_port(),
            password,
            child: None,
            dir,
        };
        server.restart()?;
        Ok(server)
    }

    /// The URL to reach it, with its password if it has one.
    pub fn url(&self) -> String {
        match &self.password {
            Some(password) => format!("redis://:{password}@127.0.0.1:{}", self.port),
            None => self.url_without_password(),
        }
    }

    /// The URL without credentials, whatever the server requires.
    pub fn url_without_password(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Stops the server (SIGKILL, like a crash); the port stays reserved for [`Self::restart`].
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts the server again on the same port and waits until it answers.
    pub fn restart(&mut self) -> std::io::Result<()> {
        self.stop();
        let child = Command::new(redis_server_binary())
            .args([
                "--port",
                &self.port.to_string(),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ])
            .args(
                self.password
                    .iter()
                    .flat_map(|password| ["--requirepass", password.as_str()]),
            )
            .arg("--dir")
            .arg(self.dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?;
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if answers(&self.url()) {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Err(std::io::Error::other(format!(
            "redis-server on port {} did not answer within 10 s",
            self.port
        )))
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
    }
}

fn redis_server_binary() -> PathBuf {
    std::env::var_os("REDIS_SERVER_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("redis-server"))
}
