//! New notifications, pushed to the streams their recipients hold open.
//!
//! Without Redis a notification reaches the streams of the instance that made it. With Redis it
//! is published on one channel that every instance subscribes to (a sharded channel on a Redis
//! Cluster), so it reaches its recipient's streams wherever they are connected. A notification is stored before it is published, so a
//! stream that misses one (Redis down, a reconnection) loses nothing the list does not show.

use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use infra::redis::Redis;
use poem_openapi::types::{ParseFromJSON, ToJSON};
use tokio::sync::broadcast;

use crate::model::Notification;

/// How many notifications a slow stream may fall behind before it skips some.
const BUFFER: usize = 1024;

/// One new notification and whose it is.
#[derive(Debug, Clone)]
pub struct FeedItem {
    pub recipient_id: String,
    pub notification: Notification,
}

impl FeedItem {
    fn to_message(&self) -> String {
        serde_json::json!({
            "recipientId": self.recipient_id,
            "notification": self.notification.to_json(),
        })
        .to_string()
    }

    fn from_message(message: &str) -> Option<Self> {
        let mut value: serde_json::Value = serde_json::from_str(message).ok()?;
        Some(Self {
            recipient_id: value["recipientId"].as_str()?.to_owned(),
            notification: Notification::parse_from_json(Some(value["notification"].take())).ok()?,
        })
    }
}

/// The feed of one instance.
#[derive(Clone)]
pub struct NotificationFeed {
    local: broadcast::Sender<Arc<FeedItem>>,
    shared: Option<Arc<Shared>>,
}

struct Shared {
    /// The host's Redis (`ModuleContext::redis`).
    redis: Redis,
    channel: String,
    /// Whether this instance is subscribed right now.
    subscribed: tokio::sync::watch::Sender<bool>,
}

impl NotificationFeed {
    /// A feed through `redis` (channel `{key_prefix}notifications:new`), or in process
    /// without one.
    pub fn new(redis: Option<Redis>, key_prefix: &str) -> Self {
        let (local, _) = broadcast::channel(BUFFER);
        let shared = redis.map(|redis| {
            Arc::new(Shared {
                redis,
                channel: format!("{key_prefix}notifications:new"),
                subscribed: tokio::sync::watch::Sender::new(false),
            })
        });
        Self { local, shared }
    }

    /// The new notifications from now on, of every recipient. With Redis, waits up to `limit`
    /// for this instance's subscription (just started, or reconnecting), so that a stream opened
    /// then does not miss what is sent right after.
    pub async fn subscribe(&self, limit: Duration) -> broadcast::Receiver<Arc<FeedItem>> {
        let receiver = self.local.subscribe();
        if let Some(shared) = &self.shared {
            let mut subscribed = shared.subscribed.subscribe();
            let _ =
                tokio::time::timeout(limit, subscribed.wait_for(|subscribed| *subscribed)).await;
        }
        receiver
    }

    /// Pushes a new notification to its recipient's streams, on every instance.
    pub async fn publish(&self, item: FeedItem) {
        if let Some(shared) = &self.shared {
            match shared.publish(&item.to_message()).await {
                Ok(()) => return,
                Err(err) => tracing::warn!(
                    error = %err,
                    "could not publish a notification through Redis; only this instance's streams get it"
                ),
            }
        }
        // No receiver is not an error: nobody is streaming.
        let _ = self.local.send(Arc::new(item));
    }

    /// With Redis: the task that feeds this instance's streams from the channel, resubscribing
    /// after a disconnection. `None` without Redis.
    pub fn follow(&self) -> Option<impl Future<Output = ()> + Send + 'static> {
        let shared = Arc::clone(self.shared.as_ref()?);
        let local = self.local.clone();
        Some(async move {
            let mut pause = Duration::from_millis(250);
            loop {
                match shared.follow_once(&local).await {
                    Ok(()) => pause = Duration::from_millis(250),
                    Err(err) => {
                        tracing::warn!(error = %err, "the notification stream's Redis subscription failed")
                    }
                }
                shared.subscribed.send_replace(false);
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(5));
            }
        })
    }
}

impl Shared {
    /// Bounded by the `redis.*_timeout` settings: a Redis that does not answer costs a send
    /// that long, not a hung request.
    async fn publish(&self, message: &str) -> redis::RedisResult<()> {
        self.redis.publish(&self.channel, message.as_bytes()).await
    }

    /// One subscription, until its connection ends.
    async fn follow_once(
        &self,
        local: &broadcast::Sender<Arc<FeedItem>>,
    ) -> redis::RedisResult<()> {
        let mut messages = self.redis.subscribe(&self.channel).await?;
        self.subscribed.send_replace(true);
        while let Some(payload) = messages.next().await {
            let item = std::str::from_utf8(&payload)
                .ok()
                .and_then(FeedItem::from_message);
            if let Some(item) = item {
                let _ = local.send(Arc::new(item));
            }
        }
        Ok(())
    }
}
