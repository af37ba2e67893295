//! # The idempotency benchmark
//!
//! What the `Idempotency-Key` layer costs a request, measured on the real server over real
//! sockets, in one run, so that every number can be compared with a baseline taken minutes
//! apart on the same machine.
//!
//! ```sh
//! cargo run --release -p e2e --example idempotency_bench            # about 3 minutes
//! cargo run --release -p e2e --example idempotency_bench -- --quick # under a minute
//! cargo run --release -p e2e --example idempotency_bench -- --help  # the other options
//! ```
//!
//! Results and their discussion: `docs/benchmarks.md`.
//!
//! It starts the service in this process with the e2e harness (`TestApp`) and the fixture API,
//! twice: once with the in-process store, once with a private `redis-server` on a free port.
//! `wrk` (a separate process, one thread, 32 connections) then POSTs a small JSON body in four
//! scenarios per server:
//!
//! - **(a)** `/fixtures/idem/plain`, the handler without the guard: the baseline;
//! - **(b)** `/fixtures/idem/counted`, the same handler wrapped, without a key: what merely
//!   being wrapped costs (target: within 3% of (a));
//! - **(c)** the wrapped handler with a new key on every request: first executions (claim,
//!   run, complete);
//! - **(d)** the wrapped handler with one key and body, primed once: replays (target through
//!   Redis: at least half the baseline's throughput).
//!
//! Each scenario runs `--rounds` times (5 of 2 s by default), interleaved (a, b, c, d, then
//! d, c, b, a, and so on), and medians are reported, because the machine is shared and noisy:
//! interleaving spreads slow drift over every scenario alike, ratios are taken within a round,
//! and a throughput target is called met or missed only when every round agrees (see
//! `report::Verdict::of_ratios`), "inconclusive" otherwise. For the Redis server,
//! `INFO commandstats` before and after each run gives the commands per request as Redis
//! counted them: the `EVALSHA` round trips the service sends (target: 2 per first execution,
//! 1 per replay) and everything its scripts run inside Redis.
//!
//! Every run is checked, not just timed: wrk must see no socket error and no error status, and
//! the server's own counters must agree with the scenario: the handler ran once per request in
//! (a), (b) and (c) and never in (d); every request of (c) was a first execution (so the keys
//! really were unique) and every request of (d) a replay; nothing touched the store in (a) and
//! (b); no conflict, key reuse or store fault anywhere. A mismatch stops the bench with an
//! error rather than print a number for the wrong thing.
//!
//! With `--bearer`, every request of every scenario carries the same valid access token (the
//! replay key is primed as that caller), so each pays one verification in the host's
//! authentication step, as an authenticated API call does.
//!
//! With `--cluster`, only scenarios (c) and (d) run, against a service on a single Redis node
//! and the same service on a local Redis Cluster (three masters, three replicas), interleaved,
//! with the commands per request summed over every node of the cluster (see [`cluster`]).
//!
//! Scenario (b)'s question, what merely being wrapped costs, is also answered without HTTP (see
//! [`guard_cost`]), because over HTTP the answer is smaller than this machine's noise. So is
//! what refusing revoked sessions adds to every authenticated request ([`revocation_cost`]).
//!
//! After the wrk scenarios, the stack against a bare poem handler over HTTP ([`bare_poem`]), and
//! last, instructions per request counted by callgrind ([`instructions`]): a cost that does not
//! move with the load of the machine, for a bare poem handler, one Redis `GET`, poem-openapi
//! alone and every scenario above.
//!
//! Before all that, while the process's heap is fresh, a memory flood: a million distinct-key
//! first executions against the in-process store at its default bound of 100,000 records, with
//! the RSS curve (see [`flood`]).
//!
//! The server runs on this process's tokio runtime (two workers on this two-core machine); wrk
//! and redis-server compete with it for the same cores, as the CPU columns of the report show.
//! Logging is installed as the service installs it, at level `error`, so that per-request logs
//! are filtered out as they would be in production at that level.

mod bare_poem;
mod cluster;
mod flood;
mod guard_cost;
mod instructions;
mod mail_timing;
mod redis_stats;
mod report;
mod revocation_cost;
mod store_cost;
mod transactional_cost;
mod wrk;

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail, ensure};
use e2e::fixtures::{Executions, IdempotencyFixtureApi};
use e2e::{RedisChoice, TestApp, TestAppBuilder};
use infra::settings::Environment;
use poem_idempotency::MetricsSnapshot;
use testing::redis::RedisServer;

use crate::redis_stats::{Probe, RedisDelta, RedisProbe};
use crate::wrk::{CpuTimes, Load, WrkResult};

/// The request body of every scenario, also what the replay scenario is primed with. Passed to
/// the wrk script as an argument so that this is its only copy: a replay's fingerprint covers
/// the body byte for byte.
pub(crate) const BODY: &str =
    r#"{"sku":"bench-widget","quantity":3,"note":"idempotency benchmark"}"#;
pub(crate) const PLAIN_PATH: &str = "/api/v1/fixtures/idem/plain";
pub(crate) const COUNTED_PATH: &str = "/api/v1/fixtures/idem/counted";

/// How far a server-side counter may exceed wrk's count, per connection: wrk stops at its
/// deadline with up to one request in flight per connection, which the server still completes
/// (and counts) but wrk does not.
const IN_FLIGHT_PER_CONNECTION: u64 = 2;

#[tokio::main]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("\nbenchmark failed: {err:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some(instructions::CHILD_FLAG) {
        let _telemetry = install_logging()?;
        return instructions::child(&args[1..]);
    }
    let options = Options::parse(args.into_iter())?;
    if let Some(requests) = options.mail_timing {
        return mail_timing::run(requests).await;
    }
    if let Some(requests) = options.instructions {
        let redis =
            RedisServer::start().context("the Redis subjects start a private redis-server")?;
        let counts = instructions::measure(requests, &redis.url()).await?;
        report::print_instructions(&counts, requests);
        return Ok(());
    }
    wrk::ensure_installed().await?;
    ensure!(
        wrk::script_path().is_file(),
        "the wrk script {} is missing",
        wrk::script_path().display()
    );
    if std::env::var_os("RUST_LOG").is_some() {
        eprintln!(
            "warning: RUST_LOG is set and overrides telemetry.log_level=error: per-request logs \
             will slow the server down"
        );
    }
    if let Some(seconds) = options.serve {
        return serve(seconds).await;
    }
    if options.transactional_cost {
        return transactional_cost::run(&options).await;
    }
    if options.store_cost {
        return store_cost::run(&options).await;
    }
    if options.cluster {
        return cluster::run(&options).await;
    }
    let _telemetry = install_logging()?;

    let started = Instant::now();
    let machine = report::Machine::describe().await;
    let mut keys = Keys::new();

    // First, while the heap is fresh: the scenarios below leave allocations behind that would
    // blur the start of the curve.
    let flood = if options.flood_keys > 0 {
        eprintln!(
            "memory flood: {} distinct keys against the in-process store...",
            options.flood_keys
        );
        let nonce = keys.fresh("flood");
        Some(
            flood::run(
                options.flood_keys,
                options.flood_every(),
                options.connections,
                &nonce,
            )
            .await?,
        )
    } else {
        None
    };

    if options.flood_only {
        report::print(&report::Report {
            options: &options,
            machine: &machine,
            results: &BTreeMap::new(),
            guard_cost: None,
            revocation_cost: None,
            flood: flood.as_ref(),
            elapsed: started.elapsed(),
        });
        return Ok(());
    }

    // Declared before the servers so that it is dropped (killed) after them.
    let redis = RedisServer::start().context(
        "the Redis scenarios start a private redis-server from PATH \
         (Debian/Ubuntu: `apt-get install -y redis-server`)",
    )?;
    let mut servers = vec![
        Server::start(Backend::Memory, None).await?,
        Server::start(Backend::Redis, Some(redis.url())).await?,
    ];
    // Warm-up: connections, allocator, the Redis scripts' first NOSCRIPT load, and a check of
    // every scenario's verification before minutes are spent on it.
    eprintln!("warming up...");
    for server in &mut servers {
        for scenario in Scenario::ALL {
            measure(server, scenario, &options.warm_up(), &mut keys).await?;
        }
    }

    let results = interleaved_rounds(&mut servers, Scenario::ALL, &options, &mut keys).await?;
    eprintln!("the stack against a bare poem handler...");
    let bare = bare_poem::compare(&options, &servers[0].app.url(PLAIN_PATH)).await?;
    for server in servers {
        server.app.stop().await.context("stopping a server")?;
    }
    // Last, on a runtime with nothing else left to run.
    eprintln!("the guard's no-key path, in process...");
    let guard_cost = guard_cost::measure().await?;
    eprintln!("the authentication step's revocation check, in process...");
    let revocation_cost = revocation_cost::measure().await?;
    let instructions = instructions::measure(INSTRUCTION_REQUESTS, &redis.url()).await?;
    drop(redis);

    report::print(&report::Report {
        options: &options,
        machine: &machine,
        results: &results,
        guard_cost: Some(guard_cost),
        revocation_cost: Some(revocation_cost),
        flood: flood.as_ref(),
        elapsed: started.elapsed(),
    });
    bare_poem::print(&bare);
    report::print_instructions(&instructions, INSTRUCTION_REQUESTS);
    Ok(())
}

/// Requests per subject in the full run's instruction counts (and twice as many): enough that
/// the periodic background work both runs do by the clock weighs little per request.
const INSTRUCTION_REQUESTS: u64 = 1000;

/// The harness does not install a log subscriber; the service's `main` does. Installing it at
/// `error` makes per-request logging cost what it costs in production at that level (a
/// filtered-out event, a span disabled at its call site), rather than nothing at all.
fn install_logging() -> anyhow::Result<infra::telemetry::Telemetry> {
    let log_settings = app::config::load_with(Environment::Test, &[LOG_LEVEL])
        .context("loading the log settings")?;
    infra::telemetry::Telemetry::init(&log_settings.telemetry)
        .context("installing the log subscriber")
}

/// Serves the fixtures for `seconds`, printing where.
async fn serve(seconds: u64) -> anyhow::Result<()> {
    let app = quiet_app(TestApp::builder())
        .spawn_with(IdempotencyFixtureApi::new(Executions::default()))
        .await;
    println!(
        "serving {} and {} for {seconds} s; try e.g.\n  wrk -t1 -c32 -d5s -s {} {} -- '{BODY}' unique my-prefix",
        app.url(PLAIN_PATH),
        app.url(COUNTED_PATH),
        wrk::script_path().display(),
        app.url(COUNTED_PATH),
    );
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    app.stop().await.context("stopping the server")
}

/// Command-line options.
#[derive(Debug, Clone)]
pub struct Options {
    /// Length of one wrk run.
    pub duration: Duration,
    /// How many times each scenario runs, interleaved; the median is reported.
    pub rounds: usize,
    /// wrk connections.
    pub connections: u32,
    /// Distinct keys in the memory flood; 0 skips it.
    pub flood_keys: u64,
    /// Runs the memory flood only.
    pub flood_only: bool,
    /// Every request carries a valid bearer token (verified once per request by the
    /// authentication step), as authenticated API calls do.
    pub bearer: bool,
    /// Instead of benchmarking, times this many requests for links to a registered address and
    /// as many to unknown ones (see [`mail_timing`]).
    pub mail_timing: Option<usize>,
    /// Instead of the idempotency benchmark, compares transactional and plain operations (see
    /// [`transactional_cost`]).
    pub transactional_cost: bool,
    /// Only compare the PostgreSQL record store with Redis ([`store_cost`]).
    pub store_cost: bool,
    /// Instead of the idempotency benchmark, compares a Redis Cluster with a single Redis node
    /// for keyed requests (see [`cluster`]).
    pub cluster: bool,
    /// Instead of benchmarking, serves the fixtures with the in-process store for this many
    /// seconds, for trying wrk scripts by hand.
    pub serve: Option<u64>,
    /// Instead of benchmarking, counts instructions per request with callgrind, this many
    /// requests (and twice as many) per subject (see [`instructions`]).
    pub instructions: Option<u64>,
    /// The arguments as given, to print the command that reproduces the run.
    pub args: Vec<String>,
}

impl Options {
    const USAGE: &'static str = "usage: idempotency_bench [--quick] [--duration SECS] \
        [--rounds N] [--connections N] [--flood-keys N] [--flood-only] [--bearer] [--serve SECS] [--mail-timing N] [--transactional-cost] [--store-cost] [--cluster] [--instructions N]\n\
        defaults: --duration 2 --rounds 5 --connections 32 --flood-keys 1000000 (about 3 min)\n\
        --quick:  --duration 1 --rounds 3 --flood-keys 300000 (under a minute)\n\
        --flood-keys 0 skips the memory flood, --flood-only runs nothing else;\n\
        --bearer sends a valid access token with every request;\n\
        --serve SECS only serves the fixtures (in-process store) for trying wrk by hand;\n\
        --mail-timing N only times N link requests for a registered and N for unknown addresses;\n\
        --transactional-cost only compares transactional and plain operations (--duration, --rounds apply);\n\
        --store-cost only compares the PostgreSQL record store with Redis, first executions and replays (--duration, --rounds apply);\n\
        --cluster only compares a local Redis Cluster (3 masters, 3 replicas) with one Redis node, first executions and replays (--duration, --rounds apply);\n\
        --instructions N only counts instructions per request under callgrind (N and 2N requests a subject)";

    fn parse(args: impl Iterator<Item = String>) -> anyhow::Result<Options> {
        let args: Vec<String> = args.collect();
        let mut options = Options {
            duration: Duration::from_secs(2),
            rounds: 5,
            connections: 32,
            flood_keys: 1_000_000,
            flood_only: false,
            bearer: false,
            serve: None,
            mail_timing: None,
            transactional_cost: false,
            store_cost: false,
            cluster: false,
            instructions: None,
            args: args.clone(),
        };
        let mut rest = args.iter();
        while let Some(arg) = rest.next() {
            let mut value = |name: &str| -> anyhow::Result<u64> {
                rest.next()
                    .with_context(|| format!("{name} needs a value\n{}", Self::USAGE))?
                    .parse()
                    .with_context(|| format!("{name} needs a whole number\n{}", Self::USAGE))
            };
            match arg.as_str() {
                "--quick" => {
                    options.duration = Duration::from_secs(1);
                    options.rounds = 3;
                    options.flood_keys = 300_000;
                }
                "--duration" => options.duration = Duration::from_secs(value(arg)?.max(1)),
                "--rounds" => options.rounds = value(arg)?.max(1) as usize,
                "--connections" => options.connections = value(arg)?.max(1) as u32,
                "--flood-keys" => options.flood_keys = value(arg)?,
                "--flood-only" => options.flood_only = true,
                "--bearer" => options.bearer = true,
                "--serve" => options.serve = Some(value(arg)?),
                "--mail-timing" => options.mail_timing = Some(value(arg)?.max(10) as usize),
                "--transactional-cost" => options.transactional_cost = true,
                "--cluster" => options.cluster = true,
                "--store-cost" => options.store_cost = true,
                "--instructions" => options.instructions = Some(value(arg)?.max(10)),
                "-h" | "--help" => {
                    println!("{}", Self::USAGE);
                    std::process::exit(0);
                }
                other => bail!("unknown argument {other:?}\n{}", Self::USAGE),
            }
        }
        Ok(options)
    }

    /// Samples ten points along the flood, at multiples of 100,000 for the default million.
    fn flood_every(&self) -> u64 {
        (self.flood_keys / 10).max(1)
    }

    fn warm_up(&self) -> Options {
        Options {
            duration: Duration::from_secs(1),
            ..self.clone()
        }
    }

    /// The command that reproduces this run.
    pub fn command(&self) -> String {
        let mut command = "cargo run --release -p e2e --example idempotency_bench".to_owned();
        if !self.args.is_empty() {
            command.push_str(" -- ");
            command.push_str(&self.args.join(" "));
        }
        command
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Backend {
    Memory,
    Redis,
    /// A Redis Cluster (`--cluster` only).
    Cluster,
    /// The PostgreSQL record store (`--store-cost` only).
    Postgres,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Memory => "in-process",
            Backend::Redis => "Redis",
            Backend::Cluster => "Redis Cluster",
            Backend::Postgres => "PostgreSQL",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Scenario {
    /// (a) the unwrapped handler.
    Baseline,
    /// (b) the wrapped handler, no key.
    NoKey,
    /// (c) a new key on every request.
    FirstExecution,
    /// (d) one primed key and body, over and over.
    Replay,
}

impl Scenario {
    pub const ALL: [Scenario; 4] = [
        Scenario::Baseline,
        Scenario::NoKey,
        Scenario::FirstExecution,
        Scenario::Replay,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Scenario::Baseline => "(a) unwrapped baseline",
            Scenario::NoKey => "(b) wrapped, no key",
            Scenario::FirstExecution => "(c) first execution (new key each)",
            Scenario::Replay => "(d) replay (same key)",
        }
    }

    fn path(self) -> &'static str {
        match self {
            Scenario::Baseline => PLAIN_PATH,
            _ => COUNTED_PATH,
        }
    }
}

/// Logging at `error` only: the bench measures requests, not log output.
const LOG_LEVEL: (&str, &str) = ("telemetry.log_level", "error");

/// The servers' settings: the harness's (test environment, defaults for the idempotency
/// layer), with logging quiet.
pub(crate) fn quiet_app(builder: TestAppBuilder) -> TestAppBuilder {
    builder.setting(LOG_LEVEL.0, LOG_LEVEL.1)
}

/// One service under test.
struct Server {
    backend: Backend,
    app: TestApp,
    executions: Executions,
    probe: Option<Probe>,
}

impl Server {
    /// A server with the in-process store (no URL) or on the single Redis node at `redis_url`.
    async fn start(backend: Backend, redis_url: Option<String>) -> anyhow::Result<Server> {
        match redis_url {
            Some(url) => {
                let probe = Probe::Node(RedisProbe::connect(&url).await?);
                Server::start_with(backend, RedisChoice::Url(url), Some(probe)).await
            }
            None => Server::start_with(backend, RedisChoice::None, None).await,
        }
    }

    /// A server built like every other, on `redis` (none, a node, a cluster), with the probe
    /// that reads what its Redis did.
    async fn start_with(
        backend: Backend,
        redis: RedisChoice,
        probe: Option<Probe>,
    ) -> anyhow::Result<Server> {
        let executions = Executions::default();
        let app = quiet_app(TestApp::builder().redis(redis))
            .spawn_with(IdempotencyFixtureApi::new(executions.clone()))
            .await;
        Server::from_app(backend, app, executions, probe)
    }

    /// A server already started, checked to use `backend`'s store.
    fn from_app(
        backend: Backend,
        app: TestApp,
        executions: Executions,
        probe: Option<Probe>,
    ) -> anyhow::Result<Server> {
        let expected = match backend {
            Backend::Memory => "memory",
            Backend::Redis | Backend::Cluster => "redis",
            Backend::Postgres => "postgres",
        };
        ensure!(
            app.idempotency.store().backend_name() == expected,
            "the {} server uses the {} store",
            backend.name(),
            app.idempotency.store().backend_name()
        );
        Ok(Server {
            backend,
            app,
            executions,
            probe,
        })
    }
}

/// Unique names for keys, so that no run ever meets a record another run left behind.
struct Keys {
    nonce: String,
    next: u64,
}

impl Keys {
    fn new() -> Keys {
        Keys {
            nonce: testing::unique_suffix(),
            next: 0,
        }
    }

    fn fresh(&mut self, what: &str) -> String {
        self.next += 1;
        format!("bench-{what}-{}-{}", self.nonce, self.next)
    }
}

/// One wrk run of one scenario against one server, with what the server and Redis did.
#[derive(Debug, Clone)]
pub struct Measurement {
    pub wrk: WrkResult,
    /// CPU used during the run, in cores (2.0 = both cores of this machine, all the time).
    pub server_cores: f64,
    pub wrk_cores: f64,
    pub redis_cores: Option<f64>,
    /// The server's CPU time per completed request, in microseconds: what a request costs,
    /// far less sensitive than throughput to the other work on this shared machine (which
    /// takes cores away, slowing requests down, but does not make each one cost more CPU).
    pub server_cpu_us_per_request: f64,
    /// Commands Redis ran during the run; `None` for the in-process server.
    pub redis: Option<RedisDelta>,
}

impl Measurement {
    pub fn requests_per_second(&self) -> f64 {
        self.wrk.requests_per_second()
    }
}

/// Every measurement of `options.rounds` rounds of `scenarios` on every one of `servers`. Every other
/// round runs backwards (servers and scenarios: a b c d, then d c b a), so that no scenario
/// always holds the same place, always follows the same other one, or always comes first after
/// an idle gap, and a steady drift weighs on every scenario alike across a pair of rounds.
async fn interleaved_rounds<const N: usize>(
    servers: &mut [Server],
    scenarios: [Scenario; N],
    options: &Options,
    keys: &mut Keys,
) -> anyhow::Result<BTreeMap<(Backend, Scenario), Vec<Measurement>>> {
    let mut results: BTreeMap<(Backend, Scenario), Vec<Measurement>> = BTreeMap::new();
    for round in 0..options.rounds {
        let mut order: Vec<usize> = (0..servers.len()).collect();
        let mut in_order = scenarios;
        if round % 2 == 1 {
            order.reverse();
            in_order.reverse();
        }
        for index in order {
            let server = &mut servers[index];
            for scenario in in_order {
                eprintln!(
                    "round {}/{}: {} / {}",
                    round + 1,
                    options.rounds,
                    scenario.label(),
                    server.backend.name()
                );
                let measurement = measure(server, scenario, options, keys).await?;
                results
                    .entry((server.backend, scenario))
                    .or_default()
                    .push(measurement);
            }
        }
    }
    Ok(results)
}

async fn measure(
    server: &mut Server,
    scenario: Scenario,
    options: &Options,
    keys: &mut Keys,
) -> anyhow::Result<Measurement> {
    let mode: Vec<String> = match scenario {
        Scenario::Baseline | Scenario::NoKey => vec!["none".into()],
        Scenario::FirstExecution => vec!["unique".into(), keys.fresh("first")],
        Scenario::Replay => {
            // A new key per run, primed just before: a key primed once at the start could have
            // been evicted from the bounded in-process store by the first-execution runs since.
            let key = keys.fresh("replay");
            prime(&server.app, &key, options.bearer).await?;
            vec!["fixed".into(), key]
        }
    };
    let script_args: Vec<String> = std::iter::once(BODY.to_owned()).chain(mode).collect();
    let url = server.app.url(scenario.path());
    let authorization = options.bearer.then(|| bench_authorization(&server.app));

    let metrics_before = server.app.idempotency.metrics();
    let operations_before = server.app.idempotency.store().operations();
    let executions_before = server.executions.count();
    let redis_before = match &mut server.probe {
        Some(probe) => Some(probe.start().await?),
        None => None,
    };
    let cpu_before = CpuTimes::now()?;
    let started = Instant::now();

    let result = Load {
        url: &url,
        connections: options.connections,
        duration: options.duration,
        script_args: &script_args,
        authorization: authorization.as_deref(),
    }
    .run()
    .await?;

    let wall = started.elapsed().as_secs_f64();
    let cpu_after = CpuTimes::now()?;
    // Requests wrk abandoned at its deadline may still be running on the server: let them
    // finish before reading counters, so that they are counted consistently (and bounded by
    // `IN_FLIGHT_PER_CONNECTION` below).
    tokio::time::sleep(Duration::from_millis(200)).await;
    let redis = match (&mut server.probe, redis_before) {
        (Some(probe), Some(before)) => Some(probe.finish(&before).await?),
        _ => None,
    };
    let metrics = delta(server.app.idempotency.metrics(), metrics_before);
    let operations = server.app.idempotency.store().operations() - operations_before;
    let executions = server.executions.count() - executions_before;

    let context = || {
        format!(
            "{} / {}: wrk {result:?}, guard {metrics:?}, store operations {operations}, \
             handler executions {executions}",
            scenario.label(),
            server.backend.name()
        )
    };
    ensure!(result.requests > 0, "no request completed: {}", context());
    ensure!(
        result.socket_errors == 0 && result.status_errors == 0,
        "wrk saw socket errors or non-2xx responses: {}",
        context()
    );
    ensure!(
        metrics.conflict == 0
            && metrics.key_reuse == 0
            && metrics.degraded == 0
            && metrics.lease_lost == 0,
        "the guard answered a conflict, a key reuse or a fault: {}",
        context()
    );
    let slack = IN_FLIGHT_PER_CONNECTION * u64::from(options.connections);
    let about_every_request =
        |count: u64| (result.requests..=result.requests + slack).contains(&count);
    match scenario {
        Scenario::Baseline | Scenario::NoKey => ensure!(
            about_every_request(executions)
                && operations == 0
                && metrics == MetricsSnapshot::default(),
            "without a key, every request must run the handler and none may touch the store: {}",
            context()
        ),
        Scenario::FirstExecution => ensure!(
            about_every_request(executions)
                && about_every_request(metrics.executed)
                && metrics.replayed == 0,
            "with a new key per request, every request must be a first execution \
             (a replay means a key repeated): {}",
            context()
        ),
        Scenario::Replay => ensure!(
            executions == 0 && metrics.executed == 0 && about_every_request(metrics.replayed),
            "with one primed key, every request must be a replay: {}",
            context()
        ),
    }

    let redis_cores = redis.as_ref().map(|delta| delta.cpu_seconds / wall);
    let server_cpu = cpu_after.own - cpu_before.own;
    Ok(Measurement {
        wrk: result,
        server_cpu_us_per_request: server_cpu * 1e6 / result.requests as f64,
        server_cores: server_cpu / wall,
        wrk_cores: (cpu_after.children - cpu_before.children) / wall,
        redis_cores,
        redis,
    })
}

/// Sends the replay scenario's request once (a first execution) and once more (which must
/// replay), from the same address as wrk so that the key's scope (the caller) is the same.
/// The `Authorization` header of `--bearer` runs: one valid token for the whole run, so that
/// every request pays one verification, as an authenticated API call does.
fn bench_authorization(app: &TestApp) -> String {
    format!("Bearer {}", app.token_for("bench"))
}

async fn prime(app: &TestApp, key: &str, bearer: bool) -> anyhow::Result<()> {
    for attempt in ["priming", "checking the replay of"] {
        let mut request = app
            .request(reqwest::Method::POST, COUNTED_PATH)
            .header("Content-Type", "application/json")
            .header(poem_idempotency::IDEMPOTENCY_KEY, key)
            .body(BODY);
        if bearer {
            // The replay is scoped to the caller: prime it as the caller wrk will be.
            request = request.header("Authorization", bench_authorization(app));
        }
        let response = request
            .send()
            .await
            .with_context(|| format!("{attempt} the replay key"))?;
        let status = response.status();
        let replayed = e2e::is_replay(&response);
        let expect_replay = attempt != "priming";
        if status != reqwest::StatusCode::CREATED || replayed != expect_replay {
            bail!(
                "{attempt} the replay key answered {status} (replay: {replayed}): {}",
                response.text().await.unwrap_or_default()
            );
        }
    }
    Ok(())
}

fn delta(after: MetricsSnapshot, before: MetricsSnapshot) -> MetricsSnapshot {
    MetricsSnapshot {
        executed: after.executed - before.executed,
        replayed: after.replayed - before.replayed,
        conflict: after.conflict - before.conflict,
        key_reuse: after.key_reuse - before.key_reuse,
        degraded: after.degraded - before.degraded,
        lease_lost: after.lease_lost - before.lease_lost,
        completed_after_disconnect: after.completed_after_disconnect
            - before.completed_after_disconnect,
        rejected_store_unavailable: after.rejected_store_unavailable
            - before.rejected_store_unavailable,
        recovered: after.recovered - before.recovered,
        durable_claims: after.durable_claims - before.durable_claims,
        too_large_to_keep: after.too_large_to_keep - before.too_large_to_keep,
    }
}

/// The median of `values` (the mean of the middle two for an even count).
pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => values[n / 2],
        _ => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}
