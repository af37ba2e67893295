//! The test harness every suite shares: it finds (or starts) the real backing services the
//! tests need and gives each test its own namespace in them, so tests run in parallel.
//!
//! - [`redis`]: a Redis URL from `REDIS_URL`, else 127.0.0.1:6379 if it answers, else a
//!   `redis-server` from `PATH` started on a free port; and private servers a test may stop,
//!   plain, with a password, or serving TLS only (`rediss://`, a CA made for it).
//! - [`redis_cluster`]: a real local Redis Cluster (three masters, three replicas): one shared
//!   per test binary, or one of a test's own to stop nodes and fail over; roles, slots and
//!   per-node command statistics.
//! - [`tls`]: a CA and a server certificate it signs, made at test time.
//! - [`database`]: a database per test: PostgreSQL when `TEST_DATABASE_URL` is set, else a
//!   fresh SQLite file.
//! - [`smtp`]: an SMTP listener that catches the mail the service sends, one per test.
//! - [`tools`]: the programs some suites need beyond Rust and a Redis (HAProxy, Chromium,
//!   Node.js, `redis-server`), found on the machine; a suite whose tool is missing is left out
//!   loudly ([`needs_tools_of!`]), or fails the run where every suite is required (CI).
//!
//! Nothing here is skipped quietly: a Redis to reach is required, and when none can be found the
//! test fails and says how to provide one; a suite left out for a missing tool says so on the
//! terminal and in the summary at the end of the e2e run.
//!
//! No server started here outlives the test process, even one held in a static (statics are
//! never dropped): each has a watchdog that kills it when the process ends (`process`).

pub mod database;
pub mod fault;
pub mod harness;
mod process;
pub mod redis;
pub mod redis_cluster;
pub mod smtp;
pub mod tls;
pub mod tools;

/// Returns from the calling test when a tool its suite needs is missing here (after saying so
/// on the terminal), or fails it when every suite is required; see [`tools::Suite::runs_here`].
///
/// ```ignore
/// #[tokio::test]
/// async fn two_instances_behind_a_load_balancer_pass_the_checker() {
///     testing::needs_tools_of!(Suite::LoadBalancer);
///     // ...
/// }
/// ```
#[macro_export]
macro_rules! needs_tools_of {
    ($suite:expr) => {
        if !$crate::tools::Suite::runs_here($suite) {
            return;
        }
    };
}

/// A short random identifier for per-test namespaces.
pub fn unique_suffix() -> String {
    uuid::Uuid::new_v4().simple().to_string()[..12].to_owned()
}

/// A free TCP port on 127.0.0.1 (bound then released; good enough for test servers).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .expect("no free TCP port on 127.0.0.1")
}
