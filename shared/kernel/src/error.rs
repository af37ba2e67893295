//! [`AppError`]: the error every handler returns, and its one mapping to HTTP.

use std::error::Error as StdError;

use poem::http::StatusCode;
use poem::{IntoResponse, Response};

use crate::problem::Problem;

/// Result of an application operation.
pub type AppResult<T> = Result<T, AppError>;

/// What can go wrong in a use case. Its variants name situations, not statuses; the one
/// mapping to a status and a problem body is [`AppError::status`] and [`AppError::to_problem`],
/// and nothing else maps errors to HTTP. Internal errors are logged in full and answered as a bare 500: their text never
/// reaches the client. Handlers return it wrapped in their operation's error type
/// ([`operation_error!`](crate::operation_error!)), which documents the statuses they answer.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// The request is well-formed but its content is not acceptable.
    #[error("{0}")]
    Invalid(String),
    /// No valid credentials were presented.
    #[error("{0}")]
    Unauthorized(String),
    /// The caller is known but may not do this.
    #[error("{0}")]
    Forbidden(String),
    /// The addressed resource does not exist (or is not the caller's to see).
    #[error("{0}")]
    NotFound(String),
    /// The request conflicts with the current state of the resource.
    #[error("{0}")]
    Conflict(String),
    /// The value of `field` must be unique, and another entity already has it (a unique
    /// constraint said so): a 409 that names the field.
    #[error("{detail}")]
    Duplicate { field: &'static str, detail: String },
    /// The request is well-formed but `field` refers to something that does not exist (e.g. an
    /// account id): a 422 that names the field.
    #[error("{detail}")]
    UnknownReference { field: &'static str, detail: String },
    /// A condition of the request (`If-Match`, `If-None-Match`) does not hold for the current
    /// state of the resource (RFC 9110 §13.1).
    #[error("{0}")]
    PreconditionFailed(String),
    /// The operation changes a resource only under a condition (`If-Match`), and the request
    /// named none (RFC 6585 §3).
    #[error("{0}")]
    PreconditionRequired(String),
    /// The caller sent too many requests; try again after the given seconds.
    #[error("too many requests")]
    TooManyRequests { retry_after_secs: u64 },
    /// The service is busy with work it bounds (password hashing); try again after the seconds.
    #[error("the service is busy")]
    Busy { retry_after_secs: u64 },
    /// An upstream service the request needed (an OpenID Connect provider) could not be
    /// reached or answered something unusable: a 502 whose detail names the upstream, never its
    /// answer.
    #[error("{0}")]
    BadGateway(String),
    /// A fault of the service or a dependency.
    #[error("internal error: {0}")]
    Internal(Box<dyn StdError + Send + Sync>),
}

impl AppError {
    /// Wraps any fault as an internal error.
    pub fn internal(err: impl Into<Box<dyn StdError + Send + Sync>>) -> Self {
        Self::Internal(err.into())
    }

    /// The HTTP status this error maps to.
    pub fn status(&self) -> StatusCode {
        match self {
            Self::Invalid(_) => StatusCode::BAD_REQUEST,
            Self::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::Conflict(_) | Self::Duplicate { .. } => StatusCode::CONFLICT,
            Self::UnknownReference { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            Self::PreconditionFailed(_) => StatusCode::PRECONDITION_FAILED,
            Self::PreconditionRequired(_) => StatusCode::PRECONDITION_REQUIRED,
            Self::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            Self::Busy { .. } => StatusCode::SERVICE_UNAVAILABLE,
            Self::BadGateway(_) => StatusCode::BAD_GATEWAY,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The problem detail the client sees.
    pub fn to_problem(&self) -> Problem {
        let problem = Problem::from_status(self.status());
        match self {
            Self::Internal(_) => problem.with_detail(crate::problem::SERVER_ERROR_DETAIL),
            Self::TooManyRequests { retry_after_secs } => problem.with_detail(format!(
                "Too many requests; retry after {retry_after_secs} seconds."
            )),
            Self::Busy { retry_after_secs } => problem.with_detail(format!(
                "The service is busy; retry after {retry_after_secs} seconds."
            )),
            Self::Duplicate { field, detail } | Self::UnknownReference { field, detail } => {
                problem.with_detail(detail).with_field(*field)
            }
            other => problem.with_detail(other.to_string()),
        }
    }
}

/// A database error is a fault of the service (a 500 whose details go to the log), so
/// repositories use `?` on every query. A constraint a client can break is mapped before this,
/// where its field is known (`crud::UniqueField`). A write that met another and could not wait
/// it out is no fault: it is busy, a 503 with `Retry-After` (ADR 0018).
impl From<sqlx::Error> for AppError {
    fn from(err: sqlx::Error) -> Self {
        // No connection, or no turn to write, within the wait: busy, not broken.
        if matches!(err, sqlx::Error::PoolTimedOut) || is_write_contention(&err) {
            tracing::warn!(error = %err, "a write met another it could not wait for: answered 503");
            return Self::Busy {
                retry_after_secs: 1,
            };
        }
        Self::internal(err)
    }
}

/// Whether `err` is two writers meeting: SQLite's busy timeout ran out (`SQLITE_BUSY`,
/// `SQLITE_LOCKED` and their extended codes, which sqlx reports as numbers), or PostgreSQL gave
/// up on one of them (a serialization failure `40001`, a deadlock `40P01`, a lock it would not
/// wait for `55P03`; SQLSTATEs are five characters, so never read as SQLite's numbers).
pub fn is_write_contention(err: &sqlx::Error) -> bool {
    let Some(code) = err.as_database_error().and_then(|error| error.code()) else {
        return false;
    };
    match code.parse::<u32>() {
        Ok(sqlite) if code.len() < 5 => matches!(sqlite & 0xff, 5 | 6),
        _ => matches!(&*code, "40001" | "40P01" | "55P03"),
    }
}

/// A durable operation's transaction (`poem_idempotency::durable`): a database failure is internal;
/// another execution's commit of the key is a conflict, which the idempotency guard answers
/// with that execution's answer, so no client sees it.
impl From<poem_idempotency::DurableError> for AppError {
    fn from(err: poem_idempotency::DurableError) -> Self {
        match err {
            poem_idempotency::DurableError::Database(err) => Self::from(err),
            superseded @ poem_idempotency::DurableError::Superseded => {
                Self::Conflict(superseded.to_string())
            }
            poem_idempotency::DurableError::Body(_) => Self::internal(err),
        }
    }
}

impl poem::error::ResponseError for AppError {
    fn status(&self) -> StatusCode {
        AppError::status(self)
    }

    fn as_response(&self) -> Response {
        if let Self::Internal(source) = self {
            tracing::error!(error = %source, "request failed with an internal error");
        }
        let mut response = self.to_problem().into_response();
        match self {
            Self::TooManyRequests { retry_after_secs } | Self::Busy { retry_after_secs } => {
                response
                    .headers_mut()
                    .insert(poem::http::header::RETRY_AFTER, (*retry_after_secs).into());
            }
            // RFC 9110 §11.6.1: a 401 names the scheme that would be accepted.
            Self::Unauthorized(_) => {
                response.headers_mut().insert(
                    poem::http::header::WWW_AUTHENTICATE,
                    poem::http::HeaderValue::from_static("Bearer"),
                );
            }
            _ => {}
        }
        response
    }
}
