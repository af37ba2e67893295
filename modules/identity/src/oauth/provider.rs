//! One OpenID Connect provider, as this service's client there: discovery (kept for
//! `oauth.metadata_ttl`), the authorization URL with `state`, `nonce` and a PKCE S256 challenge,
//! and the code exchange with ID-token validation (signature from the provider's keys, `iss`,
//! `aud`, `exp`, `nonce`), all through the `openidconnect` crate.
//!
//! What a provider sends back is never logged or answered: codes, tokens and verifiers stay in
//! this file's locals. Failures are told apart only as far as the caller needs: the provider
//! could not be reached or answered nonsense (502), it refused the code (401), or its ID token
//! did not validate (401).

use std::time::{Duration, Instant};

use kernel::{AppError, AppResult};
use openidconnect::core::{
    CoreAuthenticationFlow, CoreClient, CoreProviderMetadata, CoreUserInfoClaims,
};
use openidconnect::{
    AuthorizationCode, ClaimsVerificationError, ClientId, ClientSecret, CsrfToken, IssuerUrl,
    Nonce, OAuth2TokenResponse as _, PkceCodeChallenge, PkceCodeVerifier, RedirectUrl,
    RequestTokenError, Scope, SignatureVerificationError, TokenResponse as _, UserInfoError,
    reqwest,
};
use tokio::sync::Mutex;

use super::settings::ProviderSettings;

/// An authorization to send the browser to, and what the exchange will need, kept server-side.
pub struct AuthorizationStart {
    pub url: String,
    pub state: String,
    pub nonce: String,
    pub pkce_verifier: String,
}

/// Who the provider says signed in, from a validated ID token.
#[derive(Debug, Clone)]
pub struct VerifiedIdentity {
    pub subject: String,
    pub email: Option<String>,
    /// Only `true` when the provider asserted `email_verified: true`.
    pub email_verified: bool,
    pub name: Option<String>,
}

/// A configured provider.
pub struct OidcProvider {
    pub name: String,
    pub display_name: String,
    settings: ProviderSettings,
    issuer: IssuerUrl,
    http: reqwest::Client,
    metadata_ttl: Duration,
    /// The discovery document (with the keys), and when it was read. A mutex, not a lock for
    /// readers: concurrent first uses make one discovery, not one each.
    metadata: Mutex<Option<(Instant, CoreProviderMetadata)>>,
}

impl OidcProvider {
    pub fn new(
        name: &str,
        settings: ProviderSettings,
        http_timeout: Duration,
        metadata_ttl: Duration,
    ) -> anyhow::Result<Self> {
        let issuer = IssuerUrl::new(settings.issuer.clone())?;
        // No redirects: a provider's endpoints answer themselves (and following them would let
        // a misconfigured issuer send the client secret elsewhere).
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(http_timeout.min(Duration::from_secs(5)))
            .timeout(http_timeout)
            .build()?;
        Ok(Self {
            name: name.to_owned(),
            display_name: settings
                .display_name
                .clone()
                .unwrap_or_else(|| name.to_owned()),
            settings,
            issuer,
            http,
            metadata_ttl,
            metadata: Mutex::new(None),
        })
    }

    /// Whether the front end may have the browser come back to `uri` (an exact match).
    pub fn allows_redirect(&self, uri: &str) -> bool {
        self.settings
            .redirect_uris
            .iter()
            .any(|allowed| allowed == uri)
    }

    /// The discovery document and keys: cached, or read again when `refresh` or stale.
    async fn metadata(&self, refresh: bool) -> AppResult<CoreProviderMetadata> {
        let mut cached = self.metadata.lock().await;
        if let Some((read_at, metadata)) = cached.as_ref()
            && !refresh
            && read_at.elapsed() < self.metadata_ttl
        {
            return Ok(metadata.clone());
        }
        let metadata = CoreProviderMetadata::discover_async(self.issuer.clone(), &self.http)
            .await
            .map_err(|error| {
                tracing::warn!(provider = %self.name, error = %error, "OpenID Connect discovery failed");
                self.unreachable()
            })?;
        *cached = Some((Instant::now(), metadata.clone()));
        Ok(metadata)
    }

    fn unreachable(&self) -> AppError {
        AppError::BadGateway(format!(
            "The sign-in provider `{}` could not be reached or gave an unusable answer: try again later.",
            self.name
        ))
    }

    fn client(
        &self,
        metadata: CoreProviderMetadata,
        redirect_uri: &str,
    ) -> AppResult<
        CoreClient<
            openidconnect::EndpointSet,
            openidconnect::EndpointNotSet,
            openidconnect::EndpointNotSet,
            openidconnect::EndpointNotSet,
            openidconnect::EndpointMaybeSet,
            openidconnect::EndpointMaybeSet,
        >,
    > {
        let redirect = RedirectUrl::new(redirect_uri.to_owned())
            .map_err(|_| AppError::Invalid("`redirectUri` is not a URL.".into()))?;
        Ok(CoreClient::from_provider_metadata(
            metadata,
            ClientId::new(self.settings.client_id.clone()),
            Some(ClientSecret::new(
                self.settings.client_secret.expose().to_owned(),
            )),
        )
        .set_redirect_uri(redirect))
    }

    /// The provider's authorization URL for `redirect_uri`, with a fresh state, nonce and PKCE
    /// S256 challenge.
    pub async fn authorize(&self, redirect_uri: &str) -> AppResult<AuthorizationStart> {
        let client = self.client(self.metadata(false).await?, redirect_uri)?;
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let mut request = client
            .authorize_url(
                CoreAuthenticationFlow::AuthorizationCode,
                CsrfToken::new_random,
                Nonce::new_random,
            )
            .set_pkce_challenge(challenge);
        for scope in &self.settings.scopes {
            request = request.add_scope(Scope::new(scope.clone()));
        }
        let (url, state, nonce) = request.url();
        Ok(AuthorizationStart {
            url: url.to_string(),
            state: state.secret().clone(),
            nonce: nonce.secret().clone(),
            pkce_verifier: verifier.secret().clone(),
        })
    }

    /// Exchanges `code` (with the PKCE verifier) and validates the ID token against `nonce`.
    pub async fn exchange(
        &self,
        code: &str,
        redirect_uri: &str,
        pkce_verifier: String,
        nonce: String,
    ) -> AppResult<VerifiedIdentity> {
        let client = self.client(self.metadata(false).await?, redirect_uri)?;
        let response = client
            .exchange_code(AuthorizationCode::new(code.to_owned()))
            .map_err(|_| self.unreachable())?
            .set_pkce_verifier(PkceCodeVerifier::new(pkce_verifier))
            .request_async(&self.http)
            .await
            .map_err(|error| match error {
                RequestTokenError::ServerResponse(refusal) => {
                    tracing::info!(provider = %self.name, error = %refusal.error(), "the provider refused an authorization code");
                    AppError::Unauthorized(
                        "The provider refused the authorization code (invalid, expired or already \
                         used): sign in again."
                            .into(),
                    )
                }
                RequestTokenError::Request(_) => {
                    tracing::warn!(provider = %self.name, "the provider's token endpoint could not be reached");
                    self.unreachable()
                }
                // Neither the body nor its parse error is logged: it may hold tokens.
                RequestTokenError::Parse(..) | RequestTokenError::Other(_) => {
                    tracing::warn!(provider = %self.name, "the provider's token answer was unusable");
                    self.unreachable()
                }
            })?;
        let id_token = response.id_token().ok_or_else(|| {
            tracing::warn!(provider = %self.name, "the provider answered no ID token");
            self.unreachable()
        })?;
        let nonce = Nonce::new(nonce);
        let claims = match id_token.claims(&client.id_token_verifier(), &nonce) {
            Ok(claims) => claims.clone(),
            // Signed with a key the cached set lacks: the provider rotated its keys. Read them
            // again, once.
            Err(ClaimsVerificationError::SignatureVerification(
                SignatureVerificationError::NoMatchingKey,
            )) => {
                let client = self.client(self.metadata(true).await?, redirect_uri)?;
                id_token
                    .claims(&client.id_token_verifier(), &nonce)
                    .map_err(|error| self.invalid_id_token(&error))?
                    .clone()
            }
            Err(error) => return Err(self.invalid_id_token(&error)),
        };
        let mut identity = VerifiedIdentity {
            subject: claims.subject().as_str().to_owned(),
            email: claims.email().map(|email| email.as_str().to_owned()),
            email_verified: claims.email_verified() == Some(true),
            name: claims
                .name()
                .and_then(|name| name.get(None))
                .map(|name| name.as_str().to_owned()),
        };
        // A provider may keep the scopes' claims out of an ID token issued with an access token
        // (OpenID Connect Core 5.4): then its userinfo endpoint has them, for the same subject.
        if identity.email.is_none() && client.user_info_url().is_some() {
            let info: CoreUserInfoClaims = client
                .user_info(
                    response.access_token().clone(),
                    Some(claims.subject().clone()),
                )
                .map_err(|_| self.unreachable())?
                .request_async(&self.http)
                .await
                .map_err(|error| {
                    tracing::warn!(provider = %self.name, failure = userinfo_failure(&error), "the provider's userinfo could not be used");
                    self.unreachable()
                })?;
            identity.email = info.email().map(|email| email.as_str().to_owned());
            identity.email_verified = info.email_verified() == Some(true);
            if identity.name.is_none() {
                identity.name = info
                    .name()
                    .and_then(|name| name.get(None))
                    .map(|name| name.as_str().to_owned());
            }
        }
        Ok(identity)
    }

    /// A 401 for an ID token that did not validate; the log says which check failed, not the
    /// values it compared.
    fn invalid_id_token(&self, error: &ClaimsVerificationError) -> AppError {
        let check = match error {
            ClaimsVerificationError::Expired(_) => "exp",
            ClaimsVerificationError::InvalidAudience(_) => "aud",
            ClaimsVerificationError::InvalidIssuer(_) => "iss",
            ClaimsVerificationError::InvalidNonce(_) => "nonce",
            ClaimsVerificationError::SignatureVerification(_) => "signature",
            _ => "other",
        };
        tracing::warn!(provider = %self.name, "an ID token did not validate: its {check} check failed");
        AppError::Unauthorized(
            "The provider's ID token did not validate (signature, issuer, audience, expiry or \
             nonce): sign in again."
                .into(),
        )
    }
}

/// Which step of a userinfo request failed, for the log (never the answer's content).
fn userinfo_failure<E: std::error::Error>(error: &UserInfoError<E>) -> &'static str {
    match error {
        UserInfoError::ClaimsVerification(_) => "its claims did not verify (another subject?)",
        UserInfoError::Request(_) => "it could not be reached",
        UserInfoError::Response(..) => "it answered an error",
        _ => "its answer was unusable",
    }
}
