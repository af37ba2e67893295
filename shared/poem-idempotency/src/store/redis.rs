//! The Redis record store: the [`RecordStore`] semantics shared by every instance of the
//! service.
//!
//! A record is a hash at `{prefix}idempotency:{scope key hex}`:
//!
//! | field                  | in progress | completed  | meaning                                |
//! |------------------------|-------------|------------|----------------------------------------|
//! | `state`                | `p`         | `c`        |                                        |
//! | `fp`                   | yes         | yes        | the request fingerprint, 32 raw bytes  |
//! | `token`                | yes         | —          | the claimant's lease token, 16 raw bytes |
//! | `status`               | —           | yes        | the response status, decimal           |
//! | `ctype`, `loc`, `etag` | —           | if present | the response's headers                 |
//! | `body`                 | —           | yes        | the response body, raw bytes           |
//!
//! and its TTL is the lease (in progress) or the retention (completed), so Redis does the
//! expiring and nothing needs cleaning up.
//!
//! Every operation is one Lua script, i.e. exactly one round trip, for two reasons:
//!
//! - **Atomicity.** Each operation is a read-decide-write (does the record exist? is it still our
//!   token?). Done as separate commands, two claimants could both see "absent" and both execute,
//!   or a stale worker could check its token, lose the lease, and then overwrite the new
//!   claimant's record. A script runs atomically on the server, with no `WATCH`/retry loop.
//! - **Latency.** Idempotency sits in front of every keyed request, so its cost is paid on each
//!   one. A first execution costs two round trips (claim, complete) and a replay costs one: the
//!   claim script compares fingerprints server-side and sends the stored response back in the
//!   same reply, only when it is a matching replay, so a mismatch never ships a body.
//! - **Client cost.** The claim's reply is an integer, or for a replay one bulk string the
//!   script packs (a line of the status and the headers' lengths, then the headers and the body):
//!   decoding it is one scan of a short line and slices of one buffer, not redis-rs's generic
//!   decoding of an array of six values. The record keeps its fields, so nothing stored changes.
//!
//! Each script touches only its one declared key (`KEYS[1]`), so the store also works on Redis
//! Cluster. Scripts are invoked through [`redis::Script`], which sends `EVALSHA` and, should the
//! server not know the script (first use, restart, failover), loads it and retries: those
//! extra round trips happen once per script per server, not per request. The scripts are
//! `static` so that each one's SHA-1 is computed once per process.

use std::io::Write as _;
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use bytes::Bytes;
use redis::aio::{ConnectionLike, ConnectionManager};
use redis::cluster_async::ClusterConnection;
use redis::{
    Cmd, ErrorKind, FromRedisValue, Pipeline, RedisError, RedisFuture, RedisResult, RedisWrite,
    Script, ServerErrorKind, ToRedisArgs, Value,
};

use super::{Claim, LeaseToken, RecordStore, StoreError, StoredResponse};
use crate::key::{Fingerprint, ScopeKey};

/// Claim replies other than a replay's packed response. Mirrored in [`CLAIM`].
const ACQUIRED: i64 = 0;
const IN_FLIGHT: i64 = 1;
const MISMATCH: i64 = 3;

/// KEYS[1] record; ARGV[1] fingerprint, ARGV[2] new token, ARGV[3] lease in ms.
/// Replies 0 acquired, 1 in flight, 3 mismatch, or the completed response packed in one bulk
/// string: `"<status> <ctype length> <loc length> <etag length>\n"` (-1 for an absent header),
/// then the present headers' values and the body, back to back.
static CLAIM: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local record = redis.call('HMGET', KEYS[1], 'state', 'fp')
local state, fp = record[1], record[2]
if not state then
  redis.call('HSET', KEYS[1], 'state', 'p', 'fp', ARGV[1], 'token', ARGV[2])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return 0
end
if fp ~= ARGV[1] then
  return 3
end
if state == 'p' then
  return 1
end
if state == 'c' then
  local r = redis.call('HMGET', KEYS[1], 'status', 'ctype', 'loc', 'etag', 'body')
  local function length(value)
    if value then return #value end
    return -1
  end
  return table.concat({
    r[1], ' ', length(r[2]), ' ', length(r[3]), ' ', length(r[4]), '\n',
    r[2] or '', r[3] or '', r[4] or '', r[5] or ''
  })
end
return redis.error_reply('idempotency record ' .. KEYS[1] .. ' has an unknown state')
",
    )
});

/// KEYS[1] record; ARGV[1] our token, ARGV[2] retention in ms, ARGV[3] status, ARGV[4] body,
/// ARGV[5..] the present headers as field/value pairs (absent ones are not stored at all, so
/// that an empty header value stays distinguishable from none). Replies 1 if completed, 0 if
/// the record is not our in-progress claim (then nothing is written).
static COMPLETE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local record = redis.call('HMGET', KEYS[1], 'state', 'token')
if record[1] ~= 'p' or record[2] ~= ARGV[1] then
  return 0
end
redis.call('HDEL', KEYS[1], 'token')
redis.call('HSET', KEYS[1], 'state', 'c', 'status', ARGV[3], 'body', ARGV[4], unpack(ARGV, 5))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
",
    )
});

/// KEYS[1] record; ARGV[1] our token. Replies 1 if our claim was deleted, 0 otherwise.
static RELEASE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local record = redis.call('HMGET', KEYS[1], 'state', 'token')
if record[1] == 'p' and record[2] == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
",
    )
});

/// KEYS[1] record; ARGV[1] our token, ARGV[2] lease in ms. Replies 1 if our claim was
/// extended, 0 otherwise.
static RENEW: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local record = redis.call('HMGET', KEYS[1], 'state', 'token')
if record[1] == 'p' and record[2] == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
",
    )
});

/// A connection the store sends its scripts on, as the service made it: to one node through a
/// [`ConnectionManager`] (which reconnects by itself) or to a Redis Cluster. Cheap to clone.
#[derive(Clone)]
pub enum RedisConnection {
    /// One Redis node (or a primary that Sentinel or a proxy fronts).
    Node(ConnectionManager),
    /// A Redis Cluster: each record's script runs on the master that owns its key.
    Cluster(ClusterConnection),
}

impl ConnectionLike for RedisConnection {
    fn req_packed_command<'a>(&'a mut self, cmd: &'a Cmd) -> RedisFuture<'a, Value> {
        match self {
            Self::Node(node) => node.req_packed_command(cmd),
            Self::Cluster(cluster) => cluster.req_packed_command(cmd),
        }
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        pipeline: &'a Pipeline,
        offset: usize,
        count: usize,
    ) -> RedisFuture<'a, Vec<Value>> {
        match self {
            Self::Node(node) => node.req_packed_commands(pipeline, offset, count),
            Self::Cluster(cluster) => cluster.req_packed_commands(pipeline, offset, count),
        }
    }

    fn get_db(&self) -> i64 {
        match self {
            Self::Node(node) => node.get_db(),
            Self::Cluster(cluster) => cluster.get_db(),
        }
    }
}

impl std::fmt::Debug for RedisConnection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Node(_) => "RedisConnection::Node",
            Self::Cluster(_) => "RedisConnection::Cluster",
        })
    }
}

impl From<ConnectionManager> for RedisConnection {
    fn from(node: ConnectionManager) -> Self {
        Self::Node(node)
    }
}

impl From<ClusterConnection> for RedisConnection {
    fn from(cluster: ClusterConnection) -> Self {
        Self::Cluster(cluster)
    }
}

/// The Redis-backed record store. Cheap to clone: clones share the connection.
#[derive(Clone)]
pub struct RedisStore {
    conn: RedisConnection,
    key_prefix: Arc<str>,
    /// `{key_prefix}idempotency:`, made once: every record key starts with it.
    records: Arc<[u8]>,
}

impl RedisStore {
    /// A store keeping its records under `{key_prefix}idempotency:`. The prefix lets several
    /// services (or test runs) share one Redis without seeing each other's records.
    pub fn new(conn: impl Into<RedisConnection>, key_prefix: impl Into<String>) -> RedisStore {
        let key_prefix: Arc<str> = key_prefix.into().into();
        RedisStore {
            conn: conn.into(),
            records: format!("{key_prefix}idempotency:").into_bytes().into(),
            key_prefix,
        }
    }

    /// The key of the record of `key`.
    fn record_key<'k>(&'k self, key: &'k ScopeKey) -> RecordKey<'k> {
        RecordKey {
            records: &self.records,
            scope: key,
        }
    }

    /// A call of `script` on the record of `key`, for `args` arguments besides the key, of
    /// `data` bytes beyond the small ones (a body).
    fn call<'s>(
        &self,
        script: &'s Script,
        key: &ScopeKey,
        args: usize,
        data: usize,
    ) -> ScriptCall<'s> {
        ScriptCall::new(script, self.record_key(key), args, data)
    }
}

impl RecordStore for RedisStore {
    fn name(&self) -> &'static str {
        "redis"
    }

    async fn claim(
        &self,
        key: &ScopeKey,
        fingerprint: &Fingerprint,
        lease: Duration,
    ) -> Result<Claim, StoreError> {
        // Generated up front so that acquiring costs no second round trip; unused otherwise.
        let token = LeaseToken::generate();
        // The connection is a handle onto multiplexed connections: cloning it is how
        // concurrent callers share that connection.
        let mut conn = self.conn.clone();
        let reply: Value = self
            .call(&CLAIM, key, 3, 0)
            .arg(fingerprint.as_bytes().as_slice())
            .arg(token.as_bytes().as_slice())
            .arg(millis(lease))
            .invoke(&mut conn)
            .await
            .map_err(unavailable)?;
        decode_claim(reply, token)
    }

    async fn complete(
        &self,
        key: &ScopeKey,
        token: &LeaseToken,
        response: &StoredResponse,
        retention: Duration,
    ) -> Result<bool, StoreError> {
        let mut invocation = self.call(&COMPLETE, key, 10, response.body.len());
        invocation
            .arg(token.as_bytes().as_slice())
            .arg(millis(retention))
            .arg(response.status)
            .arg(response.body.as_ref());
        for (field, value) in [
            ("ctype", &response.content_type),
            ("loc", &response.location),
            ("etag", &response.etag),
        ] {
            if let Some(value) = value {
                invocation.arg(field).arg(value.as_str());
            }
        }
        let mut conn = self.conn.clone();
        let done: i64 = invocation.invoke(&mut conn).await.map_err(unavailable)?;
        Ok(done == 1)
    }

    async fn release(&self, key: &ScopeKey, token: &LeaseToken) -> Result<bool, StoreError> {
        let mut conn = self.conn.clone();
        let done: i64 = self
            .call(&RELEASE, key, 1, 0)
            .arg(token.as_bytes().as_slice())
            .invoke(&mut conn)
            .await
            .map_err(unavailable)?;
        Ok(done == 1)
    }

    async fn renew(
        &self,
        key: &ScopeKey,
        token: &LeaseToken,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        let mut conn = self.conn.clone();
        let done: i64 = self
            .call(&RENEW, key, 2, 0)
            .arg(token.as_bytes().as_slice())
            .arg(millis(lease))
            .invoke(&mut conn)
            .await
            .map_err(unavailable)?;
        Ok(done == 1)
    }
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("key_prefix", &self.key_prefix)
            .finish_non_exhaustive()
    }
}

/// A record's key, `{key_prefix}idempotency:{scope key in lower-case hex}`, written straight
/// into the command that names it (no string of its own per call).
struct RecordKey<'a> {
    /// `{key_prefix}idempotency:`, made once by [`RedisStore::new`].
    records: &'a [u8],
    scope: &'a ScopeKey,
}

impl ToRedisArgs for RecordKey<'_> {
    fn write_redis_args<W: ?Sized + RedisWrite>(&self, out: &mut W) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut hex = [0u8; 64];
        for (pair, byte) in hex.chunks_exact_mut(2).zip(self.scope.as_bytes()) {
            pair[0] = HEX[usize::from(byte >> 4)];
            pair[1] = HEX[usize::from(byte & 0x0f)];
        }
        let mut arg = out.writer_for_next_arg();
        // Writing into a command's buffer cannot fail.
        let _ = arg.write_all(self.records);
        let _ = arg.write_all(&hex);
    }
}

/// An `EVALSHA` of one of the store's scripts on one record, its arguments written straight into
/// one command buffer: redis-rs's `ScriptInvocation` copies each argument into a vector of its
/// own, then into the command (19 allocations a first execution, docs/benchmarks.md).
struct ScriptCall<'s> {
    script: &'s Script,
    command: Cmd,
}

impl<'s> ScriptCall<'s> {
    fn new(script: &'s Script, key: impl ToRedisArgs, args: usize, data: usize) -> Self {
        let hash = script.get_hash();
        // The command, the hash, the key count, then room for the key and the arguments: a
        // record key, a token, a fingerprint, a TTL and three short headers fit in 256 bytes.
        let mut command = Cmd::with_capacity(4 + args, 7 + hash.len() + 1 + 256 + data);
        command.arg("EVALSHA").arg(hash).arg(1).arg(key);
        Self { script, command }
    }

    fn arg(&mut self, arg: impl ToRedisArgs) -> &mut Self {
        self.command.arg(arg);
        self
    }

    /// Runs the script, loading it first on a node that does not know it (a node restarted
    /// empty, a `SCRIPT FLUSH`, a replica promoted before it saw the script), as redis-rs's own
    /// invocation does: on a cluster `SCRIPT LOAD` goes to every master.
    async fn invoke<T: FromRedisValue>(&self, conn: &mut RedisConnection) -> RedisResult<T> {
        match self.command.query_async(conn).await {
            Err(err) if err.kind() == ErrorKind::Server(ServerErrorKind::NoScript) => {
                self.script.load_async(conn).await?;
                self.command.query_async(conn).await
            }
            result => result,
        }
    }
}

/// A TTL in whole milliseconds for `PEXPIRE`, at least 1: `PEXPIRE 0` would delete the record
/// on the spot instead of letting it live for the (sub-millisecond) duration asked for.
fn millis(duration: Duration) -> u64 {
    // The store clamps TTLs to a year, far below u64::MAX milliseconds; saturate regardless.
    u64::try_from(duration.as_millis())
        .unwrap_or(u64::MAX)
        .max(1)
}

fn unavailable(error: RedisError) -> StoreError {
    StoreError::Unavailable(error.to_string())
}

fn unexpected(what: impl std::fmt::Display) -> StoreError {
    StoreError::Unavailable(format!("unexpected reply from the claim script: {what}"))
}

fn decode_claim(reply: Value, token: LeaseToken) -> Result<Claim, StoreError> {
    match reply {
        Value::Int(ACQUIRED) => Ok(Claim::Acquired(token)),
        Value::Int(IN_FLIGHT) => Ok(Claim::InFlight),
        Value::Int(MISMATCH) => Ok(Claim::Mismatch),
        Value::BulkString(packed) => unpack_response(Bytes::from(packed)).map(Claim::Completed),
        other => Err(unexpected(format_args!("{other:?}"))),
    }
}

/// A completed response as [`CLAIM`] packs it; the body is a slice of `packed`, not a copy.
fn unpack_response(packed: Bytes) -> Result<StoredResponse, StoreError> {
    let line_end = packed
        .iter()
        .position(|byte| *byte == b'\n')
        .ok_or_else(|| unexpected("a packed response without its first line"))?;
    let line = std::str::from_utf8(&packed[..line_end]).map_err(unexpected)?;
    let mut numbers = line.split(' ');
    let mut next = |name: &str| {
        numbers
            .next()
            .ok_or_else(|| unexpected(format_args!("a packed response without its {name}")))
    };
    let status: u16 = next("status")?.parse().map_err(unexpected)?;
    let mut at = line_end + 1;
    let mut header = |name: &str| -> Result<Option<String>, StoreError> {
        let length = match next(name)? {
            "-1" => return Ok(None), // absent
            length => length.parse::<usize>().map_err(unexpected)?,
        };
        let end = at.checked_add(length).filter(|end| *end <= packed.len());
        let Some(end) = end else {
            return Err(unexpected(format_args!(
                "a packed response cut short in its {name}"
            )));
        };
        let value = &packed[at..end];
        at = end;
        String::from_utf8(value.to_vec())
            .map(Some)
            .map_err(unexpected)
    };
    let content_type = header("ctype")?;
    let location = header("loc")?;
    let etag = header("etag")?;
    Ok(StoredResponse {
        status,
        content_type,
        location,
        etag,
        body: packed.slice(at..),
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use redis::AsyncCommands;
    use redis::aio::{ConnectionManager, ConnectionManagerConfig};

    use super::*;
    use crate::key::ClientKey;
    use crate::store::Store;

    fn redis_url() -> String {
        std::env::var("REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".to_owned())
    }

    /// Connects to the test Redis, failing the test (never skipping it) when there is none.
    async fn connect() -> ConnectionManager {
        let url = redis_url();
        let client = redis::Client::open(url.as_str())
            .unwrap_or_else(|error| panic!("REDIS_URL {url:?} is not a valid Redis URL: {error}"));
        let config = ConnectionManagerConfig::new()
            .set_number_of_retries(1)
            .set_connection_timeout(Some(Duration::from_secs(2)))
            .set_response_timeout(Some(Duration::from_secs(5)));
        match tokio::time::timeout(
            Duration::from_secs(10),
            client.get_connection_manager_with_config(config),
        )
        .await
        {
            Ok(Ok(conn)) => conn,
            Ok(Err(error)) => panic!(
                "the Redis store tests need a Redis server at {url} (set REDIS_URL to use \
                 another one): {error}"
            ),
            Err(_) => panic!(
                "the Redis store tests need a Redis server at {url} (set REDIS_URL to use \
                 another one): connecting timed out"
            ),
        }
    }

    /// A prefix no other test (or test run) uses, so tests run in parallel on one Redis.
    /// Every record carries a TTL, so nothing needs cleaning up afterwards.
    fn unique_prefix() -> String {
        format!("test:{}:", hex::encode(rand::random::<[u8; 8]>()))
    }

    #[test]
    fn a_packed_response_unpacks_with_absent_and_empty_headers_apart() {
        let packed = Bytes::from_static(b"201 16 -1 0\napplication/json\x00{\"id\":1}\n");

        let response = unpack_response(packed).unwrap();

        assert_eq!(response.status, 201);
        assert_eq!(response.content_type.as_deref(), Some("application/json"));
        assert_eq!(response.location, None);
        assert_eq!(response.etag.as_deref(), Some(""));
        assert_eq!(response.body.as_ref(), b"\x00{\"id\":1}\n");
    }

    #[test]
    fn a_packed_response_cut_short_or_garbled_is_an_unexpected_reply() {
        for packed in [
            &b"201 16 -1 0"[..],
            b"201 16 -1 0\napplication",
            b"201 16 -1\n",
            b"two 0 0 0\n",
            b"201 x 0 0\n",
            b"201 -2 0 0\n",
            b"201 18446744073709551615 0 0\nx",
        ] {
            let error = unpack_response(Bytes::copy_from_slice(packed)).unwrap_err();
            assert!(
                matches!(&error, StoreError::Unavailable(why) if why.contains("unexpected reply")),
                "{packed:?}: {error:?}"
            );
        }
    }

    #[test]
    fn a_claim_reply_other_than_the_four_is_an_unexpected_reply() {
        for reply in [Value::Int(2), Value::Nil, Value::Array(vec![Value::Int(0)])] {
            let error = decode_claim(reply, LeaseToken::generate()).unwrap_err();
            assert!(matches!(error, StoreError::Unavailable(_)), "{error:?}");
        }
    }

    #[tokio::test]
    async fn a_record_key_is_the_prefix_then_the_scope_key_in_lower_case_hex() {
        let store = RedisStore::new(connect().await, "svc:");
        let client_key = ClientKey::parse("k").unwrap().unwrap();
        let key = ScopeKey::derive("user:alice", "POST", "/orders", &client_key);

        let written = store.record_key(&key).to_redis_args();

        assert_eq!(
            written,
            vec![format!("svc:idempotency:{}", key.to_hex()).into_bytes()]
        );
    }

    #[tokio::test]
    async fn a_script_the_node_does_not_know_is_loaded_and_run_with_its_key_and_arguments() {
        let mut conn = RedisConnection::from(connect().await);
        // A script no node has seen: its first EVALSHA answers NOSCRIPT.
        let marker = unique_prefix();
        let script = Script::new(&format!(
            "return ARGV[1] .. '{marker}' .. KEYS[1] .. ARGV[2]"
        ));

        let answer: String = ScriptCall::new(&script, b"the-key", 2, 16)
            .arg("first:")
            .arg(":second")
            .invoke(&mut conn)
            .await
            .expect("the script is loaded, then run");

        assert_eq!(answer, format!("first:{marker}the-key:second"));
    }

    #[tokio::test]
    async fn a_script_that_fails_is_run_once_and_its_error_returned() {
        let mut conn = RedisConnection::from(connect().await);
        let counter = format!("{}runs", unique_prefix());
        let script = Script::new(
            "redis.call('INCR', KEYS[1]) return redis.error_reply('the script refuses')",
        );
        // Known to the node: its first EVALSHA runs it.
        script.load_async(&mut conn).await.unwrap();

        let answer: RedisResult<i64> = ScriptCall::new(&script, counter.as_bytes(), 0, 0)
            .invoke(&mut conn)
            .await;

        let runs: i64 = redis::cmd("GET")
            .arg(&counter)
            .query_async(&mut conn)
            .await
            .unwrap();
        assert!(answer.is_err(), "{answer:?}");
        assert_eq!(runs, 1, "an error other than NOSCRIPT is not retried");
    }

    async fn store() -> Store {
        Store::new(RedisStore::new(connect().await, unique_prefix()))
    }

    #[tokio::test]
    async fn a_redis_store_says_so() {
        let store = store().await;

        assert_eq!(store.backend_name(), "redis");
        assert!(format!("{store:?}").contains(r#"backend: "redis""#));
    }

    crate::store_conformance_suite!(
        #[tokio::test]
        store().await
    );

    #[tokio::test]
    async fn a_redis_store_debugs_as_its_key_prefix() {
        let store = RedisStore::new(connect().await, "orders:".to_owned());

        assert_eq!(
            format!("{store:?}"),
            r#"RedisStore { key_prefix: "orders:", .. }"#
        );
    }

    #[tokio::test]
    async fn a_connection_to_one_node_says_which_database_it_uses_and_debugs_as_its_kind() {
        let info = redis::IntoConnectionInfo::into_connection_info(redis_url().as_str())
            .expect("REDIS_URL is a Redis URL");
        let database_five = info
            .clone()
            .set_redis_settings(info.redis_settings().clone().set_db(5));
        let manager = redis::Client::open(database_five)
            .expect("a client")
            .get_connection_manager()
            .await
            .expect("the test Redis answers");

        let connection = RedisConnection::from(manager);

        assert_eq!(connection.get_db(), 5);
        assert_eq!(format!("{connection:?}"), "RedisConnection::Node");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn concurrent_claims_on_four_threads_acquire_exactly_once() {
        crate::store::conformance::concurrent_claims_acquire_exactly_once(store().await).await;
    }

    fn scope() -> ScopeKey {
        let key = ClientKey::parse("k").expect("valid").expect("non-blank");
        ScopeKey::derive("subject", "POST", "/orders", &key)
    }

    #[tokio::test]
    async fn record_is_a_hash_with_the_documented_layout_and_a_ttl() {
        let mut conn = connect().await;
        let prefix = unique_prefix();
        let store = Store::new(RedisStore::new(conn.clone(), prefix.clone()));
        let key = scope();
        let fingerprint = Fingerprint::of(b"{}", None, "");
        let redis_key = format!("{prefix}idempotency:{}", key.to_hex());

        let Ok(Claim::Acquired(token)) = store
            .claim(&key, &fingerprint, Duration::from_secs(30))
            .await
        else {
            panic!("claim did not acquire");
        };
        let fields: Vec<(String, Vec<u8>)> = conn.hgetall(&redis_key).await.expect("HGETALL");
        let mut names: Vec<&str> = fields.iter().map(|(name, _)| name.as_str()).collect();
        names.sort_unstable();
        assert_eq!(names, ["fp", "state", "token"]);
        assert!(fields.contains(&("fp".into(), fingerprint.as_bytes().to_vec())));
        assert!(fields.contains(&("token".into(), token.as_bytes().to_vec())));
        let ttl: i64 = conn.pttl(&redis_key).await.expect("PTTL");
        assert!((1..=30_000).contains(&ttl), "lease TTL {ttl}");

        let response = StoredResponse {
            status: 201,
            content_type: Some("application/json".into()),
            location: None,
            etag: None,
            body: Bytes::from_static(b"{}"),
        };
        assert!(
            store
                .complete(&key, &token, &response, Duration::from_secs(600))
                .await
                .expect("complete")
        );
        let fields: Vec<(String, Vec<u8>)> = conn.hgetall(&redis_key).await.expect("HGETALL");
        let mut names: Vec<&str> = fields.iter().map(|(name, _)| name.as_str()).collect();
        names.sort_unstable();
        // The token is gone with the claim; absent headers are not stored.
        assert_eq!(names, ["body", "ctype", "fp", "state", "status"]);
        assert!(fields.contains(&("state".into(), b"c".to_vec())));
        assert!(fields.contains(&("status".into(), b"201".to_vec())));
        let ttl: i64 = conn.pttl(&redis_key).await.expect("PTTL");
        assert!((30_000..=600_000).contains(&ttl), "retention TTL {ttl}");
    }

    #[tokio::test]
    async fn an_unreachable_redis_is_reported_as_unavailable() {
        // Port 1 on loopback: nothing listens there, so connecting is refused at once.
        let client = redis::Client::open("redis://127.0.0.1:1").expect("valid URL");
        let config = ConnectionManagerConfig::new()
            .set_number_of_retries(0)
            .set_connection_timeout(Some(Duration::from_secs(1)));
        let conn = client
            .get_connection_manager_lazy(config)
            .expect("a lazy connection manager does not connect yet");
        let store = Store::new(RedisStore::new(conn, unique_prefix()));
        let fingerprint = Fingerprint::of(b"{}", None, "");
        let result = tokio::time::timeout(
            Duration::from_secs(10),
            store.claim(&scope(), &fingerprint, Duration::from_secs(30)),
        )
        .await
        .expect("a refused connection fails fast");
        assert!(
            matches!(result, Err(StoreError::Unavailable(_))),
            "{result:?}"
        );
        assert_eq!(store.operations(), 1);
    }

    #[test]
    fn ttls_are_whole_milliseconds_and_never_zero() {
        assert_eq!(millis(Duration::from_secs(2)), 2000);
        assert_eq!(millis(Duration::from_micros(1500)), 1);
        assert_eq!(millis(Duration::ZERO), 1);
        assert_eq!(millis(Duration::MAX), u64::MAX);
    }
}
