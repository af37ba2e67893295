//! The mail worker: sends what the outbox owes, at least once.
//!
//! Every instance may run one; they share the queue through the database (see
//! [`NotificationRepository::claim_due`]). A claimed mail is held for `claim_lease`: a worker
//! that dies mid-mail (or hangs) loses it to another worker once the lease ends. The attempt is
//! counted when claimed, so a mail that kills its worker every time is still dead-lettered.
//!
//! A mail may thus be sent twice (sent, then the worker died before recording it). Its
//! `Message-ID` is derived from the delivery, so the copies are one message to mail clients.

use std::sync::Arc;
use std::time::Duration;

use infra::UserDirectory;
use infra::database::now_ms;
use infra::mail::{Mail, Mailer};
use tokio::sync::Notify;

use crate::NotificationsSettings;
use crate::metrics::MailMetrics;
use crate::repository::{ClaimedDelivery, DeliveryEnd, NotificationRepository};

/// The worker of one instance.
pub struct DeliveryWorker {
    repository: NotificationRepository,
    mailer: Arc<dyn Mailer>,
    directory: Arc<dyn UserDirectory>,
    settings: NotificationsSettings,
    metrics: MailMetrics,
    /// This worker's name on the rows it claims.
    id: String,
    wake: Notify,
}

impl DeliveryWorker {
    pub fn new(
        repository: NotificationRepository,
        mailer: Arc<dyn Mailer>,
        directory: Arc<dyn UserDirectory>,
        settings: NotificationsSettings,
        metrics: MailMetrics,
    ) -> Self {
        Self {
            repository,
            mailer,
            directory,
            settings,
            metrics,
            id: uuid::Uuid::new_v4().to_string(),
            wake: Notify::new(),
        }
    }

    /// Looks for due mails now rather than at the next poll (a notification was just made).
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// Sends due mails until the task is aborted.
    pub async fn run(self: Arc<Self>) {
        loop {
            let claimed = match self.deliver_due().await {
                Ok(claimed) => claimed,
                Err(err) => {
                    tracing::warn!(error = %err, "the notification mail worker could not claim mails");
                    0
                }
            };
            match self.repository.count_dead_letters().await {
                Ok(count) => self.metrics.set_dead_letters(count),
                Err(err) => {
                    tracing::warn!(error = %err, "the notification mail worker could not count the dead letters");
                }
            }
            // A full batch: there may be more at once.
            if claimed < self.settings.batch_size as usize {
                tokio::select! {
                    () = self.wake.notified() => {}
                    () = tokio::time::sleep(self.settings.poll_interval) => {}
                }
            }
        }
    }

    /// Claims one batch of due mails and sends them; how many it claimed.
    pub async fn deliver_due(&self) -> kernel::AppResult<usize> {
        let lease_until = now_ms() + millis(self.settings.claim_lease);
        let claimed = self
            .repository
            .claim_due(&self.id, lease_until, self.settings.batch_size)
            .await?;
        let count = claimed.len();
        for delivery in claimed {
            if let Err(err) = self.deliver(&delivery).await {
                // The lease ends it: another attempt comes after it.
                tracing::warn!(error = %err, delivery = %delivery.id, "could not record a notification mail");
            }
        }
        Ok(count)
    }

    async fn deliver(&self, delivery: &ClaimedDelivery) -> kernel::AppResult<()> {
        let Some((title, body)) = &delivery.content else {
            return self
                .end(
                    delivery,
                    DeliveryEnd::Skipped,
                    Some("deleted by the recipient"),
                )
                .await;
        };
        let contact = self.directory.contact(&delivery.recipient_id).await?;
        let Some(to) = contact.and_then(|contact| contact.confirmed_email) else {
            return self
                .end(delivery, DeliveryEnd::Skipped, Some("no confirmed address"))
                .await;
        };
        let mail = Mail {
            to,
            subject: title.clone(),
            text: body.clone(),
            html: format!("<p>{}</p>", escape_html(body)),
            message_id: Some(format!(
                "notification-{}@{}",
                delivery.id, self.settings.message_id_domain
            )),
        };
        match self.mailer.send(mail).await {
            Ok(()) => self.end(delivery, DeliveryEnd::Sent, None).await,
            Err(err) if delivery.attempts >= self.settings.max_attempts => {
                tracing::error!(error = %err, delivery = %delivery.id, attempts = delivery.attempts, "a notification mail failed its last attempt and is dead-lettered");
                self.metrics.dead_lettered();
                self.end(delivery, DeliveryEnd::Dead, Some(&err.to_string()))
                    .await
            }
            Err(err) => {
                let due = now_ms() + millis(backoff(&self.settings, delivery.attempts));
                tracing::warn!(error = %err, delivery = %delivery.id, attempts = delivery.attempts, "a notification mail failed; it will be tried again");
                self.repository
                    .retry_at(&delivery.id, &self.id, due, &err.to_string())
                    .await
            }
        }
    }

    async fn end(
        &self,
        delivery: &ClaimedDelivery,
        end: DeliveryEnd,
        reason: Option<&str>,
    ) -> kernel::AppResult<()> {
        self.repository
            .finish(&delivery.id, &self.id, end, reason)
            .await
    }
}

/// The wait after the `attempts`-th failure: `retry_base`, doubled per attempt, at most
/// `retry_max`.
fn backoff(settings: &NotificationsSettings, attempts: u32) -> Duration {
    let doublings = attempts.saturating_sub(1).min(20);
    settings
        .retry_base
        .saturating_mul(1 << doublings)
        .min(settings.retry_max)
}

fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\n', "<br>")
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::{backoff, escape_html};
    use crate::NotificationsSettings;

    #[test]
    fn the_wait_doubles_from_the_base_up_to_the_maximum() {
        let settings = NotificationsSettings {
            retry_base: Duration::from_secs(5),
            retry_max: Duration::from_secs(60),
            ..Default::default()
        };
        let waits: Vec<u64> = (1..=6).map(|n| backoff(&settings, n).as_secs()).collect();
        assert_eq!(waits, [5, 10, 20, 40, 60, 60]);
        assert_eq!(backoff(&settings, u32::MAX).as_secs(), 60);
    }

    #[test]
    fn a_body_cannot_inject_markup_into_the_html_mail() {
        assert_eq!(
            escape_html("<script>\"x\" & y\nz"),
            "&lt;script&gt;&quot;x&quot; &amp; y<br>z"
        );
    }
}
