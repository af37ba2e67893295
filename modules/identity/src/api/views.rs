//! What the identity API sends and receives. Request types hold secrets, so none derives
//! `Debug`: they cannot end up in a log by accident.

use std::borrow::Cow;
use std::ops::Deref;

use kernel::{StrictString, Timestamp};
use poem_openapi::Object;
use poem_openapi::registry::{MetaSchema, MetaSchemaRef};
use poem_openapi::types::{ParseError, ParseFromJSON, ParseResult, ToJSON, Type};
use serde_json::Value;

use crate::repository::{AuditRecord, SessionRecord, UserRecord};
use crate::service::TokenPair;

/// A new account.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct RegisterRequest {
    /// The account's email address; one account per address. A plain address
    /// (`name@example.com`: no display name, quotes or comments), at most 254 characters;
    /// internationalised domain names are accepted.
    pub email: EmailAddress,
    /// 10 to 128 characters.
    #[oai(validator(min_length = 10, max_length = 128))]
    pub password: StrictString,
    /// How the account is addressed in mails; up to 100 characters, no line breaks or other
    /// control characters. Blank counts as none.
    #[oai(
        nullable,
        validator(max_length = 100, pattern = r"^[^\x00-\x1f\x7f-\x9f]*$")
    )]
    pub display_name: Option<StrictString>,
}

/// Credentials.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct LoginRequest {
    pub email: StrictString,
    pub password: StrictString,
}

/// A refresh token, as issued by login or refresh.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct RefreshRequest {
    pub refresh_token: StrictString,
}

/// An email address to mail a link to.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct EmailRequest {
    pub email: StrictString,
}

/// A new password, with the token from a reset mail.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct ResetPasswordRequest {
    /// The token from the reset link.
    pub token: StrictString,
    /// 10 to 128 characters.
    #[oai(validator(min_length = 10, max_length = 128))]
    pub new_password: StrictString,
}

/// The token from a confirmation mail.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct ConfirmEmailRequest {
    /// The token from the confirmation link.
    pub token: StrictString,
}

/// An access token and the refresh token that renews it.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct TokenResponse {
    /// A JWT to send as `Authorization: Bearer ...`.
    pub access_token: String,
    /// Opaque; exchange it at `/auth/refresh` for a new pair. Each one works once.
    pub refresh_token: String,
    /// Always `Bearer`.
    pub token_type: String,
    /// Seconds until the access token expires.
    pub expires_in: u64,
}

impl From<TokenPair> for TokenResponse {
    fn from(pair: TokenPair) -> Self {
        Self {
            access_token: pair.access_token,
            refresh_token: pair.refresh_token,
            token_type: "Bearer".to_owned(),
            expires_in: pair.expires_in_secs,
        }
    }
}

/// An account, as its owner and administrators see it.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct UserView {
    pub id: String,
    pub email: String,
    #[oai(skip_serializing_if_is_none)]
    pub display_name: Option<String>,
    pub roles: Vec<String>,
    /// Whether the email address has been confirmed.
    pub email_confirmed: bool,
    /// Whether an administrator has locked the account.
    pub locked: bool,
    /// When the account was registered.
    pub created_at: Timestamp,
}

impl From<UserRecord> for UserView {
    fn from(user: UserRecord) -> Self {
        Self {
            id: user.id,
            email: user.email,
            display_name: user.display_name,
            roles: user.roles,
            email_confirmed: user.email_confirmed_at_ms.is_some(),
            locked: user.locked_at_ms.is_some(),
            created_at: Timestamp::from_unix_ms(user.created_at_ms),
        }
    }
}

/// A login session.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct SessionView {
    pub id: String,
    /// Whether this is the session of the access token making the request.
    pub current: bool,
    #[oai(skip_serializing_if_is_none)]
    pub user_agent: Option<String>,
    /// When the session began (the login or provider sign-in).
    pub created_at: Timestamp,
    /// The session's last refresh, or its beginning.
    pub last_used_at: Timestamp,
    /// When its refresh token stops working unless used before.
    pub expires_at: Timestamp,
}

impl SessionView {
    pub fn new(session: SessionRecord, current_session_id: &str) -> Self {
        Self {
            current: session.id == current_session_id,
            id: session.id,
            user_agent: session.user_agent,
            created_at: Timestamp::from_unix_ms(session.created_at_ms),
            last_used_at: Timestamp::from_unix_ms(session.last_used_at_ms),
            expires_at: Timestamp::from_unix_ms(session.expires_at_ms),
        }
    }
}

/// One administrator's lock or unlock of an account.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct AuditEntryView {
    pub id: String,
    /// The administrator who made the change.
    pub actor_id: String,
    /// `lock` or `unlock`.
    pub action: String,
    /// The account changed.
    pub target_id: String,
    /// When the change was made.
    pub at: Timestamp,
    /// The `X-Request-Id` of the request that made the change.
    #[oai(skip_serializing_if_is_none)]
    pub request_id: Option<String>,
}

impl From<AuditRecord> for AuditEntryView {
    fn from(record: AuditRecord) -> Self {
        Self {
            id: record.id,
            actor_id: record.actor_id,
            action: record.action,
            target_id: record.target_id,
            at: Timestamp::from_unix_ms(record.at_ms),
            request_id: record.request_id,
        }
    }
}

/// An email address as a request sends it: documented as `format: email`, checked by the
/// service's own rule (`domain::Email`).
#[derive(Clone)]
pub struct EmailAddress(StrictString);

impl Deref for EmailAddress {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl Type for EmailAddress {
    const IS_REQUIRED: bool = true;
    type RawValueType = String;
    type RawElementValueType = String;

    fn name() -> Cow<'static, str> {
        "string(email)".into()
    }

    fn schema_ref() -> MetaSchemaRef {
        MetaSchemaRef::Inline(Box::new(MetaSchema {
            max_length: Some(254),
            ..MetaSchema::new_with_format("string", "email")
        }))
    }

    fn as_raw_value(&self) -> Option<&String> {
        self.0.as_raw_value()
    }

    fn raw_element_iter<'a>(&'a self) -> Box<dyn Iterator<Item = &'a String> + 'a> {
        self.0.raw_element_iter()
    }
}

impl ParseFromJSON for EmailAddress {
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        StrictString::parse_from_json(value)
            .map(Self)
            .map_err(ParseError::propagate)
    }
}

impl ToJSON for EmailAddress {
    fn to_json(&self) -> Option<Value> {
        self.0.to_json()
    }
}

/// A provider accounts can sign in with.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct ProviderView {
    /// What `{provider}` says in the sign-in operations.
    pub name: String,
    /// What a front end shows on its button.
    pub display_name: String,
}

/// Where to send the browser to sign in with a provider.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct AuthorizationView {
    /// The provider's authorization URL (with `state`, `nonce` and a PKCE S256 challenge):
    /// navigate the browser there.
    pub authorization_url: String,
    /// The `state` in that URL. Keep it (e.g. in `sessionStorage`) and check that the provider
    /// sends the browser back with the same one before calling the exchange.
    pub state: String,
    /// A secret for this client alone: keep it where only the page that started the sign-in
    /// can read it (e.g. `sessionStorage`, never in a URL) and send it with the exchange, which
    /// refuses the `code` and `state` without it. It never goes to the provider, so whoever
    /// else sees the redirect back (a log, a `Referer`, a link that lands someone's browser on
    /// the callback with the attacker's code) cannot finish the sign-in.
    pub binding: String,
    /// Until when the exchange accepts this state.
    pub expires_at: Timestamp,
}

impl From<crate::oauth::Authorization> for AuthorizationView {
    fn from(authorization: crate::oauth::Authorization) -> Self {
        Self {
            authorization_url: authorization.url,
            state: authorization.state,
            binding: authorization.binding,
            expires_at: Timestamp::from_unix_ms(authorization.expires_at_ms),
        }
    }
}

/// What the provider sent the browser back to the redirect URI with.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct CodeExchangeRequest {
    /// The `code` query parameter of the redirect.
    #[oai(validator(max_length = 4096))]
    pub code: StrictString,
    /// The `state` query parameter of the redirect.
    #[oai(validator(max_length = 512))]
    pub state: StrictString,
    /// The `binding` that `authorize` answered for this `state`.
    #[oai(validator(max_length = 512))]
    pub binding: StrictString,
    /// The redirect URI given to `authorize` for this state.
    #[oai(validator(max_length = 2048))]
    pub redirect_uri: StrictString,
}

/// A provider account linked to the caller's account.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct IdentityView {
    pub id: String,
    /// The provider's name, as in `/auth/oauth/{provider}`.
    pub provider: String,
    /// The provider's identifier of the account (`sub`).
    pub subject: String,
    /// The address the provider verified when the link was made.
    #[oai(skip_serializing_if_is_none)]
    pub email: Option<String>,
    /// When the link was made.
    pub linked_at: Timestamp,
    /// The last sign-in through it.
    pub last_used_at: Timestamp,
}

impl From<crate::oauth::repository::IdentityRecord> for IdentityView {
    fn from(record: crate::oauth::repository::IdentityRecord) -> Self {
        Self {
            id: record.id,
            provider: record.provider,
            subject: record.subject,
            email: record.email,
            linked_at: Timestamp::from_unix_ms(record.linked_at_ms),
            last_used_at: Timestamp::from_unix_ms(record.last_used_at_ms),
        }
    }
}
