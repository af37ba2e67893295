-- When the password last changed: a session opened before it is refused, whatever else says.
ALTER TABLE identity_users ADD COLUMN password_changed_at_ms BIGINT;
-- The last successful login. Logging in updates the account row, which is what serialises a
-- login with a concurrent lock or password reset (see IdentityRepository::open_session).
ALTER TABLE identity_users ADD COLUMN last_login_at_ms BIGINT;
