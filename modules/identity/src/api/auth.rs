//! `/auth/*`: registration, login, tokens, sessions, password reset, email confirmation.

use std::sync::Arc;

use kernel::{BearerAuth, StrictString, client_address};
use poem::Request;
use poem_idempotency::{OutcomeRecorder, Recorded};
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, OpenApi, Tags};

use super::errors::{
    CallerError, ConfirmEmailError, LoginError, MailLinkError, RefreshTokenError, RegisterError,
    ResetPasswordError, RevokeSessionError,
};
use super::throttle::Throttle;
use super::views::{
    ConfirmEmailRequest, EmailRequest, LoginRequest, RefreshRequest, RegisterRequest,
    ResetPasswordRequest, SessionView, TokenResponse, UserView,
};
use crate::service::IdentityService;

#[derive(Tags)]
enum ApiTags {
    /// Accounts, tokens and sessions.
    Auth,
}

/// The `/auth` operations.
pub struct AuthApi {
    service: Arc<IdentityService>,
    throttle: Throttle,
}

impl AuthApi {
    pub fn new(service: Arc<IdentityService>, throttle: Throttle) -> Self {
        Self { service, throttle }
    }
}

#[derive(ApiResponse)]
enum RegisterResponse {
    /// The account exists; a confirmation link was mailed.
    #[oai(status = 201)]
    Created(Json<UserView>),
}

#[derive(ApiResponse)]
enum TokensResponse {
    /// A new token pair.
    #[oai(status = 200)]
    Ok(Json<TokenResponse>),
}

#[derive(ApiResponse)]
enum NoContentResponse {
    /// Done.
    #[oai(status = 204)]
    Done,
}

#[derive(ApiResponse)]
enum AcceptedResponse {
    /// Accepted. A mail is on its way if an account matches; the answer is the same either way.
    #[oai(status = 202)]
    Accepted,
}

#[derive(ApiResponse)]
enum MeResponse {
    /// The caller's account.
    #[oai(status = 200)]
    Ok(Json<UserView>),
}

#[derive(ApiResponse)]
enum SessionsResponse {
    /// The caller's active sessions, oldest first.
    #[oai(status = 200)]
    Ok(Json<Vec<SessionView>>),
}

#[derive(ApiResponse)]
enum RevokeSessionResponse {
    /// The session is revoked: its refresh token no longer works.
    #[oai(status = 204)]
    Revoked,
}

#[poem_idempotency::intents]
#[OpenApi(prefix_path = "/auth", tag = "ApiTags::Auth")]
impl AuthApi {
    /// Register an account
    ///
    /// Creates an account and mails a link to confirm the address. 409 when the email is taken;
    /// 429 when this address registers too often.
    #[non_idempotent("a retry must meet the email-exists 409, not a replayed account")]
    #[oai(path = "/register", method = "post", operation_id = "register")]
    async fn register(
        &self,
        req: &Request,
        body: Json<RegisterRequest>,
    ) -> Result<RegisterResponse, RegisterError> {
        self.throttle.register(&client_address(req)).await?;
        let body = body.0;
        let user = self
            .service
            .register(
                &body.email,
                &body.password,
                body.display_name.map(StrictString::into_string),
            )
            .await?;
        Ok(RegisterResponse::Created(Json(user.into())))
    }

    /// Log in
    ///
    /// Answers a fresh access and refresh token pair. An unknown email and a wrong password get
    /// the same 401; a locked or (when required) unconfirmed account gets 403 once the password
    /// is right. 429 with `Retry-After` after too many failed attempts on one account from one
    /// address, on one account from anywhere, or from one address on any accounts; a successful
    /// login clears the count of its account and address.
    #[non_idempotent(
        "every call must issue a fresh token pair and session; a replay would hand out another call's tokens"
    )]
    #[oai(path = "/login", method = "post", operation_id = "login")]
    async fn login(
        &self,
        req: &Request,
        body: Json<LoginRequest>,
    ) -> Result<TokensResponse, LoginError> {
        let attempt = self
            .throttle
            .login(&body.email, &client_address(req))
            .await?;
        let user_agent = req.header("user-agent").map(str::to_owned);
        let outcome = self
            .service
            .login(&body.email, &body.password, user_agent)
            .await;
        attempt.settle(&outcome).await;
        Ok(TokensResponse::Ok(Json(outcome?.into())))
    }

    /// Refresh the token pair
    ///
    /// Exchanges a refresh token for a new pair; the presented one stops working. Presenting a
    /// refresh token that was already exchanged revokes its whole session (it was stolen or
    /// replayed) and answers 401.
    #[non_idempotent(
        "rotates the refresh token: a replayed answer would return a pair that is already revoked"
    )]
    #[oai(path = "/refresh", method = "post", operation_id = "refresh")]
    async fn refresh(
        &self,
        body: Json<RefreshRequest>,
    ) -> Result<TokensResponse, RefreshTokenError> {
        let pair = self.service.refresh(&body.refresh_token).await?;
        Ok(TokensResponse::Ok(Json(pair.into())))
    }

    /// Log out
    ///
    /// Revokes the session of the given refresh token.
    #[non_idempotent(
        "revokes a session by its refresh token; the token's state, not a stored answer, decides"
    )]
    #[oai(path = "/revoke", method = "post", operation_id = "revoke")]
    async fn revoke(
        &self,
        body: Json<RefreshRequest>,
    ) -> Result<NoContentResponse, RefreshTokenError> {
        self.service.revoke(&body.refresh_token).await?;
        Ok(NoContentResponse::Done)
    }

    /// The caller's account
    #[oai(path = "/me", method = "get", operation_id = "me")]
    async fn me(&self, auth: BearerAuth) -> Result<MeResponse, CallerError> {
        let user = self.service.authenticate(&auth.0).await?;
        Ok(MeResponse::Ok(Json(user.into())))
    }

    /// The caller's active sessions
    #[oai(path = "/sessions", method = "get", operation_id = "listSessions")]
    async fn sessions(&self, auth: BearerAuth) -> Result<SessionsResponse, CallerError> {
        let sessions = self.service.sessions(&auth.0).await?;
        let current = auth.0.session_id.as_str();
        Ok(SessionsResponse::Ok(Json(
            sessions
                .into_iter()
                .map(|s| SessionView::new(s, current))
                .collect(),
        )))
    }

    /// Revoke one of the caller's sessions
    #[non_idempotent(
        "revokes a session the caller names; revoking twice is harmless and needs no stored answer"
    )]
    #[oai(
        path = "/sessions/:id/revoke",
        method = "post",
        operation_id = "revokeSession"
    )]
    async fn revoke_session(
        &self,
        auth: BearerAuth,
        id: Path<String>,
    ) -> Result<RevokeSessionResponse, RevokeSessionError> {
        self.service.revoke_session(&auth.0, &id.0).await?;
        Ok(RevokeSessionResponse::Revoked)
    }

    /// Ask for a password-reset link
    ///
    /// Mails a single-use reset link if an account has this email. Answers 202 whether or not
    /// one does, so the answer reveals nothing about which emails are registered.
    #[idempotent(
        outside_database = "queues the request in this process; the link is made and mailed after the answer, so that its timing reveals nothing"
    )]
    #[oai(
        path = "/forgot-password",
        method = "post",
        operation_id = "forgotPassword"
    )]
    async fn forgot_password(
        &self,
        req: &Request,
        body: Json<EmailRequest>,
    ) -> Result<AcceptedResponse, MailLinkError> {
        self.throttle
            .mail(&body.email, &client_address(req))
            .await?;
        self.service.forgot_password(&body.email)?;
        Ok(AcceptedResponse::Accepted)
    }

    /// Reset the password
    ///
    /// Sets a new password with the token from a reset mail, and ends every session of the
    /// account. Any reset link mailed works until it expires or one of them is used: using one
    /// spends them all.
    // The reset spends its link, so a second execution after a crash would answer 400 to a
    // client whose password did change: the answer is committed with the reset, and a retry
    // that meets the spent link is answered with it.
    #[idempotent]
    #[oai(
        path = "/reset-password",
        method = "post",
        operation_id = "resetPassword"
    )]
    async fn reset_password(
        &self,
        outcome: OutcomeRecorder,
        body: Json<ResetPasswordRequest>,
    ) -> Result<Recorded<NoContentResponse>, ResetPasswordError> {
        let answer = outcome.prepare(NoContentResponse::Done).await?;
        Ok(self
            .service
            .reset_password(&body.token, &body.new_password, answer)
            .await?)
    }

    /// Ask for an email-confirmation link
    ///
    /// Mails a new confirmation link if an unconfirmed account has this email. Answers 202
    /// either way.
    #[idempotent(
        outside_database = "queues the request in this process; the link is made and mailed after the answer, so that its timing reveals nothing"
    )]
    #[oai(
        path = "/send-email-confirmation",
        method = "post",
        operation_id = "sendEmailConfirmation"
    )]
    async fn send_email_confirmation(
        &self,
        req: &Request,
        body: Json<EmailRequest>,
    ) -> Result<AcceptedResponse, MailLinkError> {
        self.throttle
            .mail(&body.email, &client_address(req))
            .await?;
        self.service.send_email_confirmation(&body.email)?;
        Ok(AcceptedResponse::Accepted)
    }

    /// Confirm the email address
    ///
    /// With the token from a confirmation mail. The token works once.
    // Like the reset: confirming spends the link, so a second execution after a crash would
    // answer 400 to a client whose address is confirmed.
    #[idempotent]
    #[oai(
        path = "/confirm-email",
        method = "post",
        operation_id = "confirmEmail"
    )]
    async fn confirm_email(
        &self,
        outcome: OutcomeRecorder,
        body: Json<ConfirmEmailRequest>,
    ) -> Result<Recorded<NoContentResponse>, ConfirmEmailError> {
        let answer = outcome.prepare(NoContentResponse::Done).await?;
        Ok(self.service.confirm_email(&body.token, answer).await?)
    }
}
