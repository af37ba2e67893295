-- The wrk script of tests/bench/writers: one kind of write, from the environment.
--
--   BENCH_METHOD         POST or PUT
--   BENCH_AUTHORIZATION  the Authorization header of every request
--   BENCH_IF_MATCH       an If-Match header for every request (a PUT's condition), or empty
--   BENCH_KEY_PREFIX     a new Idempotency-Key on every request, PREFIX-<thread>-<n>, or empty
--   BENCH_BODY           the JSON body
--
-- done() prints one `BENCH key=value ...` line for the script to parse.

local next_thread_id = 1

function setup(thread)
  thread:set("thread_id", next_thread_id)
  next_thread_id = next_thread_id + 1
end

thread_id = 0
local counter = 0
local method = os.getenv("BENCH_METHOD")
local authorization = os.getenv("BENCH_AUTHORIZATION")
local if_match = os.getenv("BENCH_IF_MATCH") or ""
local key_prefix = os.getenv("BENCH_KEY_PREFIX") or ""
local body = os.getenv("BENCH_BODY")

function request()
  local headers = {
    ["Content-Type"] = "application/json",
    ["Authorization"] = authorization,
  }
  if if_match ~= "" then
    headers["If-Match"] = if_match
  end
  if key_prefix ~= "" then
    counter = counter + 1
    headers["Idempotency-Key"] = key_prefix .. "-" .. thread_id .. "-" .. counter
  end
  return wrk.format(method, nil, headers, body)
end

function done(summary, latency, requests)
  io.write(string.format("BENCH requests=%d duration_us=%d status=%d\n",
    summary.requests, summary.duration, summary.errors.status))
end
