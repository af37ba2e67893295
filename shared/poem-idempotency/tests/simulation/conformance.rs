//! The simulation's model of Redis against the store's definition: the conformance suite every
//! real backend passes, run on the model without faults (on the paused clock, as the memory
//! store runs it). A model that passed the simulation's invariants but not this would be
//! testing the guard against a store that no backend is.

use std::sync::Arc;

use poem_idempotency::store::Store;

use crate::rng::Rng;
use crate::store::SimulatedStore;
use crate::world::{Config, World};

fn redis_model() -> Store {
    let mut config = Config::of(&mut Rng::new(0));
    config.calm = true;
    config.redis = true;
    config.instances = 1;
    config.clock_rates = vec![1.0];
    // Nobody crashes here: the receiving end is gone.
    let (crashes, _) = tokio::sync::mpsc::unbounded_channel();
    let world = World::new(config, false, Rng::new(0), Vec::new(), crashes);
    Store::new(SimulatedStore {
        world: Arc::clone(&world),
        instance: 0,
    })
}

poem_idempotency::store_conformance_suite!(
    #[tokio::test(start_paused = true)]
    redis_model()
);
