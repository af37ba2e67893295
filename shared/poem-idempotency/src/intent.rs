//! What each operation declares about retries, as recorded by `#[intents]`.
//!
//! The host gathers every API's [`DeclaredIntents`] and [`crate::openapi`] writes them into the
//! OpenAPI document; the gate in the testing crate then checks the document against what the
//! running service does.

/// Whether a retry of an operation may execute again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Intent {
    /// Wrapped by the idempotency guard: a retry with the same key replays the first response.
    Idempotent {
        /// Requests without a key are refused (400).
        key_required: bool,
        /// What a keyed request gets when the store cannot be reached.
        on_store_failure: OnStoreFailure,
        /// Where the operation's effect lands, and so whether its answer is committed with it.
        effect: Effect,
        /// Headers that belong to the request besides its body, target and preconditions
        /// (`["X-Tenant"]`): the same key with another value of one is another request (422).
        fingerprint_headers: &'static [&'static str],
    },
    /// Deliberately not deduplicated, for the stated reason.
    NonIdempotent {
        /// Why a retry must execute again (or why it needs no stored answer).
        justification: &'static str,
    },
}

/// What a keyed request to an idempotent operation gets when the store cannot be reached.
///
/// By default a store outage removes the guard, not the endpoint: the request
/// executes unguarded ([`OnStoreFailure::Execute`], the default). An operation for which a
/// duplicate costs more than an outage (a payment, a notification to a person) declares
/// `#[idempotent(on_store_failure = "reject")]` and answers 503 with `Retry-After` instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OnStoreFailure {
    /// Fail open: execute without the guard.
    #[default]
    Execute,
    /// Fail closed: answer 503 and execute nothing.
    Reject,
}

/// Where an idempotent operation's effect lands.
///
/// By default in the database, and then the answer is committed in the same transaction as the
/// effect ([`crate::durable`]): a retry after a crash, a Redis failover or a lost store write
/// replays instead of executing again. An operation whose effect is elsewhere says what it
/// does instead (`#[idempotent(outside_database = "queues a mail")]`): it has no transaction to
/// commit an answer in, and the store alone guards it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Written to the database, with the answer (the default).
    Database,
    /// Not in the database: what the operation does instead.
    OutsideDatabase(&'static str),
}

impl Effect {
    /// Whether the answer is committed with the effect.
    pub const fn is_durable(self) -> bool {
        matches!(self, Effect::Database)
    }
}

impl Intent {
    /// Idempotent, key optional, failing open, its effect and answer committed together in the
    /// database: what a bare `#[idempotent]` declares.
    pub const IDEMPOTENT: Intent = Intent::Idempotent {
        key_required: false,
        on_store_failure: OnStoreFailure::Execute,
        effect: Effect::Database,
        fingerprint_headers: &[],
    };

    /// Whether the operation must commit its answer with its effect (and so return
    /// [`crate::Recorded`]).
    pub const fn is_durable(self) -> bool {
        match self {
            Intent::Idempotent { effect, .. } => effect.is_durable(),
            Intent::NonIdempotent { .. } => false,
        }
    }

    /// `intent`, refusing (at compile time, in a `const`) a blank justification: what
    /// `#[inherit_intent]` checks inherited declarations with.
    pub const fn checked(intent: Intent) -> Intent {
        let explanation = match intent {
            Intent::NonIdempotent { justification } => Some(justification),
            Intent::Idempotent {
                effect: Effect::OutsideDatabase(what),
                ..
            } => Some(what),
            Intent::Idempotent { .. } => None,
        };
        if let Some(justification) = explanation {
            let bytes = justification.as_bytes();
            let mut i = 0;
            let mut blank = true;
            while i < bytes.len() {
                if !bytes[i].is_ascii_whitespace() {
                    blank = false;
                }
                i += 1;
            }
            assert!(
                !blank,
                "a blank justification explains nothing: say why a retry must execute again, \
                 or what an effect outside the database is"
            );
        }
        intent
    }
}

/// One operation's declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OperationIntent {
    /// The operation's `operationId`, by which the document and the gate find it.
    pub operation_id: &'static str,
    /// Upper-case HTTP method.
    pub method: &'static str,
    /// The path as declared (API prefix included, host prefix not), e.g. `/things/:id`.
    pub path: &'static str,
    /// What it declares.
    pub intent: Intent,
}

/// Implemented by `#[intents]` for an API type, and here for tuples of APIs, as poem-openapi
/// combines them.
pub trait DeclaredIntents {
    /// Every operation's declaration, in the order of the API's operations.
    fn declared_intents() -> Vec<OperationIntent>;
}

impl DeclaredIntents for () {
    fn declared_intents() -> Vec<OperationIntent> {
        Vec::new()
    }
}

macro_rules! tuple_intents {
    ($($name:ident),+) => {
        impl<$($name: DeclaredIntents),+> DeclaredIntents for ($($name,)+) {
            fn declared_intents() -> Vec<OperationIntent> {
                let mut all = Vec::new();
                $(all.extend($name::declared_intents());)+
                all
            }
        }
    };
}

tuple_intents!(A);
tuple_intents!(A, B);
tuple_intents!(A, B, C);
tuple_intents!(A, B, C, D);
tuple_intents!(A, B, C, D, E);
tuple_intents!(A, B, C, D, E, F);
tuple_intents!(A, B, C, D, E, F, G);
tuple_intents!(A, B, C, D, E, F, G, H);
tuple_intents!(A, B, C, D, E, F, G, H, I);
tuple_intents!(A, B, C, D, E, F, G, H, I, J);
tuple_intents!(A, B, C, D, E, F, G, H, I, J, K);
tuple_intents!(A, B, C, D, E, F, G, H, I, J, K, L);
tuple_intents!(A, B, C, D, E, F, G, H, I, J, K, L, M);
tuple_intents!(A, B, C, D, E, F, G, H, I, J, K, L, M, N);
tuple_intents!(A, B, C, D, E, F, G, H, I, J, K, L, M, N, O);
tuple_intents!(A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P);

#[cfg(test)]
mod tests {
    use super::*;

    const BLANKS: [&str; 3] = ["", " ", " \t\n "];

    #[test]
    fn a_justification_with_words_is_accepted_whatever_surrounds_them() {
        for justification in ["why", "  why  ", "\twhy"] {
            let intent = Intent::NonIdempotent { justification };

            assert_eq!(Intent::checked(intent), intent);
        }
        assert_eq!(Intent::checked(Intent::IDEMPOTENT), Intent::IDEMPOTENT);
    }

    #[test]
    fn a_blank_justification_is_refused() {
        for justification in BLANKS {
            let checked = std::panic::catch_unwind(|| {
                Intent::checked(Intent::NonIdempotent { justification })
            });
            assert!(checked.is_err(), "{justification:?} explains nothing");
        }
    }

    #[test]
    fn a_blank_effect_outside_the_database_is_refused() {
        for what in BLANKS {
            let checked = std::panic::catch_unwind(|| {
                Intent::checked(Intent::Idempotent {
                    key_required: false,
                    on_store_failure: OnStoreFailure::Execute,
                    effect: Effect::OutsideDatabase(what),
                    fingerprint_headers: &[],
                })
            });
            assert!(checked.is_err(), "{what:?} says nothing");
        }
    }

    #[test]
    fn only_an_idempotent_intent_with_its_effect_in_the_database_is_durable() {
        let outside = Intent::Idempotent {
            key_required: false,
            on_store_failure: OnStoreFailure::Execute,
            effect: Effect::OutsideDatabase("a mail"),
            fingerprint_headers: &[],
        };

        assert!(Intent::IDEMPOTENT.is_durable());
        assert!(!outside.is_durable());
        assert!(
            !Intent::NonIdempotent {
                justification: "why"
            }
            .is_durable()
        );
    }

    #[test]
    fn a_tuple_of_apis_declares_every_api_s_intents_in_order() {
        struct First;
        struct Second;
        impl DeclaredIntents for First {
            fn declared_intents() -> Vec<OperationIntent> {
                vec![OperationIntent {
                    operation_id: "first",
                    method: "POST",
                    path: "/a",
                    intent: Intent::IDEMPOTENT,
                }]
            }
        }
        impl DeclaredIntents for Second {
            fn declared_intents() -> Vec<OperationIntent> {
                vec![OperationIntent {
                    operation_id: "second",
                    method: "DELETE",
                    path: "/b",
                    intent: Intent::NonIdempotent {
                        justification: "why",
                    },
                }]
            }
        }

        let ids: Vec<&str> = <(First, Second, ())>::declared_intents()
            .iter()
            .map(|intent| intent.operation_id)
            .collect();

        assert_eq!(ids, ["first", "second"]);
    }
}
