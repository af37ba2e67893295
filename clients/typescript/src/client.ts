// A client of the service: the types come from openapi/openapi.json (`npm run generate` writes
// src/schema.d.ts with openapi-typescript), the requests from openapi-fetch.
import createClient, { type Middleware } from "openapi-fetch";
import type { paths } from "./schema";

/** The methods that change something: each call gets a key of its own. */
const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Sends an `Idempotency-Key` with every write that has none: the service then answers a retry
 * of the same call (with the same key) with the stored answer instead of acting twice. An
 * operation declared non-idempotent ignores it. To retry a call, send it again with the key
 * of its first attempt.
 */
export const idempotencyKeys: Middleware = {
  async onRequest({ request }) {
    if (UNSAFE.has(request.method) && !request.headers.has("Idempotency-Key")) {
      request.headers.set("Idempotency-Key", crypto.randomUUID());
    }
    return request;
  },
};

/** A client of the service at `baseUrl`, signed in with `accessToken` when given. */
export function serviceClient(baseUrl: string, accessToken?: string) {
  const client = createClient<paths>({
    baseUrl,
    headers: accessToken ? { Authorization: `Bearer ${accessToken}` } : {},
  });
  client.use(idempotencyKeys);
  return client;
}

/** Creates a thing; `key` makes a retry of this call safe (pass the same one again). */
export async function createThing(baseUrl: string, accessToken: string, name: string, key = crypto.randomUUID()) {
  const client = serviceClient(baseUrl, accessToken);
  const { data, error, response } = await client.POST("/api/v1/things", {
    params: { header: { "Idempotency-Key": key } },
    body: { name },
  });
  if (error) throw new Error(`${response.status}: ${JSON.stringify(error)}`);
  return { thing: data, replayed: response.headers.get("x-idempotent-replay") === "true" };
}
