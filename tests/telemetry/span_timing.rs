//! A request's trace ends when its answer is sent, whatever the database. sqlx's SQLite driver
//! runs each statement on its connection's worker thread and hands it the caller's span, which
//! the worker enters and leaves after answering; without care, a commit's or a rollback's span
//! (and so the request's trace) would end after the answer: traces would show requests longer
//! than they were. PostgreSQL's driver runs statements in the caller's task, so it is the
//! baseline measured beside SQLite in the same test.
//!
//! A test binary of its own: it installs the service's telemetry as `app serve` does, as the
//! process's global subscriber. (A subscriber scoped to the test's thread cannot be used: the
//! registry closes a span's parent through the default subscriber of the thread that drops it,
//! and sqlx's worker threads have only the global one.)

#[path = "otlp.rs"]
mod otlp;

use std::time::{SystemTime, UNIX_EPOCH};

use e2e::{TestApp, WithIdempotencyKey};
use infra::telemetry::Telemetry;
use otlp::{Collector, attribute, spans, text};
use testing::database::TestDatabase;

/// One request's trace, measured against its answer.
struct Traced {
    what: &'static str,
    /// How long after the answer had reached the client the trace's last span ended, in
    /// milliseconds (negative: before); `None` when the request's span was not exported by the
    /// flush right after the last answer (it was still open).
    last_end_after_answer_ms: Option<f64>,
    /// The spans that ended after the answer.
    late: Vec<String>,
}

/// Keyed creates (a transaction each, committed), stale replacements (a transaction each,
/// rolled back) and lists against a service on `database`, then a flush of the exporters.
async fn traces(
    collector: &Collector,
    telemetry: &Telemetry,
    database: TestDatabase,
) -> Vec<Traced> {
    let app = TestApp::builder()
        .database(database)
        .setting("telemetry.otlp_endpoint", &collector.url)
        .spawn()
        .await;
    let mut answered = Vec::new();
    for round in 0..20 {
        let create = app
            .request(reqwest::Method::POST, "/api/v1/things")
            .bearer_auth(app.token_for("alice"))
            .idempotency_key(&format!("create-{round}"))
            .json(&serde_json::json!({ "name": format!("lamp {round}") }))
            .send()
            .await
            .unwrap();
        let location = create.headers()["location"].to_str().unwrap().to_owned();
        answered.push(answer("create", create, 201).await);
        let stale = app
            .request(reqwest::Method::PUT, &location)
            .bearer_auth(app.token_for("alice"))
            .idempotency_key(&format!("replace-{round}"))
            .header("if-match", "\"stale\"")
            .json(&serde_json::json!({ "name": "lamp" }))
            .send()
            .await
            .unwrap();
        answered.push(answer("stale replacement", stale, 412).await);
        let list = app
            .request(reqwest::Method::GET, "/api/v1/things")
            .bearer_auth(app.token_for("alice"))
            .send()
            .await
            .unwrap();
        answered.push(answer("list", list, 200).await);
    }
    let flush_failures = telemetry.flush().await;
    app.stop().await.expect("the server stops cleanly");
    assert!(flush_failures.is_empty(), "{flush_failures:?}");

    let exported = spans(&collector.received());
    answered
        .into_iter()
        .map(|(what, request_id, answered_at_ns)| {
            let request = exported.iter().find(|span| {
                span.name == "request"
                    && text(attribute(&span.attributes, "request_id")) == Some(request_id.as_str())
            });
            let trace: Vec<_> = request
                .map(|request| {
                    exported
                        .iter()
                        .filter(|span| span.trace_id == request.trace_id)
                        .collect()
                })
                .unwrap_or_default();
            Traced {
                what,
                last_end_after_answer_ms: trace
                    .iter()
                    .map(|span| span.end_time_unix_nano)
                    .max()
                    .map(|end| (end as f64 - answered_at_ns) / 1e6),
                late: trace
                    .iter()
                    .filter(|span| span.end_time_unix_nano as f64 > answered_at_ns)
                    .map(|span| span.name.clone())
                    .collect(),
            }
        })
        .collect()
}

/// What was asked, the request's id, and when its whole answer had arrived (nanoseconds since
/// the epoch).
async fn answer(
    what: &'static str,
    response: reqwest::Response,
    status: u16,
) -> (&'static str, String, f64) {
    assert_eq!(response.status().as_u16(), status, "{what}");
    let request_id = response.headers()["x-request-id"]
        .to_str()
        .unwrap()
        .to_owned();
    response.bytes().await.unwrap();
    let at = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    (what, request_id, at.as_nanos() as f64)
}

/// The PostgreSQL server the baseline runs on (see [`testing::database::postgres_server_for`]).
async fn postgres_server() -> Option<String> {
    testing::database::postgres_server_for("span_timing").await
}

/// Threads that keep every core busy while they live, so that the scheduler preempts the
/// service's threads often, as on a loaded machine: a thread that answers and then still has
/// a span entered is then likely to be caught between the two.
struct BusyCores {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl BusyCores {
    fn start() -> Self {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let cores = std::thread::available_parallelism().map_or(2, usize::from);
        let threads = (0..2 * cores)
            .map(|_| {
                let stop = std::sync::Arc::clone(&stop);
                std::thread::spawn(move || {
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        std::hint::spin_loop();
                    }
                })
            })
            .collect();
        Self { stop, threads }
    }
}

impl Drop for BusyCores {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// The traces that did not end by their answer, each said in a line.
fn ended_late(traces: &[Traced]) -> Vec<String> {
    traces
        .iter()
        .filter(|traced| {
            traced
                .last_end_after_answer_ms
                .is_none_or(|after| after > 0.0)
        })
        .map(|traced| match traced.last_end_after_answer_ms {
            Some(after) => format!(
                "{}: ended {after:.3} ms after its answer ({})",
                traced.what,
                traced.late.join(", ")
            ),
            None => format!("{}: still open at the flush", traced.what),
        })
        .collect()
}

#[tokio::test]
async fn a_requests_trace_ends_by_its_answer_on_sqlite_as_on_postgresql() {
    let collector = Collector::start().await;
    let telemetry = collector.install_telemetry();
    let Some(server) = postgres_server().await else {
        return;
    };

    // Both made first: creating a PostgreSQL database also drops the stale ones of earlier
    // runs, which the busy cores would only slow down.
    let (postgres, sqlite) = (
        TestDatabase::postgres(&server).await,
        TestDatabase::sqlite(),
    );
    let busy = BusyCores::start();
    let postgres = traces(&collector, &telemetry, postgres).await;
    let sqlite = traces(&collector, &telemetry, sqlite).await;
    drop(busy);

    let latest = |traces: &[Traced]| {
        traces
            .iter()
            .filter_map(|traced| traced.last_end_after_answer_ms)
            .fold(f64::MIN, f64::max)
    };
    assert!(
        ended_late(&postgres).is_empty(),
        "the baseline: on PostgreSQL every trace ends before its answer arrives: {:?}",
        ended_late(&postgres)
    );
    assert!(
        ended_late(&sqlite).is_empty(),
        "on SQLite, {} of {} traces ended after their answers (latest {:.3} ms after; on \
         PostgreSQL the latest ended {:.3} ms before): {:?}",
        ended_late(&sqlite).len(),
        sqlite.len(),
        latest(&sqlite),
        -latest(&postgres),
        ended_late(&sqlite)
    );
}
