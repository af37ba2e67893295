//! The store's conformance suite (the crate's own, which its tests run on one Redis node and in
//! process) on a real Redis Cluster: three masters and three replicas, started once by the
//! harness. Each script touches one key, so it runs on whichever master owns that key.

use poem_idempotency::store::{RedisStore, Store};
use testing::tools::Suite;

async fn store() -> Store {
    let seeds = testing::redis_cluster::shared_redis_cluster().seed_urls();
    let options = redis_topology::RedisOptions::cluster(seeds);
    let prefix = format!("test:{}:", testing::unique_suffix());
    match redis_topology::Redis::connect(options).await {
        Ok((redis, redis_topology::AtStartup::Available)) => {
            Store::new(RedisStore::new(redis.connection(), prefix))
        }
        Ok((_, redis_topology::AtStartup::Unavailable(err))) | Err(err) => {
            panic!("the local Redis Cluster does not answer: {err}")
        }
    }
}

poem_idempotency::store_conformance_suite!(
    #[tokio::test]
    when Suite::runs_here(Suite::RedisCluster);
    store().await
);
