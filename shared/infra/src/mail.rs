//! Outgoing mail: the [`Mailer`] a module sends through, its two implementations, the
//! `[mail]` settings that choose between them, and the small templates mails are written in.
//!
//! The host builds one mailer at start-up ([`mailer_from_settings`]) and hands it to modules as
//! an `Arc<dyn Mailer>`, so a module never knows whether mail goes out over SMTP or into the log:
//!
//! - [`SmtpMailer`] delivers over SMTP with `lettre`, to any server a URL names: `smtp://host:port`
//!   (plaintext, for Mailpit and tests), `smtp://user:pass@host:587?tls=required` (STARTTLS) or
//!   `smtps://user:pass@host` (TLS from the first byte). TLS is rustls with the bundled Mozilla
//!   roots, so the container image needs no certificate store of its own.
//! - [`LogMailer`] writes the mail to the log: the development default when `mail.smtp_url` is
//!   empty, so a developer can follow a confirmation link without running a mail server.
//!
//! Templates ([`MailTemplate`]) are plain `&'static str`s with `{{name}}` placeholders; values are
//! HTML-escaped in the HTML part. That is all the mails of an account flow need, without a
//! template engine to depend on.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use lettre::message::{Mailbox, MultiPart};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use serde::Deserialize;

use crate::settings::Secret;

/// One mail to one recipient, in both a plain-text and an HTML rendering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mail {
    /// The recipient's plain address, `user@example.com`. It becomes the address of a mailbox
    /// without a display name: it is never parsed as a mailbox (`Name <user@example.com>`), so
    /// text a user chose cannot redirect the mail.
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
    /// The `Message-ID` (without angle brackets), when the sender needs a stable one: a mail
    /// sent again after a crash keeps its id, so mail clients show one message. `None`: the
    /// transport makes one up.
    pub message_id: Option<String>,
}

/// Why a mail could not be sent (or a mailer could not be built).
#[derive(Debug, thiserror::Error)]
pub enum MailError {
    /// The mail settings are unusable. The message never repeats the URL: it may hold a password.
    #[error("invalid mail settings: {0}")]
    Config(String),
    /// The recipient is not a valid mailbox.
    #[error("invalid recipient address: {0}")]
    Recipient(String),
    /// The message could not be assembled.
    #[error("could not build the message: {0}")]
    Message(String),
    /// The SMTP server could not be reached, refused the message or did not answer in time.
    #[error("SMTP delivery failed: {0}")]
    Transport(#[source] Box<dyn std::error::Error + Send + Sync>),
}

/// Sends mail. Held by the host as `Arc<dyn Mailer>`, hence the boxed future (a trait with an
/// `async fn` would not be dyn-compatible).
pub trait Mailer: Send + Sync + 'static {
    fn send<'a>(
        &'a self,
        mail: Mail,
    ) -> Pin<Box<dyn Future<Output = Result<(), MailError>> + Send + 'a>>;
}

/// How long one SMTP connection attempt or one command's reply may take. Bounded so that a mail
/// server that stops answering costs the request a few seconds, not a hung handler; long
/// enough for the reply to the end of DATA, which servers that scan messages take a moment to send.
const SMTP_TIMEOUT: Duration = Duration::from_secs(10);

/// Delivers over SMTP, one connection per mail.
///
/// Connections are not pooled: lettre's pool runs a cleanup task that needs a Tokio runtime
/// wherever the mailer is built or dropped, and the mails of account flows are too infrequent for
/// reused connections to matter. Without it the mailer is a plain value, built and dropped
/// anywhere.
#[derive(Clone)]
pub struct SmtpMailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl SmtpMailer {
    /// Builds a mailer for the server `smtp_url` names, sending as `from`
    /// (`no-reply@example.com` or `Name <no-reply@example.com>`). Does not connect yet: the
    /// first mail does.
    pub fn new(smtp_url: &str, from: &str) -> Result<Self, MailError> {
        let from: Mailbox = from
            .parse()
            .map_err(|err| MailError::Config(format!("`mail.from` is not a mailbox: {err}")))?;
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(smtp_url)
            // lettre's message names the scheme or the parse failure, never the credentials.
            .map_err(|err| MailError::Config(format!("`mail.smtp_url`: {err}")))?
            .timeout(Some(SMTP_TIMEOUT))
            .build();
        Ok(Self { transport, from })
    }

    async fn deliver(&self, mail: Mail) -> Result<(), MailError> {
        let address: lettre::Address = mail
            .to
            .parse()
            .map_err(|err| MailError::Recipient(format!("`{}`: {err}", mail.to)))?;
        let to = Mailbox::new(None, address);
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(mail.subject)
            .message_id(mail.message_id.map(|id| format!("<{id}>")))
            .multipart(MultiPart::alternative_plain_html(mail.text, mail.html))
            .map_err(|err| MailError::Message(err.to_string()))?;
        self.transport
            .send(message)
            .await
            .map(|_| ())
            .map_err(|err| MailError::Transport(Box::new(err)))
    }
}

impl fmt::Debug for SmtpMailer {
    // The transport is left out: it holds the server's credentials.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SmtpMailer")
            .field("from", &self.from.to_string())
            .finish_non_exhaustive()
    }
}

impl Mailer for SmtpMailer {
    fn send<'a>(
        &'a self,
        mail: Mail,
    ) -> Pin<Box<dyn Future<Output = Result<(), MailError>> + Send + 'a>> {
        Box::pin(self.deliver(mail))
    }
}

/// Writes each mail to the log at INFO (recipient, subject and text body) instead of sending it.
///
/// **For development only.** It logs message bodies, and the mails of an account flow carry
/// single-use links and tokens (e-mail confirmation, password reset): anyone who can read the
/// logs could use them. The host refuses this mailer in production; it is what a development
/// setup gets when `mail.smtp_url` is empty, so that a developer can click the link in the log.
#[derive(Debug, Clone, Copy, Default)]
pub struct LogMailer;

impl Mailer for LogMailer {
    fn send<'a>(
        &'a self,
        mail: Mail,
    ) -> Pin<Box<dyn Future<Output = Result<(), MailError>> + Send + 'a>> {
        tracing::info!(
            mail.to = %mail.to,
            mail.subject = %mail.subject,
            mail.message_id = mail.message_id.as_deref().unwrap_or_default(),
            mail.text = %mail.text,
            "mail not sent: no SMTP server is configured (mail.smtp_url), so it is logged instead"
        );
        Box::pin(std::future::ready(Ok(())))
    }
}

/// `[mail]`: where outgoing mail goes.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MailSettings {
    /// `smtp://host:port`, `smtp://user:pass@host:587?tls=required` or `smtps://user:pass@host`;
    /// empty logs mail instead of sending it ([`LogMailer`]).
    pub smtp_url: Secret,
    /// The sender: `Name <address>` or a bare address.
    pub from: String,
}

impl Default for MailSettings {
    fn default() -> Self {
        Self {
            smtp_url: Secret::new(""),
            from: "Idempotent Service <no-reply@localhost>".to_owned(),
        }
    }
}

impl MailSettings {
    /// The SMTP URL, or `None` when mail is not configured.
    pub fn smtp_url(&self) -> Option<&str> {
        let url = self.smtp_url.expose().trim();
        (!url.is_empty()).then_some(url)
    }
}

/// The mailer the settings ask for: [`SmtpMailer`] when `smtp_url` is set, else [`LogMailer`].
/// Whether the log mailer is acceptable (it is not in production) is the host's decision.
pub fn mailer_from_settings(settings: &MailSettings) -> Result<Arc<dyn Mailer>, MailError> {
    match settings.smtp_url() {
        Some(url) => Ok(Arc::new(SmtpMailer::new(url, &settings.from)?)),
        None => Ok(Arc::new(LogMailer)),
    }
}

/// A mail with `{{name}}` placeholders in its subject, text and HTML.
///
/// Values go into the subject and text as they are, and into the HTML escaped (`&`, `<`, `>`,
/// `"`, `'`), so a user-chosen display name cannot inject markup. A placeholder with no value
/// is left visible as `{{name}}`, which a test or a reader notices, rather than silently
/// dropped. Placeholders inside values are not expanded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MailTemplate {
    pub subject: &'static str,
    pub text: &'static str,
    pub html: &'static str,
}

impl MailTemplate {
    /// The mail to `to` with every known placeholder replaced by its value.
    pub fn render(&self, to: &str, values: &[(&str, &str)]) -> Mail {
        Mail {
            to: to.to_owned(),
            subject: fill(self.subject, values, false),
            text: fill(self.text, values, false),
            html: fill(self.html, values, true),
            message_id: None,
        }
    }
}

/// Replaces `{{name}}` (spaces inside the braces allowed) in one pass over `template`, so values
/// are never scanned for placeholders themselves.
fn fill(template: &str, values: &[(&str, &str)], escape: bool) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after_open = &rest[start + 2..];
        let Some(end) = after_open.find("}}") else {
            // An opening without a closing: not a placeholder, keep the rest verbatim.
            out.push_str(&rest[start..]);
            return out;
        };
        let name = after_open[..end].trim();
        match values.iter().find(|(key, _)| *key == name) {
            Some((_, value)) if escape => escape_html_into(value, &mut out),
            Some((_, value)) => out.push_str(value),
            None => out.push_str(&rest[start..start + 2 + end + 2]),
        }
        rest = &after_open[end + 2..];
    }
    out.push_str(rest);
    out
}

fn escape_html_into(value: &str, out: &mut String) {
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            other => out.push(other),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::sync::Mutex;

    use super::*;

    const WELCOME: MailTemplate = MailTemplate {
        subject: "Welcome, {{name}}",
        text: "Hello {{name}},\nconfirm at {{link}}\n",
        html: "<p>Hello {{ name }},</p><p><a href=\"{{link}}\">confirm</a></p>",
    };

    #[test]
    fn render_replaces_placeholders_in_every_part() {
        let mail = WELCOME.render(
            "ada@example.com",
            &[
                ("name", "Ada"),
                ("link", "https://app.example/confirm?t=abc"),
            ],
        );
        assert_eq!(mail.to, "ada@example.com");
        assert_eq!(mail.subject, "Welcome, Ada");
        assert_eq!(
            mail.text,
            "Hello Ada,\nconfirm at https://app.example/confirm?t=abc\n"
        );
        assert_eq!(
            mail.html,
            "<p>Hello Ada,</p><p><a href=\"https://app.example/confirm?t=abc\">confirm</a></p>"
        );
    }

    #[test]
    fn values_are_escaped_in_html_only() {
        let name = r#"<b>Tom & "Jerry"</b> o'Neil"#;
        let mail = WELCOME.render("t@example.com", &[("name", name), ("link", "x")]);
        assert_eq!(mail.subject, format!("Welcome, {name}"));
        assert!(mail.text.starts_with(&format!("Hello {name},")));
        assert_eq!(
            mail.html,
            "<p>Hello &lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt; o&#39;Neil,</p>\
             <p><a href=\"x\">confirm</a></p>"
        );
    }

    #[test]
    fn unknown_placeholders_stay_visible_and_values_are_not_expanded() {
        let mail = WELCOME.render("t@example.com", &[("name", "{{link}}")]);
        // `link` has no value: it stays as written. The name's own braces are not expanded.
        assert_eq!(mail.subject, "Welcome, {{link}}");
        assert_eq!(mail.text, "Hello {{link}},\nconfirm at {{link}}\n");
        assert_eq!(
            mail.html,
            "<p>Hello {{link}},</p><p><a href=\"{{link}}\">confirm</a></p>"
        );
    }

    #[test]
    fn unbalanced_braces_are_kept_verbatim() {
        let template = MailTemplate {
            subject: "{{a}} {{ b",
            text: "}} {{a}}{{",
            html: "",
        };
        let mail = template.render("t@example.com", &[("a", "1"), ("b", "2")]);
        assert_eq!(mail.subject, "1 {{ b");
        assert_eq!(mail.text, "}} 1{{");
        assert_eq!(mail.html, "");
    }

    #[test]
    fn settings_default_to_the_log_mailer_and_reject_unknown_keys() {
        let defaults = MailSettings::default();
        assert_eq!(defaults.smtp_url(), None);
        assert_eq!(defaults.from, "Idempotent Service <no-reply@localhost>");

        let parse = |toml: &str| {
            config::Config::builder()
                .add_source(config::File::from_str(toml, config::FileFormat::Toml))
                .build()
                .and_then(|raw| raw.get::<MailSettings>("mail"))
        };
        let settings = parse("[mail]\nsmtp_url = \"  smtp://mailpit:1025 \"").expect("valid");
        assert_eq!(settings.smtp_url(), Some("smtp://mailpit:1025"));
        assert_eq!(
            settings.from, defaults.from,
            "absent keys take their default"
        );
        assert_eq!(
            parse("[mail]\nsmtp_url = \"   \"")
                .expect("valid")
                .smtp_url(),
            None
        );
        assert!(parse("[mail]\nsmtp_host = \"x\"").is_err());
        // The URL may hold a password: it never prints.
        assert!(!format!("{settings:?}").contains("mailpit"));
    }

    /// Collects what a `tracing` subscriber writes, for asserting on log lines.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl Write for Captured {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn mail() -> Mail {
        WELCOME.render(
            "ada@example.com",
            &[("name", "Ada"), ("link", "https://app.example/c?t=tok123")],
        )
    }

    #[tokio::test]
    async fn without_an_smtp_url_mail_goes_to_the_log() {
        let captured = Captured::default();
        let writer = captured.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .finish();
        let _guard = tracing::subscriber::set_default(subscriber);

        let mailer = mailer_from_settings(&MailSettings::default()).expect("log mailer");
        mailer.send(mail()).await.expect("logging never fails");

        let log =
            String::from_utf8(captured.0.lock().expect("not poisoned").clone()).expect("UTF-8 log");
        assert!(log.contains("INFO"), "{log}");
        assert!(log.contains("ada@example.com"), "{log}");
        assert!(log.contains("Welcome, Ada"), "{log}");
        assert!(log.contains("https://app.example/c?t=tok123"), "{log}");
    }

    #[tokio::test]
    async fn with_an_smtp_url_mail_goes_over_smtp() {
        // Nothing listens on port 1: an SMTP mailer fails to connect, where the log mailer
        // would have succeeded. (The delivery itself is tested against a real SMTP listener in
        // the `testing` crate, which this crate cannot depend on.)
        let settings = MailSettings {
            smtp_url: Secret::new("smtp://127.0.0.1:1"),
            ..MailSettings::default()
        };
        let mailer = mailer_from_settings(&settings).expect("a valid URL builds a mailer");
        let result = tokio::time::timeout(Duration::from_secs(30), mailer.send(mail()))
            .await
            .expect("a refused connection fails within the SMTP timeout");
        assert!(matches!(result, Err(MailError::Transport(_))), "{result:?}");
    }

    #[test]
    fn smtp_urls_with_and_without_tls_are_accepted() {
        let from = "Service <no-reply@example.com>";
        for url in [
            "smtp://127.0.0.1:1025",
            "smtp://user:pass@mail.example.com:587?tls=required",
            "smtp://mail.example.com?tls=opportunistic",
            "smtps://user:pass@mail.example.com",
        ] {
            if let Err(err) = SmtpMailer::new(url, from) {
                panic!("{url}: {err}");
            }
        }
    }

    #[test]
    fn bad_settings_are_refused_without_echoing_the_url() {
        let err = SmtpMailer::new("http://user:hunter2@mail.example.com", "a@example.com")
            .expect_err("not an SMTP URL");
        assert!(matches!(err, MailError::Config(_)), "{err:?}");
        assert!(!err.to_string().contains("hunter2"), "{err}");

        let err = SmtpMailer::new("smtp://127.0.0.1:1025", "not a mailbox").expect_err("bad from");
        assert!(err.to_string().contains("mail.from"), "{err}");

        let debug = format!(
            "{:?}",
            SmtpMailer::new("smtp://u:hunter2@127.0.0.1:1025", "a@example.com").expect("valid")
        );
        assert!(!debug.contains("hunter2"), "{debug}");
    }

    #[tokio::test]
    async fn an_invalid_recipient_is_refused_before_connecting() {
        let mailer = SmtpMailer::new("smtp://127.0.0.1:1", "a@example.com").expect("valid");
        let mut mail = mail();
        mail.to = "not an address".to_owned();
        let result = mailer.send(mail).await;
        assert!(matches!(result, Err(MailError::Recipient(_))), "{result:?}");
    }
}
