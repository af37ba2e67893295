//! `/auth/oauth/*` and `/auth/identities`: sign-in with an OpenID Connect provider, and the
//! provider accounts linked to the caller's account.

use std::sync::Arc;

use kernel::{BearerAuth, client_address};
use poem::Request;
use poem_idempotency::{OutcomeRecorder, Recorded};
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, OpenApi, Tags};

use super::errors::{
    AuthorizeError, CallerError, ExchangeError, LinkError, ListProvidersError, StartLinkError,
    UnlinkIdentityError,
};
use super::throttle::Throttle;
use super::views::{
    AuthorizationView, CodeExchangeRequest, IdentityView, ProviderView, TokenResponse,
};
use crate::oauth::{CodeExchange, OAuthService};

#[derive(Tags)]
enum ApiTags {
    /// Sign-in with an OpenID Connect provider, and the provider accounts linked to an account.
    #[oai(rename = "Sign-in with a provider")]
    OAuth,
}

/// The sign-in-with-a-provider operations.
pub struct OAuthApi {
    service: Arc<OAuthService>,
    throttle: Throttle,
}

impl OAuthApi {
    pub fn new(service: Arc<OAuthService>, throttle: Throttle) -> Self {
        Self { service, throttle }
    }
}

/// What the provider sent the browser back with, as the service's exchanges take it.
fn code_exchange<'a>(
    req: &Request,
    provider: &'a str,
    body: &'a CodeExchangeRequest,
) -> CodeExchange<'a> {
    CodeExchange {
        provider,
        code: &body.code,
        state: &body.state,
        binding: &body.binding,
        redirect_uri: &body.redirect_uri,
        user_agent: req.header("user-agent").map(str::to_owned),
    }
}

#[derive(ApiResponse)]
enum ProvidersResponse {
    /// The configured providers (none unless the service is configured with some).
    #[oai(status = 200)]
    Ok(Json<Vec<ProviderView>>),
}

#[derive(ApiResponse)]
enum AuthorizeResponse {
    /// Where to send the browser.
    #[oai(status = 200)]
    Ok(Json<AuthorizationView>),
}

#[derive(ApiResponse)]
enum ExchangeResponse {
    /// Signed in: a new token pair and session, exactly as a login answers.
    #[oai(status = 200)]
    Ok(Json<TokenResponse>),
}

#[derive(ApiResponse)]
enum LinkResponse {
    /// Linked: the provider account now signs in to the caller's account.
    #[oai(status = 201)]
    Linked(Json<IdentityView>),
}

#[derive(ApiResponse)]
enum IdentitiesResponse {
    /// The caller's linked provider accounts, oldest first.
    #[oai(status = 200)]
    Ok(Json<Vec<IdentityView>>),
}

#[derive(ApiResponse)]
enum UnlinkResponse {
    /// The link is removed: that provider account no longer signs in to this account.
    #[oai(status = 204)]
    Removed,
}

#[poem_idempotency::intents]
#[OpenApi(prefix_path = "/auth", tag = "ApiTags::OAuth")]
impl OAuthApi {
    /// The sign-in providers
    ///
    /// The OpenID Connect providers accounts can sign in with, for a front end's buttons.
    #[oai(
        path = "/oauth/providers",
        method = "get",
        operation_id = "listOAuthProviders"
    )]
    async fn providers(&self) -> Result<ProvidersResponse, ListProvidersError> {
        Ok(ProvidersResponse::Ok(Json(
            self.service
                .providers()
                .map(|provider| ProviderView {
                    name: provider.name.clone(),
                    display_name: provider.display_name.clone(),
                })
                .collect(),
        )))
    }

    /// Start signing in with a provider
    ///
    /// Answers the provider's authorization URL to send the browser to, with a fresh `state`,
    /// `nonce` and PKCE (S256) challenge; the service keeps the nonce and the PKCE verifier
    /// until the exchange (single use, for `oauth.state_ttl`). It also answers a `binding`, a
    /// secret for this client alone that never goes to the provider: keep it (e.g. in
    /// `sessionStorage`) and send it with the exchange, which refuses a `code` and `state`
    /// presented without it, so a sign-in can only be finished by the client that started it
    /// (not by whoever sees the redirect back, nor in a browser an attacker sent there with
    /// their own code). The provider sends the browser back to `redirectUri` with `code` and
    /// `state`: pass both, with the `binding`, to the exchange. 400 when `redirectUri` is not
    /// one this provider's settings allow (compared exactly); 429 when this address starts too
    /// many sign-ins; 502 when the provider cannot be reached.
    #[oai(
        path = "/oauth/:provider/authorize",
        method = "get",
        operation_id = "startOAuthSignIn"
    )]
    async fn authorize(
        &self,
        req: &Request,
        /// The provider's name, from the providers list.
        provider: Path<String>,
        /// Where the provider sends the browser back: one of the provider's allowed redirect
        /// URIs, exactly.
        #[oai(name = "redirectUri")]
        redirect_uri: Query<String>,
    ) -> Result<AuthorizeResponse, AuthorizeError> {
        self.service.known_provider(&provider.0)?;
        self.throttle.provider_sign_in(&client_address(req)).await?;
        let authorization = self.service.authorize(&provider.0, &redirect_uri.0).await?;
        Ok(AuthorizeResponse::Ok(Json(authorization.into())))
    }

    /// Complete signing in with a provider
    ///
    /// Exchanges the `code` the provider sent the browser back with (and the kept PKCE
    /// verifier), validates the ID token (signature from the provider's published keys,
    /// issuer, audience, expiry and the kept nonce), and answers a token pair and session
    /// exactly as a login does. The `state` works once, for this provider and redirect URI,
    /// and only with the `binding` that `authorize` answered for it: without it the exchange
    /// is refused (400) and the state stays for the client that holds it.
    ///
    /// The account: the one this provider account is linked to; on a first sign-in, the
    /// account with the same email address, linked only when the provider asserts the
    /// address verified **and** the account has confirmed it; else a new account with that
    /// verified address (unless the service makes none). Locked accounts are refused.
    #[non_idempotent(
        "an authorization code and its state work once, and every call must open its own session; a replay would hand out another call's tokens"
    )]
    #[oai(
        path = "/oauth/:provider/exchange",
        method = "post",
        operation_id = "exchangeOAuthCode"
    )]
    async fn exchange(
        &self,
        req: &Request,
        /// The provider's name, as given to `authorize`.
        provider: Path<String>,
        body: Json<CodeExchangeRequest>,
    ) -> Result<ExchangeResponse, ExchangeError> {
        let pair = self
            .service
            .exchange(code_exchange(req, &provider.0, &body))
            .await?;
        self.throttle
            .signed_in(&pair.user_id, &client_address(req))
            .await;
        Ok(ExchangeResponse::Ok(Json(pair.into())))
    }

    /// Start linking a provider account to your account
    ///
    /// For a signed-in caller: as `startOAuthSignIn` (the authorization URL, `state` and
    /// `binding`), but the provider's answer links the provider account to the caller's
    /// account instead of signing in. Use it for a provider that never asserts a verified
    /// address, which a first sign-in cannot link by address. Pass what the provider sends
    /// the browser back with, and the `binding`, to `completeOAuthLink`, with the same access
    /// token's account.
    ///
    /// The account's address must be confirmed, and the caller must have signed in recently
    /// (`identity.recent_sign_in`, 5 minutes by default; refreshing a session does not count):
    /// otherwise 403, and the front end asks for the password (a new login) and starts again
    /// with the new session's token. An access token alone, stolen from an older session,
    /// links nothing.
    #[oai(
        path = "/oauth/:provider/link",
        method = "get",
        operation_id = "startOAuthLink"
    )]
    async fn start_link(
        &self,
        req: &Request,
        auth: BearerAuth,
        /// The provider's name, from the providers list.
        provider: Path<String>,
        /// Where the provider sends the browser back: one of the provider's allowed redirect
        /// URIs, exactly.
        #[oai(name = "redirectUri")]
        redirect_uri: Query<String>,
    ) -> Result<AuthorizeResponse, StartLinkError> {
        self.service.known_provider(&provider.0)?;
        self.throttle.provider_sign_in(&client_address(req)).await?;
        let authorization = self
            .service
            .start_link(&auth.0, &provider.0, &redirect_uri.0)
            .await?;
        Ok(AuthorizeResponse::Ok(Json(authorization.into())))
    }

    /// Complete linking a provider account to your account
    ///
    /// Exchanges the `code` and validates the ID token as `exchangeOAuthCode` does, for a
    /// `state` that `startOAuthLink` started for the caller's account (with its `binding`),
    /// and links the provider account to the caller's account: from then on it signs in to
    /// it, listed with the caller's identities and removable as any. No session is opened and
    /// the account's password and sessions are untouched. The owner is mailed at the
    /// confirmed address, with a reset link that undoes the link. 403 when the address is
    /// not confirmed or the sign-in is no longer recent (as for `startOAuthLink`); 409 when
    /// the provider account is linked already (to this account or another: remove that link
    /// first).
    #[idempotent]
    #[oai(
        path = "/oauth/:provider/link/exchange",
        method = "post",
        operation_id = "completeOAuthLink"
    )]
    async fn link(
        &self,
        req: &Request,
        auth: BearerAuth,
        outcome: OutcomeRecorder,
        /// The provider's name, as given to `startOAuthLink`.
        provider: Path<String>,
        body: Json<CodeExchangeRequest>,
    ) -> Result<Recorded<LinkResponse>, LinkError> {
        let exchange = code_exchange(req, &provider.0, &body);
        let recorded = self
            .service
            .link(&outcome, &auth.0, exchange, |identity| {
                LinkResponse::Linked(Json(IdentityView::from(identity)))
            })
            .await?;
        Ok(recorded)
    }

    /// The caller's linked provider accounts
    #[oai(path = "/identities", method = "get", operation_id = "listIdentities")]
    async fn identities(&self, auth: BearerAuth) -> Result<IdentitiesResponse, CallerError> {
        let identities = self.service.identities(&auth.0).await?;
        Ok(IdentitiesResponse::Ok(Json(
            identities.into_iter().map(IdentityView::from).collect(),
        )))
    }

    /// Remove a linked provider account
    ///
    /// That provider account no longer signs in to the caller's account (signing in with it
    /// again follows the first-sign-in rule), and the sessions it opened end (their access
    /// tokens too). 409 when it is the account's only way to sign in.
    #[idempotent]
    #[oai(
        path = "/identities/:id",
        method = "delete",
        operation_id = "unlinkIdentity"
    )]
    async fn unlink(
        &self,
        auth: BearerAuth,
        id: Path<String>,
        outcome: OutcomeRecorder,
    ) -> Result<Recorded<UnlinkResponse>, UnlinkIdentityError> {
        let recorded = self
            .service
            .unlink(&outcome, &auth.0, &id.0, UnlinkResponse::Removed)
            .await?;
        Ok(recorded)
    }
}
