//! The notifications module: messages that administrators (or callers with the
//! `notifications:send` role) send to an account, which its owner lists, reads and deletes.
//!
//! - [`api`]: the HTTP operations (their doc comments are the OpenAPI text);
//! - [`model`]: what is sent and shown;
//! - [`repository`]: the SQL of notifications and of the outbox of mails to send;
//! - [`outbox`]: the worker each instance runs to send those mails (at least once, with a
//!   stable `Message-ID`, retried with backoff, dead-lettered after `max_attempts`);
//! - [`dead_letters`]: the administrators' view of the mails that failed their last attempt,
//!   and their retry;
//! - [`metrics`]: mails dead-lettered, and dead letters waiting;
//! - [`feed`]: new notifications pushed to the recipient's open streams, across instances
//!   through Redis pub/sub when it is configured.
//!
//! A notification and its mail job are written in one transaction (a transactional outbox), so
//! neither exists without the other. It depends only on the `shared/` crates: the recipient's
//! address, and the sender's or administrator's current roles (read on every request, never
//! taken from the access token), come from `ModuleContext::directory`, which the host fills in.

pub mod api;
pub mod dead_letters;
pub mod feed;
pub mod metrics;
pub mod model;
pub mod outbox;
pub mod repository;

use std::sync::Arc;
use std::time::Duration;

use infra::{Migration, Module, ModuleContext};
use serde::Deserialize;

pub use api::NotificationsApi;
pub use dead_letters::DeadLettersApi;

/// The role, besides `admin`, that may send notifications.
pub const SENDER_ROLE: &str = "notifications:send";

/// `[notifications]` settings.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NotificationsSettings {
    /// Run the mail worker in this instance. Every instance may: they share the work safely.
    pub deliver: bool,
    /// How often an idle worker looks for due mails (a notification made on this instance
    /// wakes it at once).
    #[serde(with = "humantime_serde")]
    pub poll_interval: Duration,
    /// How long a worker holds a mail it claimed; past it, another worker may take it over
    /// (the first one died or hung).
    #[serde(with = "humantime_serde")]
    pub claim_lease: Duration,
    /// Mails claimed at once.
    pub batch_size: u32,
    /// Attempts before a mail is dead-lettered.
    pub max_attempts: u32,
    /// The wait after the first failed attempt; it doubles with every attempt, up to
    /// `retry_max`.
    #[serde(with = "humantime_serde")]
    pub retry_base: Duration,
    #[serde(with = "humantime_serde")]
    pub retry_max: Duration,
    /// The domain of the `Message-ID`s of notification mails.
    pub message_id_domain: String,
}

impl Default for NotificationsSettings {
    fn default() -> Self {
        Self {
            deliver: true,
            poll_interval: Duration::from_secs(2),
            claim_lease: Duration::from_secs(60),
            batch_size: 10,
            max_attempts: 8,
            retry_base: Duration::from_secs(5),
            retry_max: Duration::from_secs(30 * 60),
            message_id_domain: "notifications.localhost".to_owned(),
        }
    }
}

/// The module, as the host mounts it.
pub struct NotificationsModule;

impl Module for NotificationsModule {
    const NAME: &'static str = "notifications";
    type Settings = NotificationsSettings;
    type Api = (NotificationsApi, DeadLettersApi);

    fn migrations() -> &'static [Migration] {
        // Every file in migrations/, in version order: build.rs finds them (module-build).
        include!(concat!(env!("OUT_DIR"), "/migrations.rs"))
    }

    fn api(context: &ModuleContext, settings: NotificationsSettings) -> anyhow::Result<Self::Api> {
        let repository = repository::NotificationRepository::new(context.database.clone());
        let feed =
            feed::NotificationFeed::new(context.redis.clone(), &context.settings.redis.key_prefix);
        if let Some(follow) = feed.follow() {
            context.background.spawn(follow);
        }
        let worker = Arc::new(outbox::DeliveryWorker::new(
            repository.clone(),
            Arc::clone(&context.mailer),
            Arc::clone(&context.directory),
            settings.clone(),
            metrics::MailMetrics::global(),
        ));
        if settings.deliver {
            context.background.spawn(Arc::clone(&worker).run());
        }
        Ok((
            NotificationsApi::new(
                repository.clone(),
                feed,
                Arc::clone(&worker),
                Arc::clone(&context.directory),
                context.revocations.revoked_sessions(),
                context.background.stopping(),
            ),
            DeadLettersApi::new(repository, worker, Arc::clone(&context.directory)),
        ))
    }
}
