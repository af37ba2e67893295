//! What identifies a request for idempotency purposes: the client's key, the scope it lives in,
//! and the fingerprint of the payload it was sent with.
//!
//! Everything here is pure (no I/O, no clock) so that the rules can be tested exhaustively:
//!
//! - [`ClientKey`] is the validated `Idempotency-Key` header. It is accepted bare or as an
//!   RFC 8941 structured-field string, because the IETF draft specifies an sf-string while most
//!   clients in the wild send a bare token; rejecting either would break real callers.
//! - [`ScopeKey`] is what the store is keyed by. A client key is only unique *per caller and per
//!   operation*, so the key is scoped to (subject, method, route template, client key); two users
//!   picking the same UUID never see each other's responses.
//! - [`Fingerprint`] is what a retry must match. Reusing a key with a different payload, or
//!   with different preconditions (`If-Match`...), is a client bug that must be reported, not
//!   answered with the first request's response.
//!
//! Both digests are SHA-256 over a *length-prefixed* encoding of their inputs. Joining fields
//! with a separator (`a|b`) is ambiguous as soon as a field may contain the separator, and an
//! ambiguity here would let one caller's tuple collide with another's and replay its response.
//! Each digest also starts with its own domain tag, so a scope key can never equal a
//! fingerprint and the encoding can be versioned if it ever has to change.

use std::fmt;

use poem::http::{HeaderMap, HeaderName, header};
use sha2::{Digest, Sha256};

/// The longest client key accepted, in characters (after unquoting).
///
/// Long enough for any UUID, ULID or hash a client might use; short enough that the key is never
/// a way to make the service hash or log large attacker-chosen strings.
pub const MAX_CLIENT_KEY_LEN: usize = 255;

/// Why an `Idempotency-Key` header value was rejected.
///
/// The messages are written for the client: they end up in the problem response's `detail`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    /// The key is longer than [`MAX_CLIENT_KEY_LEN`] characters.
    #[error("The Idempotency-Key header must be at most 255 characters long.")]
    TooLong,
    /// The key contains a character outside visible ASCII (spaces are allowed only inside a
    /// quoted string).
    #[error(
        "The Idempotency-Key header may contain only visible ASCII characters; \
         spaces are allowed only inside a quoted string."
    )]
    InvalidCharacters,
    /// The key starts with a double quote but is not a well-formed structured-field string.
    #[error(
        "The Idempotency-Key header is not a well-formed quoted string: it must end with a \
         closing double quote, and inside it only \\\" and \\\\ may be escaped."
    )]
    Malformed,
}

/// A validated client-supplied idempotency key: 1 to [`MAX_CLIENT_KEY_LEN`] ASCII characters.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ClientKey(String);

impl ClientKey {
    /// Parses an `Idempotency-Key` header value.
    ///
    /// Accepts a bare key (`abc-123`, visible ASCII only) or an RFC 8941 sf-string
    /// (`"abc-123"`, which may also contain spaces and the escapes `\"` and `\\`). Surrounding
    /// whitespace is ignored. A blank value (empty, or `""`) yields `Ok(None)`: it is treated as
    /// if the header were absent rather than as a key shared by every blank-sending client.
    pub fn parse(header: &str) -> Result<Option<ClientKey>, KeyError> {
        let value = header.trim_ascii();
        let key = match value.strip_prefix('"') {
            Some(quoted) => unquote(quoted)?,
            None => {
                if !value.bytes().all(|b| (0x21..=0x7E).contains(&b)) {
                    return Err(KeyError::InvalidCharacters);
                }
                value.to_owned()
            }
        };
        if key.is_empty() {
            return Ok(None);
        }
        // Every accepted character is ASCII, so bytes and characters coincide.
        if key.len() > MAX_CLIENT_KEY_LEN {
            return Err(KeyError::TooLong);
        }
        Ok(Some(ClientKey(key)))
    }

    /// The key as the client meant it (unquoted, unescaped).
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ClientKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Decodes the body of an RFC 8941 sf-string (`rest` is everything after the opening quote).
fn unquote(rest: &str) -> Result<String, KeyError> {
    let mut out = String::with_capacity(rest.len());
    let mut bytes = rest.bytes();
    while let Some(b) = bytes.next() {
        match b {
            b'\\' => match bytes.next() {
                Some(escaped @ (b'"' | b'\\')) => out.push(char::from(escaped)),
                // RFC 8941 §4.2.5: any other escape is a parse failure, as is a trailing `\`.
                _ => return Err(KeyError::Malformed),
            },
            // The closing quote must end the value: parameters or trailing garbage are not part
            // of an Idempotency-Key, and silently dropping them would hide a client bug.
            b'"' if bytes.len() == 0 => return Ok(out),
            b'"' => return Err(KeyError::Malformed),
            0x20..=0x7E => out.push(char::from(b)),
            _ => return Err(KeyError::InvalidCharacters),
        }
    }
    Err(KeyError::Malformed)
}

/// Domain tags: they make the two digests disjoint and version their encodings.
const SCOPE_TAG: &[u8] = b"idempotency/scope/v1";
const FINGERPRINT_TAG: &[u8] = b"idempotency/fingerprint/v1";

/// Feeds `field` into `hasher` as its length (u64, big-endian) followed by its bytes, so the
/// boundary between consecutive fields is unambiguous whatever bytes they contain.
fn update_framed(hasher: &mut Sha256, field: &[u8]) {
    // usize -> u64 never truncates on the 32- and 64-bit targets Rust supports.
    hasher.update((field.len() as u64).to_be_bytes());
    hasher.update(field);
}

fn finish(hasher: Sha256) -> [u8; 32] {
    hasher.finalize().into()
}

/// The store key of one idempotent request: SHA-256 of (subject, method, route template, client
/// key).
///
/// Hashing keeps the store key a fixed 32 bytes whatever the inputs, and keeps subjects and
/// client keys out of the store (and out of `KEYS *` output) in clear.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ScopeKey([u8; 32]);

impl ScopeKey {
    /// Derives the scope key. `route_template` is the route as declared (`/orders/{id}`), not the
    /// concrete path, so that the scope is "this operation", and `method` is the canonical
    /// upper-case method name.
    pub fn derive(
        subject: &str,
        method: &str,
        route_template: &str,
        client_key: &ClientKey,
    ) -> ScopeKey {
        Self::derive_with_subject_in_parts(&[subject], method, route_template, client_key)
    }

    /// [`ScopeKey::derive`] for a subject given in parts (`["anon:", address]`), hashed as
    /// their concatenation: the same key, without building the subject's string per request.
    pub(crate) fn derive_with_subject_in_parts(
        subject: &[&str],
        method: &str,
        route_template: &str,
        client_key: &ClientKey,
    ) -> ScopeKey {
        let mut hasher = Sha256::new();
        hasher.update(SCOPE_TAG);
        let subject_length: usize = subject.iter().map(|part| part.len()).sum();
        hasher.update((subject_length as u64).to_be_bytes());
        for part in subject {
            hasher.update(part.as_bytes());
        }
        for field in [method, route_template, client_key.as_str()] {
            update_framed(&mut hasher, field.as_bytes());
        }
        ScopeKey(finish(hasher))
    }

    /// The 32 raw digest bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// Lower-case hex, as used in store key names.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// Lets the store tests build many well-spread keys without hashing a million strings.
    #[cfg(test)]
    pub(crate) fn from_bytes(bytes: [u8; 32]) -> ScopeKey {
        ScopeKey(bytes)
    }
}

impl fmt::Debug for ScopeKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ScopeKey({})", self.to_hex())
    }
}

/// What a retry's request must match: SHA-256 of the target (path and query), the body and the
/// preconditions.
///
/// JSON bodies are hashed in a canonical form, because clients legitimately re-serialize a
/// payload between attempts (different key order, whitespace) and that must not be mistaken
/// for a different request. Everything else, including the query string and the headers, is
/// hashed exactly as sent: reordering query parameters can change their meaning for some
/// handlers, so only the handler could decide they are equivalent.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fingerprint([u8; 32]);

impl Fingerprint {
    /// Fingerprints a request's payload. `content_type` is the raw `Content-Type` header value,
    /// `query` the raw query string (without `?`).
    pub fn of(body: &[u8], content_type: Option<&str>, query: &str) -> Fingerprint {
        Self::of_parts(body, content_type, &[query.as_bytes()])
    }

    /// [`Fingerprint::of`] a request whose target is `{path}?{query}`, hashed from its parts:
    /// the same digest, without joining them into a new string per request.
    pub fn of_target(
        body: &[u8],
        content_type: Option<&str>,
        path: &str,
        query: &str,
    ) -> Fingerprint {
        Self::of_parts(
            body,
            content_type,
            &[path.as_bytes(), b"?", query.as_bytes()],
        )
    }

    /// [`Fingerprint::of_target`] of a request that sent `headers`: the values of its
    /// [`PRECONDITION_HEADERS`], then of the headers the operation `declared` part of its request,
    /// are covered too, as sent.
    ///
    /// Each header the request sent adds its name and its value (several lines of one name
    /// joined in order with `, `, one list as RFC 9110 combines them), both framed; a header
    /// not sent adds nothing, so an empty one differs from none, and a request that sent none
    /// of them has the fingerprint of its target and body alone: the one every earlier version
    /// stored, which its retry still matches.
    pub fn of_request(
        body: &[u8],
        content_type: Option<&str>,
        path: &str,
        query: &str,
        headers: &HeaderMap,
        declared: &[HeaderName],
    ) -> Fingerprint {
        let mut hasher = Self::hasher_of_parts(
            body,
            content_type,
            &[path.as_bytes(), b"?", query.as_bytes()],
        );
        for name in PRECONDITION_HEADERS.iter().chain(declared) {
            update_header(&mut hasher, name, headers);
        }
        Fingerprint(finish(hasher))
    }

    /// The digest with the target given as consecutive `target` pieces, framed as one field.
    fn of_parts(body: &[u8], content_type: Option<&str>, target: &[&[u8]]) -> Fingerprint {
        Fingerprint(finish(Self::hasher_of_parts(body, content_type, target)))
    }

    /// The hasher fed with the tag, the target (its pieces framed as one field) and the body.
    fn hasher_of_parts(body: &[u8], content_type: Option<&str>, target: &[&[u8]]) -> Sha256 {
        let canonical = content_type
            .filter(|ct| is_json(ct))
            .and_then(|_| canonical_json(body));
        let mut hasher = Sha256::new();
        hasher.update(FINGERPRINT_TAG);
        let length: usize = target.iter().map(|piece| piece.len()).sum();
        hasher.update((length as u64).to_be_bytes());
        for piece in target {
            hasher.update(piece);
        }
        update_framed(&mut hasher, canonical.as_deref().unwrap_or(body));
        hasher
    }

    /// The 32 raw digest bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// Lower-case hex.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }
}

impl fmt::Debug for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fingerprint({})", self.to_hex())
    }
}

/// The conditional request headers of RFC 9110 (§13.1), which every fingerprint covers: the same
/// key with another precondition asks another question (`If-Match: "v3"` after `"v1"`), and the
/// first request's answer is not its answer.
pub static PRECONDITION_HEADERS: [HeaderName; 5] = [
    header::IF_MATCH,
    header::IF_NONE_MATCH,
    header::IF_MODIFIED_SINCE,
    header::IF_UNMODIFIED_SINCE,
    header::IF_RANGE,
];

/// What joins the lines of one header into one value (RFC 9110 §5.3).
const LIST_SEPARATOR: &[u8] = b", ";

/// Feeds the header `name` into `hasher` when `headers` has it: its name framed, then its lines
/// joined by [`LIST_SEPARATOR`] framed as one value; nothing when it is absent.
fn update_header(hasher: &mut Sha256, name: &HeaderName, headers: &HeaderMap) {
    let lines = headers.get_all(name);
    let (count, bytes) = lines.iter().fold((0, 0), |(count, bytes), line| {
        (count + 1, bytes + line.len())
    });
    if count == 0 {
        return;
    }
    update_framed(hasher, name.as_str().as_bytes());
    let length = bytes + LIST_SEPARATOR.len() * (count - 1);
    hasher.update((length as u64).to_be_bytes());
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            hasher.update(LIST_SEPARATOR);
        }
        hasher.update(line.as_bytes());
    }
}

/// `application/json` or any `+json` structured syntax suffix (`application/problem+json`),
/// case-insensitively and ignoring parameters such as `charset`.
pub(crate) fn is_json(content_type: &str) -> bool {
    // Compared in place: every keyed request and every kept answer asks, so no lower-cased copy.
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim_ascii();
    match essence.split_once('/') {
        Some((_, subtype)) => {
            essence.eq_ignore_ascii_case("application/json")
                || subtype
                    .len()
                    .checked_sub(JSON_SUFFIX.len())
                    .is_some_and(|start| {
                        subtype.as_bytes()[start..].eq_ignore_ascii_case(JSON_SUFFIX)
                    })
        }
        None => false,
    }
}

/// The structured syntax suffix of JSON media types (RFC 6839).
const JSON_SUFFIX: &[u8] = b"+json";

/// Re-serializes a JSON document with object keys sorted and no insignificant whitespace, or
/// `None` if `body` is not JSON (it is then fingerprinted as raw bytes).
///
/// Keys are sorted here explicitly rather than by relying on `serde_json::Map` being a
/// `BTreeMap`: any crate in the build enabling serde_json's `preserve_order` feature would
/// silently turn that map into an insertion-ordered one, and fingerprints would change.
fn canonical_json(body: &[u8]) -> Option<Vec<u8>> {
    let value: serde_json::Value = serde_json::from_slice(body).ok()?;
    let mut out = Vec::with_capacity(body.len());
    write_canonical(&value, &mut out);
    Some(out)
}

fn write_canonical(value: &serde_json::Value, out: &mut Vec<u8>) {
    use serde_json::Value;
    match value {
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_canonical(item, out);
            }
            out.push(b']');
        }
        Value::Object(map) => {
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
            out.push(b'{');
            for (i, (key, item)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_json(key, out);
                out.push(b':');
                write_canonical(item, out);
            }
            out.push(b'}');
        }
        scalar => write_json(scalar, out),
    }
}

/// Writes a scalar (or an object key) in serde_json's compact form.
fn write_json<T: serde::Serialize + ?Sized>(value: &T, out: &mut Vec<u8>) {
    // Only strings and JSON scalars reach this: writing into a `Vec` has no I/O error to
    // report, and they have no map keys that could fail to serialize, so this cannot fail.
    if let Err(error) = serde_json::to_writer(&mut *out, value) {
        unreachable!("serializing a JSON scalar into a Vec failed: {error}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(s: &str) -> ClientKey {
        ClientKey::parse(s)
            .expect("valid key")
            .expect("non-blank key")
    }

    #[test]
    fn bare_key_is_accepted() {
        assert_eq!(key("abc-123").as_str(), "abc-123");
        assert_eq!(
            key("550e8400-e29b-41d4-a716-446655440000").as_str(),
            "550e8400-e29b-41d4-a716-446655440000"
        );
        // Every visible ASCII character is allowed in the bare form.
        let all_visible: String = (0x21u8..=0x7E).map(char::from).collect();
        assert_eq!(key(&all_visible).as_str(), all_visible);
    }

    #[test]
    fn surrounding_whitespace_is_trimmed() {
        assert_eq!(key("  abc \t").as_str(), "abc");
        assert_eq!(key(" \"abc\" ").as_str(), "abc");
    }

    #[test]
    fn quoted_key_is_unquoted_and_unescaped() {
        assert_eq!(key("\"abc-123\"").as_str(), "abc-123");
        assert_eq!(key(r#""a \"b\" c\\d""#).as_str(), r#"a "b" c\d"#);
        assert_eq!(key("\"with space\"").as_str(), "with space");
    }

    #[test]
    fn quoted_and_bare_forms_of_the_same_key_are_equal() {
        assert_eq!(key("abc"), key("\"abc\""));
    }

    #[test]
    fn blank_values_are_treated_as_absent() {
        for blank in ["", "   ", "\t", "\"\"", "  \"\"  "] {
            assert_eq!(ClientKey::parse(blank), Ok(None), "{blank:?}");
        }
    }

    #[test]
    fn malformed_quoted_strings_are_rejected() {
        for bad in [
            "\"abc",          // unterminated
            "\"",             // a lone quote
            "\"abc\\\"",      // the closing quote is escaped
            "\"a\\nb\"",      // only \" and \\ may be escaped
            "\"abc\\",        // trailing backslash
            "\"abc\";a=1",    // parameters are not part of a key
            "\"abc\"\"def\"", // two strings
        ] {
            assert_eq!(ClientKey::parse(bad), Err(KeyError::Malformed), "{bad:?}");
        }
    }

    #[test]
    fn characters_outside_visible_ascii_are_rejected() {
        for bad in [
            "a b",
            "a\tb",
            "caf\u{e9}",
            "a\u{7f}b",
            "a\0b",
            "\"caf\u{e9}\"",
            "\"a\tb\"",
            "\u{a0}abc", // a non-breaking space is not trimmed: only ASCII whitespace is
        ] {
            assert_eq!(
                ClientKey::parse(bad),
                Err(KeyError::InvalidCharacters),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn length_is_limited_after_unquoting() {
        let max = "k".repeat(MAX_CLIENT_KEY_LEN);
        assert_eq!(key(&max).as_str(), max);
        assert_eq!(ClientKey::parse(&format!("{max}k")), Err(KeyError::TooLong));
        // 255 characters once unescaped, although the header itself is longer.
        let escaped = format!("\"{}\"", "\\\\".repeat(MAX_CLIENT_KEY_LEN));
        assert_eq!(key(&escaped).as_str().len(), MAX_CLIENT_KEY_LEN);
        let escaped = format!("\"{}\"", "\\\\".repeat(MAX_CLIENT_KEY_LEN + 1));
        assert_eq!(ClientKey::parse(&escaped), Err(KeyError::TooLong));
    }

    #[test]
    fn errors_read_as_sentences_for_the_client() {
        for error in [
            KeyError::TooLong,
            KeyError::InvalidCharacters,
            KeyError::Malformed,
        ] {
            let message = error.to_string();
            assert!(
                message.starts_with("The Idempotency-Key header"),
                "{message}"
            );
            assert!(message.ends_with('.'), "{message}");
        }
    }

    #[test]
    fn a_key_displays_as_the_client_meant_it_and_a_scope_key_as_its_hash() {
        assert_eq!(
            key(r#""a \"quoted\" key""#).to_string(),
            r#"a "quoted" key"#
        );
        let scope = ScopeKey::derive("user-1", "POST", "/orders", &key("k"));
        assert_eq!(
            format!("{scope:?}"),
            format!("ScopeKey({})", scope.to_hex())
        );
    }

    #[test]
    fn a_target_hashed_from_its_parts_is_the_target_hashed_whole() {
        for (path, query) in [("/things/1", "a=1&b=2"), ("/things", ""), ("", "")] {
            for (body, content_type) in [
                (&b"{\"b\":1, \"a\":2}"[..], Some("application/json")),
                (b"raw", None),
            ] {
                assert_eq!(
                    Fingerprint::of_target(body, content_type, path, query),
                    Fingerprint::of(body, content_type, &format!("{path}?{query}")),
                    "{path}?{query}"
                );
            }
        }
        assert_ne!(
            Fingerprint::of_target(b"", None, "/a", "b"),
            Fingerprint::of_target(b"", None, "/a?", "b")
        );
    }

    #[test]
    fn scope_key_is_deterministic_and_hex_encoded() {
        let a = ScopeKey::derive("user-1", "POST", "/orders", &key("k"));
        let b = ScopeKey::derive("user-1", "POST", "/orders", &key("k"));
        assert_eq!(a, b);
        assert_eq!(a.to_hex().len(), 64);
        assert_eq!(a.to_hex(), hex::encode(a.as_bytes()));
        assert!(
            a.to_hex()
                .bytes()
                .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
        );
    }

    #[test]
    fn a_subject_in_parts_derives_the_key_of_the_whole_subject() {
        let whole = ScopeKey::derive("anon:10.0.0.1", "POST", "/orders", &key("k"));

        let in_parts = ScopeKey::derive_with_subject_in_parts(
            &["anon:", "10.0.0.1"],
            "POST",
            "/orders",
            &key("k"),
        );

        assert_eq!(in_parts, whole);
        assert_eq!(
            ScopeKey::derive_with_subject_in_parts(
                &["anon:10.0.0.1"],
                "POST",
                "/orders",
                &key("k")
            ),
            whole
        );
    }

    #[test]
    fn a_scope_key_is_the_one_earlier_versions_stored() {
        // Pinned: a change here orphans every record a running store holds.
        let scope = ScopeKey::derive("anon:10.0.0.1", "POST", "/orders", &key("k"));

        assert_eq!(
            scope.to_hex(),
            "126e3846b9baba8ec841d83b2a18944bbc3b274d064b91cf5d85327bdb939553"
        );
    }

    #[test]
    fn scope_key_depends_on_every_field() {
        let base = ScopeKey::derive("user-1", "POST", "/orders", &key("k"));
        assert_ne!(
            base,
            ScopeKey::derive("user-2", "POST", "/orders", &key("k"))
        );
        assert_ne!(
            base,
            ScopeKey::derive("user-1", "PUT", "/orders", &key("k"))
        );
        assert_ne!(
            base,
            ScopeKey::derive("user-1", "POST", "/orders/{id}", &key("k"))
        );
        assert_ne!(
            base,
            ScopeKey::derive("user-1", "POST", "/orders", &key("k2"))
        );
    }

    #[test]
    fn scope_key_field_boundaries_are_unambiguous() {
        // With a separator-joined encoding, each pair below would hash the same input.
        let pairs = [
            (("a|b", "c"), ("a", "b|c")),
            (("ab", "c"), ("a", "bc")),
            (("", "abc"), ("abc", "")),
            (("a\0", "b"), ("a", "\0b")),
        ];
        for ((s1, m1), (s2, m2)) in pairs {
            assert_ne!(
                ScopeKey::derive(s1, m1, "/r", &key("k")),
                ScopeKey::derive(s2, m2, "/r", &key("k")),
                "({s1:?}, {m1:?}) vs ({s2:?}, {m2:?})"
            );
        }
        assert_ne!(
            ScopeKey::derive("user", "POST", "/a|b", &key("c")),
            ScopeKey::derive("user", "POST", "/a", &key("b|c")),
        );
    }

    const JSON: Option<&str> = Some("application/json");

    #[test]
    fn json_formatting_and_key_order_do_not_change_the_fingerprint() {
        let a = Fingerprint::of(br#"{"a":1, "b":2}"#, JSON, "");
        let b = Fingerprint::of(br#"{"b":2,"a":1}"#, JSON, "");
        let c = Fingerprint::of(b"{\n  \"b\" : 2,\n  \"a\" : 1\n}\n", JSON, "");
        assert_eq!(a, b);
        assert_eq!(a, c);
        // Nested objects are canonicalized too; arrays keep their order.
        assert_eq!(
            Fingerprint::of(br#"{"x":{"b":[1,2],"a":null}}"#, JSON, ""),
            Fingerprint::of(br#"{ "x" : { "a" : null, "b" : [ 1, 2 ] } }"#, JSON, ""),
        );
        assert_ne!(
            Fingerprint::of(br#"[1,2]"#, JSON, ""),
            Fingerprint::of(br#"[2,1]"#, JSON, ""),
        );
    }

    #[test]
    fn json_is_recognized_by_essence_and_suffix() {
        let canonical = Fingerprint::of(br#"{"a":1}"#, JSON, "");
        for ct in [
            "application/json; charset=utf-8",
            "Application/JSON",
            " application/json ;charset=UTF-8",
            "application/problem+json",
            "application/merge-patch+json; charset=utf-8",
            "application/vnd.api+JSON",
            "x/+json",
        ] {
            assert_eq!(
                Fingerprint::of(br#"{ "a" : 1 }"#, Some(ct), ""),
                canonical,
                "{ct}"
            );
        }
        for ct in [
            None,
            Some("text/plain"),
            Some("application/jsonx"),
            Some("json"),
            Some("application/json+"),
            Some("x/json"),
        ] {
            assert_ne!(
                Fingerprint::of(br#"{ "a" : 1 }"#, ct, ""),
                Fingerprint::of(br#"{"a":1}"#, ct, ""),
                "{ct:?}"
            );
        }
    }

    #[test]
    fn different_json_values_differ() {
        assert_ne!(
            Fingerprint::of(br#"{"a":1}"#, JSON, ""),
            Fingerprint::of(br#"{"a":2}"#, JSON, ""),
        );
        assert_ne!(
            Fingerprint::of(br#"{"a":"1"}"#, JSON, ""),
            Fingerprint::of(br#"{"a":1}"#, JSON, ""),
        );
        assert_ne!(
            Fingerprint::of(br#"{"a":1}"#, JSON, ""),
            Fingerprint::of(br#"{"a":1,"b":null}"#, JSON, ""),
        );
    }

    #[test]
    fn invalid_json_is_fingerprinted_as_raw_bytes() {
        let a = Fingerprint::of(br#"{"a":1,"#, JSON, "");
        assert_eq!(a, Fingerprint::of(br#"{"a":1,"#, JSON, ""));
        assert_eq!(a, Fingerprint::of(br#"{"a":1,"#, None, ""));
        assert_ne!(a, Fingerprint::of(br#"{"a":1, "#, JSON, ""));
    }

    #[test]
    fn query_string_is_part_of_the_fingerprint_as_given() {
        let body = br#"{"a":1}"#;
        let base = Fingerprint::of(body, JSON, "x=1&y=2");
        assert_eq!(base, Fingerprint::of(body, JSON, "x=1&y=2"));
        assert_ne!(base, Fingerprint::of(body, JSON, "x=1&y=3"));
        assert_ne!(base, Fingerprint::of(body, JSON, "y=2&x=1"));
        assert_ne!(base, Fingerprint::of(body, JSON, ""));
    }

    #[test]
    fn body_and_query_boundary_is_unambiguous() {
        assert_ne!(
            Fingerprint::of(b"bc", None, "a"),
            Fingerprint::of(b"c", None, "ab")
        );
        assert_ne!(
            Fingerprint::of(b"", None, "abc"),
            Fingerprint::of(b"abc", None, "")
        );
    }

    #[test]
    fn empty_payload_has_a_stable_fingerprint() {
        assert_eq!(
            Fingerprint::of(b"", None, ""),
            Fingerprint::of(b"", JSON, "")
        );
        assert_eq!(Fingerprint::of(b"", None, "").to_hex().len(), 64);
    }

    fn canonical(body: &str) -> String {
        String::from_utf8(canonical_json(body.as_bytes()).expect("JSON")).expect("UTF-8")
    }

    /// The canonical form is what every stored fingerprint was made from: changing it would
    /// answer a client's retry across a deployment with 422, so it is pinned byte for byte.
    #[test]
    fn the_canonical_form_is_compact_json_with_sorted_members() {
        assert_eq!(canonical("[1, 2, [3, 4], []]"), "[1,2,[3,4],[]]");
        assert_eq!(
            canonical(r#"{ "b": {"d": 1, "c": [true, null]}, "a": "x" , "e": {} }"#),
            r#"{"a":"x","b":{"c":[true,null],"d":1},"e":{}}"#
        );
        assert_eq!(
            canonical(r#"["a\"b", "\u00e9", "\n"]"#),
            r#"["a\"b","é","\n"]"#
        );
        assert_eq!(canonical("[1, 1.0, -0.5, 1e2]"), "[1,1.0,-0.5,100.0]");
    }

    #[test]
    fn the_fingerprint_of_a_known_request_never_changes() {
        let fingerprint = Fingerprint::of(br#"{"b":[1,2],"a":{"y":"\"","x":1.5}}"#, JSON, "q=1");

        assert_eq!(
            format!("{fingerprint:?}"),
            format!("Fingerprint({})", fingerprint.to_hex())
        );
        // SHA-256 of the tag, then the query and the canonical body
        // `{"a":{"x":1.5,"y":"\""},"b":[1,2]}`, each framed by its length as a big-endian u64:
        // computed outside this crate (Python's hashlib), from that description.
        assert_eq!(
            fingerprint.to_hex(),
            "50fdf8859ae66bec29482d8d9ec3dba79a75344d41b21ce08f87c30724a8f6c3"
        );
    }

    const KNOWN_BODY: &[u8] = br#"{"b":[1,2],"a":{"y":"\"","x":1.5}}"#;

    /// A header map with `lines`, in order.
    fn headers(lines: &[(&str, &str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in lines {
            headers.append(
                HeaderName::from_bytes(name.as_bytes()).expect("a header name"),
                value.parse().expect("a header value"),
            );
        }
        headers
    }

    /// The fingerprint of `PUT /things/1` with `{"a":1}`, its headers `lines`, declaring none.
    fn with_headers(lines: &[(&str, &str)]) -> Fingerprint {
        Fingerprint::of_request(br#"{"a":1}"#, JSON, "/things/1", "", &headers(lines), &[])
    }

    #[test]
    fn a_request_without_preconditions_has_the_fingerprint_earlier_versions_stored() {
        let others = headers(&[
            ("content-type", "application/json"),
            ("authorization", "Bearer t"),
            ("idempotency-key", "k"),
            ("x-tenant", "t1"),
        ]);

        let fingerprint =
            Fingerprint::of_request(KNOWN_BODY, JSON, "/things/1", "q=1", &others, &[]);

        // What the guard hashed before preconditions were covered: a retry across the upgrade
        // still matches. SHA-256 of the tag, the target `/things/1?q=1` and the canonical body,
        // each framed: computed outside this crate (Python's hashlib).
        assert_eq!(
            fingerprint,
            Fingerprint::of_target(KNOWN_BODY, JSON, "/things/1", "q=1")
        );
        assert_eq!(
            fingerprint.to_hex(),
            "f9fa73b9522d588c37f15fa434918412ba393defcf2545888358beb1297e8f81"
        );
    }

    #[test]
    fn the_fingerprint_of_a_known_request_with_preconditions_never_changes() {
        let sent = headers(&[
            ("if-none-match", "\"a\""),
            ("x-tenant", "t1"),
            ("if-match", "\"v1\""),
            ("if-none-match", "\"b\""),
        ]);
        let declared = [HeaderName::from_static("x-tenant")];

        let fingerprint =
            Fingerprint::of_request(KNOWN_BODY, JSON, "/things/1", "q=1", &sent, &declared);

        // The same hash fed, after the body, with the framed name (lower case) and value of
        // each header sent, preconditions in the order of RFC 9110 then the declared ones:
        // `if-match` `"v1"`, `if-none-match` `"a", "b"` (its two lines, one list),
        // `x-tenant` `t1`. Computed outside this crate (Python's hashlib).
        assert_eq!(
            fingerprint.to_hex(),
            "e3f748ee44e9fc93e86fee94bbd23a505c1acffdf3d8cf8a29db8ea83ae0b714"
        );
    }

    #[test]
    fn the_same_preconditions_share_a_fingerprint() {
        assert_eq!(
            with_headers(&[("if-match", "\"v1\"")]),
            with_headers(&[("if-match", "\"v1\"")])
        );
    }

    #[test]
    fn another_value_of_any_precondition_is_another_request() {
        for precondition in &PRECONDITION_HEADERS {
            let name = precondition.as_str();

            assert_ne!(
                with_headers(&[(name, "\"v1\"")]),
                with_headers(&[(name, "\"v3\"")]),
                "{name}"
            );
        }
    }

    #[test]
    fn a_precondition_added_or_left_out_is_another_request() {
        for precondition in &PRECONDITION_HEADERS {
            let name = precondition.as_str();

            assert_ne!(
                with_headers(&[]),
                with_headers(&[(name, "\"v1\"")]),
                "{name}"
            );
        }
    }

    #[test]
    fn an_empty_precondition_is_not_an_absent_one() {
        assert_ne!(with_headers(&[]), with_headers(&[("if-match", "")]));
    }

    #[test]
    fn one_value_under_another_precondition_is_another_request() {
        assert_ne!(
            with_headers(&[("if-match", "\"v1\"")]),
            with_headers(&[("if-none-match", "\"v1\"")])
        );
    }

    #[test]
    fn several_lines_of_a_precondition_are_one_list_in_their_order() {
        let two_lines = with_headers(&[("if-match", "\"a\""), ("if-match", "\"b\"")]);

        assert_eq!(two_lines, with_headers(&[("if-match", "\"a\", \"b\"")]));
        assert_ne!(
            two_lines,
            with_headers(&[("if-match", "\"b\""), ("if-match", "\"a\"")])
        );
        assert_ne!(two_lines, with_headers(&[("if-match", "\"a\"")]));
    }

    #[test]
    fn a_declared_header_is_covered_and_an_undeclared_one_is_not() {
        let fingerprint = |tenant: &str, declared: &[HeaderName]| {
            Fingerprint::of_request(
                b"",
                None,
                "/things",
                "",
                &headers(&[("x-tenant", tenant)]),
                declared,
            )
        };
        let tenant = [HeaderName::from_static("x-tenant")];

        assert_ne!(fingerprint("t1", &tenant), fingerprint("t2", &tenant));
        assert_eq!(fingerprint("t1", &[]), fingerprint("t2", &[]));
    }

    /// JSON does not say whether `1` and `1.0` are one number; handlers may not agree either (an
    /// integer field refuses `1.0`). So they are different requests, as their text says.
    #[test]
    fn an_integer_and_the_same_number_with_a_fraction_are_different_requests() {
        assert_ne!(
            Fingerprint::of(br#"{"n":1}"#, JSON, ""),
            Fingerprint::of(br#"{"n":1.0}"#, JSON, ""),
        );
        assert_eq!(
            Fingerprint::of(br#"{"n":1.0}"#, JSON, ""),
            Fingerprint::of(br#"{"n":1.00}"#, JSON, ""),
        );
        assert_eq!(
            Fingerprint::of(br#"{"n":100.0}"#, JSON, ""),
            Fingerprint::of(br#"{"n":1e2}"#, JSON, ""),
        );
    }

    mod properties {
        use proptest::prelude::*;
        use serde_json::{Map, Value};

        use super::JSON;
        use crate::key::Fingerprint;

        /// JSON values from small domains, so that two drawn values are often equal or nearly
        /// so: the separators and nesting the canonical form writes are what tells them apart.
        fn value() -> impl Strategy<Value = Value> {
            let leaf = prop_oneof![
                Just(Value::Null),
                any::<bool>().prop_map(Value::Bool),
                (0u64..13).prop_map(Value::from),
                // Eighths are exact in binary and in decimal: they parse back to themselves.
                (-16i64..16).prop_map(|n| Value::from(n as f64 / 8.0)),
                prop::sample::select(vec![
                    "", "a", "1", "12", ",", ":", "\"", "\\", "a,b", "é", "\n"
                ])
                .prop_map(Value::from),
            ];
            leaf.prop_recursive(3, 24, 4, |inner| {
                prop_oneof![
                    prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                    prop::collection::vec(
                        (prop::sample::select(vec!["a", "b", "a,b", "\"", ""]), inner),
                        0..4
                    )
                    .prop_map(|members| {
                        Value::Object(
                            members
                                .into_iter()
                                .map(|(key, value)| (key.to_owned(), value))
                                .collect::<Map<_, _>>(),
                        )
                    }),
                ]
            })
        }

        fn fingerprint(text: &str) -> Fingerprint {
            Fingerprint::of(text.as_bytes(), JSON, "")
        }

        /// `value`'s text with its object members in reverse order and spaces around every
        /// token: the same JSON, as another client would send it.
        fn reordered(value: &Value) -> String {
            match value {
                Value::Array(items) => format!(
                    "[ {} ]",
                    items.iter().map(reordered).collect::<Vec<_>>().join(" , ")
                ),
                Value::Object(members) => format!(
                    "{{ {} }}",
                    members
                        .iter()
                        .rev()
                        .map(|(key, value)| format!(
                            "{} : {}",
                            Value::from(key.as_str()),
                            reordered(value)
                        ))
                        .collect::<Vec<_>>()
                        .join(" ,\n ")
                ),
                scalar => scalar.to_string(),
            }
        }

        proptest! {
            #[test]
            fn values_equal_as_json_share_a_fingerprint(value in value()) {
                let compact = value.to_string();
                prop_assert_eq!(fingerprint(&compact), fingerprint(&reordered(&value)));
                let pretty = serde_json::to_string_pretty(&value).expect("JSON");
                prop_assert_eq!(fingerprint(&compact), fingerprint(&pretty));
            }

            #[test]
            fn values_that_differ_never_share_a_fingerprint(a in value(), b in value()) {
                prop_assume!(a != b);
                prop_assert_ne!(fingerprint(&a.to_string()), fingerprint(&b.to_string()));
            }

            #[test]
            fn an_array_split_or_joined_differently_is_another_request(
                items in prop::collection::vec(0u64..13, 2..5),
                at in 0usize..4,
            ) {
                // [1,2] against [12], [[1],2] against [1,[2]]: the same digits, other values.
                let at = at % (items.len() - 1) + 1;
                let flat = Value::from(items.clone());
                let split = Value::from(vec![
                    Value::from(items[..at].to_vec()),
                    Value::from(items[at..].to_vec()),
                ]);
                let joined: String = items.iter().map(u64::to_string).collect();
                prop_assert_ne!(fingerprint(&flat.to_string()), fingerprint(&split.to_string()));
                prop_assert_ne!(fingerprint(&flat.to_string()), fingerprint(&format!("[{joined}]")));
            }
        }
    }
}
