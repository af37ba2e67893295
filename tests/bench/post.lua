-- The wrk script of the idempotency benchmark (tests/bench/main.rs runs it; see there).
--
-- POSTs the JSON body given as the first argument after `--` (the bench keeps the only copy,
-- since a replay's fingerprint covers the body byte for byte). The Idempotency-Key depends on
-- the arguments that follow:
--
--   none            no key at all
--   unique PREFIX   PREFIX-<thread>-<n>: a key never sent before on every request, so each one
--                   is a first execution (PREFIX is new for every wrk run, so keys do not repeat
--                   across runs either)
--   fixed KEY       the same key on every request: replays, once the bench has primed it
--
-- With BENCH_AUTHORIZATION set in the environment (the bench's --bearer), every request also
-- carries it as its Authorization header.
--
-- There is deliberately no response() function: with one defined, wrk parses every response
-- for Lua, a client cost that would come off the server's share of the two cores. wrk itself
-- counts statuses above 399, and the bench checks the server's own counters.
--
-- done() prints one `BENCH key=value ...` line that the bench parses, rather than the human
-- summary, so that latencies come as exact microseconds.

-- setup() runs in the main Lua state, once per thread, before the threads start: it numbers
-- the threads so that two threads never mint the same key.
local next_thread_id = 1

function setup(thread)
  thread:set("thread_id", next_thread_id)
  next_thread_id = next_thread_id + 1
end

-- Per-thread state (each wrk thread has a Lua state of its own; setup() overrides thread_id).
thread_id = 0
local counter = 0
local body, mode, key
local authorization = os.getenv("BENCH_AUTHORIZATION")
if authorization == "" then authorization = nil end

function init(args)
  body = args[1] or error("the first argument must be the request body")
  mode = args[2] or "none"
  key = args[3]
  if mode ~= "none" and mode ~= "unique" and mode ~= "fixed" then
    error("unknown mode " .. mode)
  end
  if mode ~= "none" and not key then
    error("mode " .. mode .. " needs a key or key prefix")
  end
end

-- Every mode formats its request on every call, so that the load generator does the same
-- work per request in every scenario and the ratios compare the server, not the client.
function request()
  local headers = { ["Content-Type"] = "application/json" }
  if authorization then
    headers["Authorization"] = authorization
  end
  if mode == "unique" then
    counter = counter + 1
    headers["Idempotency-Key"] = key .. "-" .. thread_id .. "-" .. counter
  elseif mode == "fixed" then
    headers["Idempotency-Key"] = key
  end
  return wrk.format("POST", nil, headers, body)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "BENCH requests=%d duration_us=%d p50_us=%d p99_us=%d connect=%d read=%d write=%d status=%d timeout=%d\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect, e.read, e.write, e.status, e.timeout))
end
