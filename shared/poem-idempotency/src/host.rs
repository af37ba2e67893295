//! What the layer needs from the service it guards, as one small trait: who is asking, how a
//! refusal reads, and what work that outlives its client keeps of its request.
//!
//! Every method has a default, so [`DefaultHost`] serves a service without authentication.
//! A service with its own authentication implements [`Host::caller`] (and usually
//! [`Host::require_principal`]); one with its own error format implements [`Host::problem`].
//!
//! ```
//! use poem::Request;
//! use poem_idempotency::{Caller, Host};
//!
//! /// Scopes keys to the user an upstream gateway authenticated.
//! struct GatewayHost;
//!
//! impl Host for GatewayHost {
//!     fn caller(&self, req: &Request) -> Caller {
//!         match req.header("x-authenticated-user") {
//!             Some(user) => Caller::Principal(user.to_owned()),
//!             None => Caller::anonymous(req),
//!         }
//!     }
//! }
//! ```

use std::future::Future;
use std::pin::Pin;

use poem::http::{HeaderValue, StatusCode, header};
use poem::{Request, Response};
use serde::Serialize;

/// Work that goes on after its client left (a guarded execution finishing to store its answer).
pub type DetachedWork = Pin<Box<dyn Future<Output = ()> + Send + 'static>>;

/// Who sent a request, as far as keys are concerned: a key is matched only against keys of the
/// same caller, so two callers can never replay each other's answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Caller {
    /// A caller the service authenticated: the principal's stable id (a user id, a client id).
    Principal(String),
    /// A caller the service did not authenticate: the address (or address group) it comes from.
    Anonymous(String),
}

impl Caller {
    /// An anonymous caller by the request's peer address (without its port). Behind a proxy
    /// this is the proxy's address: a host behind one resolves the client's address itself.
    pub fn anonymous(req: &Request) -> Self {
        let address = match req.remote_addr().as_socket_addr() {
            Some(socket) => socket.ip().to_string(),
            None => req.remote_addr().to_string(),
        };
        Self::Anonymous(address)
    }

    /// The caller as the key's scope writes it; the prefixes keep a principal's id from ever
    /// equalling an address.
    pub(crate) fn scope_subject(&self) -> [&str; 2] {
        match self {
            Self::Principal(id) => ["user:", id],
            Self::Anonymous(address) => ["anon:", address],
        }
    }
}

/// The refusals the layer answers with itself, before or instead of the operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProblemKind {
    /// 400: the `Idempotency-Key` header is malformed.
    KeyInvalid,
    /// 400: the operation requires a key and the request has none.
    KeyMissing,
    /// 422: the key was used with a different request.
    KeyReuse,
    /// 409: a request with the key is still running.
    InProgress,
    /// 503: the store is unreachable and the operation refuses to run unguarded.
    StoreUnavailable,
}

impl ProblemKind {
    /// The problem's `type`, a URI reference relative to the service.
    pub fn type_uri(self) -> &'static str {
        match self {
            Self::KeyInvalid => "/problems/idempotency-key-invalid",
            Self::KeyMissing => "/problems/idempotency-key-missing",
            Self::KeyReuse => "/problems/idempotency-key-reuse",
            Self::InProgress => "/problems/idempotency-request-in-progress",
            Self::StoreUnavailable => "/problems/idempotency-store-unavailable",
        }
    }

    /// The HTTP status.
    pub fn status(self) -> StatusCode {
        match self {
            Self::KeyInvalid | Self::KeyMissing => StatusCode::BAD_REQUEST,
            Self::KeyReuse => StatusCode::UNPROCESSABLE_ENTITY,
            Self::InProgress => StatusCode::CONFLICT,
            Self::StoreUnavailable => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    /// A short summary of the kind.
    pub fn title(self) -> &'static str {
        match self {
            Self::KeyInvalid => "Invalid Idempotency-Key",
            Self::KeyMissing => "Idempotency-Key required",
            Self::KeyReuse => "Idempotency-Key reuse",
            Self::InProgress => "Request in progress",
            Self::StoreUnavailable => "Idempotency store unavailable",
        }
    }

    /// What the client should do about it: the refusal's `detail`, and the text the OpenAPI
    /// document gives its status.
    pub fn detail(self) -> &'static str {
        match self {
            Self::KeyInvalid => "The Idempotency-Key header is malformed.",
            Self::KeyMissing => {
                "This operation requires an Idempotency-Key header: send a unique value per \
                 operation and reuse it on retries."
            }
            Self::KeyReuse => {
                "This Idempotency-Key was already used with a different request. Use a new key \
                 for a new request."
            }
            Self::InProgress => {
                "A request with this Idempotency-Key is still being processed. Retry later with \
                 the same key to get its response."
            }
            Self::StoreUnavailable => {
                "This operation executes only when a retry is sure to be recognised, and the \
                 service cannot reach its idempotency store. Nothing was executed: retry later \
                 with the same key."
            }
        }
    }

    /// Seconds after which a retry may succeed (`Retry-After`), for 409 and 503.
    pub fn retry_after_seconds(self) -> Option<u32> {
        match self {
            Self::InProgress => Some(1),
            Self::StoreUnavailable => Some(5),
            Self::KeyInvalid | Self::KeyMissing | Self::KeyReuse => None,
        }
    }
}

/// One refusal: what [`Host::problem`] renders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdempotencyProblem {
    /// Which refusal.
    pub kind: ProblemKind,
    /// What the client should do about it.
    pub detail: String,
    /// Seconds after which a retry may succeed (`Retry-After`), for 409 and 503.
    pub retry_after_seconds: Option<u32>,
}

/// The media type of [`IdempotencyProblem::to_rfc9457`]'s body.
pub const PROBLEM_JSON: &str = "application/problem+json";

#[derive(Serialize)]
struct ProblemBody<'a> {
    #[serde(rename = "type")]
    problem_type: &'a str,
    title: &'a str,
    status: u16,
    detail: &'a str,
}

/// An RFC 9457 `application/problem+json` response: the one shape of every problem the layer
/// answers itself (its refusals, and a guard reached without the layer).
pub(crate) fn problem_response(
    status: StatusCode,
    problem_type: &str,
    title: &str,
    detail: &str,
) -> Response {
    let body = ProblemBody {
        problem_type,
        title,
        status: status.as_u16(),
        detail,
    };
    Response::builder()
        .status(status)
        .header(header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON))
        .body(serde_json::to_vec(&body).unwrap_or_default())
}

impl IdempotencyProblem {
    /// The problem as an RFC 9457 `application/problem+json` response (`type`, `title`,
    /// `status`, `detail`), with `Retry-After` when it has one.
    pub fn to_rfc9457(&self) -> Response {
        let mut response = problem_response(
            self.kind.status(),
            self.kind.type_uri(),
            self.kind.title(),
            &self.detail,
        );
        self.add_retry_after(&mut response);
        response
    }

    /// Adds `Retry-After` to `response` when the problem has one: for a host rendering the
    /// body its own way.
    pub fn add_retry_after(&self, response: &mut Response) {
        if let Some(seconds) = self.retry_after_seconds {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
    }
}

/// What the layer needs from the service it guards. Install one with
/// [`crate::Idempotency::with_host`]; without, [`DefaultHost`] is used.
pub trait Host: Send + Sync + 'static {
    /// Who sent `req`: the principal the service authenticated, else the client's address.
    /// Runs after the service's authentication middleware (the guard wraps the operation).
    fn caller(&self, req: &Request) -> Caller {
        Caller::anonymous(req)
    }

    /// For an operation with a security requirement, called before the key is read: refuse
    /// (the operation's own 401) a request whose caller the service did not prove, so that it
    /// is never scoped anonymously. The default lets every request through to the operation.
    fn require_principal(&self, req: &Request) -> poem::Result<()> {
        let _ = req;
        Ok(())
    }

    /// Renders one of the layer's refusals. The default is RFC 9457 JSON.
    fn problem(&self, problem: &IdempotencyProblem) -> Response {
        problem.to_rfc9457()
    }

    /// Called in the request's task when its client left while its execution goes on: wrap
    /// `work` in whatever task-local context the service's logs and errors need (a request id).
    /// The request's tracing span is kept already. The default returns `work` as it is.
    fn detach(&self, work: DetachedWork) -> DetachedWork {
        work
    }
}

/// The host of a service without authentication: every caller is scoped by its peer address,
/// refusals are RFC 9457 JSON.
#[derive(Debug, Clone, Copy, Default)]
pub struct DefaultHost;

impl Host for DefaultHost {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_refusal_tells_the_client_what_to_do_and_when_to_retry() {
        for (kind, says, retry_after) in [
            (ProblemKind::KeyInvalid, "malformed", None),
            (ProblemKind::KeyMissing, "requires an Idempotency-Key", None),
            (ProblemKind::KeyReuse, "Use a new key", None),
            (
                ProblemKind::InProgress,
                "Retry later with the same key",
                Some(1),
            ),
            (
                ProblemKind::StoreUnavailable,
                "Nothing was executed",
                Some(5),
            ),
        ] {
            assert!(kind.detail().contains(says), "{kind:?}: {}", kind.detail());
            assert_eq!(kind.retry_after_seconds(), retry_after, "{kind:?}");
        }
    }

    #[test]
    fn a_principal_and_an_address_never_share_a_scope() {
        let user = Caller::Principal("10.0.0.1".to_owned());
        let address = Caller::Anonymous("10.0.0.1".to_owned());

        assert_eq!(user.scope_subject().concat(), "user:10.0.0.1");
        assert_eq!(address.scope_subject().concat(), "anon:10.0.0.1");
    }

    #[test]
    fn each_refusal_has_its_type_status_and_title() {
        let kinds = [
            ProblemKind::KeyInvalid,
            ProblemKind::KeyMissing,
            ProblemKind::KeyReuse,
            ProblemKind::InProgress,
            ProblemKind::StoreUnavailable,
        ];

        let described: Vec<(&str, u16, &str)> = kinds
            .into_iter()
            .map(|kind| (kind.type_uri(), kind.status().as_u16(), kind.title()))
            .collect();

        assert_eq!(
            described,
            [
                (
                    "/problems/idempotency-key-invalid",
                    400,
                    "Invalid Idempotency-Key"
                ),
                (
                    "/problems/idempotency-key-missing",
                    400,
                    "Idempotency-Key required"
                ),
                (
                    "/problems/idempotency-key-reuse",
                    422,
                    "Idempotency-Key reuse"
                ),
                (
                    "/problems/idempotency-request-in-progress",
                    409,
                    "Request in progress"
                ),
                (
                    "/problems/idempotency-store-unavailable",
                    503,
                    "Idempotency store unavailable"
                ),
            ]
        );
    }

    #[test]
    fn the_default_host_lets_every_caller_through_to_the_operation() {
        // Its scope by peer address is tried over a socket in the crate's tests (tests/orders.rs).
        let request = Request::builder().finish();

        assert!(DefaultHost.require_principal(&request).is_ok());
    }

    #[tokio::test]
    async fn a_problem_without_retry_after_sends_none() {
        let problem = IdempotencyProblem {
            kind: ProblemKind::KeyReuse,
            detail: "Use a new key.".to_owned(),
            retry_after_seconds: None,
        };

        let response = DefaultHost.problem(&problem);

        assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert!(response.headers().get(header::RETRY_AFTER).is_none());
    }

    #[tokio::test]
    async fn the_default_problem_is_rfc_9457_json_with_retry_after() {
        let problem = IdempotencyProblem {
            kind: ProblemKind::InProgress,
            detail: "Retry later.".to_owned(),
            retry_after_seconds: Some(1),
        };

        let response = DefaultHost.problem(&problem);

        assert_eq!(response.status(), StatusCode::CONFLICT);
        assert_eq!(response.headers()[header::CONTENT_TYPE], PROBLEM_JSON);
        assert_eq!(response.headers()[header::RETRY_AFTER], "1");
        let body: serde_json::Value =
            serde_json::from_slice(&response.into_body().into_bytes().await.unwrap()).unwrap();
        assert_eq!(
            body,
            serde_json::json!({
                "type": "/problems/idempotency-request-in-progress",
                "title": "Request in progress",
                "status": 409,
                "detail": "Retry later.",
            })
        );
    }
}
