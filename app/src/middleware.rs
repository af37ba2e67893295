//! The middleware stack, written once, outermost first: a request meets the layers in the order
//! [`stack`] lists them and its answer leaves through them in reverse. `ARCHITECTURE.md` (the
//! life of a request) and the note opening `infra::http` name them in the same order, and a test
//! (`tests/e2e/architecture.rs`) fails when either parts from what [`Stack::layers`] says is served.

use std::sync::Arc;

use infra::http::{AllowedMethods, Authenticate, BodyLimit, FrontDoor, panic_as_problem};
use kernel::{Authenticator, ClientAddressResolver};
use poem::endpoint::BoxEndpoint;
use poem::http::HeaderValue;
use poem::middleware::{CatchPanic, Cors};
use poem::{Endpoint, EndpointExt, Middleware, Route};
use poem_idempotency::Idempotency;

/// What the layers need, built by the steps before.
pub struct Layers {
    /// `server.instance_header`: name the answering instance in `X-Instance-Id`.
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
        // Outermost, so that it sees every answer: the client's address (from a trusted
        // proxy's forwarding header, or the peer) worked out once for the span, the rate
        // limits and the idempotency scope; the request id, the span and the request context;
        // a NUL in the URL refused before any route reads it; and on the way out every error as
        // problem+json, `Allow` on a 405, the id echoed, the access log, the instance named.
        "FrontDoor" => with(front_door(
            layers.client_addresses,
            layers.allowed_methods,
            layers.instance_header
        )),
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

/// The [`FrontDoor`], naming this instance when `server.instance_header` is on.
fn front_door(
    clients: Arc<ClientAddressResolver>,
    allowed: Arc<AllowedMethods>,
    instance_header: bool,
) -> FrontDoor {
    let door = FrontDoor::new(clients, allowed);
    if instance_header {
        door.naming_instance(instance_id())
    } else {
        door
    }
}

/// A random id for this process: tells instances apart without naming a host.
fn instance_id() -> HeaderValue {
    let id = uuid::Uuid::new_v4().simple().to_string();
    HeaderValue::from_str(&id[..12]).expect("hexadecimal digits are a valid header value")
}
