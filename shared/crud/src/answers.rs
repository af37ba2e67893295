//! What the building block's error answers mean, for entity modules' `operation_error!`
//! declarations: one wording for every entity API.

/// 412: an `If-Match` that no longer names the current version.
pub const STALE: &str = "The entity changed since the version `If-Match` names, or is gone: \
                         read it again, then retry with its new `ETag`.";

/// 428: a change without `If-Match` where the module requires one.
pub const IF_MATCH_REQUIRED: &str =
    "The request has no `If-Match`, which this service requires to change the entity.";

/// 409: a conditional write that lost every race it ran ([`crate::conditional_write`]).
pub const KEPT_CHANGING: &str =
    "The entity kept changing while this request tried to change it: retry.";
