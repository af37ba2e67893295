//! The crate graph enforces the architecture: modules depend on `shared/` crates only, never on
//! each other, nothing in `shared/` depends on a module or the host, and poem-idempotency
//! depends on no workspace crate but its macros.

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
