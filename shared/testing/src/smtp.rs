//! An SMTP listener that catches the mail a test makes the service send.
//!
//! Each test starts its own [`SmtpCatcher`] on a free loopback port and points the service's
//! `mail.smtp_url` at [`SmtpCatcher::url`], so tests stay parallel and never share an inbox. It
//! speaks the plaintext subset of SMTP that `lettre` (the service's client) uses: greeting,
//! EHLO/HELO, MAIL FROM, RCPT TO, DATA, RSET, NOOP and QUIT. It advertises neither STARTTLS nor
//! AUTH, so a client configured with `smtp://host:port` sends in the clear and never asks for
//! either; anything else is answered 502.
//!
//! Captured mail keeps its raw DATA; [`CapturedMail`]'s helpers read the subject and the text and
//! HTML parts back, undoing the encodings lettre applies (RFC 2047 encoded words in headers,
//! quoted-printable or base64 bodies), so a test can compare them with what it sent.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::{JoinHandle, JoinSet};

/// The longest command or DATA line accepted (RFC 5321 asks for 1000 octets; generous here so
/// that only a runaway client hits it).
const MAX_LINE: u64 = 1024 * 1024;

/// A mail as the catcher received it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CapturedMail {
    /// The envelope sender (`MAIL FROM`), without angle brackets; empty for the null sender.
    pub from: String,
    /// The envelope recipients (`RCPT TO`), without angle brackets, in order.
    pub to: Vec<String>,
    /// The message as sent after DATA (headers and body, CRLF line ends), dot-stuffing undone.
    pub data: String,
}

/// A running SMTP listener; stops (with every open session) when dropped.
pub struct SmtpCatcher {
    address: SocketAddr,
    messages: Arc<Mutex<Vec<CapturedMail>>>,
    server: JoinHandle<()>,
}

impl SmtpCatcher {
    /// Binds 127.0.0.1 on a free port and serves SMTP there in a background task.
    pub async fn start() -> std::io::Result<Self> {
        Self::start_at("127.0.0.1:0".parse().expect("a socket address")).await
    }

    /// Serves SMTP at `address`: e.g. where a service was told to send while nothing listened,
    /// to bring its mail server "back up".
    pub async fn start_at(address: SocketAddr) -> std::io::Result<Self> {
        let listener = TcpListener::bind(address).await?;
        let address = listener.local_addr()?;
        let messages = Arc::new(Mutex::new(Vec::new()));
        let server = tokio::spawn(serve(listener, Arc::clone(&messages)));
        Ok(Self {
            address,
            messages,
            server,
        })
    }

    /// `smtp://127.0.0.1:PORT`, for `mail.smtp_url`.
    pub fn url(&self) -> String {
        format!("smtp://{}", self.address)
    }

    /// Every mail received so far, oldest first.
    pub fn messages(&self) -> Vec<CapturedMail> {
        lock(&self.messages).clone()
    }

    /// The mails received so far with `address` among their recipients (compared ignoring
    /// ASCII case), oldest first.
    pub fn messages_to(&self, address: &str) -> Vec<CapturedMail> {
        lock(&self.messages)
            .iter()
            .filter(|mail| mail.is_to(address))
            .cloned()
            .collect()
    }

    /// Waits until a mail to `address` has arrived and returns the first one, or `None` when
    /// none arrives within `timeout`. Mail is sent asynchronously by the service, so a test
    /// waits for it rather than expecting it the moment a request returns.
    pub async fn wait_for_message_to(
        &self,
        address: &str,
        timeout: Duration,
    ) -> Option<CapturedMail> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            if let Some(mail) = lock(&self.messages).iter().find(|mail| mail.is_to(address)) {
                return Some(mail.clone());
            }
            if tokio::time::Instant::now() >= deadline {
                return None;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

impl Drop for SmtpCatcher {
    fn drop(&mut self) {
        // Dropping the accept task drops its JoinSet, which aborts the open sessions too.
        self.server.abort();
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // The list is only ever pushed to; a panicking holder cannot leave it half-updated.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

async fn serve(listener: TcpListener, messages: Arc<Mutex<Vec<CapturedMail>>>) {
    let mut sessions = JoinSet::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    sessions.spawn(session(stream, Arc::clone(&messages)));
                }
                // A failed accept (e.g. too many open files) affects that client only.
                Err(_) => tokio::time::sleep(Duration::from_millis(10)).await,
            },
            // Reap finished sessions so the set does not grow over a long test.
            Some(_) = sessions.join_next(), if !sessions.is_empty() => {}
        }
    }
}

/// The envelope being collected between MAIL FROM and the end of DATA.
#[derive(Default)]
struct Envelope {
    from: Option<String>,
    to: Vec<String>,
}

/// One client connection. An I/O error ends the session: the test sees the mail missing.
async fn session(
    stream: TcpStream,
    messages: Arc<Mutex<Vec<CapturedMail>>>,
) -> std::io::Result<()> {
    let (read, mut write) = stream.into_split();
    let mut reader = BufReader::new(read);
    let mut envelope = Envelope::default();
    write
        .write_all(b"220 127.0.0.1 ESMTP testing::smtp ready\r\n")
        .await?;
    loop {
        let Some(line) = read_line(&mut reader).await? else {
            return Ok(());
        };
        let line = String::from_utf8_lossy(&line);
        let command = line.trim_end_matches(['\r', '\n']);
        let (verb, argument) = command.split_once(' ').unwrap_or((command, ""));
        let reply: &[u8] = match verb.to_ascii_uppercase().as_str() {
            "EHLO" => {
                envelope = Envelope::default();
                b"250-127.0.0.1 greets you\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n250 SIZE 10485760\r\n"
            }
            "HELO" => {
                envelope = Envelope::default();
                b"250 127.0.0.1\r\n"
            }
            "MAIL" => match path_after(argument, "FROM:") {
                Some(from) => {
                    envelope = Envelope {
                        from: Some(from),
                        to: Vec::new(),
                    };
                    b"250 2.1.0 OK\r\n"
                }
                None => b"501 5.5.4 syntax: MAIL FROM:<address>\r\n",
            },
            "RCPT" => match (&envelope.from, path_after(argument, "TO:")) {
                (None, _) => b"503 5.5.1 MAIL first\r\n",
                (Some(_), Some(to)) => {
                    envelope.to.push(to);
                    b"250 2.1.5 OK\r\n"
                }
                (Some(_), None) => b"501 5.5.4 syntax: RCPT TO:<address>\r\n",
            },
            "DATA" => match envelope.from.take() {
                Some(from) if !envelope.to.is_empty() => {
                    write
                        .write_all(b"354 End data with <CR><LF>.<CR><LF>\r\n")
                        .await?;
                    let Some(data) = read_data(&mut reader).await? else {
                        return Ok(());
                    };
                    lock(&messages).push(CapturedMail {
                        from,
                        to: std::mem::take(&mut envelope.to),
                        data,
                    });
                    b"250 2.0.0 OK queued\r\n"
                }
                from => {
                    envelope.from = from;
                    b"503 5.5.1 MAIL and RCPT first\r\n"
                }
            },
            "RSET" => {
                envelope = Envelope::default();
                b"250 2.0.0 OK\r\n"
            }
            "NOOP" => b"250 2.0.0 OK\r\n",
            "QUIT" => {
                write.write_all(b"221 2.0.0 Bye\r\n").await?;
                return Ok(());
            }
            _ => b"502 5.5.2 command not implemented\r\n",
        };
        write.write_all(reply).await?;
    }
}

/// One line including its line end, or `None` at end of input. A line over [`MAX_LINE`] is an
/// error, which ends the session.
async fn read_line(reader: &mut (impl AsyncBufRead + Unpin)) -> std::io::Result<Option<Vec<u8>>> {
    let mut line = Vec::new();
    let read = reader.take(MAX_LINE).read_until(b'\n', &mut line).await?;
    if read == 0 {
        return Ok(None);
    }
    if !line.ends_with(b"\n") {
        return Err(std::io::Error::other(
            "line too long, or input ended mid-line",
        ));
    }
    Ok(Some(line))
}

/// The message after DATA up to the lone `.` line (excluded), with dot-stuffing undone: a line
/// the client began with an extra `.` loses it (RFC 5321, section 4.5.2).
async fn read_data(reader: &mut (impl AsyncBufRead + Unpin)) -> std::io::Result<Option<String>> {
    let mut data = Vec::new();
    loop {
        let Some(line) = read_line(reader).await? else {
            return Ok(None);
        };
        if line == b".\r\n" || line == b".\n" {
            return Ok(Some(String::from_utf8_lossy(&data).into_owned()));
        }
        let unstuffed = line.strip_prefix(b".").unwrap_or(&line);
        data.extend_from_slice(unstuffed);
    }
}

/// The address in `FROM:<address> PARAMS` (for `prefix` `FROM:`), without the brackets.
fn path_after(argument: &str, prefix: &str) -> Option<String> {
    let head = argument.get(..prefix.len())?;
    if !head.eq_ignore_ascii_case(prefix) {
        return None;
    }
    let path = argument[prefix.len()..].trim_start();
    let inner = path.strip_prefix('<')?;
    let end = inner.find('>')?;
    Some(inner[..end].to_owned())
}

impl CapturedMail {
    fn is_to(&self, address: &str) -> bool {
        self.to.iter().any(|to| to.eq_ignore_ascii_case(address))
    }

    /// The value of the message's first header called `name` (ignoring case), unfolded but not
    /// decoded.
    pub fn header(&self, name: &str) -> Option<String> {
        let (headers, _) = split_entity(&self.data);
        find_header(&headers, name).map(str::to_owned)
    }

    /// The `Subject`, with RFC 2047 encoded words (`=?utf-8?b?...?=`) decoded.
    pub fn subject(&self) -> Option<String> {
        self.header("Subject")
            .map(|value| decode_encoded_words(&value))
    }

    /// The first `text/plain` part, transfer encoding undone, line ends as `\n`.
    pub fn text_body(&self) -> Option<String> {
        find_part(&self.data, "text/plain")
    }

    /// The first `text/html` part, transfer encoding undone, line ends as `\n`.
    pub fn html_body(&self) -> Option<String> {
        find_part(&self.data, "text/html")
    }
}

/// A MIME entity's unfolded headers and its body. The body is empty when there is none.
fn split_entity(entity: &str) -> (Vec<(String, String)>, &str) {
    let (head, body) = if let Some(body) = entity.strip_prefix("\r\n") {
        ("", body)
    } else {
        entity.split_once("\r\n\r\n").unwrap_or((entity, ""))
    };
    let mut headers: Vec<(String, String)> = Vec::new();
    for line in head.split("\r\n") {
        if line.starts_with([' ', '\t']) {
            // A folded continuation: unfolding removes the line break, keeping the whitespace.
            if let Some((_, value)) = headers.last_mut() {
                value.push_str(line);
            }
        } else if let Some((name, value)) = line.split_once(':') {
            headers.push((name.trim().to_owned(), value.trim_start().to_owned()));
        }
    }
    (headers, body)
}

fn find_header<'h>(headers: &'h [(String, String)], name: &str) -> Option<&'h str> {
    headers
        .iter()
        .find(|(header, _)| header.eq_ignore_ascii_case(name))
        .map(|(_, value)| value.as_str())
}

/// The decoded body of the first part of media type `media_type` in `entity`, looking inside
/// multiparts depth first.
fn find_part(entity: &str, media_type: &str) -> Option<String> {
    let (headers, body) = split_entity(entity);
    let content_type = find_header(&headers, "Content-Type").unwrap_or("text/plain");
    let media = content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    if media.starts_with("multipart/") {
        let boundary = parameter(content_type, "boundary")?;
        return multipart_parts(body, &boundary).find_map(|part| find_part(part, media_type));
    }
    if media != media_type {
        return None;
    }
    let encoding = find_header(&headers, "Content-Transfer-Encoding")
        .unwrap_or("7bit")
        .trim()
        .to_ascii_lowercase();
    let bytes = match encoding.as_str() {
        "quoted-printable" => decode_quoted_printable(body.as_bytes()),
        "base64" => {
            let compact: String = body.chars().filter(|c| !c.is_ascii_whitespace()).collect();
            BASE64.decode(compact).ok()?
        }
        _ => body.as_bytes().to_vec(),
    };
    String::from_utf8(bytes)
        .ok()
        .map(|text| text.replace("\r\n", "\n"))
}

/// The value of parameter `name` in a header like `multipart/alternative; boundary="b"`.
fn parameter(header: &str, name: &str) -> Option<String> {
    header.split(';').skip(1).find_map(|parameter| {
        let (key, value) = parameter.split_once('=')?;
        key.trim()
            .eq_ignore_ascii_case(name)
            .then(|| value.trim().trim_matches('"').to_owned())
    })
}

/// The body parts of a multipart body: the text between delimiter lines `--boundary`, without
/// the line break that belongs to the next delimiter, up to the closing `--boundary--`.
fn multipart_parts<'a>(body: &'a str, boundary: &str) -> impl Iterator<Item = &'a str> {
    let delimiter = format!("\r\n--{boundary}");
    // The first delimiter may open the body with no line break before it.
    let skip_first = usize::from(!body.starts_with(&delimiter[2..]));
    let body = body.strip_prefix(&delimiter[2..]).unwrap_or(body);
    let mut segments: Vec<&'a str> = body.split(delimiter.as_str()).collect();
    if skip_first == 1 && !segments.is_empty() {
        // Text before the first delimiter is the preamble.
        segments.remove(0);
    }
    segments
        .into_iter()
        .take_while(|segment| !segment.starts_with("--"))
        // The rest of the delimiter line (transport padding, its line break) is not content.
        .filter_map(|segment| segment.split_once("\r\n").map(|(_, part)| part))
}

/// Decodes quoted-printable (RFC 2045, section 6.7): `=XX` is a byte, `=` at a line end is a
/// soft line break; anything else stands for itself.
fn decode_quoted_printable(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    let mut i = 0;
    while i < input.len() {
        if input[i] == b'=' {
            if input[i + 1..].starts_with(b"\r\n") {
                i += 3;
                continue;
            }
            if input[i + 1..].starts_with(b"\n") {
                i += 2;
                continue;
            }
            if let Some(byte) = input.get(i + 1..i + 3).and_then(hex_byte) {
                out.push(byte);
                i += 3;
                continue;
            }
        }
        out.push(input[i]);
        i += 1;
    }
    out
}

fn hex_byte(pair: &[u8]) -> Option<u8> {
    let text = std::str::from_utf8(pair).ok()?;
    u8::from_str_radix(text, 16).ok()
}

/// Decodes RFC 2047 encoded words (`=?charset?B|Q?text?=`) in an unstructured header value,
/// dropping the whitespace between adjacent encoded words as the RFC requires. Charsets other
/// than UTF-8 (and its ASCII subset) are decoded as UTF-8, lossily: lettre only sends UTF-8.
fn decode_encoded_words(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut pending_space = String::new();
    // Bytes of consecutive encoded words, joined before converting: a character may span two.
    let mut encoded = Vec::new();
    let tokens = value.split_inclusive(char::is_whitespace);
    let flush = |encoded: &mut Vec<u8>, out: &mut String| {
        if !encoded.is_empty() {
            out.push_str(&String::from_utf8_lossy(encoded));
            encoded.clear();
        }
    };
    for token in tokens {
        let word = token.trim_end_matches(char::is_whitespace);
        let space = &token[word.len()..];
        if word.is_empty() {
            pending_space.push_str(space);
            continue;
        }
        match decode_word_run(word) {
            Some(bytes) => {
                // Whitespace between two encoded words is dropped; before one after text, kept.
                if encoded.is_empty() {
                    out.push_str(&pending_space);
                }
                encoded.extend_from_slice(&bytes);
            }
            None => {
                flush(&mut encoded, &mut out);
                out.push_str(&pending_space);
                out.push_str(word);
            }
        }
        pending_space.clear();
        pending_space.push_str(space);
    }
    flush(&mut encoded, &mut out);
    out.push_str(&pending_space);
    out
}

/// A token made only of encoded words, decoded to bytes; `None` if any part is not one.
fn decode_word_run(mut token: &str) -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    while !token.is_empty() {
        let rest = token.strip_prefix("=?")?;
        let (_charset, rest) = rest.split_once('?')?;
        let (encoding, rest) = rest.split_once('?')?;
        let (text, rest) = rest.split_once("?=")?;
        match encoding {
            "B" | "b" => bytes.extend(BASE64.decode(text).ok()?),
            "Q" | "q" => bytes.extend(decode_quoted_printable(text.replace('_', " ").as_bytes())),
            _ => return None,
        }
        token = rest;
    }
    Some(bytes)
}

#[cfg(test)]
mod tests {
    use infra::mail::{Mail, Mailer, SmtpMailer};
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    use super::*;

    const WAIT: Duration = Duration::from_secs(10);

    #[tokio::test]
    async fn a_recipient_is_an_address_never_a_mailbox_with_a_display_name() {
        let catcher = SmtpCatcher::start().await.expect("catcher starts");
        let mailer = SmtpMailer::new(&catcher.url(), "no-reply@example.com").expect("mailer");

        let sent = mailer
            .send(Mail {
                message_id: None,
                to: "x<alice@example.com>".to_owned(),
                subject: "hello".to_owned(),
                text: "hello".to_owned(),
                html: "<p>hello</p>".to_owned(),
            })
            .await;

        assert!(sent.is_err(), "a display name must not redirect the mail");
        assert!(
            catcher
                .wait_for_message_to("alice@example.com", Duration::from_millis(300))
                .await
                .is_none()
        );
    }

    #[tokio::test]
    async fn mail_sent_through_the_smtp_mailer_arrives_intact() {
        let catcher = SmtpCatcher::start().await.expect("catcher starts");
        let mailer = SmtpMailer::new(&catcher.url(), "Idempotent Service <no-reply@example.com>")
            .expect("mailer");
        let text = "Bonjour Zoë,\n\nconfirm your café order: https://app.example/confirm?token=a=b&c\n\
                    .a line that starts with a dot\n";
        let html = "<p>Bonjour Zoë,</p>\n<p><a href=\"https://app.example/confirm?token=a=b&amp;c\">\
                    confirm your café order</a></p>\n";
        mailer
            .send(Mail {
                message_id: None,
                to: "zoe@example.com".to_owned(),
                subject: "Confirm your café order, Zoë".to_owned(),
                text: text.to_owned(),
                html: html.to_owned(),
            })
            .await
            .expect("sent");

        let mail = catcher
            .wait_for_message_to("zoe@example.com", WAIT)
            .await
            .expect("the mail arrives");
        assert_eq!(mail.from, "no-reply@example.com");
        assert_eq!(mail.to, ["zoe@example.com"]);
        assert_eq!(
            mail.subject().as_deref(),
            Some("Confirm your café order, Zoë")
        );
        assert_eq!(mail.text_body().as_deref(), Some(text));
        assert_eq!(mail.html_body().as_deref(), Some(html));
        let content_type = mail.header("Content-Type").expect("Content-Type");
        assert!(
            content_type.starts_with("multipart/alternative"),
            "{content_type}"
        );
        assert!(
            mail.header("From")
                .is_some_and(|from| from.contains("no-reply@example.com")),
            "{:?}",
            mail.header("From")
        );
        // Mostly-ASCII text goes quoted-printable: the decoder above was exercised.
        assert!(
            mail.data
                .contains("Content-Transfer-Encoding: quoted-printable"),
            "{}",
            mail.data
        );
    }

    #[tokio::test]
    async fn mostly_non_ascii_bodies_arrive_intact() {
        let catcher = SmtpCatcher::start().await.expect("catcher starts");
        let mailer = SmtpMailer::new(&catcher.url(), "no-reply@example.com").expect("mailer");
        let text = "Здравствуйте! Ваш код подтверждения: 123456\n";
        let html = "<p>Здравствуйте! Ваш код подтверждения: <b>123456</b></p>";
        mailer
            .send(Mail {
                message_id: None,
                to: "ivan@example.com".to_owned(),
                subject: "Код подтверждения".to_owned(),
                text: text.to_owned(),
                html: html.to_owned(),
            })
            .await
            .expect("sent");
        let mail = catcher
            .wait_for_message_to("ivan@example.com", WAIT)
            .await
            .expect("the mail arrives");
        // lettre picks base64 for text that is mostly not ASCII.
        assert!(
            mail.data.contains("Content-Transfer-Encoding: base64"),
            "{}",
            mail.data
        );
        assert_eq!(mail.subject().as_deref(), Some("Код подтверждения"));
        assert_eq!(mail.text_body().as_deref(), Some(text));
        assert_eq!(mail.html_body().as_deref(), Some(html));
    }

    #[tokio::test]
    async fn several_mails_in_a_row_each_arrive() {
        let catcher = SmtpCatcher::start().await.expect("catcher starts");
        let mailer = SmtpMailer::new(&catcher.url(), "no-reply@example.com").expect("mailer");
        for n in 1..=3 {
            mailer
                .send(Mail {
                    message_id: None,
                    to: format!("user{n}@example.com"),
                    subject: format!("mail {n}"),
                    text: "plain ascii".to_owned(),
                    html: "<p>plain ascii</p>".to_owned(),
                })
                .await
                .expect("sent");
        }
        let messages = catcher.messages();
        assert_eq!(messages.len(), 3);
        for (n, mail) in (1..).zip(&messages) {
            assert_eq!(mail.to, [format!("user{n}@example.com")]);
            assert_eq!(mail.subject(), Some(format!("mail {n}")));
            assert_eq!(mail.text_body().as_deref(), Some("plain ascii"));
        }
        assert_eq!(catcher.messages_to("USER2@example.com").len(), 1);
        assert!(
            catcher
                .wait_for_message_to("nobody@example.com", Duration::from_millis(50))
                .await
                .is_none()
        );
    }

    #[tokio::test]
    async fn a_subject_cannot_inject_headers() {
        let catcher = SmtpCatcher::start().await.expect("catcher starts");
        let mailer = SmtpMailer::new(&catcher.url(), "no-reply@example.com").expect("mailer");
        let subject = "Hello\r\nBcc: victim@example.com";
        mailer
            .send(Mail {
                message_id: None,
                to: "a@example.com".to_owned(),
                subject: subject.to_owned(),
                text: "t".to_owned(),
                html: "h".to_owned(),
            })
            .await
            .expect("sent");
        let mail = catcher
            .wait_for_message_to("a@example.com", WAIT)
            .await
            .expect("the mail arrives");
        assert_eq!(mail.header("Bcc"), None);
        assert_eq!(mail.to, ["a@example.com"]);
        assert_eq!(mail.subject().as_deref(), Some(subject));
    }

    /// A raw client, to check the protocol answers themselves.
    struct Client {
        reader: BufReader<tokio::net::tcp::OwnedReadHalf>,
        writer: tokio::net::tcp::OwnedWriteHalf,
    }

    impl Client {
        async fn connect(catcher: &SmtpCatcher) -> (Self, String) {
            let stream = TcpStream::connect(catcher.address).await.expect("connect");
            let (read, writer) = stream.into_split();
            let mut client = Self {
                reader: BufReader::new(read),
                writer,
            };
            let greeting = client.reply().await;
            (client, greeting)
        }

        /// A whole (possibly multi-line) reply.
        async fn reply(&mut self) -> String {
            let mut reply = String::new();
            loop {
                let mut line = String::new();
                self.reader.read_line(&mut line).await.expect("read");
                assert!(
                    !line.is_empty(),
                    "connection closed; reply so far: {reply:?}"
                );
                reply.push_str(&line);
                if line.as_bytes().get(3) != Some(&b'-') {
                    return reply;
                }
            }
        }

        async fn send(&mut self, line: &str) -> String {
            self.writer
                .write_all(format!("{line}\r\n").as_bytes())
                .await
                .expect("write");
            self.reply().await
        }
    }

    #[tokio::test]
    async fn speaks_the_plaintext_smtp_subset() {
        let catcher = SmtpCatcher::start().await.expect("catcher starts");
        let (mut client, greeting) = Client::connect(&catcher).await;
        assert!(greeting.starts_with("220 "), "{greeting}");

        let ehlo = client.send("EHLO client.example").await;
        assert!(ehlo.starts_with("250-"), "{ehlo}");
        assert!(
            ehlo.lines()
                .last()
                .is_some_and(|line| line.starts_with("250 ")),
            "{ehlo}"
        );
        assert!(
            !ehlo.contains("STARTTLS") && !ehlo.contains("AUTH"),
            "{ehlo}"
        );
        assert!(client.send("HELO client.example").await.starts_with("250 "));
        assert!(client.send("NOOP").await.starts_with("250 "));
        assert!(client.send("AUTH PLAIN AGFAYg==").await.starts_with("502 "));
        assert!(client.send("STARTTLS").await.starts_with("502 "));
        assert!(
            client
                .send("RCPT TO:<a@example.com>")
                .await
                .starts_with("503 ")
        );
        assert!(client.send("DATA").await.starts_with("503 "));
        assert!(
            client
                .send("MAIL <a@example.com>")
                .await
                .starts_with("501 ")
        );

        // A transaction abandoned with RSET is not delivered.
        assert!(
            client
                .send("MAIL FROM:<x@example.com>")
                .await
                .starts_with("250 ")
        );
        assert!(
            client
                .send("RCPT TO:<dropped@example.com>")
                .await
                .starts_with("250 ")
        );
        assert!(client.send("RSET").await.starts_with("250 "));
        assert!(client.send("DATA").await.starts_with("503 "));

        assert!(
            client
                .send("mail from:<sender@example.com> BODY=8BITMIME")
                .await
                .starts_with("250 ")
        );
        assert!(
            client
                .send("RCPT TO:<one@example.com>")
                .await
                .starts_with("250 ")
        );
        assert!(
            client
                .send("rcpt to:<two@example.com>")
                .await
                .starts_with("250 ")
        );
        assert!(client.send("DATA").await.starts_with("354 "));
        let queued = client
            .send("Subject: =?utf-8?b?Q2Fmw6k=?= au\r\n =?utf-8?q?lait_=C3=A9?= !\r\n\r\n..stuffed\r\nbody\r\n.")
            .await;
        assert!(queued.starts_with("250 "), "{queued}");
        assert!(client.send("QUIT").await.starts_with("221 "));

        let messages = catcher.messages();
        assert_eq!(messages.len(), 1, "{messages:?}");
        let mail = &messages[0];
        assert_eq!(mail.from, "sender@example.com");
        assert_eq!(mail.to, ["one@example.com", "two@example.com"]);
        assert!(
            mail.data.ends_with("\r\n\r\n.stuffed\r\nbody\r\n"),
            "{:?}",
            mail.data
        );
        assert_eq!(mail.subject().as_deref(), Some("Café au lait é !"));
        assert_eq!(mail.text_body().as_deref(), Some(".stuffed\nbody\n"));
        assert_eq!(mail.html_body(), None);
    }

    #[test]
    fn decoders() {
        assert_eq!(
            decode_quoted_printable(b"caf=C3=A9 =3D x=\r\ny= \r\nz"),
            "café = xy= \r\nz".as_bytes()
        );
        assert_eq!(decode_encoded_words("plain subject"), "plain subject");
        assert_eq!(
            decode_encoded_words("=?utf-8?b?w6k=?= =?UTF-8?B?w6k=?=  x =?utf-8?Q?a_b?="),
            "éé  x a b"
        );
        // A multi-byte character split across two encoded words.
        assert_eq!(
            decode_encoded_words("=?utf-8?b?ww==?= =?utf-8?b?qQ==?="),
            "é"
        );
        assert_eq!(decode_encoded_words("=?bogus"), "=?bogus");
    }
}
