//! The optional shared Redis connection.
//!
//! One [`ConnectionManager`] serves the whole process: it multiplexes requests over a single
//! connection, is cheap to clone, and reconnects by itself after Redis comes back, which is what
//! lets the idempotency layer fail open during an outage and resume without a restart.
//!
//! Redis is a dependency the service tolerates losing, at start-up too: [`connect`] refuses a
//! configuration that can never work (a malformed URL, a wrong password), but a Redis that merely
//! does not answer yet gives a manager that connects on first use, so the process starts, serves
//! degraded, and switches to Redis as soon as it answers.

use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{Client, RedisError};

/// What [`connect`] found.
#[derive(Debug)]
pub enum AtStartup {
    /// Redis answered.
    Available,
    /// Redis did not answer (refused, timed out, unreachable); the manager will connect when it
    /// does.
    Unavailable(RedisError),
}

/// Connects to `url`. A malformed URL, or a Redis that answers but refuses the credentials, is an
/// error: it would never work. A Redis that does not answer is not: the manager is returned
/// anyway, with [`AtStartup::Unavailable`], and connects on first use.
pub async fn connect(url: &str) -> Result<(ConnectionManager, AtStartup), RedisError> {
    let client = Client::open(url)?;
    let attempt = async {
        let mut manager = ConnectionManager::new_with_config(client.clone(), config()).await?;
        // Credentials are only checked by the first command when the URL carries none.
        redis::cmd("PING")
            .query_async::<String>(&mut manager)
            .await?;
        Ok::<_, RedisError>(manager)
    };
    match attempt.await {
        Ok(manager) => Ok((manager, AtStartup::Available)),
        Err(err) if is_unavailability(&err) => {
            let manager = ConnectionManager::new_lazy_with_config(client, config())?;
            Ok((manager, AtStartup::Unavailable(err)))
        }
        Err(err) => Err(err),
    }
}

/// Bounded waits: a Redis that stops answering must cost a request milliseconds, not minutes.
fn config() -> ConnectionManagerConfig {
    ConnectionManagerConfig::new()
        .set_connection_timeout(Some(Duration::from_millis(500)))
        .set_response_timeout(Some(Duration::from_secs(1)))
        .set_number_of_retries(1)
}

/// Whether `err` says "Redis is not there (yet)" rather than "this can never work".
pub fn is_unavailability(err: &RedisError) -> bool {
    err.is_io_error()
        || err.is_timeout()
        || err.is_connection_refusal()
        || err.is_connection_dropped()
}

/// Answers whether Redis takes a PING.
pub async fn ping(connection: &ConnectionManager) -> Result<(), RedisError> {
    let mut connection = connection.clone();
    redis::cmd("PING")
        .query_async::<String>(&mut connection)
        .await
        .map(|_| ())
}

/// Pings `connection` with backoff (250 ms doubling to 5 s) until Redis answers, then logs that
/// it did. Started when Redis was unavailable at start-up, so that the connection is made as soon
/// as Redis is back even when no request comes to trigger it.
pub fn connect_in_background(connection: ConnectionManager) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut pause = Duration::from_millis(250);
        loop {
            match ping(&connection).await {
                Ok(()) => {
                    tracing::info!("Redis answered: records and limits are shared again");
                    return;
                }
                Err(err) if !is_unavailability(&err) => {
                    // It answered, with an error: keep trying, but say so, once per attempt.
                    tracing::error!(error = %err, "Redis answered with an error; retrying");
                }
                Err(_) => {}
            }
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(Duration::from_secs(5));
        }
    })
}
