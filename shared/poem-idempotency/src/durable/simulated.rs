//! A database of the simulation's own behind durable outcomes (feature `simulation`, for the
//! crate's deterministic simulation only).
//!
//! The outcomes table is otherwise reached through a sqlx pool, whose drivers answer from
//! threads of their own (SQLite) or a socket (PostgreSQL): neither can run inside a seeded,
//! single-threaded simulation on a paused clock and give the same run twice. This is the one
//! seam: the guard reads committed outcomes through [`SimulatedDatabase::find`], and
//! [`crate::PreparedOutcome::record`] writes a handler's outcome through
//! [`SimulatedTransaction::record`], exactly where it would write on a `PgConnection`. What
//! the simulated database does with them (transactions, row locks, faults) is the
//! simulation's; docs/adr/0021-deterministic-simulation.md says what that covers.

use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;

use super::database::{OutcomeConnection, OutcomeRow, driver};
use super::{CommittedOutcome, DurableOutcomes, OutcomeTable};
use crate::store::StoredResponse;

/// The simulated database's outcomes table, as the guard reads it.
pub trait SimulatedDatabase: Send + Sync + 'static {
    /// The unexpired outcome committed under `scope` (hex), as the record statement's `find`.
    fn find<'a>(
        &'a self,
        scope: &'a str,
    ) -> BoxFuture<'a, Result<Option<CommittedOutcome>, sqlx::Error>>;
}

/// A transaction of the simulated database, as a durable outcome is written in it.
pub trait SimulatedTransaction: Send {
    /// Writes the outcome of `scope` (hex) unless a live one is there (as the record
    /// statement's `INSERT ... ON CONFLICT DO UPDATE ... WHERE expired`); whether it wrote.
    fn record<'a>(
        &'a mut self,
        scope: &'a str,
        fingerprint: &'a str,
        response: &'a StoredResponse,
        retention: Duration,
    ) -> BoxFuture<'a, Result<bool, sqlx::Error>>;
}

/// A simulated transaction as the connection [`crate::PreparedOutcome::record`] writes on.
pub struct Simulated<T>(pub T);

impl<T: SimulatedTransaction> OutcomeConnection for Simulated<T> {}

impl<T: SimulatedTransaction> driver::Connection for Simulated<T> {
    fn record<'a>(
        &'a mut self,
        row: &'a OutcomeRow<'a>,
    ) -> BoxFuture<'a, Result<bool, sqlx::Error>> {
        self.0
            .record(row.scope, row.fingerprint, row.response, row.retention)
    }
}

struct SimulatedTable(Arc<dyn SimulatedDatabase>);

impl OutcomeTable for SimulatedTable {
    fn find<'a>(
        &'a self,
        scope: &'a str,
    ) -> BoxFuture<'a, Result<Option<CommittedOutcome>, sqlx::Error>> {
        self.0.find(scope)
    }

    fn sweep(&self) -> BoxFuture<'_, Result<u64, sqlx::Error>> {
        // Runs are shorter than any retention: nothing to sweep.
        Box::pin(async { Ok(0) })
    }
}

impl DurableOutcomes {
    /// The outcomes table of a simulated database.
    pub fn simulated(database: Arc<dyn SimulatedDatabase>) -> Self {
        Self {
            table: Arc::new(SimulatedTable(database)),
            reads: Arc::default(),
        }
    }
}
