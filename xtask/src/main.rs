//! The project's own tasks: `cargo xtask <task>` (an alias in `.cargo/config.toml`), so nothing
//! needs installing.
//!
//! - `rename <slug> "<Title>"`: turns a clone into your own service. The slug (`acme-orders`)
//!   names it to machines (telemetry's `service_name`, the JWT issuer and audience), the title
//!   (`Acme Orders`) to people (the OpenAPI title, the README, the sender of mails). Crate and
//!   binary names stay `app`. It reads the current names from `config/default.toml`, so it can be
//!   run again to rename once more.
//! - `new-module <name> --entity <Entity> [--field <name:type>]...`: a new entity module from
//!   the worked example, wired in, with optional fields of its own (see [`new_module`]).
//! - `add-field <module> --field <name:type>...`: fields added to an entity module on a live
//!   database: a new migration, the model and repository, tests (see [`new_module::add_fields`]).
//! - `test [<step>...]`: everything CI runs, in CI's order, after checking every tool it
//!   needs (see [`test`]).
//! - `mutants [--in-diff <ref> | --since-measured]`: cargo-mutants over poem-idempotency with its
//!   own tests (see [`mutants`]).
//! - `public-api [--bless]`: poem-idempotency's public API against its committed listing (see
//!   [`public_api`]).
//! - `simulate --seeds <N> [--from <S>]`: the guard's deterministic simulation over many seeds
//!   (see [`simulate`]).

mod compose;
mod crate_adoption;
mod mutants;
mod names;
mod new_module;
mod public_api;
mod simulate;
mod test;

use std::path::{Path, PathBuf};

use anyhow::{Context, bail, ensure};

/// Every file that holds the service's name, relative to the workspace root.
const NAMED_FILES: &[&str] = &[
    "config/default.toml",
    "README.md",
    "openapi/openapi.json",
    "clients/rust/src/generated.rs",
    "app/src/docs.rs",
    "modules/identity/src/settings.rs",
    "shared/infra/src/mail.rs",
    "shared/infra/src/settings.rs",
    "shared/testing/src/smtp.rs",
    // The idempotency crate's repository: a service made from the template releases it from
    // its own.
    "shared/poem-idempotency/Cargo.toml",
    "shared/poem-idempotency-macros/Cargo.toml",
];

fn main() -> anyhow::Result<()> {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    match arguments.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["rename", slug, title] => {
            let root = workspace_root();
            let changed = rename(&root, &Name::new(slug, title)?)?;
            let rust_files: Vec<PathBuf> = changed
                .iter()
                .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
                .cloned()
                .collect();
            if !rust_files.is_empty() {
                new_module::format(&root, &rust_files);
            }
            println!(
                "renamed to {title} ({slug}) in {} files; run `cargo test --workspace` to check",
                changed.len()
            );
            Ok(())
        }
        ["test", "--help" | "-h"] => {
            println!("{}", test::usage());
            Ok(())
        }
        ["test", ref steps @ ..] => test::run(&workspace_root(), &test::steps(steps)?),
        ["mutants", "--help" | "-h"] => {
            println!("{}", mutants::usage());
            Ok(())
        }
        ["mutants", ref options @ ..] => mutants::run(&workspace_root(), &mutants::scope(options)?),
        ["public-api", "--help" | "-h"] => {
            println!("{}", public_api::usage());
            Ok(())
        }
        ["public-api", ref options @ ..] => {
            public_api::run(&workspace_root(), public_api::mode(options)?)
        }
        ["simulate", "--help" | "-h"] => {
            println!("{}", simulate::usage());
            Ok(())
        }
        ["simulate", ref options @ ..] => {
            simulate::run(&workspace_root(), &simulate::options(options)?)
        }
        ["help" | "--help" | "-h"] | [_, "--help" | "-h"] => {
            println!("{}", usage());
            Ok(())
        }
        ["new-module", name, ref options @ ..] => {
            let (entity, fields) = new_module_options(options)?;
            let module = new_module::ModuleName::new(name, entity)?;
            let fields = new_module::Field::parse_all(fields)?;
            new_module::new_module(&workspace_root(), &module, &fields)?;
            println!(
                "modules/{name} is wired in, with tests/e2e/{name}.rs and a [{name}] section; \
                 run `cargo test --workspace`, then shape {entity} in modules/{name}/src/model.rs"
            );
            Ok(())
        }
        ["add-field", name, ref options @ ..] => {
            let specs = add_field_options(options)?;
            let fields = new_module::Field::parse_all(specs)?;
            new_module::add_fields(&workspace_root(), name, &fields)?;
            println!(
                "modules/{name} has the fields, in a new migration and its model and repository, \
                 with tests in tests/e2e/{name}.rs; run `cargo test --workspace`"
            );
            Ok(())
        }
        _ => bail!("{}", usage()),
    }
}

/// The specs of `add-field`'s `--field <name:type>`s (at least one).
fn add_field_options<'a>(options: &[&'a str]) -> anyhow::Result<Vec<&'a str>> {
    let mut fields = Vec::new();
    let mut options = options.iter();
    while let Some(option) = options.next() {
        match (*option, options.next()) {
            ("--field", Some(spec)) => fields.push(*spec),
            ("--field", None) => bail!("`--field` needs a value\n\n{}", usage()),
            _ => bail!("`{option}`: not an option of add-field\n\n{}", usage()),
        }
    }
    ensure!(
        !fields.is_empty(),
        "add-field needs a `--field <name:type>`\n\n{}",
        usage()
    );
    Ok(fields)
}

/// `--entity <Entity>` (once) and the specs of the `--field <name:type>`s, in any order.
fn new_module_options<'a>(options: &[&'a str]) -> anyhow::Result<(&'a str, Vec<&'a str>)> {
    let mut entity = None;
    let mut fields = Vec::new();
    let mut options = options.iter();
    while let Some(option) = options.next() {
        match (*option, options.next()) {
            ("--entity", Some(name)) if entity.is_none() => entity = Some(*name),
            ("--entity", Some(_)) => bail!("`--entity` is given twice\n\n{}", usage()),
            ("--field", Some(spec)) => fields.push(*spec),
            ("--entity" | "--field", None) => bail!("`{option}` needs a value\n\n{}", usage()),
            _ => bail!("`{option}`: not an option of new-module\n\n{}", usage()),
        }
    }
    let entity = entity.with_context(|| format!("new-module needs `--entity`\n\n{}", usage()))?;
    Ok((entity, fields))
}

fn usage() -> String {
    let types: String = new_module::FieldType::ALL
        .iter()
        .map(|(name, _, what)| format!("\n    {name:<9} {what}"))
        .collect();
    format!(
        "usage:\n  \
         cargo xtask rename <slug> \"<Title>\"\n      \
         e.g. rename acme-orders \"Acme Orders\"\n  \
         cargo xtask new-module <name> --entity <Entity> [--field <name:type>]...\n      \
         e.g. new-module orders --entity Order --field reference:string --field quantity:int\n  \
         cargo xtask add-field <module> --field <name:type>...\n      \
         fields added to a module on a live database: a new migration, model, repository, tests\n  \
         cargo xtask test [<step>...]\n      \
         everything CI runs, in its order (`cargo xtask test --help` lists the steps)\n  \
         cargo xtask mutants [--in-diff <git-ref> | --since-measured]\n      \
         cargo-mutants over poem-idempotency with its own tests\n  \
         cargo xtask public-api [--bless]\n      \
         poem-idempotency's public API against its listing (--bless rewrites it)\n  \
         cargo xtask simulate --seeds <N> [--from <S>] [--threads <T>] [--release]\n      \
         the guard's deterministic simulation over many seeds, with progress\n\n\
         A --field is snake_case (camelCase in JSON) and optional: a nullable column, optional \
         when\ncreating or replacing, set or removed (null) by a merge patch. Its types:{types}"
    )
}

/// The workspace this run of `cargo xtask` belongs to. Read from the environment `cargo run`
/// gives the binary, not compiled in: a build directory shared with another copy of the
/// workspace (the adopt step's) may hand this binary over from there.
fn workspace_root() -> PathBuf {
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    manifest_dir
        .parent()
        .expect("xtask/ sits in the workspace")
        .to_path_buf()
}

/// A service's names.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Name {
    /// For machines: lower-case letters, digits and `-`.
    slug: String,
    /// For people.
    title: String,
}

impl Name {
    fn new(slug: &str, title: &str) -> anyhow::Result<Self> {
        if !names::is_lower_words(slug, '-') {
            bail!("`{slug}`: a slug is {}", names::rule('-'));
        }
        let title = title.trim();
        if title.is_empty() || title.len() > 80 || title.contains(['"', '\\', '<', '>', '\n']) {
            bail!(
                "`{title}`: the title takes 1 to 80 characters, without quotes, backslashes, angle brackets or line breaks"
            );
        }
        Ok(Self {
            slug: slug.to_owned(),
            title: title.to_owned(),
        })
    }

    /// The names the workspace at `root` has now: its telemetry service name (the slug) and its
    /// identity service name (the title), from `config/default.toml`.
    fn current(root: &Path) -> anyhow::Result<Self> {
        let config = std::fs::read_to_string(root.join("config/default.toml"))
            .context("reading config/default.toml")?;
        let value_of = |section: &str| -> anyhow::Result<String> {
            let start = config
                .find(&format!("[{section}]"))
                .with_context(|| format!("config/default.toml has no [{section}]"))?;
            config[start..]
                .lines()
                .find_map(|line| line.trim().strip_prefix("service_name = \""))
                .and_then(|rest| rest.strip_suffix('"'))
                .map(str::to_owned)
                .with_context(|| format!("[{section}] has no service_name"))
        };
        Ok(Self {
            slug: value_of("telemetry")?,
            title: value_of("identity")?,
        })
    }
}

/// Renames the workspace at `root` to `new`; the files it changed.
fn rename(root: &Path, new: &Name) -> anyhow::Result<Vec<PathBuf>> {
    let old = Name::current(root)?;
    let mut changed = Vec::new();
    for relative in NAMED_FILES {
        let path = root.join(relative);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        // The slug also prefixes the audience (`<slug>-api`); the title goes first so that a
        // title containing the old slug is not rewritten twice.
        let renamed = text
            .replace(&old.title, "\u{0}TITLE\u{0}")
            .replace(&old.slug, &new.slug)
            .replace("\u{0}TITLE\u{0}", &new.title);
        if renamed != text {
            std::fs::write(&path, renamed).with_context(|| format!("writing {relative}"))?;
            changed.push(path);
        }
    }
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workspace(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (relative, text) in files {
            let path = dir.path().join(relative);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    const CONFIG: &str = "[telemetry]\nservice_name = \"idempotent-service\"\n\n[auth]\nissuer = \"idempotent-service\"\naudience = \"idempotent-service-api\"\n\n[identity]\nservice_name = \"Idempotent Service\"\n";

    #[test]
    fn every_name_in_every_named_file_changes_and_nothing_else() {
        let dir = workspace(&[
            ("config/default.toml", CONFIG),
            (
                "README.md",
                "# Idempotent Service\n\nIdempotency keys make retries safe.\n",
            ),
            (
                "app/src/docs.rs",
                "pub const TITLE: &str = \"Idempotent Service\";\n",
            ),
        ]);

        rename(
            dir.path(),
            &Name::new("acme-orders", "Acme Orders").unwrap(),
        )
        .unwrap();

        let config = std::fs::read_to_string(dir.path().join("config/default.toml")).unwrap();
        assert!(config.contains("service_name = \"acme-orders\""));
        assert!(config.contains("audience = \"acme-orders-api\""));
        assert!(config.contains("service_name = \"Acme Orders\""));
        let readme = std::fs::read_to_string(dir.path().join("README.md")).unwrap();
        assert_eq!(
            readme,
            "# Acme Orders\n\nIdempotency keys make retries safe.\n"
        );
    }

    #[test]
    fn a_renamed_workspace_can_be_renamed_again() {
        let dir = workspace(&[("config/default.toml", CONFIG)]);
        rename(
            dir.path(),
            &Name::new("acme-orders", "Acme Orders").unwrap(),
        )
        .unwrap();

        rename(
            dir.path(),
            &Name::new("acme-billing", "Acme Billing").unwrap(),
        )
        .unwrap();

        assert_eq!(
            Name::current(dir.path()).unwrap(),
            Name::new("acme-billing", "Acme Billing").unwrap()
        );
    }

    #[test]
    fn new_module_takes_its_entity_and_fields_in_any_order() {
        let (entity, fields) =
            new_module_options(&["--field", "a:int", "--entity", "Order", "--field", "b:bool"])
                .unwrap();

        assert_eq!((entity, fields), ("Order", vec!["a:int", "b:bool"]));
    }

    #[test]
    fn new_module_refuses_a_missing_entity_or_value_and_unknown_options() {
        for options in [
            &["--field", "a:int"][..],
            &["--entity", "Order", "--field"],
            &["--entity"],
            &["--entity", "Order", "--entity", "Item"],
            &["--entity", "Order", "--fields", "a:int"],
        ] {
            assert!(new_module_options(options).is_err(), "{options:?}");
        }
    }

    #[test]
    fn names_a_config_file_could_not_hold_are_refused() {
        for (slug, title) in [
            ("Acme", "Acme"),
            ("acme orders", "Acme"),
            ("1acme", "Acme"),
            ("acme", ""),
            ("acme", "Acme \"Orders\""),
            ("acme", "Acme <x>"),
        ] {
            assert!(Name::new(slug, title).is_err(), "{slug:?} {title:?}");
        }
    }
}
