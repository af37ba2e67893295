//! The optional shared Redis connection.
//!
//! One [`ConnectionManager`] serves the whole process: it multiplexes requests over a single
//! connection, is cheap to clone, and reconnects by itself after Redis comes back, which is what
//! lets the idempotency layer fail open during an outage and resume without a restart.

use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

/// Connects to `url`. Fails when Redis does not answer at start-up: a misconfigured URL should
/// stop the deployment, not degrade it silently.
pub async fn connect(url: &str) -> Result<ConnectionManager, redis::RedisError> {
    let client = redis::Client::open(url)?;
    // Bounded waits: a Redis that stops answering must cost a request milliseconds, not minutes.
    let config = ConnectionManagerConfig::new()
        .set_connection_timeout(Some(Duration::from_millis(500)))
        .set_response_timeout(Some(Duration::from_secs(1)))
        .set_number_of_retries(1);
    ConnectionManager::new_with_config(client, config).await
}

/// Answers whether Redis takes a PING.
pub async fn ping(connection: &ConnectionManager) -> Result<(), redis::RedisError> {
    let mut connection = connection.clone();
    redis::cmd("PING")
        .query_async::<String>(&mut connection)
        .await
        .map(|_| ())
}
