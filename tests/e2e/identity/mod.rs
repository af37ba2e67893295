//! The identity module, end to end: accounts, tokens, sessions, mails, admin, limits.

mod account_events;
mod accounts;
mod admin;
mod all_or_nothing;
mod idempotency;
mod mail_links;
mod oauth;
mod oidc_provider;
mod rate_limits;
mod revocation;
mod tokens;

use std::time::Duration;

use e2e::{TestApp, TestAppBuilder};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use testing::smtp::SmtpCatcher;

pub const PASSWORD: &str = "correct horse battery";

/// A service with a real SMTP listener for its mail, and typed calls to `/auth`.
pub struct Identity {
    pub app: TestApp,
    pub mail: SmtpCatcher,
}

/// The pair login and refresh answer.
pub struct Tokens {
    pub access: String,
    pub refresh: String,
}

impl Identity {
    pub async fn spawn() -> Self {
        Self::spawn_with(TestApp::builder()).await
    }

    pub async fn spawn_with(builder: TestAppBuilder) -> Self {
        Self::spawn_mailing_to(builder, None).await
    }

    /// A service that sends its mail to `smtp_url` instead of [`Self::mail`] (e.g. where no
    /// server listens yet); `None`: to [`Self::mail`].
    pub async fn spawn_mailing_to(builder: TestAppBuilder, smtp_url: Option<&str>) -> Self {
        let mail = SmtpCatcher::start()
            .await
            .expect("the SMTP listener starts");
        let url = smtp_url.map_or_else(|| mail.url(), str::to_owned);
        let app = builder.setting("mail.smtp_url", &url).spawn().await;
        Self { app, mail }
    }

    pub async fn post(&self, path: &str, body: Value) -> reqwest::Response {
        self.app
            .request(Method::POST, &format!("/api/v1/auth{path}"))
            .json(&body)
            .send()
            .await
            .expect("request failed")
    }

    /// [`Self::post`] from the loopback address `source` (`127.0.0.2`): another client.
    pub async fn post_from(&self, source: &str, path: &str, body: Value) -> reqwest::Response {
        let source = source.parse().expect("a loopback address");
        self.app
            .client_from(source)
            .post(self.app.url(&format!("/api/v1/auth{path}")))
            .json(&body)
            .send()
            .await
            .expect("request failed")
    }

    /// [`Self::login`] from the loopback address `source`.
    pub async fn login_from(&self, source: &str, email: &str, password: &str) -> reqwest::Response {
        self.post_from(
            source,
            "/login",
            json!({ "email": email, "password": password }),
        )
        .await
    }

    pub async fn register(&self, email: &str) -> reqwest::Response {
        self.post("/register", json!({ "email": email, "password": PASSWORD }))
            .await
    }

    pub async fn login(&self, email: &str, password: &str) -> reqwest::Response {
        self.post("/login", json!({ "email": email, "password": password }))
            .await
    }

    pub async fn refresh(&self, refresh_token: &str) -> reqwest::Response {
        self.post("/refresh", json!({ "refreshToken": refresh_token }))
            .await
    }

    /// Registers `email` and logs in.
    pub async fn signed_in(&self, email: &str) -> Tokens {
        assert_eq!(self.register(email).await.status(), StatusCode::CREATED);
        tokens(self.login(email, PASSWORD).await).await
    }

    /// Registers `email`, makes it an administrator (as `app grant-admin` does), logs in.
    pub async fn signed_in_admin(&self, email: &str) -> Tokens {
        assert_eq!(self.register(email).await.status(), StatusCode::CREATED);
        app::commands::grant_admin(&self.app.settings, email)
            .await
            .expect("grant-admin");
        tokens(self.login(email, PASSWORD).await).await
    }

    pub async fn get_as(&self, access_token: &str, path: &str) -> reqwest::Response {
        self.app
            .request(Method::GET, path)
            .bearer_auth(access_token)
            .send()
            .await
            .expect("request failed")
    }

    /// Asks for a reset mail for `email` and returns the token of the `count`-th reset link
    /// that address has received.
    pub async fn reset_link(&self, email: &str, count: usize) -> String {
        self.forgot_password(email).await;
        self.token_from_mail(email, "reset-password", count).await
    }

    pub async fn forgot_password(&self, email: &str) -> reqwest::Response {
        self.post("/forgot-password", json!({ "email": email }))
            .await
    }

    /// [`Self::forgot_password`] from the loopback address `source`.
    pub async fn forgot_password_from(&self, source: &str, email: &str) -> reqwest::Response {
        self.post_from(source, "/forgot-password", json!({ "email": email }))
            .await
    }

    /// The administrator `admin_access` applies `action` (`lock` or `unlock`) to `user_id`.
    pub async fn admin_action(
        &self,
        admin_access: &str,
        action: &str,
        user_id: &str,
    ) -> reqwest::Response {
        self.post_as(
            admin_access,
            &format!("/api/v1/admin/users/{user_id}/{action}"),
        )
        .await
    }

    /// Asks for a reset mail for `email`, takes the link's token, and resets the password.
    pub async fn reset_password_by_mail(
        &self,
        email: &str,
        new_password: &str,
    ) -> reqwest::Response {
        let token = self.reset_link(email, 1).await;
        self.post(
            "/reset-password",
            json!({ "token": token, "newPassword": new_password }),
        )
        .await
    }

    /// The id of a session of this account other than the one `access` belongs to.
    pub async fn other_session_id(&self, access: &str) -> String {
        let sessions: Vec<Value> = self
            .get_as(access, "/api/v1/auth/sessions")
            .await
            .json()
            .await
            .unwrap();
        sessions
            .iter()
            .find(|s| s["current"] == false)
            .expect("another session")["id"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    /// The id of the account `access` belongs to.
    pub async fn user_id(&self, access: &str) -> String {
        let me: Value = self
            .get_as(access, "/api/v1/auth/me")
            .await
            .json()
            .await
            .unwrap();
        me["id"].as_str().unwrap().to_owned()
    }

    pub async fn post_as(&self, access_token: &str, path: &str) -> reqwest::Response {
        self.app
            .request(Method::POST, path)
            .bearer_auth(access_token)
            .send()
            .await
            .expect("request failed")
    }

    /// Waits for the `count`-th mail to `to` whose link opens `page`, and returns its token.
    pub async fn token_from_mail(&self, to: &str, page: &str, count: usize) -> String {
        let marker = format!("/{page}?token=");
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        loop {
            let links: Vec<String> = self
                .mail
                .messages_to(to)
                .iter()
                .filter_map(|mail| mail.text_body())
                .filter_map(|body| {
                    body.split(&marker).nth(1).map(|rest| {
                        rest.split_whitespace()
                            .next()
                            .unwrap_or_default()
                            .to_owned()
                    })
                })
                .collect();
            if links.len() >= count {
                return links[count - 1].clone();
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "no mail #{count} to {to} with a {page} link arrived"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Waits (5 s at the most) for a mail to `to` with `subject`.
    pub async fn mail_with_subject(&self, to: &str, subject: &str) -> testing::smtp::CapturedMail {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        loop {
            let found = self
                .mail
                .messages_to(to)
                .into_iter()
                .find(|mail| mail.subject().as_deref() == Some(subject));
            if let Some(mail) = found {
                return mail;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "no mail to {to} with the subject {subject:?} arrived"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// How many mails `to` has received so far, after giving background sends a moment.
    pub async fn mail_count(&self, to: &str) -> usize {
        tokio::time::sleep(Duration::from_millis(300)).await;
        self.mail.messages_to(to).len()
    }
}

/// The pair from a 200 login or refresh answer.
pub async fn tokens(response: reqwest::Response) -> Tokens {
    assert_eq!(response.status(), StatusCode::OK, "expected a token pair");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["tokenType"], "Bearer");
    Tokens {
        access: body["accessToken"].as_str().unwrap().to_owned(),
        refresh: body["refreshToken"].as_str().unwrap().to_owned(),
    }
}
