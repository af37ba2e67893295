//! The real processes, each started inside its node's namespace: two `redis-server`s (a
//! primary and its replica, the service's Redis address floating between them), a PostgreSQL
//! server made for the run, and three instances of the service.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};

use crate::network::{Lab, Namespace, Net};

/// The floating address instances reach Redis at: on whichever node is the primary.
pub const REDIS_ADDRESS_HOST: u8 = 10;
/// PostgreSQL's address.
pub const POSTGRES_HOST: u8 = 10;
/// The port every instance serves on, inside its namespace.
pub const SERVICE_PORT: u16 = 8080;

/// A child process, killed (and reaped) on drop.
pub struct Process {
    pub child: Child,
}

impl Process {
    fn spawn(command: &mut Command, log: &Path) -> anyhow::Result<Self> {
        let log = File::options()
            .create(true)
            .append(true)
            .open(log)
            .with_context(|| format!("opening {}", log.display()))?;
        let child = command
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log)
            .spawn()
            .with_context(|| format!("starting {command:?}"))?;
        Ok(Self { child })
    }

    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// SIGKILL, as a machine that loses power.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// One `redis-server`, on host number `host` of the Redis network.
pub struct RedisNode {
    pub node: String,
    pub host: u8,
    _process: Process,
}

impl RedisNode {
    pub fn start(
        namespace: &Namespace,
        node: &str,
        host: u8,
        replica_of: Option<u8>,
        dir: &Path,
    ) -> anyhow::Result<Self> {
        let data = dir.join(node);
        std::fs::create_dir_all(&data)?;
        let mut command = namespace.command(testing::tools::Tool::RedisServer.require());
        command.args([
            "--port",
            "6379",
            "--bind",
            "0.0.0.0",
            "--protected-mode",
            "no",
            "--save",
            "",
            "--appendonly",
            "no",
            // A full resync after a failover streams the data set rather than writing it out.
            "--repl-diskless-sync",
            "yes",
            "--repl-diskless-sync-delay",
            "0",
        ]);
        command.arg("--dir").arg(&data);
        if let Some(primary) = replica_of {
            command.args(["--replicaof", &Net::Redis.address(primary), "6379"]);
        }
        let process = Process::spawn(&mut command, &dir.join(format!("{node}.log")))?;
        let node = Self {
            node: node.to_owned(),
            host,
            _process: process,
        };
        wait_until(Duration::from_secs(10), || {
            node.cli(namespace, &["PING"])
                .is_ok_and(|out| out == "PONG")
        })
        .with_context(|| format!("{} did not answer PING", node.node))?;
        Ok(node)
    }

    /// `redis-cli` against this node, from inside its namespace (its loopback: never cut).
    pub fn cli(&self, namespace: &Namespace, arguments: &[&str]) -> anyhow::Result<String> {
        let output = namespace
            .command(testing::tools::Tool::RedisCli.require())
            .args(["-h", "127.0.0.1", "-p", "6379"])
            .args(arguments)
            .stdin(Stdio::null())
            .output()?;
        let text = String::from_utf8_lossy(&output.stdout).trim().to_owned();
        if !output.status.success() || text.starts_with("ERR") {
            bail!("redis-cli {}: {text}", arguments.join(" "));
        }
        Ok(text)
    }
}

/// The Redis pair: a primary, a replica, and the floating address on the primary.
pub struct RedisPair {
    pub primary: RedisNode,
    pub replica: RedisNode,
}

impl RedisPair {
    pub fn start(lab: &Lab, dir: &Path) -> anyhow::Result<Self> {
        let primary = RedisNode::start(lab.namespace("redis-a"), "redis-a", 11, None, dir)?;
        let replica = RedisNode::start(lab.namespace("redis-b"), "redis-b", 12, Some(11), dir)?;
        lab.add_address("redis-a", Net::Redis, REDIS_ADDRESS_HOST)?;
        Ok(Self { primary, replica })
    }

    /// Promotes the replica, moves the address to it, and makes the old primary its replica:
    /// what the old primary had that the replica had not received is lost, as in a real
    /// failover to a lagging replica.
    pub fn fail_over(&mut self, lab: &Lab) -> anyhow::Result<()> {
        self.replica.cli(
            lab.namespace(&self.replica.node),
            &["REPLICAOF", "NO", "ONE"],
        )?;
        lab.move_address(
            Net::Redis,
            REDIS_ADDRESS_HOST,
            &self.primary.node,
            &self.replica.node,
        )?;
        let new_primary = Net::Redis.address(self.replica.host);
        self.primary.cli(
            lab.namespace(&self.primary.node),
            &["REPLICAOF", &new_primary, "6379"],
        )?;
        std::mem::swap(&mut self.primary, &mut self.replica);
        Ok(())
    }

    /// Keys on the primary (every key the service wrote, for the report).
    pub fn keys_on_primary(&self, lab: &Lab) -> u64 {
        self.primary
            .cli(lab.namespace(&self.primary.node), &["DBSIZE"])
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    }
}

/// The run's PostgreSQL server: a fresh cluster in a temporary directory, listening on the
/// PostgreSQL network only.
pub struct Postgres {
    _process: Process,
}

impl Postgres {
    pub fn start(namespace: &Namespace, dir: &Path) -> anyhow::Result<Self> {
        let bin = postgres_bin_dir().context("no PostgreSQL server binaries (initdb, postgres)")?;
        let (uid, gid) = postgres_user()?;
        let data = dir.join("pgdata");
        std::fs::create_dir_all(&data)?;
        std::os::unix::fs::chown(dir, Some(uid), Some(gid))?;
        std::os::unix::fs::chown(&data, Some(uid), Some(gid))?;
        let output = {
            use std::os::unix::process::CommandExt as _;
            Command::new(bin.join("initdb"))
                .args(["-A", "trust", "-U", "postgres", "--no-sync", "-D"])
                .arg(&data)
                .uid(uid)
                .gid(gid)
                .stdin(Stdio::null())
                .output()
                .context("running initdb")?
        };
        if !output.status.success() {
            bail!("initdb: {}", String::from_utf8_lossy(&output.stderr));
        }
        let hba = data.join("pg_hba.conf");
        let mut rules = std::fs::read_to_string(&hba)?;
        rules.push_str("\nhost all all 10.201.0.0/16 trust\n");
        std::fs::write(&hba, rules)?;
        // postgres refuses to run as root: nsenter switches to its user after the namespace.
        let mut command = namespace.command_as(bin.join("postgres"), uid, gid);
        command
            .arg("-D")
            .arg(&data)
            .args(["-c", &format!("listen_addresses={}", address())])
            .args([
                "-c",
                "port=5432",
                "-c",
                "fsync=off",
                "-c",
                "max_connections=200",
            ])
            .args(["-c", "synchronous_commit=off", "-k"])
            .arg(dir);
        let process = Process::spawn(&mut command, &dir.join("postgres.log"))?;
        Ok(Self { _process: process })
    }

    pub fn url() -> String {
        format!("postgres://postgres@{}:5432/postgres", address())
    }
}

fn address() -> String {
    Net::Postgres.address(POSTGRES_HOST)
}

/// Where Debian (or `pg_config`) keeps `initdb` and `postgres`: the newest version installed.
fn postgres_bin_dir() -> Option<PathBuf> {
    if let Ok(output) = Command::new("pg_config").arg("--bindir").output() {
        let dir = PathBuf::from(String::from_utf8_lossy(&output.stdout).trim());
        if dir.join("initdb").is_file() {
            return Some(dir);
        }
    }
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|entry| entry.ok().map(|entry| entry.path().join("bin")))
        .filter(|bin| bin.join("initdb").is_file() && bin.join("postgres").is_file())
        .collect();
    versions.sort_by_key(|bin| {
        bin.parent()
            .and_then(|version| version.file_name()?.to_str()?.parse::<u32>().ok())
            .unwrap_or(0)
    });
    versions.pop()
}

/// The `postgres` system user's ids.
fn postgres_user() -> anyhow::Result<(u32, u32)> {
    let id = |flag: &str| -> anyhow::Result<u32> {
        let output = Command::new("id").args([flag, "postgres"]).output()?;
        anyhow::ensure!(output.status.success(), "no `postgres` system user");
        Ok(String::from_utf8_lossy(&output.stdout).trim().parse()?)
    };
    Ok((id("-u")?, id("-g")?))
}

/// Why the PostgreSQL server cannot be started here, or `None` when it can.
pub fn missing_postgres_server() -> Option<String> {
    if postgres_bin_dir().is_none() {
        return Some(
            "PostgreSQL's server binaries, initdb and postgres (apt-get install postgresql)"
                .to_owned(),
        );
    }
    postgres_user()
        .err()
        .map(|err| format!("the `postgres` system user ({err:#}; apt-get install postgresql)"))
}

/// One service instance: this test binary started again inside its namespace, serving the
/// effects fixture (see `serve` in main.rs). Killed and restarted by the nemesis.
pub struct Instance {
    pub node: String,
    store: crate::nemesis::Store,
    /// Its address on the clients' network.
    pub base_url: String,
    process: Option<Process>,
    log: PathBuf,
}

impl Instance {
    pub fn new(node: &str, client_host: u8, dir: &Path, store: crate::nemesis::Store) -> Self {
        Self {
            node: node.to_owned(),
            store,
            base_url: format!(
                "http://{}:{SERVICE_PORT}",
                Net::Clients.address(client_host)
            ),
            process: None,
            log: dir.join(format!("{node}.log")),
        }
    }

    pub fn start(&mut self, namespace: &Namespace) -> anyhow::Result<()> {
        let mut command = namespace.command(std::env::current_exe()?);
        command
            .env(crate::CHILD, &self.node)
            .env(crate::STORE, self.store.name())
            // An instance that cannot start (its PostgreSQL link cut) says why in a line.
            .env("RUST_BACKTRACE", "0");
        self.process = Some(Process::spawn(&mut command, &self.log)?);
        Ok(())
    }

    pub fn kill(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
    }

    /// Whether it was started and has not died (it exits when it cannot start, e.g. with its
    /// PostgreSQL link down).
    pub fn is_running(&mut self) -> bool {
        self.process.as_mut().is_some_and(Process::is_running)
    }

    /// The end of its log, for a failure's report.
    pub fn log_tail(&self) -> String {
        tail(&self.log, 20)
    }
}

/// The last `lines` lines of a log file.
pub fn tail(path: &Path, lines: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// Polls `ready` until it holds or `within` passes.
pub fn wait_until(within: Duration, mut ready: impl FnMut() -> bool) -> anyhow::Result<()> {
    let deadline = Instant::now() + within;
    while !ready() {
        if Instant::now() > deadline {
            bail!("not ready within {within:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok(())
}
