//! `check-idempotency <base-url>`: the deployment checker on its own (see the library).

use clap::Parser;

/// Check that idempotency holds through a deployment (its load balancer, its instances);
/// exits 0 only when every check passes.
#[derive(Parser)]
#[command(name = "check-idempotency", version)]
struct Cli {
    #[command(flatten)]
    arguments: deployment_check::CheckArgs,
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    match deployment_check::run(Cli::parse().arguments).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
