//! The building block of entity modules: what every create, read, update and delete API repeats,
//! written once.
//!
//! - [`EntityTag`]: the strong `ETag` of an entity's version (`"v3"`), and tags as clients send
//!   them;
//! - [`Preconditions`]: a request's `If-Match` and `If-None-Match`, evaluated as RFC 9110 §13.2.2
//!   orders them: 412 problem+json when a condition fails, 428 when an operation requires
//!   `If-Match` and the request has none, "not modified" for a read whose `If-None-Match` matches;
//! - [`IfMatch`] and [`IfNoneMatch`]: those headers as documented operation parameters;
//! - [`conditional_write`]: optimistic concurrency for a write under those conditions, with the
//!   entity's version as the guard: the write is one conditional statement
//!   (`UPDATE ... WHERE version = $n`), so no update is ever lost between a read and a write;
//!   it takes the read and the write as async closures ([`ReadVersion`], [`WriteAtVersion`])
//!   and lends each the request's transaction in turn;
//! - [`created_location`]: the `Location` of a created entity, from the route that created it;
//! - [`Sort`]: a list's `sort` parameter (`name`, `-name`) over an entity's [`SortField`]s, and
//!   its `ORDER BY`; [`contains_pattern`] for a case-insensitive "name contains" filter;
//! - [`UniqueField`] and [`database_error`]: a unique constraint's refusal as a 409 naming the
//!   request field;
//! - [`answers`]: what its 409, 412 and 428 mean, for the operations' documented errors;
//! - [`intents`]: the declared intents of CRUD operations, for `#[inherit_intent(...)]`.

pub mod answers;
mod conditional_headers;
mod conditional_write;
mod entity_tag;
pub mod intents;
mod location;
mod precondition;
mod sort;
mod unique;

pub use conditional_headers::{IfMatch, IfNoneMatch};
pub use conditional_write::{ReadVersion, WriteAtVersion, conditional_write};
pub use entity_tag::EntityTag;
pub use location::created_location;
pub use precondition::Preconditions;
pub use sort::{Sort, SortField, contains_pattern};
pub use unique::{UniqueField, database_error};
