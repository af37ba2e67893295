//! `cargo xtask new-module <name> --entity <Entity>`: a new entity module, stamped from
//! `modules/things` (the worked example, built on `shared/crud`), wired into the host, with its
//! end-to-end tests, its settings section, and the document and README inventory regenerated.
//!
//! The copy is a renaming: `things` becomes `<name>`, `Things` its PascalCase, `Thing` the
//! entity, `thing` the entity in snake_case (a lower-case `thing` only where a word starts, so
//! "nothing" stays "nothing"). The entity has the worked example's fields (`name`,
//! `description`); change them in `model.rs`, `repository.rs` and a new migration.

use std::path::Path;
use std::process::Command;

use anyhow::{Context, bail};

/// The names of a new module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleName {
    /// The crate, its settings section and its path: `orders`, `purchase_orders`.
    pub name: String,
    /// `Orders`, `PurchaseOrders`.
    pub plural_pascal: String,
    /// `Order`, `PurchaseOrder`.
    pub entity: String,
    /// `order`, `purchase_order`.
    pub entity_snake: String,
}

impl ModuleName {
    pub fn new(name: &str, entity: &str) -> anyhow::Result<Self> {
        let name_ok = name.starts_with(|c: char| c.is_ascii_lowercase())
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            && !name.ends_with('_')
            && !name.contains("__");
        if !name_ok {
            bail!(
                "`{name}`: a module name takes lower-case letters, digits and single `_`, e.g. `orders`"
            );
        }
        let entity_ok = entity.starts_with(|c: char| c.is_ascii_uppercase())
            && entity.chars().all(|c| c.is_ascii_alphanumeric());
        if !entity_ok {
            bail!("`{entity}`: an entity name is PascalCase, e.g. `Order`");
        }
        if name == "things" || entity == "Thing" {
            bail!("things is the worked example itself; choose another name");
        }
        let plural_pascal = name
            .split('_')
            .map(|word| {
                let mut chars = word.chars();
                chars
                    .next()
                    .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
                    .unwrap_or_default()
            })
            .collect();
        let mut entity_snake = String::new();
        for (i, c) in entity.chars().enumerate() {
            if c.is_ascii_uppercase() && i > 0 {
                entity_snake.push('_');
            }
            entity_snake.push(c.to_ascii_lowercase());
        }
        Ok(Self {
            name: name.to_owned(),
            plural_pascal,
            entity: entity.to_owned(),
            entity_snake,
        })
    }

    /// `text` with the worked example's names replaced by this module's.
    pub fn rename(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        let mut previous: Option<char> = None;
        while let Some(c) = rest.chars().next() {
            let at_word_start = !previous.is_some_and(|p| p.is_ascii_alphabetic());
            let (replacement, length) = if rest.starts_with("Things") {
                (Some(self.plural_pascal.as_str()), 6)
            } else if rest.starts_with("Thing") {
                (Some(self.entity.as_str()), 5)
            } else if at_word_start && rest.starts_with("things") {
                (Some(self.name.as_str()), 6)
            } else if at_word_start && rest.starts_with("thing") {
                (Some(self.entity_snake.as_str()), 5)
            } else {
                (None, c.len_utf8())
            };
            match replacement {
                Some(replacement) => out.push_str(replacement),
                None => out.push(c),
            }
            previous = rest[..length].chars().last();
            rest = &rest[length..];
        }
        out
    }
}

/// Creates and wires the module in the workspace at `root`.
pub fn new_module(root: &Path, module: &ModuleName) -> anyhow::Result<()> {
    let target = root.join("modules").join(&module.name);
    if target.exists() {
        bail!("modules/{} exists already", module.name);
    }
    copy_renamed(module, &root.join("modules/things"), &target)?;
    let tests = root.join("tests/e2e");
    write_new(
        &tests.join(format!("{}.rs", module.name)),
        &module.rename(&read(&tests.join("things.rs"))?),
    )?;
    edit(&tests.join("main.rs"), |text| {
        insert_after_last(text, "mod ", &format!("mod {};\n", module.name))
    })?;
    edit(&root.join("app/Cargo.toml"), |text| {
        insert_after_line(
            text,
            "things = { path = \"../modules/things\" }",
            &format!("{0} = {{ path = \"../modules/{0}\" }}\n", module.name),
        )
    })?;
    let module_type = format!("{}::{}Module", module.name, module.plural_pascal);
    edit(&root.join("app/src/modules.rs"), |text| {
        let with_api = insert_before_first(
            text,
            "\n);",
            &format!("\n    <{module_type} as Module>::Api,"),
        )?;
        insert_before_first(
            &with_api,
            "\n    ))",
            &format!("\n        mount::<{module_type}>(context).await?,"),
        )
    })?;
    edit(&root.join("config/default.toml"), |text| {
        let section = text
            .split_once("[things]\n")
            .and_then(|(_, rest)| rest.split("\n[").next())
            .context("config/default.toml has no [things] section to copy")?;
        Ok(format!(
            "{}\n\n[{}]\n{}\n",
            text.trim_end(),
            module.name,
            module.rename(section).trim_end()
        ))
    })?;
    regenerate_documents(root)
}

/// The committed OpenAPI document and the README's intent inventory, from the code as it now is.
fn regenerate_documents(root: &Path) -> anyhow::Result<()> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let run = |task: &str| -> anyhow::Result<String> {
        let output = Command::new(&cargo)
            .current_dir(root)
            .args(["run", "-q", "-p", "app", "--", task])
            .output()
            .with_context(|| format!("running `cargo run -p app -- {task}`"))?;
        if !output.status.success() {
            bail!(
                "`cargo run -p app -- {task}` failed:\n{}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        Ok(String::from_utf8(output.stdout)?)
    };
    std::fs::write(root.join("openapi/openapi.json"), run("openapi")?)?;
    let inventory = run("intents")?;
    edit(&root.join("README.md"), |text| {
        let (before, rest) = text
            .split_once("<!-- intents:begin -->\n")
            .context("README.md has no intents:begin")?;
        let (_, after) = rest
            .split_once("<!-- intents:end -->")
            .context("README.md has no intents:end")?;
        Ok(format!(
            "{before}<!-- intents:begin -->\n{inventory}<!-- intents:end -->{after}"
        ))
    })
}

fn copy_renamed(module: &ModuleName, from: &Path, to: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let name = module.rename(&entry.file_name().to_string_lossy());
        if entry.file_type()?.is_dir() {
            copy_renamed(module, &entry.path(), &to.join(name))?;
        } else {
            write_new(&to.join(name), &module.rename(&read(&entry.path())?))?;
        }
    }
    Ok(())
}

fn read(path: &Path) -> anyhow::Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
}

fn write_new(path: &Path, text: &str) -> anyhow::Result<()> {
    if path.exists() {
        bail!("{} exists already", path.display());
    }
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

fn edit(path: &Path, change: impl FnOnce(&str) -> anyhow::Result<String>) -> anyhow::Result<()> {
    let text = read(path)?;
    let changed = change(&text).with_context(|| format!("editing {}", path.display()))?;
    std::fs::write(path, changed).with_context(|| format!("writing {}", path.display()))
}

fn insert_after_line(text: &str, line: &str, insert: &str) -> anyhow::Result<String> {
    let start = text
        .find(line)
        .with_context(|| format!("no line `{line}`"))?;
    let end = text[start..]
        .find('\n')
        .map_or(text.len(), |i| start + i + 1);
    Ok(format!("{}{insert}{}", &text[..end], &text[end..]))
}

fn insert_after_last(text: &str, prefix: &str, insert: &str) -> anyhow::Result<String> {
    let last = text
        .lines()
        .rev()
        .find(|line| line.starts_with(prefix))
        .with_context(|| format!("no line starting `{prefix}`"))?
        .to_owned();
    insert_after_line(text, &last, insert)
}

fn insert_before_first(text: &str, marker: &str, insert: &str) -> anyhow::Result<String> {
    let at = text
        .find(marker)
        .with_context(|| format!("no `{}`", marker.trim()))?;
    Ok(format!("{}{insert}{}", &text[..at], &text[at..]))
}

#[cfg(test)]
mod tests {
    use super::ModuleName;

    #[test]
    fn the_example_names_become_the_modules_and_nothing_else_does() {
        let module = ModuleName::new("purchase_orders", "PurchaseOrder").unwrap();

        let renamed = module.rename(
            "ThingsApi lists things: createThing at /api/v1/things, max_things_per_owner; \
             a thing's name; nothing, something, DO NOTHING.",
        );

        assert_eq!(
            renamed,
            "PurchaseOrdersApi lists purchase_orders: createPurchaseOrder at \
             /api/v1/purchase_orders, max_purchase_orders_per_owner; a purchase_order's name; \
             nothing, something, DO NOTHING."
        );
    }

    #[test]
    fn names_that_cannot_be_a_crate_or_a_type_are_refused() {
        for (name, entity) in [
            ("Orders", "Order"),
            ("orders-x", "Order"),
            ("orders", "order"),
            ("orders", "Or der"),
            ("things", "Order"),
            ("_orders", "Order"),
        ] {
            assert!(ModuleName::new(name, entity).is_err(), "{name} {entity}");
        }
    }
}
