//! The template's side of the idempotency layer's contract ([`poem_idempotency::Host`]): keys are
//! scoped to the principal the authentication middleware proved, else to the client's address
//! as the trusted proxies give it; refusals are the service's own problem details (with the
//! request id and path); an execution that outlives its client keeps the request's context.

use kernel::{Authentication, Problem, RequestContext, client_address};
use poem::{IntoResponse as _, Request, Response};
use poem_idempotency::host::{Caller, DetachedWork, Host, IdempotencyProblem};

/// What [`poem_idempotency::Idempotency::with_host`] is given by the host in `app/`.
#[derive(Debug, Clone, Copy, Default)]
pub struct ServiceHost;

impl Host for ServiceHost {
    fn caller(&self, req: &Request) -> Caller {
        match Authentication::of(req).and_then(Authentication::principal) {
            Some(principal) => Caller::Principal(principal.subject.clone()),
            None => Caller::Anonymous(client_address(req)),
        }
    }

    fn require_principal(&self, req: &Request) -> poem::Result<()> {
        // The same refusal the operation's security scheme gives, from the same outcome.
        Authentication::of(req)
            .unwrap_or(&Authentication::Anonymous)
            .require_principal()?;
        Ok(())
    }

    fn problem(&self, problem: &IdempotencyProblem) -> Response {
        let kind = problem.kind;
        let mut response = Problem::new(kind.status(), kind.type_uri(), kind.title())
            .with_detail(problem.detail.clone())
            .into_response();
        problem.add_retry_after(&mut response);
        response
    }

    fn detach(&self, work: DetachedWork) -> DetachedWork {
        match RequestContext::current() {
            Some(context) => Box::pin(context.scope(work)),
            None => work,
        }
    }
}
