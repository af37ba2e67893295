//! Without the `durable` feature there is no outcomes table: the layer's slot for one holds a
//! type with no value, so the guard's code for durable operations compiles and never runs.

use crate::durable::CommittedOutcome;

/// The outcomes table that cannot exist.
#[derive(Debug, Clone)]
pub(crate) enum DurableOutcomes {}

impl DurableOutcomes {
    pub(crate) fn reads(&self) -> u64 {
        match *self {}
    }

    pub(crate) async fn find_hex(
        &self,
        _scope: &str,
    ) -> Result<Option<CommittedOutcome>, std::convert::Infallible> {
        match *self {}
    }
}
