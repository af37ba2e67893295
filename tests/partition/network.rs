//! The test's own network: a namespace per process, joined by veth pairs to three bridges
//! (Redis, PostgreSQL, clients) that live in a switch namespace of their own. Nothing is added
//! to the machine's own namespace: every address below exists only inside the test's
//! namespaces, which are deleted when the [`Lab`] is dropped.
//!
//! A partition is a link set down: the veth end in the switch namespace, so the process on the
//! other end sees its interface lose carrier, as when a cable is pulled. (The kernel here has no
//! `netem`, so there is no loss or delay short of that.)

use std::path::PathBuf;
use std::process::{Command, Stdio};

use anyhow::{Context as _, bail};

/// Every namespace of the test's is named `PREFIX<pid>-<node>`.
pub const PREFIX: &str = "idempotency-partition-";

/// Deletes what an earlier run left when it was killed before it could clean up: namespaces
/// whose run's process is gone, and the processes still inside them.
pub fn sweep_stale_namespaces() {
    let Ok(entries) = std::fs::read_dir("/run/netns") else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .strip_prefix(PREFIX)
            .and_then(|rest| rest.split('-').next())
        else {
            continue;
        };
        if std::path::Path::new("/proc").join(pid).exists() {
            continue;
        }
        if let Ok(output) = Command::new("ip").args(["netns", "pids", &name]).output() {
            for pid in String::from_utf8_lossy(&output.stdout).split_whitespace() {
                let _ = Command::new("kill").args(["-9", pid]).status();
            }
        }
        let _ = ip(&["netns", "del", &name]);
    }
}

/// The networks, one bridge each. A process joins one by its interface of the same name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Net {
    Redis,
    Postgres,
    Clients,
}

impl Net {
    /// The interface's name inside a node, and the bridge's suffix in the switch.
    pub fn name(self) -> &'static str {
        match self {
            Net::Redis => "redis",
            Net::Postgres => "pg",
            Net::Clients => "cli",
        }
    }

    /// The /24 every address on this network is in.
    fn subnet(self) -> u8 {
        match self {
            Net::Redis => 1,
            Net::Postgres => 2,
            Net::Clients => 3,
        }
    }

    /// The address of host number `host` on this network.
    pub fn address(self, host: u8) -> String {
        format!("10.201.{}.{host}", self.subnet())
    }
}

/// A network namespace of the test's, deleted on drop.
pub struct Namespace {
    pub name: String,
}

impl Namespace {
    fn create(name: String) -> anyhow::Result<Self> {
        ip(&["netns", "add", &name])?;
        let namespace = Self { name };
        ip(&["-n", &namespace.name, "link", "set", "lo", "up"])?;
        Ok(namespace)
    }

    /// `/run/netns/NAME`, for `nsenter` and `setns`.
    pub fn path(&self) -> PathBuf {
        PathBuf::from("/run/netns").join(&self.name)
    }

    /// `program` to be started inside this namespace.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut command = Command::new("nsenter");
        command
            .arg(format!("--net={}", self.path().display()))
            .arg("--")
            .arg(program);
        command
    }

    /// [`Self::command`], run as the user `uid`:`gid`.
    pub fn command_as(&self, program: impl AsRef<std::ffi::OsStr>, uid: u32, gid: u32) -> Command {
        let mut command = Command::new("nsenter");
        command
            .arg(format!("--net={}", self.path().display()))
            .arg(format!("--setuid={uid}"))
            .arg(format!("--setgid={gid}"))
            .arg("--")
            .arg(program);
        command
    }

    /// Moves the calling thread into this namespace: the sockets it opens afterwards, and the
    /// threads it starts, are this namespace's.
    pub fn enter(&self) -> anyhow::Result<()> {
        use std::os::fd::AsRawFd as _;
        let file = std::fs::File::open(self.path())
            .with_context(|| format!("opening {}", self.path().display()))?;
        // SAFETY: setns takes a descriptor this function owns for the call's duration and
        // changes only the calling thread's network namespace.
        let done = unsafe { libc::setns(file.as_raw_fd(), libc::CLONE_NEWNET) };
        if done != 0 {
            bail!(
                "setns into {}: {}",
                self.name,
                std::io::Error::last_os_error()
            );
        }
        Ok(())
    }
}

impl Drop for Namespace {
    fn drop(&mut self) {
        let _ = ip(&["netns", "del", &self.name]);
    }
}

/// A node's leg on a network: the veth end in the switch, which a partition sets down.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Link {
    /// The node's name, for the trace.
    pub node: String,
    pub net: Net,
    /// The veth's name in the switch namespace (15 characters at most).
    veth: String,
}

impl std::fmt::Display for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}<->{}", self.node, self.net.name())
    }
}

/// The switch and the nodes' namespaces.
pub struct Lab {
    prefix: String,
    switch: Namespace,
    nodes: Vec<(String, Namespace)>,
}

impl Lab {
    /// The switch namespace with one bridge per network. `prefix` keeps two runs apart.
    pub fn new(prefix: &str) -> anyhow::Result<Self> {
        let switch = Namespace::create(format!("{prefix}-switch"))?;
        for net in [Net::Redis, Net::Postgres, Net::Clients] {
            let bridge = format!("br-{}", net.name());
            ip(&["-n", &switch.name, "link", "add", &bridge, "type", "bridge"])?;
            ip(&["-n", &switch.name, "link", "set", &bridge, "up"])?;
        }
        Ok(Self {
            prefix: prefix.to_owned(),
            switch,
            nodes: Vec::new(),
        })
    }

    /// A node: a namespace of its own with a leg on each of `legs` (network, host number).
    /// Returns its links, in the order of `legs`.
    pub fn node(&mut self, name: &str, legs: &[(Net, u8)]) -> anyhow::Result<Vec<Link>> {
        let namespace = Namespace::create(format!("{}-{name}", self.prefix))?;
        let mut links = Vec::new();
        for (net, host) in legs {
            let veth = format!("{name}-{}", net.name());
            anyhow::ensure!(veth.len() <= 15, "interface name {veth} is too long");
            ip(&[
                "-n",
                &self.switch.name,
                "link",
                "add",
                &veth,
                "type",
                "veth",
                "peer",
                "name",
                net.name(),
                "netns",
                &namespace.name,
            ])?;
            let bridge = format!("br-{}", net.name());
            ip(&[
                "-n",
                &self.switch.name,
                "link",
                "set",
                &veth,
                "master",
                &bridge,
                "up",
            ])?;
            let address = format!("{}/24", net.address(*host));
            ip(&[
                "-n",
                &namespace.name,
                "addr",
                "add",
                &address,
                "dev",
                net.name(),
            ])?;
            ip(&["-n", &namespace.name, "link", "set", net.name(), "up"])?;
            links.push(Link {
                node: name.to_owned(),
                net: *net,
                veth,
            });
        }
        self.nodes.push((name.to_owned(), namespace));
        Ok(links)
    }

    pub fn namespace(&self, node: &str) -> &Namespace {
        &self
            .nodes
            .iter()
            .find(|(name, _)| name == node)
            .unwrap_or_else(|| panic!("no node {node}"))
            .1
    }

    /// Cuts `link`: the node loses its leg on that network until [`Self::restore`].
    pub fn cut(&self, link: &Link) -> anyhow::Result<()> {
        ip(&["-n", &self.switch.name, "link", "set", &link.veth, "down"])
    }

    pub fn restore(&self, link: &Link) -> anyhow::Result<()> {
        ip(&["-n", &self.switch.name, "link", "set", &link.veth, "up"])
    }

    /// Moves a service address from one node's leg on `net` to another's (a floating address,
    /// as keepalived moves one), then makes every node forget where it was: the stand-in for
    /// the gratuitous ARP a real failover sends.
    pub fn move_address(&self, net: Net, host: u8, from: &str, to: &str) -> anyhow::Result<()> {
        let address = format!("{}/24", net.address(host));
        let from = &self.namespace(from).name;
        let to = &self.namespace(to).name;
        ip(&["-n", from, "addr", "del", &address, "dev", net.name()])?;
        ip(&["-n", to, "addr", "add", &address, "dev", net.name()])?;
        for (_, namespace) in &self.nodes {
            let _ = ip(&[
                "-n",
                &namespace.name,
                "neigh",
                "flush",
                "to",
                &net.address(host),
            ]);
        }
        Ok(())
    }

    /// Adds a second address to a node's leg (the floating address's first home).
    pub fn add_address(&self, node: &str, net: Net, host: u8) -> anyhow::Result<()> {
        let address = format!("{}/24", net.address(host));
        ip(&[
            "-n",
            &self.namespace(node).name,
            "addr",
            "add",
            &address,
            "dev",
            net.name(),
        ])
    }
}

impl Drop for Lab {
    fn drop(&mut self) {
        // The nodes' namespaces go first (their veths with them), then the switch's.
        self.nodes.clear();
    }
}

/// Runs `ip` with `arguments`; its error names the command and what it printed.
pub fn ip(arguments: &[&str]) -> anyhow::Result<()> {
    let output = Command::new("ip")
        .args(arguments)
        .stdin(Stdio::null())
        .output()
        .context("running ip (iproute2)")?;
    if !output.status.success() {
        bail!(
            "ip {}: {}",
            arguments.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(())
}

/// Whether this machine lets the test make namespaces: `None` when it does, or why not.
pub fn why_namespaces_are_not_permitted(prefix: &str) -> Option<String> {
    for program in ["ip", "nsenter"] {
        if which(program).is_none() {
            return Some(format!(
                "`{program}` is not on PATH (apt-get install iproute2 util-linux)"
            ));
        }
    }
    let probe = format!("{prefix}-probe");
    match ip(&["netns", "add", &probe]) {
        Ok(()) => {
            let _ = ip(&["netns", "del", &probe]);
            None
        }
        Err(err) => Some(format!(
            "network namespaces are not permitted here ({err:#}); the test needs root \
             (CAP_SYS_ADMIN and CAP_NET_ADMIN)"
        )),
    }
}

/// `program`'s path on `PATH`, if it is there.
pub fn which(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}
