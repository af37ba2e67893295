//! `cargo xtask test crate`: poem-idempotency as a user receives it.
//!
//! Both crates are packaged (`cargo package`, as a release would pack them) and unpacked outside
//! the workspace, where a service is made from the crate's README alone: its `## Install` block
//! is the manifest's dependencies and its `## Set-up` block is `src/main.rs`, as written (only
//! the address it binds is moved to a free port). The packages stand in for crates.io through
//! `[patch.crates-io]`. The service is built and sent, over HTTP: a keyed request, its retry
//! (replayed), the key with another body (422), and two duplicates at once (one execution: one
//! answer is not a replay). Then the README's `## The intent gate` block runs as the service's
//! `tests/intents.rs`. The step fails if the README's code stops compiling, if the packages need
//! the workspace, or if the set-up does not guard what it declares.

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail, ensure};

const CRATES: [&str; 2] = ["poem-idempotency-macros", "poem-idempotency"];
const README: &str = "shared/poem-idempotency/README.md";
/// The address the README's set-up binds, which the test moves to a free port.
const README_ADDRESS: &str = "127.0.0.1:3000";

pub fn run(root: &Path, target: &Path) -> anyhow::Result<()> {
    let work = target.join("crate-adoption");
    if work.exists() {
        std::fs::remove_dir_all(&work).context("clearing the last adoption")?;
    }
    let crates = work.join("crates");
    let service = work.join("service");
    std::fs::create_dir_all(&crates)?;
    std::fs::create_dir_all(service.join("src"))?;
    std::fs::create_dir_all(service.join("tests"))?;

    let mut package = cargo(root);
    package.args(["package", "--no-verify", "--allow-dirty"]);
    for name in CRATES {
        package.args(["-p", name]);
    }
    crate::test::run_command(&mut package)?;
    let version = package_version(root)?;
    for name in CRATES {
        let file = target
            .join("package")
            .join(format!("{name}-{version}.crate"));
        crate::test::run_command(
            Command::new("tar")
                .arg("xzf")
                .arg(&file)
                .arg("-C")
                .arg(&crates),
        )?;
    }

    let readme = std::fs::read_to_string(root.join(README)).context("reading the README")?;
    let dependencies = code_block(&readme, "## Install", "toml")?;
    let main = code_block(&readme, "## Set-up", "rust")?;
    let gate_test = code_block(&readme, "## The intent gate", "rust")?;
    let port = free_port()?;
    ensure!(
        main.contains(README_ADDRESS),
        "the README's set-up no longer binds {README_ADDRESS}, which this step moves to a free port"
    );
    std::fs::write(
        service.join("src/main.rs"),
        main.replace(README_ADDRESS, &format!("127.0.0.1:{port}")),
    )?;
    std::fs::write(service.join("tests/intents.rs"), gate_test)?;
    let patches: String = CRATES
        .iter()
        .map(|name| format!("{name} = {{ path = \"../crates/{name}-{version}\" }}\n"))
        .collect();
    std::fs::write(
        service.join("Cargo.toml"),
        format!(
            "[package]\nname = \"readme-service\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
             publish = false\n\n# Not a member of any workspace around it.\n[workspace]\n\n\
             {dependencies}\n# The packages stand in for crates.io.\n[patch.crates-io]\n{patches}"
        ),
    )?;
    // The versions the workspace is tested with: the same builds serve both.
    std::fs::copy(root.join("Cargo.lock"), service.join("Cargo.lock"))?;
    crate::test::run_command(
        cargo(&service)
            .args(["build", "--quiet"])
            .env("CARGO_TARGET_DIR", target),
    )?;

    let mut server = Command::new(target.join("debug/readme-service"))
        .stdout(Stdio::null())
        .spawn()
        .context("starting the README's service")?;
    let probed = probe(&work, port);
    let _ = server.kill();
    let _ = server.wait();
    probed?;
    // The README's gate test, as the service's own test.
    crate::test::run_command(
        cargo(&service)
            .args(["test", "--quiet", "--test", "intents"])
            .env("CARGO_TARGET_DIR", target),
    )?;
    println!("crate adoption: the README's intent gate test passes against the README's service");
    Ok(())
}

/// The README's promises, over HTTP.
fn probe(work: &Path, port: u16) -> anyhow::Result<()> {
    wait_for(port)?;
    let client = Client {
        base: format!("http://127.0.0.1:{port}"),
        headers: work.to_path_buf(),
    };
    let first = client.greet("key-1", "Ada", 0)?;
    ensure!(first == Answer::executed(200), "a keyed request: {first:?}");
    let retry = client.greet("key-1", "Ada", 1)?;
    ensure!(retry == Answer::replayed(200), "its retry: {retry:?}");
    let reuse = client.greet("key-1", "Bob", 2)?;
    ensure!(reuse.status == 422, "the key with another body: {reuse:?}");
    let duplicates = [
        client.spawn_greet("key-2", "Cy", 3)?,
        client.spawn_greet("key-2", "Cy", 4)?,
    ];
    let mut answers = Vec::new();
    for (child, n) in duplicates.into_iter().zip([3, 4]) {
        answers.push(client.finish(child, n)?);
    }
    let executions = answers.iter().filter(|answer| !answer.replayed).count();
    ensure!(
        answers.iter().all(|answer| answer.status == 200) && executions == 1,
        "two duplicates at once: {answers:?}"
    );
    println!(
        "crate adoption: a keyed request, its replay, a 422 and one execution of two duplicates"
    );
    Ok(())
}

#[derive(Debug, PartialEq, Eq)]
struct Answer {
    status: u16,
    replayed: bool,
}

impl Answer {
    fn executed(status: u16) -> Self {
        Self {
            status,
            replayed: false,
        }
    }

    fn replayed(status: u16) -> Self {
        Self {
            status,
            replayed: true,
        }
    }
}

/// curl, one process per request (so that two can be in flight at once).
struct Client {
    base: String,
    /// Where each request's response headers are written.
    headers: PathBuf,
}

impl Client {
    fn greet(&self, key: &str, name: &str, n: usize) -> anyhow::Result<Answer> {
        let child = self.spawn_greet(key, name, n)?;
        self.finish(child, n)
    }

    fn spawn_greet(&self, key: &str, name: &str, n: usize) -> anyhow::Result<Child> {
        Command::new("curl")
            .args(["-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST"])
            .arg("-D")
            .arg(self.headers_of(n))
            .args(["-H", "content-type: application/json"])
            .args(["-H", &format!("idempotency-key: {key}")])
            .args(["-d", &format!("\"{name}\"")])
            .arg(format!("{}/greetings", self.base))
            .stdout(Stdio::piped())
            .spawn()
            .context("starting curl")
    }

    fn finish(&self, child: Child, n: usize) -> anyhow::Result<Answer> {
        let output = child.wait_with_output()?;
        ensure!(output.status.success(), "curl failed ({})", output.status);
        let status = String::from_utf8_lossy(&output.stdout).trim().parse()?;
        let headers = std::fs::read_to_string(self.headers_of(n))?.to_ascii_lowercase();
        Ok(Answer {
            status,
            replayed: headers.contains("x-idempotent-replay: true"),
        })
    }

    fn headers_of(&self, n: usize) -> PathBuf {
        self.headers.join(format!("headers-{n}"))
    }
}

/// The first code block tagged `language` after the line `heading`, without its fences.
fn code_block(markdown: &str, heading: &str, language: &str) -> anyhow::Result<String> {
    let after = markdown
        .split_once(&format!("\n{heading}\n"))
        .with_context(|| format!("the README has no `{heading}` section"))?
        .1;
    let fence = format!("```{language}");
    let mut lines = after.lines().skip_while(|line| !line.starts_with(&fence));
    if lines.next().is_none() {
        bail!("`{heading}` has no ```{language} block");
    }
    let block: Vec<&str> = lines.take_while(|line| !line.starts_with("```")).collect();
    Ok(block.join("\n") + "\n")
}

fn package_version(root: &Path) -> anyhow::Result<String> {
    let manifest = std::fs::read_to_string(root.join("shared/poem-idempotency/Cargo.toml"))?;
    manifest
        .lines()
        .find_map(|line| line.strip_prefix("version = \""))
        .and_then(|rest| rest.strip_suffix('"'))
        .map(str::to_owned)
        .context("the crate's manifest names no version")
}

fn free_port() -> anyhow::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

fn wait_for(port: u16) -> anyhow::Result<()> {
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        ensure!(
            Instant::now() < deadline,
            "the README's service did not listen on port {port} within 30 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    Ok(())
}

fn cargo(dir: &Path) -> Command {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command.current_dir(dir);
    command
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_block_is_the_first_of_its_language_after_its_heading() {
        let markdown = "# T\n\n## Install\n\ntext\n\n```text\nno\n```\n\n```toml\n[dependencies]\na = \"1\"\n```\n\n## Set-up\n";

        let block = code_block(markdown, "## Install", "toml").unwrap();

        assert_eq!(block, "[dependencies]\na = \"1\"\n");
    }

    #[test]
    fn a_missing_heading_is_an_error_naming_it() {
        let error = code_block("# T\n", "## Install", "toml").unwrap_err();

        assert!(error.to_string().contains("## Install"), "{error}");
    }

    #[test]
    fn the_readme_has_its_blocks_and_binds_the_address_the_step_moves() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let readme = std::fs::read_to_string(root.join(README)).unwrap();

        let dependencies = code_block(&readme, "## Install", "toml").unwrap();
        let main = code_block(&readme, "## Set-up", "rust").unwrap();
        let gate_test = code_block(&readme, "## The intent gate", "rust").unwrap();

        assert!(dependencies.starts_with("[dependencies]"), "{dependencies}");
        assert!(main.contains(README_ADDRESS), "{main}");
        assert!(gate_test.contains("#[tokio::test]"), "{gate_test}");
    }
}
