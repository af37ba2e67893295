//! A Redis Cluster against a single Redis node (`--cluster`), for keyed requests.
//!
//! Two servers in this process, built the same way (`TestApp::builder()`, the fixture API,
//! logging at `error`) except for `redis`: one on a private `redis-server` (`redis.url`), one on
//! a private local Redis Cluster of three masters and three replicas
//! (`testing::redis_cluster::RedisCluster`, reached through `redis.cluster_nodes` with
//! `redis.url` empty). wrk runs scenarios (c) first executions (a new key per request) and (d)
//! replays (one primed key) of the main bench against each, interleaved over the rounds (node
//! then cluster, then cluster then node, ...), with the same checks as every other run (every
//! request of (c) executed, every request of (d) replayed, no fault).
//!
//! Reported: requests per second per scenario and topology (medians), the ratio cluster ÷
//! single node taken within each round, and the Redis commands per request: on the cluster,
//! every node's `INFO commandstats` reset before each run and summed after it (the replicas'
//! share shown apart), on the node the same from its own `INFO commandstats`.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context as _;
use e2e::RedisChoice;
use testing::redis::RedisServer;
use testing::redis_cluster::RedisCluster;

use crate::redis_stats::{ClusterProbe, Probe, RedisDelta};
use crate::{
    Backend, Keys, Measurement, Options, Scenario, Server, interleaved_rounds, measure, median,
    report,
};

const SCENARIOS: [Scenario; 2] = [Scenario::FirstExecution, Scenario::Replay];
const TOPOLOGIES: [Backend; 2] = [Backend::Redis, Backend::Cluster];

/// Commands always listed, whether they appeared or not: the scripts' round trips, and what a
/// cluster client would send if it looked the topology up again.
const LISTED: [&str; 7] = [
    "evalsha",
    "evalsha_ro",
    "eval",
    "script|load",
    "cluster|slots",
    "cluster|shards",
    "cluster|nodes",
];

pub async fn run(options: &Options) -> anyhow::Result<()> {
    let _telemetry = crate::install_logging()?;
    let started = Instant::now();
    let machine = report::Machine::describe().await;

    // Declared before the servers, so that they are dropped (killed) after them.
    let redis = RedisServer::start().context(
        "the comparison starts a private redis-server from PATH \
         (Debian/Ubuntu: `apt-get install -y redis-server`)",
    )?;
    eprintln!("starting a local Redis Cluster (three masters, three replicas)...");
    let cluster = Arc::new(
        tokio::task::block_in_place(RedisCluster::start)
            .context("starting a local Redis Cluster (needs redis-server and redis-cli)")?,
    );
    let masters = tokio::task::block_in_place(|| cluster.masters())?.len();
    let replicas = tokio::task::block_in_place(|| cluster.replicas())?.len();
    let cluster_probe = Probe::Cluster(ClusterProbe::connect(cluster.clone()).await?);
    let mut servers = [
        Server::start(Backend::Redis, Some(redis.url())).await?,
        Server::start_with(
            Backend::Cluster,
            RedisChoice::Cluster(cluster.seed_urls()),
            Some(cluster_probe),
        )
        .await?,
    ];
    let mut keys = Keys::new();

    // Warm-up: connections, the scripts' first NOSCRIPT load on every master, and a check of
    // both scenarios before the measured rounds.
    eprintln!("warming up...");
    for server in &mut servers {
        for scenario in SCENARIOS {
            measure(server, scenario, &options.warm_up(), &mut keys).await?;
        }
    }

    // Interleaved as in the main bench.
    let results = interleaved_rounds(&mut servers, SCENARIOS, options, &mut keys).await?;
    for server in servers {
        server.app.stop().await.context("stopping a server")?;
    }
    drop(cluster);
    drop(redis);

    print(&Printed {
        options,
        machine: &machine,
        load_at_end: load_average(),
        masters,
        replicas,
        results: &results,
        elapsed_secs: started.elapsed().as_secs_f64(),
    });
    Ok(())
}

struct Printed<'a> {
    options: &'a Options,
    machine: &'a report::Machine,
    load_at_end: String,
    masters: usize,
    replicas: usize,
    results: &'a BTreeMap<(Backend, Scenario), Vec<Measurement>>,
    elapsed_secs: f64,
}

impl Printed<'_> {
    fn runs(&self, topology: Backend, scenario: Scenario) -> &[Measurement] {
        self.results
            .get(&(topology, scenario))
            .map_or(&[], Vec::as_slice)
    }

    /// Every round's Redis delta added up, and the requests wrk completed in those rounds.
    fn redis_total(&self, topology: Backend, scenario: Scenario) -> (RedisDelta, u64) {
        let mut total = RedisDelta::default();
        let mut requests = 0;
        for run in self.runs(topology, scenario) {
            if let Some(delta) = &run.redis {
                total.add(delta);
            }
            requests += run.wrk.requests;
        }
        (total, requests)
    }
}

fn topology_name(topology: Backend) -> &'static str {
    match topology {
        Backend::Cluster => "cluster",
        _ => "single node",
    }
}

fn scenario_name(scenario: Scenario) -> &'static str {
    match scenario {
        Scenario::FirstExecution => "first execution",
        Scenario::Replay => "replay",
        _ => scenario.label(),
    }
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|load| {
            load.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|_| "unknown".to_owned())
}

fn print(printed: &Printed<'_>) {
    let options = printed.options;
    let machine = printed.machine;
    println!("# A Redis Cluster against a single Redis node\n");
    println!(
        "- **Date**: {}; {:.0} s for the whole run\n\
         - **Machine**: {} cores ({}), load average {} at the start, {} at the end\n\
         - **Build**: commit {}, release profile\n\
         - **Tools**: {}; {}\n\
         - **Command**: `{}`\n\
         - **Topologies**: one private redis-server (`redis.url`); a private local Redis Cluster \
         of {} masters and {} replicas (`redis.cluster_nodes`, six seed URLs, `redis.url` \
         empty). Everything else about the two servers is the same.\n\
         - **Load**: `wrk -t1 -c{} -d{}s`, {} rounds, interleaved (node then cluster, then \
         cluster then node, ...); medians, and ratios taken within each round.\n",
        machine.date,
        printed.elapsed_secs,
        machine.cores,
        machine.cpu_model,
        machine.load_average,
        printed.load_at_end,
        machine.commit,
        machine.wrk_version,
        machine.redis_version,
        options.command(),
        printed.masters,
        printed.replicas,
        options.connections,
        options.duration.as_secs(),
        options.rounds,
    );

    println!(
        "| scenario | topology | req/s | req/s by round | p99 | server CPU/request | \
         Redis CPU/request (all nodes) | Redis CPU (cores) |"
    );
    println!("|---|---|---:|---|---:|---:|---:|---:|");
    for scenario in SCENARIOS {
        for topology in TOPOLOGIES {
            let runs = printed.runs(topology, scenario);
            let (redis, requests) = printed.redis_total(topology, scenario);
            let by_round = runs
                .iter()
                .map(|run| format!("{:.0}", run.requests_per_second()))
                .collect::<Vec<_>>()
                .join(" / ");
            println!(
                "| {} | {} | {:.0} | {by_round} | {:.2} ms | {:.1} µs | {:.1} µs | {:.2} |",
                scenario_name(scenario),
                topology_name(topology),
                median(runs.iter().map(Measurement::requests_per_second).collect()),
                median(
                    runs.iter()
                        .map(|run| run.wrk.p99_us as f64 / 1000.0)
                        .collect()
                ),
                median(
                    runs.iter()
                        .map(|run| run.server_cpu_us_per_request)
                        .collect()
                ),
                redis.cpu_seconds * 1e6 / requests.max(1) as f64,
                median(runs.iter().filter_map(|run| run.redis_cores).collect()),
            );
        }
    }

    println!("\nCluster ÷ single node, requests per second:\n");
    println!("| scenario | median of the rounds' ratios | by round | ratio of the medians |");
    println!("|---|---:|---|---:|");
    for scenario in SCENARIOS {
        let node = printed.runs(Backend::Redis, scenario);
        let cluster = printed.runs(Backend::Cluster, scenario);
        let ratios: Vec<f64> = cluster
            .iter()
            .zip(node)
            .map(|(cluster, node)| cluster.requests_per_second() / node.requests_per_second())
            .collect();
        let of_medians = median(
            cluster
                .iter()
                .map(Measurement::requests_per_second)
                .collect(),
        ) / median(node.iter().map(Measurement::requests_per_second).collect());
        println!(
            "| {} | **{:.2}** | {} | {of_medians:.2} |",
            scenario_name(scenario),
            median(ratios.clone()),
            ratios
                .iter()
                .map(|ratio| format!("{ratio:.2}"))
                .collect::<Vec<_>>()
                .join(" / "),
        );
    }

    println!(
        "\nRedis commands per request, as Redis counted them (`INFO commandstats`), over every \
         round, divided by the requests wrk completed. Cluster: every node's counts reset \
         (`CONFIG RESETSTAT`) before each run and summed over all six after it; \"replicas\" is \
         the part the replicas counted (what replication made them apply). The probes' own \
         `INFO` and `CONFIG RESETSTAT` are left out; commands a script runs inside Redis count \
         under their own names.\n"
    );
    let totals: BTreeMap<(Backend, Scenario), (RedisDelta, u64)> = SCENARIOS
        .iter()
        .flat_map(|&scenario| TOPOLOGIES.map(|topology| (topology, scenario)))
        .map(|key| (key, printed.redis_total(key.0, key.1)))
        .collect();
    let mut commands: Vec<String> = LISTED.iter().map(|&command| command.to_owned()).collect();
    let appeared: BTreeSet<&String> = totals
        .values()
        .flat_map(|(delta, _)| delta.calls.keys())
        .collect();
    for command in appeared {
        if !commands.contains(command) {
            commands.push(command.clone());
        }
    }
    println!(
        "| command | first execution, single node | first execution, cluster | of which replicas \
         | replay, single node | replay, cluster | of which replicas |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let cell = |calls: u64, requests: u64| {
        let per_request = calls as f64 / requests.max(1) as f64;
        if calls > 0 && per_request < 0.01 {
            format!("{per_request:.4} ({calls} calls)")
        } else {
            format!("{per_request:.2}")
        }
    };
    let row = |name: &str, count: &dyn Fn(&RedisDelta, bool) -> u64| {
        let mut cells = Vec::new();
        for scenario in SCENARIOS {
            let (node, node_requests) = &totals[&(Backend::Redis, scenario)];
            let (cluster, cluster_requests) = &totals[&(Backend::Cluster, scenario)];
            cells.push(cell(count(node, false), *node_requests));
            cells.push(cell(count(cluster, false), *cluster_requests));
            cells.push(cell(count(cluster, true), *cluster_requests));
        }
        println!("| {name} | {} |", cells.join(" | "));
    };
    for command in &commands {
        // `|` (as in `cluster|slots`) would end a Markdown table cell.
        let name = format!("`{}`", command.replace('|', "\\|"));
        row(&name, &|delta, replicas_only| {
            let calls = if replicas_only {
                &delta.replica_calls
            } else {
                &delta.calls
            };
            calls.get(command).copied().unwrap_or(0)
        });
    }
    row("**total**", &|delta, replicas_only| {
        if replicas_only {
            delta.replica_calls.values().sum()
        } else {
            delta.total_calls()
        }
    });
    let requests: Vec<String> = SCENARIOS
        .iter()
        .flat_map(|&scenario| {
            TOPOLOGIES.map(|topology| {
                format!(
                    "{} / {}: {}",
                    scenario_name(scenario),
                    topology_name(topology),
                    totals[&(topology, scenario)].1
                )
            })
        })
        .collect();
    println!("\nRequests counted: {}.", requests.join("; "));
}
