-- An authorization started by a signed-in account to link a provider account to itself
-- (`/auth/oauth/{provider}/link`): the account, which the link exchange must be made by. NULL
-- for a sign-in; a sign-in's exchange takes no state that has one, and a link's takes no other.
ALTER TABLE identity_oauth_states ADD COLUMN link_user_id TEXT;
