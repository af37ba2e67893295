//! The context of the request being served, readable from anywhere on its task.
//!
//! Problem responses must cite the request id and the path (`instance`), but many of them are
//! built far from the request (inside `ResponseError::as_response`, in a panic handler). A
//! task-local set once by the outermost middleware reaches all of them without threading
//! arguments through every signature.

use std::future::Future;

tokio::task_local! {
    static CURRENT: RequestContext;
}

/// Identifies the request being served.
#[derive(Debug, Clone)]
pub struct RequestContext {
    /// The `X-Request-Id` taken from the request or generated for it.
    pub request_id: String,
    /// The request path, used as the problem's `instance`.
    pub path: String,
}

impl RequestContext {
    /// Runs `fut` with `self` as the current context.
    pub fn scope<F: Future>(self, fut: F) -> impl Future<Output = F::Output> {
        CURRENT.scope(self, fut)
    }

    /// The context of the request on this task, if any.
    pub fn current() -> Option<RequestContext> {
        CURRENT.try_with(Clone::clone).ok()
    }
}
