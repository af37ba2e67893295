//! `cargo xtask mutants [--in-diff <git-ref>]`: cargo-mutants over poem-idempotency with the
//! crate's own tests only, which are all a user of the crate has, and the exclusions (each with
//! its reason) in the crate's `.cargo/mutants.toml`.
//!
//! Without an argument it mutates the whole crate and prints the score; the crate's testing notes
//! (`shared/poem-idempotency/TESTING.md`) record it with the commit it was measured at. With
//! `--in-diff <ref>` it mutates only the crate's lines changed since `ref` and fails on any mutant
//! the tests miss: what CI runs (`--since-measured`) against the commit the notes name (the one
//! measured at, or a later one CI's step checked through), so that the score cannot fall unseen
//! while CI stays short.

use std::path::Path;
use std::process::Command;

use anyhow::{Context as _, bail, ensure};

const CRATE: &str = "poem-idempotency";
const CRATE_DIR: &str = "shared/poem-idempotency";
const CONFIG: &str = "shared/poem-idempotency/.cargo/mutants.toml";
const NOTES: &str = "shared/poem-idempotency/TESTING.md";
/// The line of the notes that names the commit the whole crate was last measured at.
const MEASURED_AT: &str = "Measured at commit ";
/// The line of the notes that names the last commit up to which CI's step found every mutant
/// of the changed lines caught: later runs start from there instead of re-testing those lines.
const CHECKED_THROUGH: &str = "Checked through commit ";

/// The minimum share of viable mutants the crate's tests catch.
pub const MINIMUM_SCORE: f64 = 0.90;

/// Which mutants to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// Every mutant of the crate.
    Whole,
    /// The mutants in lines changed since a git ref.
    ChangedSince(String),
    /// The mutants in lines changed since the commit the notes were measured (or last checked
    /// through) at.
    ChangedSinceMeasured,
}

pub fn usage() -> &'static str {
    "cargo xtask mutants [--in-diff <git-ref> | --since-measured]\n  \
     cargo-mutants over poem-idempotency with its own tests: the whole crate (and its score), \
     or only the lines changed since <git-ref> or since the commit its TESTING.md was measured at or checked through"
}

pub fn scope(arguments: &[&str]) -> anyhow::Result<Scope> {
    match arguments {
        [] => Ok(Scope::Whole),
        ["--in-diff", base] => Ok(Scope::ChangedSince((*base).to_owned())),
        ["--since-measured"] => Ok(Scope::ChangedSinceMeasured),
        _ => bail!("{}", usage()),
    }
}

pub fn run(root: &Path, scope: &Scope) -> anyhow::Result<()> {
    let version = Command::new(cargo_program())
        .args(["mutants", "--version"])
        .output();
    ensure!(
        version.is_ok_and(|output| output.status.success()),
        "cargo-mutants is not installed: `cargo install cargo-mutants --locked`"
    );
    let output_dir = root.join("target/mutants");
    std::fs::create_dir_all(&output_dir)?;
    let mut command = Command::new(cargo_program());
    command
        .current_dir(root)
        .args(["mutants", "--package", CRATE, "--config", CONFIG])
        .arg("--output")
        .arg(&output_dir)
        // Only the crate's own tests: what a service that adopts the crate has.
        .args(["--test-package", CRATE]);
    let base = match scope {
        Scope::Whole => None,
        Scope::ChangedSince(base) => Some(base.clone()),
        Scope::ChangedSinceMeasured => Some(measured_at(root)?),
    };
    if let Some(base) = &base {
        let diff = Command::new("git")
            .current_dir(root)
            .args(["diff", base, "--", &format!("{CRATE_DIR}/src")])
            .output()
            .context("git diff")?;
        ensure!(
            diff.status.success(),
            "git diff {base}: {}",
            String::from_utf8_lossy(&diff.stderr)
        );
        if diff.stdout.is_empty() {
            println!("mutants: nothing in {CRATE_DIR}/src changed since {base}");
            return Ok(());
        }
        let diff_file = output_dir.join("in.diff");
        std::fs::write(&diff_file, &diff.stdout)?;
        command.arg("--in-diff").arg(&diff_file);
    }
    println!(
        "mutants: {CRATE}{}",
        base.as_ref()
            .map(|base| format!(", lines changed since {base}"))
            .unwrap_or_default()
    );
    // cargo-mutants exits non-zero when a mutant is missed or times out: the score decides.
    let status = command.status().context("cargo mutants")?;
    // Except when the tests fail with no mutant at all: then nothing was measured.
    ensure!(
        status.code() != Some(CLEAN_TESTS_FAILED),
        "the crate's tests fail without any mutation, so no mutant was tested \
         (target/mutants/mutants.out/log/baseline.log)"
    );
    let outcomes = Outcomes::read(&output_dir.join("mutants.out/outcomes.json"))?;
    println!(
        "mutants: {} caught, {} missed, {} timed out, {} unviable: score {:.1} %",
        outcomes.caught,
        outcomes.missed,
        outcomes.timeout,
        outcomes.unviable,
        outcomes.score() * 100.0
    );
    match base {
        // A change must not add a mutant the tests miss.
        Some(_) => ensure!(
            outcomes.missed == 0,
            "mutants the crate's tests miss in the changed lines (see target/mutants/mutants.out/missed.txt)"
        ),
        None => ensure!(
            outcomes.score() >= MINIMUM_SCORE,
            "the crate's tests catch {:.1} % of its mutants, under {:.0} %",
            outcomes.score() * 100.0,
            MINIMUM_SCORE * 100.0
        ),
    }
    if !status.success() {
        println!("mutants: some survive (target/mutants/mutants.out/missed.txt); the score holds");
    }
    Ok(())
}

/// cargo-mutants's exit code when the unmutated tree's tests fail.
const CLEAN_TESTS_FAILED: i32 = 4;

fn cargo_program() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned())
}

/// The commit the notes say the crate was last checked through, else measured at.
fn measured_at(root: &Path) -> anyhow::Result<String> {
    let notes = std::fs::read_to_string(root.join(NOTES)).with_context(|| NOTES.to_owned())?;
    base_in_notes(&notes).with_context(|| format!("{NOTES} has no line starting `{MEASURED_AT}`"))
}

/// Where the mutants step starts: the commit checked through, if the notes name one, else the
/// commit measured at.
fn base_in_notes(notes: &str) -> Option<String> {
    commit_in_notes(notes, CHECKED_THROUGH).or_else(|| commit_in_notes(notes, MEASURED_AT))
}

/// The word after "Measured at commit " (backticks and a final full stop aside).
pub(crate) fn commit_in_notes(notes: &str, prefix: &str) -> Option<String> {
    notes
        .lines()
        .find_map(|line| line.strip_prefix(prefix))
        .and_then(|rest| rest.split_whitespace().next())
        .map(|word| {
            word.trim_matches('`')
                .trim_end_matches(['.', ','])
                .trim_matches('`')
                .to_owned()
        })
        .filter(|commit| !commit.is_empty())
}

/// How the mutants ended, from cargo-mutants' `outcomes.json`.
#[derive(Debug, Default, PartialEq, Eq)]
struct Outcomes {
    caught: u64,
    missed: u64,
    timeout: u64,
    unviable: u64,
}

impl Outcomes {
    fn read(path: &Path) -> anyhow::Result<Self> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cargo-mutants wrote no {}", path.display()))?;
        let json: serde_json::Value = serde_json::from_str(&text)?;
        let count = |name: &str| json[name].as_u64().unwrap_or(0);
        Ok(Self {
            caught: count("caught"),
            missed: count("missed"),
            timeout: count("timeout"),
            unviable: count("unviable"),
        })
    }

    /// Caught among the viable. A mutant that makes the tests hang past cargo-mutants' timeout
    /// (a wait loop that no longer waits) did not pass them: it counts as caught.
    fn score(&self) -> f64 {
        let viable = self.caught + self.missed + self.timeout;
        if viable == 0 {
            return 1.0;
        }
        (self.caught + self.timeout) as f64 / viable as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_score_is_caught_among_viable_mutants_and_a_timeout_counts_as_caught() {
        let outcomes = Outcomes {
            caught: 88,
            missed: 10,
            timeout: 2,
            unviable: 40,
        };

        assert!((outcomes.score() - 0.90).abs() < 1e-9);
    }

    #[test]
    fn the_measured_commit_is_the_word_after_measured_at_commit() {
        let notes =
            "# Notes\n\nMeasured at commit 047c86c (cargo-mutants 27.1.0, the whole crate):\n";

        assert_eq!(base_in_notes(notes).as_deref(), Some("047c86c"));
        assert_eq!(
            base_in_notes("Measured at commit `abc123`.\n").as_deref(),
            Some("abc123")
        );
        assert_eq!(base_in_notes("Measured on a Tuesday\n"), None);
    }

    #[test]
    fn the_step_starts_from_the_commit_checked_through_when_the_notes_name_one() {
        let notes = "Measured at commit 047c86c (the whole crate).\n\n\
                     Checked through commit a8c994d (CI's step, none missed).\n";

        assert_eq!(base_in_notes(notes).as_deref(), Some("a8c994d"));
    }

    #[test]
    fn arguments_choose_the_whole_crate_or_a_diff() {
        assert_eq!(scope(&[]).unwrap(), Scope::Whole);
        assert_eq!(
            scope(&["--in-diff", "main"]).unwrap(),
            Scope::ChangedSince("main".to_owned())
        );
        assert_eq!(
            scope(&["--since-measured"]).unwrap(),
            Scope::ChangedSinceMeasured
        );
        assert!(scope(&["--in-diff"]).is_err());
    }
}
