// Generated from openapi/openapi.json by progenitor; do not edit. Written again by
// `cargo run -p api-client --features generate --bin generate-client`.

#[allow(unused_imports)]
pub use progenitor_client::{ByteStream, ClientInfo, Error, ResponseValue};
#[allow(unused_imports)]
use progenitor_client::{ClientHooks, OperationInfo, RequestBuilderExt, encode_path};
/// Types used as operation parameters and responses.
#[allow(clippy::all)]
pub mod types {
    ///`AcceptLegalDocumentIdempotencyKey`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct AcceptLegalDocumentIdempotencyKey(::std::string::String);
    impl ::std::ops::Deref for AcceptLegalDocumentIdempotencyKey {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<AcceptLegalDocumentIdempotencyKey> for ::std::string::String {
        fn from(value: AcceptLegalDocumentIdempotencyKey) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for AcceptLegalDocumentIdempotencyKey {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 255usize {
                return Err("longer than 255 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| {
                    ::regress::Regex::new("^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$")
                        .unwrap()
                });
            if PATTERN.find(value).is_none() {
                return Err(
                    "doesn't match pattern \"^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$\""
                        .into(),
                );
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for AcceptLegalDocumentIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for AcceptLegalDocumentIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for AcceptLegalDocumentIdempotencyKey {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    /**The record that a user accepted a version of a document. Records are evidence: they are
    never changed or deleted.*/
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct Acceptance {
        ///When (RFC 3339, UTC).
        #[serde(rename = "acceptedAt")]
        pub accepted_at: ::chrono::DateTime<::chrono::offset::Utc>,
        ///The client address the acceptance came from (an IPv4 address, or an IPv6 /64).
        #[serde(rename = "clientAddress")]
        pub client_address: ::std::string::String,
        ///Unique id of the record.
        pub id: ::std::string::String,
        ///The kind of document accepted.
        pub kind: ::std::string::String,
        ///The `X-Request-Id` of the request that made the record.
        #[serde(
            rename = "requestId",
            skip_serializing_if = "::std::option::Option::is_none"
        )]
        pub request_id: ::std::option::Option<::std::string::String>,
        ///The `User-Agent` the acceptance was sent with (up to 512 characters), if any.
        #[serde(
            rename = "userAgent",
            skip_serializing_if = "::std::option::Option::is_none"
        )]
        pub user_agent: ::std::option::Option<::std::string::String>,
        ///Who accepted: the user id.
        #[serde(rename = "userId")]
        pub user_id: ::std::string::String,
        ///The version accepted.
        pub version: i64,
    }
    impl Acceptance {
        pub fn builder() -> builder::Acceptance {
            Default::default()
        }
    }
    ///What a caller sends to accept a version of a document.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct AcceptanceInput {
        ///The kind of document, e.g. `terms`.
        pub kind: AcceptanceInputKind,
        ///The version accepted: the current version of that kind.
        pub version: ::std::num::NonZeroU32,
    }
    impl AcceptanceInput {
        pub fn builder() -> builder::AcceptanceInput {
            Default::default()
        }
    }
    ///The kind of document, e.g. `terms`.
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct AcceptanceInputKind(::std::string::String);
    impl ::std::ops::Deref for AcceptanceInputKind {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<AcceptanceInputKind> for ::std::string::String {
        fn from(value: AcceptanceInputKind) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for AcceptanceInputKind {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 40usize {
                return Err("longer than 40 characters".into());
            }
            if value.chars().count() < 1usize {
                return Err("shorter than 1 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[a-z][a-z0-9-]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[a-z][a-z0-9-]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for AcceptanceInputKind {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for AcceptanceInputKind {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for AcceptanceInputKind {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///One administrator's lock or unlock of an account.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct AuditEntryView {
        ///`lock` or `unlock`.
        pub action: ::std::string::String,
        ///The administrator who made the change.
        #[serde(rename = "actorId")]
        pub actor_id: ::std::string::String,
        ///When the change was made.
        pub at: ::chrono::DateTime<::chrono::offset::Utc>,
        pub id: ::std::string::String,
        ///The `X-Request-Id` of the request that made the change.
        #[serde(
            rename = "requestId",
            skip_serializing_if = "::std::option::Option::is_none"
        )]
        pub request_id: ::std::option::Option<::std::string::String>,
        ///The account changed.
        #[serde(rename = "targetId")]
        pub target_id: ::std::string::String,
    }
    impl AuditEntryView {
        pub fn builder() -> builder::AuditEntryView {
            Default::default()
        }
    }
    ///Where to send the browser to sign in with a provider.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct AuthorizationView {
        /**The provider's authorization URL (with `state`, `nonce` and a PKCE S256 challenge):
        navigate the browser there.*/
        #[serde(rename = "authorizationUrl")]
        pub authorization_url: ::std::string::String,
        /**A secret for this client alone: keep it where only the page that started the sign-in
        can read it (e.g. `sessionStorage`, never in a URL) and send it with the exchange, which
        refuses the `code` and `state` without it. It never goes to the provider, so whoever
        else sees the redirect back (a log, a `Referer`, a link that lands someone's browser on
        the callback with the attacker's code) cannot finish the sign-in.*/
        pub binding: ::std::string::String,
        ///Until when the exchange accepts this state.
        #[serde(rename = "expiresAt")]
        pub expires_at: ::chrono::DateTime<::chrono::offset::Utc>,
        /**The `state` in that URL. Keep it (e.g. in `sessionStorage`) and check that the provider
        sends the browser back with the same one before calling the exchange.*/
        pub state: ::std::string::String,
    }
    impl AuthorizationView {
        pub fn builder() -> builder::AuthorizationView {
            Default::default()
        }
    }
    ///Where a notification goes.
    #[derive(
        ::serde::Deserialize,
        ::serde::Serialize,
        Clone,
        Copy,
        Debug,
        Eq,
        Hash,
        Ord,
        PartialEq,
        PartialOrd,
    )]
    pub enum Channel {
        #[serde(rename = "inApp")]
        InApp,
        #[serde(rename = "email")]
        Email,
    }
    impl ::std::fmt::Display for Channel {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            match *self {
                Self::InApp => f.write_str("inApp"),
                Self::Email => f.write_str("email"),
            }
        }
    }
    impl ::std::str::FromStr for Channel {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            match value {
                "inApp" => Ok(Self::InApp),
                "email" => Ok(Self::Email),
                _ => Err("invalid value".into()),
            }
        }
    }
    impl ::std::convert::TryFrom<&str> for Channel {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for Channel {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    ///What the provider sent the browser back to the redirect URI with.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct CodeExchangeRequest {
        ///The `binding` that `authorize` answered for this `state`.
        pub binding: CodeExchangeRequestBinding,
        ///The `code` query parameter of the redirect.
        pub code: CodeExchangeRequestCode,
        ///The redirect URI given to `authorize` for this state.
        #[serde(rename = "redirectUri")]
        pub redirect_uri: CodeExchangeRequestRedirectUri,
        ///The `state` query parameter of the redirect.
        pub state: CodeExchangeRequestState,
    }
    impl CodeExchangeRequest {
        pub fn builder() -> builder::CodeExchangeRequest {
            Default::default()
        }
    }
    ///The `binding` that `authorize` answered for this `state`.
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct CodeExchangeRequestBinding(::std::string::String);
    impl ::std::ops::Deref for CodeExchangeRequestBinding {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<CodeExchangeRequestBinding> for ::std::string::String {
        fn from(value: CodeExchangeRequestBinding) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for CodeExchangeRequestBinding {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 512usize {
                return Err("longer than 512 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for CodeExchangeRequestBinding {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for CodeExchangeRequestBinding {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for CodeExchangeRequestBinding {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///The `code` query parameter of the redirect.
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct CodeExchangeRequestCode(::std::string::String);
    impl ::std::ops::Deref for CodeExchangeRequestCode {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<CodeExchangeRequestCode> for ::std::string::String {
        fn from(value: CodeExchangeRequestCode) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for CodeExchangeRequestCode {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 4096usize {
                return Err("longer than 4096 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for CodeExchangeRequestCode {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for CodeExchangeRequestCode {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for CodeExchangeRequestCode {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///The redirect URI given to `authorize` for this state.
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct CodeExchangeRequestRedirectUri(::std::string::String);
    impl ::std::ops::Deref for CodeExchangeRequestRedirectUri {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<CodeExchangeRequestRedirectUri> for ::std::string::String {
        fn from(value: CodeExchangeRequestRedirectUri) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for CodeExchangeRequestRedirectUri {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 2048usize {
                return Err("longer than 2048 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for CodeExchangeRequestRedirectUri {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for CodeExchangeRequestRedirectUri {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for CodeExchangeRequestRedirectUri {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///The `state` query parameter of the redirect.
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct CodeExchangeRequestState(::std::string::String);
    impl ::std::ops::Deref for CodeExchangeRequestState {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<CodeExchangeRequestState> for ::std::string::String {
        fn from(value: CodeExchangeRequestState) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for CodeExchangeRequestState {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 512usize {
                return Err("longer than 512 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for CodeExchangeRequestState {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for CodeExchangeRequestState {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for CodeExchangeRequestState {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`CompleteOAuthLinkIdempotencyKey`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct CompleteOAuthLinkIdempotencyKey(::std::string::String);
    impl ::std::ops::Deref for CompleteOAuthLinkIdempotencyKey {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<CompleteOAuthLinkIdempotencyKey> for ::std::string::String {
        fn from(value: CompleteOAuthLinkIdempotencyKey) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for CompleteOAuthLinkIdempotencyKey {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 255usize {
                return Err("longer than 255 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| {
                    ::regress::Regex::new("^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$")
                        .unwrap()
                });
            if PATTERN.find(value).is_none() {
                return Err(
                    "doesn't match pattern \"^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$\""
                        .into(),
                );
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for CompleteOAuthLinkIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for CompleteOAuthLinkIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for CompleteOAuthLinkIdempotencyKey {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`CompleteOAuthLinkProvider`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct CompleteOAuthLinkProvider(::std::string::String);
    impl ::std::ops::Deref for CompleteOAuthLinkProvider {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<CompleteOAuthLinkProvider> for ::std::string::String {
        fn from(value: CompleteOAuthLinkProvider) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for CompleteOAuthLinkProvider {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for CompleteOAuthLinkProvider {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for CompleteOAuthLinkProvider {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for CompleteOAuthLinkProvider {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`ConfirmEmailIdempotencyKey`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct ConfirmEmailIdempotencyKey(::std::string::String);
    impl ::std::ops::Deref for ConfirmEmailIdempotencyKey {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<ConfirmEmailIdempotencyKey> for ::std::string::String {
        fn from(value: ConfirmEmailIdempotencyKey) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for ConfirmEmailIdempotencyKey {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 255usize {
                return Err("longer than 255 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| {
                    ::regress::Regex::new("^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$")
                        .unwrap()
                });
            if PATTERN.find(value).is_none() {
                return Err(
                    "doesn't match pattern \"^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$\""
                        .into(),
                );
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for ConfirmEmailIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for ConfirmEmailIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for ConfirmEmailIdempotencyKey {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///The token from a confirmation mail.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct ConfirmEmailRequest {
        ///The token from the confirmation link.
        pub token: ConfirmEmailRequestToken,
    }
    impl ConfirmEmailRequest {
        pub fn builder() -> builder::ConfirmEmailRequest {
            Default::default()
        }
    }
    ///The token from the confirmation link.
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct ConfirmEmailRequestToken(::std::string::String);
    impl ::std::ops::Deref for ConfirmEmailRequestToken {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<ConfirmEmailRequestToken> for ::std::string::String {
        fn from(value: ConfirmEmailRequestToken) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for ConfirmEmailRequestToken {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for ConfirmEmailRequestToken {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for ConfirmEmailRequestToken {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for ConfirmEmailRequestToken {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`CreateThingIdempotencyKey`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct CreateThingIdempotencyKey(::std::string::String);
    impl ::std::ops::Deref for CreateThingIdempotencyKey {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<CreateThingIdempotencyKey> for ::std::string::String {
        fn from(value: CreateThingIdempotencyKey) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for CreateThingIdempotencyKey {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 255usize {
                return Err("longer than 255 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| {
                    ::regress::Regex::new("^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$")
                        .unwrap()
                });
            if PATTERN.find(value).is_none() {
                return Err(
                    "doesn't match pattern \"^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$\""
                        .into(),
                );
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for CreateThingIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for CreateThingIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for CreateThingIdempotencyKey {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`DeleteNotificationId`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct DeleteNotificationId(::std::string::String);
    impl ::std::ops::Deref for DeleteNotificationId {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<DeleteNotificationId> for ::std::string::String {
        fn from(value: DeleteNotificationId) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for DeleteNotificationId {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for DeleteNotificationId {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for DeleteNotificationId {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for DeleteNotificationId {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`DeleteNotificationIdempotencyKey`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct DeleteNotificationIdempotencyKey(::std::string::String);
    impl ::std::ops::Deref for DeleteNotificationIdempotencyKey {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<DeleteNotificationIdempotencyKey> for ::std::string::String {
        fn from(value: DeleteNotificationIdempotencyKey) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for DeleteNotificationIdempotencyKey {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 255usize {
                return Err("longer than 255 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| {
                    ::regress::Regex::new("^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$")
                        .unwrap()
                });
            if PATTERN.find(value).is_none() {
                return Err(
                    "doesn't match pattern \"^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$\""
                        .into(),
                );
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for DeleteNotificationIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for DeleteNotificationIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for DeleteNotificationIdempotencyKey {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`DeleteThingId`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct DeleteThingId(::std::string::String);
    impl ::std::ops::Deref for DeleteThingId {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<DeleteThingId> for ::std::string::String {
        fn from(value: DeleteThingId) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for DeleteThingId {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for DeleteThingId {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for DeleteThingId {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for DeleteThingId {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`DeleteThingIdempotencyKey`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct DeleteThingIdempotencyKey(::std::string::String);
    impl ::std::ops::Deref for DeleteThingIdempotencyKey {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<DeleteThingIdempotencyKey> for ::std::string::String {
        fn from(value: DeleteThingIdempotencyKey) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for DeleteThingIdempotencyKey {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 255usize {
                return Err("longer than 255 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| {
                    ::regress::Regex::new("^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$")
                        .unwrap()
                });
            if PATTERN.find(value).is_none() {
                return Err(
                    "doesn't match pattern \"^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$\""
                        .into(),
                );
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for DeleteThingIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for DeleteThingIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for DeleteThingIdempotencyKey {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`DeleteThingIfMatch`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct DeleteThingIfMatch(::std::string::String);
    impl ::std::ops::Deref for DeleteThingIfMatch {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<DeleteThingIfMatch> for ::std::string::String {
        fn from(value: DeleteThingIfMatch) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for DeleteThingIfMatch {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| {
                    ::regress::Regex::new("^(\\*|((W/)?\"[!#-~]*\"(, ?(W/)?\"[!#-~]*\")*)?)$")
                        .unwrap()
                });
            if PATTERN.find(value).is_none() {
                return Err(
                    "doesn't match pattern \"^(\\*|((W/)?\"[!#-~]*\"(, ?(W/)?\"[!#-~]*\")*)?)$\""
                        .into(),
                );
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for DeleteThingIfMatch {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for DeleteThingIfMatch {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for DeleteThingIfMatch {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///Where a notification mail is in the outbox.
    #[derive(
        ::serde::Deserialize,
        ::serde::Serialize,
        Clone,
        Copy,
        Debug,
        Eq,
        Hash,
        Ord,
        PartialEq,
        PartialOrd,
    )]
    pub enum DeliveryState {
        #[serde(rename = "pending")]
        Pending,
        #[serde(rename = "sent")]
        Sent,
        #[serde(rename = "skipped")]
        Skipped,
        #[serde(rename = "dead")]
        Dead,
    }
    impl ::std::fmt::Display for DeliveryState {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            match *self {
                Self::Pending => f.write_str("pending"),
                Self::Sent => f.write_str("sent"),
                Self::Skipped => f.write_str("skipped"),
                Self::Dead => f.write_str("dead"),
            }
        }
    }
    impl ::std::str::FromStr for DeliveryState {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            match value {
                "pending" => Ok(Self::Pending),
                "sent" => Ok(Self::Sent),
                "skipped" => Ok(Self::Skipped),
                "dead" => Ok(Self::Dead),
                _ => Err("invalid value".into()),
            }
        }
    }
    impl ::std::convert::TryFrom<&str> for DeliveryState {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for DeliveryState {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    ///One version of a legal document. Versions never change once published.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct DocumentVersion {
        ///The text, in Markdown.
        pub body: ::std::string::String,
        /**When the version takes effect (RFC 3339, UTC): from then on, unless a higher-numbered
        version has taken effect too, it is the current version of its kind.*/
        #[serde(rename = "effectiveAt")]
        pub effective_at: ::chrono::DateTime<::chrono::offset::Utc>,
        ///The kind of document, e.g. `terms` or `privacy`.
        pub kind: ::std::string::String,
        ///When the version was published (RFC 3339, UTC).
        #[serde(rename = "publishedAt")]
        pub published_at: ::chrono::DateTime<::chrono::offset::Utc>,
        ///The version number, from 1, assigned in publication order per kind.
        pub version: i64,
    }
    impl DocumentVersion {
        pub fn builder() -> builder::DocumentVersion {
            Default::default()
        }
    }
    ///An email address to mail a link to.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct EmailRequest {
        pub email: EmailRequestEmail,
    }
    impl EmailRequest {
        pub fn builder() -> builder::EmailRequest {
            Default::default()
        }
    }
    ///`EmailRequestEmail`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct EmailRequestEmail(::std::string::String);
    impl ::std::ops::Deref for EmailRequestEmail {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<EmailRequestEmail> for ::std::string::String {
        fn from(value: EmailRequestEmail) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for EmailRequestEmail {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for EmailRequestEmail {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for EmailRequestEmail {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for EmailRequestEmail {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`ExchangeOAuthCodeProvider`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct ExchangeOAuthCodeProvider(::std::string::String);
    impl ::std::ops::Deref for ExchangeOAuthCodeProvider {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<ExchangeOAuthCodeProvider> for ::std::string::String {
        fn from(value: ExchangeOAuthCodeProvider) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for ExchangeOAuthCodeProvider {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for ExchangeOAuthCodeProvider {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for ExchangeOAuthCodeProvider {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for ExchangeOAuthCodeProvider {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`ForgotPasswordIdempotencyKey`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct ForgotPasswordIdempotencyKey(::std::string::String);
    impl ::std::ops::Deref for ForgotPasswordIdempotencyKey {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<ForgotPasswordIdempotencyKey> for ::std::string::String {
        fn from(value: ForgotPasswordIdempotencyKey) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for ForgotPasswordIdempotencyKey {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 255usize {
                return Err("longer than 255 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| {
                    ::regress::Regex::new("^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$")
                        .unwrap()
                });
            if PATTERN.find(value).is_none() {
                return Err(
                    "doesn't match pattern \"^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$\""
                        .into(),
                );
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for ForgotPasswordIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for ForgotPasswordIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for ForgotPasswordIdempotencyKey {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`GetLegalDocumentVersionKind`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct GetLegalDocumentVersionKind(::std::string::String);
    impl ::std::ops::Deref for GetLegalDocumentVersionKind {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<GetLegalDocumentVersionKind> for ::std::string::String {
        fn from(value: GetLegalDocumentVersionKind) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for GetLegalDocumentVersionKind {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 40usize {
                return Err("longer than 40 characters".into());
            }
            if value.chars().count() < 1usize {
                return Err("shorter than 1 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[a-z][a-z0-9-]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[a-z][a-z0-9-]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for GetLegalDocumentVersionKind {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for GetLegalDocumentVersionKind {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for GetLegalDocumentVersionKind {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`GetNotificationId`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct GetNotificationId(::std::string::String);
    impl ::std::ops::Deref for GetNotificationId {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<GetNotificationId> for ::std::string::String {
        fn from(value: GetNotificationId) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for GetNotificationId {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for GetNotificationId {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for GetNotificationId {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for GetNotificationId {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`GetThingId`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct GetThingId(::std::string::String);
    impl ::std::ops::Deref for GetThingId {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<GetThingId> for ::std::string::String {
        fn from(value: GetThingId) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for GetThingId {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for GetThingId {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for GetThingId {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for GetThingId {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`GetThingIfNoneMatch`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct GetThingIfNoneMatch(::std::string::String);
    impl ::std::ops::Deref for GetThingIfNoneMatch {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<GetThingIfNoneMatch> for ::std::string::String {
        fn from(value: GetThingIfNoneMatch) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for GetThingIfNoneMatch {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| {
                    ::regress::Regex::new("^(\\*|((W/)?\"[!#-~]*\"(, ?(W/)?\"[!#-~]*\")*)?)$")
                        .unwrap()
                });
            if PATTERN.find(value).is_none() {
                return Err(
                    "doesn't match pattern \"^(\\*|((W/)?\"[!#-~]*\"(, ?(W/)?\"[!#-~]*\")*)?)$\""
                        .into(),
                );
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for GetThingIfNoneMatch {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for GetThingIfNoneMatch {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for GetThingIfNoneMatch {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///The state of the service and its dependencies.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct HealthReport {
        ///The database: `ok`.
        pub database: ::std::string::String,
        /**Redis: `ok`; `cluster failing` (a Redis Cluster answers but some master does not, or some
        slot has no serving master, as during a failover: keys there fail open until it heals); `unavailable`
        (idempotency fails open, rate limits count per instance, until it answers again); or
        `not configured` when the service runs on in-process stores.*/
        pub redis: ::std::string::String,
        ///How Redis is deployed: `node` or `cluster`; absent without Redis.
        #[serde(
            rename = "redisTopology",
            skip_serializing_if = "::std::option::Option::is_none"
        )]
        pub redis_topology: ::std::option::Option<::std::string::String>,
        /**`ok` when every dependency answered; `degraded` when one the service can do without did
        not (it still serves: see the dependency's field).*/
        pub status: ::std::string::String,
    }
    impl HealthReport {
        pub fn builder() -> builder::HealthReport {
            Default::default()
        }
    }
    ///A provider account linked to the caller's account.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct IdentityView {
        ///The address the provider verified when the link was made.
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub email: ::std::option::Option<::std::string::String>,
        pub id: ::std::string::String,
        ///The last sign-in through it.
        #[serde(rename = "lastUsedAt")]
        pub last_used_at: ::chrono::DateTime<::chrono::offset::Utc>,
        ///When the link was made.
        #[serde(rename = "linkedAt")]
        pub linked_at: ::chrono::DateTime<::chrono::offset::Utc>,
        ///The provider's name, as in `/auth/oauth/{provider}`.
        pub provider: ::std::string::String,
        ///The provider's identifier of the account (`sub`).
        pub subject: ::std::string::String,
    }
    impl IdentityView {
        pub fn builder() -> builder::IdentityView {
            Default::default()
        }
    }
    ///`ListThingsNameContains`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct ListThingsNameContains(::std::string::String);
    impl ::std::ops::Deref for ListThingsNameContains {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<ListThingsNameContains> for ::std::string::String {
        fn from(value: ListThingsNameContains) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for ListThingsNameContains {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 200usize {
                return Err("longer than 200 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for ListThingsNameContains {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for ListThingsNameContains {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for ListThingsNameContains {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`ListThingsSort`
    #[derive(
        ::serde::Deserialize,
        ::serde::Serialize,
        Clone,
        Copy,
        Debug,
        Eq,
        Hash,
        Ord,
        PartialEq,
        PartialOrd,
    )]
    pub enum ListThingsSort {
        #[serde(rename = "createdAt")]
        CreatedAt,
        #[serde(rename = "updatedAt")]
        UpdatedAt,
        #[serde(rename = "name")]
        Name,
        #[serde(rename = "-createdAt")]
        XcreatedAt,
        #[serde(rename = "-updatedAt")]
        XupdatedAt,
        #[serde(rename = "-name")]
        Xname,
    }
    impl ::std::fmt::Display for ListThingsSort {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            match *self {
                Self::CreatedAt => f.write_str("createdAt"),
                Self::UpdatedAt => f.write_str("updatedAt"),
                Self::Name => f.write_str("name"),
                Self::XcreatedAt => f.write_str("-createdAt"),
                Self::XupdatedAt => f.write_str("-updatedAt"),
                Self::Xname => f.write_str("-name"),
            }
        }
    }
    impl ::std::str::FromStr for ListThingsSort {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            match value {
                "createdAt" => Ok(Self::CreatedAt),
                "updatedAt" => Ok(Self::UpdatedAt),
                "name" => Ok(Self::Name),
                "-createdAt" => Ok(Self::XcreatedAt),
                "-updatedAt" => Ok(Self::XupdatedAt),
                "-name" => Ok(Self::Xname),
                _ => Err("invalid value".into()),
            }
        }
    }
    impl ::std::convert::TryFrom<&str> for ListThingsSort {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for ListThingsSort {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    ///`LockUserId`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct LockUserId(::std::string::String);
    impl ::std::ops::Deref for LockUserId {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<LockUserId> for ::std::string::String {
        fn from(value: LockUserId) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for LockUserId {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for LockUserId {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for LockUserId {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for LockUserId {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///Credentials.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct LoginRequest {
        pub email: LoginRequestEmail,
        pub password: LoginRequestPassword,
    }
    impl LoginRequest {
        pub fn builder() -> builder::LoginRequest {
            Default::default()
        }
    }
    ///`LoginRequestEmail`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct LoginRequestEmail(::std::string::String);
    impl ::std::ops::Deref for LoginRequestEmail {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<LoginRequestEmail> for ::std::string::String {
        fn from(value: LoginRequestEmail) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for LoginRequestEmail {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for LoginRequestEmail {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for LoginRequestEmail {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for LoginRequestEmail {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`LoginRequestPassword`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct LoginRequestPassword(::std::string::String);
    impl ::std::ops::Deref for LoginRequestPassword {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<LoginRequestPassword> for ::std::string::String {
        fn from(value: LoginRequestPassword) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for LoginRequestPassword {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for LoginRequestPassword {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for LoginRequestPassword {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for LoginRequestPassword {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///One mail of a notification, as the outbox keeps it.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct MailDelivery {
        ///Attempts made since it was queued (or last retried).
        pub attempts: u32,
        ///When it was queued, with its notification.
        #[serde(rename = "createdAt")]
        pub created_at: ::chrono::DateTime<::chrono::offset::Utc>,
        ///When it was sent, skipped or dead-lettered; absent while pending.
        #[serde(
            rename = "finishedAt",
            skip_serializing_if = "::std::option::Option::is_none"
        )]
        pub finished_at: ::std::option::Option<::chrono::DateTime<::chrono::offset::Utc>>,
        pub id: ::std::string::String,
        ///What the mail server (or the network) said on the last failed attempt.
        #[serde(
            rename = "lastError",
            skip_serializing_if = "::std::option::Option::is_none"
        )]
        pub last_error: ::std::option::Option<::std::string::String>,
        ///The notification it mails.
        #[serde(rename = "notificationId")]
        pub notification_id: ::std::string::String,
        ///The account it is mailed to.
        #[serde(rename = "recipientId")]
        pub recipient_id: ::std::string::String,
        pub state: DeliveryState,
    }
    impl MailDelivery {
        pub fn builder() -> builder::MailDelivery {
            Default::default()
        }
    }
    ///`MarkNotificationReadId`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct MarkNotificationReadId(::std::string::String);
    impl ::std::ops::Deref for MarkNotificationReadId {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<MarkNotificationReadId> for ::std::string::String {
        fn from(value: MarkNotificationReadId) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for MarkNotificationReadId {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for MarkNotificationReadId {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for MarkNotificationReadId {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for MarkNotificationReadId {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///How many notifications a "mark all read" changed.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct MarkedRead {
        pub marked: u64,
    }
    impl MarkedRead {
        pub fn builder() -> builder::MarkedRead {
            Default::default()
        }
    }
    ///What the caller accepted, and what is still pending.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct MyAcceptances {
        ///Every acceptance the caller made, newest first.
        pub accepted: ::std::vec::Vec<Acceptance>,
        ///The current versions the caller has not accepted, by kind.
        pub pending: ::std::vec::Vec<PendingVersion>,
    }
    impl MyAcceptances {
        pub fn builder() -> builder::MyAcceptances {
            Default::default()
        }
    }
    ///A notification to send.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct NewNotification {
        ///The message, 1 to 10000 characters of plain text.
        pub body: NewNotificationBody,
        ///Where it goes: one or both channels.
        pub channels: ::std::vec::Vec<Channel>,
        ///The account it is for.
        #[serde(rename = "recipientId")]
        pub recipient_id: NewNotificationRecipientId,
        ///A one-line summary, 1 to 200 characters; the mail's subject.
        pub title: NewNotificationTitle,
    }
    impl NewNotification {
        pub fn builder() -> builder::NewNotification {
            Default::default()
        }
    }
    ///The message, 1 to 10000 characters of plain text.
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct NewNotificationBody(::std::string::String);
    impl ::std::ops::Deref for NewNotificationBody {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<NewNotificationBody> for ::std::string::String {
        fn from(value: NewNotificationBody) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for NewNotificationBody {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 10000usize {
                return Err("longer than 10000 characters".into());
            }
            if value.chars().count() < 1usize {
                return Err("shorter than 1 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for NewNotificationBody {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for NewNotificationBody {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for NewNotificationBody {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///The account it is for.
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct NewNotificationRecipientId(::std::string::String);
    impl ::std::ops::Deref for NewNotificationRecipientId {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<NewNotificationRecipientId> for ::std::string::String {
        fn from(value: NewNotificationRecipientId) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for NewNotificationRecipientId {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 100usize {
                return Err("longer than 100 characters".into());
            }
            if value.chars().count() < 1usize {
                return Err("shorter than 1 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for NewNotificationRecipientId {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for NewNotificationRecipientId {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for NewNotificationRecipientId {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///A one-line summary, 1 to 200 characters; the mail's subject.
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct NewNotificationTitle(::std::string::String);
    impl ::std::ops::Deref for NewNotificationTitle {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<NewNotificationTitle> for ::std::string::String {
        fn from(value: NewNotificationTitle) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for NewNotificationTitle {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 200usize {
                return Err("longer than 200 characters".into());
            }
            if value.chars().count() < 1usize {
                return Err("shorter than 1 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| {
                    ::regress::Regex::new("^[^\\x00-\\x1f\\x7f]*$").unwrap()
                });
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00-\\x1f\\x7f]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for NewNotificationTitle {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for NewNotificationTitle {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for NewNotificationTitle {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///A notification as its recipient sees it.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct Notification {
        pub body: ::std::string::String,
        ///Where it was sent.
        pub channels: ::std::vec::Vec<Channel>,
        ///When it was sent (RFC 3339, UTC).
        #[serde(rename = "createdAt")]
        pub created_at: ::chrono::DateTime<::chrono::offset::Utc>,
        pub id: ::std::string::String,
        ///When the recipient marked it read; absent while unread.
        #[serde(
            rename = "readAt",
            skip_serializing_if = "::std::option::Option::is_none"
        )]
        pub read_at: ::std::option::Option<::chrono::DateTime<::chrono::offset::Utc>>,
        ///Who sent it.
        #[serde(rename = "senderId")]
        pub sender_id: ::std::string::String,
        pub title: ::std::string::String,
    }
    impl Notification {
        pub fn builder() -> builder::Notification {
            Default::default()
        }
    }
    ///One page of a list.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct PageAuditEntryView {
        ///The items on this page.
        pub items: ::std::vec::Vec<AuditEntryView>,
        ///The page number, from 1.
        pub page: u32,
        ///The page size asked for.
        #[serde(rename = "perPage")]
        pub per_page: u32,
        ///How many items the whole list holds.
        pub total: u64,
    }
    impl PageAuditEntryView {
        pub fn builder() -> builder::PageAuditEntryView {
            Default::default()
        }
    }
    ///One page of a list.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct PageDocumentVersion {
        ///The items on this page.
        pub items: ::std::vec::Vec<DocumentVersion>,
        ///The page number, from 1.
        pub page: u32,
        ///The page size asked for.
        #[serde(rename = "perPage")]
        pub per_page: u32,
        ///How many items the whole list holds.
        pub total: u64,
    }
    impl PageDocumentVersion {
        pub fn builder() -> builder::PageDocumentVersion {
            Default::default()
        }
    }
    ///One page of a list.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct PageMailDelivery {
        ///The items on this page.
        pub items: ::std::vec::Vec<MailDelivery>,
        ///The page number, from 1.
        pub page: u32,
        ///The page size asked for.
        #[serde(rename = "perPage")]
        pub per_page: u32,
        ///How many items the whole list holds.
        pub total: u64,
    }
    impl PageMailDelivery {
        pub fn builder() -> builder::PageMailDelivery {
            Default::default()
        }
    }
    ///One page of a list.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct PageNotification {
        ///The items on this page.
        pub items: ::std::vec::Vec<Notification>,
        ///The page number, from 1.
        pub page: u32,
        ///The page size asked for.
        #[serde(rename = "perPage")]
        pub per_page: u32,
        ///How many items the whole list holds.
        pub total: u64,
    }
    impl PageNotification {
        pub fn builder() -> builder::PageNotification {
            Default::default()
        }
    }
    ///One page of a list.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct PageThing {
        ///The items on this page.
        pub items: ::std::vec::Vec<Thing>,
        ///The page number, from 1.
        pub page: u32,
        ///The page size asked for.
        #[serde(rename = "perPage")]
        pub per_page: u32,
        ///How many items the whole list holds.
        pub total: u64,
    }
    impl PageThing {
        pub fn builder() -> builder::PageThing {
            Default::default()
        }
    }
    ///One page of a list.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct PageUserView {
        ///The items on this page.
        pub items: ::std::vec::Vec<UserView>,
        ///The page number, from 1.
        pub page: u32,
        ///The page size asked for.
        #[serde(rename = "perPage")]
        pub per_page: u32,
        ///How many items the whole list holds.
        pub total: u64,
    }
    impl PageUserView {
        pub fn builder() -> builder::PageUserView {
            Default::default()
        }
    }
    ///`PatchThingId`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct PatchThingId(::std::string::String);
    impl ::std::ops::Deref for PatchThingId {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<PatchThingId> for ::std::string::String {
        fn from(value: PatchThingId) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for PatchThingId {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for PatchThingId {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for PatchThingId {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for PatchThingId {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`PatchThingIdempotencyKey`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct PatchThingIdempotencyKey(::std::string::String);
    impl ::std::ops::Deref for PatchThingIdempotencyKey {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<PatchThingIdempotencyKey> for ::std::string::String {
        fn from(value: PatchThingIdempotencyKey) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for PatchThingIdempotencyKey {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 255usize {
                return Err("longer than 255 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| {
                    ::regress::Regex::new("^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$")
                        .unwrap()
                });
            if PATTERN.find(value).is_none() {
                return Err(
                    "doesn't match pattern \"^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$\""
                        .into(),
                );
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for PatchThingIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for PatchThingIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for PatchThingIdempotencyKey {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`PatchThingIfMatch`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct PatchThingIfMatch(::std::string::String);
    impl ::std::ops::Deref for PatchThingIfMatch {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<PatchThingIfMatch> for ::std::string::String {
        fn from(value: PatchThingIfMatch) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for PatchThingIfMatch {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| {
                    ::regress::Regex::new("^(\\*|((W/)?\"[!#-~]*\"(, ?(W/)?\"[!#-~]*\")*)?)$")
                        .unwrap()
                });
            if PATTERN.find(value).is_none() {
                return Err(
                    "doesn't match pattern \"^(\\*|((W/)?\"[!#-~]*\"(, ?(W/)?\"[!#-~]*\")*)?)$\""
                        .into(),
                );
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for PatchThingIfMatch {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for PatchThingIfMatch {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for PatchThingIfMatch {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///A current version the caller has not accepted yet.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct PendingVersion {
        ///When that version took effect (RFC 3339, UTC).
        #[serde(rename = "effectiveAt")]
        pub effective_at: ::chrono::DateTime<::chrono::offset::Utc>,
        ///The kind of document.
        pub kind: ::std::string::String,
        /**Whether the service refuses the caller's other requests until it is accepted (when the
        service enforces acceptance of this kind).*/
        pub required: bool,
        ///Its current version.
        pub version: i64,
    }
    impl PendingVersion {
        pub fn builder() -> builder::PendingVersion {
            Default::default()
        }
    }
    ///A problem detail (RFC 9457): what went wrong, in a shape clients can rely on.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct Problem {
        ///An explanation specific to this occurrence.
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub detail: ::std::option::Option<::std::string::String>,
        /**The request field the problem is about, when it is about one (e.g. the field whose value
        another entity already has).*/
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub field: ::std::option::Option<::std::string::String>,
        ///The request path this occurrence happened on.
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub instance: ::std::option::Option<::std::string::String>,
        ///The `X-Request-Id` of the request, to quote when reporting the problem.
        #[serde(
            rename = "requestId",
            skip_serializing_if = "::std::option::Option::is_none"
        )]
        pub request_id: ::std::option::Option<::std::string::String>,
        ///The HTTP status code.
        pub status: u16,
        ///A short, human-readable summary of the problem type.
        pub title: ::std::string::String,
        ///A URI reference identifying the problem type; `about:blank` when the status says it all.
        #[serde(rename = "type")]
        pub type_: ::std::string::String,
    }
    impl Problem {
        pub fn builder() -> builder::Problem {
            Default::default()
        }
    }
    ///A provider accounts can sign in with.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct ProviderView {
        ///What a front end shows on its button.
        #[serde(rename = "displayName")]
        pub display_name: ::std::string::String,
        ///What `{provider}` says in the sign-in operations.
        pub name: ::std::string::String,
    }
    impl ProviderView {
        pub fn builder() -> builder::ProviderView {
            Default::default()
        }
    }
    ///`PublishLegalDocumentVersionIdempotencyKey`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct PublishLegalDocumentVersionIdempotencyKey(::std::string::String);
    impl ::std::ops::Deref for PublishLegalDocumentVersionIdempotencyKey {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<PublishLegalDocumentVersionIdempotencyKey> for ::std::string::String {
        fn from(value: PublishLegalDocumentVersionIdempotencyKey) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for PublishLegalDocumentVersionIdempotencyKey {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 255usize {
                return Err("longer than 255 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| {
                    ::regress::Regex::new("^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$")
                        .unwrap()
                });
            if PATTERN.find(value).is_none() {
                return Err(
                    "doesn't match pattern \"^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$\""
                        .into(),
                );
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for PublishLegalDocumentVersionIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for PublishLegalDocumentVersionIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for PublishLegalDocumentVersionIdempotencyKey {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`PublishLegalDocumentVersionKind`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct PublishLegalDocumentVersionKind(::std::string::String);
    impl ::std::ops::Deref for PublishLegalDocumentVersionKind {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<PublishLegalDocumentVersionKind> for ::std::string::String {
        fn from(value: PublishLegalDocumentVersionKind) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for PublishLegalDocumentVersionKind {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 40usize {
                return Err("longer than 40 characters".into());
            }
            if value.chars().count() < 1usize {
                return Err("shorter than 1 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[a-z][a-z0-9-]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[a-z][a-z0-9-]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for PublishLegalDocumentVersionKind {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for PublishLegalDocumentVersionKind {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for PublishLegalDocumentVersionKind {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///What an administrator sends to publish a new version of a document.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct PublishVersionInput {
        ///The text, in Markdown: 1 to 100000 characters, not only spaces.
        pub body: PublishVersionInputBody,
        /**When the version takes effect (RFC 3339). Absent, `null`, or a time already past: at
        once (the stored `effectiveAt` is then the publication time).*/
        #[serde(
            rename = "effectiveAt",
            skip_serializing_if = "::std::option::Option::is_none"
        )]
        pub effective_at: ::std::option::Option<::chrono::DateTime<::chrono::offset::Utc>>,
    }
    impl PublishVersionInput {
        pub fn builder() -> builder::PublishVersionInput {
            Default::default()
        }
    }
    ///The text, in Markdown: 1 to 100000 characters, not only spaces.
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct PublishVersionInputBody(::std::string::String);
    impl ::std::ops::Deref for PublishVersionInputBody {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<PublishVersionInputBody> for ::std::string::String {
        fn from(value: PublishVersionInputBody) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for PublishVersionInputBody {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 100000usize {
                return Err("longer than 100000 characters".into());
            }
            if value.chars().count() < 1usize {
                return Err("shorter than 1 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| {
                    ::regress::Regex::new("^[^\\x00]*[^\\x00\\s][^\\x00]*$").unwrap()
                });
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*[^\\x00\\s][^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for PublishVersionInputBody {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for PublishVersionInputBody {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for PublishVersionInputBody {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///A refresh token, as issued by login or refresh.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct RefreshRequest {
        #[serde(rename = "refreshToken")]
        pub refresh_token: RefreshRequestRefreshToken,
    }
    impl RefreshRequest {
        pub fn builder() -> builder::RefreshRequest {
            Default::default()
        }
    }
    ///`RefreshRequestRefreshToken`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct RefreshRequestRefreshToken(::std::string::String);
    impl ::std::ops::Deref for RefreshRequestRefreshToken {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<RefreshRequestRefreshToken> for ::std::string::String {
        fn from(value: RefreshRequestRefreshToken) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for RefreshRequestRefreshToken {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for RefreshRequestRefreshToken {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for RefreshRequestRefreshToken {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for RefreshRequestRefreshToken {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///A new account.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct RegisterRequest {
        /**How the account is addressed in mails; up to 100 characters, no line breaks or other
        control characters. Blank counts as none.*/
        #[serde(
            rename = "displayName",
            skip_serializing_if = "::std::option::Option::is_none"
        )]
        pub display_name: ::std::option::Option<RegisterRequestDisplayName>,
        /**The account's email address; one account per address. A plain address
        (`name@example.com`: no display name, quotes or comments), at most 254 characters;
        internationalised domain names are accepted.*/
        pub email: RegisterRequestEmail,
        ///10 to 128 characters.
        pub password: RegisterRequestPassword,
    }
    impl RegisterRequest {
        pub fn builder() -> builder::RegisterRequest {
            Default::default()
        }
    }
    /**How the account is addressed in mails; up to 100 characters, no line breaks or other
    control characters. Blank counts as none.*/
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct RegisterRequestDisplayName(::std::string::String);
    impl ::std::ops::Deref for RegisterRequestDisplayName {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<RegisterRequestDisplayName> for ::std::string::String {
        fn from(value: RegisterRequestDisplayName) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for RegisterRequestDisplayName {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 100usize {
                return Err("longer than 100 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| {
                    ::regress::Regex::new("^[^\\x00-\\x1f\\x7f-\\x9f]*$").unwrap()
                });
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00-\\x1f\\x7f-\\x9f]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for RegisterRequestDisplayName {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for RegisterRequestDisplayName {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for RegisterRequestDisplayName {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    /**The account's email address; one account per address. A plain address
    (`name@example.com`: no display name, quotes or comments), at most 254 characters;
    internationalised domain names are accepted.*/
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct RegisterRequestEmail(::std::string::String);
    impl ::std::ops::Deref for RegisterRequestEmail {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<RegisterRequestEmail> for ::std::string::String {
        fn from(value: RegisterRequestEmail) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for RegisterRequestEmail {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 254usize {
                return Err("longer than 254 characters".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for RegisterRequestEmail {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for RegisterRequestEmail {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for RegisterRequestEmail {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///10 to 128 characters.
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct RegisterRequestPassword(::std::string::String);
    impl ::std::ops::Deref for RegisterRequestPassword {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<RegisterRequestPassword> for ::std::string::String {
        fn from(value: RegisterRequestPassword) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for RegisterRequestPassword {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 128usize {
                return Err("longer than 128 characters".into());
            }
            if value.chars().count() < 10usize {
                return Err("shorter than 10 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for RegisterRequestPassword {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for RegisterRequestPassword {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for RegisterRequestPassword {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`ResetPasswordIdempotencyKey`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct ResetPasswordIdempotencyKey(::std::string::String);
    impl ::std::ops::Deref for ResetPasswordIdempotencyKey {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<ResetPasswordIdempotencyKey> for ::std::string::String {
        fn from(value: ResetPasswordIdempotencyKey) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for ResetPasswordIdempotencyKey {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 255usize {
                return Err("longer than 255 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| {
                    ::regress::Regex::new("^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$")
                        .unwrap()
                });
            if PATTERN.find(value).is_none() {
                return Err(
                    "doesn't match pattern \"^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$\""
                        .into(),
                );
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for ResetPasswordIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for ResetPasswordIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for ResetPasswordIdempotencyKey {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///A new password, with the token from a reset mail.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct ResetPasswordRequest {
        ///10 to 128 characters.
        #[serde(rename = "newPassword")]
        pub new_password: ResetPasswordRequestNewPassword,
        ///The token from the reset link.
        pub token: ResetPasswordRequestToken,
    }
    impl ResetPasswordRequest {
        pub fn builder() -> builder::ResetPasswordRequest {
            Default::default()
        }
    }
    ///10 to 128 characters.
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct ResetPasswordRequestNewPassword(::std::string::String);
    impl ::std::ops::Deref for ResetPasswordRequestNewPassword {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<ResetPasswordRequestNewPassword> for ::std::string::String {
        fn from(value: ResetPasswordRequestNewPassword) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for ResetPasswordRequestNewPassword {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 128usize {
                return Err("longer than 128 characters".into());
            }
            if value.chars().count() < 10usize {
                return Err("shorter than 10 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for ResetPasswordRequestNewPassword {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for ResetPasswordRequestNewPassword {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for ResetPasswordRequestNewPassword {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///The token from the reset link.
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct ResetPasswordRequestToken(::std::string::String);
    impl ::std::ops::Deref for ResetPasswordRequestToken {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<ResetPasswordRequestToken> for ::std::string::String {
        fn from(value: ResetPasswordRequestToken) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for ResetPasswordRequestToken {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for ResetPasswordRequestToken {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for ResetPasswordRequestToken {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for ResetPasswordRequestToken {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`RetryMailDeadLetterId`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct RetryMailDeadLetterId(::std::string::String);
    impl ::std::ops::Deref for RetryMailDeadLetterId {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<RetryMailDeadLetterId> for ::std::string::String {
        fn from(value: RetryMailDeadLetterId) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for RetryMailDeadLetterId {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for RetryMailDeadLetterId {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for RetryMailDeadLetterId {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for RetryMailDeadLetterId {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`RetryMailDeadLetterIdempotencyKey`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct RetryMailDeadLetterIdempotencyKey(::std::string::String);
    impl ::std::ops::Deref for RetryMailDeadLetterIdempotencyKey {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<RetryMailDeadLetterIdempotencyKey> for ::std::string::String {
        fn from(value: RetryMailDeadLetterIdempotencyKey) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for RetryMailDeadLetterIdempotencyKey {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 255usize {
                return Err("longer than 255 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| {
                    ::regress::Regex::new("^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$")
                        .unwrap()
                });
            if PATTERN.find(value).is_none() {
                return Err(
                    "doesn't match pattern \"^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$\""
                        .into(),
                );
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for RetryMailDeadLetterIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for RetryMailDeadLetterIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for RetryMailDeadLetterIdempotencyKey {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`RevokeSessionId`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct RevokeSessionId(::std::string::String);
    impl ::std::ops::Deref for RevokeSessionId {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<RevokeSessionId> for ::std::string::String {
        fn from(value: RevokeSessionId) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for RevokeSessionId {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for RevokeSessionId {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for RevokeSessionId {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for RevokeSessionId {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`SendEmailConfirmationIdempotencyKey`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct SendEmailConfirmationIdempotencyKey(::std::string::String);
    impl ::std::ops::Deref for SendEmailConfirmationIdempotencyKey {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<SendEmailConfirmationIdempotencyKey> for ::std::string::String {
        fn from(value: SendEmailConfirmationIdempotencyKey) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for SendEmailConfirmationIdempotencyKey {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 255usize {
                return Err("longer than 255 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| {
                    ::regress::Regex::new("^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$")
                        .unwrap()
                });
            if PATTERN.find(value).is_none() {
                return Err(
                    "doesn't match pattern \"^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$\""
                        .into(),
                );
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for SendEmailConfirmationIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for SendEmailConfirmationIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for SendEmailConfirmationIdempotencyKey {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`SendNotificationIdempotencyKey`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct SendNotificationIdempotencyKey(::std::string::String);
    impl ::std::ops::Deref for SendNotificationIdempotencyKey {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<SendNotificationIdempotencyKey> for ::std::string::String {
        fn from(value: SendNotificationIdempotencyKey) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for SendNotificationIdempotencyKey {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 255usize {
                return Err("longer than 255 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| {
                    ::regress::Regex::new("^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])+\")$")
                        .unwrap()
                });
            if PATTERN.find(value).is_none() {
                return Err(
                    "doesn't match pattern \"^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])+\")$\""
                        .into(),
                );
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for SendNotificationIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for SendNotificationIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for SendNotificationIdempotencyKey {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///A login session.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct SessionView {
        ///When the session began (the login or provider sign-in).
        #[serde(rename = "createdAt")]
        pub created_at: ::chrono::DateTime<::chrono::offset::Utc>,
        ///Whether this is the session of the access token making the request.
        pub current: bool,
        ///When its refresh token stops working unless used before.
        #[serde(rename = "expiresAt")]
        pub expires_at: ::chrono::DateTime<::chrono::offset::Utc>,
        pub id: ::std::string::String,
        ///The session's last refresh, or its beginning.
        #[serde(rename = "lastUsedAt")]
        pub last_used_at: ::chrono::DateTime<::chrono::offset::Utc>,
        #[serde(
            rename = "userAgent",
            skip_serializing_if = "::std::option::Option::is_none"
        )]
        pub user_agent: ::std::option::Option<::std::string::String>,
    }
    impl SessionView {
        pub fn builder() -> builder::SessionView {
            Default::default()
        }
    }
    ///`StartOAuthLinkProvider`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct StartOAuthLinkProvider(::std::string::String);
    impl ::std::ops::Deref for StartOAuthLinkProvider {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<StartOAuthLinkProvider> for ::std::string::String {
        fn from(value: StartOAuthLinkProvider) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for StartOAuthLinkProvider {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for StartOAuthLinkProvider {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for StartOAuthLinkProvider {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for StartOAuthLinkProvider {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`StartOAuthLinkRedirectUri`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct StartOAuthLinkRedirectUri(::std::string::String);
    impl ::std::ops::Deref for StartOAuthLinkRedirectUri {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<StartOAuthLinkRedirectUri> for ::std::string::String {
        fn from(value: StartOAuthLinkRedirectUri) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for StartOAuthLinkRedirectUri {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for StartOAuthLinkRedirectUri {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for StartOAuthLinkRedirectUri {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for StartOAuthLinkRedirectUri {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`StartOAuthSignInProvider`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct StartOAuthSignInProvider(::std::string::String);
    impl ::std::ops::Deref for StartOAuthSignInProvider {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<StartOAuthSignInProvider> for ::std::string::String {
        fn from(value: StartOAuthSignInProvider) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for StartOAuthSignInProvider {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for StartOAuthSignInProvider {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for StartOAuthSignInProvider {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for StartOAuthSignInProvider {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`StartOAuthSignInRedirectUri`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct StartOAuthSignInRedirectUri(::std::string::String);
    impl ::std::ops::Deref for StartOAuthSignInRedirectUri {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<StartOAuthSignInRedirectUri> for ::std::string::String {
        fn from(value: StartOAuthSignInRedirectUri) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for StartOAuthSignInRedirectUri {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for StartOAuthSignInRedirectUri {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for StartOAuthSignInRedirectUri {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for StartOAuthSignInRedirectUri {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///The last event of a notification stream (`event: end`): why it ends. Nothing follows it.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct StreamEnd {
        ///The same, for people.
        pub detail: ::std::string::String,
        pub reason: StreamEndReason,
    }
    impl StreamEnd {
        pub fn builder() -> builder::StreamEnd {
            Default::default()
        }
    }
    ///Why a notification stream ends.
    #[derive(
        ::serde::Deserialize,
        ::serde::Serialize,
        Clone,
        Copy,
        Debug,
        Eq,
        Hash,
        Ord,
        PartialEq,
        PartialOrd,
    )]
    pub enum StreamEndReason {
        #[serde(rename = "sessionRevoked")]
        SessionRevoked,
        #[serde(rename = "accountLocked")]
        AccountLocked,
        #[serde(rename = "passwordChanged")]
        PasswordChanged,
        #[serde(rename = "accessTokenExpired")]
        AccessTokenExpired,
    }
    impl ::std::fmt::Display for StreamEndReason {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            match *self {
                Self::SessionRevoked => f.write_str("sessionRevoked"),
                Self::AccountLocked => f.write_str("accountLocked"),
                Self::PasswordChanged => f.write_str("passwordChanged"),
                Self::AccessTokenExpired => f.write_str("accessTokenExpired"),
            }
        }
    }
    impl ::std::str::FromStr for StreamEndReason {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            match value {
                "sessionRevoked" => Ok(Self::SessionRevoked),
                "accountLocked" => Ok(Self::AccountLocked),
                "passwordChanged" => Ok(Self::PasswordChanged),
                "accessTokenExpired" => Ok(Self::AccessTokenExpired),
                _ => Err("invalid value".into()),
            }
        }
    }
    impl ::std::convert::TryFrom<&str> for StreamEndReason {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for StreamEndReason {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    ///One event of a notification stream: a notification (`message` events), or the end.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    #[serde(untagged)]
    pub enum StreamEvent {
        Notification(Notification),
        StreamEnd(StreamEnd),
    }
    impl ::std::convert::From<Notification> for StreamEvent {
        fn from(value: Notification) -> Self {
            Self::Notification(value)
        }
    }
    impl ::std::convert::From<StreamEnd> for StreamEvent {
        fn from(value: StreamEnd) -> Self {
            Self::StreamEnd(value)
        }
    }
    ///A thing owned by the caller.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct Thing {
        ///When the thing was created (RFC 3339, UTC).
        #[serde(rename = "createdAt")]
        pub created_at: ::chrono::DateTime<::chrono::offset::Utc>,
        ///Optional free text, up to 2000 characters; absent when there is none.
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub description: ::std::option::Option<::std::string::String>,
        ///Unique id.
        pub id: ::std::string::String,
        ///Display name, 1 to 200 characters.
        pub name: ::std::string::String,
        ///When the thing last changed (RFC 3339, UTC).
        #[serde(rename = "updatedAt")]
        pub updated_at: ::chrono::DateTime<::chrono::offset::Utc>,
        ///Incremented on every update; the `ETag` is derived from it.
        pub version: i64,
    }
    impl Thing {
        pub fn builder() -> builder::Thing {
            Default::default()
        }
    }
    ///The fields a client sets when creating or replacing a thing.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct ThingInput {
        ///Optional free text, up to 2000 characters; absent or `null` for none.
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub description: ::std::option::Option<ThingInputDescription>,
        /**Display name, 1 to 200 characters, not only spaces (leading and trailing spaces are
        trimmed).*/
        pub name: ThingInputName,
    }
    impl ThingInput {
        pub fn builder() -> builder::ThingInput {
            Default::default()
        }
    }
    ///Optional free text, up to 2000 characters; absent or `null` for none.
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct ThingInputDescription(::std::string::String);
    impl ::std::ops::Deref for ThingInputDescription {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<ThingInputDescription> for ::std::string::String {
        fn from(value: ThingInputDescription) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for ThingInputDescription {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 2000usize {
                return Err("longer than 2000 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for ThingInputDescription {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for ThingInputDescription {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for ThingInputDescription {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    /**Display name, 1 to 200 characters, not only spaces (leading and trailing spaces are
    trimmed).*/
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct ThingInputName(::std::string::String);
    impl ::std::ops::Deref for ThingInputName {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<ThingInputName> for ::std::string::String {
        fn from(value: ThingInputName) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for ThingInputName {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 200usize {
                return Err("longer than 200 characters".into());
            }
            if value.chars().count() < 1usize {
                return Err("shorter than 1 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| {
                    ::regress::Regex::new("^[^\\x00]*[^\\x00\\s][^\\x00]*$").unwrap()
                });
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*[^\\x00\\s][^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for ThingInputName {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for ThingInputName {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for ThingInputName {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    /**A JSON Merge Patch (RFC 7396) of a thing: a field left out stays as it is; `description:
    null` removes the description. `name` cannot be removed.*/
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, Default)]
    pub struct ThingPatch {
        ///A new description (up to 2000 characters), or `null` to remove it.
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub description: ::std::option::Option<ThingPatchDescription>,
        ///A new display name, 1 to 200 characters, not only spaces.
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub name: ::std::option::Option<ThingPatchName>,
    }
    impl ThingPatch {
        pub fn builder() -> builder::ThingPatch {
            Default::default()
        }
    }
    ///A new description (up to 2000 characters), or `null` to remove it.
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct ThingPatchDescription(::std::string::String);
    impl ::std::ops::Deref for ThingPatchDescription {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<ThingPatchDescription> for ::std::string::String {
        fn from(value: ThingPatchDescription) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for ThingPatchDescription {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 2000usize {
                return Err("longer than 2000 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for ThingPatchDescription {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for ThingPatchDescription {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for ThingPatchDescription {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///A new display name, 1 to 200 characters, not only spaces.
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct ThingPatchName(::std::string::String);
    impl ::std::ops::Deref for ThingPatchName {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<ThingPatchName> for ::std::string::String {
        fn from(value: ThingPatchName) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for ThingPatchName {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 200usize {
                return Err("longer than 200 characters".into());
            }
            if value.chars().count() < 1usize {
                return Err("shorter than 1 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| {
                    ::regress::Regex::new("^[^\\x00]*[^\\x00\\s][^\\x00]*$").unwrap()
                });
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*[^\\x00\\s][^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for ThingPatchName {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for ThingPatchName {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for ThingPatchName {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///An access token and the refresh token that renews it.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct TokenResponse {
        ///A JWT to send as `Authorization: Bearer ...`.
        #[serde(rename = "accessToken")]
        pub access_token: ::std::string::String,
        ///Seconds until the access token expires.
        #[serde(rename = "expiresIn")]
        pub expires_in: u64,
        ///Opaque; exchange it at `/auth/refresh` for a new pair. Each one works once.
        #[serde(rename = "refreshToken")]
        pub refresh_token: ::std::string::String,
        ///Always `Bearer`.
        #[serde(rename = "tokenType")]
        pub token_type: ::std::string::String,
    }
    impl TokenResponse {
        pub fn builder() -> builder::TokenResponse {
            Default::default()
        }
    }
    ///`UnlinkIdentityId`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct UnlinkIdentityId(::std::string::String);
    impl ::std::ops::Deref for UnlinkIdentityId {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<UnlinkIdentityId> for ::std::string::String {
        fn from(value: UnlinkIdentityId) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for UnlinkIdentityId {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for UnlinkIdentityId {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for UnlinkIdentityId {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for UnlinkIdentityId {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`UnlinkIdentityIdempotencyKey`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct UnlinkIdentityIdempotencyKey(::std::string::String);
    impl ::std::ops::Deref for UnlinkIdentityIdempotencyKey {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<UnlinkIdentityIdempotencyKey> for ::std::string::String {
        fn from(value: UnlinkIdentityIdempotencyKey) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for UnlinkIdentityIdempotencyKey {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 255usize {
                return Err("longer than 255 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| {
                    ::regress::Regex::new("^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$")
                        .unwrap()
                });
            if PATTERN.find(value).is_none() {
                return Err(
                    "doesn't match pattern \"^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$\""
                        .into(),
                );
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for UnlinkIdentityIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for UnlinkIdentityIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for UnlinkIdentityIdempotencyKey {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`UnlockUserId`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct UnlockUserId(::std::string::String);
    impl ::std::ops::Deref for UnlockUserId {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<UnlockUserId> for ::std::string::String {
        fn from(value: UnlockUserId) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for UnlockUserId {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for UnlockUserId {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for UnlockUserId {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for UnlockUserId {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///How many of the caller's notifications are unread.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct UnreadCount {
        pub count: u64,
    }
    impl UnreadCount {
        pub fn builder() -> builder::UnreadCount {
            Default::default()
        }
    }
    ///`UpdateThingId`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct UpdateThingId(::std::string::String);
    impl ::std::ops::Deref for UpdateThingId {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<UpdateThingId> for ::std::string::String {
        fn from(value: UpdateThingId) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for UpdateThingId {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| ::regress::Regex::new("^[^\\x00]*$").unwrap());
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[^\\x00]*$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for UpdateThingId {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for UpdateThingId {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for UpdateThingId {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`UpdateThingIdempotencyKey`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct UpdateThingIdempotencyKey(::std::string::String);
    impl ::std::ops::Deref for UpdateThingIdempotencyKey {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<UpdateThingIdempotencyKey> for ::std::string::String {
        fn from(value: UpdateThingIdempotencyKey) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for UpdateThingIdempotencyKey {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 255usize {
                return Err("longer than 255 characters".into());
            }
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| {
                    ::regress::Regex::new("^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$")
                        .unwrap()
                });
            if PATTERN.find(value).is_none() {
                return Err(
                    "doesn't match pattern \"^([!#-~][!-~]*|\"([ !#-\\[\\]-~]|\\\\[\"\\\\])*\")?$\""
                        .into(),
                );
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for UpdateThingIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for UpdateThingIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for UpdateThingIdempotencyKey {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`UpdateThingIfMatch`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct UpdateThingIfMatch(::std::string::String);
    impl ::std::ops::Deref for UpdateThingIfMatch {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<UpdateThingIfMatch> for ::std::string::String {
        fn from(value: UpdateThingIfMatch) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for UpdateThingIfMatch {
        type Err = self::error::ConversionError;
        fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> =
                ::std::sync::LazyLock::new(|| {
                    ::regress::Regex::new("^(\\*|((W/)?\"[!#-~]*\"(, ?(W/)?\"[!#-~]*\")*)?)$")
                        .unwrap()
                });
            if PATTERN.find(value).is_none() {
                return Err(
                    "doesn't match pattern \"^(\\*|((W/)?\"[!#-~]*\"(, ?(W/)?\"[!#-~]*\")*)?)$\""
                        .into(),
                );
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for UpdateThingIfMatch {
        type Error = self::error::ConversionError;
        fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for UpdateThingIfMatch {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for UpdateThingIfMatch {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///An account, as its owner and administrators see it.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
    pub struct UserView {
        ///When the account was registered.
        #[serde(rename = "createdAt")]
        pub created_at: ::chrono::DateTime<::chrono::offset::Utc>,
        #[serde(
            rename = "displayName",
            skip_serializing_if = "::std::option::Option::is_none"
        )]
        pub display_name: ::std::option::Option<::std::string::String>,
        pub email: ::std::string::String,
        ///Whether the email address has been confirmed.
        #[serde(rename = "emailConfirmed")]
        pub email_confirmed: bool,
        pub id: ::std::string::String,
        ///Whether an administrator has locked the account.
        pub locked: bool,
        pub roles: ::std::vec::Vec<::std::string::String>,
    }
    impl UserView {
        pub fn builder() -> builder::UserView {
            Default::default()
        }
    }
    /// Types for composing complex structures.
    pub mod builder {
        #[derive(Clone, Debug)]
        pub struct Acceptance {
            accepted_at: ::std::result::Result<
                ::chrono::DateTime<::chrono::offset::Utc>,
                ::std::string::String,
            >,
            client_address: ::std::result::Result<::std::string::String, ::std::string::String>,
            id: ::std::result::Result<::std::string::String, ::std::string::String>,
            kind: ::std::result::Result<::std::string::String, ::std::string::String>,
            request_id: ::std::result::Result<
                ::std::option::Option<::std::string::String>,
                ::std::string::String,
            >,
            user_agent: ::std::result::Result<
                ::std::option::Option<::std::string::String>,
                ::std::string::String,
            >,
            user_id: ::std::result::Result<::std::string::String, ::std::string::String>,
            version: ::std::result::Result<i64, ::std::string::String>,
        }
        impl ::std::default::Default for Acceptance {
            fn default() -> Self {
                Self {
                    accepted_at: Err("no value supplied for accepted_at".to_string()),
                    client_address: Err("no value supplied for client_address".to_string()),
                    id: Err("no value supplied for id".to_string()),
                    kind: Err("no value supplied for kind".to_string()),
                    request_id: Ok(Default::default()),
                    user_agent: Ok(Default::default()),
                    user_id: Err("no value supplied for user_id".to_string()),
                    version: Err("no value supplied for version".to_string()),
                }
            }
        }
        impl Acceptance {
            pub fn accepted_at<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::chrono::DateTime<::chrono::offset::Utc>>,
                T::Error: ::std::fmt::Display,
            {
                self.accepted_at = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for accepted_at: {e}"));
                self
            }
            pub fn client_address<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.client_address = value.try_into().map_err(|e| {
                    format!("error converting supplied value for client_address: {e}")
                });
                self
            }
            pub fn id<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.id = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for id: {e}"));
                self
            }
            pub fn kind<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.kind = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for kind: {e}"));
                self
            }
            pub fn request_id<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::option::Option<::std::string::String>>,
                T::Error: ::std::fmt::Display,
            {
                self.request_id = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for request_id: {e}"));
                self
            }
            pub fn user_agent<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::option::Option<::std::string::String>>,
                T::Error: ::std::fmt::Display,
            {
                self.user_agent = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for user_agent: {e}"));
                self
            }
            pub fn user_id<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.user_id = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for user_id: {e}"));
                self
            }
            pub fn version<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<i64>,
                T::Error: ::std::fmt::Display,
            {
                self.version = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for version: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<Acceptance> for super::Acceptance {
            type Error = super::error::ConversionError;
            fn try_from(
                value: Acceptance,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    accepted_at: value.accepted_at?,
                    client_address: value.client_address?,
                    id: value.id?,
                    kind: value.kind?,
                    request_id: value.request_id?,
                    user_agent: value.user_agent?,
                    user_id: value.user_id?,
                    version: value.version?,
                })
            }
        }
        impl ::std::convert::From<super::Acceptance> for Acceptance {
            fn from(value: super::Acceptance) -> Self {
                Self {
                    accepted_at: Ok(value.accepted_at),
                    client_address: Ok(value.client_address),
                    id: Ok(value.id),
                    kind: Ok(value.kind),
                    request_id: Ok(value.request_id),
                    user_agent: Ok(value.user_agent),
                    user_id: Ok(value.user_id),
                    version: Ok(value.version),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct AcceptanceInput {
            kind: ::std::result::Result<super::AcceptanceInputKind, ::std::string::String>,
            version: ::std::result::Result<::std::num::NonZeroU32, ::std::string::String>,
        }
        impl ::std::default::Default for AcceptanceInput {
            fn default() -> Self {
                Self {
                    kind: Err("no value supplied for kind".to_string()),
                    version: Err("no value supplied for version".to_string()),
                }
            }
        }
        impl AcceptanceInput {
            pub fn kind<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<super::AcceptanceInputKind>,
                T::Error: ::std::fmt::Display,
            {
                self.kind = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for kind: {e}"));
                self
            }
            pub fn version<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::num::NonZeroU32>,
                T::Error: ::std::fmt::Display,
            {
                self.version = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for version: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<AcceptanceInput> for super::AcceptanceInput {
            type Error = super::error::ConversionError;
            fn try_from(
                value: AcceptanceInput,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    kind: value.kind?,
                    version: value.version?,
                })
            }
        }
        impl ::std::convert::From<super::AcceptanceInput> for AcceptanceInput {
            fn from(value: super::AcceptanceInput) -> Self {
                Self {
                    kind: Ok(value.kind),
                    version: Ok(value.version),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct AuditEntryView {
            action: ::std::result::Result<::std::string::String, ::std::string::String>,
            actor_id: ::std::result::Result<::std::string::String, ::std::string::String>,
            at: ::std::result::Result<
                ::chrono::DateTime<::chrono::offset::Utc>,
                ::std::string::String,
            >,
            id: ::std::result::Result<::std::string::String, ::std::string::String>,
            request_id: ::std::result::Result<
                ::std::option::Option<::std::string::String>,
                ::std::string::String,
            >,
            target_id: ::std::result::Result<::std::string::String, ::std::string::String>,
        }
        impl ::std::default::Default for AuditEntryView {
            fn default() -> Self {
                Self {
                    action: Err("no value supplied for action".to_string()),
                    actor_id: Err("no value supplied for actor_id".to_string()),
                    at: Err("no value supplied for at".to_string()),
                    id: Err("no value supplied for id".to_string()),
                    request_id: Ok(Default::default()),
                    target_id: Err("no value supplied for target_id".to_string()),
                }
            }
        }
        impl AuditEntryView {
            pub fn action<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.action = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for action: {e}"));
                self
            }
            pub fn actor_id<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.actor_id = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for actor_id: {e}"));
                self
            }
            pub fn at<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::chrono::DateTime<::chrono::offset::Utc>>,
                T::Error: ::std::fmt::Display,
            {
                self.at = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for at: {e}"));
                self
            }
            pub fn id<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.id = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for id: {e}"));
                self
            }
            pub fn request_id<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::option::Option<::std::string::String>>,
                T::Error: ::std::fmt::Display,
            {
                self.request_id = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for request_id: {e}"));
                self
            }
            pub fn target_id<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.target_id = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for target_id: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<AuditEntryView> for super::AuditEntryView {
            type Error = super::error::ConversionError;
            fn try_from(
                value: AuditEntryView,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    action: value.action?,
                    actor_id: value.actor_id?,
                    at: value.at?,
                    id: value.id?,
                    request_id: value.request_id?,
                    target_id: value.target_id?,
                })
            }
        }
        impl ::std::convert::From<super::AuditEntryView> for AuditEntryView {
            fn from(value: super::AuditEntryView) -> Self {
                Self {
                    action: Ok(value.action),
                    actor_id: Ok(value.actor_id),
                    at: Ok(value.at),
                    id: Ok(value.id),
                    request_id: Ok(value.request_id),
                    target_id: Ok(value.target_id),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct AuthorizationView {
            authorization_url: ::std::result::Result<::std::string::String, ::std::string::String>,
            binding: ::std::result::Result<::std::string::String, ::std::string::String>,
            expires_at: ::std::result::Result<
                ::chrono::DateTime<::chrono::offset::Utc>,
                ::std::string::String,
            >,
            state: ::std::result::Result<::std::string::String, ::std::string::String>,
        }
        impl ::std::default::Default for AuthorizationView {
            fn default() -> Self {
                Self {
                    authorization_url: Err("no value supplied for authorization_url".to_string()),
                    binding: Err("no value supplied for binding".to_string()),
                    expires_at: Err("no value supplied for expires_at".to_string()),
                    state: Err("no value supplied for state".to_string()),
                }
            }
        }
        impl AuthorizationView {
            pub fn authorization_url<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.authorization_url = value.try_into().map_err(|e| {
                    format!("error converting supplied value for authorization_url: {e}")
                });
                self
            }
            pub fn binding<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.binding = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for binding: {e}"));
                self
            }
            pub fn expires_at<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::chrono::DateTime<::chrono::offset::Utc>>,
                T::Error: ::std::fmt::Display,
            {
                self.expires_at = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for expires_at: {e}"));
                self
            }
            pub fn state<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.state = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for state: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<AuthorizationView> for super::AuthorizationView {
            type Error = super::error::ConversionError;
            fn try_from(
                value: AuthorizationView,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    authorization_url: value.authorization_url?,
                    binding: value.binding?,
                    expires_at: value.expires_at?,
                    state: value.state?,
                })
            }
        }
        impl ::std::convert::From<super::AuthorizationView> for AuthorizationView {
            fn from(value: super::AuthorizationView) -> Self {
                Self {
                    authorization_url: Ok(value.authorization_url),
                    binding: Ok(value.binding),
                    expires_at: Ok(value.expires_at),
                    state: Ok(value.state),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct CodeExchangeRequest {
            binding:
                ::std::result::Result<super::CodeExchangeRequestBinding, ::std::string::String>,
            code: ::std::result::Result<super::CodeExchangeRequestCode, ::std::string::String>,
            redirect_uri:
                ::std::result::Result<super::CodeExchangeRequestRedirectUri, ::std::string::String>,
            state: ::std::result::Result<super::CodeExchangeRequestState, ::std::string::String>,
        }
        impl ::std::default::Default for CodeExchangeRequest {
            fn default() -> Self {
                Self {
                    binding: Err("no value supplied for binding".to_string()),
                    code: Err("no value supplied for code".to_string()),
                    redirect_uri: Err("no value supplied for redirect_uri".to_string()),
                    state: Err("no value supplied for state".to_string()),
                }
            }
        }
        impl CodeExchangeRequest {
            pub fn binding<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<super::CodeExchangeRequestBinding>,
                T::Error: ::std::fmt::Display,
            {
                self.binding = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for binding: {e}"));
                self
            }
            pub fn code<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<super::CodeExchangeRequestCode>,
                T::Error: ::std::fmt::Display,
            {
                self.code = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for code: {e}"));
                self
            }
            pub fn redirect_uri<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<super::CodeExchangeRequestRedirectUri>,
                T::Error: ::std::fmt::Display,
            {
                self.redirect_uri = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for redirect_uri: {e}"));
                self
            }
            pub fn state<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<super::CodeExchangeRequestState>,
                T::Error: ::std::fmt::Display,
            {
                self.state = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for state: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<CodeExchangeRequest> for super::CodeExchangeRequest {
            type Error = super::error::ConversionError;
            fn try_from(
                value: CodeExchangeRequest,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    binding: value.binding?,
                    code: value.code?,
                    redirect_uri: value.redirect_uri?,
                    state: value.state?,
                })
            }
        }
        impl ::std::convert::From<super::CodeExchangeRequest> for CodeExchangeRequest {
            fn from(value: super::CodeExchangeRequest) -> Self {
                Self {
                    binding: Ok(value.binding),
                    code: Ok(value.code),
                    redirect_uri: Ok(value.redirect_uri),
                    state: Ok(value.state),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct ConfirmEmailRequest {
            token: ::std::result::Result<super::ConfirmEmailRequestToken, ::std::string::String>,
        }
        impl ::std::default::Default for ConfirmEmailRequest {
            fn default() -> Self {
                Self {
                    token: Err("no value supplied for token".to_string()),
                }
            }
        }
        impl ConfirmEmailRequest {
            pub fn token<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<super::ConfirmEmailRequestToken>,
                T::Error: ::std::fmt::Display,
            {
                self.token = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for token: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<ConfirmEmailRequest> for super::ConfirmEmailRequest {
            type Error = super::error::ConversionError;
            fn try_from(
                value: ConfirmEmailRequest,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    token: value.token?,
                })
            }
        }
        impl ::std::convert::From<super::ConfirmEmailRequest> for ConfirmEmailRequest {
            fn from(value: super::ConfirmEmailRequest) -> Self {
                Self {
                    token: Ok(value.token),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct DocumentVersion {
            body: ::std::result::Result<::std::string::String, ::std::string::String>,
            effective_at: ::std::result::Result<
                ::chrono::DateTime<::chrono::offset::Utc>,
                ::std::string::String,
            >,
            kind: ::std::result::Result<::std::string::String, ::std::string::String>,
            published_at: ::std::result::Result<
                ::chrono::DateTime<::chrono::offset::Utc>,
                ::std::string::String,
            >,
            version: ::std::result::Result<i64, ::std::string::String>,
        }
        impl ::std::default::Default for DocumentVersion {
            fn default() -> Self {
                Self {
                    body: Err("no value supplied for body".to_string()),
                    effective_at: Err("no value supplied for effective_at".to_string()),
                    kind: Err("no value supplied for kind".to_string()),
                    published_at: Err("no value supplied for published_at".to_string()),
                    version: Err("no value supplied for version".to_string()),
                }
            }
        }
        impl DocumentVersion {
            pub fn body<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.body = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for body: {e}"));
                self
            }
            pub fn effective_at<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::chrono::DateTime<::chrono::offset::Utc>>,
                T::Error: ::std::fmt::Display,
            {
                self.effective_at = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for effective_at: {e}"));
                self
            }
            pub fn kind<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.kind = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for kind: {e}"));
                self
            }
            pub fn published_at<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::chrono::DateTime<::chrono::offset::Utc>>,
                T::Error: ::std::fmt::Display,
            {
                self.published_at = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for published_at: {e}"));
                self
            }
            pub fn version<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<i64>,
                T::Error: ::std::fmt::Display,
            {
                self.version = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for version: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<DocumentVersion> for super::DocumentVersion {
            type Error = super::error::ConversionError;
            fn try_from(
                value: DocumentVersion,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    body: value.body?,
                    effective_at: value.effective_at?,
                    kind: value.kind?,
                    published_at: value.published_at?,
                    version: value.version?,
                })
            }
        }
        impl ::std::convert::From<super::DocumentVersion> for DocumentVersion {
            fn from(value: super::DocumentVersion) -> Self {
                Self {
                    body: Ok(value.body),
                    effective_at: Ok(value.effective_at),
                    kind: Ok(value.kind),
                    published_at: Ok(value.published_at),
                    version: Ok(value.version),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct EmailRequest {
            email: ::std::result::Result<super::EmailRequestEmail, ::std::string::String>,
        }
        impl ::std::default::Default for EmailRequest {
            fn default() -> Self {
                Self {
                    email: Err("no value supplied for email".to_string()),
                }
            }
        }
        impl EmailRequest {
            pub fn email<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<super::EmailRequestEmail>,
                T::Error: ::std::fmt::Display,
            {
                self.email = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for email: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<EmailRequest> for super::EmailRequest {
            type Error = super::error::ConversionError;
            fn try_from(
                value: EmailRequest,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    email: value.email?,
                })
            }
        }
        impl ::std::convert::From<super::EmailRequest> for EmailRequest {
            fn from(value: super::EmailRequest) -> Self {
                Self {
                    email: Ok(value.email),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct HealthReport {
            database: ::std::result::Result<::std::string::String, ::std::string::String>,
            redis: ::std::result::Result<::std::string::String, ::std::string::String>,
            redis_topology: ::std::result::Result<
                ::std::option::Option<::std::string::String>,
                ::std::string::String,
            >,
            status: ::std::result::Result<::std::string::String, ::std::string::String>,
        }
        impl ::std::default::Default for HealthReport {
            fn default() -> Self {
                Self {
                    database: Err("no value supplied for database".to_string()),
                    redis: Err("no value supplied for redis".to_string()),
                    redis_topology: Ok(Default::default()),
                    status: Err("no value supplied for status".to_string()),
                }
            }
        }
        impl HealthReport {
            pub fn database<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.database = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for database: {e}"));
                self
            }
            pub fn redis<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.redis = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for redis: {e}"));
                self
            }
            pub fn redis_topology<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::option::Option<::std::string::String>>,
                T::Error: ::std::fmt::Display,
            {
                self.redis_topology = value.try_into().map_err(|e| {
                    format!("error converting supplied value for redis_topology: {e}")
                });
                self
            }
            pub fn status<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.status = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for status: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<HealthReport> for super::HealthReport {
            type Error = super::error::ConversionError;
            fn try_from(
                value: HealthReport,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    database: value.database?,
                    redis: value.redis?,
                    redis_topology: value.redis_topology?,
                    status: value.status?,
                })
            }
        }
        impl ::std::convert::From<super::HealthReport> for HealthReport {
            fn from(value: super::HealthReport) -> Self {
                Self {
                    database: Ok(value.database),
                    redis: Ok(value.redis),
                    redis_topology: Ok(value.redis_topology),
                    status: Ok(value.status),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct IdentityView {
            email: ::std::result::Result<
                ::std::option::Option<::std::string::String>,
                ::std::string::String,
            >,
            id: ::std::result::Result<::std::string::String, ::std::string::String>,
            last_used_at: ::std::result::Result<
                ::chrono::DateTime<::chrono::offset::Utc>,
                ::std::string::String,
            >,
            linked_at: ::std::result::Result<
                ::chrono::DateTime<::chrono::offset::Utc>,
                ::std::string::String,
            >,
            provider: ::std::result::Result<::std::string::String, ::std::string::String>,
            subject: ::std::result::Result<::std::string::String, ::std::string::String>,
        }
        impl ::std::default::Default for IdentityView {
            fn default() -> Self {
                Self {
                    email: Ok(Default::default()),
                    id: Err("no value supplied for id".to_string()),
                    last_used_at: Err("no value supplied for last_used_at".to_string()),
                    linked_at: Err("no value supplied for linked_at".to_string()),
                    provider: Err("no value supplied for provider".to_string()),
                    subject: Err("no value supplied for subject".to_string()),
                }
            }
        }
        impl IdentityView {
            pub fn email<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::option::Option<::std::string::String>>,
                T::Error: ::std::fmt::Display,
            {
                self.email = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for email: {e}"));
                self
            }
            pub fn id<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.id = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for id: {e}"));
                self
            }
            pub fn last_used_at<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::chrono::DateTime<::chrono::offset::Utc>>,
                T::Error: ::std::fmt::Display,
            {
                self.last_used_at = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for last_used_at: {e}"));
                self
            }
            pub fn linked_at<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::chrono::DateTime<::chrono::offset::Utc>>,
                T::Error: ::std::fmt::Display,
            {
                self.linked_at = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for linked_at: {e}"));
                self
            }
            pub fn provider<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.provider = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for provider: {e}"));
                self
            }
            pub fn subject<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.subject = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for subject: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<IdentityView> for super::IdentityView {
            type Error = super::error::ConversionError;
            fn try_from(
                value: IdentityView,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    email: value.email?,
                    id: value.id?,
                    last_used_at: value.last_used_at?,
                    linked_at: value.linked_at?,
                    provider: value.provider?,
                    subject: value.subject?,
                })
            }
        }
        impl ::std::convert::From<super::IdentityView> for IdentityView {
            fn from(value: super::IdentityView) -> Self {
                Self {
                    email: Ok(value.email),
                    id: Ok(value.id),
                    last_used_at: Ok(value.last_used_at),
                    linked_at: Ok(value.linked_at),
                    provider: Ok(value.provider),
                    subject: Ok(value.subject),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct LoginRequest {
            email: ::std::result::Result<super::LoginRequestEmail, ::std::string::String>,
            password: ::std::result::Result<super::LoginRequestPassword, ::std::string::String>,
        }
        impl ::std::default::Default for LoginRequest {
            fn default() -> Self {
                Self {
                    email: Err("no value supplied for email".to_string()),
                    password: Err("no value supplied for password".to_string()),
                }
            }
        }
        impl LoginRequest {
            pub fn email<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<super::LoginRequestEmail>,
                T::Error: ::std::fmt::Display,
            {
                self.email = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for email: {e}"));
                self
            }
            pub fn password<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<super::LoginRequestPassword>,
                T::Error: ::std::fmt::Display,
            {
                self.password = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for password: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<LoginRequest> for super::LoginRequest {
            type Error = super::error::ConversionError;
            fn try_from(
                value: LoginRequest,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    email: value.email?,
                    password: value.password?,
                })
            }
        }
        impl ::std::convert::From<super::LoginRequest> for LoginRequest {
            fn from(value: super::LoginRequest) -> Self {
                Self {
                    email: Ok(value.email),
                    password: Ok(value.password),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct MailDelivery {
            attempts: ::std::result::Result<u32, ::std::string::String>,
            created_at: ::std::result::Result<
                ::chrono::DateTime<::chrono::offset::Utc>,
                ::std::string::String,
            >,
            finished_at: ::std::result::Result<
                ::std::option::Option<::chrono::DateTime<::chrono::offset::Utc>>,
                ::std::string::String,
            >,
            id: ::std::result::Result<::std::string::String, ::std::string::String>,
            last_error: ::std::result::Result<
                ::std::option::Option<::std::string::String>,
                ::std::string::String,
            >,
            notification_id: ::std::result::Result<::std::string::String, ::std::string::String>,
            recipient_id: ::std::result::Result<::std::string::String, ::std::string::String>,
            state: ::std::result::Result<super::DeliveryState, ::std::string::String>,
        }
        impl ::std::default::Default for MailDelivery {
            fn default() -> Self {
                Self {
                    attempts: Err("no value supplied for attempts".to_string()),
                    created_at: Err("no value supplied for created_at".to_string()),
                    finished_at: Ok(Default::default()),
                    id: Err("no value supplied for id".to_string()),
                    last_error: Ok(Default::default()),
                    notification_id: Err("no value supplied for notification_id".to_string()),
                    recipient_id: Err("no value supplied for recipient_id".to_string()),
                    state: Err("no value supplied for state".to_string()),
                }
            }
        }
        impl MailDelivery {
            pub fn attempts<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<u32>,
                T::Error: ::std::fmt::Display,
            {
                self.attempts = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for attempts: {e}"));
                self
            }
            pub fn created_at<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::chrono::DateTime<::chrono::offset::Utc>>,
                T::Error: ::std::fmt::Display,
            {
                self.created_at = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for created_at: {e}"));
                self
            }
            pub fn finished_at<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<
                        ::std::option::Option<::chrono::DateTime<::chrono::offset::Utc>>,
                    >,
                T::Error: ::std::fmt::Display,
            {
                self.finished_at = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for finished_at: {e}"));
                self
            }
            pub fn id<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.id = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for id: {e}"));
                self
            }
            pub fn last_error<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::option::Option<::std::string::String>>,
                T::Error: ::std::fmt::Display,
            {
                self.last_error = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for last_error: {e}"));
                self
            }
            pub fn notification_id<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.notification_id = value.try_into().map_err(|e| {
                    format!("error converting supplied value for notification_id: {e}")
                });
                self
            }
            pub fn recipient_id<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.recipient_id = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for recipient_id: {e}"));
                self
            }
            pub fn state<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<super::DeliveryState>,
                T::Error: ::std::fmt::Display,
            {
                self.state = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for state: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<MailDelivery> for super::MailDelivery {
            type Error = super::error::ConversionError;
            fn try_from(
                value: MailDelivery,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    attempts: value.attempts?,
                    created_at: value.created_at?,
                    finished_at: value.finished_at?,
                    id: value.id?,
                    last_error: value.last_error?,
                    notification_id: value.notification_id?,
                    recipient_id: value.recipient_id?,
                    state: value.state?,
                })
            }
        }
        impl ::std::convert::From<super::MailDelivery> for MailDelivery {
            fn from(value: super::MailDelivery) -> Self {
                Self {
                    attempts: Ok(value.attempts),
                    created_at: Ok(value.created_at),
                    finished_at: Ok(value.finished_at),
                    id: Ok(value.id),
                    last_error: Ok(value.last_error),
                    notification_id: Ok(value.notification_id),
                    recipient_id: Ok(value.recipient_id),
                    state: Ok(value.state),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct MarkedRead {
            marked: ::std::result::Result<u64, ::std::string::String>,
        }
        impl ::std::default::Default for MarkedRead {
            fn default() -> Self {
                Self {
                    marked: Err("no value supplied for marked".to_string()),
                }
            }
        }
        impl MarkedRead {
            pub fn marked<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<u64>,
                T::Error: ::std::fmt::Display,
            {
                self.marked = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for marked: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<MarkedRead> for super::MarkedRead {
            type Error = super::error::ConversionError;
            fn try_from(
                value: MarkedRead,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    marked: value.marked?,
                })
            }
        }
        impl ::std::convert::From<super::MarkedRead> for MarkedRead {
            fn from(value: super::MarkedRead) -> Self {
                Self {
                    marked: Ok(value.marked),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct MyAcceptances {
            accepted:
                ::std::result::Result<::std::vec::Vec<super::Acceptance>, ::std::string::String>,
            pending: ::std::result::Result<
                ::std::vec::Vec<super::PendingVersion>,
                ::std::string::String,
            >,
        }
        impl ::std::default::Default for MyAcceptances {
            fn default() -> Self {
                Self {
                    accepted: Err("no value supplied for accepted".to_string()),
                    pending: Err("no value supplied for pending".to_string()),
                }
            }
        }
        impl MyAcceptances {
            pub fn accepted<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::vec::Vec<super::Acceptance>>,
                T::Error: ::std::fmt::Display,
            {
                self.accepted = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for accepted: {e}"));
                self
            }
            pub fn pending<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::vec::Vec<super::PendingVersion>>,
                T::Error: ::std::fmt::Display,
            {
                self.pending = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for pending: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<MyAcceptances> for super::MyAcceptances {
            type Error = super::error::ConversionError;
            fn try_from(
                value: MyAcceptances,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    accepted: value.accepted?,
                    pending: value.pending?,
                })
            }
        }
        impl ::std::convert::From<super::MyAcceptances> for MyAcceptances {
            fn from(value: super::MyAcceptances) -> Self {
                Self {
                    accepted: Ok(value.accepted),
                    pending: Ok(value.pending),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct NewNotification {
            body: ::std::result::Result<super::NewNotificationBody, ::std::string::String>,
            channels: ::std::result::Result<::std::vec::Vec<super::Channel>, ::std::string::String>,
            recipient_id:
                ::std::result::Result<super::NewNotificationRecipientId, ::std::string::String>,
            title: ::std::result::Result<super::NewNotificationTitle, ::std::string::String>,
        }
        impl ::std::default::Default for NewNotification {
            fn default() -> Self {
                Self {
                    body: Err("no value supplied for body".to_string()),
                    channels: Err("no value supplied for channels".to_string()),
                    recipient_id: Err("no value supplied for recipient_id".to_string()),
                    title: Err("no value supplied for title".to_string()),
                }
            }
        }
        impl NewNotification {
            pub fn body<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<super::NewNotificationBody>,
                T::Error: ::std::fmt::Display,
            {
                self.body = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for body: {e}"));
                self
            }
            pub fn channels<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::vec::Vec<super::Channel>>,
                T::Error: ::std::fmt::Display,
            {
                self.channels = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for channels: {e}"));
                self
            }
            pub fn recipient_id<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<super::NewNotificationRecipientId>,
                T::Error: ::std::fmt::Display,
            {
                self.recipient_id = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for recipient_id: {e}"));
                self
            }
            pub fn title<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<super::NewNotificationTitle>,
                T::Error: ::std::fmt::Display,
            {
                self.title = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for title: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<NewNotification> for super::NewNotification {
            type Error = super::error::ConversionError;
            fn try_from(
                value: NewNotification,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    body: value.body?,
                    channels: value.channels?,
                    recipient_id: value.recipient_id?,
                    title: value.title?,
                })
            }
        }
        impl ::std::convert::From<super::NewNotification> for NewNotification {
            fn from(value: super::NewNotification) -> Self {
                Self {
                    body: Ok(value.body),
                    channels: Ok(value.channels),
                    recipient_id: Ok(value.recipient_id),
                    title: Ok(value.title),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct Notification {
            body: ::std::result::Result<::std::string::String, ::std::string::String>,
            channels: ::std::result::Result<::std::vec::Vec<super::Channel>, ::std::string::String>,
            created_at: ::std::result::Result<
                ::chrono::DateTime<::chrono::offset::Utc>,
                ::std::string::String,
            >,
            id: ::std::result::Result<::std::string::String, ::std::string::String>,
            read_at: ::std::result::Result<
                ::std::option::Option<::chrono::DateTime<::chrono::offset::Utc>>,
                ::std::string::String,
            >,
            sender_id: ::std::result::Result<::std::string::String, ::std::string::String>,
            title: ::std::result::Result<::std::string::String, ::std::string::String>,
        }
        impl ::std::default::Default for Notification {
            fn default() -> Self {
                Self {
                    body: Err("no value supplied for body".to_string()),
                    channels: Err("no value supplied for channels".to_string()),
                    created_at: Err("no value supplied for created_at".to_string()),
                    id: Err("no value supplied for id".to_string()),
                    read_at: Ok(Default::default()),
                    sender_id: Err("no value supplied for sender_id".to_string()),
                    title: Err("no value supplied for title".to_string()),
                }
            }
        }
        impl Notification {
            pub fn body<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.body = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for body: {e}"));
                self
            }
            pub fn channels<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::vec::Vec<super::Channel>>,
                T::Error: ::std::fmt::Display,
            {
                self.channels = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for channels: {e}"));
                self
            }
            pub fn created_at<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::chrono::DateTime<::chrono::offset::Utc>>,
                T::Error: ::std::fmt::Display,
            {
                self.created_at = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for created_at: {e}"));
                self
            }
            pub fn id<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.id = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for id: {e}"));
                self
            }
            pub fn read_at<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<
                        ::std::option::Option<::chrono::DateTime<::chrono::offset::Utc>>,
                    >,
                T::Error: ::std::fmt::Display,
            {
                self.read_at = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for read_at: {e}"));
                self
            }
            pub fn sender_id<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.sender_id = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for sender_id: {e}"));
                self
            }
            pub fn title<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.title = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for title: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<Notification> for super::Notification {
            type Error = super::error::ConversionError;
            fn try_from(
                value: Notification,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    body: value.body?,
                    channels: value.channels?,
                    created_at: value.created_at?,
                    id: value.id?,
                    read_at: value.read_at?,
                    sender_id: value.sender_id?,
                    title: value.title?,
                })
            }
        }
        impl ::std::convert::From<super::Notification> for Notification {
            fn from(value: super::Notification) -> Self {
                Self {
                    body: Ok(value.body),
                    channels: Ok(value.channels),
                    created_at: Ok(value.created_at),
                    id: Ok(value.id),
                    read_at: Ok(value.read_at),
                    sender_id: Ok(value.sender_id),
                    title: Ok(value.title),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct PageAuditEntryView {
            items: ::std::result::Result<
                ::std::vec::Vec<super::AuditEntryView>,
                ::std::string::String,
            >,
            page: ::std::result::Result<u32, ::std::string::String>,
            per_page: ::std::result::Result<u32, ::std::string::String>,
            total: ::std::result::Result<u64, ::std::string::String>,
        }
        impl ::std::default::Default for PageAuditEntryView {
            fn default() -> Self {
                Self {
                    items: Err("no value supplied for items".to_string()),
                    page: Err("no value supplied for page".to_string()),
                    per_page: Err("no value supplied for per_page".to_string()),
                    total: Err("no value supplied for total".to_string()),
                }
            }
        }
        impl PageAuditEntryView {
            pub fn items<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::vec::Vec<super::AuditEntryView>>,
                T::Error: ::std::fmt::Display,
            {
                self.items = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for items: {e}"));
                self
            }
            pub fn page<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<u32>,
                T::Error: ::std::fmt::Display,
            {
                self.page = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for page: {e}"));
                self
            }
            pub fn per_page<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<u32>,
                T::Error: ::std::fmt::Display,
            {
                self.per_page = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for per_page: {e}"));
                self
            }
            pub fn total<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<u64>,
                T::Error: ::std::fmt::Display,
            {
                self.total = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for total: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<PageAuditEntryView> for super::PageAuditEntryView {
            type Error = super::error::ConversionError;
            fn try_from(
                value: PageAuditEntryView,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    items: value.items?,
                    page: value.page?,
                    per_page: value.per_page?,
                    total: value.total?,
                })
            }
        }
        impl ::std::convert::From<super::PageAuditEntryView> for PageAuditEntryView {
            fn from(value: super::PageAuditEntryView) -> Self {
                Self {
                    items: Ok(value.items),
                    page: Ok(value.page),
                    per_page: Ok(value.per_page),
                    total: Ok(value.total),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct PageDocumentVersion {
            items: ::std::result::Result<
                ::std::vec::Vec<super::DocumentVersion>,
                ::std::string::String,
            >,
            page: ::std::result::Result<u32, ::std::string::String>,
            per_page: ::std::result::Result<u32, ::std::string::String>,
            total: ::std::result::Result<u64, ::std::string::String>,
        }
        impl ::std::default::Default for PageDocumentVersion {
            fn default() -> Self {
                Self {
                    items: Err("no value supplied for items".to_string()),
                    page: Err("no value supplied for page".to_string()),
                    per_page: Err("no value supplied for per_page".to_string()),
                    total: Err("no value supplied for total".to_string()),
                }
            }
        }
        impl PageDocumentVersion {
            pub fn items<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::vec::Vec<super::DocumentVersion>>,
                T::Error: ::std::fmt::Display,
            {
                self.items = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for items: {e}"));
                self
            }
            pub fn page<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<u32>,
                T::Error: ::std::fmt::Display,
            {
                self.page = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for page: {e}"));
                self
            }
            pub fn per_page<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<u32>,
                T::Error: ::std::fmt::Display,
            {
                self.per_page = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for per_page: {e}"));
                self
            }
            pub fn total<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<u64>,
                T::Error: ::std::fmt::Display,
            {
                self.total = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for total: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<PageDocumentVersion> for super::PageDocumentVersion {
            type Error = super::error::ConversionError;
            fn try_from(
                value: PageDocumentVersion,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    items: value.items?,
                    page: value.page?,
                    per_page: value.per_page?,
                    total: value.total?,
                })
            }
        }
        impl ::std::convert::From<super::PageDocumentVersion> for PageDocumentVersion {
            fn from(value: super::PageDocumentVersion) -> Self {
                Self {
                    items: Ok(value.items),
                    page: Ok(value.page),
                    per_page: Ok(value.per_page),
                    total: Ok(value.total),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct PageMailDelivery {
            items:
                ::std::result::Result<::std::vec::Vec<super::MailDelivery>, ::std::string::String>,
            page: ::std::result::Result<u32, ::std::string::String>,
            per_page: ::std::result::Result<u32, ::std::string::String>,
            total: ::std::result::Result<u64, ::std::string::String>,
        }
        impl ::std::default::Default for PageMailDelivery {
            fn default() -> Self {
                Self {
                    items: Err("no value supplied for items".to_string()),
                    page: Err("no value supplied for page".to_string()),
                    per_page: Err("no value supplied for per_page".to_string()),
                    total: Err("no value supplied for total".to_string()),
                }
            }
        }
        impl PageMailDelivery {
            pub fn items<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::vec::Vec<super::MailDelivery>>,
                T::Error: ::std::fmt::Display,
            {
                self.items = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for items: {e}"));
                self
            }
            pub fn page<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<u32>,
                T::Error: ::std::fmt::Display,
            {
                self.page = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for page: {e}"));
                self
            }
            pub fn per_page<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<u32>,
                T::Error: ::std::fmt::Display,
            {
                self.per_page = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for per_page: {e}"));
                self
            }
            pub fn total<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<u64>,
                T::Error: ::std::fmt::Display,
            {
                self.total = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for total: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<PageMailDelivery> for super::PageMailDelivery {
            type Error = super::error::ConversionError;
            fn try_from(
                value: PageMailDelivery,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    items: value.items?,
                    page: value.page?,
                    per_page: value.per_page?,
                    total: value.total?,
                })
            }
        }
        impl ::std::convert::From<super::PageMailDelivery> for PageMailDelivery {
            fn from(value: super::PageMailDelivery) -> Self {
                Self {
                    items: Ok(value.items),
                    page: Ok(value.page),
                    per_page: Ok(value.per_page),
                    total: Ok(value.total),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct PageNotification {
            items:
                ::std::result::Result<::std::vec::Vec<super::Notification>, ::std::string::String>,
            page: ::std::result::Result<u32, ::std::string::String>,
            per_page: ::std::result::Result<u32, ::std::string::String>,
            total: ::std::result::Result<u64, ::std::string::String>,
        }
        impl ::std::default::Default for PageNotification {
            fn default() -> Self {
                Self {
                    items: Err("no value supplied for items".to_string()),
                    page: Err("no value supplied for page".to_string()),
                    per_page: Err("no value supplied for per_page".to_string()),
                    total: Err("no value supplied for total".to_string()),
                }
            }
        }
        impl PageNotification {
            pub fn items<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::vec::Vec<super::Notification>>,
                T::Error: ::std::fmt::Display,
            {
                self.items = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for items: {e}"));
                self
            }
            pub fn page<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<u32>,
                T::Error: ::std::fmt::Display,
            {
                self.page = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for page: {e}"));
                self
            }
            pub fn per_page<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<u32>,
                T::Error: ::std::fmt::Display,
            {
                self.per_page = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for per_page: {e}"));
                self
            }
            pub fn total<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<u64>,
                T::Error: ::std::fmt::Display,
            {
                self.total = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for total: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<PageNotification> for super::PageNotification {
            type Error = super::error::ConversionError;
            fn try_from(
                value: PageNotification,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    items: value.items?,
                    page: value.page?,
                    per_page: value.per_page?,
                    total: value.total?,
                })
            }
        }
        impl ::std::convert::From<super::PageNotification> for PageNotification {
            fn from(value: super::PageNotification) -> Self {
                Self {
                    items: Ok(value.items),
                    page: Ok(value.page),
                    per_page: Ok(value.per_page),
                    total: Ok(value.total),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct PageThing {
            items: ::std::result::Result<::std::vec::Vec<super::Thing>, ::std::string::String>,
            page: ::std::result::Result<u32, ::std::string::String>,
            per_page: ::std::result::Result<u32, ::std::string::String>,
            total: ::std::result::Result<u64, ::std::string::String>,
        }
        impl ::std::default::Default for PageThing {
            fn default() -> Self {
                Self {
                    items: Err("no value supplied for items".to_string()),
                    page: Err("no value supplied for page".to_string()),
                    per_page: Err("no value supplied for per_page".to_string()),
                    total: Err("no value supplied for total".to_string()),
                }
            }
        }
        impl PageThing {
            pub fn items<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::vec::Vec<super::Thing>>,
                T::Error: ::std::fmt::Display,
            {
                self.items = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for items: {e}"));
                self
            }
            pub fn page<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<u32>,
                T::Error: ::std::fmt::Display,
            {
                self.page = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for page: {e}"));
                self
            }
            pub fn per_page<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<u32>,
                T::Error: ::std::fmt::Display,
            {
                self.per_page = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for per_page: {e}"));
                self
            }
            pub fn total<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<u64>,
                T::Error: ::std::fmt::Display,
            {
                self.total = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for total: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<PageThing> for super::PageThing {
            type Error = super::error::ConversionError;
            fn try_from(
                value: PageThing,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    items: value.items?,
                    page: value.page?,
                    per_page: value.per_page?,
                    total: value.total?,
                })
            }
        }
        impl ::std::convert::From<super::PageThing> for PageThing {
            fn from(value: super::PageThing) -> Self {
                Self {
                    items: Ok(value.items),
                    page: Ok(value.page),
                    per_page: Ok(value.per_page),
                    total: Ok(value.total),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct PageUserView {
            items: ::std::result::Result<::std::vec::Vec<super::UserView>, ::std::string::String>,
            page: ::std::result::Result<u32, ::std::string::String>,
            per_page: ::std::result::Result<u32, ::std::string::String>,
            total: ::std::result::Result<u64, ::std::string::String>,
        }
        impl ::std::default::Default for PageUserView {
            fn default() -> Self {
                Self {
                    items: Err("no value supplied for items".to_string()),
                    page: Err("no value supplied for page".to_string()),
                    per_page: Err("no value supplied for per_page".to_string()),
                    total: Err("no value supplied for total".to_string()),
                }
            }
        }
        impl PageUserView {
            pub fn items<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::vec::Vec<super::UserView>>,
                T::Error: ::std::fmt::Display,
            {
                self.items = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for items: {e}"));
                self
            }
            pub fn page<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<u32>,
                T::Error: ::std::fmt::Display,
            {
                self.page = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for page: {e}"));
                self
            }
            pub fn per_page<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<u32>,
                T::Error: ::std::fmt::Display,
            {
                self.per_page = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for per_page: {e}"));
                self
            }
            pub fn total<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<u64>,
                T::Error: ::std::fmt::Display,
            {
                self.total = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for total: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<PageUserView> for super::PageUserView {
            type Error = super::error::ConversionError;
            fn try_from(
                value: PageUserView,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    items: value.items?,
                    page: value.page?,
                    per_page: value.per_page?,
                    total: value.total?,
                })
            }
        }
        impl ::std::convert::From<super::PageUserView> for PageUserView {
            fn from(value: super::PageUserView) -> Self {
                Self {
                    items: Ok(value.items),
                    page: Ok(value.page),
                    per_page: Ok(value.per_page),
                    total: Ok(value.total),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct PendingVersion {
            effective_at: ::std::result::Result<
                ::chrono::DateTime<::chrono::offset::Utc>,
                ::std::string::String,
            >,
            kind: ::std::result::Result<::std::string::String, ::std::string::String>,
            required: ::std::result::Result<bool, ::std::string::String>,
            version: ::std::result::Result<i64, ::std::string::String>,
        }
        impl ::std::default::Default for PendingVersion {
            fn default() -> Self {
                Self {
                    effective_at: Err("no value supplied for effective_at".to_string()),
                    kind: Err("no value supplied for kind".to_string()),
                    required: Err("no value supplied for required".to_string()),
                    version: Err("no value supplied for version".to_string()),
                }
            }
        }
        impl PendingVersion {
            pub fn effective_at<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::chrono::DateTime<::chrono::offset::Utc>>,
                T::Error: ::std::fmt::Display,
            {
                self.effective_at = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for effective_at: {e}"));
                self
            }
            pub fn kind<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.kind = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for kind: {e}"));
                self
            }
            pub fn required<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<bool>,
                T::Error: ::std::fmt::Display,
            {
                self.required = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for required: {e}"));
                self
            }
            pub fn version<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<i64>,
                T::Error: ::std::fmt::Display,
            {
                self.version = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for version: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<PendingVersion> for super::PendingVersion {
            type Error = super::error::ConversionError;
            fn try_from(
                value: PendingVersion,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    effective_at: value.effective_at?,
                    kind: value.kind?,
                    required: value.required?,
                    version: value.version?,
                })
            }
        }
        impl ::std::convert::From<super::PendingVersion> for PendingVersion {
            fn from(value: super::PendingVersion) -> Self {
                Self {
                    effective_at: Ok(value.effective_at),
                    kind: Ok(value.kind),
                    required: Ok(value.required),
                    version: Ok(value.version),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct Problem {
            detail: ::std::result::Result<
                ::std::option::Option<::std::string::String>,
                ::std::string::String,
            >,
            field: ::std::result::Result<
                ::std::option::Option<::std::string::String>,
                ::std::string::String,
            >,
            instance: ::std::result::Result<
                ::std::option::Option<::std::string::String>,
                ::std::string::String,
            >,
            request_id: ::std::result::Result<
                ::std::option::Option<::std::string::String>,
                ::std::string::String,
            >,
            status: ::std::result::Result<u16, ::std::string::String>,
            title: ::std::result::Result<::std::string::String, ::std::string::String>,
            type_: ::std::result::Result<::std::string::String, ::std::string::String>,
        }
        impl ::std::default::Default for Problem {
            fn default() -> Self {
                Self {
                    detail: Ok(Default::default()),
                    field: Ok(Default::default()),
                    instance: Ok(Default::default()),
                    request_id: Ok(Default::default()),
                    status: Err("no value supplied for status".to_string()),
                    title: Err("no value supplied for title".to_string()),
                    type_: Err("no value supplied for type_".to_string()),
                }
            }
        }
        impl Problem {
            pub fn detail<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::option::Option<::std::string::String>>,
                T::Error: ::std::fmt::Display,
            {
                self.detail = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for detail: {e}"));
                self
            }
            pub fn field<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::option::Option<::std::string::String>>,
                T::Error: ::std::fmt::Display,
            {
                self.field = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for field: {e}"));
                self
            }
            pub fn instance<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::option::Option<::std::string::String>>,
                T::Error: ::std::fmt::Display,
            {
                self.instance = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for instance: {e}"));
                self
            }
            pub fn request_id<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::option::Option<::std::string::String>>,
                T::Error: ::std::fmt::Display,
            {
                self.request_id = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for request_id: {e}"));
                self
            }
            pub fn status<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<u16>,
                T::Error: ::std::fmt::Display,
            {
                self.status = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for status: {e}"));
                self
            }
            pub fn title<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.title = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for title: {e}"));
                self
            }
            pub fn type_<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.type_ = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for type_: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<Problem> for super::Problem {
            type Error = super::error::ConversionError;
            fn try_from(
                value: Problem,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    detail: value.detail?,
                    field: value.field?,
                    instance: value.instance?,
                    request_id: value.request_id?,
                    status: value.status?,
                    title: value.title?,
                    type_: value.type_?,
                })
            }
        }
        impl ::std::convert::From<super::Problem> for Problem {
            fn from(value: super::Problem) -> Self {
                Self {
                    detail: Ok(value.detail),
                    field: Ok(value.field),
                    instance: Ok(value.instance),
                    request_id: Ok(value.request_id),
                    status: Ok(value.status),
                    title: Ok(value.title),
                    type_: Ok(value.type_),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct ProviderView {
            display_name: ::std::result::Result<::std::string::String, ::std::string::String>,
            name: ::std::result::Result<::std::string::String, ::std::string::String>,
        }
        impl ::std::default::Default for ProviderView {
            fn default() -> Self {
                Self {
                    display_name: Err("no value supplied for display_name".to_string()),
                    name: Err("no value supplied for name".to_string()),
                }
            }
        }
        impl ProviderView {
            pub fn display_name<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.display_name = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for display_name: {e}"));
                self
            }
            pub fn name<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.name = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for name: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<ProviderView> for super::ProviderView {
            type Error = super::error::ConversionError;
            fn try_from(
                value: ProviderView,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    display_name: value.display_name?,
                    name: value.name?,
                })
            }
        }
        impl ::std::convert::From<super::ProviderView> for ProviderView {
            fn from(value: super::ProviderView) -> Self {
                Self {
                    display_name: Ok(value.display_name),
                    name: Ok(value.name),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct PublishVersionInput {
            body: ::std::result::Result<super::PublishVersionInputBody, ::std::string::String>,
            effective_at: ::std::result::Result<
                ::std::option::Option<::chrono::DateTime<::chrono::offset::Utc>>,
                ::std::string::String,
            >,
        }
        impl ::std::default::Default for PublishVersionInput {
            fn default() -> Self {
                Self {
                    body: Err("no value supplied for body".to_string()),
                    effective_at: Ok(Default::default()),
                }
            }
        }
        impl PublishVersionInput {
            pub fn body<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<super::PublishVersionInputBody>,
                T::Error: ::std::fmt::Display,
            {
                self.body = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for body: {e}"));
                self
            }
            pub fn effective_at<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<
                        ::std::option::Option<::chrono::DateTime<::chrono::offset::Utc>>,
                    >,
                T::Error: ::std::fmt::Display,
            {
                self.effective_at = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for effective_at: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<PublishVersionInput> for super::PublishVersionInput {
            type Error = super::error::ConversionError;
            fn try_from(
                value: PublishVersionInput,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    body: value.body?,
                    effective_at: value.effective_at?,
                })
            }
        }
        impl ::std::convert::From<super::PublishVersionInput> for PublishVersionInput {
            fn from(value: super::PublishVersionInput) -> Self {
                Self {
                    body: Ok(value.body),
                    effective_at: Ok(value.effective_at),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct RefreshRequest {
            refresh_token:
                ::std::result::Result<super::RefreshRequestRefreshToken, ::std::string::String>,
        }
        impl ::std::default::Default for RefreshRequest {
            fn default() -> Self {
                Self {
                    refresh_token: Err("no value supplied for refresh_token".to_string()),
                }
            }
        }
        impl RefreshRequest {
            pub fn refresh_token<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<super::RefreshRequestRefreshToken>,
                T::Error: ::std::fmt::Display,
            {
                self.refresh_token = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for refresh_token: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<RefreshRequest> for super::RefreshRequest {
            type Error = super::error::ConversionError;
            fn try_from(
                value: RefreshRequest,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    refresh_token: value.refresh_token?,
                })
            }
        }
        impl ::std::convert::From<super::RefreshRequest> for RefreshRequest {
            fn from(value: super::RefreshRequest) -> Self {
                Self {
                    refresh_token: Ok(value.refresh_token),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct RegisterRequest {
            display_name: ::std::result::Result<
                ::std::option::Option<super::RegisterRequestDisplayName>,
                ::std::string::String,
            >,
            email: ::std::result::Result<super::RegisterRequestEmail, ::std::string::String>,
            password: ::std::result::Result<super::RegisterRequestPassword, ::std::string::String>,
        }
        impl ::std::default::Default for RegisterRequest {
            fn default() -> Self {
                Self {
                    display_name: Ok(Default::default()),
                    email: Err("no value supplied for email".to_string()),
                    password: Err("no value supplied for password".to_string()),
                }
            }
        }
        impl RegisterRequest {
            pub fn display_name<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<
                        ::std::option::Option<super::RegisterRequestDisplayName>,
                    >,
                T::Error: ::std::fmt::Display,
            {
                self.display_name = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for display_name: {e}"));
                self
            }
            pub fn email<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<super::RegisterRequestEmail>,
                T::Error: ::std::fmt::Display,
            {
                self.email = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for email: {e}"));
                self
            }
            pub fn password<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<super::RegisterRequestPassword>,
                T::Error: ::std::fmt::Display,
            {
                self.password = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for password: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<RegisterRequest> for super::RegisterRequest {
            type Error = super::error::ConversionError;
            fn try_from(
                value: RegisterRequest,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    display_name: value.display_name?,
                    email: value.email?,
                    password: value.password?,
                })
            }
        }
        impl ::std::convert::From<super::RegisterRequest> for RegisterRequest {
            fn from(value: super::RegisterRequest) -> Self {
                Self {
                    display_name: Ok(value.display_name),
                    email: Ok(value.email),
                    password: Ok(value.password),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct ResetPasswordRequest {
            new_password: ::std::result::Result<
                super::ResetPasswordRequestNewPassword,
                ::std::string::String,
            >,
            token: ::std::result::Result<super::ResetPasswordRequestToken, ::std::string::String>,
        }
        impl ::std::default::Default for ResetPasswordRequest {
            fn default() -> Self {
                Self {
                    new_password: Err("no value supplied for new_password".to_string()),
                    token: Err("no value supplied for token".to_string()),
                }
            }
        }
        impl ResetPasswordRequest {
            pub fn new_password<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<super::ResetPasswordRequestNewPassword>,
                T::Error: ::std::fmt::Display,
            {
                self.new_password = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for new_password: {e}"));
                self
            }
            pub fn token<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<super::ResetPasswordRequestToken>,
                T::Error: ::std::fmt::Display,
            {
                self.token = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for token: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<ResetPasswordRequest> for super::ResetPasswordRequest {
            type Error = super::error::ConversionError;
            fn try_from(
                value: ResetPasswordRequest,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    new_password: value.new_password?,
                    token: value.token?,
                })
            }
        }
        impl ::std::convert::From<super::ResetPasswordRequest> for ResetPasswordRequest {
            fn from(value: super::ResetPasswordRequest) -> Self {
                Self {
                    new_password: Ok(value.new_password),
                    token: Ok(value.token),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct SessionView {
            created_at: ::std::result::Result<
                ::chrono::DateTime<::chrono::offset::Utc>,
                ::std::string::String,
            >,
            current: ::std::result::Result<bool, ::std::string::String>,
            expires_at: ::std::result::Result<
                ::chrono::DateTime<::chrono::offset::Utc>,
                ::std::string::String,
            >,
            id: ::std::result::Result<::std::string::String, ::std::string::String>,
            last_used_at: ::std::result::Result<
                ::chrono::DateTime<::chrono::offset::Utc>,
                ::std::string::String,
            >,
            user_agent: ::std::result::Result<
                ::std::option::Option<::std::string::String>,
                ::std::string::String,
            >,
        }
        impl ::std::default::Default for SessionView {
            fn default() -> Self {
                Self {
                    created_at: Err("no value supplied for created_at".to_string()),
                    current: Err("no value supplied for current".to_string()),
                    expires_at: Err("no value supplied for expires_at".to_string()),
                    id: Err("no value supplied for id".to_string()),
                    last_used_at: Err("no value supplied for last_used_at".to_string()),
                    user_agent: Ok(Default::default()),
                }
            }
        }
        impl SessionView {
            pub fn created_at<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::chrono::DateTime<::chrono::offset::Utc>>,
                T::Error: ::std::fmt::Display,
            {
                self.created_at = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for created_at: {e}"));
                self
            }
            pub fn current<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<bool>,
                T::Error: ::std::fmt::Display,
            {
                self.current = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for current: {e}"));
                self
            }
            pub fn expires_at<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::chrono::DateTime<::chrono::offset::Utc>>,
                T::Error: ::std::fmt::Display,
            {
                self.expires_at = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for expires_at: {e}"));
                self
            }
            pub fn id<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.id = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for id: {e}"));
                self
            }
            pub fn last_used_at<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::chrono::DateTime<::chrono::offset::Utc>>,
                T::Error: ::std::fmt::Display,
            {
                self.last_used_at = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for last_used_at: {e}"));
                self
            }
            pub fn user_agent<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::option::Option<::std::string::String>>,
                T::Error: ::std::fmt::Display,
            {
                self.user_agent = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for user_agent: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<SessionView> for super::SessionView {
            type Error = super::error::ConversionError;
            fn try_from(
                value: SessionView,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    created_at: value.created_at?,
                    current: value.current?,
                    expires_at: value.expires_at?,
                    id: value.id?,
                    last_used_at: value.last_used_at?,
                    user_agent: value.user_agent?,
                })
            }
        }
        impl ::std::convert::From<super::SessionView> for SessionView {
            fn from(value: super::SessionView) -> Self {
                Self {
                    created_at: Ok(value.created_at),
                    current: Ok(value.current),
                    expires_at: Ok(value.expires_at),
                    id: Ok(value.id),
                    last_used_at: Ok(value.last_used_at),
                    user_agent: Ok(value.user_agent),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct StreamEnd {
            detail: ::std::result::Result<::std::string::String, ::std::string::String>,
            reason: ::std::result::Result<super::StreamEndReason, ::std::string::String>,
        }
        impl ::std::default::Default for StreamEnd {
            fn default() -> Self {
                Self {
                    detail: Err("no value supplied for detail".to_string()),
                    reason: Err("no value supplied for reason".to_string()),
                }
            }
        }
        impl StreamEnd {
            pub fn detail<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.detail = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for detail: {e}"));
                self
            }
            pub fn reason<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<super::StreamEndReason>,
                T::Error: ::std::fmt::Display,
            {
                self.reason = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for reason: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<StreamEnd> for super::StreamEnd {
            type Error = super::error::ConversionError;
            fn try_from(
                value: StreamEnd,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    detail: value.detail?,
                    reason: value.reason?,
                })
            }
        }
        impl ::std::convert::From<super::StreamEnd> for StreamEnd {
            fn from(value: super::StreamEnd) -> Self {
                Self {
                    detail: Ok(value.detail),
                    reason: Ok(value.reason),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct Thing {
            created_at: ::std::result::Result<
                ::chrono::DateTime<::chrono::offset::Utc>,
                ::std::string::String,
            >,
            description: ::std::result::Result<
                ::std::option::Option<::std::string::String>,
                ::std::string::String,
            >,
            id: ::std::result::Result<::std::string::String, ::std::string::String>,
            name: ::std::result::Result<::std::string::String, ::std::string::String>,
            updated_at: ::std::result::Result<
                ::chrono::DateTime<::chrono::offset::Utc>,
                ::std::string::String,
            >,
            version: ::std::result::Result<i64, ::std::string::String>,
        }
        impl ::std::default::Default for Thing {
            fn default() -> Self {
                Self {
                    created_at: Err("no value supplied for created_at".to_string()),
                    description: Ok(Default::default()),
                    id: Err("no value supplied for id".to_string()),
                    name: Err("no value supplied for name".to_string()),
                    updated_at: Err("no value supplied for updated_at".to_string()),
                    version: Err("no value supplied for version".to_string()),
                }
            }
        }
        impl Thing {
            pub fn created_at<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::chrono::DateTime<::chrono::offset::Utc>>,
                T::Error: ::std::fmt::Display,
            {
                self.created_at = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for created_at: {e}"));
                self
            }
            pub fn description<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::option::Option<::std::string::String>>,
                T::Error: ::std::fmt::Display,
            {
                self.description = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for description: {e}"));
                self
            }
            pub fn id<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.id = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for id: {e}"));
                self
            }
            pub fn name<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.name = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for name: {e}"));
                self
            }
            pub fn updated_at<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::chrono::DateTime<::chrono::offset::Utc>>,
                T::Error: ::std::fmt::Display,
            {
                self.updated_at = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for updated_at: {e}"));
                self
            }
            pub fn version<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<i64>,
                T::Error: ::std::fmt::Display,
            {
                self.version = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for version: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<Thing> for super::Thing {
            type Error = super::error::ConversionError;
            fn try_from(
                value: Thing,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    created_at: value.created_at?,
                    description: value.description?,
                    id: value.id?,
                    name: value.name?,
                    updated_at: value.updated_at?,
                    version: value.version?,
                })
            }
        }
        impl ::std::convert::From<super::Thing> for Thing {
            fn from(value: super::Thing) -> Self {
                Self {
                    created_at: Ok(value.created_at),
                    description: Ok(value.description),
                    id: Ok(value.id),
                    name: Ok(value.name),
                    updated_at: Ok(value.updated_at),
                    version: Ok(value.version),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct ThingInput {
            description: ::std::result::Result<
                ::std::option::Option<super::ThingInputDescription>,
                ::std::string::String,
            >,
            name: ::std::result::Result<super::ThingInputName, ::std::string::String>,
        }
        impl ::std::default::Default for ThingInput {
            fn default() -> Self {
                Self {
                    description: Ok(Default::default()),
                    name: Err("no value supplied for name".to_string()),
                }
            }
        }
        impl ThingInput {
            pub fn description<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::option::Option<super::ThingInputDescription>>,
                T::Error: ::std::fmt::Display,
            {
                self.description = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for description: {e}"));
                self
            }
            pub fn name<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<super::ThingInputName>,
                T::Error: ::std::fmt::Display,
            {
                self.name = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for name: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<ThingInput> for super::ThingInput {
            type Error = super::error::ConversionError;
            fn try_from(
                value: ThingInput,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    description: value.description?,
                    name: value.name?,
                })
            }
        }
        impl ::std::convert::From<super::ThingInput> for ThingInput {
            fn from(value: super::ThingInput) -> Self {
                Self {
                    description: Ok(value.description),
                    name: Ok(value.name),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct ThingPatch {
            description: ::std::result::Result<
                ::std::option::Option<super::ThingPatchDescription>,
                ::std::string::String,
            >,
            name: ::std::result::Result<
                ::std::option::Option<super::ThingPatchName>,
                ::std::string::String,
            >,
        }
        impl ::std::default::Default for ThingPatch {
            fn default() -> Self {
                Self {
                    description: Ok(Default::default()),
                    name: Ok(Default::default()),
                }
            }
        }
        impl ThingPatch {
            pub fn description<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::option::Option<super::ThingPatchDescription>>,
                T::Error: ::std::fmt::Display,
            {
                self.description = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for description: {e}"));
                self
            }
            pub fn name<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::option::Option<super::ThingPatchName>>,
                T::Error: ::std::fmt::Display,
            {
                self.name = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for name: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<ThingPatch> for super::ThingPatch {
            type Error = super::error::ConversionError;
            fn try_from(
                value: ThingPatch,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    description: value.description?,
                    name: value.name?,
                })
            }
        }
        impl ::std::convert::From<super::ThingPatch> for ThingPatch {
            fn from(value: super::ThingPatch) -> Self {
                Self {
                    description: Ok(value.description),
                    name: Ok(value.name),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct TokenResponse {
            access_token: ::std::result::Result<::std::string::String, ::std::string::String>,
            expires_in: ::std::result::Result<u64, ::std::string::String>,
            refresh_token: ::std::result::Result<::std::string::String, ::std::string::String>,
            token_type: ::std::result::Result<::std::string::String, ::std::string::String>,
        }
        impl ::std::default::Default for TokenResponse {
            fn default() -> Self {
                Self {
                    access_token: Err("no value supplied for access_token".to_string()),
                    expires_in: Err("no value supplied for expires_in".to_string()),
                    refresh_token: Err("no value supplied for refresh_token".to_string()),
                    token_type: Err("no value supplied for token_type".to_string()),
                }
            }
        }
        impl TokenResponse {
            pub fn access_token<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.access_token = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for access_token: {e}"));
                self
            }
            pub fn expires_in<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<u64>,
                T::Error: ::std::fmt::Display,
            {
                self.expires_in = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for expires_in: {e}"));
                self
            }
            pub fn refresh_token<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.refresh_token = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for refresh_token: {e}"));
                self
            }
            pub fn token_type<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.token_type = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for token_type: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<TokenResponse> for super::TokenResponse {
            type Error = super::error::ConversionError;
            fn try_from(
                value: TokenResponse,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    access_token: value.access_token?,
                    expires_in: value.expires_in?,
                    refresh_token: value.refresh_token?,
                    token_type: value.token_type?,
                })
            }
        }
        impl ::std::convert::From<super::TokenResponse> for TokenResponse {
            fn from(value: super::TokenResponse) -> Self {
                Self {
                    access_token: Ok(value.access_token),
                    expires_in: Ok(value.expires_in),
                    refresh_token: Ok(value.refresh_token),
                    token_type: Ok(value.token_type),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct UnreadCount {
            count: ::std::result::Result<u64, ::std::string::String>,
        }
        impl ::std::default::Default for UnreadCount {
            fn default() -> Self {
                Self {
                    count: Err("no value supplied for count".to_string()),
                }
            }
        }
        impl UnreadCount {
            pub fn count<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<u64>,
                T::Error: ::std::fmt::Display,
            {
                self.count = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for count: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<UnreadCount> for super::UnreadCount {
            type Error = super::error::ConversionError;
            fn try_from(
                value: UnreadCount,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    count: value.count?,
                })
            }
        }
        impl ::std::convert::From<super::UnreadCount> for UnreadCount {
            fn from(value: super::UnreadCount) -> Self {
                Self {
                    count: Ok(value.count),
                }
            }
        }
        #[derive(Clone, Debug)]
        pub struct UserView {
            created_at: ::std::result::Result<
                ::chrono::DateTime<::chrono::offset::Utc>,
                ::std::string::String,
            >,
            display_name: ::std::result::Result<
                ::std::option::Option<::std::string::String>,
                ::std::string::String,
            >,
            email: ::std::result::Result<::std::string::String, ::std::string::String>,
            email_confirmed: ::std::result::Result<bool, ::std::string::String>,
            id: ::std::result::Result<::std::string::String, ::std::string::String>,
            locked: ::std::result::Result<bool, ::std::string::String>,
            roles: ::std::result::Result<
                ::std::vec::Vec<::std::string::String>,
                ::std::string::String,
            >,
        }
        impl ::std::default::Default for UserView {
            fn default() -> Self {
                Self {
                    created_at: Err("no value supplied for created_at".to_string()),
                    display_name: Ok(Default::default()),
                    email: Err("no value supplied for email".to_string()),
                    email_confirmed: Err("no value supplied for email_confirmed".to_string()),
                    id: Err("no value supplied for id".to_string()),
                    locked: Err("no value supplied for locked".to_string()),
                    roles: Err("no value supplied for roles".to_string()),
                }
            }
        }
        impl UserView {
            pub fn created_at<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::chrono::DateTime<::chrono::offset::Utc>>,
                T::Error: ::std::fmt::Display,
            {
                self.created_at = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for created_at: {e}"));
                self
            }
            pub fn display_name<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::option::Option<::std::string::String>>,
                T::Error: ::std::fmt::Display,
            {
                self.display_name = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for display_name: {e}"));
                self
            }
            pub fn email<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.email = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for email: {e}"));
                self
            }
            pub fn email_confirmed<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<bool>,
                T::Error: ::std::fmt::Display,
            {
                self.email_confirmed = value.try_into().map_err(|e| {
                    format!("error converting supplied value for email_confirmed: {e}")
                });
                self
            }
            pub fn id<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::string::String>,
                T::Error: ::std::fmt::Display,
            {
                self.id = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for id: {e}"));
                self
            }
            pub fn locked<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<bool>,
                T::Error: ::std::fmt::Display,
            {
                self.locked = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for locked: {e}"));
                self
            }
            pub fn roles<T>(mut self, value: T) -> Self
            where
                T: ::std::convert::TryInto<::std::vec::Vec<::std::string::String>>,
                T::Error: ::std::fmt::Display,
            {
                self.roles = value
                    .try_into()
                    .map_err(|e| format!("error converting supplied value for roles: {e}"));
                self
            }
        }
        impl ::std::convert::TryFrom<UserView> for super::UserView {
            type Error = super::error::ConversionError;
            fn try_from(
                value: UserView,
            ) -> ::std::result::Result<Self, super::error::ConversionError> {
                Ok(Self {
                    created_at: value.created_at?,
                    display_name: value.display_name?,
                    email: value.email?,
                    email_confirmed: value.email_confirmed?,
                    id: value.id?,
                    locked: value.locked?,
                    roles: value.roles?,
                })
            }
        }
        impl ::std::convert::From<super::UserView> for UserView {
            fn from(value: super::UserView) -> Self {
                Self {
                    created_at: Ok(value.created_at),
                    display_name: Ok(value.display_name),
                    email: Ok(value.email),
                    email_confirmed: Ok(value.email_confirmed),
                    id: Ok(value.id),
                    locked: Ok(value.locked),
                    roles: Ok(value.roles),
                }
            }
        }
    }
    /// Error types.
    pub mod error {
        /// Error from a `TryFrom` or `FromStr` implementation.
        pub struct ConversionError(::std::borrow::Cow<'static, str>);
        impl ::std::error::Error for ConversionError {}
        impl ::std::fmt::Display for ConversionError {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> Result<(), ::std::fmt::Error> {
                ::std::fmt::Display::fmt(&self.0, f)
            }
        }
        impl ::std::fmt::Debug for ConversionError {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> Result<(), ::std::fmt::Error> {
                ::std::fmt::Debug::fmt(&self.0, f)
            }
        }
        impl From<&'static str> for ConversionError {
            fn from(value: &'static str) -> Self {
                Self(value.into())
            }
        }
        impl From<String> for ConversionError {
            fn from(value: String) -> Self {
                Self(value.into())
            }
        }
    }
}
#[derive(Clone, Debug)]
/**Client for Idempotent Service

A Poem service starter whose unsafe operations are safe to retry with an Idempotency-Key.

Version: 0.1.0*/
pub struct Client {
    pub(crate) baseurl: String,
    pub(crate) client: reqwest::Client,
    pub(crate) inner: crate::ClientOptions,
}
impl Client {
    /// Create a new client.
    ///
    /// `baseurl` is the base URL provided to the internal
    /// `reqwest::Client`, and should include a scheme and hostname,
    /// as well as port and a path stem if applicable.
    pub fn new(baseurl: &str, inner: crate::ClientOptions) -> Self {
        #[cfg(not(target_arch = "wasm32"))]
        let client = {
            let dur = ::std::time::Duration::from_secs(15u64);
            reqwest::ClientBuilder::new()
                .connect_timeout(dur)
                .timeout(dur)
        };
        #[cfg(target_arch = "wasm32")]
        let client = reqwest::ClientBuilder::new();
        Self::new_with_client(baseurl, client.build().unwrap(), inner)
    }
    /// Construct a new client with an existing `reqwest::Client`,
    /// allowing more control over its configuration.
    ///
    /// `baseurl` is the base URL provided to the internal
    /// `reqwest::Client`, and should include a scheme and hostname,
    /// as well as port and a path stem if applicable.
    pub fn new_with_client(
        baseurl: &str,
        client: reqwest::Client,
        inner: crate::ClientOptions,
    ) -> Self {
        Self {
            baseurl: baseurl.to_string(),
            client,
            inner,
        }
    }
}
impl ClientInfo<crate::ClientOptions> for Client {
    fn api_version() -> &'static str {
        "0.1.0"
    }
    fn baseurl(&self) -> &str {
        self.baseurl.as_str()
    }
    fn client(&self) -> &reqwest::Client {
        &self.client
    }
    fn inner(&self) -> &crate::ClientOptions {
        &self.inner
    }
}
impl ClientHooks<crate::ClientOptions> for &Client {}
impl Client {
    /**The audit of locks and unlocks

    Who locked or unlocked which account, when, and in which request (its `X-Request-Id`),
    newest first. Every lock and unlock is recorded in the same transaction as the change.

    Sends a `GET` request to `/api/v1/admin/audit`

    Arguments:
    - `page`: Page number, from 1.
    - `per_page`: Items per page, 1 to 100 (default 20).
    ```ignore
    let response = client.list_admin_audit()
        .page(page)
        .per_page(per_page)
        .send()
        .await;
    ```*/
    pub fn list_admin_audit(&self) -> builder::ListAdminAudit<'_> {
        builder::ListAdminAudit::new(self)
    }
    /**List the dead letters

    Notification mails that failed every attempt (`notifications.max_attempts`), with what
    the mail server said last. They are never tried again unless retried here. `total`
    counts them all; the `notifications.mail.dead_letters` metric reports the same count.

    Sends a `GET` request to `/api/v1/admin/mail/dead-letters`

    Arguments:
    - `page`: Page number, from 1.
    - `per_page`: Items per page, 1 to 100 (default 20).
    ```ignore
    let response = client.list_mail_dead_letters()
        .page(page)
        .per_page(per_page)
        .send()
        .await;
    ```*/
    pub fn list_mail_dead_letters(&self) -> builder::ListMailDeadLetters<'_> {
        builder::ListMailDeadLetters::new(self)
    }
    /**Retry a dead letter

    Puts the mail back in the queue, due now, with a fresh count of attempts; the mail
    worker sends it as it sends any other (to the recipient's confirmed address at that
    time). The change and this answer are recorded together, so a retry of this request
    with the same `Idempotency-Key` gets this 202 again, even once the mail is sent.

    Sends a `POST` request to `/api/v1/admin/mail/dead-letters/{id}/retry`

    Arguments:
    - `id`
    - `idempotency_key`: Makes this request safe to retry. Send a unique value per operation (at most 255 visible ASCII characters, bare or as a quoted string, e.g. a UUID) and reuse it on every retry. A retry with the same key and the same request gets the first response back, marked `X-Idempotent-Replay: true`, without executing again, for 24h after the first response. The same key with a different body, query or path, or with a precondition (`If-Match`, `If-None-Match`, `If-Modified-Since`, `If-Unmodified-Since`, `If-Range`) added, changed or dropped, answers 422. A retry while the first request still runs waits up to 5s for its response, then answers 409 with `Retry-After`. Failed responses are not kept, so a retry after an error executes. Keys are scoped to the caller and this operation. A blank value counts as no key. The response is committed together with the operation's effect, in one database transaction: even if the service fails right after the change, a retry gets this response instead of executing again.
    ```ignore
    let response = client.retry_mail_dead_letter()
        .id(id)
        .idempotency_key(idempotency_key)
        .send()
        .await;
    ```*/
    pub fn retry_mail_dead_letter(&self) -> builder::RetryMailDeadLetter<'_> {
        builder::RetryMailDeadLetter::new(self)
    }
    /**List accounts

    Sends a `GET` request to `/api/v1/admin/users`

    Arguments:
    - `page`: Page number, from 1.
    - `per_page`: Items per page, 1 to 100 (default 20).
    ```ignore
    let response = client.list_users()
        .page(page)
        .per_page(per_page)
        .send()
        .await;
    ```*/
    pub fn list_users(&self) -> builder::ListUsers<'_> {
        builder::ListUsers::new(self)
    }
    /**Lock an account

    The account can no longer log in or refresh, and every session it has is revoked.

    Sends a `POST` request to `/api/v1/admin/users/{id}/lock`

    ```ignore
    let response = client.lock_user()
        .id(id)
        .send()
        .await;
    ```*/
    pub fn lock_user(&self) -> builder::LockUser<'_> {
        builder::LockUser::new(self)
    }
    /**Unlock an account

    Sends a `POST` request to `/api/v1/admin/users/{id}/unlock`

    ```ignore
    let response = client.unlock_user()
        .id(id)
        .send()
        .await;
    ```*/
    pub fn unlock_user(&self) -> builder::UnlockUser<'_> {
        builder::UnlockUser::new(self)
    }
    /**Confirm the email address

    With the token from a confirmation mail. The token works once.

    Sends a `POST` request to `/api/v1/auth/confirm-email`

    Arguments:
    - `idempotency_key`: Makes this request safe to retry. Send a unique value per operation (at most 255 visible ASCII characters, bare or as a quoted string, e.g. a UUID) and reuse it on every retry. A retry with the same key and the same request gets the first response back, marked `X-Idempotent-Replay: true`, without executing again, for 24h after the first response. The same key with a different body, query or path, or with a precondition (`If-Match`, `If-None-Match`, `If-Modified-Since`, `If-Unmodified-Since`, `If-Range`) added, changed or dropped, answers 422. A retry while the first request still runs waits up to 5s for its response, then answers 409 with `Retry-After`. Failed responses are not kept, so a retry after an error executes. Keys are scoped to the caller and this operation. A blank value counts as no key. The response is committed together with the operation's effect, in one database transaction: even if the service fails right after the change, a retry gets this response instead of executing again.
    - `body`
    ```ignore
    let response = client.confirm_email()
        .idempotency_key(idempotency_key)
        .body(body)
        .send()
        .await;
    ```*/
    pub fn confirm_email(&self) -> builder::ConfirmEmail<'_> {
        builder::ConfirmEmail::new(self)
    }
    /**Ask for a password-reset link

    Mails a single-use reset link if an account has this email. Answers 202 whether or not
    one does, so the answer reveals nothing about which emails are registered.

    Sends a `POST` request to `/api/v1/auth/forgot-password`

    Arguments:
    - `idempotency_key`: Makes this request safe to retry. Send a unique value per operation (at most 255 visible ASCII characters, bare or as a quoted string, e.g. a UUID) and reuse it on every retry. A retry with the same key and the same request gets the first response back, marked `X-Idempotent-Replay: true`, without executing again, for 24h after the first response. The same key with a different body, query or path, or with a precondition (`If-Match`, `If-None-Match`, `If-Modified-Since`, `If-Unmodified-Since`, `If-Range`) added, changed or dropped, answers 422. A retry while the first request still runs waits up to 5s for its response, then answers 409 with `Retry-After`. Failed responses are not kept, so a retry after an error executes. Keys are scoped to the caller and this operation. A blank value counts as no key. This operation's effect is not in the database (queues the request in this process; the link is made and mailed after the answer, so that its timing reveals nothing): if the service fails after the effect and before it keeps the response, a retry executes again.
    - `body`
    ```ignore
    let response = client.forgot_password()
        .idempotency_key(idempotency_key)
        .body(body)
        .send()
        .await;
    ```*/
    pub fn forgot_password(&self) -> builder::ForgotPassword<'_> {
        builder::ForgotPassword::new(self)
    }
    /**The caller's linked provider accounts

    Sends a `GET` request to `/api/v1/auth/identities`

    ```ignore
    let response = client.list_identities()
        .send()
        .await;
    ```*/
    pub fn list_identities(&self) -> builder::ListIdentities<'_> {
        builder::ListIdentities::new(self)
    }
    /**Remove a linked provider account

    That provider account no longer signs in to the caller's account (signing in with it
    again follows the first-sign-in rule), and the sessions it opened end (their access
    tokens too). 409 when it is the account's only way to sign in.

    Sends a `DELETE` request to `/api/v1/auth/identities/{id}`

    Arguments:
    - `id`
    - `idempotency_key`: Makes this request safe to retry. Send a unique value per operation (at most 255 visible ASCII characters, bare or as a quoted string, e.g. a UUID) and reuse it on every retry. A retry with the same key and the same request gets the first response back, marked `X-Idempotent-Replay: true`, without executing again, for 24h after the first response. The same key with a different body, query or path, or with a precondition (`If-Match`, `If-None-Match`, `If-Modified-Since`, `If-Unmodified-Since`, `If-Range`) added, changed or dropped, answers 422. A retry while the first request still runs waits up to 5s for its response, then answers 409 with `Retry-After`. Failed responses are not kept, so a retry after an error executes. Keys are scoped to the caller and this operation. A blank value counts as no key. The response is committed together with the operation's effect, in one database transaction: even if the service fails right after the change, a retry gets this response instead of executing again.
    ```ignore
    let response = client.unlink_identity()
        .id(id)
        .idempotency_key(idempotency_key)
        .send()
        .await;
    ```*/
    pub fn unlink_identity(&self) -> builder::UnlinkIdentity<'_> {
        builder::UnlinkIdentity::new(self)
    }
    /**Log in

    Answers a fresh access and refresh token pair. An unknown email and a wrong password get
    the same 401; a locked or (when required) unconfirmed account gets 403 once the password
    is right. 429 with `Retry-After` after too many failed attempts on one account from one
    address, on one account from anywhere, or from one address on any accounts; a successful
    login clears the count of its account and address.

    Sends a `POST` request to `/api/v1/auth/login`

    ```ignore
    let response = client.login()
        .body(body)
        .send()
        .await;
    ```*/
    pub fn login(&self) -> builder::Login<'_> {
        builder::Login::new(self)
    }
    /**The caller's account

    Sends a `GET` request to `/api/v1/auth/me`

    ```ignore
    let response = client.me()
        .send()
        .await;
    ```*/
    pub fn me(&self) -> builder::Me<'_> {
        builder::Me::new(self)
    }
    /**The sign-in providers

    The OpenID Connect providers accounts can sign in with, for a front end's buttons.

    Sends a `GET` request to `/api/v1/auth/oauth/providers`

    ```ignore
    let response = client.list_o_auth_providers()
        .send()
        .await;
    ```*/
    pub fn list_o_auth_providers(&self) -> builder::ListOAuthProviders<'_> {
        builder::ListOAuthProviders::new(self)
    }
    /**Start signing in with a provider

    Answers the provider's authorization URL to send the browser to, with a fresh `state`,
    `nonce` and PKCE (S256) challenge; the service keeps the nonce and the PKCE verifier
    until the exchange (single use, for `oauth.state_ttl`). It also answers a `binding`, a
    secret for this client alone that never goes to the provider: keep it (e.g. in
    `sessionStorage`) and send it with the exchange, which refuses a `code` and `state`
    presented without it, so a sign-in can only be finished by the client that started it
    (not by whoever sees the redirect back, nor in a browser an attacker sent there with
    their own code). The provider sends the browser back to `redirectUri` with `code` and
    `state`: pass both, with the `binding`, to the exchange. 400 when `redirectUri` is not
    one this provider's settings allow (compared exactly); 429 when this address starts too
    many sign-ins; 502 when the provider cannot be reached.

    Sends a `GET` request to `/api/v1/auth/oauth/{provider}/authorize`

    Arguments:
    - `provider`: The provider's name, from the providers list.
    - `redirect_uri`: Where the provider sends the browser back: one of the provider's allowed redirect
    URIs, exactly.
    ```ignore
    let response = client.start_o_auth_sign_in()
        .provider(provider)
        .redirect_uri(redirect_uri)
        .send()
        .await;
    ```*/
    pub fn start_o_auth_sign_in(&self) -> builder::StartOAuthSignIn<'_> {
        builder::StartOAuthSignIn::new(self)
    }
    /**Complete signing in with a provider

    Exchanges the `code` the provider sent the browser back with (and the kept PKCE
    verifier), validates the ID token (signature from the provider's published keys,
    issuer, audience, expiry and the kept nonce), and answers a token pair and session
    exactly as a login does. The `state` works once, for this provider and redirect URI,
    and only with the `binding` that `authorize` answered for it: without it the exchange
    is refused (400) and the state stays for the client that holds it.

    The account: the one this provider account is linked to; on a first sign-in, the
    account with the same email address, linked only when the provider asserts the
    address verified **and** the account has confirmed it; else a new account with that
    verified address (unless the service makes none). Locked accounts are refused.

    Sends a `POST` request to `/api/v1/auth/oauth/{provider}/exchange`

    Arguments:
    - `provider`: The provider's name, as given to `authorize`.
    - `body`
    ```ignore
    let response = client.exchange_o_auth_code()
        .provider(provider)
        .body(body)
        .send()
        .await;
    ```*/
    pub fn exchange_o_auth_code(&self) -> builder::ExchangeOAuthCode<'_> {
        builder::ExchangeOAuthCode::new(self)
    }
    /**Start linking a provider account to your account

    For a signed-in caller: as `startOAuthSignIn` (the authorization URL, `state` and
    `binding`), but the provider's answer links the provider account to the caller's
    account instead of signing in. Use it for a provider that never asserts a verified
    address, which a first sign-in cannot link by address. Pass what the provider sends
    the browser back with, and the `binding`, to `completeOAuthLink`, with the same access
    token's account.

    The account's address must be confirmed, and the caller must have signed in recently
    (`identity.recent_sign_in`, 5 minutes by default; refreshing a session does not count):
    otherwise 403, and the front end asks for the password (a new login) and starts again
    with the new session's token. An access token alone, stolen from an older session,
    links nothing.

    Sends a `GET` request to `/api/v1/auth/oauth/{provider}/link`

    Arguments:
    - `provider`: The provider's name, from the providers list.
    - `redirect_uri`: Where the provider sends the browser back: one of the provider's allowed redirect
    URIs, exactly.
    ```ignore
    let response = client.start_o_auth_link()
        .provider(provider)
        .redirect_uri(redirect_uri)
        .send()
        .await;
    ```*/
    pub fn start_o_auth_link(&self) -> builder::StartOAuthLink<'_> {
        builder::StartOAuthLink::new(self)
    }
    /**Complete linking a provider account to your account

    Exchanges the `code` and validates the ID token as `exchangeOAuthCode` does, for a
    `state` that `startOAuthLink` started for the caller's account (with its `binding`),
    and links the provider account to the caller's account: from then on it signs in to
    it, listed with the caller's identities and removable as any. No session is opened and
    the account's password and sessions are untouched. The owner is mailed at the
    confirmed address, with a reset link that undoes the link. 403 when the address is
    not confirmed or the sign-in is no longer recent (as for `startOAuthLink`); 409 when
    the provider account is linked already (to this account or another: remove that link
    first).

    Sends a `POST` request to `/api/v1/auth/oauth/{provider}/link/exchange`

    Arguments:
    - `provider`: The provider's name, as given to `startOAuthLink`.
    - `idempotency_key`: Makes this request safe to retry. Send a unique value per operation (at most 255 visible ASCII characters, bare or as a quoted string, e.g. a UUID) and reuse it on every retry. A retry with the same key and the same request gets the first response back, marked `X-Idempotent-Replay: true`, without executing again, for 24h after the first response. The same key with a different body, query or path, or with a precondition (`If-Match`, `If-None-Match`, `If-Modified-Since`, `If-Unmodified-Since`, `If-Range`) added, changed or dropped, answers 422. A retry while the first request still runs waits up to 5s for its response, then answers 409 with `Retry-After`. Failed responses are not kept, so a retry after an error executes. Keys are scoped to the caller and this operation. A blank value counts as no key. The response is committed together with the operation's effect, in one database transaction: even if the service fails right after the change, a retry gets this response instead of executing again.
    - `body`
    ```ignore
    let response = client.complete_o_auth_link()
        .provider(provider)
        .idempotency_key(idempotency_key)
        .body(body)
        .send()
        .await;
    ```*/
    pub fn complete_o_auth_link(&self) -> builder::CompleteOAuthLink<'_> {
        builder::CompleteOAuthLink::new(self)
    }
    /**Refresh the token pair

    Exchanges a refresh token for a new pair; the presented one stops working. Presenting a
    refresh token that was already exchanged revokes its whole session (it was stolen or
    replayed) and answers 401.

    Sends a `POST` request to `/api/v1/auth/refresh`

    ```ignore
    let response = client.refresh()
        .body(body)
        .send()
        .await;
    ```*/
    pub fn refresh(&self) -> builder::Refresh<'_> {
        builder::Refresh::new(self)
    }
    /**Register an account

    Creates an account and mails a link to confirm the address. 409 when the email is taken;
    429 when this address registers too often.

    Sends a `POST` request to `/api/v1/auth/register`

    ```ignore
    let response = client.register()
        .body(body)
        .send()
        .await;
    ```*/
    pub fn register(&self) -> builder::Register<'_> {
        builder::Register::new(self)
    }
    /**Reset the password

    Sets a new password with the token from a reset mail, and ends every session of the
    account. Any reset link mailed works until it expires or one of them is used: using one
    spends them all.

    Sends a `POST` request to `/api/v1/auth/reset-password`

    Arguments:
    - `idempotency_key`: Makes this request safe to retry. Send a unique value per operation (at most 255 visible ASCII characters, bare or as a quoted string, e.g. a UUID) and reuse it on every retry. A retry with the same key and the same request gets the first response back, marked `X-Idempotent-Replay: true`, without executing again, for 24h after the first response. The same key with a different body, query or path, or with a precondition (`If-Match`, `If-None-Match`, `If-Modified-Since`, `If-Unmodified-Since`, `If-Range`) added, changed or dropped, answers 422. A retry while the first request still runs waits up to 5s for its response, then answers 409 with `Retry-After`. Failed responses are not kept, so a retry after an error executes. Keys are scoped to the caller and this operation. A blank value counts as no key. The response is committed together with the operation's effect, in one database transaction: even if the service fails right after the change, a retry gets this response instead of executing again.
    - `body`
    ```ignore
    let response = client.reset_password()
        .idempotency_key(idempotency_key)
        .body(body)
        .send()
        .await;
    ```*/
    pub fn reset_password(&self) -> builder::ResetPassword<'_> {
        builder::ResetPassword::new(self)
    }
    /**Log out

    Revokes the session of the given refresh token.

    Sends a `POST` request to `/api/v1/auth/revoke`

    ```ignore
    let response = client.revoke()
        .body(body)
        .send()
        .await;
    ```*/
    pub fn revoke(&self) -> builder::Revoke<'_> {
        builder::Revoke::new(self)
    }
    /**Ask for an email-confirmation link

    Mails a new confirmation link if an unconfirmed account has this email. Answers 202
    either way.

    Sends a `POST` request to `/api/v1/auth/send-email-confirmation`

    Arguments:
    - `idempotency_key`: Makes this request safe to retry. Send a unique value per operation (at most 255 visible ASCII characters, bare or as a quoted string, e.g. a UUID) and reuse it on every retry. A retry with the same key and the same request gets the first response back, marked `X-Idempotent-Replay: true`, without executing again, for 24h after the first response. The same key with a different body, query or path, or with a precondition (`If-Match`, `If-None-Match`, `If-Modified-Since`, `If-Unmodified-Since`, `If-Range`) added, changed or dropped, answers 422. A retry while the first request still runs waits up to 5s for its response, then answers 409 with `Retry-After`. Failed responses are not kept, so a retry after an error executes. Keys are scoped to the caller and this operation. A blank value counts as no key. This operation's effect is not in the database (queues the request in this process; the link is made and mailed after the answer, so that its timing reveals nothing): if the service fails after the effect and before it keeps the response, a retry executes again.
    - `body`
    ```ignore
    let response = client.send_email_confirmation()
        .idempotency_key(idempotency_key)
        .body(body)
        .send()
        .await;
    ```*/
    pub fn send_email_confirmation(&self) -> builder::SendEmailConfirmation<'_> {
        builder::SendEmailConfirmation::new(self)
    }
    /**The caller's active sessions

    Sends a `GET` request to `/api/v1/auth/sessions`

    ```ignore
    let response = client.list_sessions()
        .send()
        .await;
    ```*/
    pub fn list_sessions(&self) -> builder::ListSessions<'_> {
        builder::ListSessions::new(self)
    }
    /**Revoke one of the caller's sessions

    Sends a `POST` request to `/api/v1/auth/sessions/{id}/revoke`

    ```ignore
    let response = client.revoke_session()
        .id(id)
        .send()
        .await;
    ```*/
    pub fn revoke_session(&self) -> builder::RevokeSession<'_> {
        builder::RevokeSession::new(self)
    }
    /**Accept a version of a legal document

    Records that the caller accepts the current version of a kind, with the time, the
    client address and the `User-Agent`: `201` with the record. Accepting a version the
    caller already accepted answers `200` with the first record and records nothing (with or
    without an `Idempotency-Key`). Only the current version can be accepted: `409` for a
    superseded version or one not yet in effect, `404` for a version that does not exist.

    Sends a `POST` request to `/api/v1/legal/acceptances`

    Arguments:
    - `idempotency_key`: Makes this request safe to retry. Send a unique value per operation (at most 255 visible ASCII characters, bare or as a quoted string, e.g. a UUID) and reuse it on every retry. A retry with the same key and the same request gets the first response back, marked `X-Idempotent-Replay: true`, without executing again, for 24h after the first response. The same key with a different body, query or path, or with a precondition (`If-Match`, `If-None-Match`, `If-Modified-Since`, `If-Unmodified-Since`, `If-Range`) added, changed or dropped, answers 422. A retry while the first request still runs waits up to 5s for its response, then answers 409 with `Retry-After`. Failed responses are not kept, so a retry after an error executes. Keys are scoped to the caller and this operation. A blank value counts as no key. The response is committed together with the operation's effect, in one database transaction: even if the service fails right after the change, a retry gets this response instead of executing again.
    - `body`
    ```ignore
    let response = client.accept_legal_document()
        .idempotency_key(idempotency_key)
        .body(body)
        .send()
        .await;
    ```*/
    pub fn accept_legal_document(&self) -> builder::AcceptLegalDocument<'_> {
        builder::AcceptLegalDocument::new(self)
    }
    /**What the caller accepted

    Every acceptance the caller made (newest first), and the current versions they have not
    accepted yet; `required` marks those the service refuses other requests without.

    Sends a `GET` request to `/api/v1/legal/acceptances/me`

    ```ignore
    let response = client.get_my_legal_acceptances()
        .send()
        .await;
    ```*/
    pub fn get_my_legal_acceptances(&self) -> builder::GetMyLegalAcceptances<'_> {
        builder::GetMyLegalAcceptances::new(self)
    }
    /**List the current legal documents

    The current version of each kind of document: the highest-numbered version whose
    `effectiveAt` has come. Kinds whose versions all take effect later are not listed.
    Needs no authentication.

    Sends a `GET` request to `/api/v1/legal/documents`

    Arguments:
    - `page`: Page number, from 1.
    - `per_page`: Items per page, 1 to 100 (default 20).
    ```ignore
    let response = client.list_legal_documents()
        .page(page)
        .per_page(per_page)
        .send()
        .await;
    ```*/
    pub fn list_legal_documents(&self) -> builder::ListLegalDocuments<'_> {
        builder::ListLegalDocuments::new(self)
    }
    /**Publish a new version of a legal document (administrators)

    The service numbers the version: one more than the latest version of that kind (the
    first is 1). Versions are immutable. The version becomes the current one at
    `effectiveAt` (at once without it), unless a higher-numbered version is in effect by
    then. Send an `Idempotency-Key`: a retry with the same key and body gets the first answer
    back instead of publishing a second version (the answer is committed with the version).
    `403` for a caller who is not an administrator.

    Sends a `POST` request to `/api/v1/legal/documents/{kind}/versions`

    Arguments:
    - `kind`: The kind of document: a lowercase slug such as `terms` or `privacy`.
    - `idempotency_key`: Makes this request safe to retry. Send a unique value per operation (at most 255 visible ASCII characters, bare or as a quoted string, e.g. a UUID) and reuse it on every retry. A retry with the same key and the same request gets the first response back, marked `X-Idempotent-Replay: true`, without executing again, for 24h after the first response. The same key with a different body, query or path, or with a precondition (`If-Match`, `If-None-Match`, `If-Modified-Since`, `If-Unmodified-Since`, `If-Range`) added, changed or dropped, answers 422. A retry while the first request still runs waits up to 5s for its response, then answers 409 with `Retry-After`. Failed responses are not kept, so a retry after an error executes. Keys are scoped to the caller and this operation. A blank value counts as no key. The response is committed together with the operation's effect, in one database transaction: even if the service fails right after the change, a retry gets this response instead of executing again.
    - `body`
    ```ignore
    let response = client.publish_legal_document_version()
        .kind(kind)
        .idempotency_key(idempotency_key)
        .body(body)
        .send()
        .await;
    ```*/
    pub fn publish_legal_document_version(&self) -> builder::PublishLegalDocumentVersion<'_> {
        builder::PublishLegalDocumentVersion::new(self)
    }
    /**Get one version of a legal document

    Any published version, current, superseded or not yet in effect. Needs no
    authentication.

    Sends a `GET` request to `/api/v1/legal/documents/{kind}/versions/{version}`

    Arguments:
    - `kind`: The kind of document: a lowercase slug such as `terms` or `privacy`.
    - `version`: The version number, from 1.
    ```ignore
    let response = client.get_legal_document_version()
        .kind(kind)
        .version(version)
        .send()
        .await;
    ```*/
    pub fn get_legal_document_version(&self) -> builder::GetLegalDocumentVersion<'_> {
        builder::GetLegalDocumentVersion::new(self)
    }
    /**List the caller's notifications

    Newest first; only the unread ones with `unread=true`. `total` counts every one that
    matches.

    Sends a `GET` request to `/api/v1/notifications`

    Arguments:
    - `page`: Page number, from 1.
    - `per_page`: Items per page, 1 to 100 (default 20).
    - `unread`: Only the unread ones.
    ```ignore
    let response = client.list_notifications()
        .page(page)
        .per_page(per_page)
        .unread(unread)
        .send()
        .await;
    ```*/
    pub fn list_notifications(&self) -> builder::ListNotifications<'_> {
        builder::ListNotifications::new(self)
    }
    /**Send a notification

    For administrators and callers with the `notifications:send` role. The notification
    appears in the recipient's list and live stream (`inApp`) and is mailed to the
    recipient's confirmed address (`email`; nothing is mailed to an unconfirmed one). The mail
    is queued with the notification in one transaction and sent at least once, retried with
    backoff while the mail server fails.

    An `Idempotency-Key` is required: a retry with the same key gets the first 201 back
    instead of notifying the recipient twice.

    Sends a `POST` request to `/api/v1/notifications`

    Arguments:
    - `idempotency_key`: Makes this request safe to retry. Send a unique value per operation (at most 255 visible ASCII characters, bare or as a quoted string, e.g. a UUID) and reuse it on every retry. A retry with the same key and the same request gets the first response back, marked `X-Idempotent-Replay: true`, without executing again, for 24h after the first response. The same key with a different body, query or path, or with a precondition (`If-Match`, `If-None-Match`, `If-Modified-Since`, `If-Unmodified-Since`, `If-Range`) added, changed or dropped, answers 422. A retry while the first request still runs waits up to 5s for its response, then answers 409 with `Retry-After`. Failed responses are not kept, so a retry after an error executes. Keys are scoped to the caller and this operation. A blank value counts as no key. Required: a request without a key answers 400. The response is committed together with the operation's effect, in one database transaction: even if the service fails right after the change, a retry gets this response instead of executing again.
    - `body`
    ```ignore
    let response = client.send_notification()
        .idempotency_key(idempotency_key)
        .body(body)
        .send()
        .await;
    ```*/
    pub fn send_notification(&self) -> builder::SendNotification<'_> {
        builder::SendNotification::new(self)
    }
    /**Mark every notification read

    Answers how many were unread.

    Sends a `POST` request to `/api/v1/notifications/read-all`

    ```ignore
    let response = client.mark_all_notifications_read()
        .send()
        .await;
    ```*/
    pub fn mark_all_notifications_read(&self) -> builder::MarkAllNotificationsRead<'_> {
        builder::MarkAllNotificationsRead::new(self)
    }
    /**Stream the caller's new notifications

    Server-sent events (`text/event-stream`): one `message` event per notification sent to
    the caller from now on, its data the notification as JSON, whichever instance of the
    service it was sent through. A comment line every 15 seconds keeps the connection open
    through proxies. A stream that falls far behind skips ahead; the list has everything.

    The stream lives no longer than what opened it: when the access token expires, or its
    session ends (logged out, revoked, the account locked, the password changed; on
    whichever instance that happened), a last event `end` says why (its data a `StreamEnd`:
    `reason` and `detail`) and the stream closes. Refresh the token (or sign in again) and
    open a new stream. It also ends, without that event, when the instance shuts down:
    reconnect.

    Sends a `GET` request to `/api/v1/notifications/stream`

    ```ignore
    let response = client.stream_notifications()
        .send()
        .await;
    ```*/
    pub fn stream_notifications(&self) -> builder::StreamNotifications<'_> {
        builder::StreamNotifications::new(self)
    }
    /**Count the caller's unread notifications

    Sends a `GET` request to `/api/v1/notifications/unread-count`

    ```ignore
    let response = client.count_unread_notifications()
        .send()
        .await;
    ```*/
    pub fn count_unread_notifications(&self) -> builder::CountUnreadNotifications<'_> {
        builder::CountUnreadNotifications::new(self)
    }
    /**Get one of the caller's notifications

    Sends a `GET` request to `/api/v1/notifications/{id}`

    ```ignore
    let response = client.get_notification()
        .id(id)
        .send()
        .await;
    ```*/
    pub fn get_notification(&self) -> builder::GetNotification<'_> {
        builder::GetNotification::new(self)
    }
    /**Delete a notification

    A mail of it not sent yet is not sent. A retry with the same `Idempotency-Key` gets the
    first 204 back rather than a 404.

    Sends a `DELETE` request to `/api/v1/notifications/{id}`

    Arguments:
    - `id`
    - `idempotency_key`: Makes this request safe to retry. Send a unique value per operation (at most 255 visible ASCII characters, bare or as a quoted string, e.g. a UUID) and reuse it on every retry. A retry with the same key and the same request gets the first response back, marked `X-Idempotent-Replay: true`, without executing again, for 24h after the first response. The same key with a different body, query or path, or with a precondition (`If-Match`, `If-None-Match`, `If-Modified-Since`, `If-Unmodified-Since`, `If-Range`) added, changed or dropped, answers 422. A retry while the first request still runs waits up to 5s for its response, then answers 409 with `Retry-After`. Failed responses are not kept, so a retry after an error executes. Keys are scoped to the caller and this operation. A blank value counts as no key. The response is committed together with the operation's effect, in one database transaction: even if the service fails right after the change, a retry gets this response instead of executing again.
    ```ignore
    let response = client.delete_notification()
        .id(id)
        .idempotency_key(idempotency_key)
        .send()
        .await;
    ```*/
    pub fn delete_notification(&self) -> builder::DeleteNotification<'_> {
        builder::DeleteNotification::new(self)
    }
    /**Mark a notification read

    A notification already read keeps the time it was first read.

    Sends a `POST` request to `/api/v1/notifications/{id}/read`

    ```ignore
    let response = client.mark_notification_read()
        .id(id)
        .send()
        .await;
    ```*/
    pub fn mark_notification_read(&self) -> builder::MarkNotificationRead<'_> {
        builder::MarkNotificationRead::new(self)
    }
    /**List the caller's things

    Returns one page of the caller's things, in the order `sort` names (oldest first by
    default), those whose name contains `nameContains` (ignoring the case of ASCII letters)
    when it is given.
    `total` counts every thing that matches.

    Sends a `GET` request to `/api/v1/things`

    Arguments:
    - `name_contains`: Only things whose name contains this text, ignoring the case of ASCII letters.
    - `page`: Page number, from 1.
    - `per_page`: Items per page, 1 to 100 (default 20).
    - `sort`: The order: `createdAt` (the default), `updatedAt` or `name`, or one of them after
    `-` for the reverse.
    ```ignore
    let response = client.list_things()
        .name_contains(name_contains)
        .page(page)
        .per_page(per_page)
        .sort(sort)
        .send()
        .await;
    ```*/
    pub fn list_things(&self) -> builder::ListThings<'_> {
        builder::ListThings::new(self)
    }
    /**Create a thing

    Send an `Idempotency-Key` to make retries safe: a retry with the same key and body
    returns the first response instead of creating a second thing.

    Sends a `POST` request to `/api/v1/things`

    Arguments:
    - `idempotency_key`: Makes this request safe to retry. Send a unique value per operation (at most 255 visible ASCII characters, bare or as a quoted string, e.g. a UUID) and reuse it on every retry. A retry with the same key and the same request gets the first response back, marked `X-Idempotent-Replay: true`, without executing again, for 24h after the first response. The same key with a different body, query or path, or with a precondition (`If-Match`, `If-None-Match`, `If-Modified-Since`, `If-Unmodified-Since`, `If-Range`) added, changed or dropped, answers 422. A retry while the first request still runs waits up to 5s for its response, then answers 409 with `Retry-After`. Failed responses are not kept, so a retry after an error executes. Keys are scoped to the caller and this operation. A blank value counts as no key. The response is committed together with the operation's effect, in one database transaction: even if the service fails right after the change, a retry gets this response instead of executing again.
    - `body`
    ```ignore
    let response = client.create_thing()
        .idempotency_key(idempotency_key)
        .body(body)
        .send()
        .await;
    ```*/
    pub fn create_thing(&self) -> builder::CreateThing<'_> {
        builder::CreateThing::new(self)
    }
    /**Get one thing

    The `ETag` names this version: send it back as `If-Match` to change or delete the
    thing, or as `If-None-Match` to get 304 Not Modified while it has not changed.

    Sends a `GET` request to `/api/v1/things/{id}`

    Arguments:
    - `id`
    - `if_none_match`: The `ETag` of the version you hold: 304 Not Modified while it is still current.
    ```ignore
    let response = client.get_thing()
        .id(id)
        .if_none_match(if_none_match)
        .send()
        .await;
    ```*/
    pub fn get_thing(&self) -> builder::GetThing<'_> {
        builder::GetThing::new(self)
    }
    /**Replace a thing

    Sets every field of the thing, if it is still the version `If-Match` names (its
    `ETag`): 412 when it changed since, 428 without `If-Match` (unless the service turns
    `things.require_if_match` off). Repeating the same request with the same
    `Idempotency-Key` gets the first 200 back, not a 412 against the version it wrote.

    Sends a `PUT` request to `/api/v1/things/{id}`

    Arguments:
    - `id`
    - `idempotency_key`: Makes this request safe to retry. Send a unique value per operation (at most 255 visible ASCII characters, bare or as a quoted string, e.g. a UUID) and reuse it on every retry. A retry with the same key and the same request gets the first response back, marked `X-Idempotent-Replay: true`, without executing again, for 24h after the first response. The same key with a different body, query or path, or with a precondition (`If-Match`, `If-None-Match`, `If-Modified-Since`, `If-Unmodified-Since`, `If-Range`) added, changed or dropped, answers 422. A retry while the first request still runs waits up to 5s for its response, then answers 409 with `Retry-After`. Failed responses are not kept, so a retry after an error executes. Keys are scoped to the caller and this operation. A blank value counts as no key. The response is committed together with the operation's effect, in one database transaction: even if the service fails right after the change, a retry gets this response instead of executing again.
    - `if_match`: The `ETag` of the version this change is based on: 412 when the thing changed since.
    - `body`
    ```ignore
    let response = client.update_thing()
        .id(id)
        .idempotency_key(idempotency_key)
        .if_match(if_match)
        .body(body)
        .send()
        .await;
    ```*/
    pub fn update_thing(&self) -> builder::UpdateThing<'_> {
        builder::UpdateThing::new(self)
    }
    /**Delete a thing

    Deletes the thing if it is still the version `If-Match` names: 412 when it changed
    since (or is gone), 428 without `If-Match` (unless `things.require_if_match` is off;
    then a thing that is not there answers 204 too). A retry with the same
    `Idempotency-Key` gets the first 204 back.

    Sends a `DELETE` request to `/api/v1/things/{id}`

    Arguments:
    - `id`
    - `idempotency_key`: Makes this request safe to retry. Send a unique value per operation (at most 255 visible ASCII characters, bare or as a quoted string, e.g. a UUID) and reuse it on every retry. A retry with the same key and the same request gets the first response back, marked `X-Idempotent-Replay: true`, without executing again, for 24h after the first response. The same key with a different body, query or path, or with a precondition (`If-Match`, `If-None-Match`, `If-Modified-Since`, `If-Unmodified-Since`, `If-Range`) added, changed or dropped, answers 422. A retry while the first request still runs waits up to 5s for its response, then answers 409 with `Retry-After`. Failed responses are not kept, so a retry after an error executes. Keys are scoped to the caller and this operation. A blank value counts as no key. The response is committed together with the operation's effect, in one database transaction: even if the service fails right after the change, a retry gets this response instead of executing again.
    - `if_match`: The `ETag` of the version this change is based on: 412 when the thing changed since.
    ```ignore
    let response = client.delete_thing()
        .id(id)
        .idempotency_key(idempotency_key)
        .if_match(if_match)
        .send()
        .await;
    ```*/
    pub fn delete_thing(&self) -> builder::DeleteThing<'_> {
        builder::DeleteThing::new(self)
    }
    /**Change some fields of a thing

    A JSON Merge Patch (RFC 7396, `Content-Type: application/merge-patch+json`): fields left
    out stay as they are, `"description": null` removes the description. Conditional on
    `If-Match` like a replacement.

    Sends a `PATCH` request to `/api/v1/things/{id}`

    Arguments:
    - `id`
    - `idempotency_key`: Makes this request safe to retry. Send a unique value per operation (at most 255 visible ASCII characters, bare or as a quoted string, e.g. a UUID) and reuse it on every retry. A retry with the same key and the same request gets the first response back, marked `X-Idempotent-Replay: true`, without executing again, for 24h after the first response. The same key with a different body, query or path, or with a precondition (`If-Match`, `If-None-Match`, `If-Modified-Since`, `If-Unmodified-Since`, `If-Range`) added, changed or dropped, answers 422. A retry while the first request still runs waits up to 5s for its response, then answers 409 with `Retry-After`. Failed responses are not kept, so a retry after an error executes. Keys are scoped to the caller and this operation. A blank value counts as no key. The response is committed together with the operation's effect, in one database transaction: even if the service fails right after the change, a retry gets this response instead of executing again.
    - `if_match`: The `ETag` of the version this change is based on: 412 when the thing changed since.
    - `body`: A change to some fields of a thing.
    ```ignore
    let response = client.patch_thing()
        .id(id)
        .idempotency_key(idempotency_key)
        .if_match(if_match)
        .body(body)
        .send()
        .await;
    ```*/
    pub fn patch_thing(&self) -> builder::PatchThing<'_> {
        builder::PatchThing::new(self)
    }
    /**Liveness

    Answers 200 while the process is up. Checks no dependency, so an outage of the database or
    Redis never gets the process restarted. Point a Kubernetes liveness probe here.

    Sends a `GET` request to `/health/live`

    ```ignore
    let response = client.health_live()
        .send()
        .await;
    ```*/
    pub fn health_live(&self) -> builder::HealthLive<'_> {
        builder::HealthLive::new(self)
    }
    /**Readiness

    Answers whether this instance can serve: 503 only when the database does not answer. A
    Redis outage answers 200 with `status: degraded` and `redis: unavailable`: every instance
    shares that Redis, so taking them out of rotation for it would turn a degraded service
    into no service. Point a load balancer's health check or a Kubernetes readiness probe here.

    Sends a `GET` request to `/health/ready`

    ```ignore
    let response = client.health_ready()
        .send()
        .await;
    ```*/
    pub fn health_ready(&self) -> builder::HealthReady<'_> {
        builder::HealthReady::new(self)
    }
}
/// Types for composing operation parameters.
#[allow(clippy::all)]
pub mod builder {
    use super::types;
    #[allow(unused_imports)]
    use super::{
        ByteStream, ClientHooks, ClientInfo, Error, OperationInfo, RequestBuilderExt,
        ResponseValue, encode_path,
    };
    /**Builder for [`Client::list_admin_audit`]

    [`Client::list_admin_audit`]: super::Client::list_admin_audit*/
    #[derive(Debug, Clone)]
    pub struct ListAdminAudit<'a> {
        client: &'a super::Client,
        page: Result<Option<::std::num::NonZeroU32>, String>,
        per_page: Result<Option<::std::num::NonZeroU32>, String>,
    }
    impl<'a> ListAdminAudit<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                page: Ok(None),
                per_page: Ok(None),
            }
        }
        pub fn page<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<::std::num::NonZeroU32>,
        {
            self.page = value.try_into().map(Some).map_err(|_| {
                "conversion to `:: std :: num :: NonZeroU32` for page failed".to_string()
            });
            self
        }
        pub fn per_page<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<::std::num::NonZeroU32>,
        {
            self.per_page = value.try_into().map(Some).map_err(|_| {
                "conversion to `:: std :: num :: NonZeroU32` for per_page failed".to_string()
            });
            self
        }
        ///Sends a `GET` request to `/api/v1/admin/audit`
        pub async fn send(
            self,
        ) -> Result<ResponseValue<types::PageAuditEntryView>, Error<ByteStream>> {
            let Self {
                client,
                page,
                per_page,
            } = self;
            let page = page.map_err(Error::InvalidRequest)?;
            let per_page = per_page.map_err(Error::InvalidRequest)?;
            let url = format!("{}/api/v1/admin/audit", client.baseurl,);
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client
                .client
                .get(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .query(&progenitor_client::QueryParam::new("page", &page))
                .query(&progenitor_client::QueryParam::new("perPage", &per_page))
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "list_admin_audit",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                200u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::list_mail_dead_letters`]

    [`Client::list_mail_dead_letters`]: super::Client::list_mail_dead_letters*/
    #[derive(Debug, Clone)]
    pub struct ListMailDeadLetters<'a> {
        client: &'a super::Client,
        page: Result<Option<::std::num::NonZeroU32>, String>,
        per_page: Result<Option<::std::num::NonZeroU32>, String>,
    }
    impl<'a> ListMailDeadLetters<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                page: Ok(None),
                per_page: Ok(None),
            }
        }
        pub fn page<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<::std::num::NonZeroU32>,
        {
            self.page = value.try_into().map(Some).map_err(|_| {
                "conversion to `:: std :: num :: NonZeroU32` for page failed".to_string()
            });
            self
        }
        pub fn per_page<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<::std::num::NonZeroU32>,
        {
            self.per_page = value.try_into().map(Some).map_err(|_| {
                "conversion to `:: std :: num :: NonZeroU32` for per_page failed".to_string()
            });
            self
        }
        ///Sends a `GET` request to `/api/v1/admin/mail/dead-letters`
        pub async fn send(
            self,
        ) -> Result<ResponseValue<types::PageMailDelivery>, Error<ByteStream>> {
            let Self {
                client,
                page,
                per_page,
            } = self;
            let page = page.map_err(Error::InvalidRequest)?;
            let per_page = per_page.map_err(Error::InvalidRequest)?;
            let url = format!("{}/api/v1/admin/mail/dead-letters", client.baseurl,);
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client
                .client
                .get(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .query(&progenitor_client::QueryParam::new("page", &page))
                .query(&progenitor_client::QueryParam::new("perPage", &per_page))
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "list_mail_dead_letters",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                200u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::retry_mail_dead_letter`]

    [`Client::retry_mail_dead_letter`]: super::Client::retry_mail_dead_letter*/
    #[derive(Debug, Clone)]
    pub struct RetryMailDeadLetter<'a> {
        client: &'a super::Client,
        id: Result<types::RetryMailDeadLetterId, String>,
        idempotency_key: Result<Option<types::RetryMailDeadLetterIdempotencyKey>, String>,
    }
    impl<'a> RetryMailDeadLetter<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                id: Err("id was not initialized".to_string()),
                idempotency_key: Ok(None),
            }
        }
        pub fn id<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::RetryMailDeadLetterId>,
        {
            self.id = value
                .try_into()
                .map_err(|_| "conversion to `RetryMailDeadLetterId` for id failed".to_string());
            self
        }
        pub fn idempotency_key<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::RetryMailDeadLetterIdempotencyKey>,
        {
            self.idempotency_key = value.try_into().map(Some).map_err(|_| {
                "conversion to `RetryMailDeadLetterIdempotencyKey` for idempotency_key failed"
                    .to_string()
            });
            self
        }
        ///Sends a `POST` request to `/api/v1/admin/mail/dead-letters/{id}/retry`
        pub async fn send(self) -> Result<ResponseValue<types::MailDelivery>, Error<ByteStream>> {
            let Self {
                client,
                id,
                idempotency_key,
            } = self;
            let id = id.map_err(Error::InvalidRequest)?;
            let idempotency_key = idempotency_key.map_err(Error::InvalidRequest)?;
            let url = format!(
                "{}/api/v1/admin/mail/dead-letters/{}/retry",
                client.baseurl,
                encode_path(&id.to_string()),
            );
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(2usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            if let Some(value) = idempotency_key {
                header_map.append("Idempotency-Key", value.to_string().try_into()?);
            }
            #[allow(unused_mut)]
            let mut request = client
                .client
                .post(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "retry_mail_dead_letter",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                202u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                409u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                422u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::list_users`]

    [`Client::list_users`]: super::Client::list_users*/
    #[derive(Debug, Clone)]
    pub struct ListUsers<'a> {
        client: &'a super::Client,
        page: Result<Option<::std::num::NonZeroU32>, String>,
        per_page: Result<Option<::std::num::NonZeroU32>, String>,
    }
    impl<'a> ListUsers<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                page: Ok(None),
                per_page: Ok(None),
            }
        }
        pub fn page<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<::std::num::NonZeroU32>,
        {
            self.page = value.try_into().map(Some).map_err(|_| {
                "conversion to `:: std :: num :: NonZeroU32` for page failed".to_string()
            });
            self
        }
        pub fn per_page<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<::std::num::NonZeroU32>,
        {
            self.per_page = value.try_into().map(Some).map_err(|_| {
                "conversion to `:: std :: num :: NonZeroU32` for per_page failed".to_string()
            });
            self
        }
        ///Sends a `GET` request to `/api/v1/admin/users`
        pub async fn send(self) -> Result<ResponseValue<types::PageUserView>, Error<ByteStream>> {
            let Self {
                client,
                page,
                per_page,
            } = self;
            let page = page.map_err(Error::InvalidRequest)?;
            let per_page = per_page.map_err(Error::InvalidRequest)?;
            let url = format!("{}/api/v1/admin/users", client.baseurl,);
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client
                .client
                .get(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .query(&progenitor_client::QueryParam::new("page", &page))
                .query(&progenitor_client::QueryParam::new("perPage", &per_page))
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "list_users",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                200u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::lock_user`]

    [`Client::lock_user`]: super::Client::lock_user*/
    #[derive(Debug, Clone)]
    pub struct LockUser<'a> {
        client: &'a super::Client,
        id: Result<types::LockUserId, String>,
    }
    impl<'a> LockUser<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                id: Err("id was not initialized".to_string()),
            }
        }
        pub fn id<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::LockUserId>,
        {
            self.id = value
                .try_into()
                .map_err(|_| "conversion to `LockUserId` for id failed".to_string());
            self
        }
        ///Sends a `POST` request to `/api/v1/admin/users/{id}/lock`
        pub async fn send(self) -> Result<ResponseValue<()>, Error<ByteStream>> {
            let Self { client, id } = self;
            let id = id.map_err(Error::InvalidRequest)?;
            let url = format!(
                "{}/api/v1/admin/users/{}/lock",
                client.baseurl,
                encode_path(&id.to_string()),
            );
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client.client.post(url).headers(header_map).build()?;
            let info = OperationInfo {
                operation_id: "lock_user",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                204u16 => Ok(ResponseValue::empty(response)),
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::unlock_user`]

    [`Client::unlock_user`]: super::Client::unlock_user*/
    #[derive(Debug, Clone)]
    pub struct UnlockUser<'a> {
        client: &'a super::Client,
        id: Result<types::UnlockUserId, String>,
    }
    impl<'a> UnlockUser<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                id: Err("id was not initialized".to_string()),
            }
        }
        pub fn id<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::UnlockUserId>,
        {
            self.id = value
                .try_into()
                .map_err(|_| "conversion to `UnlockUserId` for id failed".to_string());
            self
        }
        ///Sends a `POST` request to `/api/v1/admin/users/{id}/unlock`
        pub async fn send(self) -> Result<ResponseValue<()>, Error<ByteStream>> {
            let Self { client, id } = self;
            let id = id.map_err(Error::InvalidRequest)?;
            let url = format!(
                "{}/api/v1/admin/users/{}/unlock",
                client.baseurl,
                encode_path(&id.to_string()),
            );
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client.client.post(url).headers(header_map).build()?;
            let info = OperationInfo {
                operation_id: "unlock_user",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                204u16 => Ok(ResponseValue::empty(response)),
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::confirm_email`]

    [`Client::confirm_email`]: super::Client::confirm_email*/
    #[derive(Debug, Clone)]
    pub struct ConfirmEmail<'a> {
        client: &'a super::Client,
        idempotency_key: Result<Option<types::ConfirmEmailIdempotencyKey>, String>,
        body: Result<types::builder::ConfirmEmailRequest, String>,
    }
    impl<'a> ConfirmEmail<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                idempotency_key: Ok(None),
                body: Ok(::std::default::Default::default()),
            }
        }
        pub fn idempotency_key<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::ConfirmEmailIdempotencyKey>,
        {
            self.idempotency_key = value.try_into().map(Some).map_err(|_| {
                "conversion to `ConfirmEmailIdempotencyKey` for idempotency_key failed".to_string()
            });
            self
        }
        pub fn body<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::ConfirmEmailRequest>,
            <V as std::convert::TryInto<types::ConfirmEmailRequest>>::Error: std::fmt::Display,
        {
            self.body = value
                .try_into()
                .map(From::from)
                .map_err(|s| format!("conversion to `ConfirmEmailRequest` for body failed: {}", s));
            self
        }
        pub fn body_map<F>(mut self, f: F) -> Self
        where
            F: std::ops::FnOnce(
                    types::builder::ConfirmEmailRequest,
                ) -> types::builder::ConfirmEmailRequest,
        {
            self.body = self.body.map(f);
            self
        }
        ///Sends a `POST` request to `/api/v1/auth/confirm-email`
        pub async fn send(self) -> Result<ResponseValue<()>, Error<ByteStream>> {
            let Self {
                client,
                idempotency_key,
                body,
            } = self;
            let idempotency_key = idempotency_key.map_err(Error::InvalidRequest)?;
            let body = body
                .and_then(|v| types::ConfirmEmailRequest::try_from(v).map_err(|e| e.to_string()))
                .map_err(Error::InvalidRequest)?;
            let url = format!("{}/api/v1/auth/confirm-email", client.baseurl,);
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(2usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            if let Some(value) = idempotency_key {
                header_map.append("Idempotency-Key", value.to_string().try_into()?);
            }
            #[allow(unused_mut)]
            let mut request = client
                .client
                .post(url)
                .json(&body)
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "confirm_email",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                204u16 => Ok(ResponseValue::empty(response)),
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                409u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                413u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                415u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                422u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::forgot_password`]

    [`Client::forgot_password`]: super::Client::forgot_password*/
    #[derive(Debug, Clone)]
    pub struct ForgotPassword<'a> {
        client: &'a super::Client,
        idempotency_key: Result<Option<types::ForgotPasswordIdempotencyKey>, String>,
        body: Result<types::builder::EmailRequest, String>,
    }
    impl<'a> ForgotPassword<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                idempotency_key: Ok(None),
                body: Ok(::std::default::Default::default()),
            }
        }
        pub fn idempotency_key<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::ForgotPasswordIdempotencyKey>,
        {
            self.idempotency_key = value.try_into().map(Some).map_err(|_| {
                "conversion to `ForgotPasswordIdempotencyKey` for idempotency_key failed"
                    .to_string()
            });
            self
        }
        pub fn body<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::EmailRequest>,
            <V as std::convert::TryInto<types::EmailRequest>>::Error: std::fmt::Display,
        {
            self.body = value
                .try_into()
                .map(From::from)
                .map_err(|s| format!("conversion to `EmailRequest` for body failed: {}", s));
            self
        }
        pub fn body_map<F>(mut self, f: F) -> Self
        where
            F: std::ops::FnOnce(types::builder::EmailRequest) -> types::builder::EmailRequest,
        {
            self.body = self.body.map(f);
            self
        }
        ///Sends a `POST` request to `/api/v1/auth/forgot-password`
        pub async fn send(self) -> Result<ResponseValue<()>, Error<ByteStream>> {
            let Self {
                client,
                idempotency_key,
                body,
            } = self;
            let idempotency_key = idempotency_key.map_err(Error::InvalidRequest)?;
            let body = body
                .and_then(|v| types::EmailRequest::try_from(v).map_err(|e| e.to_string()))
                .map_err(Error::InvalidRequest)?;
            let url = format!("{}/api/v1/auth/forgot-password", client.baseurl,);
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(2usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            if let Some(value) = idempotency_key {
                header_map.append("Idempotency-Key", value.to_string().try_into()?);
            }
            #[allow(unused_mut)]
            let mut request = client
                .client
                .post(url)
                .json(&body)
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "forgot_password",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                202u16 => Ok(ResponseValue::empty(response)),
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                409u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                413u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                415u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                422u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                429u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::list_identities`]

    [`Client::list_identities`]: super::Client::list_identities*/
    #[derive(Debug, Clone)]
    pub struct ListIdentities<'a> {
        client: &'a super::Client,
    }
    impl<'a> ListIdentities<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self { client: client }
        }
        ///Sends a `GET` request to `/api/v1/auth/identities`
        pub async fn send(
            self,
        ) -> Result<ResponseValue<::std::vec::Vec<types::IdentityView>>, Error<ByteStream>>
        {
            let Self { client } = self;
            let url = format!("{}/api/v1/auth/identities", client.baseurl,);
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client
                .client
                .get(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "list_identities",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                200u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::unlink_identity`]

    [`Client::unlink_identity`]: super::Client::unlink_identity*/
    #[derive(Debug, Clone)]
    pub struct UnlinkIdentity<'a> {
        client: &'a super::Client,
        id: Result<types::UnlinkIdentityId, String>,
        idempotency_key: Result<Option<types::UnlinkIdentityIdempotencyKey>, String>,
    }
    impl<'a> UnlinkIdentity<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                id: Err("id was not initialized".to_string()),
                idempotency_key: Ok(None),
            }
        }
        pub fn id<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::UnlinkIdentityId>,
        {
            self.id = value
                .try_into()
                .map_err(|_| "conversion to `UnlinkIdentityId` for id failed".to_string());
            self
        }
        pub fn idempotency_key<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::UnlinkIdentityIdempotencyKey>,
        {
            self.idempotency_key = value.try_into().map(Some).map_err(|_| {
                "conversion to `UnlinkIdentityIdempotencyKey` for idempotency_key failed"
                    .to_string()
            });
            self
        }
        ///Sends a `DELETE` request to `/api/v1/auth/identities/{id}`
        pub async fn send(self) -> Result<ResponseValue<()>, Error<ByteStream>> {
            let Self {
                client,
                id,
                idempotency_key,
            } = self;
            let id = id.map_err(Error::InvalidRequest)?;
            let idempotency_key = idempotency_key.map_err(Error::InvalidRequest)?;
            let url = format!(
                "{}/api/v1/auth/identities/{}",
                client.baseurl,
                encode_path(&id.to_string()),
            );
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(2usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            if let Some(value) = idempotency_key {
                header_map.append("Idempotency-Key", value.to_string().try_into()?);
            }
            #[allow(unused_mut)]
            let mut request = client.client.delete(url).headers(header_map).build()?;
            let info = OperationInfo {
                operation_id: "unlink_identity",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                204u16 => Ok(ResponseValue::empty(response)),
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                409u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                422u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::login`]

    [`Client::login`]: super::Client::login*/
    #[derive(Debug, Clone)]
    pub struct Login<'a> {
        client: &'a super::Client,
        body: Result<types::builder::LoginRequest, String>,
    }
    impl<'a> Login<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                body: Ok(::std::default::Default::default()),
            }
        }
        pub fn body<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::LoginRequest>,
            <V as std::convert::TryInto<types::LoginRequest>>::Error: std::fmt::Display,
        {
            self.body = value
                .try_into()
                .map(From::from)
                .map_err(|s| format!("conversion to `LoginRequest` for body failed: {}", s));
            self
        }
        pub fn body_map<F>(mut self, f: F) -> Self
        where
            F: std::ops::FnOnce(types::builder::LoginRequest) -> types::builder::LoginRequest,
        {
            self.body = self.body.map(f);
            self
        }
        ///Sends a `POST` request to `/api/v1/auth/login`
        pub async fn send(self) -> Result<ResponseValue<types::TokenResponse>, Error<ByteStream>> {
            let Self { client, body } = self;
            let body = body
                .and_then(|v| types::LoginRequest::try_from(v).map_err(|e| e.to_string()))
                .map_err(Error::InvalidRequest)?;
            let url = format!("{}/api/v1/auth/login", client.baseurl,);
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client
                .client
                .post(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .json(&body)
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "login",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                200u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                413u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                415u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                429u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::me`]

    [`Client::me`]: super::Client::me*/
    #[derive(Debug, Clone)]
    pub struct Me<'a> {
        client: &'a super::Client,
    }
    impl<'a> Me<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self { client: client }
        }
        ///Sends a `GET` request to `/api/v1/auth/me`
        pub async fn send(self) -> Result<ResponseValue<types::UserView>, Error<ByteStream>> {
            let Self { client } = self;
            let url = format!("{}/api/v1/auth/me", client.baseurl,);
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client
                .client
                .get(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .headers(header_map)
                .build()?;
            let info = OperationInfo { operation_id: "me" };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                200u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::list_o_auth_providers`]

    [`Client::list_o_auth_providers`]: super::Client::list_o_auth_providers*/
    #[derive(Debug, Clone)]
    pub struct ListOAuthProviders<'a> {
        client: &'a super::Client,
    }
    impl<'a> ListOAuthProviders<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self { client: client }
        }
        ///Sends a `GET` request to `/api/v1/auth/oauth/providers`
        pub async fn send(
            self,
        ) -> Result<ResponseValue<::std::vec::Vec<types::ProviderView>>, Error<ByteStream>>
        {
            let Self { client } = self;
            let url = format!("{}/api/v1/auth/oauth/providers", client.baseurl,);
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client
                .client
                .get(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "list_o_auth_providers",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                200u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::start_o_auth_sign_in`]

    [`Client::start_o_auth_sign_in`]: super::Client::start_o_auth_sign_in*/
    #[derive(Debug, Clone)]
    pub struct StartOAuthSignIn<'a> {
        client: &'a super::Client,
        provider: Result<types::StartOAuthSignInProvider, String>,
        redirect_uri: Result<types::StartOAuthSignInRedirectUri, String>,
    }
    impl<'a> StartOAuthSignIn<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                provider: Err("provider was not initialized".to_string()),
                redirect_uri: Err("redirect_uri was not initialized".to_string()),
            }
        }
        pub fn provider<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::StartOAuthSignInProvider>,
        {
            self.provider = value.try_into().map_err(|_| {
                "conversion to `StartOAuthSignInProvider` for provider failed".to_string()
            });
            self
        }
        pub fn redirect_uri<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::StartOAuthSignInRedirectUri>,
        {
            self.redirect_uri = value.try_into().map_err(|_| {
                "conversion to `StartOAuthSignInRedirectUri` for redirect_uri failed".to_string()
            });
            self
        }
        ///Sends a `GET` request to `/api/v1/auth/oauth/{provider}/authorize`
        pub async fn send(
            self,
        ) -> Result<ResponseValue<types::AuthorizationView>, Error<ByteStream>> {
            let Self {
                client,
                provider,
                redirect_uri,
            } = self;
            let provider = provider.map_err(Error::InvalidRequest)?;
            let redirect_uri = redirect_uri.map_err(Error::InvalidRequest)?;
            let url = format!(
                "{}/api/v1/auth/oauth/{}/authorize",
                client.baseurl,
                encode_path(&provider.to_string()),
            );
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client
                .client
                .get(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .query(&progenitor_client::QueryParam::new(
                    "redirectUri",
                    &redirect_uri,
                ))
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "start_o_auth_sign_in",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                200u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                429u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                502u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::exchange_o_auth_code`]

    [`Client::exchange_o_auth_code`]: super::Client::exchange_o_auth_code*/
    #[derive(Debug, Clone)]
    pub struct ExchangeOAuthCode<'a> {
        client: &'a super::Client,
        provider: Result<types::ExchangeOAuthCodeProvider, String>,
        body: Result<types::builder::CodeExchangeRequest, String>,
    }
    impl<'a> ExchangeOAuthCode<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                provider: Err("provider was not initialized".to_string()),
                body: Ok(::std::default::Default::default()),
            }
        }
        pub fn provider<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::ExchangeOAuthCodeProvider>,
        {
            self.provider = value.try_into().map_err(|_| {
                "conversion to `ExchangeOAuthCodeProvider` for provider failed".to_string()
            });
            self
        }
        pub fn body<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::CodeExchangeRequest>,
            <V as std::convert::TryInto<types::CodeExchangeRequest>>::Error: std::fmt::Display,
        {
            self.body = value
                .try_into()
                .map(From::from)
                .map_err(|s| format!("conversion to `CodeExchangeRequest` for body failed: {}", s));
            self
        }
        pub fn body_map<F>(mut self, f: F) -> Self
        where
            F: std::ops::FnOnce(
                    types::builder::CodeExchangeRequest,
                ) -> types::builder::CodeExchangeRequest,
        {
            self.body = self.body.map(f);
            self
        }
        ///Sends a `POST` request to `/api/v1/auth/oauth/{provider}/exchange`
        pub async fn send(self) -> Result<ResponseValue<types::TokenResponse>, Error<ByteStream>> {
            let Self {
                client,
                provider,
                body,
            } = self;
            let provider = provider.map_err(Error::InvalidRequest)?;
            let body = body
                .and_then(|v| types::CodeExchangeRequest::try_from(v).map_err(|e| e.to_string()))
                .map_err(Error::InvalidRequest)?;
            let url = format!(
                "{}/api/v1/auth/oauth/{}/exchange",
                client.baseurl,
                encode_path(&provider.to_string()),
            );
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client
                .client
                .post(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .json(&body)
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "exchange_o_auth_code",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                200u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                409u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                413u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                415u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                502u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::start_o_auth_link`]

    [`Client::start_o_auth_link`]: super::Client::start_o_auth_link*/
    #[derive(Debug, Clone)]
    pub struct StartOAuthLink<'a> {
        client: &'a super::Client,
        provider: Result<types::StartOAuthLinkProvider, String>,
        redirect_uri: Result<types::StartOAuthLinkRedirectUri, String>,
    }
    impl<'a> StartOAuthLink<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                provider: Err("provider was not initialized".to_string()),
                redirect_uri: Err("redirect_uri was not initialized".to_string()),
            }
        }
        pub fn provider<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::StartOAuthLinkProvider>,
        {
            self.provider = value.try_into().map_err(|_| {
                "conversion to `StartOAuthLinkProvider` for provider failed".to_string()
            });
            self
        }
        pub fn redirect_uri<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::StartOAuthLinkRedirectUri>,
        {
            self.redirect_uri = value.try_into().map_err(|_| {
                "conversion to `StartOAuthLinkRedirectUri` for redirect_uri failed".to_string()
            });
            self
        }
        ///Sends a `GET` request to `/api/v1/auth/oauth/{provider}/link`
        pub async fn send(
            self,
        ) -> Result<ResponseValue<types::AuthorizationView>, Error<ByteStream>> {
            let Self {
                client,
                provider,
                redirect_uri,
            } = self;
            let provider = provider.map_err(Error::InvalidRequest)?;
            let redirect_uri = redirect_uri.map_err(Error::InvalidRequest)?;
            let url = format!(
                "{}/api/v1/auth/oauth/{}/link",
                client.baseurl,
                encode_path(&provider.to_string()),
            );
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client
                .client
                .get(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .query(&progenitor_client::QueryParam::new(
                    "redirectUri",
                    &redirect_uri,
                ))
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "start_o_auth_link",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                200u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                429u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                502u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::complete_o_auth_link`]

    [`Client::complete_o_auth_link`]: super::Client::complete_o_auth_link*/
    #[derive(Debug, Clone)]
    pub struct CompleteOAuthLink<'a> {
        client: &'a super::Client,
        provider: Result<types::CompleteOAuthLinkProvider, String>,
        idempotency_key: Result<Option<types::CompleteOAuthLinkIdempotencyKey>, String>,
        body: Result<types::builder::CodeExchangeRequest, String>,
    }
    impl<'a> CompleteOAuthLink<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                provider: Err("provider was not initialized".to_string()),
                idempotency_key: Ok(None),
                body: Ok(::std::default::Default::default()),
            }
        }
        pub fn provider<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::CompleteOAuthLinkProvider>,
        {
            self.provider = value.try_into().map_err(|_| {
                "conversion to `CompleteOAuthLinkProvider` for provider failed".to_string()
            });
            self
        }
        pub fn idempotency_key<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::CompleteOAuthLinkIdempotencyKey>,
        {
            self.idempotency_key = value.try_into().map(Some).map_err(|_| {
                "conversion to `CompleteOAuthLinkIdempotencyKey` for idempotency_key failed"
                    .to_string()
            });
            self
        }
        pub fn body<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::CodeExchangeRequest>,
            <V as std::convert::TryInto<types::CodeExchangeRequest>>::Error: std::fmt::Display,
        {
            self.body = value
                .try_into()
                .map(From::from)
                .map_err(|s| format!("conversion to `CodeExchangeRequest` for body failed: {}", s));
            self
        }
        pub fn body_map<F>(mut self, f: F) -> Self
        where
            F: std::ops::FnOnce(
                    types::builder::CodeExchangeRequest,
                ) -> types::builder::CodeExchangeRequest,
        {
            self.body = self.body.map(f);
            self
        }
        ///Sends a `POST` request to `/api/v1/auth/oauth/{provider}/link/exchange`
        pub async fn send(self) -> Result<ResponseValue<types::IdentityView>, Error<ByteStream>> {
            let Self {
                client,
                provider,
                idempotency_key,
                body,
            } = self;
            let provider = provider.map_err(Error::InvalidRequest)?;
            let idempotency_key = idempotency_key.map_err(Error::InvalidRequest)?;
            let body = body
                .and_then(|v| types::CodeExchangeRequest::try_from(v).map_err(|e| e.to_string()))
                .map_err(Error::InvalidRequest)?;
            let url = format!(
                "{}/api/v1/auth/oauth/{}/link/exchange",
                client.baseurl,
                encode_path(&provider.to_string()),
            );
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(2usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            if let Some(value) = idempotency_key {
                header_map.append("Idempotency-Key", value.to_string().try_into()?);
            }
            #[allow(unused_mut)]
            let mut request = client
                .client
                .post(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .json(&body)
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "complete_o_auth_link",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                201u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                409u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                413u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                415u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                422u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                502u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::refresh`]

    [`Client::refresh`]: super::Client::refresh*/
    #[derive(Debug, Clone)]
    pub struct Refresh<'a> {
        client: &'a super::Client,
        body: Result<types::builder::RefreshRequest, String>,
    }
    impl<'a> Refresh<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                body: Ok(::std::default::Default::default()),
            }
        }
        pub fn body<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::RefreshRequest>,
            <V as std::convert::TryInto<types::RefreshRequest>>::Error: std::fmt::Display,
        {
            self.body = value
                .try_into()
                .map(From::from)
                .map_err(|s| format!("conversion to `RefreshRequest` for body failed: {}", s));
            self
        }
        pub fn body_map<F>(mut self, f: F) -> Self
        where
            F: std::ops::FnOnce(types::builder::RefreshRequest) -> types::builder::RefreshRequest,
        {
            self.body = self.body.map(f);
            self
        }
        ///Sends a `POST` request to `/api/v1/auth/refresh`
        pub async fn send(self) -> Result<ResponseValue<types::TokenResponse>, Error<ByteStream>> {
            let Self { client, body } = self;
            let body = body
                .and_then(|v| types::RefreshRequest::try_from(v).map_err(|e| e.to_string()))
                .map_err(Error::InvalidRequest)?;
            let url = format!("{}/api/v1/auth/refresh", client.baseurl,);
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client
                .client
                .post(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .json(&body)
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "refresh",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                200u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                413u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                415u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::register`]

    [`Client::register`]: super::Client::register*/
    #[derive(Debug, Clone)]
    pub struct Register<'a> {
        client: &'a super::Client,
        body: Result<types::builder::RegisterRequest, String>,
    }
    impl<'a> Register<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                body: Ok(::std::default::Default::default()),
            }
        }
        pub fn body<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::RegisterRequest>,
            <V as std::convert::TryInto<types::RegisterRequest>>::Error: std::fmt::Display,
        {
            self.body = value
                .try_into()
                .map(From::from)
                .map_err(|s| format!("conversion to `RegisterRequest` for body failed: {}", s));
            self
        }
        pub fn body_map<F>(mut self, f: F) -> Self
        where
            F: std::ops::FnOnce(types::builder::RegisterRequest) -> types::builder::RegisterRequest,
        {
            self.body = self.body.map(f);
            self
        }
        ///Sends a `POST` request to `/api/v1/auth/register`
        pub async fn send(self) -> Result<ResponseValue<types::UserView>, Error<ByteStream>> {
            let Self { client, body } = self;
            let body = body
                .and_then(|v| types::RegisterRequest::try_from(v).map_err(|e| e.to_string()))
                .map_err(Error::InvalidRequest)?;
            let url = format!("{}/api/v1/auth/register", client.baseurl,);
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client
                .client
                .post(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .json(&body)
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "register",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                201u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                409u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                413u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                415u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                429u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::reset_password`]

    [`Client::reset_password`]: super::Client::reset_password*/
    #[derive(Debug, Clone)]
    pub struct ResetPassword<'a> {
        client: &'a super::Client,
        idempotency_key: Result<Option<types::ResetPasswordIdempotencyKey>, String>,
        body: Result<types::builder::ResetPasswordRequest, String>,
    }
    impl<'a> ResetPassword<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                idempotency_key: Ok(None),
                body: Ok(::std::default::Default::default()),
            }
        }
        pub fn idempotency_key<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::ResetPasswordIdempotencyKey>,
        {
            self.idempotency_key = value.try_into().map(Some).map_err(|_| {
                "conversion to `ResetPasswordIdempotencyKey` for idempotency_key failed".to_string()
            });
            self
        }
        pub fn body<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::ResetPasswordRequest>,
            <V as std::convert::TryInto<types::ResetPasswordRequest>>::Error: std::fmt::Display,
        {
            self.body = value.try_into().map(From::from).map_err(|s| {
                format!(
                    "conversion to `ResetPasswordRequest` for body failed: {}",
                    s
                )
            });
            self
        }
        pub fn body_map<F>(mut self, f: F) -> Self
        where
            F: std::ops::FnOnce(
                    types::builder::ResetPasswordRequest,
                ) -> types::builder::ResetPasswordRequest,
        {
            self.body = self.body.map(f);
            self
        }
        ///Sends a `POST` request to `/api/v1/auth/reset-password`
        pub async fn send(self) -> Result<ResponseValue<()>, Error<ByteStream>> {
            let Self {
                client,
                idempotency_key,
                body,
            } = self;
            let idempotency_key = idempotency_key.map_err(Error::InvalidRequest)?;
            let body = body
                .and_then(|v| types::ResetPasswordRequest::try_from(v).map_err(|e| e.to_string()))
                .map_err(Error::InvalidRequest)?;
            let url = format!("{}/api/v1/auth/reset-password", client.baseurl,);
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(2usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            if let Some(value) = idempotency_key {
                header_map.append("Idempotency-Key", value.to_string().try_into()?);
            }
            #[allow(unused_mut)]
            let mut request = client
                .client
                .post(url)
                .json(&body)
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "reset_password",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                204u16 => Ok(ResponseValue::empty(response)),
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                409u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                413u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                415u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                422u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::revoke`]

    [`Client::revoke`]: super::Client::revoke*/
    #[derive(Debug, Clone)]
    pub struct Revoke<'a> {
        client: &'a super::Client,
        body: Result<types::builder::RefreshRequest, String>,
    }
    impl<'a> Revoke<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                body: Ok(::std::default::Default::default()),
            }
        }
        pub fn body<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::RefreshRequest>,
            <V as std::convert::TryInto<types::RefreshRequest>>::Error: std::fmt::Display,
        {
            self.body = value
                .try_into()
                .map(From::from)
                .map_err(|s| format!("conversion to `RefreshRequest` for body failed: {}", s));
            self
        }
        pub fn body_map<F>(mut self, f: F) -> Self
        where
            F: std::ops::FnOnce(types::builder::RefreshRequest) -> types::builder::RefreshRequest,
        {
            self.body = self.body.map(f);
            self
        }
        ///Sends a `POST` request to `/api/v1/auth/revoke`
        pub async fn send(self) -> Result<ResponseValue<()>, Error<ByteStream>> {
            let Self { client, body } = self;
            let body = body
                .and_then(|v| types::RefreshRequest::try_from(v).map_err(|e| e.to_string()))
                .map_err(Error::InvalidRequest)?;
            let url = format!("{}/api/v1/auth/revoke", client.baseurl,);
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client
                .client
                .post(url)
                .json(&body)
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "revoke",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                204u16 => Ok(ResponseValue::empty(response)),
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                413u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                415u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::send_email_confirmation`]

    [`Client::send_email_confirmation`]: super::Client::send_email_confirmation*/
    #[derive(Debug, Clone)]
    pub struct SendEmailConfirmation<'a> {
        client: &'a super::Client,
        idempotency_key: Result<Option<types::SendEmailConfirmationIdempotencyKey>, String>,
        body: Result<types::builder::EmailRequest, String>,
    }
    impl<'a> SendEmailConfirmation<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                idempotency_key: Ok(None),
                body: Ok(::std::default::Default::default()),
            }
        }
        pub fn idempotency_key<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::SendEmailConfirmationIdempotencyKey>,
        {
            self.idempotency_key = value.try_into().map(Some).map_err(|_| {
                "conversion to `SendEmailConfirmationIdempotencyKey` for idempotency_key failed"
                    .to_string()
            });
            self
        }
        pub fn body<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::EmailRequest>,
            <V as std::convert::TryInto<types::EmailRequest>>::Error: std::fmt::Display,
        {
            self.body = value
                .try_into()
                .map(From::from)
                .map_err(|s| format!("conversion to `EmailRequest` for body failed: {}", s));
            self
        }
        pub fn body_map<F>(mut self, f: F) -> Self
        where
            F: std::ops::FnOnce(types::builder::EmailRequest) -> types::builder::EmailRequest,
        {
            self.body = self.body.map(f);
            self
        }
        ///Sends a `POST` request to `/api/v1/auth/send-email-confirmation`
        pub async fn send(self) -> Result<ResponseValue<()>, Error<ByteStream>> {
            let Self {
                client,
                idempotency_key,
                body,
            } = self;
            let idempotency_key = idempotency_key.map_err(Error::InvalidRequest)?;
            let body = body
                .and_then(|v| types::EmailRequest::try_from(v).map_err(|e| e.to_string()))
                .map_err(Error::InvalidRequest)?;
            let url = format!("{}/api/v1/auth/send-email-confirmation", client.baseurl,);
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(2usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            if let Some(value) = idempotency_key {
                header_map.append("Idempotency-Key", value.to_string().try_into()?);
            }
            #[allow(unused_mut)]
            let mut request = client
                .client
                .post(url)
                .json(&body)
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "send_email_confirmation",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                202u16 => Ok(ResponseValue::empty(response)),
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                409u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                413u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                415u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                422u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                429u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::list_sessions`]

    [`Client::list_sessions`]: super::Client::list_sessions*/
    #[derive(Debug, Clone)]
    pub struct ListSessions<'a> {
        client: &'a super::Client,
    }
    impl<'a> ListSessions<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self { client: client }
        }
        ///Sends a `GET` request to `/api/v1/auth/sessions`
        pub async fn send(
            self,
        ) -> Result<ResponseValue<::std::vec::Vec<types::SessionView>>, Error<ByteStream>> {
            let Self { client } = self;
            let url = format!("{}/api/v1/auth/sessions", client.baseurl,);
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client
                .client
                .get(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "list_sessions",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                200u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::revoke_session`]

    [`Client::revoke_session`]: super::Client::revoke_session*/
    #[derive(Debug, Clone)]
    pub struct RevokeSession<'a> {
        client: &'a super::Client,
        id: Result<types::RevokeSessionId, String>,
    }
    impl<'a> RevokeSession<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                id: Err("id was not initialized".to_string()),
            }
        }
        pub fn id<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::RevokeSessionId>,
        {
            self.id = value
                .try_into()
                .map_err(|_| "conversion to `RevokeSessionId` for id failed".to_string());
            self
        }
        ///Sends a `POST` request to `/api/v1/auth/sessions/{id}/revoke`
        pub async fn send(self) -> Result<ResponseValue<()>, Error<ByteStream>> {
            let Self { client, id } = self;
            let id = id.map_err(Error::InvalidRequest)?;
            let url = format!(
                "{}/api/v1/auth/sessions/{}/revoke",
                client.baseurl,
                encode_path(&id.to_string()),
            );
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client.client.post(url).headers(header_map).build()?;
            let info = OperationInfo {
                operation_id: "revoke_session",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                204u16 => Ok(ResponseValue::empty(response)),
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::accept_legal_document`]

    [`Client::accept_legal_document`]: super::Client::accept_legal_document*/
    #[derive(Debug, Clone)]
    pub struct AcceptLegalDocument<'a> {
        client: &'a super::Client,
        idempotency_key: Result<Option<types::AcceptLegalDocumentIdempotencyKey>, String>,
        body: Result<types::builder::AcceptanceInput, String>,
    }
    impl<'a> AcceptLegalDocument<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                idempotency_key: Ok(None),
                body: Ok(::std::default::Default::default()),
            }
        }
        pub fn idempotency_key<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::AcceptLegalDocumentIdempotencyKey>,
        {
            self.idempotency_key = value.try_into().map(Some).map_err(|_| {
                "conversion to `AcceptLegalDocumentIdempotencyKey` for idempotency_key failed"
                    .to_string()
            });
            self
        }
        pub fn body<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::AcceptanceInput>,
            <V as std::convert::TryInto<types::AcceptanceInput>>::Error: std::fmt::Display,
        {
            self.body = value
                .try_into()
                .map(From::from)
                .map_err(|s| format!("conversion to `AcceptanceInput` for body failed: {}", s));
            self
        }
        pub fn body_map<F>(mut self, f: F) -> Self
        where
            F: std::ops::FnOnce(types::builder::AcceptanceInput) -> types::builder::AcceptanceInput,
        {
            self.body = self.body.map(f);
            self
        }
        ///Sends a `POST` request to `/api/v1/legal/acceptances`
        pub async fn send(self) -> Result<ResponseValue<types::Acceptance>, Error<ByteStream>> {
            let Self {
                client,
                idempotency_key,
                body,
            } = self;
            let idempotency_key = idempotency_key.map_err(Error::InvalidRequest)?;
            let body = body
                .and_then(|v| types::AcceptanceInput::try_from(v).map_err(|e| e.to_string()))
                .map_err(Error::InvalidRequest)?;
            let url = format!("{}/api/v1/legal/acceptances", client.baseurl,);
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(2usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            if let Some(value) = idempotency_key {
                header_map.append("Idempotency-Key", value.to_string().try_into()?);
            }
            #[allow(unused_mut)]
            let mut request = client
                .client
                .post(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .json(&body)
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "accept_legal_document",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                200u16 => ResponseValue::from_response(response).await,
                201u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                409u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                413u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                415u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                422u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::get_my_legal_acceptances`]

    [`Client::get_my_legal_acceptances`]: super::Client::get_my_legal_acceptances*/
    #[derive(Debug, Clone)]
    pub struct GetMyLegalAcceptances<'a> {
        client: &'a super::Client,
    }
    impl<'a> GetMyLegalAcceptances<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self { client: client }
        }
        ///Sends a `GET` request to `/api/v1/legal/acceptances/me`
        pub async fn send(self) -> Result<ResponseValue<types::MyAcceptances>, Error<ByteStream>> {
            let Self { client } = self;
            let url = format!("{}/api/v1/legal/acceptances/me", client.baseurl,);
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client
                .client
                .get(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "get_my_legal_acceptances",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                200u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::list_legal_documents`]

    [`Client::list_legal_documents`]: super::Client::list_legal_documents*/
    #[derive(Debug, Clone)]
    pub struct ListLegalDocuments<'a> {
        client: &'a super::Client,
        page: Result<Option<::std::num::NonZeroU32>, String>,
        per_page: Result<Option<::std::num::NonZeroU32>, String>,
    }
    impl<'a> ListLegalDocuments<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                page: Ok(None),
                per_page: Ok(None),
            }
        }
        pub fn page<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<::std::num::NonZeroU32>,
        {
            self.page = value.try_into().map(Some).map_err(|_| {
                "conversion to `:: std :: num :: NonZeroU32` for page failed".to_string()
            });
            self
        }
        pub fn per_page<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<::std::num::NonZeroU32>,
        {
            self.per_page = value.try_into().map(Some).map_err(|_| {
                "conversion to `:: std :: num :: NonZeroU32` for per_page failed".to_string()
            });
            self
        }
        ///Sends a `GET` request to `/api/v1/legal/documents`
        pub async fn send(
            self,
        ) -> Result<ResponseValue<types::PageDocumentVersion>, Error<ByteStream>> {
            let Self {
                client,
                page,
                per_page,
            } = self;
            let page = page.map_err(Error::InvalidRequest)?;
            let per_page = per_page.map_err(Error::InvalidRequest)?;
            let url = format!("{}/api/v1/legal/documents", client.baseurl,);
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client
                .client
                .get(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .query(&progenitor_client::QueryParam::new("page", &page))
                .query(&progenitor_client::QueryParam::new("perPage", &per_page))
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "list_legal_documents",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                200u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::publish_legal_document_version`]

    [`Client::publish_legal_document_version`]: super::Client::publish_legal_document_version*/
    #[derive(Debug, Clone)]
    pub struct PublishLegalDocumentVersion<'a> {
        client: &'a super::Client,
        kind: Result<types::PublishLegalDocumentVersionKind, String>,
        idempotency_key: Result<Option<types::PublishLegalDocumentVersionIdempotencyKey>, String>,
        body: Result<types::builder::PublishVersionInput, String>,
    }
    impl<'a> PublishLegalDocumentVersion<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                kind: Err("kind was not initialized".to_string()),
                idempotency_key: Ok(None),
                body: Ok(::std::default::Default::default()),
            }
        }
        pub fn kind<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::PublishLegalDocumentVersionKind>,
        {
            self.kind = value.try_into().map_err(|_| {
                "conversion to `PublishLegalDocumentVersionKind` for kind failed".to_string()
            });
            self
        }
        pub fn idempotency_key<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::PublishLegalDocumentVersionIdempotencyKey>,
        {
            self.idempotency_key = value
                .try_into()
                .map(Some)
                .map_err(|_| {
                    "conversion to `PublishLegalDocumentVersionIdempotencyKey` for idempotency_key failed"
                        .to_string()
                });
            self
        }
        pub fn body<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::PublishVersionInput>,
            <V as std::convert::TryInto<types::PublishVersionInput>>::Error: std::fmt::Display,
        {
            self.body = value
                .try_into()
                .map(From::from)
                .map_err(|s| format!("conversion to `PublishVersionInput` for body failed: {}", s));
            self
        }
        pub fn body_map<F>(mut self, f: F) -> Self
        where
            F: std::ops::FnOnce(
                    types::builder::PublishVersionInput,
                ) -> types::builder::PublishVersionInput,
        {
            self.body = self.body.map(f);
            self
        }
        ///Sends a `POST` request to `/api/v1/legal/documents/{kind}/versions`
        pub async fn send(
            self,
        ) -> Result<ResponseValue<types::DocumentVersion>, Error<ByteStream>> {
            let Self {
                client,
                kind,
                idempotency_key,
                body,
            } = self;
            let kind = kind.map_err(Error::InvalidRequest)?;
            let idempotency_key = idempotency_key.map_err(Error::InvalidRequest)?;
            let body = body
                .and_then(|v| types::PublishVersionInput::try_from(v).map_err(|e| e.to_string()))
                .map_err(Error::InvalidRequest)?;
            let url = format!(
                "{}/api/v1/legal/documents/{}/versions",
                client.baseurl,
                encode_path(&kind.to_string()),
            );
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(2usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            if let Some(value) = idempotency_key {
                header_map.append("Idempotency-Key", value.to_string().try_into()?);
            }
            #[allow(unused_mut)]
            let mut request = client
                .client
                .post(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .json(&body)
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "publish_legal_document_version",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                201u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                409u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                413u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                415u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                422u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::get_legal_document_version`]

    [`Client::get_legal_document_version`]: super::Client::get_legal_document_version*/
    #[derive(Debug, Clone)]
    pub struct GetLegalDocumentVersion<'a> {
        client: &'a super::Client,
        kind: Result<types::GetLegalDocumentVersionKind, String>,
        version: Result<::std::num::NonZeroU32, String>,
    }
    impl<'a> GetLegalDocumentVersion<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                kind: Err("kind was not initialized".to_string()),
                version: Err("version was not initialized".to_string()),
            }
        }
        pub fn kind<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::GetLegalDocumentVersionKind>,
        {
            self.kind = value.try_into().map_err(|_| {
                "conversion to `GetLegalDocumentVersionKind` for kind failed".to_string()
            });
            self
        }
        pub fn version<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<::std::num::NonZeroU32>,
        {
            self.version = value.try_into().map_err(|_| {
                "conversion to `:: std :: num :: NonZeroU32` for version failed".to_string()
            });
            self
        }
        ///Sends a `GET` request to `/api/v1/legal/documents/{kind}/versions/{version}`
        pub async fn send(
            self,
        ) -> Result<ResponseValue<types::DocumentVersion>, Error<ByteStream>> {
            let Self {
                client,
                kind,
                version,
            } = self;
            let kind = kind.map_err(Error::InvalidRequest)?;
            let version = version.map_err(Error::InvalidRequest)?;
            let url = format!(
                "{}/api/v1/legal/documents/{}/versions/{}",
                client.baseurl,
                encode_path(&kind.to_string()),
                encode_path(&version.to_string()),
            );
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client
                .client
                .get(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "get_legal_document_version",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                200u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::list_notifications`]

    [`Client::list_notifications`]: super::Client::list_notifications*/
    #[derive(Debug, Clone)]
    pub struct ListNotifications<'a> {
        client: &'a super::Client,
        page: Result<Option<::std::num::NonZeroU32>, String>,
        per_page: Result<Option<::std::num::NonZeroU32>, String>,
        unread: Result<Option<bool>, String>,
    }
    impl<'a> ListNotifications<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                page: Ok(None),
                per_page: Ok(None),
                unread: Ok(None),
            }
        }
        pub fn page<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<::std::num::NonZeroU32>,
        {
            self.page = value.try_into().map(Some).map_err(|_| {
                "conversion to `:: std :: num :: NonZeroU32` for page failed".to_string()
            });
            self
        }
        pub fn per_page<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<::std::num::NonZeroU32>,
        {
            self.per_page = value.try_into().map(Some).map_err(|_| {
                "conversion to `:: std :: num :: NonZeroU32` for per_page failed".to_string()
            });
            self
        }
        pub fn unread<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<bool>,
        {
            self.unread = value
                .try_into()
                .map(Some)
                .map_err(|_| "conversion to `bool` for unread failed".to_string());
            self
        }
        ///Sends a `GET` request to `/api/v1/notifications`
        pub async fn send(
            self,
        ) -> Result<ResponseValue<types::PageNotification>, Error<ByteStream>> {
            let Self {
                client,
                page,
                per_page,
                unread,
            } = self;
            let page = page.map_err(Error::InvalidRequest)?;
            let per_page = per_page.map_err(Error::InvalidRequest)?;
            let unread = unread.map_err(Error::InvalidRequest)?;
            let url = format!("{}/api/v1/notifications", client.baseurl,);
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client
                .client
                .get(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .query(&progenitor_client::QueryParam::new("page", &page))
                .query(&progenitor_client::QueryParam::new("perPage", &per_page))
                .query(&progenitor_client::QueryParam::new("unread", &unread))
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "list_notifications",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                200u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::send_notification`]

    [`Client::send_notification`]: super::Client::send_notification*/
    #[derive(Debug, Clone)]
    pub struct SendNotification<'a> {
        client: &'a super::Client,
        idempotency_key: Result<Option<types::SendNotificationIdempotencyKey>, String>,
        body: Result<types::builder::NewNotification, String>,
    }
    impl<'a> SendNotification<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                idempotency_key: Ok(None),
                body: Ok(::std::default::Default::default()),
            }
        }
        pub fn idempotency_key<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::SendNotificationIdempotencyKey>,
        {
            self.idempotency_key = value.try_into().map(Some).map_err(|_| {
                "conversion to `SendNotificationIdempotencyKey` for idempotency_key failed"
                    .to_string()
            });
            self
        }
        pub fn body<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::NewNotification>,
            <V as std::convert::TryInto<types::NewNotification>>::Error: std::fmt::Display,
        {
            self.body = value
                .try_into()
                .map(From::from)
                .map_err(|s| format!("conversion to `NewNotification` for body failed: {}", s));
            self
        }
        pub fn body_map<F>(mut self, f: F) -> Self
        where
            F: std::ops::FnOnce(types::builder::NewNotification) -> types::builder::NewNotification,
        {
            self.body = self.body.map(f);
            self
        }
        ///Sends a `POST` request to `/api/v1/notifications`
        pub async fn send(self) -> Result<ResponseValue<types::Notification>, Error<ByteStream>> {
            let Self {
                client,
                idempotency_key,
                body,
            } = self;
            let idempotency_key = idempotency_key.map_err(Error::InvalidRequest)?;
            let body = body
                .and_then(|v| types::NewNotification::try_from(v).map_err(|e| e.to_string()))
                .map_err(Error::InvalidRequest)?;
            let url = format!("{}/api/v1/notifications", client.baseurl,);
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(2usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            if let Some(value) = idempotency_key {
                header_map.append("Idempotency-Key", value.to_string().try_into()?);
            }
            #[allow(unused_mut)]
            let mut request = client
                .client
                .post(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .json(&body)
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "send_notification",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                201u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                409u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                413u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                415u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                422u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::mark_all_notifications_read`]

    [`Client::mark_all_notifications_read`]: super::Client::mark_all_notifications_read*/
    #[derive(Debug, Clone)]
    pub struct MarkAllNotificationsRead<'a> {
        client: &'a super::Client,
    }
    impl<'a> MarkAllNotificationsRead<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self { client: client }
        }
        ///Sends a `POST` request to `/api/v1/notifications/read-all`
        pub async fn send(self) -> Result<ResponseValue<types::MarkedRead>, Error<ByteStream>> {
            let Self { client } = self;
            let url = format!("{}/api/v1/notifications/read-all", client.baseurl,);
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client
                .client
                .post(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "mark_all_notifications_read",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                200u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::stream_notifications`]

    [`Client::stream_notifications`]: super::Client::stream_notifications*/
    #[derive(Debug, Clone)]
    pub struct StreamNotifications<'a> {
        client: &'a super::Client,
    }
    impl<'a> StreamNotifications<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self { client: client }
        }
        ///Sends a `GET` request to `/api/v1/notifications/stream`
        pub async fn send(self) -> Result<ResponseValue<ByteStream>, Error<ByteStream>> {
            let Self { client } = self;
            let url = format!("{}/api/v1/notifications/stream", client.baseurl,);
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client.client.get(url).headers(header_map).build()?;
            let info = OperationInfo {
                operation_id: "stream_notifications",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                200u16 => Ok(ResponseValue::stream(response)),
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::count_unread_notifications`]

    [`Client::count_unread_notifications`]: super::Client::count_unread_notifications*/
    #[derive(Debug, Clone)]
    pub struct CountUnreadNotifications<'a> {
        client: &'a super::Client,
    }
    impl<'a> CountUnreadNotifications<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self { client: client }
        }
        ///Sends a `GET` request to `/api/v1/notifications/unread-count`
        pub async fn send(self) -> Result<ResponseValue<types::UnreadCount>, Error<ByteStream>> {
            let Self { client } = self;
            let url = format!("{}/api/v1/notifications/unread-count", client.baseurl,);
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client
                .client
                .get(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "count_unread_notifications",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                200u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::get_notification`]

    [`Client::get_notification`]: super::Client::get_notification*/
    #[derive(Debug, Clone)]
    pub struct GetNotification<'a> {
        client: &'a super::Client,
        id: Result<types::GetNotificationId, String>,
    }
    impl<'a> GetNotification<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                id: Err("id was not initialized".to_string()),
            }
        }
        pub fn id<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::GetNotificationId>,
        {
            self.id = value
                .try_into()
                .map_err(|_| "conversion to `GetNotificationId` for id failed".to_string());
            self
        }
        ///Sends a `GET` request to `/api/v1/notifications/{id}`
        pub async fn send(self) -> Result<ResponseValue<types::Notification>, Error<ByteStream>> {
            let Self { client, id } = self;
            let id = id.map_err(Error::InvalidRequest)?;
            let url = format!(
                "{}/api/v1/notifications/{}",
                client.baseurl,
                encode_path(&id.to_string()),
            );
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client
                .client
                .get(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "get_notification",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                200u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::delete_notification`]

    [`Client::delete_notification`]: super::Client::delete_notification*/
    #[derive(Debug, Clone)]
    pub struct DeleteNotification<'a> {
        client: &'a super::Client,
        id: Result<types::DeleteNotificationId, String>,
        idempotency_key: Result<Option<types::DeleteNotificationIdempotencyKey>, String>,
    }
    impl<'a> DeleteNotification<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                id: Err("id was not initialized".to_string()),
                idempotency_key: Ok(None),
            }
        }
        pub fn id<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::DeleteNotificationId>,
        {
            self.id = value
                .try_into()
                .map_err(|_| "conversion to `DeleteNotificationId` for id failed".to_string());
            self
        }
        pub fn idempotency_key<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::DeleteNotificationIdempotencyKey>,
        {
            self.idempotency_key = value.try_into().map(Some).map_err(|_| {
                "conversion to `DeleteNotificationIdempotencyKey` for idempotency_key failed"
                    .to_string()
            });
            self
        }
        ///Sends a `DELETE` request to `/api/v1/notifications/{id}`
        pub async fn send(self) -> Result<ResponseValue<()>, Error<ByteStream>> {
            let Self {
                client,
                id,
                idempotency_key,
            } = self;
            let id = id.map_err(Error::InvalidRequest)?;
            let idempotency_key = idempotency_key.map_err(Error::InvalidRequest)?;
            let url = format!(
                "{}/api/v1/notifications/{}",
                client.baseurl,
                encode_path(&id.to_string()),
            );
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(2usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            if let Some(value) = idempotency_key {
                header_map.append("Idempotency-Key", value.to_string().try_into()?);
            }
            #[allow(unused_mut)]
            let mut request = client.client.delete(url).headers(header_map).build()?;
            let info = OperationInfo {
                operation_id: "delete_notification",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                204u16 => Ok(ResponseValue::empty(response)),
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                409u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                422u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::mark_notification_read`]

    [`Client::mark_notification_read`]: super::Client::mark_notification_read*/
    #[derive(Debug, Clone)]
    pub struct MarkNotificationRead<'a> {
        client: &'a super::Client,
        id: Result<types::MarkNotificationReadId, String>,
    }
    impl<'a> MarkNotificationRead<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                id: Err("id was not initialized".to_string()),
            }
        }
        pub fn id<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::MarkNotificationReadId>,
        {
            self.id = value
                .try_into()
                .map_err(|_| "conversion to `MarkNotificationReadId` for id failed".to_string());
            self
        }
        ///Sends a `POST` request to `/api/v1/notifications/{id}/read`
        pub async fn send(self) -> Result<ResponseValue<()>, Error<ByteStream>> {
            let Self { client, id } = self;
            let id = id.map_err(Error::InvalidRequest)?;
            let url = format!(
                "{}/api/v1/notifications/{}/read",
                client.baseurl,
                encode_path(&id.to_string()),
            );
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client.client.post(url).headers(header_map).build()?;
            let info = OperationInfo {
                operation_id: "mark_notification_read",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                204u16 => Ok(ResponseValue::empty(response)),
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::list_things`]

    [`Client::list_things`]: super::Client::list_things*/
    #[derive(Debug, Clone)]
    pub struct ListThings<'a> {
        client: &'a super::Client,
        name_contains: Result<Option<types::ListThingsNameContains>, String>,
        page: Result<Option<::std::num::NonZeroU32>, String>,
        per_page: Result<Option<::std::num::NonZeroU32>, String>,
        sort: Result<Option<types::ListThingsSort>, String>,
    }
    impl<'a> ListThings<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                name_contains: Ok(None),
                page: Ok(None),
                per_page: Ok(None),
                sort: Ok(None),
            }
        }
        pub fn name_contains<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::ListThingsNameContains>,
        {
            self.name_contains = value.try_into().map(Some).map_err(|_| {
                "conversion to `ListThingsNameContains` for name_contains failed".to_string()
            });
            self
        }
        pub fn page<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<::std::num::NonZeroU32>,
        {
            self.page = value.try_into().map(Some).map_err(|_| {
                "conversion to `:: std :: num :: NonZeroU32` for page failed".to_string()
            });
            self
        }
        pub fn per_page<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<::std::num::NonZeroU32>,
        {
            self.per_page = value.try_into().map(Some).map_err(|_| {
                "conversion to `:: std :: num :: NonZeroU32` for per_page failed".to_string()
            });
            self
        }
        pub fn sort<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::ListThingsSort>,
        {
            self.sort = value
                .try_into()
                .map(Some)
                .map_err(|_| "conversion to `ListThingsSort` for sort failed".to_string());
            self
        }
        ///Sends a `GET` request to `/api/v1/things`
        pub async fn send(self) -> Result<ResponseValue<types::PageThing>, Error<ByteStream>> {
            let Self {
                client,
                name_contains,
                page,
                per_page,
                sort,
            } = self;
            let name_contains = name_contains.map_err(Error::InvalidRequest)?;
            let page = page.map_err(Error::InvalidRequest)?;
            let per_page = per_page.map_err(Error::InvalidRequest)?;
            let sort = sort.map_err(Error::InvalidRequest)?;
            let url = format!("{}/api/v1/things", client.baseurl,);
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client
                .client
                .get(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .query(&progenitor_client::QueryParam::new(
                    "nameContains",
                    &name_contains,
                ))
                .query(&progenitor_client::QueryParam::new("page", &page))
                .query(&progenitor_client::QueryParam::new("perPage", &per_page))
                .query(&progenitor_client::QueryParam::new("sort", &sort))
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "list_things",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                200u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::create_thing`]

    [`Client::create_thing`]: super::Client::create_thing*/
    #[derive(Debug, Clone)]
    pub struct CreateThing<'a> {
        client: &'a super::Client,
        idempotency_key: Result<Option<types::CreateThingIdempotencyKey>, String>,
        body: Result<types::builder::ThingInput, String>,
    }
    impl<'a> CreateThing<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                idempotency_key: Ok(None),
                body: Ok(::std::default::Default::default()),
            }
        }
        pub fn idempotency_key<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::CreateThingIdempotencyKey>,
        {
            self.idempotency_key = value.try_into().map(Some).map_err(|_| {
                "conversion to `CreateThingIdempotencyKey` for idempotency_key failed".to_string()
            });
            self
        }
        pub fn body<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::ThingInput>,
            <V as std::convert::TryInto<types::ThingInput>>::Error: std::fmt::Display,
        {
            self.body = value
                .try_into()
                .map(From::from)
                .map_err(|s| format!("conversion to `ThingInput` for body failed: {}", s));
            self
        }
        pub fn body_map<F>(mut self, f: F) -> Self
        where
            F: std::ops::FnOnce(types::builder::ThingInput) -> types::builder::ThingInput,
        {
            self.body = self.body.map(f);
            self
        }
        ///Sends a `POST` request to `/api/v1/things`
        pub async fn send(self) -> Result<ResponseValue<types::Thing>, Error<ByteStream>> {
            let Self {
                client,
                idempotency_key,
                body,
            } = self;
            let idempotency_key = idempotency_key.map_err(Error::InvalidRequest)?;
            let body = body
                .and_then(|v| types::ThingInput::try_from(v).map_err(|e| e.to_string()))
                .map_err(Error::InvalidRequest)?;
            let url = format!("{}/api/v1/things", client.baseurl,);
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(2usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            if let Some(value) = idempotency_key {
                header_map.append("Idempotency-Key", value.to_string().try_into()?);
            }
            #[allow(unused_mut)]
            let mut request = client
                .client
                .post(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .json(&body)
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "create_thing",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                201u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                409u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                413u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                415u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                422u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::get_thing`]

    [`Client::get_thing`]: super::Client::get_thing*/
    #[derive(Debug, Clone)]
    pub struct GetThing<'a> {
        client: &'a super::Client,
        id: Result<types::GetThingId, String>,
        if_none_match: Result<Option<types::GetThingIfNoneMatch>, String>,
    }
    impl<'a> GetThing<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                id: Err("id was not initialized".to_string()),
                if_none_match: Ok(None),
            }
        }
        pub fn id<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::GetThingId>,
        {
            self.id = value
                .try_into()
                .map_err(|_| "conversion to `GetThingId` for id failed".to_string());
            self
        }
        pub fn if_none_match<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::GetThingIfNoneMatch>,
        {
            self.if_none_match = value.try_into().map(Some).map_err(|_| {
                "conversion to `GetThingIfNoneMatch` for if_none_match failed".to_string()
            });
            self
        }
        ///Sends a `GET` request to `/api/v1/things/{id}`
        pub async fn send(self) -> Result<ResponseValue<types::Thing>, Error<ByteStream>> {
            let Self {
                client,
                id,
                if_none_match,
            } = self;
            let id = id.map_err(Error::InvalidRequest)?;
            let if_none_match = if_none_match.map_err(Error::InvalidRequest)?;
            let url = format!(
                "{}/api/v1/things/{}",
                client.baseurl,
                encode_path(&id.to_string()),
            );
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(2usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            if let Some(value) = if_none_match {
                header_map.append("If-None-Match", value.to_string().try_into()?);
            }
            #[allow(unused_mut)]
            let mut request = client
                .client
                .get(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "get_thing",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                200u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::update_thing`]

    [`Client::update_thing`]: super::Client::update_thing*/
    #[derive(Debug, Clone)]
    pub struct UpdateThing<'a> {
        client: &'a super::Client,
        id: Result<types::UpdateThingId, String>,
        idempotency_key: Result<Option<types::UpdateThingIdempotencyKey>, String>,
        if_match: Result<types::UpdateThingIfMatch, String>,
        body: Result<types::builder::ThingInput, String>,
    }
    impl<'a> UpdateThing<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                id: Err("id was not initialized".to_string()),
                idempotency_key: Ok(None),
                if_match: Err("if_match was not initialized".to_string()),
                body: Ok(::std::default::Default::default()),
            }
        }
        pub fn id<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::UpdateThingId>,
        {
            self.id = value
                .try_into()
                .map_err(|_| "conversion to `UpdateThingId` for id failed".to_string());
            self
        }
        pub fn idempotency_key<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::UpdateThingIdempotencyKey>,
        {
            self.idempotency_key = value.try_into().map(Some).map_err(|_| {
                "conversion to `UpdateThingIdempotencyKey` for idempotency_key failed".to_string()
            });
            self
        }
        pub fn if_match<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::UpdateThingIfMatch>,
        {
            self.if_match = value
                .try_into()
                .map_err(|_| "conversion to `UpdateThingIfMatch` for if_match failed".to_string());
            self
        }
        pub fn body<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::ThingInput>,
            <V as std::convert::TryInto<types::ThingInput>>::Error: std::fmt::Display,
        {
            self.body = value
                .try_into()
                .map(From::from)
                .map_err(|s| format!("conversion to `ThingInput` for body failed: {}", s));
            self
        }
        pub fn body_map<F>(mut self, f: F) -> Self
        where
            F: std::ops::FnOnce(types::builder::ThingInput) -> types::builder::ThingInput,
        {
            self.body = self.body.map(f);
            self
        }
        ///Sends a `PUT` request to `/api/v1/things/{id}`
        pub async fn send(self) -> Result<ResponseValue<types::Thing>, Error<ByteStream>> {
            let Self {
                client,
                id,
                idempotency_key,
                if_match,
                body,
            } = self;
            let id = id.map_err(Error::InvalidRequest)?;
            let idempotency_key = idempotency_key.map_err(Error::InvalidRequest)?;
            let if_match = if_match.map_err(Error::InvalidRequest)?;
            let body = body
                .and_then(|v| types::ThingInput::try_from(v).map_err(|e| e.to_string()))
                .map_err(Error::InvalidRequest)?;
            let url = format!(
                "{}/api/v1/things/{}",
                client.baseurl,
                encode_path(&id.to_string()),
            );
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(3usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            if let Some(value) = idempotency_key {
                header_map.append("Idempotency-Key", value.to_string().try_into()?);
            }
            header_map.append("If-Match", if_match.to_string().try_into()?);
            #[allow(unused_mut)]
            let mut request = client
                .client
                .put(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .json(&body)
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "update_thing",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                200u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                409u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                412u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                413u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                415u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                422u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                428u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::delete_thing`]

    [`Client::delete_thing`]: super::Client::delete_thing*/
    #[derive(Debug, Clone)]
    pub struct DeleteThing<'a> {
        client: &'a super::Client,
        id: Result<types::DeleteThingId, String>,
        idempotency_key: Result<Option<types::DeleteThingIdempotencyKey>, String>,
        if_match: Result<types::DeleteThingIfMatch, String>,
    }
    impl<'a> DeleteThing<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                id: Err("id was not initialized".to_string()),
                idempotency_key: Ok(None),
                if_match: Err("if_match was not initialized".to_string()),
            }
        }
        pub fn id<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::DeleteThingId>,
        {
            self.id = value
                .try_into()
                .map_err(|_| "conversion to `DeleteThingId` for id failed".to_string());
            self
        }
        pub fn idempotency_key<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::DeleteThingIdempotencyKey>,
        {
            self.idempotency_key = value.try_into().map(Some).map_err(|_| {
                "conversion to `DeleteThingIdempotencyKey` for idempotency_key failed".to_string()
            });
            self
        }
        pub fn if_match<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::DeleteThingIfMatch>,
        {
            self.if_match = value
                .try_into()
                .map_err(|_| "conversion to `DeleteThingIfMatch` for if_match failed".to_string());
            self
        }
        ///Sends a `DELETE` request to `/api/v1/things/{id}`
        pub async fn send(self) -> Result<ResponseValue<()>, Error<ByteStream>> {
            let Self {
                client,
                id,
                idempotency_key,
                if_match,
            } = self;
            let id = id.map_err(Error::InvalidRequest)?;
            let idempotency_key = idempotency_key.map_err(Error::InvalidRequest)?;
            let if_match = if_match.map_err(Error::InvalidRequest)?;
            let url = format!(
                "{}/api/v1/things/{}",
                client.baseurl,
                encode_path(&id.to_string()),
            );
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(3usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            if let Some(value) = idempotency_key {
                header_map.append("Idempotency-Key", value.to_string().try_into()?);
            }
            header_map.append("If-Match", if_match.to_string().try_into()?);
            #[allow(unused_mut)]
            let mut request = client.client.delete(url).headers(header_map).build()?;
            let info = OperationInfo {
                operation_id: "delete_thing",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                204u16 => Ok(ResponseValue::empty(response)),
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                409u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                412u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                422u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                428u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::patch_thing`]

    [`Client::patch_thing`]: super::Client::patch_thing*/
    #[derive(Debug, Clone)]
    pub struct PatchThing<'a> {
        client: &'a super::Client,
        id: Result<types::PatchThingId, String>,
        idempotency_key: Result<Option<types::PatchThingIdempotencyKey>, String>,
        if_match: Result<types::PatchThingIfMatch, String>,
        body: Result<types::builder::ThingPatch, String>,
    }
    impl<'a> PatchThing<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self {
                client: client,
                id: Err("id was not initialized".to_string()),
                idempotency_key: Ok(None),
                if_match: Err("if_match was not initialized".to_string()),
                body: Ok(::std::default::Default::default()),
            }
        }
        pub fn id<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::PatchThingId>,
        {
            self.id = value
                .try_into()
                .map_err(|_| "conversion to `PatchThingId` for id failed".to_string());
            self
        }
        pub fn idempotency_key<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::PatchThingIdempotencyKey>,
        {
            self.idempotency_key = value.try_into().map(Some).map_err(|_| {
                "conversion to `PatchThingIdempotencyKey` for idempotency_key failed".to_string()
            });
            self
        }
        pub fn if_match<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::PatchThingIfMatch>,
        {
            self.if_match = value
                .try_into()
                .map_err(|_| "conversion to `PatchThingIfMatch` for if_match failed".to_string());
            self
        }
        pub fn body<V>(mut self, value: V) -> Self
        where
            V: std::convert::TryInto<types::ThingPatch>,
            <V as std::convert::TryInto<types::ThingPatch>>::Error: std::fmt::Display,
        {
            self.body = value
                .try_into()
                .map(From::from)
                .map_err(|s| format!("conversion to `ThingPatch` for body failed: {}", s));
            self
        }
        pub fn body_map<F>(mut self, f: F) -> Self
        where
            F: std::ops::FnOnce(types::builder::ThingPatch) -> types::builder::ThingPatch,
        {
            self.body = self.body.map(f);
            self
        }
        ///Sends a `PATCH` request to `/api/v1/things/{id}`
        pub async fn send(self) -> Result<ResponseValue<types::Thing>, Error<ByteStream>> {
            let Self {
                client,
                id,
                idempotency_key,
                if_match,
                body,
            } = self;
            let id = id.map_err(Error::InvalidRequest)?;
            let idempotency_key = idempotency_key.map_err(Error::InvalidRequest)?;
            let if_match = if_match.map_err(Error::InvalidRequest)?;
            let body = body
                .and_then(|v| types::ThingPatch::try_from(v).map_err(|e| e.to_string()))
                .map_err(Error::InvalidRequest)?;
            let url = format!(
                "{}/api/v1/things/{}",
                client.baseurl,
                encode_path(&id.to_string()),
            );
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(3usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            if let Some(value) = idempotency_key {
                header_map.append("Idempotency-Key", value.to_string().try_into()?);
            }
            header_map.append("If-Match", if_match.to_string().try_into()?);
            #[allow(unused_mut)]
            let mut request = client
                .client
                .patch(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .json(&body)
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "patch_thing",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                200u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                409u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                412u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                413u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                415u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                422u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                428u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::health_live`]

    [`Client::health_live`]: super::Client::health_live*/
    #[derive(Debug, Clone)]
    pub struct HealthLive<'a> {
        client: &'a super::Client,
    }
    impl<'a> HealthLive<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self { client: client }
        }
        ///Sends a `GET` request to `/health/live`
        pub async fn send(self) -> Result<ResponseValue<types::HealthReport>, Error<ByteStream>> {
            let Self { client } = self;
            let url = format!("{}/health/live", client.baseurl,);
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client
                .client
                .get(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "health_live",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                200u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
    /**Builder for [`Client::health_ready`]

    [`Client::health_ready`]: super::Client::health_ready*/
    #[derive(Debug, Clone)]
    pub struct HealthReady<'a> {
        client: &'a super::Client,
    }
    impl<'a> HealthReady<'a> {
        pub fn new(client: &'a super::Client) -> Self {
            Self { client: client }
        }
        ///Sends a `GET` request to `/health/ready`
        pub async fn send(self) -> Result<ResponseValue<types::HealthReport>, Error<ByteStream>> {
            let Self { client } = self;
            let url = format!("{}/health/ready", client.baseurl,);
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
            header_map.append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
            );
            #[allow(unused_mut)]
            let mut request = client
                .client
                .get(url)
                .header(
                    ::reqwest::header::ACCEPT,
                    ::reqwest::header::HeaderValue::from_static("application/json"),
                )
                .headers(header_map)
                .build()?;
            let info = OperationInfo {
                operation_id: "health_ready",
            };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            match response.status().as_u16() {
                200u16 => ResponseValue::from_response(response).await,
                400u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                500u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
    }
}
/// Items consumers will typically use such as the Client.
pub mod prelude {
    pub use self::super::Client;
}

/// What the document declares that progenitor does not read.
pub(crate) mod declared {
    /// Operations whose `x-idempotency.intent` is `idempotent`: keyed and retried.
    pub(crate) const IDEMPOTENT: &[&str] = &[
        "retry_mail_dead_letter",
        "confirm_email",
        "forgot_password",
        "unlink_identity",
        "complete_o_auth_link",
        "reset_password",
        "send_email_confirmation",
        "accept_legal_document",
        "publish_legal_document_version",
        "send_notification",
        "delete_notification",
        "create_thing",
        "delete_thing",
        "patch_thing",
        "update_thing",
    ];
    /// Operations whose body is `application/merge-patch+json` (generated as JSON).
    pub(crate) const MERGE_PATCH: &[&str] = &["patch_thing"];
}
