//! One-time links (password reset, email confirmation): minted, stored as hashes and mailed.
//!
//! Whether an address has an account must show neither in the answer to a request for a link
//! (always 202) nor in how long it takes. So such a request only puts the address on a
//! [`LinkQueue`]; a worker looks the account up, stores the token and sends the mail after the
//! answer has gone. The queue is bounded: when it is full the request is refused with 503 and
//! `Retry-After`, whatever the address, which says nothing either.
//!
//! Every link sent stays valid until it expires or one link of its purpose is used, which
//! spends them all: a stranger asking for links for someone else's address only fills that
//! inbox with working links (and the mail limits bound how many), never leaves the owner without
//! one.
//!
//! Queued requests live in memory: a process that stops before its queue is empty drops them,
//! and the client, who saw no mail arrive, asks again.

use std::sync::Arc;

use infra::database::now_ms;
use infra::mail::{Mail, MailTemplate, Mailer};
use kernel::{AppError, AppResult};
use tokio::sync::mpsc;

use crate::domain::{Email, OpaqueToken};
use crate::repository::{IdentityRepository, OneTimeTokenRecord, TokenPurpose, UserRecord};
use crate::settings::IdentitySettings;

const CONFIRM_EMAIL: MailTemplate = MailTemplate {
    subject: "Confirm your email address",
    text: include_str!("../templates/confirm_email.txt"),
    html: include_str!("../templates/confirm_email.html"),
};

const RESET_PASSWORD: MailTemplate = MailTemplate {
    subject: "Reset your password",
    text: include_str!("../templates/reset_password.txt"),
    html: include_str!("../templates/reset_password.html"),
};

/// To the owner of an account a provider sign-in was linked to by its address: the password
/// from before is gone, with a reset link to set one.
pub const PROVIDER_LINKED: MailTemplate = MailTemplate {
    subject: "A sign-in provider was linked to your account",
    text: include_str!("../templates/provider_linked.txt"),
    html: include_str!("../templates/provider_linked.html"),
};

/// To the owner of an account a signed-in caller linked a provider account to: what was
/// linked, and a reset link that undoes it (a reset ends every session and removes every
/// identity linked while signed in) for an owner who did not do it.
pub const PROVIDER_LINKED_WHILE_SIGNED_IN: MailTemplate = MailTemplate {
    subject: "A sign-in provider was added to your account",
    text: include_str!("../templates/provider_linked_while_signed_in.txt"),
    html: include_str!("../templates/provider_linked_while_signed_in.html"),
};

/// How many link requests may wait for the worker.
const QUEUE_CAPACITY: usize = 1024;

/// Mints a one-time token, stores its hash and mails its link.
#[derive(Clone)]
pub struct LinkMailer {
    repository: IdentityRepository,
    settings: Arc<IdentitySettings>,
    mailer: Arc<dyn Mailer>,
}

impl LinkMailer {
    pub fn new(
        repository: IdentityRepository,
        settings: Arc<IdentitySettings>,
        mailer: Arc<dyn Mailer>,
    ) -> Self {
        Self {
            repository,
            settings,
            mailer,
        }
    }

    /// A new link for `user`: the token's record to store, and the mail to send once it is
    /// stored (see [`Self::mail`]). Nothing is written yet, so a use case can store the record
    /// in its own transaction.
    pub fn mint(&self, user: &UserRecord, purpose: TokenPurpose) -> Link {
        self.mint_in(user, purpose, None, &[])
    }

    /// [`Self::mint`], mailed with `template` (which may also use `extra`'s placeholders)
    /// instead of the purpose's own.
    pub fn mint_in(
        &self,
        user: &UserRecord,
        purpose: TokenPurpose,
        template: Option<MailTemplate>,
        extra: &[(&str, &str)],
    ) -> Link {
        let token = OpaqueToken::generate();
        let (ttl, own_template, page) = match purpose {
            TokenPurpose::ResetPassword => (
                self.settings.reset_token_ttl,
                RESET_PASSWORD,
                "reset-password",
            ),
            TokenPurpose::ConfirmEmail => (
                self.settings.confirmation_token_ttl,
                CONFIRM_EMAIL,
                "confirm-email",
            ),
        };
        let now = now_ms();
        let record = OneTimeTokenRecord {
            token_hash: token.hash,
            user_id: user.id.clone(),
            purpose,
            created_at_ms: now,
            expires_at_ms: now + ttl.as_millis() as i64,
        };
        let link = format!(
            "{}/{page}?token={}",
            self.settings.public_base_url.trim_end_matches('/'),
            token.plain
        );
        let expires = humantime::format_duration(ttl).to_string();
        let name = user
            .display_name
            .clone()
            .unwrap_or_else(|| user.email.clone());
        let mut values = vec![
            ("name", name.as_str()),
            ("email", user.email.as_str()),
            ("service", self.settings.service_name.as_str()),
            ("link", link.as_str()),
            ("expires", expires.as_str()),
        ];
        values.extend_from_slice(extra);
        let mail = template
            .unwrap_or(own_template)
            .render(&user.email, &values);
        Link { record, mail }
    }

    /// Sends a stored link's mail in the background: how long SMTP takes is nobody's business
    /// but the log's.
    pub fn mail(&self, link: Link) {
        let mailer = Arc::clone(&self.mailer);
        tokio::spawn(async move {
            if let Err(err) = mailer.send(link.mail).await {
                tracing::error!(error = %err, "a mail could not be sent");
            }
        });
    }

    /// Stores a new link for `user` and mails it.
    pub async fn send(&self, user: &UserRecord, purpose: TokenPurpose) -> AppResult<()> {
        let link = self.mint(user, purpose);
        self.repository.add_one_time_token(&link.record).await?;
        self.mail(link);
        Ok(())
    }

    /// Sends the link `request` asks for, if its address has an account that needs one.
    async fn serve(&self, request: LinkRequest) -> AppResult<()> {
        let Some(user) = self
            .repository
            .user_by_email(request.email.as_str())
            .await?
        else {
            return Ok(());
        };
        let wanted = match request.purpose {
            TokenPurpose::ResetPassword => true,
            TokenPurpose::ConfirmEmail => user.email_confirmed_at_ms.is_none(),
        };
        if wanted {
            self.send(&user, request.purpose).await?;
        }
        Ok(())
    }
}

/// A minted link: the record to store, then the mail to send.
pub struct Link {
    pub record: OneTimeTokenRecord,
    mail: Mail,
}

/// A link asked for an address, not yet looked up.
struct LinkRequest {
    email: Email,
    purpose: TokenPurpose,
}

/// The bounded queue in front of the worker that serves link requests.
pub struct LinkQueue {
    requests: mpsc::Sender<LinkRequest>,
}

impl LinkQueue {
    /// Starts the worker (on the current Tokio runtime); it ends when the queue is dropped.
    pub fn start(mailer: LinkMailer) -> Self {
        let (requests, mut queued) = mpsc::channel::<LinkRequest>(QUEUE_CAPACITY);
        tokio::spawn(async move {
            while let Some(request) = queued.recv().await {
                if let Err(err) = mailer.serve(request).await {
                    tracing::error!(error = %err, "a one-time link could not be sent");
                }
            }
        });
        Self { requests }
    }

    /// Queues a link for `email`; 503 with `Retry-After` when the queue is full.
    pub fn request(&self, email: Email, purpose: TokenPurpose) -> AppResult<()> {
        self.requests
            .try_send(LinkRequest { email, purpose })
            .map_err(|err| match err {
                mpsc::error::TrySendError::Full(_) => AppError::Busy {
                    retry_after_secs: 1,
                },
                mpsc::error::TrySendError::Closed(_) => {
                    AppError::internal(std::io::Error::other("the link worker has stopped"))
                }
            })
    }
}
