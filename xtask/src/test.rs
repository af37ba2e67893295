//! `cargo xtask test`: everything CI runs, in CI's order, on this machine.
//!
//! It first checks every tool the full run needs and names each missing one with the command
//! that installs it (nothing runs until all are there); then lints, runs the README's test
//! command as a fresh machine would (the optional tools hidden from `PATH`, Redis behind a
//! password) and checks that it passed and named what it left out, then the full suite with
//! every suite required on SQLite, on a local Redis Cluster and on PostgreSQL, the contract
//! fuzzer on both databases, and the adopt step (a renamed copy given a new module, then
//! fields). After lint, cargo-mutants runs over the lines of poem-idempotency changed since the
//! crate's score was last measured, so that the score cannot fall unseen while CI stays short.
//!
//! `cargo xtask test <step>...` runs only the named steps, in the order given.

use std::collections::HashSet;
use std::ffi::OsString;
use std::io::{BufRead as _, BufReader, Write as _};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail, ensure};

/// The PostgreSQL server the PostgreSQL steps use unless `TEST_DATABASE_URL` names another.
const DEFAULT_POSTGRES: &str = "postgres://postgres@127.0.0.1:5432/test";

/// The suites the e2e binary leaves out when the optional tools are missing: the names its
/// summary gives them (`testing::tools::Suite::name`).
const SUITES_NEEDING_OPTIONAL_TOOLS: [&str; 7] = [
    "deployment",
    "swagger_browser",
    "swagger_script",
    "openid_provider",
    "private_redis",
    "redis_cluster",
    "partition",
];

/// Programs a fresh machine may lack, hidden from the fresh-machine run's `PATH`.
const OPTIONAL_PROGRAMS: &[&str] = &[
    "haproxy",
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
    "chromedriver",
    "node",
    "npm",
    "redis-server",
    "redis-cli",
];

/// Variables that would name a hidden program, unset for the fresh-machine run, with those
/// that would make it require every suite.
const VARIABLES_A_FRESH_MACHINE_LACKS: &[&str] = &[
    "CHROME",
    "CHROMIUM",
    "REDIS_SERVER_BIN",
    "REDIS_CLI_BIN",
    "CI",
    "TEST_REQUIRE_ALL",
    "TEST_DATABASE_URL",
    "TEST_REDIS",
    "TEST_IDEMPOTENCY_STORE",
];

/// One step of the full run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Lint,
    Mutants,
    FreshMachine,
    Sqlite,
    Cluster,
    Postgres,
    Contract,
    Clients,
    Crate,
    Compose,
    Adopt,
}

impl Step {
    const ALL: [Step; 11] = [
        Step::Lint,
        Step::Mutants,
        Step::FreshMachine,
        Step::Sqlite,
        Step::Cluster,
        Step::Postgres,
        Step::Contract,
        Step::Clients,
        Step::Crate,
        Step::Compose,
        Step::Adopt,
    ];

    fn name(self) -> &'static str {
        match self {
            Step::Lint => "lint",
            Step::Mutants => "mutants",
            Step::FreshMachine => "fresh-machine",
            Step::Sqlite => "sqlite",
            Step::Cluster => "cluster",
            Step::Postgres => "postgres",
            Step::Contract => "contract",
            Step::Clients => "clients",
            Step::Crate => "crate",
            Step::Compose => "compose",
            Step::Adopt => "adopt",
        }
    }

    fn describes(self) -> &'static str {
        match self {
            Step::Lint => {
                "cargo fmt --check, clippy -D warnings, poem-idempotency's public API against \
                 its listing, its docs (-D warnings), and its cargo package (packaged and built \
                 as crates.io would)"
            }
            Step::Mutants => {
                "cargo-mutants over the lines of poem-idempotency changed since its TESTING.md \
                 was measured or checked through: the crate's own tests catch every mutant there"
            }
            Step::FreshMachine => {
                "the README's test command with haproxy, Chromium, chromedriver, Node.js and \
                 redis-server hidden from PATH and Redis behind a password: passes, and its \
                 summary names every suite it left out"
            }
            Step::Sqlite => {
                "cargo test --workspace on SQLite, every suite required; then the guard's \
                 deterministic simulation (10,000 seeds, ADR 0021)"
            }
            Step::Cluster => {
                "the suites written against the shared Redis, on a local Redis Cluster"
            }
            Step::Postgres => {
                "cargo test --workspace on PostgreSQL, every suite required; then the suites \
                 written against the shared Redis with idempotency.store = \"postgres\" instead"
            }
            Step::Contract => "the contract fuzzer (schemathesis) on SQLite, then PostgreSQL",
            Step::Clients => {
                "the TypeScript and Python clients generated from openapi/openapi.json \
                 (openapi-typescript and tsc, openapi-python-client) without warnings"
            }
            Step::Crate => {
                "poem-idempotency as a user receives it: both crates packaged and unpacked \
                 outside the workspace, a service made from the crate README's install and \
                 set-up blocks alone, built, and sent a keyed request, its retry, a reused key \
                 and two duplicates at once"
            }
            Step::Compose => {
                "the Dockerfile built and docker-compose.yml started with podman (images stood \
                 in, xtask/compose/README.md), the README's journey, a mail, a trace and the \
                 test command's Redis-backed suites against it; in the full run only when what \
                 the stack is made of changed since it last passed"
            }
            Step::Adopt => {
                "a copy renamed by `cargo xtask rename`, given a module by \
                 `cargo xtask new-module` and then fields by `cargo xtask add-field`, lints and \
                 passes, the new module's crash tests included"
            }
        }
    }

    fn named(name: &str) -> Option<Step> {
        Step::ALL.into_iter().find(|step| step.name() == name)
    }
}

/// The steps `cargo xtask test` runs, from its arguments.
pub fn steps(arguments: &[&str]) -> anyhow::Result<Vec<Step>> {
    if arguments.is_empty() {
        return Ok(Step::ALL.to_vec());
    }
    arguments
        .iter()
        .map(|name| {
            Step::named(name).with_context(|| format!("`{name}` is not a step\n\n{}", usage()))
        })
        .collect()
}

/// What `cargo xtask test --help` prints.
pub fn usage() -> String {
    let steps: String = Step::ALL
        .iter()
        .map(|step| format!("\n    {:<14} {}", step.name(), step.describes()))
        .collect();
    format!(
        "cargo xtask test [<step>...]\n  \
         Runs what CI runs, in this order (or only the steps named):{steps}"
    )
}

/// A program the full run needs, and how to install it.
struct Requirement {
    program: &'static str,
    install: &'static str,
    needed_by: &'static str,
    /// The steps that cannot run without it.
    steps: &'static [Step],
}

/// The steps that run the whole suite with every suite required.
const FULL_SUITE: &[Step] = &[Step::Sqlite, Step::Cluster, Step::Postgres, Step::Adopt];

/// The steps that run Node.js: the whole suite (Swagger UI's script, the OpenID provider) and
/// the TypeScript client.
const NODE_STEPS: &[Step] = &[
    Step::Sqlite,
    Step::Cluster,
    Step::Postgres,
    Step::Clients,
    Step::Adopt,
];

const REQUIREMENTS: &[Requirement] = &[
    Requirement {
        program: "cargo-mutants",
        install: "cargo install cargo-mutants --locked",
        needed_by: "the mutation testing of poem-idempotency's changed lines",
        steps: &[Step::Mutants],
    },
    Requirement {
        program: "redis-server",
        install: "apt-get install redis-server (macOS: brew install redis)",
        needed_by: "private Redis servers, the fresh-machine run's Redis, the cluster",
        steps: &[
            Step::FreshMachine,
            Step::Sqlite,
            Step::Cluster,
            Step::Postgres,
            Step::Adopt,
        ],
    },
    Requirement {
        program: "redis-cli",
        install: "apt-get install redis-tools (macOS: brew install redis)",
        needed_by: "the local Redis Cluster",
        steps: FULL_SUITE,
    },
    Requirement {
        program: "haproxy",
        install: "apt-get install haproxy (macOS: brew install haproxy)",
        needed_by: "the deployment suite",
        steps: FULL_SUITE,
    },
    Requirement {
        program: "ip",
        install: "apt-get install iproute2",
        needed_by: "the partition test's network namespaces and veth pairs",
        steps: FULL_SUITE,
    },
    Requirement {
        program: "nsenter",
        install: "apt-get install util-linux",
        needed_by: "starting the partition test's processes in their namespaces",
        steps: FULL_SUITE,
    },
    Requirement {
        program: "chromedriver",
        install: "apt-get install chromium chromium-driver \
                  (macOS: brew install --cask chromium chromedriver)",
        needed_by: "the Swagger UI browser suite",
        steps: FULL_SUITE,
    },
    Requirement {
        program: "node",
        install: "apt-get install nodejs npm (macOS: brew install node)",
        needed_by: "Swagger UI's script, the test OpenID provider, the TypeScript client",
        steps: NODE_STEPS,
    },
    Requirement {
        program: "npm",
        install: "apt-get install nodejs npm (macOS: brew install node)",
        needed_by: "installing the test OpenID provider and the TypeScript client's tools",
        steps: NODE_STEPS,
    },
    Requirement {
        program: "python3",
        install: "apt-get install python3 python3-venv",
        needed_by: "the contract fuzzer, the Python client",
        steps: &[Step::Contract, Step::Clients],
    },
    Requirement {
        program: "psql",
        install: "apt-get install postgresql-client",
        needed_by: "the contract fuzzer on PostgreSQL",
        steps: &[Step::Contract],
    },
    Requirement {
        program: "curl",
        install: "apt-get install curl",
        needed_by: "the contract fuzzer, the crate adoption",
        steps: &[Step::Contract, Step::Crate],
    },
];

/// Browsers the browser suite finds, in its order (`testing::tools::Tool::Chromium`).
const BROWSERS: &[&str] = &[
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
];

/// Runs `steps` in the workspace at `root`.
pub fn run(root: &Path, steps: &[Step]) -> anyhow::Result<()> {
    check_tools(steps)?;
    let started = Instant::now();
    for step in steps {
        banner(&format!("{}: {}", step.name(), step.describes()));
        let step_started = Instant::now();
        match step {
            Step::Lint => lint(root)?,
            Step::Mutants => {
                crate::mutants::run(root, &crate::mutants::Scope::ChangedSinceMeasured)?
            }
            Step::FreshMachine => fresh_machine(root)?,
            Step::Sqlite => {
                cargo_test(root, &[], None)?;
                simulation(root)?
            }
            Step::Cluster => cluster(root)?,
            Step::Postgres => {
                cargo_test(root, &[], Some(&postgres_url()))?;
                postgres_store(root)?
            }
            Step::Contract => contract(root)?,
            Step::Clients => {
                run_command(Command::new(root.join("clients/check")).current_dir(root))?
            }
            Step::Crate => crate::crate_adoption::run(root, &target_dir(root))?,
            Step::Compose => crate::compose::run(root, steps != Step::ALL)?,
            Step::Adopt => adopt(root)?,
        }
        println!(
            "== {} passed in {} s",
            step.name(),
            step_started.elapsed().as_secs()
        );
    }
    println!(
        "\nall {} steps passed in {} s",
        steps.len(),
        started.elapsed().as_secs()
    );
    Ok(())
}

fn banner(text: &str) {
    println!("\n== {text}");
    let _ = std::io::stdout().flush();
}

/// Fails, naming every missing program and its install command, unless all are here.
fn check_tools(steps: &[Step]) -> anyhow::Result<()> {
    banner("tools");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut missing = Vec::new();
    let needed = |needed_by: &[Step]| steps.iter().any(|step| needed_by.contains(step));
    for requirement in REQUIREMENTS.iter().filter(|r| needed(r.steps)) {
        match find(requirement.program, &path) {
            Some(found) => println!("  {:<14} {}", requirement.program, found.display()),
            None => missing.push(format!(
                "  {:<14} MISSING, for {}: {}",
                requirement.program, requirement.needed_by, requirement.install
            )),
        }
    }
    let browser = ["CHROME", "CHROMIUM"]
        .iter()
        .find_map(|name| std::env::var_os(name).map(PathBuf::from))
        .or_else(|| BROWSERS.iter().find_map(|name| find(name, &path)));
    match browser {
        Some(found) => println!("  {:<14} {}", "chromium", found.display()),
        None if !needed(FULL_SUITE) => {}
        None => missing.push(format!(
            "  {:<14} MISSING (or CHROME=<path>), for the Swagger UI browser suite: \
             apt-get install chromium chromium-driver",
            "chromium"
        )),
    }
    let redis = redis_address();
    let postgres = postgres_url();
    let services = [
        (
            format!("Redis at {redis}"),
            port_open(&redis) || !needed(FULL_SUITE),
            "start one (redis-server --daemonize yes) or set REDIS_URL",
        ),
        (
            format!("PostgreSQL at {}", without_credentials(&postgres)),
            postgres_address(&postgres).is_some_and(|address| port_open(&address))
                || !needed(&[Step::Postgres, Step::Contract, Step::Adopt]),
            "start one, or set TEST_DATABASE_URL",
        ),
    ];
    for (service, answers, how) in services {
        if answers {
            println!("  {service}: answers");
        } else {
            missing.push(format!("  {service}: NOT ANSWERING: {how}"));
        }
    }
    if !missing.is_empty() {
        bail!(
            "the full run needs every tool, and this machine lacks:\n{}\n\
             (`cargo test --workspace` runs without them, leaving their suites out)",
            missing.join("\n")
        );
    }
    Ok(())
}

fn lint(root: &Path) -> anyhow::Result<()> {
    run_command(cargo(root).args(["fmt", "--all", "--", "--check"]))?;
    let clippy = |what: &[&str]| {
        let mut command = cargo(root);
        command
            .arg("clippy")
            .args(what)
            .args(["--all-targets", "--", "-D", "warnings"]);
        run_command(&mut command)
    };
    clippy(&["--workspace"])?;
    // The adoptable crate without its default `durable` feature (no sqlx) builds clean too.
    clippy(&["-p", "poem-idempotency", "--no-default-features"])?;
    // The simulation's seam and its tests (feature `simulation`, which no workspace crate enables).
    clippy(&["-p", "poem-idempotency", "--features", "simulation"])?;
    // Its public API as listed (a change to it is deliberate), and its docs without a warning.
    crate::public_api::run(root, crate::public_api::Mode::Check)?;
    crate::public_api::doc(root)?;
    // The adoptable crate and its macros, as a publish would check them (nothing is published).
    run_command(cargo(root).args([
        "package",
        "-p",
        "poem-idempotency-macros",
        "-p",
        "poem-idempotency",
        "--allow-dirty",
    ]))
}

/// The guard's deterministic simulation at CI's seed count: its own run, because its feature
/// (`simulation`) is one no workspace crate enables, and because cargo-mutants, which runs the
/// crate's tests for every mutant, should not run it for each one.
fn simulation(root: &Path) -> anyhow::Result<()> {
    run_command(cargo(root).args([
        "test",
        "-p",
        "poem-idempotency",
        "--features",
        "simulation",
        "--test",
        "simulation",
    ]))
}

/// `cargo test --workspace` with every suite required, on SQLite or on `postgres`.
fn cargo_test(root: &Path, filter: &[&str], postgres: Option<&str>) -> anyhow::Result<()> {
    let mut command = cargo(root);
    command.args(["test", "--workspace"]).args(filter);
    command.env("TEST_REQUIRE_ALL", "1");
    match postgres {
        Some(url) => command.env("TEST_DATABASE_URL", url),
        None => command.env_remove("TEST_DATABASE_URL"),
    };
    run_command(&mut command)
}

/// The README's test command as a fresh machine runs it: only Rust and a Redis to reach (one
/// with a password, as the compose stack's is), the optional tools absent. It must pass and
/// its summary must name every suite it left out.
///
/// The tests run with a `PATH` that lacks the optional tools, set by a test runner
/// (`CARGO_TARGET_<host>_RUNNER`) rather than for cargo itself: build scripts that watch
/// `PATH` would otherwise rebuild most of the workspace, twice.
fn fresh_machine(root: &Path) -> anyhow::Result<()> {
    let redis = PasswordRedis::start()?;
    let scratch = tempfile::tempdir().context("a directory for the PATH without optional tools")?;
    let bin = scratch.path().join("bin");
    std::fs::create_dir(&bin)?;
    let path = path_without(
        &bin,
        &std::env::var_os("PATH").unwrap_or_default(),
        OPTIONAL_PROGRAMS,
    )?;
    let runner = scratch.path().join("without-optional-tools");
    write_runner(&runner, &path)?;
    let mut command = cargo(root);
    command
        .args(["test", "--workspace"])
        .env(runner_variable(root)?, &runner)
        .env("REDIS_URL", redis.url());
    for variable in VARIABLES_A_FRESH_MACHINE_LACKS {
        command.env_remove(variable);
    }
    println!(
        "  tests run with a PATH without {}; REDIS_URL={}",
        OPTIONAL_PROGRAMS.join(", "),
        redis.url_without_password()
    );
    let (status, output) = run_teed(&mut command)?;
    ensure!(
        status.success(),
        "the README's test command failed on a machine without the optional tools ({status})"
    );
    let unnamed: Vec<&str> = SUITES_NEEDING_OPTIONAL_TOOLS
        .into_iter()
        .filter(|suite| !summary_names(&output, suite))
        .collect();
    ensure!(
        unnamed.is_empty(),
        "the run passed, but its summary of the suites left out does not name: {}",
        unnamed.join(", ")
    );
    println!(
        "  passed, and its summary names the {} suites it left out",
        SUITES_NEEDING_OPTIONAL_TOOLS.len()
    );
    Ok(())
}

/// A test runner that starts each test binary with `path` as its `PATH`.
fn write_runner(runner: &Path, path: &std::ffi::OsStr) -> anyhow::Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    let path = path.to_str().context("a PATH in UTF-8")?;
    ensure!(!path.contains('\''), "a PATH without quotes");
    std::fs::write(runner, format!("#!/bin/sh\nPATH='{path}' exec \"$@\"\n"))?;
    std::fs::set_permissions(runner, std::fs::Permissions::from_mode(0o755))?;
    Ok(())
}

/// `CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER`, for this machine's host triple.
pub(crate) fn runner_variable(root: &Path) -> anyhow::Result<String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = Command::new(rustc)
        .arg("-vV")
        .current_dir(root)
        .output()
        .context("rustc -vV")?;
    let version = String::from_utf8(version.stdout).context("rustc -vV prints UTF-8")?;
    let host = version
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .context("rustc -vV names no host")?;
    Ok(format!(
        "CARGO_TARGET_{}_RUNNER",
        host.to_ascii_uppercase().replace(['-', '.'], "_")
    ))
}

/// Whether the left-out summary in `output` has a line for `suite`, after its banner.
fn summary_names(output: &str, suite: &str) -> bool {
    output.split("SUITES LEFT OUT").skip(1).any(|summary| {
        summary
            .lines()
            .any(|line| line.starts_with(&format!("  - {suite}: ")))
    })
}

fn cluster(root: &Path) -> anyhow::Result<()> {
    let mut command = cargo(root);
    command
        // `--workspace`, as the other runs: the same features, so nothing is built again.
        .args(["test", "--workspace", "--test", "e2e", "--"])
        .args([
            "idempotency::",
            "identity::rate_limits",
            "identity::revocation",
            "notifications::",
            "health",
            "redis_topologies",
        ])
        .env("TEST_REDIS", "cluster")
        .env("TEST_REQUIRE_ALL", "1")
        .env_remove("TEST_DATABASE_URL");
    run_command(&mut command)
}

/// The idempotency suites written against the shared Redis, with the records in PostgreSQL
/// (`idempotency.store = "postgres"`, no Redis): the PostgreSQL store behind the whole service.
fn postgres_store(root: &Path) -> anyhow::Result<()> {
    let mut command = cargo(root);
    command
        .args(["test", "--workspace", "--test", "e2e", "--"])
        .args(["idempotency::", "identity::idempotency", "races::"])
        .env("TEST_IDEMPOTENCY_STORE", "postgres")
        .env("TEST_REQUIRE_ALL", "1")
        .env("TEST_DATABASE_URL", postgres_url());
    run_command(&mut command)
}

fn contract(root: &Path) -> anyhow::Result<()> {
    let script = root.join("tests/contract/run");
    run_command(
        Command::new(&script)
            .current_dir(root)
            .env_remove("TEST_DATABASE_URL"),
    )?;
    run_command(
        Command::new(&script)
            .current_dir(root)
            .env("TEST_DATABASE_URL", postgres_url()),
    )
}

/// A copy of the tracked files, renamed and given a module, must lint and pass.
fn adopt(root: &Path) -> anyhow::Result<()> {
    let copy = tempfile::tempdir().context("a directory for the adopted copy")?;
    let files = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root)
        .output()
        .context("git ls-files")?;
    ensure!(files.status.success(), "git ls-files failed");
    for relative in files
        .stdout
        .split(|byte| *byte == 0)
        .filter(|r| !r.is_empty())
    {
        let relative = Path::new(std::str::from_utf8(relative).context("a file name")?);
        let from = root.join(relative);
        if !from.exists() {
            continue; // deleted in the work tree, not yet committed
        }
        let to = copy.path().join(relative);
        std::fs::create_dir_all(to.parent().expect("a file has a parent"))?;
        std::fs::copy(&from, &to).with_context(|| format!("copying {}", relative.display()))?;
    }
    let copy = copy.path();
    // The copy shares this build's target directory: only its own crates rebuild.
    let target = target_dir(root);
    let in_copy = |args: &[&str]| {
        let mut command = cargo(copy);
        command.args(args).env("CARGO_TARGET_DIR", &target);
        command
    };
    // The copy's steps; whatever becomes of them, this workspace forgets the copy's builds
    // after: a failed step would otherwise leave them to pass for this workspace's own.
    let steps = || -> anyhow::Result<()> {
        run_command(&mut in_copy(&[
            "xtask",
            "rename",
            "acme-orders",
            "Acme Orders",
        ]))?;
        let old_names = Command::new("grep")
            .args([
                "-rIl",
                "-e",
                "Idempotent Service",
                "-e",
                "idempotent-service",
            ])
            .args(["config", "app", "shared", "modules", "openapi", "README.md"])
            .current_dir(copy)
            .output()
            .context("grep")?;
        ensure!(
            old_names.stdout.is_empty(),
            "the rename left the old name in:\n{}",
            String::from_utf8_lossy(&old_names.stdout)
        );
        run_command(&mut in_copy(&[
            "xtask",
            "new-module",
            "orders",
            "--entity",
            "Order",
            "--field",
            "reference:string",
            "--field",
            "quantity:int",
            "--field",
            "price:float",
            "--field",
            "urgent:bool",
            "--field",
            "due_at:datetime",
        ]))?;
        // Fields added later, as on a live database: a new migration, not an edit of the first.
        run_command(&mut in_copy(&[
            "xtask",
            "add-field",
            "orders",
            "--field",
            "colour:string",
            "--field",
            "weight_kg:float",
        ]))?;
        run_command(&mut in_copy(&["fmt", "--all", "--", "--check"]))?;
        run_command(&mut in_copy(&[
            "clippy",
            "-p",
            "orders",
            "-p",
            "app",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]))?;
        run_command(
            in_copy(&["test", "-p", "e2e", "--test", "e2e"])
                .env("TEST_REQUIRE_ALL", "1")
                .env_remove("TEST_DATABASE_URL"),
        )?;
        run_command(
            in_copy(&["test", "-p", "e2e", "--test", "crash", "order"])
                .env_remove("TEST_DATABASE_URL"),
        )?;
        // The new module's own tests, and the race of every unsafe operation (the new module's
        // among them, ADR 0018), on PostgreSQL too.
        run_command(
            in_copy(&[
                "test", "-p", "e2e", "--test", "e2e", "--", "orders::", "races::",
            ])
            .env("TEST_DATABASE_URL", postgres_url()),
        )?;
        Ok(())
    };
    let outcome = steps();
    forget_the_copys_builds(root, &target)?;
    outcome
}

/// Cargo names a workspace's own crates in the build directory by their path inside the
/// workspace, and judges them fresh by modification times: the copy's builds of `app`,
/// `things`... (renamed, with a module more) would pass for this workspace's on its next
/// build. Cleaning this workspace's own crates (not their dependencies) makes that build
/// compile them again from this workspace's sources.
fn forget_the_copys_builds(root: &Path, target: &Path) -> anyhow::Result<()> {
    let metadata = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(root)
        .output()
        .context("cargo metadata")?;
    ensure!(metadata.status.success(), "cargo metadata failed");
    let metadata: serde_json::Value =
        serde_json::from_slice(&metadata.stdout).context("cargo metadata prints JSON")?;
    let names: Vec<&str> = metadata["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|package| package["name"].as_str())
        .collect();
    let mut clean = cargo(root);
    clean.arg("clean").env("CARGO_TARGET_DIR", target);
    for name in names {
        clean.args(["-p", name]);
    }
    run_command(&mut clean)
}

/// This build's target directory: `CARGO_TARGET_DIR` when set, else `target/` of `root`.
fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
}

pub(crate) fn cargo(dir: &Path) -> Command {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command.current_dir(dir);
    command
}

pub(crate) fn run_command(command: &mut Command) -> anyhow::Result<()> {
    let status = command
        .status()
        .with_context(|| format!("starting {command:?}"))?;
    ensure!(status.success(), "{} failed ({status})", describe(command));
    Ok(())
}

/// Runs `command`, its output shown as it comes and kept (both streams, interleaved as read).
fn run_teed(command: &mut Command) -> anyhow::Result<(ExitStatus, String)> {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("starting {}", describe(command)))?;
    let (sender, receiver) = std::sync::mpsc::channel::<String>();
    let readers: Vec<_> = [
        Box::new(child.stdout.take().expect("piped")) as Box<dyn std::io::Read + Send>,
        Box::new(child.stderr.take().expect("piped")),
    ]
    .into_iter()
    .map(|stream| {
        let sender = sender.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stream).lines().map_while(Result::ok) {
                let _ = sender.send(line);
            }
        })
    })
    .collect();
    drop(sender);
    let mut output = String::new();
    for line in receiver {
        println!("{line}");
        output.push_str(&line);
        output.push('\n');
    }
    for reader in readers {
        let _ = reader.join();
    }
    Ok((child.wait()?, output))
}

fn describe(command: &Command) -> String {
    std::iter::once(command.get_program())
        .chain(command.get_args())
        .map(|part| part.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A `PATH` of one directory, `bin`, holding a link to every program on `path` but `hidden`
/// (the first of each name, as a lookup would find it).
fn path_without(bin: &Path, path: &std::ffi::OsStr, hidden: &[&str]) -> anyhow::Result<OsString> {
    let hidden: HashSet<&str> = hidden.iter().copied().collect();
    let mut linked = HashSet::new();
    for dir in std::env::split_paths(path) {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(text) = name.to_str() else { continue };
            if hidden.contains(text) || linked.contains(text) || !is_executable(&entry.path()) {
                continue;
            }
            std::os::unix::fs::symlink(entry.path(), bin.join(&name))
                .with_context(|| format!("linking {}", entry.path().display()))?;
            linked.insert(text.to_owned());
        }
    }
    Ok(bin.as_os_str().to_owned())
}

fn find(program: &str, path: &std::ffi::OsStr) -> Option<PathBuf> {
    std::env::split_paths(path)
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(path)
        .is_ok_and(|metadata| metadata.is_file() && metadata.permissions().mode() & 0o111 != 0)
}

fn port_open(address: &str) -> bool {
    use std::net::ToSocketAddrs as _;
    address.to_socket_addrs().is_ok_and(|mut addresses| {
        addresses
            .any(|address| TcpStream::connect_timeout(&address, Duration::from_secs(1)).is_ok())
    })
}

/// The shared Redis the tests reach: `REDIS_URL`'s host and port, else 127.0.0.1:6379.
fn redis_address() -> String {
    std::env::var("REDIS_URL")
        .ok()
        .filter(|url| !url.trim().is_empty())
        .and_then(|url| host_and_port(&url, 6379))
        .unwrap_or_else(|| "127.0.0.1:6379".to_owned())
}

fn postgres_url() -> String {
    std::env::var("TEST_DATABASE_URL")
        .ok()
        .filter(|url| !url.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_POSTGRES.to_owned())
}

fn postgres_address(url: &str) -> Option<String> {
    host_and_port(url, 5432)
}

/// `host:port` of a `scheme://[user[:password]@]host[:port][/...]` URL.
fn host_and_port(url: &str, default_port: u16) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let authority = rest.split(['/', '?']).next()?;
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, hp)| hp);
    if host_port.is_empty() {
        return None;
    }
    let has_port = host_port
        .rsplit_once(':')
        .is_some_and(|(_, port)| port.parse::<u16>().is_ok() && !host_port.ends_with(']'));
    Some(if has_port {
        host_port.to_owned()
    } else {
        format!("{host_port}:{default_port}")
    })
}

/// The URL for printing: no user or password.
fn without_credentials(url: &str) -> String {
    match (url.split_once("://"), host_and_port(url, 0)) {
        (Some((scheme, rest)), Some(_)) => {
            let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
            let authority = &rest[..authority_end];
            let host = authority.rsplit_once('@').map_or(authority, |(_, hp)| hp);
            format!("{scheme}://{host}{}", &rest[authority_end..])
        }
        _ => "(unparsed URL)".to_owned(),
    }
}

/// A `redis-server` that wants a password, on a free port, killed when dropped.
struct PasswordRedis {
    child: Child,
    port: u16,
    password: String,
    _dir: tempfile::TempDir,
}

impl PasswordRedis {
    fn start() -> anyhow::Result<Self> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .context("a free port")?
            .port();
        let password = format!("fresh-machine-{}", std::process::id());
        let dir = tempfile::tempdir()?;
        let child = Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port", &port.to_string()])
            .args([
                "--save",
                "",
                "--appendonly",
                "no",
                "--requirepass",
                &password,
            ])
            .arg("--dir")
            .arg(dir.path())
            .stdout(Stdio::null())
            .spawn()
            .context("starting redis-server")?;
        let redis = Self {
            child,
            port,
            password,
            _dir: dir,
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        while !port_open(&format!("127.0.0.1:{port}")) {
            ensure!(
                Instant::now() < deadline,
                "redis-server did not listen within 10 s"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(redis)
    }

    fn url(&self) -> String {
        format!("redis://:{}@127.0.0.1:{}", self.password, self.port)
    }

    fn url_without_password(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }
}

impl Drop for PasswordRedis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_arguments_run_every_step_in_ci_order() {
        assert_eq!(steps(&[]).unwrap(), Step::ALL.to_vec());
    }

    #[test]
    fn named_steps_run_alone_in_the_order_given() {
        assert_eq!(
            steps(&["postgres", "lint"]).unwrap(),
            vec![Step::Postgres, Step::Lint]
        );
    }

    #[test]
    fn an_unknown_step_is_refused_with_the_list() {
        let err = steps(&["everything"]).unwrap_err().to_string();
        assert!(err.contains("`everything` is not a step"), "{err}");
        assert!(err.contains("fresh-machine"), "{err}");
    }

    #[test]
    fn the_summary_must_name_a_suite_on_a_line_of_its_own_after_the_banner() {
        let output = "LEFT OUT deployment::x (suite `deployment`)\n\
                      ==== SUITES LEFT OUT: 1 ====\n  - deployment: HAProxy\n";

        assert!(summary_names(output, "deployment"));
        assert!(!summary_names(output, "swagger_browser"));
        assert!(!summary_names(
            "LEFT OUT a test (suite `deployment`)\n  - deployment: before any banner\n",
            "deployment"
        ));
    }

    #[test]
    fn a_path_without_hides_those_programs_and_keeps_the_rest() {
        use std::os::unix::fs::PermissionsExt as _;
        let tools = tempfile::tempdir().unwrap();
        for name in ["haproxy", "cargo"] {
            let path = tools.path().join(name);
            std::fs::write(&path, "#!/bin/sh\n").unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        let bin = tempfile::tempdir().unwrap();

        let path = path_without(bin.path(), tools.path().as_os_str(), &["haproxy"]).unwrap();

        assert_eq!(find("cargo", &path), Some(bin.path().join("cargo")));
        assert_eq!(find("haproxy", &path), None);
    }

    #[test]
    fn host_and_port_comes_from_urls_with_or_without_credentials_and_port() {
        assert_eq!(
            host_and_port("redis://:pw@127.0.0.1:6380", 6379).as_deref(),
            Some("127.0.0.1:6380")
        );
        assert_eq!(
            host_and_port("postgres://app:app@db/app", 5432).as_deref(),
            Some("db:5432")
        );
        assert_eq!(
            host_and_port("redis://[::1]:7000/0", 6379).as_deref(),
            Some("[::1]:7000")
        );
        assert_eq!(host_and_port("not a url", 1), None);
    }

    #[test]
    fn a_printed_url_carries_no_password() {
        assert_eq!(
            without_credentials("postgres://app:secret@127.0.0.1:5432/app"),
            "postgres://127.0.0.1:5432/app"
        );
    }
}
