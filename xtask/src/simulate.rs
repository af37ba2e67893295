//! `cargo xtask simulate --seeds <N> [--from <S>] [--threads <T>] [--release]`: the guard's
//! deterministic simulation (`shared/poem-idempotency/tests/simulation`, ADR 0021) over many
//! more seeds than CI's 10,000, with progress. It runs the simulation's own test with the
//! seeds in its environment, so a long run and CI's run are the same code; a failing seed is
//! printed with its trace and the command that replays it.

use std::path::Path;
use std::process::Command;

use anyhow::{Context as _, bail, ensure};

/// What to simulate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    pub seeds: u64,
    pub from: u64,
    /// Threads, each running seeds one after another; the simulation's own default when unset.
    pub threads: Option<u64>,
    /// Built optimised: several times faster per seed, after a longer first build.
    pub release: bool,
}

pub fn usage() -> &'static str {
    "cargo xtask simulate --seeds <N> [--from <S>] [--threads <T>] [--release]\n  \
     the guard's deterministic simulation over seeds S..S+N (S defaults to 0), with progress"
}

pub fn options(arguments: &[&str]) -> anyhow::Result<Options> {
    let mut options = Options {
        seeds: 0,
        from: 0,
        threads: None,
        release: false,
    };
    let mut seeds = None;
    let mut arguments = arguments.iter();
    while let Some(argument) = arguments.next() {
        let mut number = |name: &str| -> anyhow::Result<u64> {
            let value = arguments
                .next()
                .with_context(|| format!("`{name}` needs a number\n\n{}", usage()))?;
            value
                .replace('_', "")
                .parse()
                .with_context(|| format!("`{name} {value}`: not a number\n\n{}", usage()))
        };
        match *argument {
            "--seeds" => seeds = Some(number("--seeds")?),
            "--from" => options.from = number("--from")?,
            "--threads" => options.threads = Some(number("--threads")?),
            "--release" => options.release = true,
            other => bail!("`{other}`: not an option of simulate\n\n{}", usage()),
        }
    }
    options.seeds = seeds.with_context(|| format!("simulate needs `--seeds`\n\n{}", usage()))?;
    ensure!(options.seeds > 0, "`--seeds 0` simulates nothing");
    ensure!(options.threads != Some(0), "`--threads 0` runs nothing");
    Ok(options)
}

/// Progress about every hundredth of the run, and at least every 10,000 seeds.
fn progress_every(seeds: u64) -> u64 {
    (seeds / 100).clamp(1, 10_000)
}

pub fn run(root: &Path, options: &Options) -> anyhow::Result<()> {
    let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()));
    command
        .current_dir(root)
        .args(["test", "-p", "poem-idempotency", "--features", "simulation"])
        .args(options.release.then_some("--release"))
        .args([
            "--test",
            "simulation",
            "--",
            "ci_seeds_keep_every_invariant",
        ])
        .args(["--exact", "--nocapture"])
        .env("SIMULATION_SEEDS", options.seeds.to_string())
        .env("SIMULATION_FROM", options.from.to_string())
        .env(
            "SIMULATION_PROGRESS",
            progress_every(options.seeds).to_string(),
        );
    if let Some(threads) = options.threads {
        command.env("SIMULATION_THREADS", threads.to_string());
    }
    let status = command.status().context("running cargo test")?;
    ensure!(
        status.success(),
        "the simulation failed: the seeds above, each with its trace and the command that replays it"
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_required_and_the_rest_defaults() {
        assert_eq!(
            options(&["--seeds", "1_000_000"]).unwrap(),
            Options {
                seeds: 1_000_000,
                from: 0,
                threads: None,
                release: false
            }
        );
        assert!(options(&[]).is_err());
        assert!(options(&["--from", "5"]).is_err());
    }

    #[test]
    fn every_option_is_read_in_any_order() {
        assert_eq!(
            options(&[
                "--release",
                "--threads",
                "2",
                "--from",
                "10000",
                "--seeds",
                "50"
            ])
            .unwrap(),
            Options {
                seeds: 50,
                from: 10_000,
                threads: Some(2),
                release: true
            }
        );
    }

    #[test]
    fn a_bad_option_is_refused_with_the_usage() {
        for bad in [
            &["--seeds", "many"][..],
            &["--seeds"],
            &["--seeds", "0"],
            &["--seeds", "5", "--threads", "0"],
            &["--seeds", "5", "--fast"],
        ] {
            let error = options(bad).unwrap_err().to_string();
            assert!(!error.is_empty(), "{bad:?}");
        }
    }

    #[test]
    fn progress_comes_every_hundredth_within_bounds() {
        assert_eq!(progress_every(50), 1);
        assert_eq!(progress_every(100_000), 1_000);
        assert_eq!(progress_every(10_000_000), 10_000);
    }
}
