//! The deployment checker (`check-idempotency`, `clients/deployment-check`) through a real load
//! balancer: two instances sharing Redis and the database behind HAProxy (round robin, a new
//! connection per request) pass every check; instances that do not share a store (another Redis
//! key prefix, or each its own in-process store) make it fail, naming the check and the setting.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use testing::tools::{Suite, Tool};

use deployment_check::{CheckOptions, CheckReport, check_idempotency};
use e2e::{RedisChoice, TestApp};
use testing::database::TestDatabase;

/// HAProxy in front of `backends`, killed when dropped.
struct LoadBalancer {
    child: Child,
    address: String,
    _config: tempfile::NamedTempFile,
}

impl LoadBalancer {
    async fn start(backends: &[&TestApp]) -> Self {
        let port = testing::free_port();
        let servers: String = backends
            .iter()
            .enumerate()
            .map(|(n, app)| {
                format!(
                    "  server instance{n} {}\n",
                    app.address.trim_start_matches("http://")
                )
            })
            .collect();
        let config = format!(
            "global\n  maxconn 256\n\
             defaults\n  mode http\n  timeout connect 2s\n  timeout client 30s\n  timeout server 30s\n\
             frontend front\n  bind 127.0.0.1:{port}\n  default_backend instances\n\
             backend instances\n  balance roundrobin\n{servers}"
        );
        let file = tempfile::NamedTempFile::new().expect("a config file");
        std::fs::write(file.path(), config).expect("writing the HAProxy config");
        let child = Command::new(Tool::Haproxy.require())
            .arg("-db")
            .arg("-f")
            .arg(file.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("HAProxy starts");
        let address = format!("127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(10);
        while tokio::net::TcpStream::connect(&address).await.is_err() {
            assert!(
                Instant::now() < deadline,
                "HAProxy did not listen within 10 s"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Self {
            child,
            address: format!("http://{address}"),
            _config: file,
        }
    }
}

impl Drop for LoadBalancer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An instance on the shared database and Redis, under `key_prefix`.
async fn instance(database: &TestDatabase, key_prefix: &str) -> TestApp {
    TestApp::builder()
        .redis(RedisChoice::Shared)
        .setting("database.url", database.url())
        .setting("redis.key_prefix", key_prefix)
        .spawn()
        .await
}

/// Runs the checker through `balancer` on `operation` (by default, the first idempotent POST).
async fn check_through(balancer: &LoadBalancer, operation: Option<&str>) -> CheckReport {
    check_idempotency(&CheckOptions {
        base_url: balancer.address.clone(),
        token: None,
        operation: operation.map(str::to_owned),
        concurrency: 8,
    })
    .await
    .expect("the checker runs")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_checker_passes_through_a_load_balancer_in_front_of_two_instances_sharing_redis() {
    testing::needs_tools_of!(Suite::LoadBalancer);
    let database = TestDatabase::create().await;
    let prefix = format!("test:{}:", testing::unique_suffix());
    let (first, second) = (
        instance(&database, &prefix).await,
        instance(&database, &prefix).await,
    );
    let balancer = LoadBalancer::start(&[&first, &second]).await;

    let report = check_through(&balancer, None).await;

    assert!(report.passed(), "{}", report.to_text());
    assert_eq!(report.instances.len(), 2, "{}", report.to_text());
}

/// Two instances on one database whose Redis key prefixes differ, behind `LoadBalancer`.
async fn misconfigured_pair() -> (LoadBalancer, [TestApp; 2], TestDatabase) {
    let database = TestDatabase::create().await;
    let first = instance(&database, &format!("test:{}:", testing::unique_suffix())).await;
    let misconfigured = instance(&database, &format!("test:{}:", testing::unique_suffix())).await;
    let balancer = LoadBalancer::start(&[&first, &misconfigured]).await;
    (balancer, [first, misconfigured], database)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_checker_fails_naming_the_replay_check_when_an_instance_uses_another_redis_prefix() {
    testing::needs_tools_of!(Suite::LoadBalancer);
    let (balancer, _instances, _database) = misconfigured_pair().await;

    // An operation whose effect is outside the database: only the store can replay it.
    let report = check_through(&balancer, Some("forgotPassword")).await;

    assert!(!report.passed(), "{}", report.to_text());
    let failed: Vec<&str> = report
        .checks
        .iter()
        .filter(|check| !check.passed)
        .map(|check| check.name)
        .collect();
    assert!(failed.contains(&"replay"), "{}", report.to_text());
}

/// The names of the checks `report` failed.
fn failed_checks(report: &CheckReport) -> Vec<&'static str> {
    report
        .checks
        .iter()
        .filter(|check| !check.passed)
        .map(|check| check.name)
        .collect()
}

/// What the split-store check said.
fn shared_store_detail(report: &CheckReport) -> &str {
    &report
        .checks
        .iter()
        .find(|check| check.name == "retries outside the database replayed")
        .expect("the split-store check ran")
        .detail
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn across_other_redis_prefixes_the_durable_create_holds_and_the_split_store_check_fails() {
    testing::needs_tools_of!(Suite::LoadBalancer);
    let (balancer, _instances, _database) = misconfigured_pair().await;

    // createThing commits its answer with its effect: the database replays what the other
    // instance's store does not hold, and concurrent duplicates still execute once. The mail
    // requests, whose effect is outside the database, do not have that: the report fails.
    let report = check_through(&balancer, Some("createThing")).await;

    assert_eq!(
        failed_checks(&report),
        ["retries outside the database replayed"],
        "{}",
        report.to_text()
    );
    assert_eq!(report.instances.len(), 2, "{}", report.to_text());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn instances_with_stores_of_their_own_fail_the_checker_naming_the_setting_that_shares_one() {
    testing::needs_tools_of!(Suite::LoadBalancer);
    let database = TestDatabase::create().await;
    let in_process = || {
        TestApp::builder()
            .redis(RedisChoice::None)
            .setting("database.url", database.url())
            .spawn()
    };
    let (first, second) = (in_process().await, in_process().await);
    let balancer = LoadBalancer::start(&[&first, &second]).await;

    let report = check_through(&balancer, None).await;

    assert_eq!(
        failed_checks(&report),
        ["retries outside the database replayed"],
        "{}",
        report.to_text()
    );
    let detail = shared_store_detail(&report);
    assert!(
        detail.contains("forgotPassword") && detail.contains("executed again"),
        "{detail}"
    );
    assert!(
        detail.contains("redis.url") && detail.contains("idempotency.store = \"postgres\""),
        "{detail}"
    );
}
