//! The memory flood: a million first executions, each under a key never seen before, against
//! the in-process store at its default bound, with the process's resident memory sampled as it
//! goes.
//!
//! Idempotency keys are chosen by clients, so a client (or an attacker) can mint a new one per
//! request. The in-process store must therefore stop growing once it holds
//! `idempotency.memory_max_entries` records (evicting the oldest completed ones), and so must the
//! process: the RSS curve should climb while the store fills, then plateau. The server runs in
//! this process, so `/proc/self/status` is the server's memory (plus the bench's small,
//! constant share).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use anyhow::{Context as _, ensure};
use e2e::TestApp;
use e2e::fixtures::{Executions, IdempotencyFixtureApi};
use poem_idempotency::Idempotency;
use poem_idempotency::store::MemoryStore;

use crate::wrk::{Load, WrkResult};
use crate::{BODY, COUNTED_PATH, quiet_app};

/// One point of the curve.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    /// First executions so far (the guard's `executed` counter).
    pub executed: u64,
    pub rss_kib: u64,
    pub store_len: usize,
    pub store_bytes: usize,
}

pub struct FloodReport {
    pub keys: u64,
    pub max_entries: usize,
    pub max_bytes: usize,
    pub samples: Vec<Sample>,
    /// The process's peak RSS (VmHWM) at the end.
    pub peak_rss_kib: u64,
    /// What wrk measured.
    pub wrk: WrkResult,
}

impl FloodReport {
    /// The sample taken once the store has been full for as many keys again (2x its bound),
    /// against which the end of the curve is compared; `None` if the flood was too short to
    /// leave at least 10% of it after that point.
    pub fn full_sample(&self) -> Option<Sample> {
        let full_at = 2 * self.max_entries as u64;
        let last = self.samples.last()?;
        self.samples
            .iter()
            .find(|sample| sample.executed >= full_at)
            .filter(|sample| last.executed - sample.executed >= self.keys / 10)
            .copied()
    }
}

/// Floods a fresh server with `keys` distinct-key first executions over `connections`
/// connections, sampling every `every` executions.
pub async fn run(
    keys: u64,
    every: u64,
    connections: u32,
    nonce: &str,
) -> anyhow::Result<FloodReport> {
    let executions = Executions::default();
    let app = quiet_app(TestApp::builder())
        .spawn_with(IdempotencyFixtureApi::new(executions.clone()))
        .await;
    let settings = app.idempotency.settings().clone();
    in_process(&app.idempotency)?;

    let stop = Arc::new(AtomicBool::new(false));
    // A plain thread, not a task: it must not take turns with the server on the runtime's two
    // workers, and it sleeps nearly all the time.
    let sampler = {
        let layer = Arc::clone(&app.idempotency);
        let stop = Arc::clone(&stop);
        thread::spawn(move || -> anyhow::Result<Vec<Sample>> {
            let mut samples = vec![sample(layer.metrics().executed, in_process(&layer)?)?];
            let mut next = every;
            while !stop.load(Ordering::Relaxed) {
                let executed = layer.metrics().executed;
                if executed >= next {
                    samples.push(sample(executed, in_process(&layer)?)?);
                    next = (executed / every + 1) * every;
                }
                // At tens of thousands of requests a second, 2 ms puts each sample within a
                // few hundred requests of its mark.
                thread::sleep(Duration::from_millis(2));
            }
            Ok(samples)
        })
    };

    let args = [
        BODY.to_owned(),
        "unique".to_owned(),
        format!("flood-{nonce}"),
    ];
    let url = app.url(COUNTED_PATH);
    let wrk = Load {
        url: &url,
        connections,
        // A safety net only (a floor of 1,000 requests a second): wrk is interrupted as soon
        // as the server has executed `keys` requests.
        duration: Duration::from_secs(60 + keys / 1_000),
        script_args: &args,
        authorization: None,
    }
    .spawn();
    let result = match wrk {
        Ok(mut wrk) => {
            while app.idempotency.metrics().executed < keys && !wrk.has_exited()? {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            // Ignored: wrk may have exited by itself (at the safety net) in the meantime.
            let _ = wrk.interrupt().await;
            wrk.finish().await
        }
        Err(err) => Err(err),
    };
    // Let the requests wrk abandoned when it stopped finish before the last sample.
    tokio::time::sleep(Duration::from_millis(300)).await;
    stop.store(true, Ordering::Relaxed);
    let mut samples = sampler
        .join()
        .map_err(|_| anyhow::anyhow!("the RSS sampler panicked"))??;
    let result = result?;
    let end = sample(
        app.idempotency.metrics().executed,
        in_process(&app.idempotency)?,
    )?;
    // The end replaces a sample taken just before it (the flood's last mark), rather than
    // printing the same point twice.
    if samples
        .last()
        .is_some_and(|last| end.executed - last.executed < every / 2)
    {
        samples.pop();
    }
    samples.push(end);

    ensure!(
        result.socket_errors == 0 && result.status_errors == 0,
        "the flood got errors: {result:?}"
    );
    let metrics = app.idempotency.metrics();
    ensure!(
        metrics.executed >= keys && metrics.replayed == 0 && metrics.degraded == 0,
        "every flood request must be a first execution that the store kept or evicted for: \
         {metrics:?} for {keys} keys"
    );
    ensure!(
        samples
            .iter()
            .all(|s| s.store_len <= settings.memory_max_entries),
        "the store exceeded its entry bound: {samples:?}"
    );

    let peak_rss_kib = status_kib("VmHWM")?;
    app.stop().await.context("stopping the flood server")?;
    Ok(FloodReport {
        keys,
        max_entries: settings.memory_max_entries,
        max_bytes: settings.memory_max_bytes,
        samples,
        peak_rss_kib,
        wrk: result,
    })
}

/// The server's in-process store, which the flood measures.
fn in_process(layer: &Idempotency) -> anyhow::Result<&MemoryStore> {
    layer
        .store()
        .backend::<MemoryStore>()
        .context("the flood server must use the in-process store")
}

fn sample(executed: u64, memory: &MemoryStore) -> anyhow::Result<Sample> {
    Ok(Sample {
        executed,
        rss_kib: status_kib("VmRSS")?,
        store_len: memory.len(),
        store_bytes: memory.approximate_bytes(),
    })
}

/// A `kB` field of `/proc/self/status`, e.g. `VmRSS`.
fn status_kib(field: &str) -> anyhow::Result<u64> {
    let status =
        std::fs::read_to_string("/proc/self/status").context("reading /proc/self/status")?;
    status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|value| value.trim().strip_suffix("kB"))
        .with_context(|| format!("no {field} in /proc/self/status"))?
        .trim()
        .parse()
        .with_context(|| format!("{field} in /proc/self/status"))
}
