//! Instructions per request, counted by callgrind: a cost that does not move with the load of
//! this shared machine, so a change that saves 5 % shows as 5 % in every run.
//!
//! Each subject runs in a child process of this binary under `valgrind --tool=callgrind`,
//! which calls the service's endpoint in process (no socket, no HTTP parsing: hyper's part is
//! the same with or without the service's stack) on a single-threaded runtime, twice: `n`
//! requests, then `2n`. The difference divided by `n` is what one request costs, without the
//! start-up, warm-up and shutdown both runs share. Every instruction of the process counts,
//! whichever thread runs it (the SQLite worker, a lease renewal), but not redis-server's: a
//! Redis scenario's count is the service's side of its round trips.
//!
//! The subjects: a bare poem handler doing the fixture's work (parse the JSON body, answer it
//! with a counter, `Location` and `ETag`), the reference nothing can beat; the same handler
//! plus one Redis `GET` through a `ConnectionManager`, what a round trip costs the client; the
//! fixture operation served by poem-openapi alone; then the whole service, unwrapped and
//! wrapped, without a key, first executions and replays with both stores; last, a first
//! execution that writes a row on SQLite, store-only against durable (ADR 0012), and the
//! durable one's replay.

use std::path::Path;
use std::process::Stdio;
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{Context as _, bail, ensure};
use e2e::fixtures::{EffectsFixtureApi, Executions, IdempotencyFixtureApi};
use e2e::{RedisChoice, TestApp};
use poem::http::{Method, StatusCode, header};
use poem::web::{Data, Json};
use poem::{Endpoint, EndpointExt, IntoResponse, Request, Response, Route, handler, post};
use poem_idempotency::key::{ClientKey, Fingerprint, ScopeKey};
use poem_openapi::OpenApiService;
use serde_json::{Value, json};
use testing::database::TestDatabase;

use crate::{BODY, COUNTED_PATH, PLAIN_PATH, quiet_app};

/// The flag that makes this binary a child serving one subject.
pub const CHILD_FLAG: &str = "--count-instructions-child";

/// What a child serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    BarePoem,
    BarePoemWithRedisGet,
    PoemOpenApiOnly,
    Unwrapped,
    WrappedNoKey,
    FirstExecutionInProcess,
    ReplayInProcess,
    FirstExecutionRedis,
    ReplayRedis,
    FirstExecutionPostgresStore,
    ReplayPostgresStore,
    StoreOnlySqlite,
    DurableSqlite,
    DurableReplaySqlite,
    StoreOnlyPostgres,
    DurablePostgres,
    Digests,
}

impl Subject {
    pub const ALL: [Subject; 17] = [
        Subject::BarePoem,
        Subject::BarePoemWithRedisGet,
        Subject::PoemOpenApiOnly,
        Subject::Unwrapped,
        Subject::WrappedNoKey,
        Subject::FirstExecutionInProcess,
        Subject::ReplayInProcess,
        Subject::FirstExecutionRedis,
        Subject::ReplayRedis,
        Subject::FirstExecutionPostgresStore,
        Subject::ReplayPostgresStore,
        Subject::StoreOnlySqlite,
        Subject::DurableSqlite,
        Subject::DurableReplaySqlite,
        Subject::StoreOnlyPostgres,
        Subject::DurablePostgres,
        Subject::Digests,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Subject::BarePoem => "bare-poem",
            Subject::BarePoemWithRedisGet => "bare-poem-redis-get",
            Subject::PoemOpenApiOnly => "poem-openapi-only",
            Subject::Unwrapped => "unwrapped",
            Subject::WrappedNoKey => "wrapped-no-key",
            Subject::FirstExecutionInProcess => "first-in-process",
            Subject::ReplayInProcess => "replay-in-process",
            Subject::FirstExecutionRedis => "first-redis",
            Subject::ReplayRedis => "replay-redis",
            Subject::FirstExecutionPostgresStore => "first-postgres-store",
            Subject::ReplayPostgresStore => "replay-postgres-store",
            Subject::StoreOnlySqlite => "store-only-sqlite",
            Subject::DurableSqlite => "durable-sqlite",
            Subject::DurableReplaySqlite => "durable-replay-sqlite",
            Subject::StoreOnlyPostgres => "store-only-postgres",
            Subject::DurablePostgres => "durable-postgres",
            Subject::Digests => "digests",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Subject::BarePoem => "bare poem handler (no middleware)",
            Subject::BarePoemWithRedisGet => "bare poem handler + one Redis GET",
            Subject::PoemOpenApiOnly => "poem-openapi operation (no middleware)",
            Subject::Unwrapped => "(a) unwrapped baseline (full stack)",
            Subject::WrappedNoKey => "(b) wrapped, no key",
            Subject::FirstExecutionInProcess => "(c) first execution, in-process store",
            Subject::ReplayInProcess => "(d) replay, in-process store",
            Subject::FirstExecutionRedis => "(c) first execution, Redis",
            Subject::ReplayRedis => "(d) replay, Redis",
            Subject::FirstExecutionPostgresStore => "(c) first execution, PostgreSQL store",
            Subject::ReplayPostgresStore => "(d) replay, PostgreSQL store",
            Subject::StoreOnlySqlite => "(e) first execution writing a row, store only, SQLite",
            Subject::DurableSqlite => "(f) the same, durable (outcome in the transaction), SQLite",
            Subject::DurableReplaySqlite => "(g) replay of the durable one, SQLite",
            Subject::StoreOnlyPostgres => {
                "(e) first execution writing a row, store only, PostgreSQL"
            }
            Subject::DurablePostgres => "(f) the same, durable, PostgreSQL",
            Subject::Digests => "the guard's two SHA-256 digests alone (portable code, see below)",
        }
    }

    fn parse(name: &str) -> anyhow::Result<Subject> {
        Subject::ALL
            .into_iter()
            .find(|subject| subject.name() == name)
            .with_context(|| format!("no subject named {name:?}"))
    }

    /// The PostgreSQL subjects run only when `TEST_DATABASE_URL` names a server.
    fn needs_postgres(self) -> bool {
        matches!(
            self,
            Subject::StoreOnlyPostgres
                | Subject::DurablePostgres
                | Subject::FirstExecutionPostgresStore
                | Subject::ReplayPostgresStore
        )
    }

    /// How many times the subject is counted. One that talks to a server over a socket moves
    /// by a few percent between runs (how often the runtime parks waiting for a reply depends on
    /// when the reply comes), so it is counted three times and its median kept.
    fn runs(self) -> usize {
        if self.needs_redis() || self.needs_postgres() {
            3
        } else {
            1
        }
    }

    fn needs_redis(self) -> bool {
        matches!(
            self,
            Subject::BarePoemWithRedisGet | Subject::FirstExecutionRedis | Subject::ReplayRedis
        )
    }
}

/// One subject's count.
#[derive(Debug, Clone, Copy)]
pub struct Count {
    pub subject: Subject,
    /// Instructions per request: `(I(2n) - I(n)) / n`.
    pub per_request: f64,
    /// Per request, the calls into sha2's SHA-256 compression and the instructions they ran
    /// (its portable code, under callgrind).
    pub compression: Compression,
    /// The lowest and highest of the runs' `per_request` (the subject's [`Subject::runs`]).
    pub range: (f64, f64),
}

/// Calls into sha2's SHA-256 compression function and the instructions they ran.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Compression {
    pub calls: f64,
    pub instructions: f64,
}

/// Instructions one call of sha2's SHA-256 compression runs natively for one block, on the SHA
/// extensions: the 6 of `sha2::sha256::compress256`'s dispatch (as counted under callgrind) and
/// `sha2::sha256::x86_sha::compress`, which this build's disassembly shows as 24 instructions
/// around a loop of 164 a block (docs/benchmarks.md shows how to read it). valgrind cannot run
/// that code, so this one figure is read, not counted. Each call compresses one block here: the
/// guard hashes its inputs in parts shorter than a block.
pub const NATIVE_COMPRESSION_CALL: f64 = 194.0;

impl Compression {
    /// What callgrind over-counts, against the native code: the portable instructions less
    /// [`NATIVE_COMPRESSION_CALL`] a call.
    pub fn over_count(self) -> f64 {
        self.instructions - self.calls * NATIVE_COMPRESSION_CALL
    }
}

/// Counts every subject with `requests` (and twice as many) requests; `redis_url` serves the
/// Redis subjects.
pub async fn measure(requests: u64, redis_url: &str) -> anyhow::Result<Vec<Count>> {
    ensure_valgrind().await?;
    let directory = tempfile::tempdir()?;
    let mut counts = Vec::new();
    let postgres = std::env::var("TEST_DATABASE_URL").is_ok();
    for subject in Subject::ALL {
        if subject.needs_postgres() && !postgres {
            eprintln!(
                "instructions: {}: not measured (set TEST_DATABASE_URL to a PostgreSQL server)",
                subject.label()
            );
            continue;
        }
        let mut runs = Vec::new();
        for run in 1..=subject.runs() {
            eprintln!(
                "instructions: {} (run {run} of {}) ...",
                subject.label(),
                subject.runs()
            );
            runs.push(count_once(subject, requests, redis_url, directory.path()).await?);
        }
        counts.push(median(runs));
    }
    Ok(counts)
}

/// One count of `subject`: `requests` requests, then twice as many.
async fn count_once(
    subject: Subject,
    requests: u64,
    redis_url: &str,
    directory: &Path,
) -> anyhow::Result<Count> {
    let once = run_child(subject, requests, redis_url, directory).await?;
    let twice = run_child(subject, 2 * requests, redis_url, directory).await?;
    ensure!(
        twice.total > once.total,
        "{}: {} instructions for {} requests, not more than {} for {requests}",
        subject.name(),
        twice.total,
        2 * requests,
        once.total
    );
    let per_request =
        |of: fn(&ChildCount) -> u64| (of(&twice) as f64 - of(&once) as f64) / requests as f64;
    let total = per_request(|child| child.total);
    Ok(Count {
        subject,
        per_request: total,
        compression: Compression {
            calls: per_request(|child| child.compression_calls),
            instructions: per_request(|child| child.compression_instructions),
        },
        range: (total, total),
    })
}

/// The run with the median `per_request`, carrying the range of all of them.
fn median(mut runs: Vec<Count>) -> Count {
    runs.sort_by(|a, b| a.per_request.total_cmp(&b.per_request));
    let range = (runs[0].per_request, runs[runs.len() - 1].per_request);
    Count {
        range,
        ..runs[runs.len() / 2]
    }
}

async fn ensure_valgrind() -> anyhow::Result<()> {
    let found = tokio::process::Command::new("valgrind")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .await
        .is_ok_and(|status| status.success());
    ensure!(
        found,
        "counting instructions needs valgrind (Debian/Ubuntu: `apt-get install -y valgrind`)"
    );
    Ok(())
}

/// What one child executed.
#[derive(Debug, Default, PartialEq)]
struct ChildCount {
    /// Instructions in all.
    total: u64,
    /// Calls into sha2's SHA-256 compression, and the instructions inside them.
    compression_calls: u64,
    compression_instructions: u64,
}

/// Runs one child under callgrind; what it executed.
async fn run_child(
    subject: Subject,
    requests: u64,
    redis_url: &str,
    directory: &Path,
) -> anyhow::Result<ChildCount> {
    let output = directory.join(format!("callgrind.{}.{requests}", subject.name()));
    let status = tokio::process::Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", output.display()))
        .arg(std::env::current_exe()?)
        .args([CHILD_FLAG, subject.name(), &requests.to_string(), redis_url])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .await
        .context("running valgrind")?;
    if !status.status.success() {
        bail!(
            "{} under callgrind failed:\n{}",
            subject.name(),
            String::from_utf8_lossy(&status.stderr)
        );
    }
    let text = std::fs::read_to_string(&output)
        .with_context(|| format!("reading {}", output.display()))?;
    let total =
        total_instructions(&text).with_context(|| format!("no total in {}", output.display()))?;
    let (compression_calls, compression_instructions) = calls_into(&text, SHA256_COMPRESSION);
    Ok(ChildCount {
        total,
        compression_calls,
        compression_instructions,
    })
}

/// sha2's SHA-256 compression function, as callgrind names it.
const SHA256_COMPRESSION: &str = "sha2::sha256::compress256";

/// The calls into the function named `function` in a callgrind output file, and the
/// instructions they ran (inclusive), summed over every call site.
///
/// The format: a call is a `cfn=` line naming the callee, a `calls=COUNT ...` line, and a line
/// whose last field is the call's inclusive cost. Names are compressed: `(id) name` defines an
/// id, a later `(id)` refers to it, in `fn=` and `cfn=` lines alike.
fn calls_into(callgrind_output: &str, function: &str) -> (u64, u64) {
    let mut names = std::collections::HashMap::new();
    let mut name_of = |spec: &str| -> String {
        let spec = spec.trim();
        match spec.strip_prefix('(').and_then(|rest| rest.split_once(')')) {
            Some((id, name)) if !name.trim().is_empty() => {
                names.insert(id.to_owned(), name.trim().to_owned());
                name.trim().to_owned()
            }
            Some((id, _)) => names.get(id).cloned().unwrap_or_default(),
            None => spec.to_owned(),
        }
    };
    let (mut calls, mut instructions) = (0, 0);
    let mut callee_matches = false;
    let mut counting: Option<u64> = None;
    for line in callgrind_output.lines() {
        if let Some(count) = counting.take() {
            let cost = line
                .split_whitespace()
                .last()
                .and_then(|n| n.parse::<u64>().ok());
            if let Some(cost) = cost {
                calls += count;
                instructions += cost;
            }
        } else if let Some(spec) = line.strip_prefix("cfn=") {
            callee_matches = name_of(spec) == function;
        } else if let Some(spec) = line.strip_prefix("fn=") {
            name_of(spec);
            callee_matches = false;
        } else if let Some(rest) = line.strip_prefix("calls=") {
            if callee_matches {
                counting = rest.split_whitespace().next().and_then(|n| n.parse().ok());
            }
            callee_matches = false;
        }
    }
    (calls, instructions)
}

/// The `summary:` (or `totals:`) line of a callgrind output file: instructions executed.
fn total_instructions(callgrind_output: &str) -> Option<u64> {
    callgrind_output.lines().find_map(|line| {
        line.strip_prefix("summary:")
            .or_else(|| line.strip_prefix("totals:"))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|number| number.parse().ok())
    })
}

/// The child: serves `requests` requests of the subject named in `args` in process, checking
/// every answer, on a single-threaded runtime of a thread of its own.
pub fn child(args: &[String]) -> anyhow::Result<()> {
    let [subject, requests, redis_url] = args else {
        bail!("usage: {CHILD_FLAG} SUBJECT REQUESTS REDIS_URL");
    };
    let subject = Subject::parse(subject)?;
    let requests: u64 = requests.parse().context("REQUESTS")?;
    let redis_url = redis_url.clone();
    std::thread::spawn(move || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?
            .block_on(serve(subject, requests, redis_url))
    })
    .join()
    .map_err(|_| anyhow::anyhow!("the child's thread panicked"))?
}

async fn serve(subject: Subject, requests: u64, redis_url: String) -> anyhow::Result<()> {
    match subject {
        Subject::BarePoem => drive(&bare_poem(), PLAIN_PATH, requests, Keys::None).await,
        Subject::BarePoemWithRedisGet => {
            let connection = redis::Client::open(redis_url.as_str())?
                .get_connection_manager()
                .await?;
            let endpoint = Route::new()
                .at(PLAIN_PATH, post(bare_with_redis_get))
                .data(connection);
            drive(&endpoint, PLAIN_PATH, requests, Keys::None).await
        }
        Subject::PoemOpenApiOnly => {
            let api = OpenApiService::new(
                IdempotencyFixtureApi::new(Executions::default()),
                "bench",
                "1",
            );
            let endpoint = Route::new().nest("/api/v1", api);
            drive(&endpoint, PLAIN_PATH, requests, Keys::None).await
        }
        Subject::StoreOnlySqlite => {
            drive_effects(TestDatabase::sqlite(), EFFECTS_PLAIN, requests, Keys::Fresh).await
        }
        Subject::DurableSqlite => {
            drive_effects(
                TestDatabase::sqlite(),
                EFFECTS_DURABLE,
                requests,
                Keys::Fresh,
            )
            .await
        }
        Subject::DurableReplaySqlite => {
            drive_effects(
                TestDatabase::sqlite(),
                EFFECTS_DURABLE,
                requests,
                Keys::Same,
            )
            .await
        }
        Subject::StoreOnlyPostgres => {
            drive_effects(postgres().await?, EFFECTS_PLAIN, requests, Keys::Fresh).await
        }
        Subject::DurablePostgres => {
            drive_effects(postgres().await?, EFFECTS_DURABLE, requests, Keys::Fresh).await
        }
        Subject::Digests => {
            digests(requests);
            Ok(())
        }
        service => {
            let builder = if service.needs_redis() {
                TestApp::builder().redis(RedisChoice::Url(redis_url))
            } else if service.needs_postgres() {
                // The records in a table of the service's PostgreSQL, no Redis.
                TestApp::builder()
                    .database(postgres().await?)
                    .setting("idempotency.store", "postgres")
            } else {
                TestApp::builder()
            };
            let (application, _database) = quiet_app(builder)
                .build_with(IdempotencyFixtureApi::new(Executions::default()))
                .await;
            let endpoint = application.endpoint();
            let (path, keys) = match service {
                Subject::Unwrapped => (PLAIN_PATH, Keys::None),
                Subject::WrappedNoKey => (COUNTED_PATH, Keys::None),
                Subject::FirstExecutionInProcess
                | Subject::FirstExecutionRedis
                | Subject::FirstExecutionPostgresStore => (COUNTED_PATH, Keys::Fresh),
                _ => (COUNTED_PATH, Keys::Same),
            };
            drive(endpoint, path, requests, keys).await
        }
    }
}

/// The effects fixture's operations: both insert a row in one transaction (SQLite, the
/// service's default database, with the in-process store); the durable one also writes its
/// answer in that transaction.
const EFFECTS_PLAIN: &str = "/api/v1/fixtures/effects/plain";
const EFFECTS_DURABLE: &str = "/api/v1/fixtures/effects/transactional";
const EFFECTS_BODY: &str = r#"{"label":"bench"}"#;

async fn drive_effects(
    database: TestDatabase,
    path: &'static str,
    requests: u64,
    keys: Keys,
) -> anyhow::Result<()> {
    let fixture = EffectsFixtureApi::connect(database.url()).await;
    let (application, _database) = quiet_app(TestApp::builder().database(database))
        .build_with(fixture)
        .await;
    drive(application.endpoint(), path, requests, keys).await
}

async fn postgres() -> anyhow::Result<TestDatabase> {
    let server = std::env::var("TEST_DATABASE_URL").context("TEST_DATABASE_URL")?;
    Ok(TestDatabase::postgres(&server).await)
}

/// The two SHA-256 digests a keyed request of the fixture costs the guard (the scope key and the
/// fingerprint, over inputs of the same lengths), and nothing else: under callgrind, sha2's
/// portable code, since valgrind does not emulate the CPU's SHA extensions.
fn digests(requests: u64) {
    let body = BODY.as_bytes();
    // A key as long as the measured ones: the digests' cost depends on lengths only.
    let key = ClientKey::parse("bench-first-1000")
        .ok()
        .flatten()
        .expect("a valid key");
    for _ in 0..requests {
        let scope = ScopeKey::derive("anon:127.0.0.1", "POST", COUNTED_PATH, &key);
        // No content type: the body is hashed as sent, without the canonical JSON pass.
        let fingerprint = Fingerprint::of_target(body, None, COUNTED_PATH, "");
        std::hint::black_box((scope, fingerprint));
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Keys {
    None,
    Fresh,
    Same,
}

async fn drive<E: Endpoint>(
    endpoint: &E,
    path: &'static str,
    requests: u64,
    keys: Keys,
) -> anyhow::Result<()> {
    if keys == Keys::Same {
        // The first request executes; every measured one replays it.
        send(endpoint, path, Some("bench-replay")).await?;
    }
    for n in 0..requests {
        let key = match keys {
            Keys::None => None,
            Keys::Fresh => Some(format!("bench-first-{n}")),
            Keys::Same => Some("bench-replay".to_owned()),
        };
        send(endpoint, path, key.as_deref()).await?;
    }
    Ok(())
}

/// One request, answered 201 with its body read to the end.
async fn send<E: Endpoint>(
    endpoint: &E,
    path: &'static str,
    key: Option<&str>,
) -> anyhow::Result<()> {
    let mut request = Request::builder()
        .method(Method::POST)
        .uri_str(path)
        .content_type("application/json");
    if let Some(key) = key {
        request = request.header("Idempotency-Key", key);
    }
    let body = match path {
        EFFECTS_PLAIN | EFFECTS_DURABLE => EFFECTS_BODY,
        _ => BODY,
    };
    let response = endpoint.get_response(request.body(body)).await;
    let status = response.status();
    let body = response.into_body().into_bytes().await?;
    ensure!(
        status == StatusCode::CREATED,
        "{path} answered {status}: {}",
        String::from_utf8_lossy(&body)
    );
    Ok(())
}

static EXECUTIONS: AtomicU64 = AtomicU64::new(0);

/// The fixture's work without poem-openapi or any middleware.
/// The bare poem service: the fixture's work at [`PLAIN_PATH`], no middleware.
pub fn bare_poem() -> Route {
    Route::new().at(PLAIN_PATH, post(bare))
}

#[handler]
async fn bare(Json(body): Json<Value>) -> Response {
    created(body)
}

#[handler]
async fn bare_with_redis_get(
    Json(body): Json<Value>,
    Data(connection): Data<&redis::aio::ConnectionManager>,
) -> poem::Result<Response> {
    let mut connection = connection.clone();
    let _: Option<String> = redis::cmd("GET")
        .arg("bench-get")
        .query_async(&mut connection)
        .await
        .map_err(poem::error::InternalServerError)?;
    Ok(created(body))
}

fn created(body: Value) -> Response {
    let id = EXECUTIONS.fetch_add(1, Ordering::Relaxed) + 1;
    Json(json!({ "execution": id, "echo": body }))
        .with_status(StatusCode::CREATED)
        .with_header(header::LOCATION, format!("/api/v1/fixtures/idem/{id}"))
        .with_header(header::ETAG, format!("\"v{id}\""))
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_calls_into_a_function_are_summed_over_its_call_sites_with_their_inclusive_cost() {
        let output = "events: Ir\nfn=(1) caller\n3 10\ncfn=(2) sha2::sha256::compress256\n\
                      calls=2 0\n4 700\ncfn=(3) other\ncalls=1 0\n5 50\nfn=(4) second\n\
                      cfn=(2)\ncalls=1 0\n+2 350\nfn=(2)\n0 1050\n";

        assert_eq!(calls_into(output, "sha2::sha256::compress256"), (3, 1050));
        assert_eq!(calls_into(output, "other"), (1, 50));
        assert_eq!(calls_into(output, "absent"), (0, 0));
    }

    #[test]
    fn the_over_count_is_the_portable_code_less_the_native_cost_of_each_call() {
        let compression = Compression {
            calls: 5.0,
            instructions: 16_860.0,
        };

        assert_eq!(
            compression.over_count(),
            16_860.0 - 5.0 * NATIVE_COMPRESSION_CALL
        );
    }

    #[test]
    fn the_median_run_is_kept_with_the_range_of_all() {
        let run = |per_request| Count {
            subject: Subject::ReplayRedis,
            per_request,
            compression: Compression::default(),
            range: (per_request, per_request),
        };

        let kept = median(vec![run(120.0), run(116.0), run(119.0)]);

        assert_eq!(kept.per_request, 119.0);
        assert_eq!(kept.range, (116.0, 120.0));
    }

    #[test]
    fn the_total_is_read_from_the_summary_line() {
        let output = "version: 1\ncmd: x\nevents: Ir\nsummary: 123456\nfn=main\n";
        assert_eq!(total_instructions(output), Some(123_456));
        assert_eq!(total_instructions("events: Ir\n"), None);
    }
}
