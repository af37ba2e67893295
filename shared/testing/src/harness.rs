//! For test binaries without the standard harness (`harness = false`: `crash` and `partition`,
//! which start themselves again as child processes): the standard harness's filters and output,
//! so that cargo, CI and people read them alike.

use std::process::ExitCode;
use std::time::Instant;

/// A run's tally: which tests the command line chose, and how they ended.
pub struct Run {
    started: Instant,
    filters: Vec<String>,
    passed: usize,
    failed: usize,
    filtered: usize,
}

impl Run {
    /// Reads the name filters from the command line (its arguments that are not options) and
    /// prints `running N tests`.
    pub fn start(tests: usize) -> Self {
        println!("\nrunning {tests} tests");
        Self {
            started: Instant::now(),
            filters: std::env::args()
                .skip(1)
                .filter(|argument| !argument.starts_with('-'))
                .collect(),
            passed: 0,
            failed: 0,
            filtered: 0,
        }
    }

    /// Whether the test `name` is to run: every test without filters, else those whose name
    /// holds one. A test not chosen counts as filtered out.
    pub fn chosen(&mut self, name: &str) -> bool {
        let chosen = self.filters.is_empty()
            || self
                .filters
                .iter()
                .any(|filter| name.contains(filter.as_str()));
        self.filtered += usize::from(!chosen);
        chosen
    }

    /// Prints the test's line: `ok`, or `FAILED` and why.
    pub fn record(&mut self, name: &str, outcome: Result<(), String>) {
        match outcome {
            Ok(()) => {
                self.passed += 1;
                println!("test {name} ... ok");
            }
            Err(why) => {
                self.failed += 1;
                println!("test {name} ... FAILED\n  {why}");
            }
        }
    }

    /// Prints the result line; the process's exit code.
    pub fn finish(self) -> ExitCode {
        println!(
            "\ntest result: {}. {} passed; {} failed; 0 ignored; 0 measured; {} filtered out; \
             finished in {:.2}s\n",
            if self.failed == 0 { "ok" } else { "FAILED" },
            self.passed,
            self.failed,
            self.filtered,
            self.started.elapsed().as_secs_f64()
        );
        if self.failed == 0 {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        }
    }
}
