//! The HTTP operations of the notifications module. Doc comments here are the OpenAPI text.

use std::sync::Arc;
use std::time::Duration;

use crud::created_location;
use futures_util::StreamExt;
use futures_util::stream::{self, BoxStream};
use infra::database::now_ms;
use infra::{SessionEnd, UserDirectory, require_any_role};
use kernel::auth::{ADMIN_ROLE, SESSION_ENDED};
use kernel::{AppError, BearerAuth, Page, PageRequest, Principal, RevokedSessions, Timestamp};
use poem::Request;
use poem::web::sse;
use poem_idempotency::{OutcomeRecorder, Recorded};
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::{EventStream, Json};
use poem_openapi::{ApiResponse, OpenApi, Tags};
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;

use crate::SENDER_ROLE;
use crate::feed::{FeedItem, NotificationFeed};
use crate::model::{
    MarkedRead, NewNotification, Notification, StreamEnd, StreamEndReason, StreamEvent, UnreadCount,
};
use crate::outbox::DeliveryWorker;
use crate::repository::NotificationRepository;

#[derive(Tags)]
enum ApiTags {
    /// Notifications: sent to an account, read by its owner, mailed and streamed live.
    Notifications,
}

/// The notifications API.
pub struct NotificationsApi {
    repository: NotificationRepository,
    feed: NotificationFeed,
    worker: Arc<DeliveryWorker>,
    directory: Arc<dyn UserDirectory>,
    /// The sessions revoked on any instance: a stream ends with its session.
    revoked: Arc<RevokedSessions>,
    /// Cancelled when the service shuts down: open streams end then.
    stopping: CancellationToken,
}

impl NotificationsApi {
    pub fn new(
        repository: NotificationRepository,
        feed: NotificationFeed,
        worker: Arc<DeliveryWorker>,
        directory: Arc<dyn UserDirectory>,
        revoked: Arc<RevokedSessions>,
        stopping: CancellationToken,
    ) -> Self {
        Self {
            repository,
            feed,
            worker,
            directory,
            revoked,
            stopping,
        }
    }
}

/// The longest a stream lives, whatever its token says: a day.
const MAX_STREAM_MS: u64 = 24 * 60 * 60 * 1000;

/// Resolves when `principal`'s stream must end, with why: its access token expires, or its
/// session is revoked (a logout, a session revoke, a lock, a password change: each revokes the
/// session on every instance, `infra::revocation`), which the directory then explains.
async fn end_of_session(
    principal: Principal,
    revoked: Arc<RevokedSessions>,
    directory: Arc<dyn UserDirectory>,
) -> StreamEnd {
    let now = u64::try_from(now_ms()).unwrap_or(0);
    let expires_in = principal
        .expires_at
        .saturating_mul(1000)
        .saturating_sub(now);
    // (Capped: tokens live minutes, and a far instant would overflow the timer.)
    let expired = tokio::time::sleep(Duration::from_millis(expires_in.min(MAX_STREAM_MS)));
    tokio::pin!(expired);
    // Subscribed before the first check, so a revocation in between wakes the loop.
    let mut changes = revoked.changes();
    while !revoked.contains(&principal.session_id) {
        tokio::select! {
            () = &mut expired => return StreamEnd::new(StreamEndReason::AccessTokenExpired),
            changed = changes.changed() => {
                if changed.is_err() {
                    // The set is gone (the service is stopping): only the expiry is left.
                    (&mut expired).await;
                    return StreamEnd::new(StreamEndReason::AccessTokenExpired);
                }
            }
        }
    }
    let why = directory
        .session_end(&principal.subject, &principal.session_id)
        .await
        .unwrap_or_else(|err| {
            tracing::warn!(error = %err, "could not read why a streaming session ended");
            None
        });
    StreamEnd::new(match why {
        Some(SessionEnd::AccountLocked) => StreamEndReason::AccountLocked,
        Some(SessionEnd::PasswordChanged) => StreamEndReason::PasswordChanged,
        Some(SessionEnd::Revoked) | None => StreamEndReason::SessionRevoked,
    })
}

/// A stream's events as server-sent events: notifications as `message`, the end as `end`.
fn to_sse(event: StreamEvent) -> sse::Event {
    use poem_openapi::types::ToJSON as _;
    match event {
        StreamEvent::Notification(notification) => {
            sse::Event::message(notification.to_json_string())
        }
        StreamEvent::End(end) => sse::Event::message(end.to_json_string()).event_type("end"),
    }
}

#[derive(ApiResponse)]
enum SendResponse {
    /// The notification is stored (and its mail queued); `Location` addresses it for its
    /// recipient.
    #[oai(status = 201)]
    Created(Json<Notification>, #[oai(header = "Location")] String),
}

#[derive(ApiResponse)]
enum NotificationResponse {
    /// The notification.
    #[oai(status = 200)]
    Ok(Json<Notification>),
}

#[derive(ApiResponse)]
enum ChangedResponse {
    /// Done.
    #[oai(status = 204)]
    Done,
}

impl ChangedResponse {
    /// Done, or 404 when the caller had no such notification.
    fn of(found: bool) -> Result<Self, NotificationError> {
        if found {
            Ok(Self::Done)
        } else {
            Err(no_such_notification().into())
        }
    }
}

const NO_SUCH_NOTIFICATION: &str = "The caller has no notification with this id.";

/// Someone else's notification is as absent as one that never existed.
fn no_such_notification() -> AppError {
    AppError::NotFound(NO_SUCH_NOTIFICATION.into())
}

// What each operation can fail with, beyond the malformed request (400), missing credentials
// (401) and faults (500) that the host documents on every operation.
kernel::operation_error! {
    /// How sending a notification fails.
    SendError {
        UNAUTHORIZED => SESSION_ENDED,
        FORBIDDEN => "The caller has neither the `admin` nor the `notifications:send` role.",
        UNPROCESSABLE_ENTITY => "`recipientId` names no account.",
    }
}
kernel::operation_error! {
    /// How reading the caller's notifications fails.
    ReadError {}
}
kernel::operation_error! {
    /// How an operation on one of the caller's notifications fails.
    NotificationError {
        NOT_FOUND => NO_SUCH_NOTIFICATION,
    }
}

/// The roles that may send, and what a caller with neither is told.
const SENDERS: &[&str] = &[ADMIN_ROLE, SENDER_ROLE];
const SENDERS_ONLY: &str = "Sending notifications takes the `admin` or `notifications:send` role.";

#[poem_idempotency::intents]
#[OpenApi(prefix_path = "/notifications", tag = "ApiTags::Notifications")]
impl NotificationsApi {
    /// Send a notification
    ///
    /// For administrators and callers with the `notifications:send` role. The notification
    /// appears in the recipient's list and live stream (`inApp`) and is mailed to the
    /// recipient's confirmed address (`email`; nothing is mailed to an unconfirmed one). The mail
    /// is queued with the notification in one transaction and sent at least once, retried with
    /// backoff while the mail server fails.
    ///
    /// An `Idempotency-Key` is required: a retry with the same key gets the first 201 back
    /// instead of notifying the recipient twice.
    #[idempotent(key_required)]
    #[oai(path = "/", method = "post", operation_id = "sendNotification")]
    #[tracing::instrument(name = "notifications.send", skip_all, fields(user.id = %auth.0.subject))]
    async fn send(
        &self,
        req: &Request,
        auth: BearerAuth,
        outcome: OutcomeRecorder,
        body: Json<NewNotification>,
    ) -> Result<Recorded<SendResponse>, SendError> {
        require_any_role(&*self.directory, &auth.0, SENDERS, SENDERS_ONLY).await?;
        let recipient_id = body.recipient_id.as_str();
        if self.directory.contact(recipient_id).await?.is_none() {
            return Err(AppError::UnknownReference {
                field: "recipientId",
                detail: "`recipientId` names no account.".into(),
            }
            .into());
        }
        let notification = Notification {
            id: uuid::Uuid::now_v7().to_string(),
            sender_id: auth.0.subject.clone(),
            title: body.title.as_str().to_owned(),
            body: body.body.as_str().to_owned(),
            // Unique: the schema's `uniqueItems` is enforced before this runs.
            channels: body.channels.clone(),
            // Stored in whole milliseconds: shown as stored.
            created_at: Timestamp::now(),
            read_at: None,
        };
        let mut tx = outcome.begin(self.repository.pool()).await?;
        self.repository
            .insert(&mut tx, &notification, recipient_id)
            .await?;
        let location = created_location(req, &notification.id);
        let sent = tx
            .commit(SendResponse::Created(Json(notification.clone()), location))
            .await?;
        self.worker.wake();
        if notification
            .channels
            .contains(&crate::model::Channel::InApp)
        {
            self.feed
                .publish(FeedItem {
                    recipient_id: recipient_id.to_owned(),
                    notification: notification.clone(),
                })
                .await;
        }
        Ok(sent)
    }

    /// List the caller's notifications
    ///
    /// Newest first; only the unread ones with `unread=true`. `total` counts every one that
    /// matches.
    #[oai(path = "/", method = "get", operation_id = "listNotifications")]
    #[tracing::instrument(name = "notifications.list", skip_all, fields(user.id = %auth.0.subject))]
    async fn list(
        &self,
        auth: BearerAuth,
        paging: PageRequest,
        /// Only the unread ones.
        unread: Query<Option<bool>>,
    ) -> Result<Json<Page<Notification>>, ReadError> {
        let (items, total) = self
            .repository
            .list(&auth.0.subject, unread.0.unwrap_or(false), paging)
            .await?;
        Ok(Json(Page::new(items, paging, total)))
    }

    /// Count the caller's unread notifications
    #[oai(
        path = "/unread-count",
        method = "get",
        operation_id = "countUnreadNotifications"
    )]
    #[tracing::instrument(name = "notifications.unread_count", skip_all, fields(user.id = %auth.0.subject))]
    async fn unread_count(&self, auth: BearerAuth) -> Result<Json<UnreadCount>, ReadError> {
        let count = self.repository.count(&auth.0.subject, true).await?;
        Ok(Json(UnreadCount { count }))
    }

    /// Stream the caller's new notifications
    ///
    /// Server-sent events (`text/event-stream`): one `message` event per notification sent to
    /// the caller from now on, its data the notification as JSON, whichever instance of the
    /// service it was sent through. A comment line every 15 seconds keeps the connection open
    /// through proxies. A stream that falls far behind skips ahead; the list has everything.
    ///
    /// The stream lives no longer than what opened it: when the access token expires, or its
    /// session ends (logged out, revoked, the account locked, the password changed; on
    /// whichever instance that happened), a last event `end` says why (its data a `StreamEnd`:
    /// `reason` and `detail`) and the stream closes. Refresh the token (or sign in again) and
    /// open a new stream. It also ends, without that event, when the instance shuts down:
    /// reconnect.
    #[oai(path = "/stream", method = "get", operation_id = "streamNotifications")]
    #[tracing::instrument(name = "notifications.stream", skip_all, fields(user.id = %auth.0.subject))]
    async fn stream(
        &self,
        auth: BearerAuth,
    ) -> Result<EventStream<BoxStream<'static, StreamEvent>>, ReadError> {
        let principal = auth.0;
        let recipient = principal.subject.clone();
        let session = principal.session_id.clone();
        let revoked = Arc::clone(&self.revoked);
        let receiver = self.feed.subscribe(Duration::from_secs(2)).await;
        let ended: std::pin::Pin<Box<dyn Future<Output = StreamEnd> + Send>> =
            Box::pin(end_of_session(
                principal,
                Arc::clone(&self.revoked),
                Arc::clone(&self.directory),
            ));
        let events = stream::unfold(Some((receiver, ended)), move |state| {
            let recipient = recipient.clone();
            let (session, revoked) = (session.clone(), Arc::clone(&revoked));
            async move {
                let (mut receiver, mut ended) = state?;
                loop {
                    tokio::select! {
                        // The end first: nothing is delivered once the session is over.
                        biased;
                        end = &mut ended => return Some((StreamEvent::End(end), None)),
                        item = receiver.recv() => match item {
                            Ok(item) if item.recipient_id == recipient => {
                                // Revoked, but the end is still asking why: it goes first.
                                if revoked.contains(&session) {
                                    return Some((StreamEvent::End(ended.await), None));
                                }
                                let notification = item.notification.clone();
                                return Some((
                                    StreamEvent::Notification(notification),
                                    Some((receiver, ended)),
                                ));
                            }
                            Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => continue,
                            Err(broadcast::error::RecvError::Closed) => return None,
                        },
                    }
                }
            }
        });
        // Ends when the service shuts down: a client reconnects to another instance.
        let events = events.take_until(self.stopping.clone().cancelled_owned());
        Ok(
            EventStream::new(Box::pin(events) as BoxStream<'static, StreamEvent>)
                .keep_alive(Duration::from_secs(15))
                .to_event(to_sse),
        )
    }

    /// Get one of the caller's notifications
    #[oai(path = "/:id", method = "get", operation_id = "getNotification")]
    #[tracing::instrument(name = "notifications.get", skip_all, fields(user.id = %auth.0.subject, notification.id = %id.0))]
    async fn get(
        &self,
        auth: BearerAuth,
        id: Path<String>,
    ) -> Result<NotificationResponse, NotificationError> {
        let notification = self
            .repository
            .find(&auth.0.subject, &id.0)
            .await?
            .ok_or_else(no_such_notification)?;
        Ok(NotificationResponse::Ok(Json(notification)))
    }

    /// Mark a notification read
    ///
    /// A notification already read keeps the time it was first read.
    #[non_idempotent(
        "naturally idempotent: a repeat finds the notification read and changes nothing, so no answer needs storing"
    )]
    #[oai(
        path = "/:id/read",
        method = "post",
        operation_id = "markNotificationRead"
    )]
    #[tracing::instrument(name = "notifications.mark_read", skip_all, fields(user.id = %auth.0.subject, notification.id = %id.0))]
    async fn mark_read(
        &self,
        auth: BearerAuth,
        id: Path<String>,
    ) -> Result<ChangedResponse, NotificationError> {
        let found = self.repository.mark_read(&auth.0.subject, &id.0).await?;
        ChangedResponse::of(found)
    }

    /// Mark every notification read
    ///
    /// Answers how many were unread.
    #[non_idempotent(
        "naturally idempotent: a repeat finds everything read and marks nothing; its count (0) is the truth at that time"
    )]
    #[oai(
        path = "/read-all",
        method = "post",
        operation_id = "markAllNotificationsRead"
    )]
    #[tracing::instrument(name = "notifications.mark_all_read", skip_all, fields(user.id = %auth.0.subject))]
    async fn mark_all_read(&self, auth: BearerAuth) -> Result<Json<MarkedRead>, ReadError> {
        let marked = self.repository.mark_all_read(&auth.0.subject).await?;
        Ok(Json(MarkedRead { marked }))
    }

    /// Delete a notification
    ///
    /// A mail of it not sent yet is not sent. A retry with the same `Idempotency-Key` gets the
    /// first 204 back rather than a 404.
    #[inherit_intent(crud::intents::DELETE)]
    #[oai(path = "/:id", method = "delete", operation_id = "deleteNotification")]
    #[tracing::instrument(name = "notifications.delete", skip_all, fields(user.id = %auth.0.subject, notification.id = %id.0))]
    async fn delete(
        &self,
        auth: BearerAuth,
        id: Path<String>,
        outcome: OutcomeRecorder,
    ) -> Result<Recorded<ChangedResponse>, NotificationError> {
        let mut tx = outcome.begin(self.repository.pool()).await?;
        let found = self
            .repository
            .delete(&mut tx, &auth.0.subject, &id.0)
            .await?;
        Ok(tx.commit(ChangedResponse::of(found)?).await?)
    }
}
