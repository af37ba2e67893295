//! The service's own middleware, in the order the host stacks them (outermost first; the whole
//! stack, with poem's layers between these, is written once in `app/src/middleware.rs`):
//!
//! - [`ResolveClient`]: works out the client's address once (from trusted proxies' forwarding
//!   header, or the peer) for everything after it;
//! - [`AnswerAllow`]: adds the `Allow` header to 405 answers;
//! - [`observe`]: takes or makes the `X-Request-Id`, opens the request span, sets the
//!   [`RequestContext`], turns every error into RFC 9457 problem details, echoes the id and
//!   logs the outcome with the route template, status and latency;
//! - [`refuse_nul_in_url`]: an encoded NUL in the path or query answers 400;
//! - [`Authenticate`]: the one authentication step, whose outcome every later step reads;
//! - [`panic_as_problem`] (poem's `CatchPanic`): a panicking handler answers a bare 500 problem,
//!   no internals;
//! - [`BodyLimit`]: bodies over `server.body_limit_bytes` answer 413, however they are framed.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt as _, LengthLimitError, Limited};
use kernel::{
    Authentication, Authenticator, ClientAddress, ClientAddressResolver, Problem, RequestContext,
};
use poem::http::{HeaderValue, StatusCode, Version, header};
use poem::{Endpoint, IntoResponse, Middleware, PathPattern, Request, Response};
use tracing::Instrument;

/// The request-id header, read from clients and echoed on every response.
pub const REQUEST_ID: &str = "x-request-id";

/// Outermost middleware: request id, span, problem details, access log.
pub async fn observe<E: Endpoint>(next: Arc<E>, req: Request) -> poem::Result<Response> {
    let started = Instant::now();
    let request_id = req
        .headers()
        .get(REQUEST_ID)
        .and_then(|value| value.to_str().ok())
        .filter(|id| is_acceptable_request_id(id))
        .map(str::to_owned)
        .unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    let context = RequestContext {
        request_id: request_id.clone(),
        path: req.uri().path().to_owned(),
    };
    let method = req.method().clone();
    let span = tracing::info_span!(
        "request",
        http.request.method = %method,
        http.route = tracing::field::Empty,
        http.response.status_code = tracing::field::Empty,
        request_id = %request_id,
        client.address = %ClientAddress::of(&req),
        idempotency = tracing::field::Empty,
    );

    let mut response = context
        .scope(
            async move {
                match Box::pin(next.call(req)).await {
                    Ok(response) => response.into_response(),
                    Err(err) => problem_from_error(err),
                }
            }
            .instrument(span.clone()),
        )
        .await;

    let route = response
        .data::<PathPattern>()
        .map(|pattern| pattern.0.to_string())
        .unwrap_or_else(|| "unmatched".to_owned());
    let status = response.status().as_u16();
    span.record("http.route", route.as_str());
    // An integer attribute, as OpenTelemetry's HTTP conventions have it (a u64 would be
    // exported as text).
    span.record("http.response.status_code", i64::from(status));
    let latency_ms = started.elapsed().as_secs_f64() * 1000.0;
    tracing::info!(parent: &span, %method, route, status, latency_ms, "request completed");

    if let Ok(value) = HeaderValue::from_str(&request_id) {
        response.headers_mut().insert(REQUEST_ID, value);
    }
    Ok(response)
}

/// Accepts a client's request id only when it is short, visible ASCII: it is logged and echoed.
fn is_acceptable_request_id(id: &str) -> bool {
    (1..=128).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_graphic())
}

/// Renders any error as problem details. The application's own errors (`AppError` and every
/// operation's error type around it) render themselves through `AppError`'s one mapping; the
/// framework's (bad JSON, unknown route, wrong method, ...) keep their status and headers and
/// get a problem body in place of their plain-text one.
pub fn problem_from_error(err: poem::Error) -> Response {
    let status = err.status();
    let message = err.to_string();
    let mut response = err.into_response();
    let is_problem = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|value| value.as_bytes() == kernel::problem::PROBLEM_JSON.as_bytes());
    if is_problem {
        return response;
    }
    let detail = match status {
        StatusCode::NOT_FOUND => "No resource exists at this path.".to_owned(),
        StatusCode::METHOD_NOT_ALLOWED => "This resource does not accept this method.".to_owned(),
        StatusCode::PAYLOAD_TOO_LARGE => {
            "The request body is larger than this service accepts.".to_owned()
        }
        StatusCode::UNAUTHORIZED => "The access token is missing, expired or invalid.".to_owned(),
        s if s.is_server_error() => {
            tracing::error!(error = %message, "request failed");
            kernel::problem::SERVER_ERROR_DETAIL.to_owned()
        }
        _ => message,
    };
    let problem = Problem::from_status(status).with_detail(detail);
    let body = Problem::into_response(problem);
    response.set_body(body.into_body());
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(kernel::problem::PROBLEM_JSON),
    );
    if status == StatusCode::UNAUTHORIZED {
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    }
    response
}

/// The response to a panicking handler: a 500 problem that reveals nothing of the panic.
pub fn panic_as_problem(panic: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let message = panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    tracing::error!(panic = %message, "handler panicked");
    Problem::from_status(StatusCode::INTERNAL_SERVER_ERROR)
        .with_detail(kernel::problem::SERVER_ERROR_DETAIL)
        .into_response()
}

/// The one authentication step: parses the `Authorization` header, verifies the token once,
/// and puts the [`Authentication`] in the request data for everything after it (the operations'
/// `BearerAuth`, the idempotency guard's key scope). It refuses nothing itself: whether an
/// operation needs a caller is the operation's to say.
#[derive(Debug, Clone)]
pub struct Authenticate(pub Arc<Authenticator>);

impl<E: Endpoint> Middleware<E> for Authenticate {
    type Output = AuthenticateEndpoint<E>;

    fn transform(&self, inner: E) -> Self::Output {
        AuthenticateEndpoint {
            inner,
            authenticator: Arc::clone(&self.0),
        }
    }
}

pub struct AuthenticateEndpoint<E> {
    inner: E,
    authenticator: Arc<Authenticator>,
}

impl<E: Endpoint> Endpoint for AuthenticateEndpoint<E> {
    type Output = E::Output;

    async fn call(&self, mut req: Request) -> poem::Result<Self::Output> {
        let authentication = self.authenticator.authenticate(req.headers()).await;
        if let Authentication::Refused(refusal) = &authentication {
            // The reason is for operators; the client only ever learns "invalid".
            tracing::debug!(?refusal, "credentials refused");
        }
        req.set_data(authentication);
        Box::pin(self.inner.call(req)).await
    }
}

/// Resolves the request's [`ClientAddress`] (see [`ClientAddressResolver`]) and stores it in
/// the request, where [`ClientAddress::of`] finds it: computed once, so the access log, the rate
/// limits and the idempotency scope cannot disagree about who the client is.
#[derive(Debug, Clone)]
pub struct ResolveClient(pub Arc<ClientAddressResolver>);

impl<E: Endpoint> Middleware<E> for ResolveClient {
    type Output = ResolveClientEndpoint<E>;

    fn transform(&self, inner: E) -> Self::Output {
        ResolveClientEndpoint {
            inner,
            resolver: Arc::clone(&self.0),
        }
    }
}

pub struct ResolveClientEndpoint<E> {
    inner: E,
    resolver: Arc<ClientAddressResolver>,
}

impl<E: Endpoint> Endpoint for ResolveClientEndpoint<E> {
    type Output = E::Output;

    async fn call(&self, mut req: Request) -> poem::Result<Self::Output> {
        let peer = req
            .remote_addr()
            .as_socket_addr()
            .map(|address| address.ip());
        let client = self.resolver.resolve(peer, req.headers());
        req.extensions_mut().insert(client);
        Box::pin(self.inner.call(req)).await
    }
}

/// The methods each documented path accepts: what the `Allow` header of a 405 answer lists
/// (RFC 9110 §15.5.6: a 405 must say which methods would have worked).
#[derive(Debug, Clone, Default)]
pub struct AllowedMethods {
    routes: Vec<(Vec<Option<String>>, HeaderValue)>,
}

impl AllowedMethods {
    /// From an OpenAPI document: each path template (`/api/v1/things/{id}`, a `{...}` segment
    /// matching any one segment) with the methods it lists.
    pub fn from_openapi(document: &serde_json::Value) -> Self {
        const METHODS: [&str; 8] = [
            "get", "head", "options", "post", "put", "patch", "delete", "trace",
        ];
        let routes = document["paths"]
            .as_object()
            .into_iter()
            .flatten()
            .filter_map(|(template, item)| {
                let methods: Vec<String> = METHODS
                    .iter()
                    .filter(|method| item.get(**method).is_some())
                    .map(|method| method.to_ascii_uppercase())
                    .collect();
                let allow = HeaderValue::from_str(&methods.join(", ")).ok()?;
                let segments = template
                    .split('/')
                    .map(|segment| {
                        (!(segment.starts_with('{') && segment.ends_with('}')))
                            .then(|| segment.to_owned())
                    })
                    .collect();
                Some((segments, allow))
            })
            .collect();
        Self { routes }
    }

    /// The `Allow` value for a request path, if a documented template matches it.
    pub fn allow(&self, path: &str) -> Option<&HeaderValue> {
        let segments: Vec<&str> = path.split('/').collect();
        self.routes
            .iter()
            .find(|(template, _)| {
                template.len() == segments.len()
                    && template.iter().zip(&segments).all(|(expected, actual)| {
                        expected.as_deref().is_none_or(|literal| literal == *actual)
                    })
            })
            .map(|(_, allow)| allow)
    }
}

/// Refuses a URL whose path or query holds an encoded NUL character (`%00`) with a 400 problem.
///
/// No field of this API takes one, and PostgreSQL cannot even compare text with one: a NUL
/// reaching a query would be a 500 there (and a silent "not found" on SQLite). The document
/// says so: every string path and query parameter carries the pattern `^[^\x00]*$`.
pub async fn refuse_nul_in_url<E: Endpoint>(next: Arc<E>, req: Request) -> poem::Result<Response> {
    let uri = req.uri();
    if uri.path().contains("%00") || uri.query().is_some_and(|query| query.contains("%00")) {
        return Ok(Problem::from_status(StatusCode::BAD_REQUEST)
            .with_detail("The URL holds a NUL character (%00), which no parameter accepts.")
            .into_response());
    }
    Ok(next.call(req).await?.into_response())
}

/// Adds the `Allow` header to 405 answers, from [`AllowedMethods`].
#[derive(Debug, Clone)]
pub struct AnswerAllow(pub Arc<AllowedMethods>);

impl<E: Endpoint> Middleware<E> for AnswerAllow {
    type Output = AnswerAllowEndpoint<E>;

    fn transform(&self, inner: E) -> Self::Output {
        AnswerAllowEndpoint {
            inner,
            allowed: Arc::clone(&self.0),
        }
    }
}

pub struct AnswerAllowEndpoint<E> {
    inner: E,
    allowed: Arc<AllowedMethods>,
}

impl<E: Endpoint> Endpoint for AnswerAllowEndpoint<E> {
    type Output = Response;

    async fn call(&self, req: Request) -> poem::Result<Response> {
        // A clone of the URI shares its bytes: no allocation on every request for the rare 405.
        let uri = req.uri().clone();
        let mut response = self.inner.call(req).await?.into_response();
        if response.status() == StatusCode::METHOD_NOT_ALLOWED
            && let Some(allow) = self.allowed.allow(uri.path())
        {
            response.headers_mut().insert(header::ALLOW, allow.clone());
        }
        Ok(response)
    }
}

/// Refuses request bodies over a size with 413, however they are framed.
///
/// A declared `Content-Length` over the limit is refused before the body is read (and one within
/// it needs nothing more: the protocol layers hold a body to its declared length). Every body
/// without one (HTTP/1.1 chunked, HTTP/2 without `content-length`) is counted while it is read:
/// whoever reads it (an extractor, the idempotency guard) gets an error at the first byte over
/// the limit, and the answer becomes 413 whatever that reader made of the error. Nothing ever
/// buffers more than the limit.
#[derive(Debug, Clone, Copy)]
pub struct BodyLimit(pub usize);

impl<E: Endpoint> Middleware<E> for BodyLimit {
    type Output = BodyLimitEndpoint<E>;

    fn transform(&self, inner: E) -> Self::Output {
        BodyLimitEndpoint {
            inner,
            limit: self.0,
        }
    }
}

pub struct BodyLimitEndpoint<E> {
    inner: E,
    limit: usize,
}

impl<E: Endpoint> Endpoint for BodyLimitEndpoint<E> {
    type Output = E::Output;

    async fn call(&self, mut req: Request) -> poem::Result<Self::Output> {
        let declared = req
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        match declared {
            Some(length) if length > self.limit as u64 => return Err(too_large()),
            // hyper (HTTP/1.1) and h2 (HTTP/2) both refuse a body longer than its declared
            // length, so a declared length within the limit bounds the body already.
            Some(_) => return self.inner.call(req).await,
            // An HTTP/1.x request with neither header has no body at all.
            None if req.version() < Version::HTTP_2
                && !req.headers().contains_key(header::TRANSFER_ENCODING) =>
            {
                return self.inner.call(req).await;
            }
            None => {}
        }
        let exceeded = Arc::new(AtomicBool::new(false));
        let body = limited(req.take_body(), self.limit, Arc::clone(&exceeded));
        req.set_body(body);
        let result = self.inner.call(req).await;
        if exceeded.load(Ordering::Acquire) {
            // The reader may have mapped the read error to anything (a 400 for bad JSON, a
            // 500): the truth is that the body was too large.
            return Err(too_large());
        }
        result
    }
}

fn too_large() -> poem::Error {
    poem::Error::from_status(StatusCode::PAYLOAD_TOO_LARGE)
}

/// `body`, failing at the first byte past `limit` and recording that it did in `exceeded`.
fn limited(body: poem::Body, limit: usize, exceeded: Arc<AtomicBool>) -> poem::Body {
    let boxed: BoxBody<Bytes, std::io::Error> = body.into();
    let counted = Limited::new(boxed, limit).map_err(move |err| {
        if err.is::<LengthLimitError>() {
            exceeded.store(true, Ordering::Release);
        }
        std::io::Error::other(err)
    });
    BoxBody::new(counted).into()
}
