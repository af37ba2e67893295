//! One error type per operation, each an [`AppError`] documented with the statuses its
//! operation can answer.
//!
//! Handlers fail with `?` on [`AppResult`](crate::AppResult)s and database results, and every
//! failure renders through the one mapping of [`AppError`]. What an operation's *document*
//! says it can fail with is declared beside it with [`operation_error!`]: clients are generated
//! from those statuses, so each operation lists the ones its handler can give, with what they
//! mean there, instead of a catch-all `default`. The host adds the statuses every operation can
//! answer before its handler runs (a malformed request, missing credentials, a body too large, a
//! fault); see `app/src/docs.rs`.
//!
//! ```
//! kernel::operation_error! {
//!     /// How reading a thing fails.
//!     pub GetThingError {
//!         NOT_FOUND => "The caller has no thing with this id.",
//!     }
//! }
//!
//! async fn get(found: Option<u32>) -> Result<u32, GetThingError> {
//!     Ok(found.ok_or_else(|| kernel::AppError::NotFound("No such thing.".into()))?)
//! }
//! ```
//!
//! A handler that answers a status its declaration does not list still answers it (the
//! mapping is [`AppError`]'s), and logs an error naming the operation's error type so the
//! declaration gets fixed; the contract fuzzer in CI fails on any undocumented status.

use poem::Response;
use poem::http::StatusCode;
use poem_openapi::registry::{MetaMediaType, MetaResponse, MetaResponses};
use poem_openapi::types::Type;

use crate::error::AppError;
use crate::problem::{PROBLEM_JSON, Problem};

/// One error answer an operation documents: its status and what it means for that operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErrorCase {
    pub status: StatusCode,
    pub description: &'static str,
}

/// What any handler may answer without declaring it, because the host documents it on every
/// operation: a request whose content does not validate (400), a fault (500), and writes that
/// could not wait their turn in the database (503, `AppError::Busy`).
pub const UNDECLARED_BUT_DOCUMENTED: [StatusCode; 3] = [
    StatusCode::BAD_REQUEST,
    StatusCode::INTERNAL_SERVER_ERROR,
    StatusCode::SERVICE_UNAVAILABLE,
];

/// The OpenAPI responses of `cases`, each an RFC 9457 problem.
pub fn document(cases: &[ErrorCase]) -> MetaResponses {
    MetaResponses {
        responses: cases
            .iter()
            .map(|case| MetaResponse {
                description: case.description,
                status: Some(case.status.as_u16()),
                status_range: None,
                content: vec![MetaMediaType {
                    content_type: PROBLEM_JSON,
                    schema: Problem::schema_ref(),
                }],
                headers: vec![],
            })
            .collect(),
    }
}

/// Renders `error` (through [`AppError`]'s one mapping), first logging an error when its
/// status is not among what `operation`'s `cases` document.
pub fn answer(error: &AppError, operation: &'static str, cases: &[ErrorCase]) -> Response {
    let status = error.status();
    if !is_documented(status, cases) {
        tracing::error!(
            operation,
            status = status.as_u16(),
            "an operation answered a status its documentation does not list: add it to the \
             operation's `operation_error!` declaration"
        );
    }
    poem::error::ResponseError::as_response(error)
}

/// Records in an OpenAPI `responses` object that the operation can answer `status` as a
/// problem meaning `description` (the idempotency crate's, which its refusals use: one way to
/// document a problem). For the parts of the stack that document what they answer around every
/// handler (the host, legal enforcement).
pub use poem_idempotency::openapi::document_problem;

fn is_documented(status: StatusCode, cases: &[ErrorCase]) -> bool {
    UNDECLARED_BUT_DOCUMENTED.contains(&status) || cases.iter().any(|case| case.status == status)
}

/// Declares an operation's error type: a newtype over [`AppError`] that handlers return
/// (`Result<Answer, ThatError>`; `?` converts `AppError`s and database errors into it) and
/// whose OpenAPI responses are the listed statuses, each a problem with the given description.
/// The status names are `poem::http::StatusCode`'s constants.
#[macro_export]
macro_rules! operation_error {
    (
        $(#[$attribute:meta])*
        $visibility:vis $name:ident {
            $($status:ident => $description:expr),* $(,)?
        }
    ) => {
        $(#[$attribute])*
        #[derive(Debug)]
        $visibility struct $name(pub $crate::AppError);

        impl $name {
            /// The error answers this operation documents.
            pub const CASES: &'static [$crate::ErrorCase] = &[
                $($crate::ErrorCase {
                    status: $crate::operation_error::__private::StatusCode::$status,
                    description: $description,
                }),*
            ];
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, formatter: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                ::std::fmt::Display::fmt(&self.0, formatter)
            }
        }

        impl ::std::error::Error for $name {
            fn source(&self) -> ::std::option::Option<&(dyn ::std::error::Error + 'static)> {
                ::std::option::Option::Some(&self.0)
            }
        }

        impl ::std::convert::From<$crate::AppError> for $name {
            fn from(error: $crate::AppError) -> Self {
                Self(error)
            }
        }

        impl ::std::convert::From<$crate::operation_error::__private::sqlx::Error> for $name {
            fn from(error: $crate::operation_error::__private::sqlx::Error) -> Self {
                Self($crate::AppError::from(error))
            }
        }

        impl ::std::convert::From<$crate::operation_error::__private::DurableError> for $name {
            fn from(error: $crate::operation_error::__private::DurableError) -> Self {
                Self($crate::AppError::from(error))
            }
        }

        impl $crate::operation_error::__private::poem::error::ResponseError for $name {
            fn status(&self) -> $crate::operation_error::__private::StatusCode {
                self.0.status()
            }

            fn as_response(&self) -> $crate::operation_error::__private::poem::Response {
                $crate::operation_error::answer(&self.0, stringify!($name), Self::CASES)
            }
        }

        impl $crate::operation_error::__private::poem_openapi::ApiResponse for $name {
            fn meta() -> $crate::operation_error::__private::poem_openapi::registry::MetaResponses {
                $crate::operation_error::document(Self::CASES)
            }

            fn register(
                registry: &mut $crate::operation_error::__private::poem_openapi::registry::Registry,
            ) {
                <$crate::Problem as $crate::operation_error::__private::poem_openapi::types::Type>::register(
                    registry,
                );
            }
        }
    };
}

/// What [`operation_error!`] expands to refers to, so that its users need not depend on these.
#[doc(hidden)]
pub mod __private {
    pub use poem;
    pub use poem::http::StatusCode;
    pub use poem_idempotency::DurableError;
    pub use poem_openapi;
    pub use sqlx;
}

#[cfg(test)]
mod tests {
    use poem::error::ResponseError;
    use poem_openapi::ApiResponse;

    use super::*;

    crate::operation_error! {
        /// How the example operation fails.
        ExampleError {
            NOT_FOUND => "No such example.",
            CONFLICT => "The example changed meanwhile.",
        }
    }

    #[test]
    fn the_document_lists_each_declared_status_as_a_problem() {
        let meta = ExampleError::meta();
        let documented: Vec<_> = meta
            .responses
            .iter()
            .map(|response| (response.status, response.description))
            .collect();
        assert_eq!(
            documented,
            [
                (Some(404), "No such example."),
                (Some(409), "The example changed meanwhile.")
            ]
        );
        assert!(
            meta.responses
                .iter()
                .all(|response| response.content[0].content_type == PROBLEM_JSON)
        );
    }

    #[test]
    fn question_mark_turns_an_app_error_into_the_operation_error_and_keeps_its_status() {
        fn fails() -> Result<(), ExampleError> {
            Err(AppError::NotFound("No such example.".into()))?
        }
        let error = fails().unwrap_err();
        assert_eq!(error.status(), StatusCode::NOT_FOUND);
        assert_eq!(error.as_response().status(), StatusCode::NOT_FOUND);
    }

    #[test]
    fn a_database_error_becomes_an_internal_error() {
        let error = ExampleError::from(sqlx::Error::Protocol("a broken wire".into()));
        assert_eq!(error.status(), StatusCode::INTERNAL_SERVER_ERROR);
    }

    #[test]
    fn no_connection_in_time_is_busy_not_broken() {
        let error = ExampleError::from(sqlx::Error::PoolTimedOut);
        assert_eq!(error.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert!(error.as_response().headers().contains_key("retry-after"));
    }

    #[test]
    fn documenting_a_listed_status_adds_its_meaning_to_the_listed_one() {
        let mut responses = serde_json::Map::new();
        document_problem(
            &mut responses,
            StatusCode::CONFLICT,
            "The limit is reached.",
        );
        document_problem(&mut responses, StatusCode::CONFLICT, "The key is in use.");
        document_problem(&mut responses, StatusCode::CONFLICT, "The key is in use.");
        assert_eq!(
            responses["409"]["description"],
            "The limit is reached. Or: The key is in use."
        );
        assert_eq!(
            responses["409"]["content"][PROBLEM_JSON]["schema"]["$ref"],
            "#/components/schemas/Problem"
        );
    }

    #[test]
    fn answering_an_undeclared_status_logs_an_error_and_still_answers() {
        use tracing_subscriber::layer::SubscriberExt as _;
        let messages = crate::test_log::Messages::default();
        let _scope =
            tracing::subscriber::set_default(tracing_subscriber::registry().with(messages.clone()));

        let declared = ExampleError(AppError::NotFound("No such example.".into())).as_response();
        let undeclared = ExampleError(AppError::Forbidden("Not yours.".into())).as_response();

        assert_eq!(declared.status(), StatusCode::NOT_FOUND);
        assert_eq!(undeclared.status(), StatusCode::FORBIDDEN);
        let errors: Vec<_> = messages
            .0
            .lock()
            .unwrap()
            .iter()
            .filter(|(level, _)| *level == tracing::Level::ERROR)
            .map(|(_, message)| message.clone())
            .collect();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].contains("does not list"), "{errors:?}");
    }

    #[test]
    fn only_declared_statuses_and_the_host_documented_ones_count_as_documented() {
        let cases = ExampleError::CASES;
        assert!(is_documented(StatusCode::NOT_FOUND, cases));
        assert!(is_documented(StatusCode::BAD_REQUEST, cases));
        assert!(is_documented(StatusCode::INTERNAL_SERVER_ERROR, cases));
        assert!(!is_documented(StatusCode::FORBIDDEN, cases));
    }
}
