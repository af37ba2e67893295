//! The tools some suites need beyond Rust and a Redis to reach, found on the machine rather
//! than assumed at fixed paths, and the rule for a suite whose tool is missing.
//!
//! `cargo test --workspace` must pass on a machine with only Rust and a Redis (the machine's, or
//! the compose stack's). A suite that needs more (HAProxy, Chromium and chromedriver, Node.js,
//! a `redis-server` binary to start private servers) asks [`Suite::runs_here`] first:
//!
//! - with its tools present, it runs: a suite is never left out where it could run;
//! - with one missing, on a developer's machine, it is **left out loudly**: a line on the
//!   terminal for each test left out, and the end-of-run summary ([`left_out_summary`], printed
//!   by the e2e binary's `zz_suites_left_out`) naming each suite, the missing tool and the
//!   command that installs it;
//! - with one missing where every suite is required (`CI=true` or `TEST_REQUIRE_ALL=1`), the
//!   test fails, naming the tool and its install command.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A program some suite runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    Haproxy,
    Chromium,
    Chromedriver,
    Node,
    Npm,
    RedisServer,
    RedisCli,
}

impl Tool {
    const ALL: [Tool; 7] = [
        Tool::Haproxy,
        Tool::Chromium,
        Tool::Chromedriver,
        Tool::Node,
        Tool::Npm,
        Tool::RedisServer,
        Tool::RedisCli,
    ];

    /// The name a person knows it by (its usual program name).
    pub fn name(self) -> &'static str {
        match self {
            Tool::Haproxy => "haproxy",
            Tool::Chromium => "chromium",
            Tool::Chromedriver => "chromedriver",
            Tool::Node => "node",
            Tool::Npm => "npm",
            Tool::RedisServer => "redis-server",
            Tool::RedisCli => "redis-cli",
        }
    }

    /// How to install it, on Debian or Ubuntu and on macOS.
    pub fn install_command(self) -> &'static str {
        match self {
            Tool::Haproxy => "apt-get install haproxy; macOS: brew install haproxy",
            Tool::Chromium | Tool::Chromedriver => {
                "apt-get install chromium chromium-driver; \
                 macOS: brew install --cask chromium chromedriver"
            }
            Tool::Node | Tool::Npm => "apt-get install nodejs npm; macOS: brew install node",
            Tool::RedisServer => "apt-get install redis-server; macOS: brew install redis",
            Tool::RedisCli => "apt-get install redis-tools; macOS: brew install redis",
        }
    }

    /// Environment variables that name the program explicitly, looked at before `PATH`.
    fn variables(self) -> &'static [&'static str] {
        match self {
            Tool::Chromium => &["CHROME", "CHROMIUM"],
            Tool::RedisServer => &["REDIS_SERVER_BIN"],
            Tool::RedisCli => &["REDIS_CLI_BIN"],
            _ => &[],
        }
    }

    /// Program names looked up on `PATH`, in order.
    fn program_names(self) -> &'static [&'static str] {
        match self {
            Tool::Chromium => &[
                "chromium",
                "chromium-browser",
                "google-chrome",
                "google-chrome-stable",
            ],
            Tool::Haproxy => &["haproxy"],
            Tool::Chromedriver => &["chromedriver"],
            Tool::Node => &["node"],
            Tool::Npm => &["npm"],
            Tool::RedisServer => &["redis-server"],
            Tool::RedisCli => &["redis-cli"],
        }
    }

    /// Where the program lives when it is not on `PATH` (application bundles on macOS).
    fn usual_places(self) -> &'static [&'static str] {
        match self {
            Tool::Chromium => &[
                "/Applications/Chromium.app/Contents/MacOS/Chromium",
                "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
            ],
            _ => &[],
        }
    }

    /// The program's path on this machine, if it has it (looked up once per process).
    pub fn path(self) -> Option<&'static Path> {
        static FOUND: OnceLock<Vec<Option<PathBuf>>> = OnceLock::new();
        let found = FOUND.get_or_init(|| {
            let path = std::env::var_os("PATH").unwrap_or_default();
            Tool::ALL
                .iter()
                .map(|tool| tool.find(|name| std::env::var_os(name), &path))
                .collect()
        });
        let index = Tool::ALL.iter().position(|tool| *tool == self)?;
        found[index].as_deref()
    }

    /// The program's path, or a panic naming it and its install command (for code that runs
    /// only once [`Suite::runs_here`] said yes, or where the tool is not optional).
    pub fn require(self) -> &'static Path {
        self.path().unwrap_or_else(|| {
            panic!(
                "`{}` is not on PATH: install it ({})",
                self.name(),
                self.install_command()
            )
        })
    }

    /// The program's path, or an error naming it and its install command (for code that
    /// starts it and reports failures as I/O errors).
    pub fn located(self) -> std::io::Result<PathBuf> {
        self.path().map(Path::to_path_buf).ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!(
                    "`{}` is not on PATH: install it ({})",
                    self.name(),
                    self.install_command()
                ),
            )
        })
    }

    /// An explicit variable wins (even if it names nothing runnable: a typo should not fall
    /// back silently), then `PATH` in order, then the usual places.
    fn find(
        self,
        variable: impl Fn(&str) -> Option<std::ffi::OsString>,
        path: &std::ffi::OsStr,
    ) -> Option<PathBuf> {
        if let Some(named) = self
            .variables()
            .iter()
            .find_map(|name| variable(name).filter(|value| !value.is_empty()))
        {
            let named = PathBuf::from(named);
            // A bare name ("google-chrome") is looked up on PATH like the defaults.
            return if named.components().count() == 1 {
                std::env::split_paths(path)
                    .map(|dir| dir.join(&named))
                    .find(|candidate| is_executable(candidate))
            } else {
                is_executable(&named).then_some(named)
            };
        }
        self.program_names()
            .iter()
            .find_map(|name| {
                std::env::split_paths(path)
                    .map(|dir| dir.join(name))
                    .find(|candidate| is_executable(candidate))
            })
            .or_else(|| {
                self.usual_places()
                    .iter()
                    .map(PathBuf::from)
                    .find(|candidate| is_executable(candidate))
            })
    }
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(path)
        .is_ok_and(|metadata| metadata.is_file() && metadata.permissions().mode() & 0o111 != 0)
}

/// A group of tests that needs the same tools, left out or run as one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Suite {
    /// `app check-idempotency` through a real load balancer.
    LoadBalancer,
    /// Swagger UI driven in headless Chromium.
    Browser,
    /// Swagger UI's start-up script run under Node.js.
    SwaggerScript,
    /// Sign-in with a real OpenID Connect provider (oidc-provider, from npm).
    OpenIdProvider,
    /// Private `redis-server` processes a test stops, restarts, protects with a password or
    /// serves over TLS.
    PrivateRedis,
    /// A local Redis Cluster (six `redis-server` processes joined by `redis-cli`).
    RedisCluster,
    /// Real network partitions: instances, a Redis pair and a PostgreSQL server in network
    /// namespaces of their own (it also needs root and PostgreSQL's server binaries, which it
    /// checks itself).
    Partition,
}

impl Suite {
    /// Every suite, in the order the summary lists them.
    pub const ALL: [Suite; 7] = [
        Suite::LoadBalancer,
        Suite::Browser,
        Suite::SwaggerScript,
        Suite::OpenIdProvider,
        Suite::PrivateRedis,
        Suite::RedisCluster,
        Suite::Partition,
    ];

    /// Its name in the summary (the test module it mostly is).
    pub fn name(self) -> &'static str {
        match self {
            Suite::LoadBalancer => "deployment",
            Suite::Browser => "swagger_browser",
            Suite::SwaggerScript => "swagger_script",
            Suite::OpenIdProvider => "openid_provider",
            Suite::PrivateRedis => "private_redis",
            Suite::RedisCluster => "redis_cluster",
            Suite::Partition => "partition",
        }
    }

    /// What it tests and where, for the summary.
    pub fn covers(self) -> &'static str {
        match self {
            Suite::LoadBalancer => "app check-idempotency behind HAProxy (tests/e2e/deployment.rs)",
            Suite::Browser => "Swagger UI in headless Chromium (tests/e2e/swagger_browser.rs)",
            Suite::SwaggerScript => {
                "Swagger UI's start-up script under Node.js (tests/e2e/docs.rs)"
            }
            Suite::OpenIdProvider => {
                "sign-in with a real OpenID Connect provider (tests/e2e/identity/oauth.rs)"
            }
            Suite::PrivateRedis => {
                "Redis stopped mid-test, with a password, over TLS (health, degraded, \
                 revocation, idempotency::backends and ::faults, redis_topologies)"
            }
            Suite::RedisCluster => {
                "a local Redis Cluster, its failover included (redis_topologies, the store's \
                 conformance suite in idempotency::store_on_a_cluster, \
                 the cluster's own harness tests)"
            }
            Suite::Partition => {
                "three instances, a Redis primary and replica and PostgreSQL in network \
                 namespaces, with links cut, failovers and kills (tests/partition)"
            }
        }
    }

    /// The tools it cannot run without.
    pub fn needs(self) -> &'static [Tool] {
        match self {
            Suite::LoadBalancer => &[Tool::Haproxy],
            Suite::Browser => &[Tool::Chromium, Tool::Chromedriver],
            Suite::SwaggerScript => &[Tool::Node],
            Suite::OpenIdProvider => &[Tool::Node, Tool::Npm],
            Suite::PrivateRedis => &[Tool::RedisServer],
            Suite::RedisCluster | Suite::Partition => &[Tool::RedisServer, Tool::RedisCli],
        }
    }

    /// The tools it needs that this machine lacks.
    pub fn missing(self) -> Vec<Tool> {
        self.needs()
            .iter()
            .copied()
            .filter(|tool| tool.path().is_none())
            .collect()
    }

    /// Whether the calling test should run: `true` when the suite's tools are here. When one
    /// is missing, `false` after a line on the terminal naming the test, the tool and its
    /// install command; or, where every suite is required, a panic saying the same.
    ///
    /// ```ignore
    /// if !Suite::LoadBalancer.runs_here() {
    ///     return;
    /// }
    /// ```
    #[track_caller]
    pub fn runs_here(self) -> bool {
        let missing = self.missing();
        if missing.is_empty() {
            return true;
        }
        let test = std::thread::current().name().unwrap_or("a test").to_owned();
        let why = describe_missing(&missing);
        if every_suite_required() {
            panic!(
                "{test} is in the `{}` suite, which needs {why}; every suite is required here \
                 (CI or TEST_REQUIRE_ALL is set)",
                self.name()
            );
        }
        say(&format!(
            "LEFT OUT {test} (suite `{}`): needs {why}\n",
            self.name()
        ));
        summarise_at_exit(self);
        false
    }
}

/// Lists every suite this machine lacks tools for in the summary printed when the test process
/// ends, whether or not one of its tests ran here (the e2e binary's `zz_suites_left_out`
/// calls it, so the summary is complete even when a filter chose which tests ran). Fails where
/// every suite is required and one cannot run.
pub fn summarise_every_suite_left_out() {
    if let Some(summary) = left_out_summary() {
        assert!(
            !every_suite_required(),
            "every suite is required here (CI or TEST_REQUIRE_ALL is set), but:{summary}"
        );
        for suite in Suite::ALL {
            if !suite.missing().is_empty() {
                summarise_at_exit(suite);
            }
        }
    }
}

/// The suites left out in this process, for the summary printed at its end.
static LEFT_OUT: std::sync::Mutex<Vec<Suite>> = std::sync::Mutex::new(Vec::new());

/// Adds `suite` to the summary printed when this process exits: after the test harness's own
/// result line, where nobody scrolling to the end of a run can miss it.
fn summarise_at_exit(suite: Suite) {
    static HOOK: std::sync::Once = std::sync::Once::new();
    let mut left_out = LEFT_OUT
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if !left_out.contains(&suite) {
        left_out.push(suite);
    }
    drop(left_out);
    HOOK.call_once(|| {
        extern "C" fn print_summary() {
            let left_out = LEFT_OUT
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            let suites = Suite::ALL
                .into_iter()
                .filter(|suite| left_out.contains(suite))
                .map(|suite| (suite, suite.missing()));
            if let Some(summary) = summary_of(suites) {
                say(&summary);
            }
        }
        // SAFETY: `atexit` only records the function. `print_summary` takes no arguments,
        // has nothing that panics (a poisoned lock is taken as it is, write errors are
        // ignored) and touches only statics, which live until the process ends.
        unsafe {
            libc::atexit(print_summary);
        }
    });
}

/// Whether a missing tool fails the run instead of leaving its suite out: `CI=true` (as CI
/// services set it) or `TEST_REQUIRE_ALL=1`.
pub fn every_suite_required() -> bool {
    required_by(|name| std::env::var(name).ok())
}

fn required_by(variable: impl Fn(&str) -> Option<String>) -> bool {
    let set = |name: &str| {
        variable(name).is_some_and(|value| {
            let value = value.trim().to_ascii_lowercase();
            !value.is_empty() && value != "0" && value != "false"
        })
    };
    set("CI") || set("TEST_REQUIRE_ALL")
}

/// "`haproxy`, not on PATH (apt-get install haproxy; ...)", for the missing tools.
fn describe_missing(missing: &[Tool]) -> String {
    let mut commands: Vec<&str> = missing.iter().map(|tool| tool.install_command()).collect();
    commands.dedup();
    format!(
        "{}, not on PATH ({})",
        missing
            .iter()
            .map(|tool| format!("`{}`", tool.name()))
            .collect::<Vec<_>>()
            .join(" and "),
        commands.join("; ")
    )
}

/// The suites this machine leaves out, one line each, or `None` when every suite runs here.
pub fn left_out_summary() -> Option<String> {
    summary_of(Suite::ALL.iter().map(|suite| (*suite, suite.missing())))
}

fn summary_of(suites: impl Iterator<Item = (Suite, Vec<Tool>)>) -> Option<String> {
    let lines: Vec<String> = suites
        .filter(|(_, missing)| !missing.is_empty())
        .map(|(suite, missing)| {
            format!(
                "  - {}: {}\n    needs {}\n",
                suite.name(),
                suite.covers(),
                describe_missing(&missing)
            )
        })
        .collect();
    (!lines.is_empty()).then(|| {
        format!(
            "\n==================== SUITES LEFT OUT: {} ====================\n\
             These suites did not run here because a tool they need is missing:\n{}\
             Install what is named above to run them; with CI=true or TEST_REQUIRE_ALL=1 a \
             missing tool fails the run instead.\n\
             ============================================================\n",
            lines.len(),
            lines.concat()
        )
    })
}

/// Writes straight to the terminal's standard error: the test harness captures what tests
/// print with `eprintln!` and shows it only for failures, and a left-out suite must be seen.
pub fn say(text: &str) {
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_all(text.as_bytes());
    let _ = stderr.flush();
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::ffi::OsString;

    use super::*;

    /// A directory holding executables (and, with mode 0o644, files that are not).
    fn bin_dir(executables: &[&str], plain_files: &[&str]) -> tempfile::TempDir {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        for (names, mode) in [(executables, 0o755), (plain_files, 0o644)] {
            for name in names {
                let path = dir.path().join(name);
                std::fs::write(&path, "#!/bin/sh\n").unwrap();
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
            }
        }
        dir
    }

    fn no_variables(_: &str) -> Option<OsString> {
        None
    }

    #[test]
    fn a_tool_is_found_on_path_in_the_order_of_its_names() {
        let dir = bin_dir(&["google-chrome", "chromium-browser"], &[]);

        let found = Tool::Chromium.find(no_variables, dir.path().as_os_str());

        assert_eq!(found, Some(dir.path().join("chromium-browser")));
    }

    #[test]
    fn a_file_that_is_not_executable_is_not_the_tool() {
        let dir = bin_dir(&[], &["haproxy"]);

        assert_eq!(
            Tool::Haproxy.find(no_variables, dir.path().as_os_str()),
            None
        );
    }

    #[test]
    fn a_later_path_entry_is_searched_when_an_earlier_one_lacks_the_tool() {
        let empty = bin_dir(&[], &[]);
        let full = bin_dir(&["chromedriver"], &[]);
        let path = std::env::join_paths([empty.path(), full.path()]).unwrap();

        let found = Tool::Chromedriver.find(no_variables, &path);

        assert_eq!(found, Some(full.path().join("chromedriver")));
    }

    #[test]
    fn chrome_named_in_the_environment_wins_over_path() {
        let on_path = bin_dir(&["chromium"], &[]);
        let elsewhere = bin_dir(&["my-chrome"], &[]);
        let named = elsewhere.path().join("my-chrome");
        let variables = HashMap::from([("CHROME", named.clone().into_os_string())]);

        let found = Tool::Chromium.find(
            |name| variables.get(name).cloned(),
            on_path.path().as_os_str(),
        );

        assert_eq!(found, Some(named));
    }

    #[test]
    fn a_named_program_that_is_not_there_is_missing_rather_than_replaced_by_path() {
        let on_path = bin_dir(&["redis-server"], &[]);
        let variables =
            HashMap::from([("REDIS_SERVER_BIN", OsString::from("/nowhere/redis-server"))]);

        let found = Tool::RedisServer.find(
            |name| variables.get(name).cloned(),
            on_path.path().as_os_str(),
        );

        assert_eq!(found, None);
    }

    #[test]
    fn a_bare_name_in_the_environment_is_looked_up_on_path() {
        let on_path = bin_dir(&["chromium", "chrome-beta"], &[]);
        let variables = HashMap::from([("CHROMIUM", OsString::from("chrome-beta"))]);

        let found = Tool::Chromium.find(
            |name| variables.get(name).cloned(),
            on_path.path().as_os_str(),
        );

        assert_eq!(found, Some(on_path.path().join("chrome-beta")));
    }

    #[test]
    fn ci_or_test_require_all_requires_every_suite() {
        let with = |pairs: &[(&str, &str)]| {
            let map: HashMap<String, String> = pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect();
            required_by(|name| map.get(name).cloned())
        };

        assert!(with(&[("CI", "true")]));
        assert!(with(&[("TEST_REQUIRE_ALL", "1")]));
        assert!(!with(&[]));
        assert!(!with(&[("CI", "false"), ("TEST_REQUIRE_ALL", "0")]));
    }

    #[test]
    fn the_summary_names_each_left_out_suite_its_missing_tool_and_the_install_command() {
        let summary = summary_of(
            [
                (Suite::LoadBalancer, vec![Tool::Haproxy]),
                (Suite::Browser, vec![Tool::Chromium, Tool::Chromedriver]),
                (Suite::PrivateRedis, vec![]),
            ]
            .into_iter(),
        )
        .expect("two suites are left out");

        assert!(summary.contains("SUITES LEFT OUT: 2"), "{summary}");
        assert!(summary.contains("- deployment:"), "{summary}");
        assert!(summary.contains("`haproxy`, not on PATH"), "{summary}");
        assert!(summary.contains("apt-get install haproxy"), "{summary}");
        assert!(
            summary.contains("`chromium` and `chromedriver`, not on PATH"),
            "{summary}"
        );
        assert_eq!(
            summary
                .matches("apt-get install chromium chromium-driver")
                .count(),
            1,
            "one install command for the two browser tools: {summary}"
        );
        assert!(!summary.contains("private_redis"), "{summary}");
    }

    #[test]
    fn no_summary_when_every_suite_runs() {
        assert_eq!(
            summary_of(Suite::ALL.iter().map(|suite| (*suite, Vec::new()))),
            None
        );
    }
}
