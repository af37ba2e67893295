//! Who is calling: the authenticated [`Principal`], access-token keys, and the bearer scheme.
//!
//! Verification lives here rather than in the identity module because more than one layer must
//! check a token on its own: the handlers (through [`BearerAuth`]) and the idempotency layer,
//! which scopes keys by caller and cannot trust an extractor that does not run on a replay.

use std::sync::Arc;

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use poem::Request;
use poem_openapi::SecurityScheme;
use poem_openapi::auth::Bearer;
use serde::{Deserialize, Serialize};

use crate::error::AppError;

/// The caller, as proven by a valid access token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    /// The user id (`sub`).
    pub subject: String,
    /// The session the token belongs to (`sid`).
    pub session_id: String,
    /// Roles granted to the user.
    pub roles: Vec<String>,
}

impl Principal {
    pub fn has_role(&self, role: &str) -> bool {
        self.roles.iter().any(|r| r == role)
    }
}

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
pub struct TokenVerifier {
    algorithm: Algorithm,
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    issuer: String,
    audience: String,
}

impl std::fmt::Debug for TokenVerifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Keys are secrets: never printed.
        f.debug_struct("TokenVerifier")
            .field("algorithm", &self.algorithm)
            .field("issuer", &self.issuer)
            .field("audience", &self.audience)
            .finish_non_exhaustive()
    }
}

impl TokenVerifier {
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
        })
    }
}

/// A bearer access token, checked on every request that declares it.
///
/// The verifier is taken from the request's data, where the host puts it.
#[derive(SecurityScheme)]
#[oai(ty = "bearer", bearer_format = "JWT", checker = "check_bearer")]
pub struct BearerAuth(pub Principal);

async fn check_bearer(req: &Request, bearer: Bearer) -> poem::Result<Principal> {
    let verifier = req
        .data::<Arc<TokenVerifier>>()
        .ok_or_else(|| AppError::internal("no token verifier is installed"))?;
    verifier.verify(&bearer.token).map_err(|_| {
        AppError::Unauthorized("The access token is missing, expired or invalid.".into()).into()
    })
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
            TokenVerifier::hs256(b"0123456789abcdef0123456789abcdef", "issuer", "audience")
                .unwrap();
        let token = verifier.sign(&claims(now())).unwrap();
        let principal = verifier.verify(&token).unwrap();
        assert_eq!(principal.subject, "user-1");
        assert!(principal.has_role("admin"));
    }

    #[test]
    fn a_token_for_another_audience_or_key_is_refused() {
        let verifier =
            TokenVerifier::hs256(b"0123456789abcdef0123456789abcdef", "issuer", "audience")
                .unwrap();
        let other_audience =
            TokenVerifier::hs256(b"0123456789abcdef0123456789abcdef", "issuer", "elsewhere")
                .unwrap();
        let other_key =
            TokenVerifier::hs256(b"fedcba9876543210fedcba9876543210", "issuer", "audience")
                .unwrap();
        let token = verifier.sign(&claims(now())).unwrap();
        assert!(other_audience.verify(&token).is_err());
        assert!(other_key.verify(&token).is_err());
    }

    #[test]
    fn an_expired_token_is_refused() {
        let verifier =
            TokenVerifier::hs256(b"0123456789abcdef0123456789abcdef", "issuer", "audience")
                .unwrap();
        let token = verifier.sign(&claims(now() - 3_600)).unwrap();
        assert!(verifier.verify(&token).is_err());
    }
}
