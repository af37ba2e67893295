//! `cargo xtask test compose`: `docker-compose.yml` and the `Dockerfile`, started for real with
//! podman, and used as the README says.
//!
//! Public registries cannot be reached here, so every image the two files name is stood in by
//! one built locally from Debian's packages (see `xtask/compose/README.md`): a bookworm root
//! filesystem from `debootstrap`, Redis and PostgreSQL from their packages, a `rust` image
//! carrying this machine's toolchain, and small Python stand-ins for the collector, Jaeger and
//! Mailpit. They are built once and cached by a tag that names their recipe. The service's
//! image is built from the real `Dockerfile` (by podman-compose, from the compose file's
//! `build:`), and the stack started from the real compose file, with an override that swaps
//! images only.
//!
//! The stack runs in a network namespace of its own, so that the ports it publishes on
//! 127.0.0.1 (6379, 5432, 8080...) meet neither this machine's own Redis and PostgreSQL nor
//! anyone else's servers; the journey, the mail and trace checks and the test command run in
//! it too, against `localhost` as the README's commands do.
//!
//! The services start in the order of their `depends_on`, each condition awaited
//! (podman-compose 1.0 ignores conditions; without systemd, podman does not run healthchecks by
//! itself, so this runs them, `podman healthcheck run`, with the compose file's retries).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail, ensure};
use serde_json::Value;

use crate::test::{cargo, run_command, runner_variable};

/// The compose project and the network namespace the stack runs in.
const PROJECT: &str = "xtask-compose";
/// Where the tag of every stand-in image starts.
const STANDIN_REPOSITORY: &str = "localhost/xtask-compose";
/// The file whose `Checked through commit` line says up to which commit the step last passed.
const RECORD: &str = "xtask/compose/README.md";
const CHECKED_THROUGH: &str = "Checked through commit ";
/// What the stack is made of: a change to any of these runs the step in the full run.
const WATCHED: &[&str] = &[
    "Dockerfile",
    "docker-compose.yml",
    ".dockerignore",
    "config",
    "deploy",
    "xtask/compose",
    "xtask/src/compose.rs",
];
const STANDIN_SCRIPT: &str = include_str!("../compose/standin.py");
const POSTGRES_ENTRYPOINT: &str = include_str!("../compose/postgres-entrypoint.sh");
/// The Debian release every stand-in is built from: the release the Dockerfile's images name.
const DEBIAN_RELEASE: &str = "bookworm";
const DEBIAN_MIRROR: &str = "http://deb.debian.org/debian";
/// The README's journey, as its `## Idempotency` section writes it.
const EMAIL: &str = "me@example.com";
const PASSWORD: &str = "correct horse battery";
const IDEMPOTENCY_KEY: &str = "8e03978e-40d5-43e8-bc93-6894a57f9324";
/// The Redis-backed suites of the README's test command run against the stack: those the
/// cluster step runs on a Redis Cluster (every suite written against the shared Redis).
const REDIS_BACKED_SUITES: &[&str] = &[
    "idempotency::",
    "identity::rate_limits",
    "identity::revocation",
    "notifications::",
    "health",
    "redis_topologies",
];

/// Runs the step. `named`: run as `cargo xtask test compose`, so always; else only when what
/// the stack is made of changed since the commit it last passed on.
pub fn run(root: &Path, named: bool) -> anyhow::Result<()> {
    if !named && let Some(unchanged) = unchanged_since_checked(root)? {
        println!("compose: SKIPPED: {unchanged}; `cargo xtask test compose` runs it anyway");
        return Ok(());
    }
    if let Some(why) = containers_cannot_run() {
        ensure!(
            !every_suite_required(),
            "the compose step cannot run here ({why}), and CI=true requires it"
        );
        println!(
            "\n==================== LEFT OUT: compose ====================\n\
             docker-compose.yml and the Dockerfile were NOT started: {why}.\n\
             Run `cargo xtask test compose` as root on Linux with apt (podman is installed).\n"
        );
        return Ok(());
    }
    install_missing_tools()?;
    let started = Instant::now();
    let podman = Podman::new()?;
    let images = podman.standin_images(root)?;
    println!(
        "compose: stand-in images ready in {} s",
        started.elapsed().as_secs()
    );
    let compose = ComposeFile::read(root, &images)?;
    let stack = Stack::new(podman, compose)?;
    let result = stack.exercise(root);
    if result.is_err() {
        stack.print_logs();
    }
    drop(stack);
    println!("compose: stack stopped and removed");
    result?;
    println!(
        "compose: passed in {} s; once this is committed, record it in {RECORD}: \
         `{CHECKED_THROUGH}<that commit>`",
        started.elapsed().as_secs()
    );
    Ok(())
}

fn every_suite_required() -> bool {
    std::env::var("CI").is_ok_and(|value| value == "true" || value == "1")
        || std::env::var("TEST_REQUIRE_ALL").is_ok_and(|value| value == "1")
}

/// Why containers cannot run on this machine, if they cannot.
fn containers_cannot_run() -> Option<String> {
    if !cfg!(target_os = "linux") {
        return Some("podman runs its containers on Linux only".to_owned());
    }
    let uid = Command::new("id").arg("-u").output().ok()?;
    if String::from_utf8_lossy(&uid.stdout).trim() != "0" {
        return Some(
            "the step runs containers as root (rootful podman, a network namespace)".to_owned(),
        );
    }
    if !on_path("podman") && !on_path("apt-get") {
        return Some("podman is missing and there is no apt-get to install it".to_owned());
    }
    None
}

/// The commit the step last passed on, if nothing it watches changed since.
fn unchanged_since_checked(root: &Path) -> anyhow::Result<Option<String>> {
    let notes = std::fs::read_to_string(root.join(RECORD)).with_context(|| RECORD.to_owned())?;
    let Some(commit) = crate::mutants::commit_in_notes(&notes, CHECKED_THROUGH) else {
        println!("compose: {RECORD} names no commit the step passed on: it runs");
        return Ok(None);
    };
    let excluded = format!(":(exclude){RECORD}");
    let changed = git(root, &["diff", "--name-only", &commit, "--"], &excluded);
    let untracked = git(
        root,
        &["ls-files", "--others", "--exclude-standard", "--"],
        &excluded,
    );
    match (changed, untracked) {
        (Ok(changed), Ok(untracked)) if changed.is_empty() && untracked.is_empty() => {
            Ok(Some(format!(
                "nothing in {} changed since {commit}, the commit it last passed on ({RECORD})",
                WATCHED.join(", ")
            )))
        }
        (Ok(changed), Ok(untracked)) => {
            println!(
                "compose: changed since {commit}, the commit it last passed on: {}",
                format!("{changed}{untracked}")
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            Ok(None)
        }
        (Err(err), _) | (_, Err(err)) => {
            println!("compose: cannot tell what changed since {commit} ({err:#}): it runs");
            Ok(None)
        }
    }
}

fn git(root: &Path, args: &[&str], excluded: &str) -> anyhow::Result<String> {
    let output = Command::new("git")
        .current_dir(root)
        .args(args)
        .args(WATCHED)
        .arg(excluded)
        .output()
        .context("git")?;
    ensure!(
        output.status.success(),
        "git {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&output.stderr).trim()
    );
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// The programs the step runs, and the Debian packages that have them.
const TOOLS: &[(&str, &str)] = &[
    ("podman", "podman"),
    // crun refuses this kind of machine's hybrid cgroup layout; runc starts containers.
    ("runc", "runc"),
    ("podman-compose", "podman-compose"),
    ("debootstrap", "debootstrap"),
    ("ip", "iproute2"),
    ("nsenter", "util-linux"),
    ("iptables", "iptables"),
    ("curl", "curl"),
    ("python3", "python3-yaml"),
];

fn install_missing_tools() -> anyhow::Result<()> {
    let mut missing: Vec<&str> = TOOLS
        .iter()
        .filter(|(program, _)| !on_path(program))
        .map(|(_, package)| *package)
        .collect();
    let has_yaml = Command::new("python3")
        .args(["-c", "import yaml"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if !has_yaml && !missing.contains(&"python3-yaml") {
        missing.push("python3-yaml");
    }
    if missing.is_empty() {
        return Ok(());
    }
    println!("compose: installing {}", missing.join(" "));
    let install = |missing: &[&str]| {
        Command::new("apt-get")
            .args(["install", "-y", "-qq", "--no-install-recommends"])
            .args(missing)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .is_ok_and(|status| status.success())
    };
    if !install(&missing) {
        run_command(Command::new("apt-get").args(["update", "-qq"]))?;
        ensure!(
            install(&missing),
            "apt-get install {} failed",
            missing.join(" ")
        );
    }
    Ok(())
}

fn on_path(program: &str) -> bool {
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .any(|dir| dir.join(program).is_file())
}

/// podman, set up for this machine.
struct Podman {
    /// Holds the containers.conf every podman command (podman-compose's too) reads.
    settings: tempfile::TempDir,
}

impl Podman {
    fn new() -> anyhow::Result<Self> {
        let settings = tempfile::tempdir().context("a directory for containers.conf")?;
        // runc with cgroupfs (no systemd here); limits below the machine's hard ones, which
        // runc otherwise fails to set in a container ("error setting rlimits").
        std::fs::write(
            settings.path().join("containers.conf"),
            "[containers]\n\
             default_ulimits = [\"nofile=1024:1024\", \"nproc=4096:4096\"]\n\
             [engine]\n\
             runtime = \"runc\"\n\
             cgroup_manager = \"cgroupfs\"\n",
        )?;
        Ok(Self { settings })
    }

    fn command(&self, program: &str) -> Command {
        let mut command = Command::new(program);
        command.env(
            "CONTAINERS_CONF",
            self.settings.path().join("containers.conf"),
        );
        command
    }

    fn podman(&self, args: &[&str]) -> Command {
        let mut command = self.command("podman");
        command.args(args);
        command
    }

    /// `program` in the stack's network namespace: nsenter enters its network only (`ip netns
    /// exec` also mounts a /sys of its own, without the cgroup mounts runc needs).
    fn in_namespace(&self, program: &str) -> Command {
        let mut command = self.command("nsenter");
        command.arg(namespace_option()).arg(program);
        command
    }

    fn output(&self, args: &[&str]) -> anyhow::Result<String> {
        let output = self
            .podman(args)
            .stderr(Stdio::inherit())
            .output()
            .context("podman")?;
        ensure!(
            output.status.success(),
            "podman {} failed ({})",
            args.join(" "),
            output.status
        );
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
    }

    fn image_exists(&self, tag: &str) -> bool {
        self.podman(&["image", "exists", tag])
            .status()
            .is_ok_and(|status| status.success())
    }

    /// Every stand-in image, built unless its tag is already here.
    fn standin_images(&self, root: &Path) -> anyhow::Result<StandIns> {
        let base = self.base_image()?;
        let toolchain = Toolchain::of_this_machine(root)?;
        let python = StandIn::new(
            "python",
            format!(
                "FROM {base}\n\
                 RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y \
                 --no-install-recommends python3 && rm -rf /var/lib/apt/lists/*\n\
                 COPY standin.py /usr/local/bin/standin.py\n"
            ),
            &[("standin.py", STANDIN_SCRIPT)],
        );
        let python_tag = self.build(&python, &[])?;
        let with_role = |name: &'static str, role: &str| {
            StandIn::new(
                name,
                format!(
                    "FROM {python_tag}\nENTRYPOINT [\"python3\", \"/usr/local/bin/standin.py\", \"{role}\"]\n"
                ),
                &[],
            )
        };
        let rust = StandIn::new(
            "rust",
            format!(
                "FROM {base}\n\
                 RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y \
                 --no-install-recommends ca-certificates curl git gcc libc6-dev make pkg-config \
                 && rm -rf /var/lib/apt/lists/*\n\
                 ENV RUSTUP_HOME=/usr/local/rustup CARGO_HOME=/usr/local/cargo \
                 PATH=/usr/local/cargo/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
                 RUST_VERSION={version}\n\
                 # This machine's toolchain (no other can be fetched here) under the name the rust\n\
                 # image gives it, behind rustup's proxies as there; and this machine's CA bundle,\n\
                 # which its network's TLS needs for crates.io.\n\
                 RUN mkdir -p /usr/local/rustup/toolchains /usr/local/cargo/bin \
                 && cp -a /host-toolchain /usr/local/rustup/toolchains/{name} \
                 && rm -rf /usr/local/rustup/toolchains/{name}/share/doc \
                 && cp /host-rustup /usr/local/cargo/bin/rustup \
                 && for proxy in cargo rustc rustdoc cargo-clippy cargo-fmt rustfmt clippy-driver; do \
                 ln -s rustup /usr/local/cargo/bin/$proxy; done \
                 && printf 'version = \"12\"\\ndefault_toolchain = \"{name}\"\\nprofile = \"minimal\"\\n' \
                 > /usr/local/rustup/settings.toml \
                 && cp /host-ca-bundle.crt /etc/ssl/certs/ca-certificates.crt \
                 && cargo --version\n",
                version = toolchain.version,
                name = toolchain.name,
            ),
            &[],
        );
        let redis = StandIn::new(
            "redis",
            format!(
                "FROM {base}\n\
                 RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y \
                 --no-install-recommends redis-server && rm -rf /var/lib/apt/lists/*\n\
                 CMD [\"redis-server\"]\n"
            ),
            &[],
        );
        let postgres = StandIn::new(
            "postgres",
            format!(
                "FROM {base}\n\
                 RUN mkdir -p /etc/postgresql-common \
                 && echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.conf \
                 && apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y \
                 --no-install-recommends postgresql-15 && rm -rf /var/lib/apt/lists/*\n\
                 COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh\n\
                 ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n\
                 EXPOSE 5432\n\
                 STOPSIGNAL SIGINT\n\
                 ENTRYPOINT [\"sh\", \"/usr/local/bin/docker-entrypoint.sh\"]\n\
                 CMD [\"postgres\"]\n"
            ),
            &[("postgres-entrypoint.sh", POSTGRES_ENTRYPOINT)],
        );
        let ca_bundle = Path::new("/etc/ssl/certs/ca-certificates.crt");
        ensure!(ca_bundle.is_file(), "{} is missing", ca_bundle.display());
        Ok(StandIns {
            base: base.clone(),
            rust: self.build(
                &rust,
                &[
                    (toolchain.sysroot.as_path(), "/host-toolchain"),
                    (toolchain.rustup.as_path(), "/host-rustup"),
                    (ca_bundle, "/host-ca-bundle.crt"),
                ],
            )?,
            redis: self.build(&redis, &[])?,
            postgres: self.build(&postgres, &[])?,
            collector: self.build(&with_role("otel-collector", "otel-collector"), &[])?,
            jaeger: self.build(&with_role("jaeger", "jaeger"), &[])?,
            mailpit: self.build(&with_role("mailpit", "mailpit"), &[])?,
        })
    }

    /// A minimal bookworm root filesystem from Debian's packages, imported as an image.
    fn base_image(&self) -> anyhow::Result<String> {
        let recipe = format!("debootstrap --variant=minbase {DEBIAN_RELEASE} {DEBIAN_MIRROR}");
        let tag = format!("{STANDIN_REPOSITORY}/{DEBIAN_RELEASE}:{}", fnv(&[&recipe]));
        if self.image_exists(&tag) {
            println!("compose: {tag} is here (cached), not built again");
            return Ok(tag);
        }
        println!("compose: building {tag}: {recipe}");
        let scratch = tempfile::Builder::new()
            .prefix("xtask-compose-rootfs")
            .tempdir_in("/var/tmp")
            .context("a directory for the root filesystem")?;
        let rootfs = scratch.path().join("rootfs");
        run_command(
            Command::new("debootstrap")
                .args(["--variant=minbase", DEBIAN_RELEASE])
                .arg(&rootfs)
                .arg(DEBIAN_MIRROR)
                .stdout(Stdio::null()),
        )?;
        // As in Debian's container images: packages installed in a container start no services.
        let policy = rootfs.join("usr/sbin/policy-rc.d");
        std::fs::write(&policy, "#!/bin/sh\nexit 101\n")?;
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&policy, std::fs::Permissions::from_mode(0o755))?;
        run_command(
            self.command("sh")
                .args([
                    "-c",
                    "tar -C \"$1\" -c . | podman import --change 'CMD [\"bash\"]' - \"$2\" >/dev/null",
                    "import",
                ])
                .arg(&rootfs)
                .arg(&tag),
        )?;
        Ok(tag)
    }

    /// Builds `standin` unless an image of its recipe is here; its tag.
    fn build(&self, standin: &StandIn, volumes: &[(&Path, &str)]) -> anyhow::Result<String> {
        let tag = standin.tag();
        if self.image_exists(&tag) {
            println!("compose: {tag} is here (cached), not built again");
            return Ok(tag);
        }
        println!("compose: building {tag}");
        let context = tempfile::tempdir().context("a build context")?;
        std::fs::write(context.path().join("Containerfile"), &standin.containerfile)?;
        for (name, text) in &standin.files {
            std::fs::write(context.path().join(name), text)?;
        }
        let mut command = self.podman(&["build", "--pull=never", "--quiet", "-t", &tag]);
        for (from, to) in volumes {
            command.arg("-v").arg(format!("{}:{to}:ro", from.display()));
        }
        command
            .arg("-f")
            .arg(context.path().join("Containerfile"))
            .arg(context.path());
        run_command(&mut command)?;
        Ok(tag)
    }
}

/// An image built from a Containerfile and the files it copies, tagged by their hash.
struct StandIn {
    name: &'static str,
    containerfile: String,
    files: Vec<(&'static str, &'static str)>,
}

impl StandIn {
    fn new(
        name: &'static str,
        containerfile: String,
        files: &[(&'static str, &'static str)],
    ) -> Self {
        Self {
            name,
            containerfile,
            files: files.to_vec(),
        }
    }

    fn tag(&self) -> String {
        let mut parts = vec![self.containerfile.as_str()];
        for (name, text) in &self.files {
            parts.extend([*name, *text]);
        }
        format!("{STANDIN_REPOSITORY}/{}:{}", self.name, fnv(&parts))
    }
}

/// FNV-1a over `parts`, in hex: a tag that changes with the recipe.
fn fnv(parts: &[&str]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for byte in part.bytes().chain([0]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

/// The toolchain this machine builds with, which the `rust` stand-in carries.
struct Toolchain {
    sysroot: PathBuf,
    rustup: PathBuf,
    /// `1.95.0`
    version: String,
    /// `1.95.0-x86_64-unknown-linux-gnu`, as the rust image names its toolchain.
    name: String,
}

impl Toolchain {
    fn of_this_machine(root: &Path) -> anyhow::Result<Self> {
        let rustc = |args: &[&str]| -> anyhow::Result<String> {
            let output = Command::new("rustc")
                .args(args)
                .current_dir(root)
                .output()
                .context("rustc")?;
            ensure!(output.status.success(), "rustc {} failed", args.join(" "));
            Ok(String::from_utf8_lossy(&output.stdout).into_owned())
        };
        let sysroot = PathBuf::from(rustc(&["--print", "sysroot"])?.trim());
        let verbose = rustc(&["-vV"])?;
        let field = |name: &str| {
            verbose
                .lines()
                .find_map(|line| line.strip_prefix(name))
                .map(str::to_owned)
                .with_context(|| format!("rustc -vV prints no `{name}`"))
        };
        let version = field("release: ")?;
        let host = field("host: ")?;
        let rustup = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
            .map(|dir| dir.join("rustup"))
            .find(|path| path.is_file())
            .context("rustup is not on PATH: the rust stand-in carries its proxies")?;
        Ok(Self {
            sysroot,
            rustup: std::fs::canonicalize(rustup)?,
            name: format!("{version}-{host}"),
            version,
        })
    }
}

/// The stand-in images' tags.
struct StandIns {
    base: String,
    rust: String,
    redis: String,
    postgres: String,
    collector: String,
    jaeger: String,
    mailpit: String,
}

impl StandIns {
    /// The stand-in for an image the Dockerfile or the compose file names.
    fn for_image(&self, image: &str) -> anyhow::Result<&str> {
        let name = image.rsplit_once(':').map_or(image, |(name, _)| name);
        let name = name.strip_prefix("docker.io/").unwrap_or(name);
        let name = name.strip_prefix("library/").unwrap_or(name);
        Ok(match name {
            "rust" => &self.rust,
            "debian" => &self.base,
            "redis" => &self.redis,
            "postgres" => &self.postgres,
            "otel/opentelemetry-collector-contrib" | "otel/opentelemetry-collector" => {
                &self.collector
            }
            "jaegertracing/all-in-one" => &self.jaeger,
            "axllent/mailpit" => &self.mailpit,
            _ => bail!("no stand-in for the image {image}: add one in xtask/src/compose.rs"),
        })
    }
}

/// `docker-compose.yml`, read, and the override that swaps its images for the stand-ins.
struct ComposeFile {
    services: serde_json::Map<String, Value>,
    override_dir: tempfile::TempDir,
    jwt_secret: String,
}

impl ComposeFile {
    fn read(root: &Path, images: &StandIns) -> anyhow::Result<Self> {
        let output = Command::new("python3")
            .args([
                "-c",
                "import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)",
            ])
            .arg(root.join("docker-compose.yml"))
            .output()
            .context("python3 reading docker-compose.yml")?;
        ensure!(
            output.status.success(),
            "docker-compose.yml does not parse: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let file: Value = serde_json::from_slice(&output.stdout)?;
        let services = file["services"]
            .as_object()
            .context("docker-compose.yml has no services")?
            .clone();
        // The Dockerfile's base images, by the names it gives them (podman looks a short name
        // up among its images before any registry).
        let dockerfile = std::fs::read_to_string(root.join("Dockerfile"))?;
        for image in base_images(&dockerfile) {
            let standin = images.for_image(&image)?;
            let qualified = qualified(&image);
            println!("compose: the Dockerfile's {image} is {standin} (tagged {qualified})");
            run_command(Command::new("podman").args(["tag", standin, &qualified]))?;
        }
        let mut swaps = String::from(
            "# Written by `cargo xtask test compose`: the stand-ins for the images only.\nservices:\n",
        );
        for (name, service) in &services {
            if let Some(image) = service["image"].as_str() {
                let standin = images.for_image(image)?;
                println!("compose: service {name}: {image} is stood in by {standin}");
                swaps.push_str(&format!("  {name}:\n    image: {standin}\n"));
            }
        }
        let override_dir = tempfile::tempdir()?;
        std::fs::write(
            override_dir.path().join("docker-compose.standins.yml"),
            swaps,
        )?;
        Ok(Self {
            services,
            override_dir,
            jwt_secret: random_key()?,
        })
    }

    fn override_file(&self) -> PathBuf {
        self.override_dir.path().join("docker-compose.standins.yml")
    }

    /// The services in an order that starts each after those it depends on, with the
    /// conditions it waits for.
    fn start_order(&self) -> anyhow::Result<Vec<(String, Vec<Dependency>)>> {
        let mut ordered: Vec<(String, Vec<Dependency>)> = Vec::new();
        let mut left: Vec<&String> = self.services.keys().collect();
        while !left.is_empty() {
            let before = left.len();
            left.retain(|name| {
                let dependencies = dependencies(&self.services[name.as_str()]);
                let ready = dependencies
                    .iter()
                    .all(|(dependency, _)| ordered.iter().any(|(done, _)| done == dependency));
                if ready {
                    ordered.push(((*name).clone(), dependencies));
                }
                !ready
            });
            ensure!(
                left.len() < before,
                "depends_on has a cycle or names a missing service among: {left:?}"
            );
        }
        Ok(ordered)
    }

    /// The services built here: (service, context, Dockerfile), from their `build:`.
    fn builds(&self) -> anyhow::Result<Vec<(String, String, String)>> {
        let mut builds = Vec::new();
        for (name, service) in &self.services {
            let (context, dockerfile) = match &service["build"] {
                Value::Null => continue,
                Value::String(context) => (context.clone(), "Dockerfile".to_owned()),
                build => (
                    build["context"].as_str().unwrap_or(".").to_owned(),
                    build["dockerfile"]
                        .as_str()
                        .unwrap_or("Dockerfile")
                        .to_owned(),
                ),
            };
            builds.push((name.clone(), context, dockerfile));
        }
        Ok(builds)
    }

    /// The stack's Redis password: the redis service's `--requirepass`.
    fn redis_password(&self) -> anyhow::Result<String> {
        let command = self.services["redis"]["command"]
            .as_array()
            .context("the redis service has no command list")?;
        let position = command
            .iter()
            .position(|part| part == "--requirepass")
            .context("the redis service sets no --requirepass")?;
        command
            .get(position + 1)
            .and_then(Value::as_str)
            .map(str::to_owned)
            .context("--requirepass without a password")
    }

    /// The app's `environment` value of `name`.
    fn app_setting(&self, name: &str) -> anyhow::Result<String> {
        self.services["app"]["environment"][name]
            .as_str()
            .map(str::to_owned)
            .with_context(|| format!("the app service sets no {name}"))
    }
}

/// A service another waits for, and the condition it waits for: `service_started`...
type Dependency = (String, String);

/// `depends_on` as (service, condition), the short list form meaning `service_started`.
fn dependencies(service: &Value) -> Vec<Dependency> {
    match &service["depends_on"] {
        Value::Array(names) => names
            .iter()
            .filter_map(Value::as_str)
            .map(|name| (name.to_owned(), "service_started".to_owned()))
            .collect(),
        Value::Object(map) => map
            .iter()
            .map(|(name, how)| {
                let condition = how["condition"].as_str().unwrap_or("service_started");
                (name.clone(), condition.to_owned())
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The images a Dockerfile's `FROM` lines name (not its own stages).
fn base_images(dockerfile: &str) -> Vec<String> {
    let mut stages = Vec::new();
    let mut images = Vec::new();
    for line in dockerfile.lines().map(str::trim) {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words
            .first()
            .is_some_and(|word| word.eq_ignore_ascii_case("FROM"))
        {
            let image = words
                .iter()
                .skip(1)
                .find(|word| !word.starts_with("--"))
                .copied()
                .unwrap_or_default();
            if !stages.contains(&image.to_owned()) && !images.contains(&image.to_owned()) {
                images.push(image.to_owned());
            }
            if let Some(position) = words
                .iter()
                .position(|word| word.eq_ignore_ascii_case("AS"))
                && let Some(stage) = words.get(position + 1)
            {
                stages.push((*stage).to_owned());
            }
        }
    }
    images
}

/// `rust:1.95` as `docker.io/library/rust:1.95`, the name podman resolves it to.
fn qualified(image: &str) -> String {
    match image.split_once('/') {
        None => format!("docker.io/library/{image}"),
        Some((first, _)) if first.contains('.') || first.contains(':') => image.to_owned(),
        Some(_) => format!("docker.io/{image}"),
    }
}

/// 32 random bytes in base64: the stack's access-token signing key, as the README makes it.
fn random_key() -> anyhow::Result<String> {
    use std::io::Read as _;
    let mut bytes = [0u8; 32];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut key = String::new();
    for chunk in bytes.chunks(3) {
        let triple = chunk.iter().enumerate().fold(0u32, |acc, (i, byte)| {
            acc | u32::from(*byte) << (16 - 8 * i)
        });
        for i in 0..4 {
            if i <= chunk.len() {
                key.push(ALPHABET[(triple >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                key.push('=');
            }
        }
    }
    Ok(key)
}

/// The running stack, stopped and removed (containers, network, namespace) when dropped.
struct Stack {
    podman: Podman,
    compose: ComposeFile,
}

impl Stack {
    fn new(podman: Podman, compose: ComposeFile) -> anyhow::Result<Self> {
        let stack = Self { podman, compose };
        // What a run that was killed left behind.
        stack.remove();
        run_command(Command::new("ip").args(["netns", "add", PROJECT]))?;
        run_command(
            stack
                .podman
                .in_namespace("ip")
                .args(["link", "set", "lo", "up"]),
        )?;
        Ok(stack)
    }

    fn container(service: &str) -> String {
        format!("{PROJECT}_{service}_1")
    }

    /// podman-compose on the real compose file and the override.
    fn compose(&self, program: Command) -> Command {
        let mut command = program;
        command
            .arg("-p")
            .arg(PROJECT)
            .arg("-f")
            .arg("docker-compose.yml")
            .arg("-f")
            .arg(self.compose.override_file())
            .env("JWT_SECRET", &self.compose.jwt_secret);
        command
    }

    fn exercise(&self, root: &Path) -> anyhow::Result<()> {
        for (service, context, dockerfile) in self.compose.builds()? {
            let build_started = Instant::now();
            // podman-compose 1.0's `build` answers 0 when podman's build fails, so the build is
            // run here, from the service's `build:`, under the name podman-compose gives its
            // image. Outside the namespace: the build downloads crates.
            let context = root.join(context);
            run_command(
                self.podman
                    .podman(&[
                        "build",
                        "--pull=never",
                        "-t",
                        &format!("{PROJECT}_{service}"),
                    ])
                    .arg("-f")
                    .arg(context.join(&dockerfile))
                    .arg(&context),
            )?;
            println!(
                "compose: {service}'s image built from {dockerfile} in {} s",
                build_started.elapsed().as_secs()
            );
        }
        let up_started = Instant::now();
        run_command(
            self.compose(self.podman.in_namespace("podman-compose"))
                .current_dir(root)
                .args(["up", "--no-build", "--no-start"])
                .stdout(Stdio::null()),
        )?;
        for (service, dependencies) in self.compose.start_order()? {
            for (dependency, condition) in &dependencies {
                self.await_condition(dependency, condition)?;
            }
            println!("compose: starting {service}");
            run_command(
                self.podman
                    .in_namespace("podman")
                    .args(["start", &Self::container(&service)])
                    .stdout(Stdio::null()),
            )?;
        }
        for service in self.compose.services.keys() {
            if self.compose.services[service]["healthcheck"].is_object() {
                self.await_condition(service, "service_healthy")?;
            }
        }
        self.await_ready()?;
        println!(
            "compose: the stack is up and ready in {} s",
            up_started.elapsed().as_secs()
        );
        self.journey()?;
        self.trace_reached_the_collector()?;
        self.test_command(root)
    }

    fn await_condition(&self, service: &str, condition: &str) -> anyhow::Result<()> {
        let container = Self::container(service);
        match condition {
            "service_started" => {
                ensure!(
                    self.state(&container)? == "running",
                    "{service} is not running"
                );
                Ok(())
            }
            "service_healthy" => {
                let check = &self.compose.services[service]["healthcheck"];
                ensure!(
                    check.is_object(),
                    "depends_on waits for {service} to be healthy, and it has no healthcheck"
                );
                let retries = check["retries"].as_u64().unwrap_or(3);
                let interval = check["interval"]
                    .as_str()
                    .and_then(|text| text.strip_suffix('s'))
                    .and_then(|seconds| seconds.parse::<u64>().ok())
                    .unwrap_or(30);
                for attempt in 1..=retries.max(1) {
                    ensure!(
                        self.state(&container)? == "running",
                        "{service} stopped before its healthcheck passed"
                    );
                    let healthy = self
                        .podman
                        .podman(&["healthcheck", "run", &container])
                        .stdout(Stdio::null())
                        .stderr(Stdio::null())
                        .status()
                        .is_ok_and(|status| status.success());
                    if healthy {
                        println!("compose: {service} is healthy (attempt {attempt})");
                        return Ok(());
                    }
                    std::thread::sleep(Duration::from_secs(interval));
                }
                bail!("{service}'s healthcheck did not pass in {retries} tries, {interval} s apart")
            }
            other => bail!("depends_on condition {other} is not supported by this step"),
        }
    }

    fn state(&self, container: &str) -> anyhow::Result<String> {
        self.podman
            .output(&["inspect", "--format", "{{.State.Status}}", container])
    }

    /// `/health/ready` answers `{"status":"ok"}`: every dependency answers the service (a
    /// Redis it cannot reach or log in to makes it "degraded", which still answers 200).
    fn await_ready(&self) -> anyhow::Result<()> {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut last = String::from("no answer");
        while Instant::now() < deadline {
            ensure!(
                self.state(&Self::container("app"))? == "running",
                "the service stopped (its log follows)"
            );
            if let Ok(answer) = self.curl(&["http://localhost:8080/health/ready"]) {
                if answer.status == 200 && answer.json()["status"] == "ok" {
                    println!("compose: /health/ready: {}", answer.body.trim());
                    return Ok(());
                }
                last = format!("{} {}", answer.status, answer.body.trim());
            }
            std::thread::sleep(Duration::from_secs(1));
        }
        bail!("the service did not become ready in 60 s: /health/ready answered {last}")
    }

    /// curl in the stack's namespace.
    fn curl(&self, args: &[&str]) -> anyhow::Result<Answer> {
        let output = self
            .podman
            .in_namespace("curl")
            .args(["-sS", "-i", "--max-time", "10"])
            .args(args)
            .output()
            .context("curl")?;
        ensure!(
            output.status.success(),
            "curl {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        );
        Answer::parse(&String::from_utf8_lossy(&output.stdout))
    }

    fn post_json(&self, path: &str, body: &str, headers: &[&str]) -> anyhow::Result<Answer> {
        let url = format!("http://localhost:8080{path}");
        let mut args = vec![
            "-X",
            "POST",
            url.as_str(),
            "-H",
            "Content-Type: application/json",
        ];
        for header in headers {
            args.extend(["-H", header]);
        }
        args.extend(["-d", body]);
        self.curl(&args)
    }

    /// The README's journey: register, log in (after confirming the address from the mail
    /// that reached the catcher: production requires it), a keyed create and its replay.
    fn journey(&self) -> anyhow::Result<()> {
        let credentials = serde_json::json!({"email": EMAIL, "password": PASSWORD}).to_string();
        let registered = self.post_json("/api/v1/auth/register", &credentials, &[])?;
        registered.expect(201, "register")?;
        println!("compose: registered {EMAIL}");
        let token = self.confirmation_token()?;
        self.post_json(
            "/api/v1/auth/confirm-email",
            &serde_json::json!({ "token": token }).to_string(),
            &[],
        )?
        .expect(204, "confirm-email with the mailed token")?;
        println!("compose: confirmed the address with the link mailed to the catcher");
        let login = self.post_json("/api/v1/auth/login", &credentials, &[])?;
        login.expect(200, "login")?;
        let access_token = login.json()["accessToken"]
            .as_str()
            .context("login answered no accessToken")?
            .to_owned();
        let authorization = format!("Authorization: Bearer {access_token}");
        let key = format!("Idempotency-Key: {IDEMPOTENCY_KEY}");
        let create = || {
            self.post_json(
                "/api/v1/things",
                r#"{"name":"lamp"}"#,
                &[&authorization, &key],
            )
        };
        let first = create()?;
        first.expect(201, "the keyed create")?;
        ensure!(
            first.header("x-idempotent-replay").is_none(),
            "the first keyed create says it is a replay"
        );
        let replay = create()?;
        replay.expect(201, "the keyed create's retry")?;
        ensure!(
            replay.header("x-idempotent-replay") == Some("true") && replay.body == first.body,
            "the retry was not the first answer replayed: {:?} {}",
            replay.header("x-idempotent-replay"),
            replay.body
        );
        println!(
            "compose: keyed create 201, its retry replayed (X-Idempotent-Replay: true): {}",
            first.body.trim()
        );
        Ok(())
    }

    /// The token of the confirmation link mailed to the catcher, as Mailpit's API shows it.
    fn confirmation_token(&self) -> anyhow::Result<String> {
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            let listed = self.curl(&["http://localhost:8025/api/v1/messages"])?;
            let messages = listed.json();
            let mail = messages["messages"].as_array().and_then(|messages| {
                messages.iter().find(|message| {
                    message["To"]
                        .as_array()
                        .is_some_and(|to| to.iter().any(|to| to["Address"] == EMAIL))
                })
            });
            if let Some(id) = mail.and_then(|mail| mail["ID"].as_str()) {
                let message =
                    self.curl(&[&format!("http://localhost:8025/api/v1/message/{id}")])?;
                let text = message.json()["Text"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned();
                let token = text
                    .split_once("token=")
                    .map(|(_, rest)| rest.split_whitespace().next().unwrap_or_default())
                    .filter(|token| !token.is_empty())
                    .with_context(|| format!("the mail to {EMAIL} holds no link: {text}"))?;
                println!("compose: the confirmation mail to {EMAIL} reached the mail catcher");
                return Ok(token.to_owned());
            }
            std::thread::sleep(Duration::from_secs(1));
        }
        bail!("no mail to {EMAIL} reached the mail catcher in 30 s")
    }

    /// The collector stand-in logs every export it receives.
    fn trace_reached_the_collector(&self) -> anyhow::Result<()> {
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            let log = self
                .podman
                .podman(&["logs", &Self::container("otel-collector")])
                .output()?;
            let log = String::from_utf8_lossy(&log.stdout).into_owned()
                + &String::from_utf8_lossy(&log.stderr);
            if let Some(line) = log
                .lines()
                .find(|line| line.contains("received POST /v1/traces"))
            {
                println!("compose: a trace reached the collector: {line}");
                return Ok(());
            }
            std::thread::sleep(Duration::from_secs(1));
        }
        bail!("no trace reached the OTLP collector in 30 s")
    }

    /// The README's test command against the stack's Redis and PostgreSQL, as its "On the
    /// compose stack's Redis and PostgreSQL" block runs it, limited to the Redis-backed suites.
    fn test_command(&self, root: &Path) -> anyhow::Result<()> {
        let password = self.compose.redis_password()?;
        let database = self
            .compose
            .app_setting("APP__DATABASE__URL")?
            .replace("@postgres:", "@127.0.0.1:");
        println!(
            "\ncompose: ONLY PART OF THE README'S TEST COMMAND RUNS HERE: the Redis-backed suites \
             ({}) of `cargo test --workspace --test e2e`, against the stack's Redis \
             (REDIS_URL=redis://:***@127.0.0.1:6379) and PostgreSQL \
             (TEST_DATABASE_URL=postgres://***@127.0.0.1:5432/app); the whole suite runs in the \
             sqlite and postgres steps.\n",
            REDIS_BACKED_SUITES.join(" ")
        );
        // The test OpenID provider installs itself from npm on first use, which the namespace
        // (no route out) cannot reach: installed here first, as .ci/run does for CI.
        let oidc = root.join("tests/oidc");
        if on_path("npm") && !oidc.join("node_modules/oidc-provider").exists() {
            run_command(
                Command::new("npm")
                    .args(["ci", "--no-audit", "--no-fund"])
                    .current_dir(&oidc),
            )?;
        }
        let started = Instant::now();
        let mut command = cargo(root);
        command
            .args(["test", "--workspace", "--test", "e2e", "--"])
            .args(REDIS_BACKED_SUITES)
            // The test binaries run in the stack's namespace; cargo builds outside it.
            .env(
                runner_variable(root)?,
                format!("nsenter {}", namespace_option()),
            )
            .env("REDIS_URL", format!("redis://:{password}@127.0.0.1:6379"))
            .env("TEST_DATABASE_URL", database)
            .env_remove("TEST_REDIS");
        run_command(&mut command)?;
        println!(
            "compose: the test command's Redis-backed suites passed on the stack in {} s",
            started.elapsed().as_secs()
        );
        Ok(())
    }

    fn print_logs(&self) {
        for service in self.compose.services.keys() {
            println!("\n== compose: the last lines of {service}'s log");
            let _ = self
                .podman
                .podman(&["logs", "--tail", "40", &Self::container(service)])
                .status();
        }
    }

    /// Everything the step started: containers, their network, the namespace.
    fn remove(&self) {
        let label = format!("label=io.podman.compose.project={PROJECT}");
        if let Ok(containers) = self.podman.output(&["ps", "-a", "-q", "--filter", &label]) {
            let containers: Vec<&str> = containers.split_whitespace().collect();
            if !containers.is_empty() {
                let mut args = vec!["rm", "-f", "-t", "5"];
                args.extend(&containers);
                let _ = self
                    .podman
                    .in_namespace("podman")
                    .args(&args)
                    .stdout(Stdio::null())
                    .status();
            }
        }
        let network = format!("{PROJECT}_default");
        if self
            .podman
            .podman(&["network", "exists", &network])
            .status()
            .is_ok_and(|s| s.success())
        {
            let _ = self
                .podman
                .podman(&["network", "rm", "-f", &network])
                .stdout(Stdio::null())
                .status();
        }
        if Path::new("/run/netns").join(PROJECT).exists() {
            let _ = Command::new("ip")
                .args(["netns", "delete", PROJECT])
                .status();
        }
    }
}

impl Drop for Stack {
    fn drop(&mut self) {
        self.remove();
    }
}

/// nsenter's option that enters the stack's network namespace.
fn namespace_option() -> String {
    format!("--net=/run/netns/{PROJECT}")
}

/// An HTTP answer as `curl -i` prints it.
struct Answer {
    status: u16,
    headers: String,
    body: String,
}

impl Answer {
    fn parse(text: &str) -> anyhow::Result<Self> {
        let (head, body) = text
            .split_once("\r\n\r\n")
            .context("curl printed no header block")?;
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|code| code.parse().ok())
            .context("curl printed no status")?;
        Ok(Self {
            status,
            headers: head.to_owned(),
            body: body.to_owned(),
        })
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.trim().eq_ignore_ascii_case(name).then(|| value.trim())
        })
    }

    fn expect(&self, status: u16, what: &str) -> anyhow::Result<()> {
        ensure!(
            self.status == status,
            "{what} answered {} (expected {status}): {}",
            self.status,
            self.body.trim()
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dockerfiles_base_images_leave_out_its_own_stages() {
        let dockerfile = "FROM rust:1.95-bookworm AS build\nRUN x\n\
                          FROM debian:bookworm-slim\nCOPY --from=build /a /b\nFROM build\n";

        assert_eq!(
            base_images(dockerfile),
            vec!["rust:1.95-bookworm", "debian:bookworm-slim"]
        );
    }

    #[test]
    fn short_image_names_are_qualified_as_podman_resolves_them() {
        assert_eq!(qualified("rust:1.95"), "docker.io/library/rust:1.95");
        assert_eq!(qualified("otel/collector:1"), "docker.io/otel/collector:1");
        assert_eq!(qualified("quay.io/a/b:1"), "quay.io/a/b:1");
    }

    #[test]
    fn depends_on_in_both_forms_gives_the_conditions() {
        let service =
            serde_json::json!({"depends_on": {"redis": {"condition": "service_healthy"}}});
        assert_eq!(
            dependencies(&service),
            vec![("redis".to_owned(), "service_healthy".to_owned())]
        );
        let service = serde_json::json!({"depends_on": ["jaeger"]});
        assert_eq!(
            dependencies(&service),
            vec![("jaeger".to_owned(), "service_started".to_owned())]
        );
    }

    #[test]
    fn the_signing_key_is_base64_of_32_bytes() {
        let key = random_key().unwrap();
        assert_eq!(key.len(), 44);
        assert!(key.ends_with('=') && !key.ends_with("=="));
    }

    #[test]
    fn a_curl_answer_gives_status_headers_and_body() {
        let answer =
            Answer::parse("HTTP/1.1 201 Created\r\nX-Idempotent-Replay: true\r\n\r\n{\"id\":1}")
                .unwrap();
        assert_eq!(answer.status, 201);
        assert_eq!(answer.header("x-idempotent-replay"), Some("true"));
        assert_eq!(answer.json()["id"], 1);
    }
}
