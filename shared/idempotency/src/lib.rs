//! HTTP request idempotency via client-supplied `Idempotency-Key` headers (the layer lands in the next commit).
