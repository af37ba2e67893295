//! The ledger service: payments into accounts, kept in PostgreSQL through a `PgPool` and
//! `sqlx::query!`, each committed exactly once per `Idempotency-Key` with its answer in the same
//! transaction. The example's `main` serves it; the crate's tests serve it too, on a real
//! socket.

use std::sync::Arc;

use poem::{EndpointExt, Route};
use poem_idempotency::openapi::annotated_document_endpoint;
use poem_idempotency::{DurableError, Idempotency, OutcomeRecorder, Recorded};
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi, OpenApiService};
use sqlx::PgPool;

/// The ledger's schema, the idempotency layer's outcomes table included (as sqlx migration
/// files: `examples/ledger/migrations`).
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("examples/ledger/migrations");

/// A payment as clients send it.
#[derive(Debug, Clone, Object)]
pub struct NewPayment {
    /// How much, in cents.
    pub amount_cents: i64,
}

/// A payment as the ledger keeps it.
#[derive(Debug, Clone, Object)]
pub struct Payment {
    /// Its number, in the order payments were made.
    pub id: i64,
    /// The account paid into.
    pub account: String,
    /// How much, in cents.
    pub amount_cents: i64,
    /// The account's balance once it was made, in cents.
    pub balance_cents: i64,
}

/// An account's balance.
#[derive(Debug, Clone, Object)]
pub struct Balance {
    /// The account.
    pub account: String,
    /// The sum of its payments, in cents.
    pub balance_cents: i64,
    /// How many payments it had: a retry that executed again would show here.
    pub payments: i64,
}

#[derive(ApiResponse)]
enum Paid {
    /// The payment, made.
    #[oai(status = 201)]
    Payment(Json<Payment>),
}

/// Why the ledger could not answer: its database failed.
#[derive(Debug, thiserror::Error)]
enum LedgerError {
    #[error(transparent)]
    Durable(#[from] DurableError),
    #[error("the ledger's database failed")]
    Database(#[from] sqlx::Error),
}

impl poem::error::ResponseError for LedgerError {
    fn status(&self) -> poem::http::StatusCode {
        match self {
            Self::Durable(durable) => poem::error::ResponseError::status(durable),
            Self::Database(_) => poem::http::StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

/// The ledger, in `pool`'s database.
pub struct LedgerApi {
    pool: PgPool,
}

impl LedgerApi {
    /// The ledger in `pool`'s database, with [`MIGRATOR`] run.
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

#[poem_idempotency::intents]
#[OpenApi]
impl LedgerApi {
    /// Pay into an account
    ///
    /// Send an `Idempotency-Key` and retry with the same one: the payment is made once, and
    /// every retry gets its 201 back, even after the service restarted.
    #[idempotent]
    #[oai(
        path = "/accounts/:account/payments",
        method = "post",
        operation_id = "pay"
    )]
    async fn pay(
        &self,
        outcome: OutcomeRecorder,
        account: Path<String>,
        payment: Json<NewPayment>,
    ) -> poem::Result<Recorded<Paid>> {
        Ok(self.pay_once(outcome, account.0, payment.0).await?)
    }

    /// An account's balance
    #[oai(path = "/accounts/:account", method = "get", operation_id = "balance")]
    async fn balance(&self, account: Path<String>) -> poem::Result<Json<Balance>> {
        Ok(Json(self.balance_of(account.0).await?))
    }
}

impl LedgerApi {
    /// Makes the payment and commits its answer with it: a retry after a crash finds the
    /// answer.
    async fn pay_once(
        &self,
        outcome: OutcomeRecorder,
        account: String,
        payment: NewPayment,
    ) -> Result<Recorded<Paid>, LedgerError> {
        let mut tx = outcome.begin(&self.pool).await?;
        let id = sqlx::query_scalar!(
            "INSERT INTO payments (account, amount_cents) VALUES ($1, $2) RETURNING id",
            account,
            payment.amount_cents
        )
        .fetch_one(&mut *tx)
        .await?;
        let balance_cents = sqlx::query_scalar!(
            r#"SELECT COALESCE(SUM(amount_cents), 0)::BIGINT AS "balance!" FROM payments
               WHERE account = $1"#,
            account
        )
        .fetch_one(&mut *tx)
        .await?;
        let answer = Paid::Payment(Json(Payment {
            id,
            account,
            amount_cents: payment.amount_cents,
            balance_cents,
        }));
        Ok(tx.commit(answer).await?)
    }

    async fn balance_of(&self, account: String) -> Result<Balance, LedgerError> {
        let totals = sqlx::query!(
            r#"SELECT COALESCE(SUM(amount_cents), 0)::BIGINT AS "balance!", COUNT(*) AS "payments!"
               FROM payments WHERE account = $1"#,
            account
        )
        .fetch_one(&self.pool)
        .await?;
        Ok(Balance {
            account,
            balance_cents: totals.balance,
            payments: totals.payments,
        })
    }
}

/// The whole service: the API, its document at `/openapi.json`, and the layer in the request
/// data. `idempotency` has the outcomes table of the same pool
/// (`with_durable_outcomes(DurableOutcomes::new(pool))`).
pub fn service(api: LedgerApi, idempotency: Arc<Idempotency>) -> Route {
    let api = OpenApiService::new(api, "Ledger", "1.0");
    let document = annotated_document_endpoint(&api, idempotency.settings());
    Route::new()
        .at("/openapi.json", document)
        .nest("/", api.data(idempotency))
}
