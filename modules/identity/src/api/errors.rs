//! What each identity operation can fail with, as its document lists it (beyond the malformed
//! request, 400, and the fault, 500, that the host documents on every operation).

use kernel::auth::{NOT_AN_ADMINISTRATOR, SESSION_ENDED};

use crate::oauth::NO_SUCH_PROVIDER;

const TOO_MANY: &str = "Too many attempts from this address or on this account: `Retry-After` \
                        says when to try again.";
const BUSY: &str = "The service is busy hashing passwords: `Retry-After` says when to try again.";
const LINK_UNUSABLE: &str = "The token is unknown, expired or already used.";

kernel::operation_error! {
    /// How registering fails.
    pub RegisterError {
        CONFLICT => "An account already has this email.",
        TOO_MANY_REQUESTS => TOO_MANY,
        SERVICE_UNAVAILABLE => BUSY,
    }
}

kernel::operation_error! {
    /// How logging in fails.
    pub LoginError {
        UNAUTHORIZED => "The email or the password is incorrect (the same answer for both).",
        FORBIDDEN => "The account is locked, or its email is not confirmed where the service \
                      requires it.",
        TOO_MANY_REQUESTS => TOO_MANY,
        SERVICE_UNAVAILABLE => BUSY,
    }
}

kernel::operation_error! {
    /// How exchanging or revoking a refresh token fails.
    pub RefreshTokenError {
        UNAUTHORIZED => "The refresh token is invalid, expired or already used: log in again.",
    }
}

kernel::operation_error! {
    /// How an operation on the caller's own account fails.
    pub CallerError {
        UNAUTHORIZED => SESSION_ENDED,
    }
}

kernel::operation_error! {
    /// How revoking one of the caller's sessions fails.
    pub RevokeSessionError {
        UNAUTHORIZED => SESSION_ENDED,
        NOT_FOUND => "The caller has no session with this id.",
    }
}

kernel::operation_error! {
    /// How asking for a mailed link fails.
    pub MailLinkError {
        TOO_MANY_REQUESTS => TOO_MANY,
        SERVICE_UNAVAILABLE => "Too many links are waiting to be mailed: `Retry-After` says \
                                when to try again.",
    }
}

kernel::operation_error! {
    /// How resetting the password fails.
    pub ResetPasswordError {
        BAD_REQUEST => LINK_UNUSABLE,
        SERVICE_UNAVAILABLE => BUSY,
    }
}

kernel::operation_error! {
    /// How confirming the email address fails.
    pub ConfirmEmailError {
        BAD_REQUEST => LINK_UNUSABLE,
    }
}

kernel::operation_error! {
    /// How an administrator's read fails.
    pub AdminReadError {
        UNAUTHORIZED => SESSION_ENDED,
        FORBIDDEN => NOT_AN_ADMINISTRATOR,
    }
}

kernel::operation_error! {
    /// How locking or unlocking an account fails.
    pub AdminChangeError {
        UNAUTHORIZED => SESSION_ENDED,
        FORBIDDEN => "The caller is not an administrator, or tried to lock their own account.",
        NOT_FOUND => crate::service::NO_SUCH_ACCOUNT,
    }
}

const PROVIDER_UNREACHABLE: &str = "The provider could not be reached or gave an unusable answer \
                                    (its discovery document, keys or token endpoint): try again \
                                    later.";

kernel::operation_error! {
    /// How listing the sign-in providers fails (only as any operation can).
    pub ListProvidersError {}
}

kernel::operation_error! {
    /// How starting a sign-in with a provider fails.
    pub AuthorizeError {
        NOT_FOUND => NO_SUCH_PROVIDER,
        TOO_MANY_REQUESTS => TOO_MANY,
        BAD_GATEWAY => PROVIDER_UNREACHABLE,
    }
}

kernel::operation_error! {
    /// How completing a sign-in with a provider fails.
    pub ExchangeError {
        UNAUTHORIZED => "The provider refused the code (invalid, expired or already used), or \
                         its ID token did not validate (signature, issuer, audience, expiry or \
                         nonce).",
        FORBIDDEN => "The account is locked; or the provider asserted no verified email address \
                      for a first sign-in; or no account has the address and the service makes \
                      none on sign-in.",
        NOT_FOUND => NO_SUCH_PROVIDER,
        CONFLICT => "An account has the verified address but has not confirmed it, so it is not \
                     linked (nor is a second account made with it); or a concurrent sign-in \
                     linked the same provider account first.",
        BAD_GATEWAY => PROVIDER_UNREACHABLE,
    }
}

const LINK_NEEDS: &str = "The account's address is not confirmed, or the caller signed in \
                          longer ago than `identity.recent_sign_in`: sign in again, then link \
                          with the new session's token.";

kernel::operation_error! {
    /// How starting to link a provider account fails.
    pub StartLinkError {
        UNAUTHORIZED => SESSION_ENDED,
        FORBIDDEN => LINK_NEEDS,
        NOT_FOUND => NO_SUCH_PROVIDER,
        TOO_MANY_REQUESTS => TOO_MANY,
        BAD_GATEWAY => PROVIDER_UNREACHABLE,
    }
}

kernel::operation_error! {
    /// How completing a link with a provider account fails.
    pub LinkError {
        UNAUTHORIZED => "The caller's session ended; or the provider refused the code (invalid, \
                         expired or already used), or its ID token did not validate.",
        FORBIDDEN => LINK_NEEDS,
        NOT_FOUND => NO_SUCH_PROVIDER,
        CONFLICT => "The provider account is linked already: to the caller's account, or to \
                     another one.",
        BAD_GATEWAY => PROVIDER_UNREACHABLE,
    }
}

kernel::operation_error! {
    /// How removing a linked identity fails.
    pub UnlinkIdentityError {
        UNAUTHORIZED => SESSION_ENDED,
        NOT_FOUND => "The caller has no linked identity with this id.",
        CONFLICT => "It is the account's only way to sign in (no password, no other identity).",
    }
}
