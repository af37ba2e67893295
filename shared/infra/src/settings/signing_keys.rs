//! Whether a signing key is one anyone can read or guess: a key written in this repository's
//! files, a shared secret made from one, or a shared secret too short or too patterned to be
//! generated. Production refuses them (`AuthSettings::validate_for_production`).
//!
//! The repository's keys are known here by hashes only: this file must not become one more
//! copy of them. `tests/e2e/settings.rs` checks that every key the repository's settings,
//! compose, Markdown and PEM files hold is refused.

use std::collections::{BTreeSet, HashSet};

use base64::Engine as _;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use ed25519_dalek::pkcs8::{DecodePrivateKey as _, DecodePublicKey as _};

/// SHA-256 (hex) of the DER of every PEM key written in this repository's files. A setting's
/// PEM blocks are compared by their DER and, for Ed25519, by the public key they hold or derive,
/// so neither the text around a key, its line endings nor its PKCS#8 version hides it. A unit
/// test recomputes the list from `tests/keys/*.pem`.
const REPOSITORY_PEM_KEYS: &[&str] = &[
    // tests/keys/ed25519-private.pem
    "e146a0923b60a71586da3355d21a44629a1f7ab26567118e9a1297ecfeccbeee",
    // tests/keys/ed25519-public.pem, the public half of the key above: it verifies tokens
    // anyone can sign
    "8a39b696be4d7aecd6f0d890a8e937a09481c00aa1144ac7185adfaa0cc8292f",
];

/// A shared secret written in this repository's files, known by its [`fold`]ed form: that
/// form's length and SHA-256 (hex).
struct RepositorySecret {
    folded_len: usize,
    folded_sha256: &'static str,
}

/// Every HS256 key written in this repository's files, now or in its history.
const REPOSITORY_SECRETS: &[RepositorySecret] = &[
    // config/default.toml: the development key
    RepositorySecret {
        folded_len: 39,
        folded_sha256: "8d7a6d29b1c5d810e05c4442b6d9bc26299ef9706b4f6e296b4a70ebce0be30f",
    },
    // docker-compose.yml before it took its key from the environment
    RepositorySecret {
        folded_len: 40,
        folded_sha256: "36bcbb9a44fdfd5b82bb39dd58fdfe44fea0b3c62db20a44ea0696bd99fffb20",
    },
    // tests/e2e/settings.rs once used it as "a production key"
    RepositorySecret {
        folded_len: 34,
        folded_sha256: "26c20603e9b23afc33983896bcee467f979cfd7a6d837ab1bbdce92afcac6a50",
    },
    // shared/kernel/src/auth.rs tests: the signing key and the other key
    RepositorySecret {
        folded_len: 32,
        folded_sha256: "3eb1bd439947eb762998e566ccc2e099c791118b2f40579cc4f7da2b5061b7f9",
    },
    RepositorySecret {
        folded_len: 32,
        folded_sha256: "4ba68aa8767bde72e8c798ee82d1275291cea73e72ad74d35ecf48e41386eb82",
    },
    // tests/lib.rs and tests/e2e/identity/tokens.rs: the forger's key
    RepositorySecret {
        folded_len: 34,
        folded_sha256: "717a7c41f4dff000209bc5021efc863c30162ad4679a30fa7575094f04a3ecec",
    },
    // tests/bench/revocation_cost.rs
    RepositorySecret {
        folded_len: 31,
        folded_sha256: "c567e994290da24488d703e09babe48e00135b1934929676027f297e3a9722e0",
    },
];

/// Whether a PEM block in `text` holds a key written in this repository's files. Every block
/// counts, wherever it sits in the text, as PEM parsers ignore the text around a block. One that
/// does not parse is no key here, and fails where the signing keys are built.
pub(super) fn holds_repository_pem_key(text: &str) -> bool {
    pem_key_material(text)
        .iter()
        .any(|material| REPOSITORY_PEM_KEYS.contains(&sha256_hex(material).as_str()))
}

/// The DER of every PEM block in `text`, and for an Ed25519 key its public key as the DER any
/// PEM public key file of it holds: what identifies a private key whatever its encoding.
fn pem_key_material(text: &str) -> Vec<Vec<u8>> {
    let mut material = Vec::new();
    // `pem::parse` reads the first block of its input (the signing library reads a setting so):
    // started at every block, a malformed one does not hide those after it.
    for (at, _) in text.match_indices("-----BEGIN ") {
        let Ok(block) = pem::parse(&text[at..]) else {
            continue;
        };
        let der = block.into_contents();
        if let Some(public_key) = ed25519_public_key(&der) {
            material.push(ed25519_public_key_der(&public_key));
        }
        material.push(der);
    }
    material
}

/// The public key an Ed25519 private key (PKCS#8) derives, or an Ed25519 public key holds.
fn ed25519_public_key(der: &[u8]) -> Option<[u8; 32]> {
    if let Ok(private_key) = ed25519_dalek::SigningKey::from_pkcs8_der(der) {
        return Some(private_key.verifying_key().to_bytes());
    }
    ed25519_dalek::VerifyingKey::from_public_key_der(der)
        .ok()
        .map(|public_key| public_key.to_bytes())
}

/// The DER (SubjectPublicKeyInfo, RFC 8410) of an Ed25519 public key.
fn ed25519_public_key_der(public_key: &[u8; 32]) -> Vec<u8> {
    const PREFIX: [u8; 12] = [
        0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00,
    ];
    [&PREFIX[..], public_key].concat()
}

/// Whether `secret` is, or is plainly made from, a shared secret written in this repository's
/// files: it holds one in any case or punctuation, forwards or reversed, as it is or in base64
/// (standard or URL-safe) or hex, encoded up to twice. Every stretch of each reading that is as
/// long as a repository secret is hashed and compared, so the secrets need not be kept.
pub(super) fn made_from_repository_secret(secret: &str) -> bool {
    let lengths: BTreeSet<usize> = REPOSITORY_SECRETS
        .iter()
        .map(|known| known.folded_len)
        .collect();
    readings(secret).iter().any(|reading| {
        let folded = fold(reading);
        lengths.iter().any(|&length| {
            folded.windows(length).any(|stretch| {
                let hash = sha256_hex(stretch);
                REPOSITORY_SECRETS
                    .iter()
                    .any(|known| known.folded_len == length && known.folded_sha256 == hash)
            })
        })
    })
}

/// How many steps of reversing or decoding [`readings`] takes: enough for a secret encoded
/// twice and then reversed.
const READING_STEPS: usize = 3;

/// `secret` (whitespace left out) and what it reads as after up to [`READING_STEPS`] steps,
/// each reversing a reading or decoding it as base64 or hex.
fn readings(secret: &str) -> HashSet<Vec<u8>> {
    let start = without_whitespace(secret.as_bytes());
    let mut seen = HashSet::from([start.clone()]);
    let mut latest = vec![start];
    for _ in 0..READING_STEPS {
        let mut next = Vec::new();
        for reading in &latest {
            let reversed = reading.iter().rev().copied().collect();
            for derived in std::iter::once(reversed).chain(decodings(reading)) {
                if seen.insert(derived.clone()) {
                    next.push(derived);
                }
            }
        }
        latest = next;
    }
    seen
}

/// Base64 that takes padding or its absence, and any final bits: a secret is judged by what it
/// decodes to, not by how neatly it is written.
const LENIENT: GeneralPurposeConfig = GeneralPurposeConfig::new()
    .with_decode_padding_mode(DecodePaddingMode::Indifferent)
    .with_decode_allow_trailing_bits(true);
const BASE64_STANDARD: GeneralPurpose = GeneralPurpose::new(&base64::alphabet::STANDARD, LENIENT);
const BASE64_URL_SAFE: GeneralPurpose = GeneralPurpose::new(&base64::alphabet::URL_SAFE, LENIENT);

/// What `text` decodes to as standard base64, URL-safe base64 and hex, where it is them.
fn decodings(text: &[u8]) -> Vec<Vec<u8>> {
    let compact = without_whitespace(text);
    [
        BASE64_STANDARD.decode(&compact).ok(),
        BASE64_URL_SAFE.decode(&compact).ok(),
        hex::decode(&compact).ok(),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The fewest bytes a production shared secret must decode to: what `openssl rand -base64 32`
/// prints holds 32 random bytes.
pub const MIN_SECRET_BYTES: usize = 32;

/// How many bytes `secret` decodes to as base64 (standard or URL-safe, padded or not,
/// whitespace left out), or `None` when it is not base64.
pub(super) fn base64_decoded_len(secret: &str) -> Option<usize> {
    let compact = without_whitespace(secret.as_bytes());
    [&BASE64_STANDARD, &BASE64_URL_SAFE]
        .iter()
        .filter_map(|engine| engine.decode(&compact).ok())
        .map(|bytes| bytes.len())
        .max()
}

/// Letters and digits only, in lower case: a secret's case and punctuation changed still fold
/// to the same bytes.
fn fold(text: &[u8]) -> Vec<u8> {
    text.iter()
        .filter(|byte| byte.is_ascii_alphanumeric())
        .map(u8::to_ascii_lowercase)
        .collect()
}

fn without_whitespace(text: &[u8]) -> Vec<u8> {
    text.iter()
        .copied()
        .filter(|byte| !byte.is_ascii_whitespace())
        .collect()
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    hex::encode(sha2::Sha256::digest(bytes))
}

/// How strong a shared signing key must be estimated to be in production.
pub const MIN_KEY_BITS: f64 = 128.0;

/// A rough estimate, in bits, of how hard a shared signing key is to guess. Each character is
/// worth the Shannon entropy of the key's own character frequencies, except those that continue
/// a run (`aaaa`, `0123`, `fedc`) or repeat a stretch seen before (`abcabc`), which add nothing.
/// A random key (`openssl rand -base64 32`) scores about 200; a short alphabet, repeats or runs
/// score low. Words are not recognised (a passphrase is judged as if its letters were random):
/// this catches careless keys that still decode to enough bytes (`aaaa…`, `changemechangeme…`),
/// it does not replace generating one.
pub fn estimated_key_bits(key: &str) -> f64 {
    // Long enough for any generated key; past it, the rest is not counted (an underestimate).
    let chars: Vec<char> = key.chars().take(512).collect();
    if chars.is_empty() {
        return 0.0;
    }
    let mut counts = std::collections::HashMap::<char, usize>::new();
    for c in &chars {
        *counts.entry(*c).or_default() += 1;
    }
    let length = chars.len() as f64;
    let per_char: f64 = counts
        .values()
        .map(|&count| {
            let p = count as f64 / length;
            -p * p.log2()
        })
        .sum();
    let mut surprising = 0usize;
    let mut at = 0;
    while at < chars.len() {
        if let Some(repeated) = repeat_at(&chars, at) {
            at += repeated;
            continue;
        }
        let continues_run = at > 0
            && (i64::from(u32::from(chars[at])) - i64::from(u32::from(chars[at - 1]))).abs() <= 1;
        if !continues_run {
            surprising += 1;
        }
        at += 1;
    }
    surprising as f64 * per_char
}

/// The length of the longest stretch (3 characters or more) starting at `at` that also starts
/// earlier in `chars`.
fn repeat_at(chars: &[char], at: usize) -> Option<usize> {
    (0..at)
        .map(|earlier| {
            chars[at..]
                .iter()
                .zip(&chars[earlier..])
                .take_while(|(a, b)| a == b)
                .count()
        })
        .max()
        .filter(|length| *length >= 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pem_key_list_is_the_der_of_the_keys_in_tests_keys() {
        let keys = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/keys");
        let mut recomputed = BTreeSet::new();
        for entry in std::fs::read_dir(&keys).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|extension| extension == "pem") {
                let text = std::fs::read_to_string(&path).unwrap();
                for block in pem::parse_many(&text).unwrap() {
                    recomputed.insert(sha256_hex(block.contents()));
                }
            }
        }

        let listed: BTreeSet<String> = REPOSITORY_PEM_KEYS
            .iter()
            .map(|hash| (*hash).to_owned())
            .collect();
        assert_eq!(listed, recomputed);
    }

    #[test]
    fn generated_keys_are_estimated_strong() {
        // Shaped as `openssl rand -base64 32` and `openssl rand -hex 32` print them.
        for key in [
            "q3Vx8mZ1kR0pN7bT4yW2cLf9sHdJ6gAeUoIiPzXvEw8=",
            "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        ] {
            let bits = estimated_key_bits(key);
            assert!(bits >= MIN_KEY_BITS, "{key}: {bits}");
        }
    }

    #[test]
    fn short_alphabets_repeats_and_runs_are_estimated_weak() {
        for key in [
            "a".repeat(64),
            "0123456789abcdef0123456789abcdef".to_owned(),
            "changeme".repeat(6),
            "zyxwvutsrqponmlkjihgfedcbaZYXWVUTSRQPONMLKJIHGFEDCBA".to_owned(),
        ] {
            let bits = estimated_key_bits(&key);
            assert!(bits < MIN_KEY_BITS, "{key}: {bits}");
        }
    }

    #[test]
    fn base64_is_measured_padded_or_not_standard_or_url_safe() {
        let bytes = [0xfb_u8; 32];
        for encoded in [
            base64::engine::general_purpose::STANDARD.encode(bytes),
            base64::engine::general_purpose::STANDARD_NO_PAD.encode(bytes),
            base64::engine::general_purpose::URL_SAFE.encode(bytes),
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes),
        ] {
            assert_eq!(base64_decoded_len(&encoded), Some(32), "{encoded}");
        }
        assert_eq!(base64_decoded_len("not base64!"), None);
    }
}
