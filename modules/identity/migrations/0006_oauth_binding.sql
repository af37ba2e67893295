-- The SHA-256 of the secret `authorize` answered the client that started the sign-in (its
-- "binding"): `exchange` takes the state only together with it, so a code and state seen by
-- someone else (a leaked callback URL, a login CSRF) sign nobody in. Rows written before this
-- column existed have none, and no exchange takes them: those sign-ins start again.
ALTER TABLE identity_oauth_states ADD COLUMN binding_hash TEXT NOT NULL DEFAULT '';
