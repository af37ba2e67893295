//! The service instances: the crate's real guard (`Idempotency`, `guard`) around two handlers,
//! over the simulated store and database, each instance with its own layer, as separate
//! processes would have. An instance crashes by having every task it runs dropped where it
//! stands (at whatever `.await` it was), including executions its clients left; it restarts as
//! a new process: a new layer, nothing of the old one's memory.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use poem::http::StatusCode;
use poem::web::Json;
use poem::{Endpoint, EndpointExt as _, FromRequest as _, IntoResponse as _, Request, Response};
use poem_idempotency::durable::simulated::Simulated;
use poem_idempotency::host::DetachedWork;
use poem_idempotency::store::Store;
use poem_idempotency::{
    Caller, DurableOutcomes, GuardOptions, Host, Idempotency, IdempotencySettings, OutcomeRecorder,
    guard,
};
use serde_json::json;
use tokio::sync::watch;
use tokio::task::AbortHandle;

use crate::database::{SimulatedOutcomes, Transaction};
use crate::store::SimulatedStore;
use crate::world::{Effect, Execution, LOCK_TTL, Route as Operation, World};

/// The header that says which client sends a request: the principal the service "proved".
pub const CLIENT: &str = "x-simulated-client";

type Service = Arc<dyn poem::endpoint::DynEndpoint<Output = Response>>;

/// One instance as the load balancer sees it.
pub struct Instance {
    /// `None` while it is down.
    service: Option<Service>,
    /// Told of the crash: what its clients left running stops there.
    crashed: watch::Sender<()>,
    tasks: Vec<AbortHandle>,
    /// Its layer, whose counters the run adds up when the instance stops.
    layer: Arc<Idempotency>,
}

/// The instances of a run.
pub struct Fleet {
    world: Arc<World>,
    instances: Vec<Instance>,
}

/// Scopes keys to the simulated client, and ties work its client left to the instance's life.
struct SimulatedHost {
    crashed: watch::Receiver<()>,
}

impl Host for SimulatedHost {
    fn caller(&self, req: &Request) -> Caller {
        Caller::Principal(req.header(CLIENT).unwrap_or("unknown").to_owned())
    }

    fn detach(&self, work: DetachedWork) -> DetachedWork {
        let mut crashed = self.crashed.clone();
        Box::pin(async move {
            tokio::select! {
                biased;
                // The process is gone: the work is dropped where it stands.
                _ = crashed.changed() => {}
                () = work => {}
            }
        })
    }
}

impl Fleet {
    pub fn new(world: &Arc<World>) -> Self {
        let mut fleet = Self {
            world: Arc::clone(world),
            instances: Vec::new(),
        };
        for instance in 0..world.config.instances {
            let started = fleet.start(instance);
            fleet.instances.push(started);
        }
        fleet
    }

    fn start(&self, instance: usize) -> Instance {
        let (crashed, on_crash) = watch::channel(());
        // The settings are the fleet's, read on this instance's clock: a duration of its clock
        // lasts 1/rate of the simulated clock's (the store's, the database's).
        let rate = self.world.config.clock_rates[instance];
        let settings = IdempotencySettings {
            lock_ttl: LOCK_TTL.div_f64(rate),
            lock_wait: self.world.config.lock_wait.div_f64(rate),
            ..IdempotencySettings::default()
        };
        let store = Store::new(SimulatedStore {
            world: Arc::clone(&self.world),
            instance,
        });
        let layer = Arc::new(
            Idempotency::new(store, settings)
                .with_host(SimulatedHost { crashed: on_crash })
                .with_durable_outcomes(DurableOutcomes::simulated(Arc::new(SimulatedOutcomes(
                    Arc::clone(&self.world),
                )))),
        );
        let handler = Handler {
            world: Arc::clone(&self.world),
            instance,
        };
        let durable = GuardOptions {
            durable: true,
            ..GuardOptions::default()
        };
        let service = Operations {
            durable: guard(handler.clone().durable(), durable).boxed(),
            outside: guard(handler.outside(), GuardOptions::default()).boxed(),
        }
        .data(Arc::clone(&layer))
        .boxed();
        Instance {
            service: Some(Arc::from(service)),
            layer,
            crashed,
            tasks: Vec::new(),
        }
    }

    /// Sends `req` to `instance`; `None` if the instance is down (connection refused). The
    /// request runs as a task of the instance's, which its crash aborts.
    pub fn send(
        &mut self,
        instance: usize,
        req: Request,
    ) -> Option<tokio::task::JoinHandle<Response>> {
        let slot = &mut self.instances[instance];
        let service = Arc::clone(slot.service.as_ref()?);
        let task = tokio::spawn(async move { service.get_response(req).await });
        slot.tasks.retain(|task| !task.is_finished());
        slot.tasks.push(task.abort_handle());
        Some(task)
    }

    /// The instance dies: every request it runs and every execution its clients left stop
    /// where they stand.
    pub fn crash(&mut self, instance: usize) {
        let slot = &mut self.instances[instance];
        if slot.service.take().is_some() {
            self.world.state().guard_metrics.push(slot.layer.metrics());
        }
        let _ = slot.crashed.send(());
        for task in slot.tasks.drain(..) {
            task.abort();
        }
    }

    pub fn restart(&mut self, instance: usize) {
        if self.instances[instance].service.is_none() {
            self.instances[instance] = self.start(instance);
        }
    }

    pub fn is_up(&self, instance: usize) -> bool {
        self.instances[instance].service.is_some()
    }

    /// Every instance gone, and with it every reference it held to the world.
    pub fn shut_down(&mut self) {
        for instance in 0..self.instances.len() {
            self.crash(instance);
        }
        self.instances.clear();
    }
}

/// An instance's two guarded operations, by path, with the route template in the request data
/// as a `Route` puts it there. Not poem's `Route` itself, which compiles a regular expression
/// per route added, for every instance started: a good part of a run's time.
struct Operations {
    durable: poem::endpoint::BoxEndpoint<'static>,
    outside: poem::endpoint::BoxEndpoint<'static>,
}

impl Endpoint for Operations {
    type Output = Response;

    async fn call(&self, mut req: Request) -> poem::Result<Response> {
        let (operation, template) = if req.uri().path() == Operation::Durable.path() {
            (&self.durable, Operation::Durable.path())
        } else {
            (&self.outside, Operation::Outside.path())
        };
        req.set_data(poem::PathPattern(Arc::from(template)));
        operation.call(req).await
    }
}

/// The handlers of one instance.
#[derive(Clone)]
struct Handler {
    world: Arc<World>,
    instance: usize,
}

/// What a request says of itself: its client, its intent, its key.
struct Sent {
    client: usize,
    intent: usize,
    key: String,
}

impl Handler {
    fn durable(self) -> impl Endpoint<Output = Response> {
        poem::endpoint::make(move |req| {
            let handler = self.clone();
            async move {
                handler
                    .run_durable(req)
                    .await
                    .unwrap_or_else(|err| err.into_response())
            }
        })
    }

    fn outside(self) -> impl Endpoint<Output = Response> {
        poem::endpoint::make(move |req| {
            let handler = self.clone();
            async move { handler.run_outside(req).await }
        })
    }

    /// The execution begins: counted, traced, and its handler's time drawn.
    fn begin(&self, route: Operation, req: &Request) -> (Execution, Duration) {
        let sent = sent(req);
        let now = self.world.now();
        let mut state = self.world.state();
        state.next_execution += 1;
        let rng = &mut state.rng;
        // Most handlers are quick; some outlast a lease, which renewal must cover.
        let takes = if rng.chance(0.15) {
            rng.millis(
                LOCK_TTL.as_millis() as u64 / 3,
                LOCK_TTL.as_millis() as u64 * 2,
            )
        } else {
            rng.millis(1, 30)
        };
        let execution = Execution {
            id: state.next_execution,
            route,
            client: sent.client,
            key: sent.key,
            intent: sent.intent,
        };
        state.executions.push(execution.clone());
        state.note(now, || {
            format!(
                "i{} executes #{} for c{} {} {} (intent {}), takes {} ms",
                self.instance,
                execution.id,
                execution.client,
                route.path(),
                execution.key,
                execution.intent,
                takes.as_millis()
            )
        });
        (execution, takes)
    }

    async fn run_outside(self, req: Request) -> Response {
        let (execution, takes) = self.begin(Operation::Outside, &req);
        tokio::time::sleep(takes).await;
        {
            let mut state = self.world.state();
            state.outside_effects.push(effect(&execution));
        }
        self.world.trace(|_| {
            format!(
                "i{} effect of #{} done for c{} /outside {}",
                self.instance, execution.id, execution.client, execution.key
            )
        });
        Json(answer(&execution)).into_response()
    }

    async fn run_durable(self, req: Request) -> poem::Result<Response> {
        let outcome = OutcomeRecorder::from_request_without_body(&req).await?;
        let (execution, takes) = self.begin(Operation::Durable, &req);
        let failed = |err: sqlx::Error| {
            self.world.trace(|_| {
                format!(
                    "i{} #{} for c{} /durable {}: {err}",
                    self.instance, execution.id, execution.client, execution.key
                )
            });
            poem::Error::from_string(err.to_string(), StatusCode::SERVICE_UNAVAILABLE)
        };
        let mut transaction = Transaction::begin(&self.world, self.instance)
            .await
            .map_err(failed)?;
        transaction
            .effect(effect(&execution))
            .await
            .map_err(failed)?;
        tokio::time::sleep(takes).await;
        let mut connection = Simulated(transaction);
        let recorded = outcome.prepare(Json(answer(&execution))).await?;
        let recorded = match recorded.record(&mut connection).await {
            Ok(recorded) => recorded,
            Err(err) => {
                self.world.trace(|_| {
                    format!(
                        "i{} #{} for c{} /durable {}: {err}",
                        self.instance, execution.id, execution.client, execution.key
                    )
                });
                return Err(err.into());
            }
        };
        connection.0.commit().await.map_err(failed)?;
        self.world.trace(|_| {
            format!(
                "i{} committed #{} for c{} /durable {}",
                self.instance, execution.id, execution.client, execution.key
            )
        });
        Ok(recorded.into_response())
    }
}

fn sent(req: &Request) -> Sent {
    let number = |name: &str| {
        req.header(name)
            .and_then(|value| value.trim_start_matches('c').parse().ok())
            .unwrap_or(usize::MAX)
    };
    Sent {
        client: number(CLIENT),
        intent: number("x-simulated-intent"),
        key: req.header("idempotency-key").unwrap_or_default().to_owned(),
    }
}

fn effect(execution: &Execution) -> Effect {
    Effect {
        route: execution.route,
        client: execution.client,
        key: execution.key.clone(),
        execution: execution.id,
    }
}

/// The execution's answer: whose request it answers and which execution gave it, so that two
/// executions never answer alike and a replay to the wrong request shows.
fn answer(execution: &Execution) -> serde_json::Value {
    json!({
        "client": execution.client,
        "intent": execution.intent,
        "execution": execution.id,
    })
}

/// The body a client sends for an intent.
pub fn body(client: usize, intent: usize) -> Bytes {
    Bytes::from(format!(r#"{{"client":{client},"intent":{intent}}}"#))
}
