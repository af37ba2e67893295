//! The context of the request being served, readable from anywhere on its task.
//!
//! Problem responses must cite the request id and the path (`instance`), but many of them are
//! built far from the request (inside `ResponseError::as_response`, in a panic handler). A
//! task-local set once by the outermost middleware reaches all of them without threading
//! arguments through every signature.

use std::future::Future;

use poem::http::{HeaderValue, Uri};

tokio::task_local! {
    static CURRENT: RequestContext;
}

/// Identifies the request being served. Cheap to clone: both parts share their bytes.
#[derive(Debug, Clone)]
pub struct RequestContext {
    request_id: HeaderValue,
    uri: Uri,
}

impl RequestContext {
    /// The context of a request known by `request_id` (visible ASCII: the host checks a
    /// client's before taking it) for `uri`.
    pub fn new(request_id: HeaderValue, uri: Uri) -> Self {
        Self { request_id, uri }
    }

    /// The `X-Request-Id` taken from the request or generated for it.
    pub fn request_id(&self) -> &str {
        self.request_id.to_str().unwrap_or_default()
    }

    /// The request path, used as the problem's `instance`.
    pub fn path(&self) -> &str {
        self.uri.path()
    }

    /// Runs `fut` with `self` as the current context.
    pub fn scope<F: Future>(self, fut: F) -> impl Future<Output = F::Output> {
        CURRENT.scope(self, fut)
    }

    /// The context of the request on this task, if any.
    pub fn current() -> Option<RequestContext> {
        CURRENT.try_with(Clone::clone).ok()
    }
}
