//! The simulated database behind durable outcomes: the `idempotency_outcomes` table and the
//! effects table, with transactions as PostgreSQL gives them to the record statement.
//!
//! - A transaction's writes (its effect, its outcome row) are invisible until it commits, and
//!   are dropped if it rolls back, which dropping it does (a crashed instance's connection
//!   closes, and the server rolls back).
//! - Writing the outcome of a key another open transaction has written waits until that one
//!   ends (PostgreSQL waits on the uncommitted row of a unique key), then writes nothing if a
//!   live outcome is there, as `INSERT ... ON CONFLICT DO UPDATE ... WHERE expired` does.
//! - Before healing, a statement may fail, the database may be down for a while, and a commit
//!   may be applied and still answer an error (the connection lost with the reply).
//!
//! Time is the simulated clock, the one every instance shares: the database's clock.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;
use poem_idempotency::durable::CommittedOutcome;
use poem_idempotency::durable::simulated::{SimulatedDatabase, SimulatedTransaction};
use poem_idempotency::store::StoredResponse;
use tokio::time::Instant;

use crate::world::{Effect, World};

struct Row {
    fingerprint: String,
    response: StoredResponse,
    expires_at: Instant,
}

#[derive(Default)]
pub struct Database {
    outcomes: BTreeMap<String, Row>,
    /// The key of each outcome written by an open transaction, and which one.
    locks: BTreeMap<String, u64>,
    pub committed_effects: Vec<Effect>,
    next_transaction: u64,
}

/// The outcomes table as the guard reads it.
pub struct SimulatedOutcomes(pub Arc<World>);

impl SimulatedDatabase for SimulatedOutcomes {
    fn find<'a>(
        &'a self,
        scope: &'a str,
    ) -> BoxFuture<'a, Result<Option<CommittedOutcome>, sqlx::Error>> {
        Box::pin(async move {
            statement(&self.0, "find").await?;
            let now = Instant::now();
            let state = self.0.state();
            Ok(state
                .database
                .outcomes
                .get(scope)
                .filter(|row| row.expires_at > now)
                .map(|row| CommittedOutcome {
                    fingerprint: row.fingerprint.clone(),
                    response: row.response.clone(),
                    expires_in: row.expires_at - now,
                }))
        })
    }
}

/// A statement's round trip: its latency, and before healing its failure.
async fn statement(world: &World, what: &str) -> Result<(), sqlx::Error> {
    let (latency, fails) = {
        let mut state = world.state();
        let state = &mut *state;
        let latency = state.rng.millis(0, 3);
        let fails = state.faulty
            && (state.database_down_until > Instant::now()
                || state.rng.chance(world.config.database_error));
        if fails {
            state.database_faults += 1;
        }
        (latency, fails)
    };
    tokio::time::sleep(latency).await;
    if fails {
        world.trace(|_| format!("database {what}: failed"));
        return Err(sqlx::Error::Protocol(format!("simulated: {what} failed")));
    }
    Ok(())
}

/// An open transaction; dropped uncommitted, it rolls back.
pub struct Transaction {
    world: Arc<World>,
    instance: usize,
    id: u64,
    effects: Vec<Effect>,
    outcome: Option<(String, Row)>,
    ended: bool,
}

impl Transaction {
    pub async fn begin(world: &Arc<World>, instance: usize) -> Result<Self, sqlx::Error> {
        statement(world, "begin").await?;
        let id = {
            let mut state = world.state();
            state.database.next_transaction += 1;
            state.database.next_transaction
        };
        Ok(Self {
            world: Arc::clone(world),
            instance,
            id,
            effects: Vec::new(),
            outcome: None,
            ended: false,
        })
    }

    /// The operation's effect, written in the transaction.
    pub async fn effect(&mut self, effect: Effect) -> Result<(), sqlx::Error> {
        statement(&self.world, "insert effect").await?;
        self.effects.push(effect);
        Ok(())
    }

    /// Commits; an error may come after the commit was applied.
    pub async fn commit(mut self) -> Result<(), sqlx::Error> {
        statement(&self.world, "commit").await?;
        let ambiguous = {
            let mut state = self.world.state();
            let ambiguous = state.faulty && state.rng.chance(self.world.config.ambiguous_commit);
            let state = &mut *state;
            state.database.committed_effects.append(&mut self.effects);
            if let Some((scope, row)) = self.outcome.take() {
                state.database.locks.remove(&scope);
                state.database.outcomes.insert(scope, row);
            }
            self.ended = true;
            ambiguous
        };
        self.world
            .trace(|_| format!("database commit of transaction {}", self.id));
        let chance = self.world.config.crash_at_commit;
        self.world
            .crash_here(self.instance, chance, || {
                "right after the database applied its commit".to_owned()
            })
            .await;
        if ambiguous {
            self.world.state().database_faults += 1;
            self.world
                .trace(|_| format!("database commit of transaction {}: reply lost", self.id));
            return Err(sqlx::Error::Protocol(
                "simulated: connection lost at commit".to_owned(),
            ));
        }
        Ok(())
    }
}

impl Drop for Transaction {
    fn drop(&mut self) {
        if self.ended {
            return;
        }
        let mut state = self.world.state();
        if let Some((scope, _)) = &self.outcome {
            state.database.locks.remove(scope);
        }
    }
}

impl SimulatedTransaction for Transaction {
    fn record<'a>(
        &'a mut self,
        scope: &'a str,
        fingerprint: &'a str,
        response: &'a StoredResponse,
        retention: Duration,
    ) -> BoxFuture<'a, Result<bool, sqlx::Error>> {
        Box::pin(async move {
            statement(&self.world, "record outcome").await?;
            // Waits on another open transaction's row of the key, as PostgreSQL does.
            loop {
                let now = Instant::now();
                {
                    let mut state = self.world.state();
                    let database = &mut state.database;
                    if !database.locks.contains_key(scope) {
                        if database
                            .outcomes
                            .get(scope)
                            .is_some_and(|row| row.expires_at > now)
                        {
                            return Ok(false);
                        }
                        database.locks.insert(scope.to_owned(), self.id);
                        self.outcome = Some((
                            scope.to_owned(),
                            Row {
                                fingerprint: fingerprint.to_owned(),
                                response: response.clone(),
                                expires_at: now + retention,
                            },
                        ));
                        return Ok(true);
                    }
                }
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
        })
    }
}
