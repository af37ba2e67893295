//! A notification, as sent and as its recipient sees it.

use kernel::StrictString;
use poem_openapi::{Enum, Object};
use time::OffsetDateTime;

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
#[derive(Debug, Clone, PartialEq, Object)]
#[oai(rename_all = "camelCase")]
pub struct Notification {
    pub id: String,
    /// Who sent it.
    pub sender_id: String,
    pub title: String,
    pub body: String,
    /// Where it was sent.
    pub channels: Vec<Channel>,
    /// When it was sent (RFC 3339, UTC).
    pub created_at: OffsetDateTime,
    /// When the recipient marked it read; absent while unread.
    #[oai(skip_serializing_if_is_none)]
    pub read_at: Option<OffsetDateTime>,
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
