//! Who is calling: the authenticated [`Principal`], access-token keys, the one authentication
//! step ([`Authenticator`]) and what it concludes ([`Authentication`]), and the bearer scheme.
//!
//! This lives here rather than in the identity module because more than one layer needs the
//! caller: the handlers (through [`BearerAuth`]) and the idempotency layer, which scopes keys by
//! caller and must know it even on a replay, where no handler extractor runs. Both read the
//! same [`Authentication`], computed once per request.

use std::sync::Arc;

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use poem::http::{HeaderMap, header};
use poem::{Request, RequestBody};
use poem_openapi::registry::{MetaSecurityScheme, Registry};
use poem_openapi::{ApiExtractor, ApiExtractorType, ExtractParamOptions};
use serde::{Deserialize, Serialize};

use crate::error::AppError;
use crate::revocation::RevokedSessions;

/// The caller, as proven by a valid access token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    /// The user id (`sub`).
    pub subject: String,
    /// The session the token belongs to (`sid`).
    pub session_id: String,
    /// The roles the account held when the token was issued (`roles`), for a client to show.
    /// They grant nothing: a role removed or an account locked since then still shows here for
    /// the token's lifetime. A role-gated operation asks the database on each use
    /// (`infra::require_any_role`).
    pub roles: Vec<String>,
    /// When the token stops proving this (`exp`, Unix seconds): what outlives the request (an
    /// event stream) ends then.
    pub expires_at: u64,
}

/// The administrators' role: identity grants and removes it (`app grant-admin`,
/// `app revoke-admin`), every module checks it in the database when it is used.
pub const ADMIN_ROLE: &str = "admin";

/// What an administrators' operation answers anyone else (403), and what its document says.
pub const NOT_AN_ADMINISTRATOR: &str = "This operation is for administrators.";

/// What an operation that checks the caller's session in the database answers when the session
/// is over (401): logged out, revoked, expired, outdated by a password change, or its account
/// locked or gone.
pub const SESSION_NO_LONGER_VALID: &str = "The session is no longer valid: log in again.";

/// How such an operation's document describes that 401.
pub const SESSION_ENDED: &str = "The access token's session has ended (logged out, revoked, or \
                                 the account locked): log in again.";

/// The claims of an access token.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AccessTokenClaims {
    pub sub: String,
    pub sid: String,
    #[serde(default)]
    pub roles: Vec<String>,
    pub iss: String,
    pub aud: String,
    pub iat: u64,
    pub exp: u64,
}

/// Why a token was refused. Deliberately coarse: clients learn only that it is not valid.
#[derive(Debug, thiserror::Error)]
#[error("invalid access token")]
pub struct InvalidToken;

/// The keys and rules for issuing and verifying access tokens.
pub struct AccessTokenKeys {
    algorithm: Algorithm,
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    issuer: String,
    audience: String,
}

impl std::fmt::Debug for AccessTokenKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Keys are secrets: never printed.
        f.debug_struct("AccessTokenKeys")
            .field("algorithm", &self.algorithm)
            .field("issuer", &self.issuer)
            .field("audience", &self.audience)
            .finish_non_exhaustive()
    }
}

impl AccessTokenKeys {
    /// HS256 with a shared secret.
    pub fn hs256(
        secret: &[u8],
        issuer: &str,
        audience: &str,
    ) -> Result<Self, jsonwebtoken::errors::Error> {
        Ok(Self::with_keys(
            Algorithm::HS256,
            EncodingKey::from_secret(secret)?,
            DecodingKey::from_secret(secret)?,
            issuer,
            audience,
        ))
    }

    /// Any algorithm with explicit keys (for example EdDSA or RS256 from PEM files).
    pub fn with_keys(
        algorithm: Algorithm,
        encoding: EncodingKey,
        decoding: DecodingKey,
        issuer: &str,
        audience: &str,
    ) -> Self {
        // Only the configured algorithm is accepted: a token naming another one (or `none`)
        // is refused before its signature is even looked at.
        let mut validation = Validation::new(algorithm);
        validation.set_issuer(&[issuer]);
        validation.set_audience(&[audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.leeway = 5;
        Self {
            algorithm,
            encoding,
            decoding,
            validation,
            issuer: issuer.to_owned(),
            audience: audience.to_owned(),
        }
    }

    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    pub fn audience(&self) -> &str {
        &self.audience
    }

    /// Signs `claims` into a compact JWT.
    pub fn sign(&self, claims: &AccessTokenClaims) -> Result<String, jsonwebtoken::errors::Error> {
        jsonwebtoken::encode(&Header::new(self.algorithm), claims, &self.encoding)
    }

    /// Checks signature, algorithm, issuer, audience and expiry, and returns the caller.
    pub fn verify(&self, token: &str) -> Result<Principal, InvalidToken> {
        let data =
            jsonwebtoken::decode::<AccessTokenClaims>(token, &self.decoding, &self.validation)
                .map_err(|_| InvalidToken)?;
        Ok(Principal {
            subject: data.claims.sub,
            session_id: data.claims.sid,
            roles: data.claims.roles,
            expires_at: data.claims.exp,
        })
    }
}

/// What the authentication step concluded about a request's credentials.
///
/// The host's authentication step (`infra::http::Authenticate`) computes it once per request,
/// before routing, and puts it in the request data. Everything after it reads this value and
/// nothing else: [`BearerAuth`] for the handlers, the idempotency guard for its key scope. One
/// parse and one verification per request means the two can never disagree about who is calling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Authentication {
    /// The request carried no `Authorization` header.
    Anonymous,
    /// A valid bearer access token: the caller is proven.
    Authenticated(Principal),
    /// Credentials were presented and refused. The request is not anonymous: it claimed an
    /// identity it could not prove, so it must never be served as someone else.
    Refused(Refusal),
}

/// Why presented credentials were refused. Logged, never told to the client beyond "invalid".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Several `Authorization` headers, or a value that is not `<scheme> <credentials>` with
    /// RFC 6750 token syntax.
    Malformed,
    /// An authentication scheme this service does not accept (anything but Bearer).
    UnsupportedScheme,
    /// A bearer token that failed verification: signature, algorithm, issuer, audience, expiry.
    InvalidToken,
    /// A valid token of a session that was revoked since it was issued: a logout, a lock, a
    /// password reset.
    RevokedSession,
}

impl Authentication {
    /// The proven caller, if any.
    pub fn principal(&self) -> Option<&Principal> {
        match self {
            Self::Authenticated(principal) => Some(principal),
            Self::Anonymous | Self::Refused(_) => None,
        }
    }

    /// The proven caller, or the 401 every secured operation answers without one.
    pub fn require_principal(&self) -> Result<&Principal, AppError> {
        self.principal().ok_or_else(|| {
            AppError::Unauthorized("The access token is missing, expired or invalid.".into())
        })
    }

    /// The outcome the authentication step put in `req`, or `None` if the host did not install
    /// the step (a wiring mistake: secured operations then refuse every request).
    pub fn of(req: &Request) -> Option<&Authentication> {
        req.data::<Authentication>()
    }
}

/// The one authentication step: parses the `Authorization` header and verifies its token.
///
/// This is the single place where credentials become a [`Principal`]: a check that must hold
/// for every authenticated request (a revoked session, a locked account) belongs in
/// [`Authenticator::authenticate`], and then holds for handlers and the idempotency guard alike.
///
/// A valid token is still refused when its session is in [`RevokedSessions`]: the set lives in
/// memory, so a normal request costs no round trip for it.
#[derive(Debug, Clone)]
pub struct Authenticator {
    tokens: Arc<AccessTokenKeys>,
    revoked: Arc<RevokedSessions>,
}

impl Authenticator {
    pub fn new(tokens: Arc<AccessTokenKeys>, revoked: Arc<RevokedSessions>) -> Self {
        Self { tokens, revoked }
    }

    /// Decides who sent a request with these headers.
    pub async fn authenticate(&self, headers: &HeaderMap) -> Authentication {
        match bearer_token(headers) {
            Ok(None) => Authentication::Anonymous,
            Ok(Some(token)) => match self.tokens.verify(token) {
                Ok(principal) if self.revoked.contains(&principal.session_id) => {
                    Authentication::Refused(Refusal::RevokedSession)
                }
                Ok(principal) => Authentication::Authenticated(principal),
                Err(InvalidToken) => Authentication::Refused(Refusal::InvalidToken),
            },
            Err(refusal) => Authentication::Refused(refusal),
        }
    }
}

/// The bearer token in `headers`: `Ok(None)` without an `Authorization` header.
///
/// The scheme is case-insensitive (RFC 9110 §11.1: `Bearer`, `bearer`, `BEARER` are one
/// scheme), separated from the token by one or more spaces (§11.4), and the token must be an
/// RFC 6750 `b64token`. Several `Authorization` headers are refused rather than picking one:
/// a proxy and a client disagreeing about the caller is not something to resolve by guessing.
pub fn bearer_token(headers: &HeaderMap) -> Result<Option<&str>, Refusal> {
    let mut values = headers.get_all(header::AUTHORIZATION).iter();
    let Some(value) = values.next() else {
        return Ok(None);
    };
    if values.next().is_some() {
        return Err(Refusal::Malformed);
    }
    let value = value.to_str().map_err(|_| Refusal::Malformed)?.trim_ascii();
    let (scheme, credentials) = value.split_once(' ').unwrap_or((value, ""));
    if !is_token(scheme) {
        return Err(Refusal::Malformed);
    }
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err(Refusal::UnsupportedScheme);
    }
    let token = credentials.trim_start_matches(' ');
    if is_b64token(token) {
        Ok(Some(token))
    } else {
        Err(Refusal::Malformed)
    }
}

/// RFC 9110 §5.6.2 `token`: what an auth scheme is made of.
fn is_token(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// RFC 6750 §2.1: `1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`.
fn is_b64token(token: &str) -> bool {
    let body = token.trim_end_matches('=');
    !body.is_empty()
        && body.bytes().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'+' | b'/')
        })
}

/// The security scheme of operations that need a caller: a bearer access token.
///
/// Declaring it as an argument makes the operation secured in the OpenAPI document and gives the
/// handler the caller; it reads the authentication step's [`Authentication`], so the header is
/// never parsed twice with two sets of rules.
pub struct BearerAuth(pub Principal);

/// The name of the scheme in the OpenAPI document.
pub const BEARER_SCHEME: &str = "BearerAuth";

impl<'a> ApiExtractor<'a> for BearerAuth {
    const TYPES: &'static [ApiExtractorType] = &[ApiExtractorType::SecurityScheme];

    type ParamType = ();
    type ParamRawType = ();

    fn register(registry: &mut Registry) {
        registry.create_security_scheme(
            BEARER_SCHEME,
            MetaSecurityScheme {
                ty: "http",
                description: Some(
                    "An access token from `POST /api/v1/auth/login` (or `/refresh`), sent as \
                     `Authorization: Bearer <token>`. Tokens live 15 minutes; refresh them \
                     before they expire.",
                ),
                name: None,
                key_in: None,
                scheme: Some("bearer"),
                bearer_format: Some("JWT"),
                flows: None,
                openid_connect_url: None,
            },
        );
    }

    fn security_schemes() -> Vec<&'static str> {
        vec![BEARER_SCHEME]
    }

    async fn from_request(
        req: &'a Request,
        _body: &mut RequestBody,
        _param_opts: ExtractParamOptions<Self::ParamType>,
    ) -> poem::Result<Self> {
        let authentication = Authentication::of(req)
            .ok_or_else(|| AppError::internal("the authentication step is not installed"))?;
        Ok(BearerAuth(authentication.require_principal()?.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claims(now: u64) -> AccessTokenClaims {
        AccessTokenClaims {
            sub: "user-1".into(),
            sid: "session-1".into(),
            roles: vec!["admin".into()],
            iss: "issuer".into(),
            aud: "audience".into(),
            iat: now,
            exp: now + 60,
        }
    }

    fn now() -> u64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs()
    }

    #[test]
    fn a_signed_token_verifies_to_its_principal() {
        let verifier =
            AccessTokenKeys::hs256(b"0123456789abcdef0123456789abcdef", "issuer", "audience")
                .unwrap();
        let token = verifier.sign(&claims(now())).unwrap();
        let principal = verifier.verify(&token).unwrap();
        assert_eq!(principal.subject, "user-1");
        assert_eq!(principal.roles, ["admin"]);
    }

    #[test]
    fn a_token_for_another_audience_or_key_is_refused() {
        let verifier =
            AccessTokenKeys::hs256(b"0123456789abcdef0123456789abcdef", "issuer", "audience")
                .unwrap();
        let other_audience =
            AccessTokenKeys::hs256(b"0123456789abcdef0123456789abcdef", "issuer", "elsewhere")
                .unwrap();
        let other_key =
            AccessTokenKeys::hs256(b"fedcba9876543210fedcba9876543210", "issuer", "audience")
                .unwrap();
        let token = verifier.sign(&claims(now())).unwrap();
        assert!(other_audience.verify(&token).is_err());
        assert!(other_key.verify(&token).is_err());
    }

    #[test]
    fn an_expired_token_is_refused() {
        let verifier =
            AccessTokenKeys::hs256(b"0123456789abcdef0123456789abcdef", "issuer", "audience")
                .unwrap();
        let token = verifier.sign(&claims(now() - 3_600)).unwrap();
        assert!(verifier.verify(&token).is_err());
    }

    fn headers(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append(header::AUTHORIZATION, value.parse().unwrap());
        }
        headers
    }

    #[test]
    fn the_bearer_scheme_is_case_insensitive() {
        for scheme in ["Bearer", "bearer", "BEARER", "BeArEr"] {
            let headers = headers(&[&format!("{scheme} abc.def-ghi_~+/==")]);
            assert_eq!(
                bearer_token(&headers),
                Ok(Some("abc.def-ghi_~+/==")),
                "{scheme}"
            );
        }
    }

    #[test]
    fn spaces_between_scheme_and_token_may_repeat() {
        assert_eq!(bearer_token(&headers(&["Bearer   tok"])), Ok(Some("tok")));
    }

    #[test]
    fn no_header_is_anonymous() {
        assert_eq!(bearer_token(&HeaderMap::new()), Ok(None));
    }

    #[test]
    fn malformed_credentials_are_refused_not_ignored() {
        for value in [
            "Bearer",
            "Bearer ",
            "Bearer a b",
            "Bearer\ttok",
            "Bearer tok,en",
            "Bearer =abc",
            "Bearer \"tok\"",
        ] {
            assert_eq!(
                bearer_token(&headers(&[value])),
                Err(Refusal::Malformed),
                "{value:?}"
            );
        }
    }

    #[test]
    fn another_scheme_is_refused() {
        assert_eq!(
            bearer_token(&headers(&["Basic dXNlcjpwYXNz"])),
            Err(Refusal::UnsupportedScheme)
        );
    }

    #[test]
    fn two_authorization_headers_are_refused() {
        assert_eq!(
            bearer_token(&headers(&["Bearer one", "Bearer two"])),
            Err(Refusal::Malformed)
        );
    }

    #[tokio::test]
    async fn the_authenticator_proves_refuses_or_leaves_anonymous() {
        let tokens = Arc::new(
            AccessTokenKeys::hs256(b"0123456789abcdef0123456789abcdef", "issuer", "audience")
                .unwrap(),
        );
        let authenticator = Authenticator::new(Arc::clone(&tokens), Arc::default());
        let token = tokens.sign(&claims(now())).unwrap();

        let proven = authenticator
            .authenticate(&headers(&[&format!("BEARER {token}")]))
            .await;
        let forged = authenticator
            .authenticate(&headers(&[&format!("Bearer {token}x")]))
            .await;
        let anonymous = authenticator.authenticate(&HeaderMap::new()).await;

        assert_eq!(proven.principal().unwrap().subject, "user-1");
        assert_eq!(forged, Authentication::Refused(Refusal::InvalidToken));
        assert!(forged.require_principal().is_err());
        assert_eq!(anonymous, Authentication::Anonymous);
    }

    #[tokio::test]
    async fn a_valid_token_of_a_revoked_session_is_refused() {
        let tokens = Arc::new(
            AccessTokenKeys::hs256(b"0123456789abcdef0123456789abcdef", "issuer", "audience")
                .unwrap(),
        );
        let revoked = Arc::new(RevokedSessions::new());
        let authenticator = Authenticator::new(Arc::clone(&tokens), Arc::clone(&revoked));
        let bearer = format!("Bearer {}", tokens.sign(&claims(now())).unwrap());
        let request = headers(&[&bearer]);
        assert!(
            authenticator
                .authenticate(&request)
                .await
                .principal()
                .is_some()
        );

        revoked.insert("session-1", crate::revocation::unix_now_ms() + 60_000);

        assert_eq!(
            authenticator.authenticate(&request).await,
            Authentication::Refused(Refusal::RevokedSession)
        );
    }
}
