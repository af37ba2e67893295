-- What each account event may remove (ADR 0017) needs to know two things it could not tell before.
--
-- How an identity was linked: 'verified_address' (a provider asserted the account's confirmed
-- address, or made the account with it) or 'signed_in' (a signed-in account linked it to
-- itself). A password reset removes the second kind: whoever held a session could have added it.
-- Identities linked before this column existed count as the first kind.
ALTER TABLE identity_linked_identities ADD COLUMN linked_by TEXT NOT NULL DEFAULT 'verified_address';
-- The identity a session was opened with (NULL: a password login): removing the identity ends
-- the sessions it opened.
ALTER TABLE identity_sessions ADD COLUMN identity_id TEXT;
CREATE INDEX identity_sessions_identity ON identity_sessions (identity_id);
