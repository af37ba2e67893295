//! Shutdown on a real SIGTERM, through the function `app serve` runs (`run_until_stopped`):
//! a request in flight completes, new connections are refused during the grace period, and a
//! request that never finishes does not keep the process past `server.shutdown_grace`.
//!
//! A test binary of its own, because the signal goes to the whole process. Before anything is
//! started, the process listens for SIGTERM itself, so a signal can never take the default
//! action and kill the test; the tests take turns, since each signal reaches every listener.

use std::time::{Duration, Instant};

use e2e::TestApp;
use e2e::fixtures::FixtureApi;
use reqwest::StatusCode;
use tokio::sync::Mutex;

/// One test at a time: a SIGTERM reaches every service listening in this process.
static ONE_AT_A_TIME: Mutex<()> = Mutex::const_new(());

/// Makes SIGTERM harmless to this process (tokio keeps its handler installed from then on).
fn never_die_of_sigterm() -> tokio::signal::unix::Signal {
    tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .expect("listening for SIGTERM")
}

fn send_sigterm() {
    let status = std::process::Command::new("kill")
        .args(["-TERM", &std::process::id().to_string()])
        .status()
        .expect("running kill");
    assert!(status.success());
}

/// Starts the service with the fixtures on `run_until_stopped`, as `app serve` does; returns its
/// address and the task that ends when it has stopped.
async fn serve(
    builder: e2e::TestAppBuilder,
) -> (
    std::net::SocketAddr,
    tokio::task::JoinHandle<std::io::Result<()>>,
    testing::database::TestDatabase,
) {
    let (application, database) = builder.build_with(FixtureApi).await;
    let address = application.local_addr();
    let stopped = tokio::spawn(application.run_until_stopped());
    // Let it install its own SIGTERM listener before anyone sends one.
    tokio::time::sleep(Duration::from_millis(100)).await;
    (address, stopped, database)
}

#[tokio::test]
async fn a_request_in_flight_at_sigterm_completes_while_new_connections_are_refused() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let _listener = never_die_of_sigterm();
    let (address, stopped, _database) = serve(TestApp::builder()).await;
    let in_flight = tokio::spawn(
        reqwest::Client::new()
            .get(format!("http://{address}/api/v1/fixtures/slow?ms=800"))
            .send(),
    );
    tokio::time::sleep(Duration::from_millis(200)).await;

    send_sigterm();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let during_grace = tokio::net::TcpStream::connect(address).await;
    let answered = in_flight
        .await
        .unwrap()
        .expect("the request in flight is answered");
    let served = tokio::time::timeout(Duration::from_secs(15), stopped)
        .await
        .expect("the service stops once the request is answered");

    assert!(
        during_grace.is_err(),
        "a new connection during the grace period must be refused"
    );
    assert_eq!(answered.status(), StatusCode::OK);
    assert_eq!(answered.text().await.unwrap(), "done");
    served.unwrap().expect("the service stopped cleanly");
}

#[tokio::test]
async fn a_request_that_never_finishes_does_not_hold_the_process_past_the_grace() {
    const GRACE: Duration = Duration::from_secs(1);
    let _turn = ONE_AT_A_TIME.lock().await;
    let _listener = never_die_of_sigterm();
    let (address, stopped, _database) =
        serve(TestApp::builder().setting("server.shutdown_grace", "1s")).await;
    let _never = tokio::spawn(
        reqwest::Client::new()
            .get(format!("http://{address}/api/v1/fixtures/slow?ms=600000"))
            .send(),
    );
    tokio::time::sleep(Duration::from_millis(200)).await;

    let signalled = Instant::now();
    send_sigterm();
    let served = tokio::time::timeout(GRACE * 10, stopped)
        .await
        .expect("the service stops after its grace, not when the request ends");
    let took = signalled.elapsed();

    served.unwrap().expect("the service stopped");
    assert!(
        took >= GRACE,
        "it waited out the grace for the request in flight ({took:?})"
    );
}
