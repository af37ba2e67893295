//! The clients: each sends keyed requests to instances picked at random, gives up on an
//! attempt after a random timeout (a client that vanishes mid-request), retries with jittered
//! backoff on another instance, sometimes abandons a request for a while, and now and then
//! reuses a key with another body. Everything they get goes into the log.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng as _, SeedableRng as _};

use crate::check::{Answer, Intent, Route};

/// What the clients did, in order: the history's client half and the trace.
#[derive(Default)]
pub struct Log {
    pub intents: Vec<Intent>,
    pub answers: Vec<Answer>,
    /// One line per attempt: when, who, what, and how it ended.
    pub lines: Vec<String>,
    pub attempts: u64,
    pub attempts_without_answer: u64,
}

pub type SharedLog = Arc<Mutex<Log>>;

/// How an attempt ended.
enum Attempt {
    /// A final answer: a 2xx or a 422.
    Final,
    /// An answer that asks to try again (409 while the key is in flight, 503...).
    TryAgain,
    /// No answer: refused, reset, or given up on.
    NoAnswer,
}

pub struct Client {
    pub number: usize,
    http: reqwest::Client,
    instances: Vec<(String, String)>,
    log: SharedLog,
    started: Instant,
    rng: StdRng,
}

impl Client {
    pub fn new(
        number: usize,
        seed: u64,
        instances: Vec<(String, String)>,
        log: SharedLog,
        started: Instant,
    ) -> Self {
        Self {
            number,
            http: reqwest::Client::builder()
                .pool_max_idle_per_host(2)
                .build()
                .expect("an HTTP client"),
            instances,
            log,
            started,
            rng: StdRng::seed_from_u64(seed ^ (number as u64).wrapping_mul(0x9e37_79b9)),
        }
    }

    /// Sends requests until `until`; returns the intents it left without a final answer.
    pub async fn run_until(&mut self, until: Instant) -> Vec<Intent> {
        let mut left = Vec::new();
        let mut n = 0;
        while Instant::now() < until {
            n += 1;
            let route = if self.rng.random_bool(0.8) {
                Route::Durable
            } else {
                Route::Outside
            };
            let key = format!("c{}-k{n}", self.number);
            let intent = self.intent(route, &key, "a");
            if !self.pursue(&intent, until).await {
                left.push(intent);
                continue;
            }
            if self.rng.random_bool(0.08) {
                // The same key for another body: must be refused (422), never answered.
                let reuse = self.intent(route, &key, "b");
                if !self.pursue(&reuse, until).await {
                    left.push(reuse);
                }
            }
        }
        left
    }

    /// After healing: every intent left is tried until it is answered (on a healed system
    /// this must happen).
    pub async fn settle(&mut self, intents: Vec<Intent>, until: Instant) {
        for intent in intents {
            self.pursue_patiently(&intent, until).await;
        }
    }

    fn intent(&mut self, route: Route, key: &str, body: &str) -> Intent {
        let mut log = self.log.lock().expect("the log");
        let intent = Intent {
            id: log.intents.len(),
            client: self.number,
            route,
            key: key.to_owned(),
            label: format!("{key}/{body}"),
        };
        log.intents.push(intent.clone());
        intent
    }

    /// Attempts `intent` until it has a final answer (true), or the client gives up on it
    /// for now (false): after a failed attempt, one time in eight, or at `until`.
    async fn pursue(&mut self, intent: &Intent, until: Instant) -> bool {
        for attempt in 1.. {
            match self.attempt(intent).await {
                Attempt::Final => return true,
                Attempt::TryAgain | Attempt::NoAnswer => {
                    if Instant::now() >= until || self.rng.random_bool(0.125) {
                        return false;
                    }
                    self.back_off(attempt).await;
                }
            }
        }
        unreachable!("the loop returns")
    }

    async fn pursue_patiently(&mut self, intent: &Intent, until: Instant) {
        for attempt in 1.. {
            if matches!(self.attempt(intent).await, Attempt::Final) || Instant::now() >= until {
                return;
            }
            self.back_off(attempt).await;
        }
    }

    async fn back_off(&mut self, attempt: u32) {
        let ceiling = 50u64 << attempt.min(4);
        tokio::time::sleep(Duration::from_millis(self.rng.random_range(20..=ceiling))).await;
    }

    async fn attempt(&mut self, intent: &Intent) -> Attempt {
        let (instance, base_url) =
            self.instances[self.rng.random_range(0..self.instances.len())].clone();
        // Between 0.3 and 3 s: short ones leave mid-request, while the handler runs.
        let patience = Duration::from_millis(self.rng.random_range(300..=3000));
        let at = self.started.elapsed();
        let sent = self
            .http
            .post(format!("{base_url}{}", intent.route.path()))
            .header("Idempotency-Key", &intent.key)
            .json(&serde_json::json!({ "label": intent.label }))
            .timeout(patience)
            .send()
            .await;
        let answered = match sent {
            Ok(response) => {
                let status = response.status().as_u16();
                let replay = e2e::is_replay(&response);
                let content_type = response
                    .headers()
                    .get(reqwest::header::CONTENT_TYPE)
                    .and_then(|value| value.to_str().ok())
                    .map(str::to_owned);
                match response.bytes().await {
                    Ok(body) => Ok((status, replay, content_type, body.to_vec())),
                    Err(err) => Err(format!("body lost after {status}: {}", reason(&err))),
                }
            }
            Err(err) => Err(reason(&err)),
        };
        let mut log = self.log.lock().expect("the log");
        log.attempts += 1;
        let took = self.started.elapsed() - at;
        match answered {
            Ok((status, replay, content_type, body)) => {
                log.lines.push(format!(
                    "{:>8.3}s c{} {} {} -> {instance}: {status}{} in {} ms {}",
                    at.as_secs_f64(),
                    self.number,
                    intent.key,
                    intent.label,
                    if replay { " (replay)" } else { "" },
                    took.as_millis(),
                    String::from_utf8_lossy(&body[..body.len().min(160)])
                ));
                log.answers.push(Answer {
                    intent: intent.id,
                    instance,
                    status,
                    content_type,
                    body,
                    replay,
                });
                match status {
                    200..=299 | 422 => Attempt::Final,
                    _ => Attempt::TryAgain,
                }
            }
            Err(why) => {
                log.attempts_without_answer += 1;
                log.lines.push(format!(
                    "{:>8.3}s c{} {} {} -> {instance}: no answer in {} ms ({why})",
                    at.as_secs_f64(),
                    self.number,
                    intent.key,
                    intent.label,
                    took.as_millis(),
                ));
                Attempt::NoAnswer
            }
        }
    }
}

fn reason(err: &reqwest::Error) -> String {
    if err.is_timeout() {
        "gave up".to_owned()
    } else if err.is_connect() {
        "not connected".to_owned()
    } else {
        "connection lost".to_owned()
    }
}
