//! Running `wrk`, the separate load process, and reading back what it measured.
//!
//! wrk's human summary rounds latencies to two decimals of a unit it picks itself, so the Lua
//! script's `done()` prints one `BENCH key=value ...` line with exact microseconds instead, and
//! that is what is parsed here.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use anyhow::{Context as _, bail, ensure};

/// The script every scenario runs, committed next to this file.
pub fn script_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/post.lua")
}

/// Fails with installation instructions when `wrk` is not on `PATH`, before anything is built.
pub async fn ensure_installed() -> anyhow::Result<()> {
    // `wrk -v` prints its version and usage, then exits non-zero: only "could it start" matters.
    match tokio::process::Command::new("wrk").arg("-v").output().await {
        Ok(_) => Ok(()),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => bail!(
            "this benchmark drives the server with wrk, which is not on PATH: install it \
             (Debian/Ubuntu: `apt-get update && apt-get install -y wrk`) and run it again"
        ),
        Err(err) => Err(err).context("could not run wrk"),
    }
}

/// One wrk run.
pub struct Load<'a> {
    pub url: &'a str,
    pub connections: u32,
    pub duration: Duration,
    /// The script's arguments (after `--`): body, mode, key...
    pub script_args: &'a [String],
    /// An `Authorization` header value for every request (the script reads it from the
    /// environment, `BENCH_AUTHORIZATION`), or none.
    pub authorization: Option<&'a str>,
}

/// What one wrk run reports.
#[derive(Debug, Clone, Copy)]
pub struct WrkResult {
    /// Completed requests (responses received before the deadline).
    pub requests: u64,
    pub duration_us: u64,
    pub p50_us: u64,
    pub p99_us: u64,
    /// Socket errors: connect, read, write, timeout.
    pub socket_errors: u64,
    /// Responses with a status above 399.
    pub status_errors: u64,
}

impl WrkResult {
    pub fn requests_per_second(&self) -> f64 {
        self.requests as f64 / (self.duration_us as f64 / 1e6)
    }
}

impl Load<'_> {
    /// Runs wrk to completion.
    pub async fn run(&self) -> anyhow::Result<WrkResult> {
        self.spawn()?.finish().await
    }

    /// Starts wrk. One thread: the machine has two cores, and the server and (for the Redis
    /// scenarios) redis-server need them more than the load generator does.
    pub fn spawn(&self) -> anyhow::Result<Running> {
        let child = tokio::process::Command::new("wrk")
            .arg("-t1")
            .arg(format!("-c{}", self.connections))
            .arg(format!("-d{}s", self.duration.as_secs().max(1)))
            .arg("--latency")
            .arg("-s")
            .arg(script_path())
            .arg(self.url)
            .arg("--")
            .args(self.script_args)
            .env(
                "BENCH_AUTHORIZATION",
                self.authorization.unwrap_or_default(),
            )
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Should the bench fail while wrk runs, wrk must not go on loading a dead server.
            .kill_on_drop(true)
            .spawn()
            .context("could not run wrk")?;
        Ok(Running {
            child,
            url: self.url.to_owned(),
        })
    }
}

/// A wrk run in progress.
pub struct Running {
    child: tokio::process::Child,
    url: String,
}

impl Running {
    /// Asks wrk to stop now and report, as Ctrl-C does: the summary then covers the time it
    /// actually ran. (A Lua `thread:stop()` would not do: wrk's main thread still sleeps out
    /// the whole `-d` before reporting, and divides by it.)
    pub async fn interrupt(&self) -> anyhow::Result<()> {
        let pid = self.child.id().context("wrk has already exited")?;
        let status = tokio::process::Command::new("kill")
            .arg("-INT")
            .arg(pid.to_string())
            .status()
            .await
            .context("could not run kill")?;
        ensure!(status.success(), "kill -INT {pid} failed: {status}");
        Ok(())
    }

    /// Whether wrk has exited (its report is then waiting for [`Running::finish`]).
    pub fn has_exited(&mut self) -> anyhow::Result<bool> {
        Ok(self.child.try_wait().context("polling wrk")?.is_some())
    }

    /// Waits for wrk to exit and reads its report.
    pub async fn finish(self) -> anyhow::Result<WrkResult> {
        let output = self
            .child
            .wait_with_output()
            .await
            .context("waiting for wrk")?;
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        if !output.status.success() {
            bail!(
                "wrk failed ({}) on {}:\n{stdout}\n{stderr}",
                output.status,
                self.url
            );
        }
        parse(&stdout).with_context(|| format!("unexpected wrk output:\n{stdout}\n{stderr}"))
    }
}

fn parse(stdout: &str) -> anyhow::Result<WrkResult> {
    let line = stdout
        .lines()
        .find_map(|line| line.strip_prefix("BENCH "))
        .context("no BENCH line: did the script's done() run?")?;
    let fields: HashMap<&str, u64> = line
        .split_whitespace()
        .filter_map(|pair| pair.split_once('='))
        .map(|(name, value)| Ok((name, value.parse()?)))
        .collect::<anyhow::Result<_>>()?;
    let field = |name: &str| {
        fields
            .get(name)
            .copied()
            .with_context(|| format!("no {name} in the BENCH line"))
    };
    Ok(WrkResult {
        requests: field("requests")?,
        duration_us: field("duration_us")?,
        p50_us: field("p50_us")?,
        p99_us: field("p99_us")?,
        socket_errors: field("connect")? + field("read")? + field("write")? + field("timeout")?,
        status_errors: field("status")?,
    })
}

/// CPU time consumed so far by this process (the server: the bench itself idles while wrk
/// runs) and by its reaped children (every finished wrk run), in seconds.
///
/// Read to tell, for each scenario, who was using the two cores: a load generator pinned near
/// one full core would mean the client, not the server, set the pace.
#[derive(Debug, Clone, Copy)]
pub struct CpuTimes {
    pub own: f64,
    pub children: f64,
}

impl CpuTimes {
    pub fn now() -> anyhow::Result<CpuTimes> {
        let stat = std::fs::read_to_string("/proc/self/stat").context("reading /proc/self/stat")?;
        // The command name (field 2) may contain spaces; everything after its closing
        // parenthesis is space-separated, starting at field 3 (the state).
        let rest = stat
            .rsplit_once(") ")
            .map(|(_, rest)| rest)
            .context("unexpected /proc/self/stat")?;
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let ticks = |field: usize| -> anyhow::Result<f64> {
            let value: u64 = fields
                .get(field - 3)
                .context("short /proc/self/stat")?
                .parse()?;
            // /proc reports USER_HZ ticks, which the kernel ABI fixes at 100 per second.
            Ok(value as f64 / 100.0)
        };
        // utime, stime, cutime, cstime: fields 14 to 17 (proc(5)).
        Ok(CpuTimes {
            own: ticks(14)? + ticks(15)?,
            children: ticks(16)? + ticks(17)?,
        })
    }
}
