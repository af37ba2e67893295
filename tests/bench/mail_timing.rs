//! Does the answer to a request for a link take longer when the address has an account?
//!
//! `forgot-password` and `send-email-confirmation` answer 202 whether or not an account has the
//! address, and must not tell by their timing either: the account lookup, the token write and
//! the mail all happen after the answer (`identity::links`). This study sends, alternately,
//! requests for a registered address and for unknown ones, one at a time over one keep-alive
//! connection, and prints the latency medians of each, for both operations. It is a study, not
//! a test: the verdict is the reader's (the medians should agree within the machine's noise).

use std::time::{Duration, Instant};

use anyhow::{Context as _, ensure};
use e2e::TestApp;
use serde_json::json;

use crate::quiet_app;

const REGISTERED: &str = "registered@example.com";

/// The pause after each request.
const PACE: Duration = Duration::from_millis(2);

pub async fn run(requests: usize) -> anyhow::Result<()> {
    let app = quiet_app(TestApp::builder())
        .setting("rate_limit.enabled", "false")
        .spawn()
        .await;
    let registered = app
        .request(reqwest::Method::POST, "/api/v1/auth/register")
        .json(&json!({ "email": REGISTERED, "password": "correct horse battery" }))
        .send()
        .await?;
    ensure!(
        registered.status() == reqwest::StatusCode::CREATED,
        "registering the account answered {}",
        registered.status()
    );

    println!("# Link requests: registered address against unknown ones\n");
    println!(
        "{requests} requests of each kind per operation, alternating, sequential with a \
         {} ms pause, one connection; rate limits off.\n",
        PACE.as_millis()
    );
    println!("| operation | address | p50 | p90 | p99 |");
    println!("|---|---|---:|---:|---:|");
    for path in [
        "/api/v1/auth/forgot-password",
        "/api/v1/auth/send-email-confirmation",
    ] {
        let mut known = Vec::with_capacity(requests);
        let mut unknown = Vec::with_capacity(requests);
        for n in 0..requests {
            // Warm-up is the first tenth, not recorded.
            let record = n >= requests / 10;
            let unknown_email = format!("nobody-{n}@example.com");
            for (email, samples) in [
                (REGISTERED, &mut known),
                (unknown_email.as_str(), &mut unknown),
            ] {
                let elapsed = timed_request(&app, path, email).await?;
                if record {
                    samples.push(elapsed);
                }
                // Paced, so that the link worker keeps up and the queue never fills: a full
                // queue answers 503, which is backpressure, not what is measured here.
                tokio::time::sleep(PACE).await;
            }
        }
        for (label, samples) in [("registered", &mut known), ("unknown", &mut unknown)] {
            samples.sort();
            println!(
                "| `{path}` | {label} | {} | {} | {} |",
                micros(percentile(samples, 0.50)),
                micros(percentile(samples, 0.90)),
                micros(percentile(samples, 0.99)),
            );
        }
    }
    app.stop().await.context("stopping the server")
}

async fn timed_request(app: &TestApp, path: &str, email: &str) -> anyhow::Result<Duration> {
    let started = Instant::now();
    let response = app
        .request(reqwest::Method::POST, path)
        .json(&json!({ "email": email }))
        .send()
        .await?;
    let elapsed = started.elapsed();
    ensure!(
        response.status() == reqwest::StatusCode::ACCEPTED,
        "{path} answered {}",
        response.status()
    );
    Ok(elapsed)
}

fn percentile(sorted: &[Duration], share: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * share).round() as usize;
    sorted[index]
}

fn micros(duration: Duration) -> String {
    format!("{:.0} µs", duration.as_secs_f64() * 1e6)
}
