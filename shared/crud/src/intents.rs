//! The intents of an entity's operations, declared once for every entity module: an API that
//! serves them writes `#[inherit_intent(crud::intents::CREATE)]` next to its `#[oai]` (or
//! declares its own to override one). The intent gate checks what is served.

use poem_idempotency::intent::Intent;

/// Create: a retry with the same key replays the first 201 instead of creating a second entity.
pub const CREATE: Intent = Intent::IDEMPOTENT;

/// Replace (PUT): replayed too. Without a key a retry is harmless when it carries the same
/// `If-Match` (it answers 412 once the first one moved the version on, leaving the state as the
/// first one left it); with a key it gets the first 200 back instead of that 412.
pub const REPLACE: Intent = Intent::IDEMPOTENT;

/// Merge-patch (PATCH): as replace.
pub const PATCH: Intent = Intent::IDEMPOTENT;

/// Delete: replayed, so a retry gets the first 204 rather than a 412 or 404 for an entity that
/// its own first attempt removed.
pub const DELETE: Intent = Intent::IDEMPOTENT;
