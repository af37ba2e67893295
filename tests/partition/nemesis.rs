//! The nemesis: at random moments it cuts a link (an instance from Redis, from PostgreSQL or from
//! the clients, the replica from everything), fails Redis over to its replica, or kills an
//! instance, and heals each fault after a random while. Its schedule is drawn from the run's
//! seed; the processes' timing is real, so a seed names a schedule, not a history.

use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng as _, SeedableRng as _};

use crate::network::{Lab, Link, Net};
use crate::processes::{Instance, Postgres, RedisPair, SERVICE_PORT};

/// Everything the run is made of.
pub struct Cluster {
    /// Where the instances keep idempotency records.
    pub store: Store,
    /// With [`Store::RedisPair`]: the pair.
    pub redis: Option<RedisPair>,
    _postgres: Postgres,
    pub instances: Vec<Instance>,
    /// Each instance's links, by instance.
    instance_links: Vec<Vec<Link>>,
    /// Each Redis node's one link, by node name.
    redis_links: Vec<(String, Link)>,
    /// Last, so that it is dropped last: the processes are killed before their namespaces go.
    pub lab: Lab,
}

/// Where the instances keep their idempotency records: the two scenarios of the test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Store {
    /// Redis, a primary and a replica that takes over (`redis.url`).
    RedisPair,
    /// A table of the PostgreSQL database (`idempotency.store = "postgres"`, no Redis).
    Postgres,
}

impl Store {
    /// Its name for `PARTITION_STORE`, which tells an instance which one it serves with.
    pub fn name(self) -> &'static str {
        match self {
            Store::RedisPair => "redis",
            Store::Postgres => "postgres",
        }
    }
}

/// The nodes and their legs: (name, [(network, host number)]).
const INSTANCES: [(&str, [(Net, u8); 3]); 3] = [
    (
        "i1",
        [(Net::Redis, 21), (Net::Postgres, 21), (Net::Clients, 21)],
    ),
    (
        "i2",
        [(Net::Redis, 22), (Net::Postgres, 22), (Net::Clients, 22)],
    ),
    (
        "i3",
        [(Net::Redis, 23), (Net::Postgres, 23), (Net::Clients, 23)],
    ),
];
/// The clients' (and the checker's) node: never cut.
pub const CLIENTS_NODE: &str = "clients";

impl Cluster {
    /// The namespaces, Redis, PostgreSQL; the instances are created but not started.
    pub fn build(prefix: &str, dir: &Path, store: Store) -> anyhow::Result<Self> {
        let mut lab = Lab::new(prefix)?;
        lab.node(CLIENTS_NODE, &[(Net::Clients, 2), (Net::Postgres, 2)])?;
        let mut redis_links = Vec::new();
        for (node, host) in [("redis-a", 11), ("redis-b", 12)] {
            let link = lab.node(node, &[(Net::Redis, host)])?.remove(0);
            redis_links.push((node.to_owned(), link));
        }
        lab.node(
            "postgres",
            &[(Net::Postgres, crate::processes::POSTGRES_HOST)],
        )?;
        let mut instance_links = Vec::new();
        let mut instances = Vec::new();
        for (node, legs) in INSTANCES {
            instance_links.push(lab.node(node, &legs)?);
            instances.push(Instance::new(node, legs[2].1, dir, store));
        }
        let redis = match store {
            Store::RedisPair => Some(RedisPair::start(&lab, dir)?),
            Store::Postgres => None,
        };
        let postgres = Postgres::start(lab.namespace("postgres"), dir)?;
        Ok(Self {
            store,
            redis,
            _postgres: postgres,
            instances,
            instance_links,
            redis_links,
            lab,
        })
    }

    /// Starts instance `index` and waits until it accepts connections.
    pub fn start_and_wait(&mut self, index: usize, within: Duration) -> anyhow::Result<()> {
        let node = self.instances[index].node.clone();
        self.instances[index].start(self.lab.namespace(&node))?;
        let address = self.service_address(index);
        crate::processes::wait_until(within, || {
            TcpStream::connect_timeout(&address, Duration::from_millis(200)).is_ok()
        })
        .map_err(|err| {
            anyhow::anyhow!(
                "{node} did not start: {err}\n{}",
                self.instances[index].log_tail()
            )
        })
    }

    fn service_address(&self, index: usize) -> SocketAddr {
        let host = INSTANCES[index].1[2].1;
        format!("{}:{SERVICE_PORT}", Net::Clients.address(host))
            .parse()
            .expect("an address")
    }

    /// Each instance's name and base URL, for the clients.
    pub fn endpoints(&self) -> Vec<(String, String)> {
        self.instances
            .iter()
            .map(|instance| (instance.node.clone(), instance.base_url.clone()))
            .collect()
    }

    /// Faults at random until `until`, then heals every one. Returns the trace of what it did.
    pub fn rage(&mut self, seed: u64, started: Instant, until: Instant) -> Nemesis {
        let mut nemesis = Nemesis {
            rng: StdRng::seed_from_u64(seed),
            started,
            trace: Vec::new(),
            pending: Vec::new(),
            counts: Counts::default(),
            last_failover: started,
        };
        while Instant::now() < until {
            std::thread::sleep(Duration::from_millis(nemesis.rng.random_range(150..=900)));
            self.heal_due(&mut nemesis, false);
            self.restart_the_fallen(&mut nemesis);
            self.strike(&mut nemesis);
        }
        self.heal_due(&mut nemesis, true);
        nemesis.note("every fault healed".to_owned());
        nemesis
    }

    fn strike(&mut self, nemesis: &mut Nemesis) {
        let roll = nemesis.rng.random_range(0..100);
        let instance = nemesis.rng.random_range(0..self.instances.len());
        let lasting = Duration::from_millis(nemesis.rng.random_range(500..=4000));
        // Without Redis, its faults' share goes to PostgreSQL's links.
        let roll = match (self.store, roll) {
            (Store::Postgres, 0..=24 | 50..=69) => 25,
            _ => roll,
        };
        match roll {
            0..=24 => self.cut(nemesis, self.instance_links[instance][0].clone(), lasting),
            25..=49 => self.cut(nemesis, self.instance_links[instance][1].clone(), lasting),
            50..=59 => {
                let replica = self.redis.as_ref().map(|redis| redis.replica.node.clone());
                if let Some(replica) = replica {
                    let link = self.redis_link(&replica);
                    self.cut(nemesis, link, lasting);
                }
            }
            60..=69 if nemesis.last_failover.elapsed() > Duration::from_secs(4) => {
                self.fail_redis_over(nemesis)
            }
            70..=89 if self.instances[instance].is_running() => {
                self.instances[instance].kill();
                nemesis.counts.kills += 1;
                nemesis.note(format!("killed {}", self.instances[instance].node));
                nemesis
                    .pending
                    .push((Instant::now() + lasting, Fault::Killed(instance)));
            }
            // The clients lose an instance mid-request: its answers never arrive.
            90..=97 => self.cut(nemesis, self.instance_links[instance][2].clone(), lasting),
            _ => {}
        }
    }

    fn fail_redis_over(&mut self, nemesis: &mut Nemesis) {
        let Some(redis) = self.redis.as_mut() else {
            return;
        };
        let replica_cut_off = nemesis
            .pending
            .iter()
            .any(|(_, fault)| matches!(fault, Fault::Cut(link) if link.node == redis.replica.node));
        match redis.fail_over(&self.lab) {
            Ok(()) => {
                nemesis.counts.failovers += 1;
                nemesis.counts.failovers_to_a_cut_off_replica += usize::from(replica_cut_off);
                nemesis.last_failover = Instant::now();
                nemesis.note(format!(
                    "Redis failed over to {}{}",
                    redis.primary.node,
                    if replica_cut_off {
                        " (cut off from the old primary)"
                    } else {
                        ""
                    }
                ));
            }
            Err(err) => nemesis.note(format!("failover did not happen: {err:#}")),
        }
    }

    fn redis_link(&self, node: &str) -> Link {
        self.redis_links
            .iter()
            .find(|(name, _)| name == node)
            .expect("a Redis node")
            .1
            .clone()
    }

    fn cut(&mut self, nemesis: &mut Nemesis, link: Link, lasting: Duration) {
        let already = nemesis
            .pending
            .iter()
            .any(|(_, fault)| matches!(fault, Fault::Cut(cut) if *cut == link));
        if already {
            return;
        }
        match self.lab.cut(&link) {
            Ok(()) => {
                nemesis.counts.cuts += 1;
                nemesis.note(format!("cut {link} for {} ms", lasting.as_millis()));
                nemesis
                    .pending
                    .push((Instant::now() + lasting, Fault::Cut(link)));
            }
            Err(err) => nemesis.note(format!("could not cut {link}: {err:#}")),
        }
    }

    fn heal_due(&mut self, nemesis: &mut Nemesis, everything: bool) {
        let now = Instant::now();
        let (due, later): (Vec<_>, Vec<_>) = std::mem::take(&mut nemesis.pending)
            .into_iter()
            .partition(|(at, _)| everything || *at <= now);
        nemesis.pending = later;
        for (_, fault) in due {
            match fault {
                Fault::Cut(link) => match self.lab.restore(&link) {
                    Ok(()) => nemesis.note(format!("restored {link}")),
                    Err(err) => panic!("restoring {link}: {err:#}"),
                },
                Fault::Killed(instance) => self.restart(nemesis, instance),
            }
        }
    }

    /// An instance that died on its own (it exits when it cannot start, for example while
    /// its PostgreSQL link is cut) is started again, as a supervisor would.
    fn restart_the_fallen(&mut self, nemesis: &mut Nemesis) {
        for instance in 0..self.instances.len() {
            let killed = nemesis
                .pending
                .iter()
                .any(|(_, fault)| matches!(fault, Fault::Killed(i) if *i == instance));
            if !killed && !self.instances[instance].is_running() {
                nemesis.counts.fell += 1;
                self.restart(nemesis, instance);
            }
        }
    }

    fn restart(&mut self, nemesis: &mut Nemesis, instance: usize) {
        let node = self.instances[instance].node.clone();
        match self.instances[instance].start(self.lab.namespace(&node)) {
            Ok(()) => nemesis.note(format!("started {node}")),
            Err(err) => panic!("starting {node}: {err:#}"),
        }
    }

    /// After healing: every instance serving (restarted until it stays up).
    pub fn all_serving(&mut self, within: Duration) -> anyhow::Result<()> {
        let deadline = Instant::now() + within;
        for index in 0..self.instances.len() {
            loop {
                let address = self.service_address(index);
                if self.instances[index].is_running()
                    && TcpStream::connect_timeout(&address, Duration::from_millis(200)).is_ok()
                {
                    break;
                }
                anyhow::ensure!(
                    Instant::now() < deadline,
                    "{} is not serving after healing:\n{}",
                    self.instances[index].node,
                    self.instances[index].log_tail()
                );
                if !self.instances[index].is_running() {
                    let node = self.instances[index].node.clone();
                    self.instances[index].start(self.lab.namespace(&node))?;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        Ok(())
    }
}

enum Fault {
    Cut(Link),
    Killed(usize),
}

/// What the nemesis did: its trace and counts.
pub struct Nemesis {
    rng: StdRng,
    started: Instant,
    pub trace: Vec<String>,
    pending: Vec<(Instant, Fault)>,
    pub counts: Counts,
    last_failover: Instant,
}

#[derive(Debug, Default)]
pub struct Counts {
    pub cuts: usize,
    pub failovers: usize,
    pub failovers_to_a_cut_off_replica: usize,
    pub kills: usize,
    /// Instances that exited on their own and were started again.
    pub fell: usize,
}

impl Nemesis {
    fn note(&mut self, what: String) {
        self.trace.push(format!(
            "{:>8.3}s nemesis: {what}",
            self.started.elapsed().as_secs_f64()
        ));
    }
}
