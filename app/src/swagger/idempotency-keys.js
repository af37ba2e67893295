// Swagger UI's request interceptor for this service: "Try it out" on an operation that takes an
// Idempotency-Key sends a fresh one with each execution, unless the key field was filled in
// (type one yourself and execute twice to see the second answer replayed, marked
// `x-idempotent-replay: true` among the response headers).
function idempotencyKeyInterceptor(spec, newKey) {
  // "/api/v1/things/{id}" -> /^\/api\/v1\/things\/[^/]+$/
  const templates = Object.entries(spec.paths || {}).map(([path, item]) => ({
    pattern: new RegExp(
      "^" + path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+") + "$"
    ),
    item,
  }));
  const takesKey = (method, pathname) => templates.some(({ pattern, item }) => {
    const operation = item[method.toLowerCase()];
    return pattern.test(pathname) && operation &&
      (operation.parameters || []).some((p) => p.in === "header" && p.name === "Idempotency-Key");
  });
  return (request) => {
    const headers = request.headers || (request.headers = {});
    const given = Object.keys(headers).find((name) => name.toLowerCase() === "idempotency-key");
    if (given && String(headers[given]).trim() !== "") return request;
    const pathname = new URL(request.url, "http://service").pathname;
    if (takesKey(request.method || "GET", pathname)) headers["Idempotency-Key"] = newKey();
    return request;
  };
}

// A random (version 4) UUID. `crypto.randomUUID` exists only on HTTPS and localhost pages;
// `getRandomValues` everywhere.
function freshIdempotencyKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

if (typeof module !== "undefined") module.exports = { idempotencyKeyInterceptor, freshIdempotencyKey };
