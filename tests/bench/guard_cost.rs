//! What the guard costs a request that has no `Idempotency-Key`, measured without HTTP.
//!
//! Scenario (b) asks this question over HTTP, but there the answer has to be told apart from
//! the noise of a shared two-core machine, where two runs of the very same baseline differ by
//! several percent. Here a handler doing the fixture's work is called directly, bare and
//! wrapped by the real guard (as `#[idempotent]` wraps it), alternating in blocks, on CPU only;
//! the fastest block of each is kept, the usual estimator for a CPU-bound micro-benchmark
//! (interference only ever adds time). The difference, set against the baseline's server CPU
//! per request measured over HTTP, estimates what (b) costs. It leaves out whatever differs
//! between the two routes besides the guard (poem-openapi's extraction of `counted`'s optional
//! `sleepMs` query parameter), which the HTTP comparison does include.

use std::sync::Arc;
use std::time::Instant;

use poem::http::Method;
use poem::web::Json;
use poem::{Endpoint, IntoResponse, Request, Response};
use poem_idempotency::{GuardOptions, Idempotency, IdempotencySettings};
use serde_json::{Value, json};

use crate::{BODY, COUNTED_PATH};

/// Nanoseconds per call, fastest block of each.
#[derive(Debug, Clone, Copy)]
pub struct GuardCost {
    pub unwrapped_ns: f64,
    pub wrapped_ns: f64,
}

impl GuardCost {
    pub fn overhead_ns(&self) -> f64 {
        self.wrapped_ns - self.unwrapped_ns
    }
}

/// The fixture's work without poem-openapi around it: parse the JSON body, answer JSON.
struct Echo;

impl Endpoint for Echo {
    type Output = Response;

    async fn call(&self, mut req: Request) -> poem::Result<Response> {
        let body: Value = req.take_body().into_json().await?;
        Ok(Json(json!({ "execution": 1, "echo": body })).into_response())
    }
}

const CALLS_PER_BLOCK: u32 = 10_000;
const BLOCKS: u32 = 25;

pub async fn measure() -> anyhow::Result<GuardCost> {
    let layer = Arc::new(Idempotency::in_process(IdempotencySettings::default()));
    let bare = Echo;
    let wrapped = poem_idempotency::guard(Echo, GuardOptions::default());
    let request = || {
        let mut req = Request::builder()
            .method(Method::POST)
            .uri_str(COUNTED_PATH)
            .content_type("application/json")
            .body(BODY);
        // What the host installs on every request.
        req.set_data(Arc::clone(&layer));
        req
    };

    let mut best_bare = f64::INFINITY;
    let mut best_wrapped = f64::INFINITY;
    // Alternating blocks, so that a burst of other work on the machine hits both alike.
    for _ in 0..BLOCKS {
        let started = Instant::now();
        for _ in 0..CALLS_PER_BLOCK {
            let response = bare.call(request()).await?;
            std::hint::black_box(response);
        }
        best_bare = best_bare.min(started.elapsed().as_nanos() as f64);

        let started = Instant::now();
        for _ in 0..CALLS_PER_BLOCK {
            let response = wrapped.call(request()).await?;
            std::hint::black_box(response);
        }
        best_wrapped = best_wrapped.min(started.elapsed().as_nanos() as f64);
    }
    anyhow::ensure!(
        layer.store().operations() == 0,
        "a request without a key touched the store"
    );
    Ok(GuardCost {
        unwrapped_ns: best_bare / f64::from(CALLS_PER_BLOCK),
        wrapped_ns: best_wrapped / f64::from(CALLS_PER_BLOCK),
    })
}
