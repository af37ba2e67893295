//! The hooks every generated operation calls: the key, the body's media type, the access token
//! and the retries.

use std::time::Duration;

use backon::{ExponentialBuilder, Retryable as _};
use progenitor_client::{ClientHooks, ClientInfo as _, OperationInfo, ResponseValue};
use reqwest::header::{AUTHORIZATION, CONTENT_TYPE, HeaderName, HeaderValue, RETRY_AFTER};
use reqwest::{Method, StatusCode};

use crate::Client;
use crate::generated::declared;

/// The request header that carries a call's key.
const IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("idempotency-key");
/// The response header the service sets on a replayed answer.
const IDEMPOTENT_REPLAY: &str = "x-idempotent-replay";

/// How the client behaves beyond the document: its access token and its retries.
#[derive(Debug, Clone, Default)]
pub struct ClientOptions {
    /// Sent as `Authorization: Bearer ...` with every request that has no `Authorization` of
    /// its own.
    pub access_token: Option<String>,
    /// What is retried, how often and how long.
    pub retry: RetryPolicy,
}

impl ClientOptions {
    /// The defaults, with `token` as the access token.
    pub fn with_access_token(token: impl Into<String>) -> Self {
        Self {
            access_token: Some(token.into()),
            ..Self::default()
        }
    }
}

/// The retry budget of one call of an idempotent or safe operation.
///
/// Pauses grow from `first_delay`, doubling, each one a random share of its bound (full jitter,
/// so that clients that failed together do not retry together), never above `max_delay`; a
/// `Retry-After` from the service replaces the pause (capped the same way). The call ends with
/// the last answer or error once `max_attempts` are spent or the pauses would pass
/// `max_total_delay`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all, the first included (default 5; 1 never retries).
    pub max_attempts: usize,
    /// The bound of the first pause (default 100 ms).
    pub first_delay: Duration,
    /// The longest pause (default 5 s).
    pub max_delay: Duration,
    /// The most time spent pausing over one call (default 30 s).
    pub max_total_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_attempts: 5,
            first_delay: Duration::from_millis(100),
            max_delay: Duration::from_secs(5),
            max_total_delay: Duration::from_secs(30),
        }
    }
}

impl RetryPolicy {
    /// One attempt, no retry.
    pub fn never() -> Self {
        Self {
            max_attempts: 1,
            ..Self::default()
        }
    }

    fn backoff(&self) -> ExponentialBuilder {
        ExponentialBuilder::default()
            .with_min_delay(self.first_delay)
            .with_max_delay(self.max_delay)
            .with_max_times(self.max_attempts.saturating_sub(1))
            .with_total_delay(Some(self.max_total_delay))
            .with_jitter()
    }
}

/// Whether the service answered `response` from its store: a retry of a call that had already
/// taken effect.
pub fn was_replayed<T>(response: &ResponseValue<T>) -> bool {
    response
        .headers()
        .get(IDEMPOTENT_REPLAY)
        .is_some_and(|value| value.as_bytes() == b"true")
}

/// Auto-ref specialisation: the generated code calls these hooks on `&Client`, which finds
/// this implementation for `Client` before progenitor's empty default for `&Client`.
impl ClientHooks<ClientOptions> for Client {
    async fn pre<E>(
        &self,
        request: &mut reqwest::Request,
        info: &OperationInfo,
    ) -> Result<(), progenitor_client::Error<E>> {
        let headers = request.headers_mut();
        if let Some(token) = &self.inner().access_token
            && !headers.contains_key(AUTHORIZATION)
        {
            let value = HeaderValue::try_from(format!("Bearer {token}"))?;
            headers.insert(AUTHORIZATION, value);
        }
        if declared::MERGE_PATCH.contains(&info.operation_id) {
            // Generated as JSON (progenitor knows no other JSON media type); sent as declared.
            headers.insert(
                CONTENT_TYPE,
                HeaderValue::from_static("application/merge-patch+json"),
            );
        }
        if declared::IDEMPOTENT.contains(&info.operation_id)
            && !headers.contains_key(IDEMPOTENCY_KEY)
        {
            // Set once per call, before `exec`: every retry carries the same key.
            let key = uuid::Uuid::new_v4().to_string();
            headers.insert(IDEMPOTENCY_KEY, HeaderValue::try_from(key)?);
        }
        Ok(())
    }

    async fn exec(
        &self,
        request: reqwest::Request,
        info: &OperationInfo,
    ) -> reqwest::Result<reqwest::Response> {
        let safe = matches!(*request.method(), Method::GET | Method::HEAD);
        if !(safe || declared::IDEMPOTENT.contains(&info.operation_id)) {
            return self.client().execute(request).await;
        }
        execute_retrying(self.client(), request, &self.inner().retry).await
    }
}

/// One failed attempt, as the retry loop sees it.
enum Failed {
    /// The connection failed, was reset or timed out: retried.
    Transport(reqwest::Error),
    /// Any other client error: not retried.
    Other(reqwest::Error),
    /// An answer that asks to be tried again (see [`asks_for_a_retry`]), with its
    /// `Retry-After`: retried, and given back as the answer if the budget runs out.
    Answer(reqwest::Response, Option<Duration>),
}

impl Failed {
    fn is_retried(&self) -> bool {
        !matches!(self, Failed::Other(_))
    }
}

/// Sends `request` until it gets an answer worth keeping or the budget runs out.
async fn execute_retrying(
    client: &reqwest::Client,
    request: reqwest::Request,
    policy: &RetryPolicy,
) -> reqwest::Result<reqwest::Response> {
    if request.try_clone().is_none() {
        // A streamed body cannot be sent twice.
        return client.execute(request).await;
    }
    let attempt = || async {
        let copy = request.try_clone().expect("a body in memory clones");
        match client.execute(copy).await {
            Ok(response) if asks_for_a_retry(&response) => {
                let retry_after = retry_after(&response);
                Err(Failed::Answer(response, retry_after))
            }
            Ok(response) => Ok(response),
            Err(err) if is_transient(&err) => Err(Failed::Transport(err)),
            Err(err) => Err(Failed::Other(err)),
        }
    };
    let max_delay = policy.max_delay;
    let outcome = attempt
        .retry(policy.backoff())
        .when(Failed::is_retried)
        .adjust(move |failed, next| match failed {
            // The service's own estimate replaces the backoff's, while the budget lasts.
            Failed::Answer(_, Some(retry_after)) => next.map(|_| (*retry_after).min(max_delay)),
            _ => next,
        })
        .await;
    match outcome {
        Ok(response) | Err(Failed::Answer(response, _)) => Ok(response),
        Err(Failed::Transport(err) | Failed::Other(err)) => Err(err),
    }
}

/// A gateway or the service saying "not now": 502, 503 and 504 always; 408; a 409 (a call
/// with this key still running) or a 429 only with a `Retry-After`, since a 409 without one is
/// a conflict no retry resolves.
fn asks_for_a_retry(response: &reqwest::Response) -> bool {
    match response.status() {
        StatusCode::BAD_GATEWAY
        | StatusCode::SERVICE_UNAVAILABLE
        | StatusCode::GATEWAY_TIMEOUT
        | StatusCode::REQUEST_TIMEOUT => true,
        StatusCode::CONFLICT | StatusCode::TOO_MANY_REQUESTS => {
            response.headers().contains_key(RETRY_AFTER)
        }
        _ => false,
    }
}

/// `Retry-After` in seconds (the form the service sends; a date is left to the backoff).
fn retry_after(response: &reqwest::Response) -> Option<Duration> {
    let seconds = response.headers().get(RETRY_AFTER)?.to_str().ok()?;
    seconds.trim().parse().ok().map(Duration::from_secs)
}

/// A failure of the exchange itself, which the same request may not meet again: a connection
/// refused or reset, a request cut off before its answer, a timeout.
fn is_transient(err: &reqwest::Error) -> bool {
    err.is_connect() || err.is_timeout() || err.is_request() || err.is_body()
}
