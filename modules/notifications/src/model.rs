//! A notification, as sent and as its recipient sees it. A [`Notification`] is also the row the
//! repository reads (`sqlx::FromRow`): each field says the column it comes from when the names
//! differ (times are kept as Unix milliseconds, `*_at_ms`; channels as [`StoredChannels`]).

use infra::database::{OptionalUnixMs, UnixMs};
use kernel::{StrictString, Timestamp};
use poem_openapi::{Enum, Object, Union};

/// Where a notification goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Enum)]
pub enum Channel {
    /// The recipient's notification list and live stream.
    #[oai(rename = "inApp")]
    InApp,
    /// A mail to the recipient's confirmed address (none is sent before it is confirmed).
    #[oai(rename = "email")]
    Email,
}

/// How a notification's [`Channel`]s are stored: one column each, 1 when it goes there, else 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct StoredChannels {
    pub in_app: i64,
    pub by_email: i64,
}

impl From<StoredChannels> for Vec<Channel> {
    fn from(stored: StoredChannels) -> Self {
        [
            (stored.in_app, Channel::InApp),
            (stored.by_email, Channel::Email),
        ]
        .into_iter()
        .filter_map(|(flag, channel)| (flag != 0).then_some(channel))
        .collect()
    }
}

/// A notification to send.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct NewNotification {
    /// The account it is for.
    #[oai(validator(min_length = 1, max_length = 100))]
    pub recipient_id: StrictString,
    /// A one-line summary, 1 to 200 characters; the mail's subject.
    #[oai(validator(min_length = 1, max_length = 200, pattern = r"^[^\x00-\x1f\x7f]*$"))]
    pub title: StrictString,
    /// The message, 1 to 10000 characters of plain text.
    #[oai(validator(min_length = 1, max_length = 10000))]
    pub body: StrictString,
    /// Where it goes: one or both channels.
    #[oai(validator(min_items = 1, max_items = 2, unique_items))]
    pub channels: Vec<Channel>,
}

/// A notification as its recipient sees it.
#[derive(Debug, Clone, PartialEq, Object, sqlx::FromRow)]
#[oai(rename_all = "camelCase")]
pub struct Notification {
    pub id: String,
    /// Who sent it.
    pub sender_id: String,
    pub title: String,
    pub body: String,
    /// Where it was sent.
    #[sqlx(flatten, try_from = "StoredChannels")]
    pub channels: Vec<Channel>,
    /// When it was sent (RFC 3339, UTC).
    #[sqlx(rename = "created_at_ms", try_from = "UnixMs")]
    pub created_at: Timestamp,
    /// When the recipient marked it read; absent while unread.
    #[oai(skip_serializing_if_is_none)]
    #[sqlx(rename = "read_at_ms", try_from = "OptionalUnixMs")]
    pub read_at: Option<Timestamp>,
}

/// Where a notification mail is in the outbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "camelCase")]
pub enum DeliveryState {
    /// Queued: due now or after a failed attempt's backoff.
    Pending,
    Sent,
    /// Not sent on purpose: the notification was deleted first, or the recipient has no
    /// confirmed address.
    Skipped,
    /// Failed its last attempt: kept for an administrator to retry, never tried again otherwise.
    Dead,
}

impl TryFrom<String> for DeliveryState {
    type Error = String;

    fn try_from(stored: String) -> Result<Self, Self::Error> {
        match stored.as_str() {
            "pending" => Ok(Self::Pending),
            "sent" => Ok(Self::Sent),
            "skipped" => Ok(Self::Skipped),
            "dead" => Ok(Self::Dead),
            _ => Err(format!("unknown delivery state `{stored}`")),
        }
    }
}

/// One mail of a notification, as the outbox keeps it.
#[derive(Debug, Clone, Object, sqlx::FromRow)]
#[oai(rename_all = "camelCase")]
pub struct MailDelivery {
    pub id: String,
    /// The notification it mails.
    pub notification_id: String,
    /// The account it is mailed to.
    pub recipient_id: String,
    #[sqlx(try_from = "String")]
    pub state: DeliveryState,
    /// Attempts made since it was queued (or last retried).
    #[sqlx(try_from = "crate::repository::StoredAttempts")]
    pub attempts: u32,
    /// What the mail server (or the network) said on the last failed attempt.
    #[oai(skip_serializing_if_is_none)]
    pub last_error: Option<String>,
    /// When it was queued, with its notification.
    #[sqlx(rename = "created_at_ms", try_from = "UnixMs")]
    pub created_at: Timestamp,
    /// When it was sent, skipped or dead-lettered; absent while pending.
    #[oai(skip_serializing_if_is_none)]
    #[sqlx(rename = "finished_at_ms", try_from = "OptionalUnixMs")]
    pub finished_at: Option<Timestamp>,
}

/// How many of the caller's notifications are unread.
#[derive(Debug, Clone, Object)]
pub struct UnreadCount {
    pub count: u64,
}

/// How many notifications a "mark all read" changed.
#[derive(Debug, Clone, Object)]
pub struct MarkedRead {
    pub marked: u64,
}

/// Why a notification stream ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "camelCase")]
pub enum StreamEndReason {
    /// The stream's session was logged out or revoked.
    SessionRevoked,
    /// An administrator locked the account.
    AccountLocked,
    /// The account's password changed (or was removed) since the session opened.
    PasswordChanged,
    /// The access token the stream was opened with expired: open it again with a fresh one.
    AccessTokenExpired,
}

/// The last event of a notification stream (`event: end`): why it ends. Nothing follows it.
#[derive(Debug, Clone, PartialEq, Object)]
pub struct StreamEnd {
    pub reason: StreamEndReason,
    /// The same, for people.
    pub detail: String,
}

impl StreamEnd {
    pub fn new(reason: StreamEndReason) -> Self {
        let detail = match reason {
            StreamEndReason::SessionRevoked => "The session was logged out or revoked.",
            StreamEndReason::AccountLocked => "The account was locked.",
            StreamEndReason::PasswordChanged => "The account's password changed: log in again.",
            StreamEndReason::AccessTokenExpired => {
                "The access token expired: refresh it and open the stream again."
            }
        };
        Self {
            reason,
            detail: detail.to_owned(),
        }
    }
}

/// One event of a notification stream: a notification (`message` events), or the end.
#[derive(Debug, Clone, PartialEq, Union)]
#[oai(one_of)]
pub enum StreamEvent {
    Notification(Notification),
    End(StreamEnd),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_channels_read_back_in_order_and_any_nonzero_flag_counts() {
        let channels = |in_app, by_email| Vec::<Channel>::from(StoredChannels { in_app, by_email });

        assert_eq!(channels(1, 1), [Channel::InApp, Channel::Email]);
        assert_eq!(channels(1, 0), [Channel::InApp]);
        assert_eq!(channels(0, 1), [Channel::Email]);
        assert_eq!(channels(2, 0), [Channel::InApp]);
        assert!(channels(0, 0).is_empty());
    }
}
