// A real OpenID Connect provider (oidc-provider, OpenID-certified) for the e2e tests of
// "sign in with an OpenID Connect provider". The harness (tests/e2e/identity/oauth.rs) starts it
// with `node provider.mjs` on a free port and reads the first line it prints: `listening <issuer>`.
//
// - One confidential client, from the environment: OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and
//   OIDC_REDIRECT_URIS (comma-separated); PKCE (S256) is required of it.
// - Its login form (devInteractions) takes any password, and the login names the end-user:
//   `subject~email~verified` (e.g. `u-1~alice@example.com~true`), so each test chooses who signs
//   in and what the provider asserts about their address, with one provider for the whole run.
// - The email claims go into the ID token (conformIdTokenClaims: false), as most providers do;
//   with OIDC_CLAIMS_IN_ID_TOKEN=false, only into the userinfo answer (the provider's default,
//   OpenID Connect Core 5.4).
// - PORT: where to listen (default: a free port). OIDC_FRESH_KEYS=true: sign with a new RSA key
//   (a new `kid`) instead of the quick-start keys, so a restart on the same port is a provider
//   that rotated its signing key.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import http from 'node:http';
import Provider from 'oidc-provider';

const { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_REDIRECT_URIS } = process.env;
if (!OIDC_CLIENT_ID || !OIDC_CLIENT_SECRET || !OIDC_REDIRECT_URIS) {
  console.error('set OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and OIDC_REDIRECT_URIS');
  process.exit(2);
}

function claimsOf(accountId) {
  const [sub, email, verified] = accountId.split('~');
  const claims = { sub: accountId };
  if (sub && email) {
    claims.email = email;
    claims.email_verified = verified === 'true';
  }
  return claims;
}

function freshKeys() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), use: 'sig', alg: 'RS256' }] };
}

const server = http.createServer();
server.listen(Number(process.env.PORT || 0), '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const provider = new Provider(issuer, {
    clients: [{
      client_id: OIDC_CLIENT_ID,
      client_secret: OIDC_CLIENT_SECRET,
      redirect_uris: OIDC_REDIRECT_URIS.split(','),
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    }],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    conformIdTokenClaims: process.env.OIDC_CLAIMS_IN_ID_TOKEN === 'false',
    cookies: { keys: ['e2e-only-cookie-key'] },
    ...(process.env.OIDC_FRESH_KEYS === 'true' ? { jwks: freshKeys() } : {}),
    findAccount: (_ctx, accountId) => ({ accountId, claims: () => claimsOf(accountId) }),
  });
  // Loopback over plain HTTP is fine for tests; keep the provider quiet about it.
  provider.proxy = false;
  server.on('request', provider.callback());
  console.log(`listening ${issuer}`);
});

// The harness kills the process when the test binary ends; a closed stdin means the same.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
