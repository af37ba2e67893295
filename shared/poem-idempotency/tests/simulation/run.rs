//! One seed's run, start to end: the clients, the chaos until healing, the settling after it,
//! then the invariants on the history.
//!
//! Clients send their intents through a load balancer that picks an instance per attempt. An
//! attempt may be abandoned by its client (a timeout: the connection closes, the guard carries
//! the execution on), refused (instance down), reset (the instance crashed under it) or
//! answered. Clients retry with jittered exponential backoff, sometimes send a duplicate while
//! the first is running, sometimes vanish for good; every client's intents are its own, and a
//! client reuses a key for another body when two of its intents draw the same key. After
//! healing, every intent is sent again until it has its final answer (a 2xx, or a 422 for a
//! reused key): that is the liveness check, and the replays it gets are checked too.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use poem::Request;
use poem::http::{Method, StatusCode};
use poem_idempotency::planted::{self, Bug};
use tokio::time::Instant;

use crate::check::{self, Outcome};
use crate::rng::Rng;
use crate::service::{self, CLIENT, Fleet};
use crate::world::{Answer, Config, HEAL_AT, Intent, Route, SETTLE_WITHIN, World};

/// How many keys a client draws its intents' keys from: small, so that a client reuses keys.
const KEYS_PER_CLIENT: u64 = 3;

/// Runs `seed` with `bug` planted (or none), and checks its history.
pub fn run(seed: u64, bug: Option<Bug>) -> Outcome {
    run_keeping_trace(seed, bug, false).0
}

/// [`run`], and the run's whole trace when `keep_trace`. Runs without writing the trace unless
/// it is kept; a failing seed is run again with it, for the failure's excerpt.
pub fn run_keeping_trace(
    seed: u64,
    bug: Option<Bug>,
    keep_trace: bool,
) -> (Outcome, Vec<(Duration, String)>) {
    let tracing = keep_trace || std::env::var_os("SIMULATION_TRACE").is_some();
    let (outcome, trace) = run_once(seed, bug, tracing);
    match outcome {
        Err(_) if !tracing => run_once(seed, bug, true),
        outcome => (outcome, trace),
    }
}

fn run_once(seed: u64, bug: Option<Bug>, tracing: bool) -> (Outcome, Vec<(Duration, String)>) {
    planted::plant(bug);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .expect("a runtime");
    let world = runtime.block_on(async {
        let mut rng = Rng::new(seed);
        let config = Config::of(&mut rng);
        let intents = intents(&config, &mut rng);
        let (crashes, mut crash_requests) = tokio::sync::mpsc::unbounded_channel();
        let world = World::new(config, tracing, rng, intents, crashes);
        let fleet = Arc::new(Mutex::new(Fleet::new(&world)));
        let chaos = tokio::spawn(chaos(Arc::clone(&world), Arc::clone(&fleet)));
        // The instances that die at an await point (`World::crash_here`).
        let reaper = {
            let (world, fleet) = (Arc::clone(&world), Arc::clone(&fleet));
            tokio::spawn(async move {
                while let Some(instance) = crash_requests.recv().await {
                    crash_and_restart(&world, &fleet, instance);
                }
            })
        };
        let mut clients = Vec::new();
        for client in 0..world.config.clients {
            clients.push(tokio::spawn(client_life(
                Arc::clone(&world),
                Arc::clone(&fleet),
                client,
            )));
        }
        // Bounded, so that a run that deadlocks ends (and fails the liveness check).
        let _ = tokio::time::timeout(HEAL_AT + SETTLE_WITHIN + Duration::from_secs(5), async {
            for client in clients {
                let _ = client.await;
            }
        })
        .await;
        chaos.abort();
        let _ = chaos.await;
        reaper.abort();
        let _ = reaper.await;
        lock(&fleet).shut_down();
        world
    });
    // Every task ends with the runtime, and every reference to the world with them.
    drop(runtime);
    planted::plant(None);
    let (config, intents) = (world.config.clone(), world.intents.clone());
    let state = world.into_state();
    if std::env::var_os("SIMULATION_TRACE").is_some() {
        eprintln!("seed {seed}: {config:?}\nintents: {intents:?}");
        for (at, line) in &state.trace {
            eprintln!("{:>8.3}s  {line}", at.as_secs_f64());
        }
    }
    let trace = if tracing {
        state.trace.clone()
    } else {
        Vec::new()
    };
    let outcome = check::check(seed, &config, &intents, state)
        .map_err(|failure| check::Failure { bug, ..failure });
    (outcome, trace)
}

fn lock(fleet: &Mutex<Fleet>) -> std::sync::MutexGuard<'_, Fleet> {
    fleet
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn intents(config: &Config, rng: &mut Rng) -> Vec<Intent> {
    let mut intents = Vec::new();
    for client in 0..config.clients {
        for _ in 0..1 + rng.below(3) {
            let route = if rng.chance(0.5) {
                Route::Durable
            } else {
                Route::Outside
            };
            intents.push(Intent {
                client,
                intent: intents.len(),
                route,
                key: format!("k{}", rng.below(KEYS_PER_CLIENT)),
            });
        }
    }
    intents
}

/// An intent as the trace names it (`c2 /outside k1`), written only when the trace is.
struct Who<'a>(&'a Intent);

impl std::fmt::Display for Who<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let intent = self.0;
        write!(
            f,
            "c{} {} {}",
            intent.client,
            intent.route.path(),
            intent.key
        )
    }
}

/// What became of one attempt.
enum Attempt {
    Answered(u16),
    /// Refused, reset, or abandoned by the client: no answer.
    Nothing,
}

async fn attempt(
    world: &Arc<World>,
    fleet: &Mutex<Fleet>,
    intent: &Intent,
    patience: Duration,
) -> Attempt {
    let instance = world.state().rng.below(world.config.instances as u64) as usize;
    let (parts, ()) = poem::http::Request::builder()
        .method(Method::POST)
        .uri(poem::http::Uri::from_static(intent.route.path()))
        .header("idempotency-key", &intent.key)
        .header("content-type", "application/json")
        .header(CLIENT, format!("c{}", intent.client))
        .header("x-simulated-intent", intent.intent.to_string())
        .body(())
        .expect("a request")
        .into_parts();
    // As poem's server makes a request of what hyper read (its original URI set, which a
    // `poem::Request::builder()` leaves empty).
    let parts = poem::RequestParts::from((
        parts,
        poem::web::LocalAddr::default(),
        poem::web::RemoteAddr::default(),
        poem::http::uri::Scheme::HTTP,
    ));
    let req = Request::from_parts(parts, service::body(intent.client, intent.intent).into());
    let who = Who(intent);
    world.trace(|_| format!("{who} sends intent {} to i{instance}", intent.intent));
    let Some(task) = lock(fleet).send(instance, req) else {
        tokio::time::sleep(Duration::from_millis(1)).await;
        world.trace(|_| format!("{who} refused by i{instance} (down)"));
        return Attempt::Nothing;
    };
    let abort = task.abort_handle();
    let response = match tokio::time::timeout(patience, task).await {
        Ok(Ok(response)) => response,
        Ok(Err(_)) => {
            world.trace(|_| format!("{who} reset by i{instance} (crashed)"));
            return Attempt::Nothing;
        }
        Err(_) => {
            // The client gives up and closes the connection: the guard carries on alone.
            abort.abort();
            world.trace(|_| format!("{who} gave up on i{instance}"));
            return Attempt::Nothing;
        }
    };
    let status = response.status();
    let replay = response.headers().contains_key("x-idempotent-replay");
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    let body = response.into_body().into_bytes().await.unwrap_or_default();
    world.trace(|_| {
        format!(
            "{who} got {}{} {}",
            status.as_u16(),
            if replay { " (replay)" } else { "" },
            String::from_utf8_lossy(if status.is_success() { &body } else { b"" })
        )
    });
    let at = world.now();
    world.state().answers.push(Answer {
        intent: intent.intent,
        at,
        status: status.as_u16(),
        replay,
        content_type,
        body,
    });
    Attempt::Answered(status.as_u16())
}

/// A 2xx, or a 422 (the key was this client's for another body): nothing more to send.
fn is_final(status: u16) -> bool {
    StatusCode::from_u16(status).is_ok_and(|status| status.is_success())
        || status == StatusCode::UNPROCESSABLE_ENTITY.as_u16()
}

/// One intent before healing: sent until its final answer, for a few attempts at most, or until
/// the client vanishes; sometimes with a duplicate while the first runs.
async fn until_answered(world: Arc<World>, fleet: Arc<Mutex<Fleet>>, intent: Intent) {
    let (attempts, vanishes) = {
        let mut state = world.state();
        (1 + state.rng.below(5), state.rng.chance(0.1))
    };
    for n in 0..attempts {
        let (patience, duplicate) = {
            let mut state = world.state();
            let patience = if state.rng.chance(0.3) {
                state.rng.millis(20, 800)
            } else {
                state.rng.millis(1000, 6000)
            };
            (patience, state.rng.chance(0.15))
        };
        if duplicate {
            // The same request again while the first runs (a double click, a proxy retry).
            let (world, fleet, intent) = (Arc::clone(&world), Arc::clone(&fleet), intent.clone());
            tokio::spawn(async move {
                let wait = world.state().rng.millis(0, 300);
                tokio::time::sleep(wait).await;
                attempt(&world, &fleet, &intent, patience).await;
            });
        }
        if let Attempt::Answered(status) = attempt(&world, &fleet, &intent, patience).await
            && is_final(status)
        {
            return;
        }
        if vanishes {
            world.trace(|_| format!("c{} vanishes", intent.client));
            return;
        }
        let backoff = {
            let mut state = world.state();
            let base = 50u64 << n.min(5);
            state.rng.millis(base / 2, base * 3 / 2)
        };
        tokio::time::sleep(backoff).await;
    }
}

async fn client_life(world: Arc<World>, fleet: Arc<Mutex<Fleet>>, client: usize) {
    let mine: Vec<Intent> = world
        .intents
        .iter()
        .filter(|i| i.client == client)
        .cloned()
        .collect();
    // Spread over the time faults happen in.
    let start = world.state().rng.millis(0, 6000);
    tokio::time::sleep(start).await;
    // Before healing: each intent until its final answer, a few attempts, or the client
    // vanishes; an impatient client sends its next intent without waiting for this one.
    let mut overlapping = Vec::new();
    for intent in &mine {
        let pause = world.state().rng.millis(0, 2000);
        tokio::time::sleep(pause).await;
        let sending = until_answered(Arc::clone(&world), Arc::clone(&fleet), intent.clone());
        if world.state().rng.chance(0.2) {
            overlapping.push(tokio::spawn(sending));
        } else {
            sending.await;
        }
    }
    for sending in overlapping {
        let _ = sending.await;
    }
    // After healing: every intent again until its final answer.
    let heal = world.start + HEAL_AT;
    tokio::time::sleep_until(heal + Duration::from_millis(client as u64 * 7)).await;
    for intent in &mine {
        loop {
            if Instant::now() > heal + SETTLE_WITHIN {
                return;
            }
            if let Attempt::Answered(status) =
                attempt(&world, &fleet, intent, Duration::from_secs(10)).await
                && is_final(status)
            {
                break;
            }
            let backoff = world.state().rng.millis(200, 1200);
            tokio::time::sleep(backoff).await;
        }
    }
}

/// Faults until healing: crashes and restarts, store outages, FLUSHALL, failovers, stalls,
/// database outages. Then everything heals: faults stop, every instance is up.
async fn chaos(world: Arc<World>, fleet: Arc<Mutex<Fleet>>) {
    let mut times: Vec<Duration> = {
        let mut state = world.state();
        (0..world.config.chaos_events)
            .map(|_| state.rng.millis(200, HEAL_AT.as_millis() as u64 - 500))
            .collect()
    };
    times.sort();
    for at in times {
        tokio::time::sleep_until(world.start + at).await;
        let (kind, instance, lasts) = {
            let mut state = world.state();
            // Crashes, outages and stalls are common; failovers less so, FLUSHALL rare.
            let kind = match state.rng.below(100) {
                0..25 => 0,
                25..45 => 1,
                45..53 => 2,
                53..65 => 3,
                65..85 => 4,
                _ => 5,
            };
            let instance = state.rng.below(world.config.instances as u64) as usize;
            let lasts = state.rng.millis(50, 3000);
            (kind, instance, lasts)
        };
        let now = Instant::now();
        match kind {
            0 => {
                world.trace(|_| format!("CHAOS i{instance} crashes"));
                crash_and_restart(&world, &fleet, instance);
            }
            1 => {
                world.state().store_down_until = now + lasts;
                world.trace(|_| format!("CHAOS store down for {} ms", lasts.as_millis()));
            }
            2 => {
                let at = world.now();
                let mut state = world.state();
                state.backend.flush_all();
                state
                    .store_events
                    .push((at, None, crate::world::StoreEvent::DataLost));
                state.note(at, || "CHAOS store FLUSHALL".to_owned());
            }
            3 => {
                let at = world.now();
                let mut state = world.state();
                if state.backend.fail_over(now) {
                    state
                        .store_events
                        .push((at, None, crate::world::StoreEvent::DataLost));
                    state.note(at, || "CHAOS store fails over to its replica".to_owned());
                }
            }
            4 => {
                world.state().stalled_until[instance] = now + lasts;
                world.trace(|_| format!("CHAOS i{instance} stalls for {} ms", lasts.as_millis()));
            }
            _ => {
                world.state().database_down_until = now + lasts;
                world.trace(|_| format!("CHAOS database down for {} ms", lasts.as_millis()));
            }
        }
    }
    tokio::time::sleep_until(world.start + HEAL_AT).await;
    {
        let mut state = world.state();
        state.faulty = false;
    }
    world.trace(|_| "CHAOS heals: no more faults".to_owned());
    let mut fleet = lock(&fleet);
    for instance in 0..world.config.instances {
        if !fleet.is_up(instance) {
            fleet.restart(instance);
        }
    }
}

/// `instance` dies now, and restarts after a downtime the run draws.
fn crash_and_restart(world: &Arc<World>, fleet: &Arc<Mutex<Fleet>>, instance: usize) {
    if !lock(fleet).is_up(instance) {
        return;
    }
    lock(fleet).crash(instance);
    let down = {
        let mut state = world.state();
        state.crashes += 1;
        state.rng.millis(50, 3000)
    };
    world.trace(|_| format!("CHAOS i{instance} is down for {} ms", down.as_millis()));
    let (world, fleet) = (Arc::clone(world), Arc::clone(fleet));
    tokio::spawn(async move {
        tokio::time::sleep(down).await;
        lock(&fleet).restart(instance);
        world.trace(|_| format!("CHAOS i{instance} restarts"));
    });
}
