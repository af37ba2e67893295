//! The service's own middleware, in the order the host stacks them (outermost first; the whole
//! stack, with poem's layers between these, is written once in `app/src/middleware.rs`):
//!
//! - [`FrontDoor`]: what every request meets first and its answer leaves through last. It
//!   works out the client's address once (from trusted proxies' forwarding header, or the
//!   peer), takes or makes the `X-Request-Id`, opens the request span, sets the
//!   [`RequestContext`], refuses an encoded NUL in the URL, and on the way out turns every error
//!   into RFC 9457 problem details, adds `Allow` to a 405, echoes the id, logs the outcome with
//!   the route template, status and latency, and names the instance when configured;
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
use poem::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Uri, Version, header};
use poem::{Endpoint, IntoResponse, Middleware, PathPattern, Request, Response};
use tracing::Instrument;

/// The request-id header, read from clients and echoed on every response.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The response header that names the instance that answered (`server.instance_header`).
pub const INSTANCE_ID: HeaderName = HeaderName::from_static("x-instance-id");

/// The outermost layer (see the module's note for its steps).
///
/// One layer rather than five: each layer costs every request a future, its moves and a few
/// allocations, and these steps share what they compute (the client, the id, the URI), so the
/// stack's own cost fell by a tenth when they were merged (docs/benchmarks.md). Each step is
/// still a function of its own below.
#[derive(Debug, Clone)]
pub struct FrontDoor {
    clients: Arc<ClientAddressResolver>,
    allowed: Arc<AllowedMethods>,
    instance: Option<HeaderValue>,
}

impl FrontDoor {
    /// `clients` resolves each request's [`ClientAddress`]; `allowed` lists what a 405's
    /// `Allow` header says.
    pub fn new(clients: Arc<ClientAddressResolver>, allowed: Arc<AllowedMethods>) -> Self {
        Self {
            clients,
            allowed,
            instance: None,
        }
    }

    /// Names the answering instance in [`INSTANCE_ID`] on every answer, a problem included.
    pub fn naming_instance(mut self, instance: HeaderValue) -> Self {
        self.instance = Some(instance);
        self
    }

    /// `Allow` on a 405, the request id echoed, the instance named when configured.
    fn add_answer_headers(&self, response: &mut Response, path: &str, request_id: HeaderValue) {
        let refused_method = response.status() == StatusCode::METHOD_NOT_ALLOWED;
        let headers = response.headers_mut();
        if refused_method && let Some(allow) = self.allowed.allow(path) {
            headers.insert(header::ALLOW, allow.clone());
        }
        headers.insert(REQUEST_ID, request_id);
        if let Some(instance) = &self.instance {
            headers.insert(INSTANCE_ID, instance.clone());
        }
    }
}

/// The route template and status on the request's span, and the access-log line (formatted
/// only when it is recorded).
fn record_outcome(span: &tracing::Span, method: &Method, response: &Response, started: Instant) {
    let route = response
        .data::<PathPattern>()
        .map_or("unmatched", |pattern| &*pattern.0);
    let status = response.status().as_u16();
    span.record("http.route", route);
    // An integer attribute, as OpenTelemetry's HTTP conventions have it (a u64 would be
    // exported as text).
    span.record("http.response.status_code", i64::from(status));
    tracing::info!(
        parent: span,
        %method,
        route,
        status,
        latency_ms = started.elapsed().as_secs_f64() * 1000.0,
        "request completed"
    );
}

impl<E: Endpoint> Middleware<E> for FrontDoor {
    type Output = FrontDoorEndpoint<E>;

    fn transform(&self, inner: E) -> Self::Output {
        FrontDoorEndpoint {
            inner,
            door: self.clone(),
        }
    }
}

pub struct FrontDoorEndpoint<E> {
    inner: E,
    door: FrontDoor,
}

impl<E: Endpoint> Endpoint for FrontDoorEndpoint<E> {
    type Output = Response;

    async fn call(&self, mut req: Request) -> poem::Result<Response> {
        let started = Instant::now();
        let client = resolve_client(&self.door.clients, &mut req);
        let request_id = taken_or_new_request_id(req.headers());
        let method = req.method().clone();
        // A clone of the URI shares its bytes: the context, the NUL check and a 405's `Allow`
        // read it without copying the path.
        let uri = req.uri().clone();
        // The fields are formatted only when the span is recorded.
        let span = tracing::info_span!(
            "request",
            http.request.method = %method,
            http.route = tracing::field::Empty,
            http.response.status_code = tracing::field::Empty,
            request_id = request_id.to_str().unwrap_or_default(),
            client.address = %client,
            idempotency = tracing::field::Empty,
        );
        let context = RequestContext::new(request_id.clone(), uri.clone());

        let inner = &self.inner;
        let holds_nul = url_holds_nul(&uri);
        let mut response = context
            .scope(
                async move {
                    if holds_nul {
                        return nul_in_url_problem();
                    }
                    // Boxed: an async layer holds its inner future in its own state, and the
                    // whole stack's would be moved with this one (ARCHITECTURE.md).
                    match Box::pin(inner.call(req)).await {
                        Ok(response) => response.into_response(),
                        Err(err) => problem_from_error(err),
                    }
                }
                .instrument(span.clone()),
            )
            .await;

        record_outcome(&span, &method, &response, started);
        self.door
            .add_answer_headers(&mut response, uri.path(), request_id);
        Ok(response)
    }
}

/// Resolves the request's [`ClientAddress`] (see [`ClientAddressResolver`]) and stores it in
/// the request, where [`ClientAddress::of`] finds it: computed once, so the access log, the rate
/// limits and the idempotency scope cannot disagree about who the client is.
fn resolve_client(resolver: &ClientAddressResolver, req: &mut Request) -> ClientAddress {
    let peer = req
        .remote_addr()
        .as_socket_addr()
        .map(|address| address.ip());
    let client = resolver.resolve(peer, req.headers());
    req.extensions_mut().insert(client);
    client
}

/// The client's `X-Request-Id` when it is acceptable, else a new one (a UUID).
fn taken_or_new_request_id(headers: &HeaderMap) -> HeaderValue {
    if let Some(id) = headers
        .get(REQUEST_ID)
        .filter(|id| is_acceptable_request_id(id.as_bytes()))
    {
        return id.clone();
    }
    let mut text = [0u8; uuid::fmt::Hyphenated::LENGTH];
    let id = uuid::Uuid::new_v4().hyphenated().encode_lower(&mut text);
    HeaderValue::from_str(id).expect("a UUID is a valid header value")
}

/// Accepts a client's request id only when it is short, visible ASCII: it is logged and echoed.
fn is_acceptable_request_id(id: &[u8]) -> bool {
    (1..=128).contains(&id.len()) && id.iter().all(u8::is_ascii_graphic)
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

/// Whether the URL's path or query holds an encoded NUL character (`%00`): answered with
/// [`nul_in_url_problem`].
///
/// No field of this API takes one, and PostgreSQL cannot even compare text with one: a NUL
/// reaching a query would be a 500 there (and a silent "not found" on SQLite). The document
/// says so: every string path and query parameter carries the pattern `^[^\x00]*$`.
fn url_holds_nul(uri: &Uri) -> bool {
    uri.path().contains("%00") || uri.query().is_some_and(|query| query.contains("%00"))
}

/// The 400 problem for a URL holding a NUL, made inside the request's context (which it cites).
fn nul_in_url_problem() -> Response {
    Problem::from_status(StatusCode::BAD_REQUEST)
        .with_detail("The URL holds a NUL character (%00), which no parameter accepts.")
        .into_response()
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
