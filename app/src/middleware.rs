//! The middleware stack, written once, outermost first: a request meets the layers in the order
//! [`stack`] lists them and its answer leaves through them in reverse. `ARCHITECTURE.md` (the
//! life of a request) and the note opening `infra::http` name them in the same order, and a test
//! (`tests/e2e/architecture.rs`) fails when either parts from what [`Stack::layers`] says is served.

use std::sync::Arc;

use infra::http::{
    AllowedMethods, AnswerAllow, Authenticate, BodyLimit, ResolveClient, observe, panic_as_problem,
    refuse_nul_in_url,
};
use kernel::{Authenticator, ClientAddressResolver};
use poem::endpoint::BoxEndpoint;
use poem::middleware::{CatchPanic, Cors, SetHeader};
use poem::{Endpoint, EndpointExt, Middleware, Route};
use poem_idempotency::Idempotency;

/// The response header that names the instance that answered (`server.instance_header`).
pub const INSTANCE_ID: &str = "x-instance-id";

/// What the layers need, built by the steps before.
pub struct Layers {
    /// `server.instance_header`: name the answering instance in [`INSTANCE_ID`].
    pub instance_header: bool,
    pub client_addresses: Arc<ClientAddressResolver>,
    pub allowed_methods: Arc<AllowedMethods>,
    pub idempotency: Arc<Idempotency>,
    /// `server.cors.allowed_origins`, when any are set.
    pub cors: Option<Cors>,
    pub authenticator: Arc<Authenticator>,
    pub body_limit_bytes: usize,
    pub legal_enforcement: legal::RequireAcceptance,
}

/// The routes wrapped in every layer.
pub struct Stack {
    pub endpoint: BoxEndpoint<'static>,
    /// The layers' names, outermost first, as [`stack`] applied them.
    pub layers: &'static [&'static str],
}

/// Wraps the routes in the middleware, outermost first.
pub fn stack(routes: Route, layers: Layers) -> Stack {
    outermost_first! { routes;
        // Outermost, so that every answer names its instance, a problem included.
        "SetHeader(x-instance-id)" => with_if(
            layers.instance_header,
            SetHeader::new().overriding(INSTANCE_ID, instance_id())
        ),
        // The client's address, from a trusted proxy's forwarding header or the peer, worked
        // out once: the span, the rate limits and the idempotency scope all read it.
        "ResolveClient" => with(ResolveClient(layers.client_addresses)),
        // Outside `observe`, so that the 405 problem it renders gets its `Allow` header.
        "AnswerAllow" => with(AnswerAllow(layers.allowed_methods)),
        // The request id, the span, the request context, every error as problem+json, the
        // access log: outside everything that can fail.
        "observe" => around(observe),
        // A NUL in the path or query is refused before any route or handler reads it.
        "refuse_nul_in_url" => around(refuse_nul_in_url),
        // The guard of each `#[idempotent]` operation finds its store and settings here.
        "AddData<Idempotency>" => data(layers.idempotency),
        // CORS only when configured (see `CorsWhenConfigured`).
        "Cors" => with(CorsWhenConfigured(layers.cors)),
        // The one authentication step: everything inside reads its outcome.
        "Authenticate" => with(Authenticate(layers.authenticator)),
        // A panicking handler answers a bare 500 problem, no internals.
        "CatchPanic" => with(CatchPanic::new().with_handler(panic_as_problem)),
        // Bodies over `server.body_limit_bytes` answer 413, however they are framed.
        "BodyLimit" => with(BodyLimit(layers.body_limit_bytes)),
        // Inside `Authenticate`: it refuses a caller who has not accepted the current terms.
        "RequireAcceptance" => with(layers.legal_enforcement),
    }
}

/// Applies layers listed outermost first (poem's `.with` wraps from the innermost out) and
/// keeps their names in the same order, so that the list cannot disagree with the code.
macro_rules! outermost_first {
    ($routes:expr; $($name:literal => $method:ident($($argument:expr),* $(,)?)),+ $(,)?) => {
        Stack {
            endpoint: wrap_outermost_first!($routes; $($method($($argument),*)),+).boxed(),
            layers: &[$($name),+],
        }
    };
}
use outermost_first;

macro_rules! wrap_outermost_first {
    ($endpoint:expr; $method:ident($($argument:expr),*)) => {
        $endpoint.$method($($argument),*)
    };
    ($endpoint:expr; $method:ident($($argument:expr),*), $($inner:tt)+) => {
        wrap_outermost_first!($endpoint; $($inner)+).$method($($argument),*)
    };
}
use wrap_outermost_first;

/// CORS when configured, and the endpoint inside boxed either way: a layer merely switched off
/// (`with_if`) still makes every request's future as large as its own, and moving that future
/// cost more than the rest of the stack (docs/benchmarks.md). Boxing here also keeps the
/// futures of the layers outside it small.
struct CorsWhenConfigured(Option<Cors>);

impl<E: Endpoint<Output = poem::Response> + 'static> Middleware<E> for CorsWhenConfigured {
    type Output = BoxEndpoint<'static>;

    fn transform(&self, endpoint: E) -> Self::Output {
        match &self.0 {
            Some(cors) => cors.transform(endpoint).boxed(),
            None => endpoint.boxed(),
        }
    }
}

/// A random id for this process: tells instances apart without naming a host.
fn instance_id() -> String {
    uuid::Uuid::new_v4().simple().to_string()[..12].to_owned()
}
