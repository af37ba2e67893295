//! End-to-end specifications of the service, compiled as one test binary.

mod architecture;
mod body_limit;
mod client;
mod client_address;
mod compose;
mod degraded;
mod deployment;
mod docs;
mod errors;
mod health;
mod idempotency;
mod identity;
mod intents;
mod legal;
mod notifications;
mod races;
mod redis_topologies;
mod roles;
mod serving;
mod settings;
mod startup;
mod swagger_browser;
mod things;

/// Named to sort last. Puts every suite this machine lacks a tool for in the summary printed
/// after the harness's result line (one line per suite: the missing tool and how to install
/// it), even when a filter kept that suite's tests from running; fails where every suite is
/// required (`CI=true`, `TEST_REQUIRE_ALL=1`) and one cannot run.
#[test]
fn zz_suites_left_out() {
    testing::tools::summarise_every_suite_left_out();
}
