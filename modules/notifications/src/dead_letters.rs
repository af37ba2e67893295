//! The administrators' view of the outbox's dead letters: notification mails that failed their
//! last attempt, listed with the last error, and put back in the queue once the cause is fixed
//! (the mail server is back, the address corrected). Doc comments here are the OpenAPI text.

use std::sync::Arc;

use infra::database::now_ms;
use infra::{UserDirectory, require_any_role};
use kernel::auth::{ADMIN_ROLE, SESSION_ENDED};
use kernel::{AppError, BearerAuth, Page, PageRequest};
use poem_idempotency::{OutcomeRecorder, Recorded};
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, OpenApi, Tags};

use crate::model::MailDelivery;
use crate::outbox::DeliveryWorker;
use crate::repository::{NotificationRepository, Revival};

#[derive(Tags)]
enum ApiTags {
    /// Notification mails the outbox could not send (administrators only).
    Mail,
}

/// The `/admin/mail` operations.
pub struct DeadLettersApi {
    repository: NotificationRepository,
    worker: Arc<DeliveryWorker>,
    /// Who is an administrator now (the access token's claim is not enough).
    directory: Arc<dyn UserDirectory>,
}

impl DeadLettersApi {
    pub fn new(
        repository: NotificationRepository,
        worker: Arc<DeliveryWorker>,
        directory: Arc<dyn UserDirectory>,
    ) -> Self {
        Self {
            repository,
            worker,
            directory,
        }
    }
}

#[derive(ApiResponse)]
enum DeadLettersResponse {
    /// One page of the dead letters, the latest to fail first.
    #[oai(status = 200)]
    Ok(Json<Page<MailDelivery>>),
}

#[derive(ApiResponse)]
enum RetryResponse {
    /// Back in the queue (`state` is `pending`), due now, with its attempts counted afresh.
    #[oai(status = 202)]
    Accepted(Json<MailDelivery>),
}

const ADMINS_ONLY: &str = "Dead letters are for administrators only.";
const NO_SUCH_MAIL: &str = "No notification mail has this id.";
const NOT_DEAD: &str =
    "The mail is not a dead letter: it was sent or skipped, or is queued already.";

kernel::operation_error! {
    /// How listing the dead letters fails.
    ListDeadLettersError {
        UNAUTHORIZED => SESSION_ENDED,
        FORBIDDEN => ADMINS_ONLY,
    }
}
kernel::operation_error! {
    /// How retrying a dead letter fails.
    RetryError {
        UNAUTHORIZED => SESSION_ENDED,
        FORBIDDEN => ADMINS_ONLY,
        NOT_FOUND => NO_SUCH_MAIL,
        CONFLICT => NOT_DEAD,
    }
}

#[poem_idempotency::intents]
#[OpenApi(prefix_path = "/admin/mail", tag = "ApiTags::Mail")]
impl DeadLettersApi {
    /// List the dead letters
    ///
    /// Notification mails that failed every attempt (`notifications.max_attempts`), with what
    /// the mail server said last. They are never tried again unless retried here. `total`
    /// counts them all; the `notifications.mail.dead_letters` metric reports the same count.
    #[oai(
        path = "/dead-letters",
        method = "get",
        operation_id = "listMailDeadLetters"
    )]
    #[tracing::instrument(name = "notifications.dead_letters", skip_all, fields(user.id = %auth.0.subject))]
    async fn list(
        &self,
        auth: BearerAuth,
        paging: PageRequest,
    ) -> Result<DeadLettersResponse, ListDeadLettersError> {
        require_any_role(&*self.directory, &auth.0, &[ADMIN_ROLE], ADMINS_ONLY).await?;
        let (items, total) = self.repository.dead_letters(paging).await?;
        Ok(DeadLettersResponse::Ok(Json(Page::new(
            items, paging, total,
        ))))
    }

    /// Retry a dead letter
    ///
    /// Puts the mail back in the queue, due now, with a fresh count of attempts; the mail
    /// worker sends it as it sends any other (to the recipient's confirmed address at that
    /// time). The change and this answer are recorded together, so a retry of this request
    /// with the same `Idempotency-Key` gets this 202 again, even once the mail is sent.
    #[idempotent]
    #[oai(
        path = "/dead-letters/:id/retry",
        method = "post",
        operation_id = "retryMailDeadLetter"
    )]
    #[tracing::instrument(name = "notifications.retry_dead_letter", skip_all, fields(user.id = %auth.0.subject, mail.id = %id.0))]
    async fn retry(
        &self,
        auth: BearerAuth,
        outcome: OutcomeRecorder,
        id: Path<String>,
    ) -> Result<Recorded<RetryResponse>, RetryError> {
        require_any_role(&*self.directory, &auth.0, &[ADMIN_ROLE], ADMINS_ONLY).await?;
        let mut tx = outcome.begin(self.repository.pool()).await?;
        let revived = match self.repository.revive(&mut tx, &id.0, now_ms()).await? {
            Revival::Revived(delivery) => delivery,
            Revival::NotDead(_) => return Err(AppError::Conflict(NOT_DEAD.into()).into()),
            Revival::NotFound => return Err(AppError::NotFound(NO_SUCH_MAIL.into()).into()),
        };
        let accepted = tx.commit(RetryResponse::Accepted(Json(revived))).await?;
        self.worker.wake();
        Ok(accepted)
    }
}
