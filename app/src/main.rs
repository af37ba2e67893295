//! `app`: run the service, or print its OpenAPI document.

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    version,
    about = "Idempotent service: a Poem starter with safe retries"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the server (the default).
    Serve,
    /// Print the OpenAPI document the server serves at /openapi.json.
    Openapi,
    /// Print the inventory of unsafe operations and their idempotency intents (Markdown).
    Intents,
    /// Grant the administrator role to a registered account (how the first admin is made).
    GrantAdmin {
        /// The account's email address.
        email: String,
    },
    /// Grant a role (e.g. `notifications:send`) to a registered account.
    GrantRole {
        /// The account's email address.
        email: String,
        /// The role.
        role: String,
    },
    /// Remove the administrator role from a registered account (its next request is refused).
    RevokeAdmin {
        /// The account's email address.
        email: String,
    },
    /// Remove a role from a registered account (its next request is refused what it allowed).
    RevokeRole {
        /// The account's email address.
        email: String,
        /// The role.
        role: String,
    },
    /// Check that idempotency holds through a deployment (its load balancer, its instances);
    /// exits 0 only when every check passes.
    CheckIdempotency(deployment_check::CheckArgs),
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    match run(Cli::parse()).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => {
            let settings = app::config::load()?;
            let telemetry = infra::telemetry::Telemetry::init(&settings.telemetry)?;
            tracing::info!(environment = settings.environment.as_str(), "starting");
            let application = app::Application::build(settings).await?;
            application.run_until_stopped().await?;
            for failure in telemetry.shutdown().await {
                eprintln!("telemetry: {failure}");
            }
            Ok(())
        }
        Command::Openapi => {
            println!("{}", offline_document().await?);
            Ok(())
        }
        Command::GrantRole { email, role } => {
            let settings = app::config::load()?;
            let user_id = app::commands::grant_role(&settings, &email, &role).await?;
            println!("{email} ({user_id}) now has the role `{role}`, from its next request.");
            Ok(())
        }
        Command::GrantAdmin { email } => {
            let settings = app::config::load()?;
            let user_id = app::commands::grant_admin(&settings, &email).await?;
            println!("{email} ({user_id}) is now an administrator, from its next request.");
            Ok(())
        }
        Command::RevokeRole { email, role } => {
            let settings = app::config::load()?;
            let user_id = app::commands::revoke_role(&settings, &email, &role).await?;
            println!("{email} ({user_id}) no longer has the role `{role}`, from its next request.");
            Ok(())
        }
        Command::RevokeAdmin { email } => {
            let settings = app::config::load()?;
            let user_id = app::commands::revoke_admin(&settings, &email).await?;
            println!("{email} ({user_id}) is no longer an administrator, from its next request.");
            Ok(())
        }
        Command::CheckIdempotency(arguments) => deployment_check::run(arguments).await,
        Command::Intents => {
            let document = serde_json::from_str(&offline_document().await?)?;
            print!("{}", app::docs::intent_inventory(&document));
            Ok(())
        }
    }
}

/// The served OpenAPI document, built without a database server or Redis: the APIs need an
/// in-memory database and a free port that is never served.
async fn offline_document() -> anyhow::Result<String> {
    let settings = app::config::load_with(
        infra::Environment::Test,
        &[
            ("database.url", "sqlite::memory:"),
            ("redis.url", ""),
            ("redis.cluster_nodes", ""),
            ("server.host", "127.0.0.1"),
            ("server.port", "0"),
        ],
    )?;
    let application = app::Application::build(settings).await?;
    Ok(application.openapi_json().to_owned())
}
