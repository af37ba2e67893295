//! The crate graph enforces the architecture: modules depend on `shared/` crates only, never on
//! each other, nothing in `shared/` depends on a module or the host, and poem-idempotency
//! depends on no workspace crate but its macros.
//!
//! The middleware order is written once (`app/src/middleware.rs`); the documents that describe
//! it must name the served layers in the served order.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

struct Package {
    name: String,
    dir: String,
    path_dependencies: Vec<String>,
}

fn workspace_packages() -> Vec<Package> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let output = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(root)
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: Value = serde_json::from_slice(&output.stdout).unwrap();
    let root = metadata["workspace_root"].as_str().unwrap().to_owned();
    metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|package| {
            let manifest = package["manifest_path"].as_str().unwrap();
            let dir = Path::new(manifest)
                .parent()
                .unwrap()
                .strip_prefix(&root)
                .unwrap()
                .display()
                .to_string();
            let path_dependencies = package["dependencies"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|dep| dep["path"].is_string())
                .map(|dep| {
                    let path = dep["path"].as_str().unwrap();
                    Path::new(path)
                        .strip_prefix(&root)
                        .unwrap()
                        .display()
                        .to_string()
                })
                .collect();
            Package {
                name: package["name"].as_str().unwrap().to_owned(),
                dir,
                path_dependencies,
            }
        })
        .collect()
}

#[test]
fn no_module_depends_on_another_module() {
    let packages = workspace_packages();

    let modules: Vec<&Package> = packages
        .iter()
        .filter(|p| p.dir.starts_with("modules/"))
        .collect();

    assert!(!modules.is_empty(), "there is at least one module");
    for module in modules {
        for dependency in &module.path_dependencies {
            assert!(
                dependency.starts_with("shared/"),
                "module `{}` depends on `{dependency}`: modules may depend on shared/ crates only",
                module.name
            );
        }
    }
}

#[test]
fn shared_crates_depend_on_no_module_and_not_on_the_host() {
    let packages = workspace_packages();

    for package in packages.iter().filter(|p| p.dir.starts_with("shared/")) {
        for dependency in &package.path_dependencies {
            assert!(
                dependency.starts_with("shared/"),
                "shared crate `{}` depends on `{dependency}`",
                package.name
            );
        }
    }
}

#[test]
fn the_idempotency_crate_stands_alone_on_its_macros() {
    let packages = workspace_packages();
    let standalone = ["poem-idempotency", "poem-idempotency-macros"];

    for package in packages
        .iter()
        .filter(|p| standalone.contains(&p.name.as_str()))
    {
        for dependency in &package.path_dependencies {
            assert!(
                ["shared/poem-idempotency", "shared/poem-idempotency-macros"]
                    .contains(&dependency.as_str()),
                "`{}` depends on `{dependency}`: the crate any poem-openapi service can adopt \
                 depends on no crate of this workspace but its macros",
                package.name
            );
        }
    }
    assert_eq!(
        packages
            .iter()
            .filter(|p| standalone.contains(&p.name.as_str()))
            .count(),
        2,
        "both crates are in the workspace"
    );
}

/// The middleware layers the service serves, outermost first.
async fn served_middleware() -> &'static [&'static str] {
    let (application, _database) = e2e::TestApp::builder().build_with(()).await;
    let layers = application.middleware();
    assert!(layers.len() >= 7, "only {layers:?}");
    layers
}

fn repository_text(relative: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

#[tokio::test]
async fn architecture_md_walks_a_request_through_the_middleware_in_the_served_order() {
    let served = served_middleware().await;

    let architecture = repository_text("ARCHITECTURE.md");
    let section = architecture
        .split("## The life of a request")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("ARCHITECTURE.md has a section 'The life of a request'");
    // The table's steps, each one's "what happens" cell.
    let steps: Vec<&str> = section
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            (cells.len() > 3 && cells[1].parse::<u32>().is_ok()).then(|| cells[2])
        })
        .collect();

    for (step, layer) in served.iter().enumerate() {
        let cell = steps.get(step).copied().unwrap_or_default();
        assert!(
            cell.starts_with(&format!("`{layer}`")),
            "step {} of the life of a request must be the layer `{layer}` (served order: \
             {served:?}), not: {cell}",
            step + 1
        );
    }
    let after = steps.get(served.len()).copied().unwrap_or_default();
    assert!(
        after.starts_with("the route"),
        "the step after the last layer must be the route, not: {after}"
    );
}

#[tokio::test]
async fn the_http_module_lists_its_middleware_in_the_served_order() {
    let served = served_middleware().await;

    let source = repository_text("shared/infra/src/http.rs");
    let bullets: Vec<&str> = source
        .split("\n//! - ")
        .skip(1)
        .map(|bullet| {
            // A bullet goes on over its indented `//!   ` lines.
            let end = bullet
                .match_indices('\n')
                .find(|(at, _)| !bullet[at + 1..].starts_with("//!   "))
                .map_or(bullet.len(), |(at, _)| at);
            &bullet[..end]
        })
        .collect();
    assert!(
        bullets.len() >= 4,
        "the note lists {} middleware",
        bullets.len()
    );
    let positions: Vec<usize> = bullets
        .iter()
        .map(|bullet| {
            let named: Vec<usize> = (0..served.len())
                .filter(|&index| bullet.contains(&format!("`{}`", served[index])))
                .collect();
            assert_eq!(
                named.len(),
                1,
                "each bullet names one served layer ({served:?}): {bullet}"
            );
            named[0]
        })
        .collect();

    assert!(
        positions.windows(2).all(|pair| pair[0] < pair[1]),
        "infra::http's note lists its middleware out of the served order {served:?}: {bullets:#?}"
    );
}
