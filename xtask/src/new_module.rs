//! `cargo xtask new-module <name> --entity <Entity>`: a new entity module, stamped from
//! `modules/things` (the worked example, built on `shared/crud`), wired into the host, with its
//! end-to-end tests, its settings section, and the document and README inventory regenerated.
//!
//! The copy is a renaming: `things` becomes `<name>`, `Things` its PascalCase, `Thing` the
//! entity, `thing` the entity in snake_case (a lower-case `thing` only where a word starts, so
//! "nothing" stays "nothing"). The entity has the worked example's fields (`name`,
//! `description`), and one more for each `--field <name:type>` ([`Field`]): each goes wherever
//! `description` goes (the model, what clients send, the merge patch, the SQL, the first
//! migration), and the module's end-to-end tests get tests of them.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};

use crate::names;

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
        if name == "things" || entity == "Thing" {
            bail!("things is the worked example itself; choose another name");
        }
        Self::of_module(name, entity)
    }

    /// The names of a module that exists (the worked example among them).
    fn of_module(name: &str, entity: &str) -> anyhow::Result<Self> {
        if !names::is_lower_words(name, '_') {
            bail!(
                "`{name}`: a module name is {}, e.g. `orders`",
                names::rule('_')
            );
        }
        let entity_ok = entity.starts_with(|c: char| c.is_ascii_uppercase())
            && entity.chars().all(|c| c.is_ascii_alphanumeric());
        if !entity_ok {
            bail!("`{entity}`: an entity name is PascalCase, e.g. `Order`");
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
        // The crate's name, and the entity's local variables (`let order = ...`).
        if let Some(keyword) = [name, entity_snake.as_str()]
            .into_iter()
            .find(|word| RUST_KEYWORDS.contains(word))
        {
            bail!("`{keyword}` is a Rust keyword: it cannot name a crate or a variable");
        }
        Ok(Self {
            name: name.to_owned(),
            plural_pascal,
            entity: entity.to_owned(),
            entity_snake,
        })
    }

    /// Whether "a thing" becomes "an <entity>": before a, e, i or o (a rule of thumb: "an
    /// order", "an item", "a user"; "a umbrella" or "an one-off" need a hand edit).
    fn takes_an(&self) -> bool {
        self.entity_snake.starts_with(['a', 'e', 'i', 'o'])
    }

    /// `text` with the worked example's names replaced by this module's.
    pub fn rename(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        let mut previous: Option<char> = None;
        while let Some(c) = rest.chars().next() {
            let at_word_start = !previous.is_some_and(|p| p.is_ascii_alphabetic());
            let before_entity = at_word_start
                && (rest.starts_with("a ") || rest.starts_with("A ") || rest.starts_with("a_"))
                && (rest[2..].starts_with("thing") || rest[2..].starts_with("Thing"));
            let (replacement, length) = if before_entity && self.takes_an() {
                let article = match &rest[..2] {
                    "a_" => "an_",
                    "A " => "An ",
                    _ => "an ",
                };
                (Some(article), 2)
            } else if rest.starts_with("Things") {
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

/// Creates and wires the module, with `fields` beyond the worked example's, in the workspace at
/// `root`.
pub fn new_module(root: &Path, module: &ModuleName, fields: &[Field]) -> anyhow::Result<()> {
    let target = root.join("modules").join(&module.name);
    if target.exists() {
        bail!("modules/{} exists already", module.name);
    }
    let tests = root.join("tests/e2e");
    let test_file = tests.join(format!("{}.rs", module.name));
    // The new files are all made before any is written: a worked example that the fields do not
    // fit into leaves nothing half made.
    let mut files = Vec::new();
    renamed_files(module, &root.join("modules/things"), &target, &mut files)?;
    let mut test_text = module.rename(&read(&tests.join("things.rs"))?);
    if !fields.is_empty() {
        let added = AddedFields { module, fields };
        added.apply(&mut files, &target)?;
        test_text = added
            .to_tests(&test_text)
            .context("adding tests of the fields to the copy of tests/e2e/things.rs")?;
    }
    for (path, text) in &files {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        write_new(path, text)?;
    }
    write_new(&test_file, &test_text)?;
    let crash_tests = root.join("tests/crash");
    let crash_file = crash_tests.join(format!("{}.rs", module.name));
    write_new(
        &crash_file,
        &module.rename(&read(&crash_tests.join("things.rs"))?),
    )?;
    let mut rust_files: Vec<PathBuf> = files
        .iter()
        .map(|(path, _)| path.clone())
        .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
        .collect();
    rust_files.push(test_file);
    rust_files.push(crash_file);
    format(root, &rust_files);
    edit(&tests.join("main.rs"), |text| {
        insert_mod(text, &module.name)
    })?;
    edit(&crash_tests.join("main.rs"), |text| {
        let with_mod = insert_mod(text, &module.name)?;
        insert_before_first(
            &with_mod,
            "].concat()",
            &format!(", {}::TESTS", module.name),
        )
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
        let text = insert_above_marker(
            text,
            "// cargo xtask new-module: API types",
            &format!("<{module_type} as Module>::Api,"),
        )?;
        let text = insert_above_marker(
            &text,
            "// cargo xtask new-module: mounts",
            &format!(
                "let {} = mount::<{module_type}>(context).await?;",
                module.name
            ),
        )?;
        insert_above_marker(
            &text,
            "// cargo xtask new-module: APIs",
            &format!("{},", module.name),
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

/// Adds `fields` to `modules/<name>`, an entity module made from the worked example, on a
/// database that may be live: its model and repository get them where the markers say (as
/// [`new_module`] does), a new migration adds their columns (a database never reads again a
/// migration it ran), and `tests/e2e/<name>.rs` gets tests of them; then the document, the
/// inventory and the client are made again.
pub fn add_fields(root: &Path, name: &str, fields: &[Field]) -> anyhow::Result<()> {
    let files = fields_added(root, name, fields)?;
    for (path, text) in &files {
        std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    let rust_files: Vec<PathBuf> = files
        .iter()
        .map(|(path, _)| path.clone())
        .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
        .collect();
    format(root, &rust_files);
    regenerate_documents(root)
}

/// [`add_fields`]' files, made before any is written: the module's model and repository, its new
/// migration and its tests, each with its path.
fn fields_added(
    root: &Path,
    name: &str,
    fields: &[Field],
) -> anyhow::Result<Vec<(PathBuf, String)>> {
    let dir = root.join("modules").join(name);
    let model_path = dir.join("src/model.rs");
    let model = read(&model_path).with_context(|| {
        format!("modules/{name} is not an entity module made with `cargo xtask new-module`")
    })?;
    // The entity is what clients send to create one: `pub struct OrderInput`.
    let entity = model
        .split("pub struct ")
        .skip(1)
        .find_map(|rest| {
            rest.split_once("Input ")
                .map(|(entity, _)| entity.to_owned())
        })
        .with_context(|| {
            format!("modules/{name}/src/model.rs has no `pub struct <Entity>Input`")
        })?;
    let module = ModuleName::of_module(name, &entity)?;
    for field in fields {
        if model.contains(&format!("pub {}:", field.name)) {
            bail!("{entity} has a field `{}` already", field.name);
        }
    }
    let repository_path = dir.join("src/repository.rs");
    let mut files = vec![
        (model_path, model),
        (repository_path.clone(), read(&repository_path)?),
    ];
    let added = AddedFields {
        module: &module,
        fields,
    };
    added.apply_to(&mut files, &dir, &["src/model.rs", "src/repository.rs"])?;
    files.push(new_migration(&dir.join("migrations"), fields)?);
    let tests_path = root.join("tests/e2e").join(format!("{name}.rs"));
    let names: Vec<&str> = fields.iter().map(|field| field.name.as_str()).collect();
    let tests = added
        .to_tests_named(
            &read(&tests_path)?,
            &format!("_{}", names.join("_")),
            "add-field",
        )
        .with_context(|| format!("adding tests of the fields to {}", tests_path.display()))?;
    files.push((tests_path, tests));
    Ok(files)
}

/// The migration that adds `fields`' columns to the table the module's first migration made:
/// the next version, named after what it does.
fn new_migration(folder: &Path, fields: &[Field]) -> anyhow::Result<(PathBuf, String)> {
    let mut versions = Vec::new();
    let mut table = None;
    for entry in
        std::fs::read_dir(folder).with_context(|| format!("reading {}", folder.display()))?
    {
        let path = entry?.path();
        let file = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if let Some(version) = file.split('_').next().and_then(|n| n.parse::<u32>().ok()) {
            versions.push(version);
        }
        let text = read(&path)?;
        if text.contains(marker::COLUMN) {
            table = text
                .split_once("CREATE TABLE ")
                .and_then(|(_, rest)| rest.split_whitespace().next())
                .map(str::to_owned);
        }
    }
    let table = table.with_context(|| {
        format!(
            "no migration in {} creates the table with the marker `{}`",
            folder.display(),
            marker::COLUMN
        )
    })?;
    let next = versions.into_iter().max().unwrap_or(0) + 1;
    let names: Vec<&str> = fields.iter().map(|field| field.name.as_str()).collect();
    let path = folder.join(format!(
        "{next:04}_add_{}_to_{table}.sql",
        names.join("_and_")
    ));
    let mut sql = "-- Added by `cargo xtask add-field`: nullable columns, so rows written before \
                   have no value.\n-- (SQLite adds one column per statement.)\n"
        .to_owned();
    for field in fields {
        sql += &format!(
            "ALTER TABLE {table} ADD COLUMN {} {};\n",
            field.column(),
            field.kind.sql()
        );
    }
    Ok((path, sql))
}

/// The committed OpenAPI document, the README's intent inventory and the typed client, from the
/// code as it now is.
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
    let client = Command::new(&cargo)
        .current_dir(root)
        .args(["run", "-q", "-p", "api-client", "--features", "generate"])
        .args(["--bin", "generate-client"])
        .output()
        .context("running the client's generator")?;
    if !client.status.success() {
        bail!(
            "writing the typed client failed:\n{}",
            String::from_utf8_lossy(&client.stderr)
        );
    }
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

/// Every file under `from`, renamed, as it goes under `to`.
fn renamed_files(
    module: &ModuleName,
    from: &Path,
    to: &Path,
    files: &mut Vec<(PathBuf, String)>,
) -> anyhow::Result<()> {
    let mut entries = std::fs::read_dir(from)?.collect::<Result<Vec<_>, _>>()?;
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let name = module.rename(&entry.file_name().to_string_lossy());
        if entry.file_type()?.is_dir() {
            renamed_files(module, &entry.path(), &to.join(name), files)?;
        } else {
            files.push((to.join(name), module.rename(&read(&entry.path())?)));
        }
    }
    Ok(())
}

/// Formats the generated Rust `files` as `cargo fmt` would: renaming changes the length of
/// names, and with them where rustfmt breaks lines. Without rustfmt, says so and goes on.
/// (`cargo xtask rename` formats what it renamed the same way.)
pub fn format(root: &Path, files: &[PathBuf]) {
    let edition = read(&root.join("Cargo.toml"))
        .ok()
        .and_then(|manifest| {
            manifest.lines().find_map(|line| {
                line.trim()
                    .strip_prefix("edition = \"")
                    .and_then(|rest| rest.strip_suffix('"'))
                    .map(str::to_owned)
            })
        })
        .unwrap_or_else(|| "2024".to_owned());
    let formatted = Command::new("rustfmt")
        .current_dir(root)
        .args(["--edition", &edition])
        .args(files)
        .status();
    if !formatted.is_ok_and(|status| status.success()) {
        eprintln!("warning: rustfmt did not format the new files; run `cargo fmt --all`");
    }
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

/// `text` with `mod <name>;` among its `mod` lines, where rustfmt's order puts it.
fn insert_mod(text: &str, name: &str) -> anyhow::Result<String> {
    let line = format!("mod {name};\n");
    let mods = || text.lines().filter(|line| line.starts_with("mod "));
    let name_of = |line: &str| {
        line["mod ".len()..]
            .trim_end()
            .trim_end_matches(';')
            .to_owned()
    };
    match mods().find(|existing| name_of(existing).as_str() > name) {
        Some(next) => {
            let at = text.find(&format!("\n{next}\n")).context("no mod line")? + 1;
            Ok(format!("{}{line}{}", &text[..at], &text[at..]))
        }
        None => {
            let last = mods().next_back().context("no line starting `mod `")?;
            insert_after_line(text, last, &line)
        }
    }
}

/// `text` with `line` inserted above the line holding `marker`, indented as that line is. The
/// markers are the generator's visible contract: it fails naming one that is missing.
fn insert_above_marker(text: &str, marker: &str, line: &str) -> anyhow::Result<String> {
    let at = marker_at(text, marker, 0)?;
    Ok(above(text, at, &format!("{line}\n")))
}

/// Where the first line holding `marker` at or after `from` starts, or an error naming it.
fn marker_at(text: &str, marker: &str, from: usize) -> anyhow::Result<usize> {
    let at = text[from..]
        .find(marker)
        .map(|offset| from + offset)
        .with_context(|| {
            format!("the marker `{marker}` is missing: put it back where new lines go")
        })?;
    Ok(text[..at].rfind('\n').map_or(0, |newline| newline + 1))
}

/// `text` with `lines` (each ending in a newline) above the line starting at `line_start`, each
/// indented as that line is.
fn above(text: &str, line_start: usize, lines: &str) -> String {
    let indent: String = text[line_start..]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    let indented: String = lines
        .lines()
        .map(|line| format!("{indent}{line}\n"))
        .collect();
    format!("{}{indented}{}", &text[..line_start], &text[line_start..])
}

/// The inside of the first string literal after `at` (below the marker `marker`).
fn literal_after(text: &str, at: usize, marker: &str) -> anyhow::Result<(usize, usize)> {
    let start = text[at..]
        .find('"')
        .map(|offset| at + offset + 1)
        .with_context(|| format!("no string literal below the marker `{marker}`"))?;
    let end = text[start..]
        .find('"')
        .map(|offset| start + offset)
        .with_context(|| format!("an unclosed string literal below the marker `{marker}`"))?;
    Ok((start, end))
}

fn insert_before_first(text: &str, marker: &str, insert: &str) -> anyhow::Result<String> {
    let at = text
        .find(marker)
        .with_context(|| format!("no `{}`", marker.trim()))?;
    Ok(format!("{}{insert}{}", &text[..at], &text[at..]))
}

/// The types a `--field` can have: few, each read and written alike on SQLite and PostgreSQL
/// through sqlx's `Any` driver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldType {
    String,
    Int,
    Float,
    Bool,
    Datetime,
}

impl FieldType {
    /// Every type: its name in `--field`, and what it is in JSON, Rust and SQL (for `--help`).
    pub const ALL: &[(&str, Self, &str)] = &[
        (
            "string",
            Self::String,
            "text, up to 2000 characters: Option<String> (in: Option<StrictString>), TEXT",
        ),
        ("int", Self::Int, "a 64-bit integer: Option<i64>, BIGINT"),
        (
            "float",
            Self::Float,
            "a 64-bit floating-point number: Option<f64>, DOUBLE PRECISION",
        ),
        (
            "bool",
            Self::Bool,
            "true or false: Option<bool>, BOOLEAN (read as 0 or 1 from SQLite)",
        ),
        (
            "datetime",
            Self::Datetime,
            "an RFC 3339 time, kept to the millisecond and shown in UTC: \
             Option<Timestamp>, BIGINT Unix milliseconds in `<name>_ms`",
        ),
    ];

    fn parse(name: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .find(|(known, _, _)| *known == name)
            .map(|(_, kind, _)| *kind)
    }

    fn names() -> String {
        Self::ALL
            .iter()
            .map(|(name, _, _)| *name)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The column's SQL type, the same word for SQLite and PostgreSQL.
    fn sql(self) -> &'static str {
        match self {
            Self::String => "TEXT",
            Self::Int | Self::Datetime => "BIGINT",
            Self::Float => "DOUBLE PRECISION",
            Self::Bool => "BOOLEAN",
        }
    }

    /// The Rust type of the value, as shown and as checked.
    fn rust(self) -> &'static str {
        match self {
            Self::String => "String",
            Self::Int => "i64",
            Self::Float => "f64",
            Self::Bool => "bool",
            Self::Datetime => "Timestamp",
        }
    }

    /// The Rust type clients send.
    fn input(self) -> &'static str {
        match self {
            Self::String => "StrictString",
            other => other.rust(),
        }
    }

    /// The `#[oai(...)]` of an input: nullable, and checked as `description` is.
    fn input_attribute(self) -> &'static str {
        match self {
            Self::String => "#[oai(nullable, validator(max_length = 2000))]",
            _ => "#[oai(nullable)]",
        }
    }

    /// What a value is, for the documentation comments (the OpenAPI text).
    fn what(self) -> &'static str {
        match self {
            Self::String => "text, up to 2000 characters",
            Self::Int => "a whole number, 64-bit",
            Self::Float => "a number, 64-bit floating point",
            Self::Bool => "`true` or `false`",
            Self::Datetime => "an RFC 3339 time, to the millisecond, shown in UTC",
        }
    }

    /// Two JSON values the end-to-end tests write and read back: on create, then on patch.
    fn samples(self) -> [&'static str; 2] {
        match self {
            Self::String => ["\"first\"", "\"second\""],
            // The largest BIGINT.
            Self::Int => ["i64::MAX", "-1"],
            // 0.1, which a 32-bit float would not give back as it was.
            Self::Float => ["0.1", "-2.5"],
            // `false`, which must come back as `false`, not as an absent field.
            Self::Bool => ["true", "false"],
            // Another offset than UTC, and a time before 1970 (negative milliseconds).
            Self::Datetime => [
                "\"2027-01-02T03:04:05.678+02:00\"",
                "\"1969-12-31T23:59:59.999Z\"",
            ],
        }
    }

    /// A JSON value of another type, which a create must refuse.
    fn wrong_sample(self) -> &'static str {
        match self {
            Self::String => "12",
            Self::Int => "2.5",
            Self::Float => "\"1.5\"",
            Self::Bool => "\"yes\"",
            Self::Datetime => "\"tomorrow\"",
        }
    }
}

/// The columns and JSON names every entity has already.
const ENTITY_NAMES: &[&str] = &[
    "id",
    "owner_id",
    "name",
    "description",
    "version",
    "created_at",
    "created_at_ms",
    "updated_at",
    "updated_at_ms",
];

/// Rust keywords (strict, reserved, and `gen` of the 2024 edition): not a field's name.
const RUST_KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate",
    "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl",
    "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
    "return", "self", "static", "struct", "super", "trait", "true", "try", "type", "typeof",
    "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Words SQLite or PostgreSQL refuse as a bare column name (PostgreSQL's reserved keywords,
/// SQLite's keywords that never fall back to a name), and PostgreSQL's system columns.
const SQL_KEYWORDS: &[&str] = &[
    "add",
    "all",
    "alter",
    "analyse",
    "analyze",
    "and",
    "any",
    "array",
    "as",
    "asc",
    "asymmetric",
    "authorization",
    "autoincrement",
    "between",
    "binary",
    "both",
    "case",
    "cast",
    "check",
    "cmax",
    "cmin",
    "collate",
    "collation",
    "column",
    "commit",
    "concurrently",
    "constraint",
    "create",
    "cross",
    "ctid",
    "current_catalog",
    "current_date",
    "current_role",
    "current_schema",
    "current_time",
    "current_timestamp",
    "current_user",
    "default",
    "deferrable",
    "delete",
    "desc",
    "distinct",
    "do",
    "drop",
    "else",
    "end",
    "escape",
    "except",
    "exists",
    "false",
    "fetch",
    "filter",
    "for",
    "foreign",
    "freeze",
    "from",
    "full",
    "grant",
    "group",
    "having",
    "ilike",
    "in",
    "index",
    "indexed",
    "initially",
    "inner",
    "insert",
    "intersect",
    "into",
    "is",
    "isnull",
    "join",
    "lateral",
    "leading",
    "left",
    "like",
    "limit",
    "localtime",
    "localtimestamp",
    "natural",
    "not",
    "nothing",
    "notnull",
    "null",
    "offset",
    "oid",
    "on",
    "only",
    "or",
    "order",
    "outer",
    "over",
    "overlaps",
    "placing",
    "primary",
    "references",
    "returning",
    "right",
    "rowid",
    "select",
    "session_user",
    "set",
    "similar",
    "some",
    "symmetric",
    "system_user",
    "table",
    "tablesample",
    "tableoid",
    "then",
    "to",
    "trailing",
    "transaction",
    "true",
    "union",
    "unique",
    "update",
    "user",
    "using",
    "values",
    "variadic",
    "verbose",
    "when",
    "where",
    "window",
    "with",
    "xmax",
    "xmin",
];

/// One `--field <name:type>`: an optional field the entity gets beyond the worked example's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// snake_case: the Rust field, and the column (a datetime's is `<name>_ms`).
    pub name: String,
    pub kind: FieldType,
}

impl Field {
    /// `quantity:int`, `unit_price:float`, ...
    pub fn parse(spec: &str) -> anyhow::Result<Self> {
        let Some((name, kind)) = spec.split_once(':') else {
            bail!(
                "`--field {spec}`: a field is `<name>:<type>`, e.g. `quantity:int` (types: {})",
                FieldType::names()
            );
        };
        let Some(kind) = FieldType::parse(kind) else {
            bail!(
                "`--field {spec}`: `{kind}` is not a field type; the types are {}",
                FieldType::names()
            );
        };
        if !names::is_lower_words(name, '_') {
            bail!(
                "`--field {spec}`: a field name is snake_case: {} (e.g. `unit_price`)",
                names::rule('_')
            );
        }
        let field = Self {
            name: name.to_owned(),
            kind,
        };
        let column = field.column();
        if let Some(taken) = [name, column.as_str()]
            .into_iter()
            .find(|word| ENTITY_NAMES.contains(word))
        {
            bail!(
                "`--field {spec}`: every entity has `{taken}` already (its fields are {}); \
                 choose another name",
                ENTITY_NAMES.join(", ")
            );
        }
        if RUST_KEYWORDS.contains(&name) {
            bail!("`--field {spec}`: `{name}` is a Rust keyword; choose another name");
        }
        if let Some(keyword) = [name, column.as_str()]
            .into_iter()
            .find(|word| SQL_KEYWORDS.contains(word))
        {
            bail!(
                "`--field {spec}`: `{keyword}` is an SQL keyword (SQLite or PostgreSQL) or a \
                 PostgreSQL system column; choose another name"
            );
        }
        Ok(field)
    }

    /// Every field of `specs`, refusing two that would share a name or a column.
    pub fn parse_all<'a>(specs: impl IntoIterator<Item = &'a str>) -> anyhow::Result<Vec<Self>> {
        let mut fields: Vec<Self> = Vec::new();
        for spec in specs {
            let field = Self::parse(spec)?;
            let names = |field: &Self| [field.name.clone(), field.column()];
            if let Some(other) = fields.iter().find(|other| {
                names(other)
                    .iter()
                    .any(|taken| names(&field).contains(taken))
            }) {
                bail!(
                    "`--field {spec}`: `{}` ({}) is there already; each field needs its own \
                     name and column",
                    other.name,
                    other.column()
                );
            }
            fields.push(field);
        }
        Ok(fields)
    }

    /// The JSON name (the model's `rename_all = "camelCase"`): `unit_price` is `unitPrice`.
    pub fn json_name(&self) -> String {
        let mut json = String::with_capacity(self.name.len());
        let mut capitalize = false;
        for c in self.name.chars() {
            if c == '_' {
                capitalize = true;
            } else if capitalize {
                json.push(c.to_ascii_uppercase());
                capitalize = false;
            } else {
                json.push(c);
            }
        }
        json
    }

    /// The column: the name, but `<name>_ms` for a datetime (Unix milliseconds, as
    /// `created_at_ms`).
    pub fn column(&self) -> String {
        match self.kind {
            FieldType::Datetime => format!("{}_ms", self.name),
            _ => self.name.clone(),
        }
    }

    /// How the column is read in `thing_columns!`.
    fn select(&self) -> String {
        match self.kind {
            FieldType::Bool => format!("CAST({0} AS INTEGER) AS {0}", self.name),
            _ => self.column(),
        }
    }

    /// The expression that binds this field of `value` (a `ThingFields`, where the field is an
    /// `Option<_>`).
    fn bind(&self, value: &str) -> String {
        let name = &self.name;
        match self.kind {
            FieldType::String => format!("&{value}.{name}"),
            FieldType::Datetime => format!("{value}.{name}.map(kernel::Timestamp::unix_ms)"),
            _ => format!("{value}.{name}"),
        }
    }

    /// The `#[sqlx(...)]` that reads the field's column into the entity, if it needs one.
    fn read_attribute(&self) -> Option<String> {
        match self.kind {
            FieldType::Datetime => Some(format!(
                "#[sqlx(rename = \"{}\", try_from = \"infra::database::OptionalUnixMs\")]",
                self.column()
            )),
            FieldType::Bool => {
                Some("#[sqlx(try_from = \"infra::database::OptionalFlag\")]".to_owned())
            }
            _ => None,
        }
    }
}

/// The places in the worked example where a `--field` goes, each marked by a line of its own
/// (`// cargo xtask new-module: <place>`, `--` in SQL). They are the generator's whole contract
/// with `modules/things` (ADR 0015): whitespace, line breaks and the order of other lines may
/// change freely; a marker that is missing is an error naming it.
pub mod marker {
    pub const SHOWN: &str = "// cargo xtask new-module: a field as shown";
    pub const SENT: &str = "// cargo xtask new-module: a field as sent";
    pub const CHECKED: &str = "// cargo xtask new-module: a field as checked";
    pub const CHECKING: &str = "// cargo xtask new-module: checking a field";
    pub const IN_A_PATCH: &str = "// cargo xtask new-module: a field in a patch";
    pub const CHANGE: &str = "// cargo xtask new-module: a field's change";
    pub const CHECKING_CHANGE: &str = "// cargo xtask new-module: checking a field's change";
    /// Above the macro literal every `SELECT` and `RETURNING` reads: the column goes at its end.
    pub const READ: &str = "// cargo xtask new-module: each field's column, read";
    /// Above each statement that writes the fields: the column goes after `description`, its
    /// placeholder after the statement's last.
    pub const WRITTEN: &str = "// cargo xtask new-module: each field's column, written";
    /// In the chain that binds the values of the statement above.
    pub const BOUND: &str = "// cargo xtask new-module: each field's value, bound";
    /// In the migration that creates the table.
    pub const COLUMN: &str = "-- cargo xtask new-module: each field's column";
}

/// The `--field`s, added to a fresh copy of the worked example: each goes where a marker
/// ([`marker`]) says. A test runs this on `modules/things` reformatted, so the contract is the
/// markers and nothing else.
struct AddedFields<'a> {
    module: &'a ModuleName,
    fields: &'a [Field],
}

/// What a statement below [`marker::WRITTEN`] does with the fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Write {
    Insert,
    Replace,
    Patch,
}

impl AddedFields<'_> {
    /// Adds the fields to the copy of the module's `files` (under `root`): to its model, its
    /// repository and the migration that creates its table.
    fn apply(&self, files: &mut [(PathBuf, String)], root: &Path) -> anyhow::Result<()> {
        self.apply_to(
            files,
            root,
            &["src/model.rs", "src/repository.rs", "migrations/"],
        )
    }

    /// [`Self::apply`] to `places` only (a live module's migrations are never edited: its
    /// fields come in a new one, see [`add_fields`]).
    fn apply_to(
        &self,
        files: &mut [(PathBuf, String)],
        root: &Path,
        places: &[&str],
    ) -> anyhow::Result<()> {
        for &place in places {
            let file = files.iter_mut().find(|(path, text)| {
                let relative = path.strip_prefix(root).unwrap_or(path);
                let relative = relative.to_string_lossy().replace('\\', "/");
                relative == place
                    || (place.ends_with('/')
                        && relative.starts_with(place)
                        && text.contains(marker::COLUMN))
            });
            let Some((path, text)) = file else {
                bail!(
                    "the copy of modules/things has no {place} (for a migration: one with the \
                     marker `{}`) to add the fields to",
                    marker::COLUMN
                );
            };
            let added = match place {
                "src/model.rs" => self.to_model(text),
                "src/repository.rs" => self.to_repository(text),
                _ => self.to_migration(text),
            };
            *text = added.with_context(|| {
                format!(
                    "adding the fields to {}, made from modules/things",
                    path.display()
                )
            })?;
        }
        Ok(())
    }

    /// One piece per field, each made by `piece`.
    fn per_field(&self, piece: impl Fn(&Field) -> String) -> String {
        self.fields.iter().map(piece).collect()
    }

    fn to_model(&self, text: &str) -> anyhow::Result<String> {
        let shown = self.per_field(|field| {
            let read = field
                .read_attribute()
                .map(|attribute| format!("{attribute}\n"))
                .unwrap_or_default();
            format!(
                "/// Optional: {}; absent when there is none.\n\
                 #[oai(skip_serializing_if_is_none)]\n{read}pub {}: Option<{}>,\n",
                field.kind.what(),
                field.name,
                field.kind.rust()
            )
        });
        let sent = self.per_field(|field| {
            format!(
                "/// Optional: {}; absent or `null` for none.\n{}\npub {}: Option<{}>,\n",
                field.kind.what(),
                field.kind.input_attribute(),
                field.name,
                field.kind.input()
            )
        });
        let checked =
            self.per_field(|field| format!("pub {}: Option<{}>,\n", field.name, field.kind.rust()));
        let checking = self.per_field(|field| {
            let name = &field.name;
            match field.kind {
                FieldType::String => {
                    format!("{name}: self.{name}.as_deref().map(str::to_owned),\n")
                }
                _ => format!("{name}: self.{name},\n"),
            }
        });
        let in_a_patch = self.per_field(|field| {
            format!(
                "/// A new value, or `null` to remove it: {}.\n{}\npub {}: MaybeUndefined<{}>,\n",
                field.kind.what(),
                field.kind.input_attribute(),
                field.name,
                field.kind.input()
            )
        });
        let change = self.per_field(|field| {
            format!(
                "pub {}: Option<Option<{}>>,\n",
                field.name,
                field.kind.rust()
            )
        });
        let checking_change = self.per_field(|field| {
            let name = &field.name;
            match field.kind {
                FieldType::String => format!(
                    "{name}: self.{name}.as_opt_deref().map(|text| text.map(str::to_owned)),\n"
                ),
                _ => format!("{name}: self.{name}.as_opt_ref().map(|value| value.copied()),\n"),
            }
        });
        let mut text = text.to_owned();
        for (place, lines) in [
            (marker::SHOWN, shown),
            (marker::SENT, sent),
            (marker::CHECKED, checked),
            (marker::CHECKING, checking),
            (marker::IN_A_PATCH, in_a_patch),
            (marker::CHANGE, change),
            (marker::CHECKING_CHANGE, checking_change),
        ] {
            let at = marker_at(&text, place, 0)?;
            text = above(&text, at, &lines);
        }
        Ok(text)
    }

    fn to_repository(&self, text: &str) -> anyhow::Result<String> {
        let mut text = text.to_owned();
        let read = self.per_field(|field| format!(", {}", field.select()));
        let at = marker_at(&text, marker::READ, 0)?;
        let (_, end) = literal_after(&text, at, marker::READ)?;
        text.insert_str(end, &read);

        let mut from = 0;
        let mut statements = 0;
        while let Some(offset) = text[from..].find(marker::WRITTEN) {
            let at = from + offset;
            let (start, end) = literal_after(&text, at, marker::WRITTEN)?;
            let (statement, write) = self.to_statement(&text[start..end])?;
            text.replace_range(start..end, &statement);
            let end = start + statement.len();
            let bound = marker_at(&text, marker::BOUND, end)?;
            if text[end..bound].contains(marker::WRITTEN) {
                bail!(
                    "the marker `{}` is missing below a statement that writes the fields",
                    marker::BOUND
                );
            }
            let binds = self.per_field(|field| match write {
                Write::Insert | Write::Replace => format!(".bind({})\n", field.bind("fields")),
                Write::Patch => {
                    let name = &field.name;
                    let new = match field.kind {
                        FieldType::String => format!("changes.{name}.clone().flatten()"),
                        FieldType::Datetime => {
                            format!("changes.{name}.flatten().map(kernel::Timestamp::unix_ms)")
                        }
                        _ => format!("changes.{name}.flatten()"),
                    };
                    format!(".bind(changes.{name}.is_some())\n.bind({new})\n")
                }
            });
            text = above(&text, bound, &binds);
            from = marker_at(&text, marker::BOUND, bound)? + 1;
            from += text[from..].find('\n').unwrap_or(text.len() - from);
            statements += 1;
        }
        if statements == 0 {
            bail!(
                "the marker `{}` is missing: put it above each statement that writes the fields",
                marker::WRITTEN
            );
        }
        Ok(text)
    }

    /// `statement` (an `INSERT`, or an `UPDATE` setting `description` to a value or to a `CASE`)
    /// with the fields' columns after `description` (an `INSERT`'s: at the end of its column
    /// list) and their placeholders after its last.
    fn to_statement(&self, statement: &str) -> anyhow::Result<(String, Write)> {
        let last = statement
            .split('$')
            .skip(1)
            .filter_map(|rest| {
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                digits.parse::<usize>().ok()
            })
            .max()
            .context("a statement that writes the fields has no `$n`")?;
        let mut statement = statement.to_owned();
        let columns = self.per_field(|field| format!(", {}", field.column()));
        if statement.trim_start().starts_with("INSERT") {
            let values = statement
                .find("VALUES")
                .and_then(|at| statement[at..].find(')').map(|close| at + close))
                .context("an INSERT without `VALUES (...)`")?;
            let placeholders: String = (last + 1..=last + self.fields.len())
                .map(|n| format!(", ${n}"))
                .collect();
            statement.insert_str(values, &placeholders);
            // At the end of the column list, as the placeholders are at the end of `VALUES`:
            // after `description` in the worked example, after the fields added before in a
            // module that has some (`add-field`).
            let columns_end = statement
                .find('(')
                .and_then(|open| statement[open..].find(')').map(|close| open + close))
                .filter(|end| statement[..*end].contains("description"))
                .context("an INSERT without a `description` column")?;
            statement.insert_str(columns_end, &columns);
            return Ok((statement, Write::Insert));
        }
        if let Some(at) = statement.find("ELSE description END") {
            let set: String = self
                .fields
                .iter()
                .zip((last + 1..).step_by(2))
                .map(|(field, n)| {
                    let column = field.column();
                    format!(
                        ", {column} = CASE WHEN ${n} THEN ${} ELSE {column} END",
                        n + 1
                    )
                })
                .collect();
            statement.insert_str(at + "ELSE description END".len(), &set);
            return Ok((statement, Write::Patch));
        }
        let set_at = statement.find("description = $").context(
            "an UPDATE that sets no `description = $n` or `CASE ... ELSE description END`",
        )?;
        let digits = statement[set_at + "description = $".len()..]
            .chars()
            .take_while(char::is_ascii_digit)
            .count();
        let set: String = self
            .fields
            .iter()
            .zip(last + 1..)
            .map(|(field, n)| format!(", {} = ${n}", field.column()))
            .collect();
        statement.insert_str(set_at + "description = $".len() + digits, &set);
        Ok((statement, Write::Replace))
    }

    fn to_migration(&self, text: &str) -> anyhow::Result<String> {
        let columns = self.per_field(|field| format!("{} {},\n", field.column(), field.kind.sql()));
        let at = marker_at(text, marker::COLUMN, 0)?;
        Ok(above(text, at, &columns))
    }

    /// `text`, the copy of the things tests, with tests of the fields at the end.
    fn to_tests(&self, text: &str) -> anyhow::Result<String> {
        self.to_tests_named(text, "", "new-module --field")
    }

    /// [`Self::to_tests`], each test's name ending with `suffix` (so that fields added later
    /// get tests of their own beside the earlier ones), the comment naming `command`.
    fn to_tests_named(&self, text: &str, suffix: &str, command: &str) -> anyhow::Result<String> {
        for helper in [
            "async fn merge_patch(app: &TestApp, path: &str, patch: Value)",
            "fn conditional(",
            "async fn created_path(app: &TestApp, owner: &str, name: &str)",
            "async fn assert_create_refused(app: &TestApp, body: Value)",
        ] {
            if !text.contains(helper) {
                bail!("the things tests have no `{helper}`, which the tests of the fields use");
            }
        }
        let path = format!("/api/v1/{}", self.module.name);
        let entity = &self.module.entity_snake;
        let first = &self.fields[0];
        // One member a line: rustfmt leaves the inside of `json!` as it is.
        let body = |sample: usize, indent: &str| -> String {
            self.fields
                .iter()
                .map(|field| {
                    let (json, value) = (field.json_name(), field.kind.samples()[sample]);
                    format!("{indent}\"{json}\": {value},\n")
                })
                .collect()
        };
        let expect = |value: &str, sample: usize| -> String {
            self.fields
                .iter()
                .map(|field| {
                    let json = field.json_name();
                    let expected = field.kind.samples()[sample];
                    match field.kind {
                        FieldType::Datetime => format!(
                            "    assert_eq!(instant(&{value}[\"{json}\"]), instant(&json!({expected})));\n"
                        ),
                        _ => format!("    assert_eq!({value}[\"{json}\"], {expected});\n"),
                    }
                })
                .collect()
        };
        let absent: String = self
            .fields
            .iter()
            .map(|field| {
                format!(
                    "    assert!(replaced.get(\"{}\").is_none(), \"{{replaced}}\");\n",
                    field.json_name()
                )
            })
            .collect();
        let refused: String = self
            .fields
            .iter()
            .map(|field| {
                format!(
                    "    assert_create_refused(&app, json!({{ \"name\": \"lamp\", \"{}\": {} }})).await;\n",
                    field.json_name(),
                    field.kind.wrong_sample()
                )
            })
            .collect();
        let mut tests = format!(
            r#"
// The fields added by `cargo xtask {command}`: each optional, in every write.

#[tokio::test]
async fn every_added_field_is_kept_read_back_and_removed_by_a_merge_patch_with_null{suffix}() {{
    let app = TestApp::spawn().await;
    let created = app
        .send_json_as(
            "alice",
            Method::POST,
            "{path}",
            &json!({{
                "name": "lamp",
{create}            }}),
        )
        .await;
    assert_eq!(created.status(), StatusCode::CREATED);
    let path = created.headers()["location"].to_str().unwrap().to_owned();

    let read: Value = app.get_as("alice", &path).await.json().await.unwrap();
    let patched = merge_patch(&app, &path, json!({{ "{first}": null }})).await;

{read}    assert_eq!(patched.status(), StatusCode::OK);
    let patched: Value = patched.json().await.unwrap();
    assert!(patched.get("{first}").is_none(), "{{patched}}");
    assert_eq!(patched["name"], "lamp");
"#,
            create = body(0, "                "),
            first = first.json_name(),
            read = expect("read", 0),
        );
        for field in &self.fields[1..] {
            let json = field.json_name();
            tests += &format!(
                "    assert_eq!(patched[\"{json}\"], read[\"{json}\"], \"left out, left as it was\");\n"
            );
        }
        tests += &format!(
            r#"}}

#[tokio::test]
async fn a_merge_patch_sets_the_added_fields_and_a_replacement_without_them_removes_them{suffix}() {{
    let app = TestApp::spawn().await;
    let path = created_path(&app, "alice", "lamp").await;

    let patched = merge_patch(
        &app,
        &path,
        json!({{
{patch}        }}),
    )
    .await;
    let replaced = conditional(&app, Method::PUT, &path, Some("\"v2\""))
        .json(&json!({{ "name": "lamp" }}))
        .send()
        .await
        .expect("request failed");

    assert_eq!(patched.status(), StatusCode::OK);
    let patched: Value = patched.json().await.unwrap();
{patched}    assert_eq!(replaced.status(), StatusCode::OK);
    let replaced: Value = replaced.json().await.unwrap();
{absent}}}

#[tokio::test]
async fn an_added_field_of_another_json_type_is_a_400_problem_and_creates_no_{entity}{suffix}() {{
    let app = TestApp::spawn().await;

{refused}}}
"#,
            patch = body(1, "            "),
            patched = expect("patched", 1),
        );
        if self
            .fields
            .iter()
            .any(|field| field.kind == FieldType::Datetime)
            && !text.contains("fn instant(")
        {
            tests += r#"
/// The instant an RFC 3339 string names, whatever its offset.
fn instant(value: &Value) -> time::OffsetDateTime {
    let text = value.as_str().expect("a time is a string");
    time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339)
        .expect("an RFC 3339 time")
}
"#;
        }
        Ok(format!("{}\n{}", text.trim_end(), tests))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn the_article_before_the_entity_follows_its_first_letter() {
        let orders = ModuleName::new("orders", "Order").unwrap();
        let widgets = ModuleName::new("widgets", "Widget").unwrap();

        let text = "A thing is a thing, like a Thing, unlike a theme: a_thing_test.";

        assert_eq!(
            orders.rename(text),
            "An order is an order, like an Order, unlike a theme: an_order_test."
        );
        assert_eq!(
            widgets.rename(text),
            "A widget is a widget, like a Widget, unlike a theme: a_widget_test."
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
            ("type", "Kind"),
            ("matches", "Match"),
        ] {
            assert!(ModuleName::new(name, entity).is_err(), "{name} {entity}");
        }
    }

    #[test]
    fn a_field_spec_gives_the_rust_name_the_column_and_the_json_name() {
        let fields = Field::parse_all([
            "unit_price:float",
            "due_at:datetime",
            "line2_total:int",
            "urgent:bool",
            "reference:string",
        ])
        .unwrap();

        let described: Vec<(&str, FieldType, String, String)> = fields
            .iter()
            .map(|field| {
                (
                    field.name.as_str(),
                    field.kind,
                    field.column(),
                    field.json_name(),
                )
            })
            .collect();
        assert_eq!(
            described,
            [
                (
                    "unit_price",
                    FieldType::Float,
                    "unit_price".into(),
                    "unitPrice".into()
                ),
                (
                    "due_at",
                    FieldType::Datetime,
                    "due_at_ms".into(),
                    "dueAt".into()
                ),
                (
                    "line2_total",
                    FieldType::Int,
                    "line2_total".into(),
                    "line2Total".into()
                ),
                ("urgent", FieldType::Bool, "urgent".into(), "urgent".into()),
                (
                    "reference",
                    FieldType::String,
                    "reference".into(),
                    "reference".into()
                ),
            ]
        );
    }

    #[test]
    fn a_bad_field_spec_is_refused_saying_why() {
        for (spec, why) in [
            ("quantity", "`<name>:<type>`"),
            ("quantity:", "not a field type"),
            ("quantity:integer", "not a field type"),
            ("quantity:Int", "not a field type"),
            (":int", "snake_case"),
            ("Quantity:int", "snake_case"),
            ("unitPrice:float", "snake_case"),
            ("unit-price:float", "snake_case"),
            ("_price:float", "snake_case"),
            ("price_:float", "snake_case"),
            ("unit__price:float", "snake_case"),
            ("price_2:float", "snake_case"),
            ("2price:float", "snake_case"),
            ("prix_é:float", "snake_case"),
            (&format!("{}:int", "a".repeat(51)), "snake_case"),
            ("id:string", "has `id` already"),
            ("name:string", "has `name` already"),
            ("description:string", "has `description` already"),
            ("version:int", "has `version` already"),
            ("owner_id:string", "has `owner_id` already"),
            ("created_at:datetime", "has `created_at` already"),
            ("updated_at_ms:int", "has `updated_at_ms` already"),
            ("type:string", "Rust keyword"),
            ("async:bool", "Rust keyword"),
            ("gen:int", "Rust keyword"),
            ("order:int", "SQL keyword"),
            ("user:string", "SQL keyword"),
            ("limit:int", "SQL keyword"),
            ("xmin:int", "SQL keyword"),
            ("end:datetime", "SQL keyword"),
        ] {
            let error = Field::parse(spec).expect_err(spec).to_string();
            assert!(error.contains(why), "{spec}: {error}");
            assert!(error.contains(spec), "the error names the spec: {error}");
        }
    }

    #[test]
    fn two_fields_cannot_share_a_name_or_a_column() {
        for specs in [["price:float", "price:int"], ["due:datetime", "due_ms:int"]] {
            let error = Field::parse_all(specs).expect_err(specs[1]).to_string();
            assert!(error.contains("there already"), "{error}");
        }
    }

    /// The copy of the worked example (the real one, in `modules/things`) as `orders`, with
    /// `fields`: its files, and its end-to-end tests.
    fn stamped(fields: &[&str]) -> (Vec<(PathBuf, String)>, String) {
        let files = stamped_from(&workspace().join("modules/things"), fields);
        let module = ModuleName::new("orders", "Order").unwrap();
        let fields = Field::parse_all(fields.iter().copied()).unwrap();
        let added = AddedFields {
            module: &module,
            fields: &fields,
        };
        let tests = module.rename(&read(&workspace().join("tests/e2e/things.rs")).unwrap());
        (files, added.to_tests(&tests).unwrap())
    }

    fn workspace() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .unwrap()
            .to_owned()
    }

    /// The files of `example` (a copy of the worked example) stamped as `orders` with `fields`,
    /// each under its path relative to the module.
    fn stamped_from(example: &Path, fields: &[&str]) -> Vec<(PathBuf, String)> {
        let module = ModuleName::new("orders", "Order").unwrap();
        let fields = Field::parse_all(fields.iter().copied()).unwrap();
        let target = Path::new("modules/orders");
        let mut files = Vec::new();
        renamed_files(&module, example, target, &mut files).unwrap();
        AddedFields {
            module: &module,
            fields: &fields,
        }
        .apply(&mut files, target)
        .unwrap();
        files
    }

    /// `files` formatted as `cargo fmt` formats them, written under `dir` to do it.
    fn formatted(dir: &Path, files: &[(PathBuf, String)]) -> Vec<(PathBuf, String)> {
        for (path, text) in files {
            std::fs::create_dir_all(dir.join(path).parent().unwrap()).unwrap();
            std::fs::write(dir.join(path), text).unwrap();
        }
        files
            .iter()
            .map(|(path, _)| {
                if path.extension().is_some_and(|ext| ext == "rs") {
                    rustfmt(&dir.join(path), &[]);
                }
                (path.clone(), read(&dir.join(path)).unwrap())
            })
            .collect()
    }

    fn rustfmt(path: &Path, config: &[&str]) {
        let status = Command::new("rustfmt")
            .args(["--edition", "2024"])
            .args(config)
            .arg(path)
            .status()
            .expect("rustfmt runs");
        assert!(status.success(), "rustfmt {}", path.display());
    }

    /// Every file under `from`, copied under `to`.
    fn copy_tree(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            if entry.file_type().unwrap().is_dir() {
                copy_tree(&entry.path(), &to.join(entry.file_name()));
            } else {
                std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
            }
        }
    }

    #[test]
    fn a_formatting_only_change_to_the_worked_example_changes_nothing_the_generator_makes() {
        let fields = ["reference:string", "urgent:bool", "due_at:datetime"];
        let scratch = tempfile::tempdir().unwrap();
        let example = scratch.path().join("things");
        copy_tree(&workspace().join("modules/things"), &example);
        let model = example.join("src/model.rs");
        let original = read(&model).unwrap();
        let (first, second) = (
            "use crud::{EntityTag, Sort, SortField};\n",
            "use infra::database::UnixMs;\n",
        );
        assert!(
            original.contains(&format!("{first}{second}")),
            "the imports to reorder"
        );
        std::fs::write(
            &model,
            original.replace(&format!("{first}{second}"), &format!("{second}{first}")),
        )
        .unwrap();
        for file in [
            "src/model.rs",
            "src/repository.rs",
            "src/api.rs",
            "src/settings.rs",
            "src/lib.rs",
        ] {
            rustfmt(
                &example.join(file),
                &["--config", "max_width=60,reorder_imports=false"],
            );
        }
        assert_ne!(
            read(&model).unwrap(),
            original,
            "the change reformatted nothing"
        );

        let from_reformatted = stamped_from(&example, &fields);
        let from_original = stamped_from(&workspace().join("modules/things"), &fields);

        assert_eq!(
            formatted(&scratch.path().join("from-reformatted"), &from_reformatted),
            formatted(&scratch.path().join("from-original"), &from_original)
        );
    }

    fn file<'a>(files: &'a [(PathBuf, String)], suffix: &str) -> &'a str {
        files
            .iter()
            .find(|(path, _)| path.to_string_lossy().ends_with(suffix))
            .map(|(_, text)| text.as_str())
            .unwrap_or_else(|| panic!("no {suffix}"))
    }

    /// The `$n` of the SQL statement starting `statement` in `repository`, and how many values
    /// are bound to it.
    fn placeholders_and_binds(repository: &str, statement: &str) -> (Vec<usize>, usize) {
        let start = repository
            .find(statement)
            .unwrap_or_else(|| panic!("no {statement}"));
        let sql_end = start + repository[start..].find('"').unwrap();
        let mut placeholders: Vec<usize> = repository[start..sql_end]
            .split('$')
            .skip(1)
            .map(|rest| {
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                digits.parse().unwrap()
            })
            .collect();
        placeholders.sort_unstable();
        placeholders.dedup();
        let chain = &repository[sql_end..];
        let chain_end = [
            "\n        .execute(",
            "\n        .fetch_optional(",
            "\n        .fetch_one(",
        ]
        .iter()
        .filter_map(|end| chain.find(end))
        .min()
        .unwrap();
        (placeholders, chain[..chain_end].matches(".bind(").count())
    }

    #[test]
    fn every_field_goes_wherever_description_goes_in_the_worked_example() {
        let (files, tests) = stamped(&[
            "reference:string",
            "quantity:int",
            "price:float",
            "urgent:bool",
            "due_at:datetime",
        ]);

        let model = file(&files, "src/model.rs");
        for (declaration, times) in [
            ("pub reference: Option<String>,", 2),
            ("pub reference: Option<StrictString>,", 1),
            ("pub reference: MaybeUndefined<StrictString>,", 1),
            ("pub reference: Option<Option<String>>,", 1),
            ("pub quantity: Option<i64>,", 3),
            ("pub price: MaybeUndefined<f64>,", 1),
            ("pub urgent: Option<Option<bool>>,", 1),
            ("pub due_at: Option<Timestamp>,", 3),
            (
                "reference: self.reference.as_deref().map(str::to_owned),",
                1,
            ),
            (
                "urgent: self.urgent.as_opt_ref().map(|value| value.copied()),",
                1,
            ),
        ] {
            assert_eq!(model.matches(declaration).count(), times, "{declaration}");
        }
        let repository = file(&files, "src/repository.rs");
        assert!(repository.contains(
            "\"id, name, description, version, created_at_ms, updated_at_ms, reference, quantity, \
             price, CAST(urgent AS INTEGER) AS urgent, due_at_ms\""
        ));
        for (statement, count) in [
            ("INSERT INTO orders (", 10),
            (
                "UPDATE orders SET version = version + 1, updated_at_ms = $4,\n",
                11,
            ),
            (
                "UPDATE orders SET version = version + 1, updated_at_ms = $4,\n                 name = COALESCE",
                17,
            ),
        ] {
            let (placeholders, binds) = placeholders_and_binds(repository, statement);
            assert_eq!(placeholders, (1..=count).collect::<Vec<_>>(), "{statement}");
            assert_eq!(binds, count, "{statement}");
        }
        assert!(repository.contains("due_at_ms = CASE WHEN $16 THEN $17 ELSE due_at_ms END"));
        assert!(
            repository.contains(".bind(changes.due_at.flatten().map(kernel::Timestamp::unix_ms))")
        );
        assert!(model.contains(
            "#[sqlx(rename = \"due_at_ms\", try_from = \"infra::database::OptionalUnixMs\")]\n    \
             pub due_at: Option<Timestamp>,"
        ));
        assert!(model.contains(
            "#[sqlx(try_from = \"infra::database::OptionalFlag\")]\n    pub urgent: Option<bool>,"
        ));
        let migration = file(&files, "0001_create_orders.sql");
        assert!(migration.contains(
            "    description TEXT,\n    reference TEXT,\n    quantity BIGINT,\n    \
             price DOUBLE PRECISION,\n    urgent BOOLEAN,\n    due_at_ms BIGINT,\n"
        ));
        for test in [
            "async fn every_added_field_is_kept_read_back_and_removed_by_a_merge_patch_with_null()",
            "async fn a_merge_patch_sets_the_added_fields_and_a_replacement_without_them_removes_them()",
            "async fn an_added_field_of_another_json_type_is_a_400_problem_and_creates_no_order()",
            "fn instant(value: &Value) -> time::OffsetDateTime",
            "\"dueAt\": \"2027-01-02T03:04:05.678+02:00\",",
        ] {
            assert!(tests.contains(test), "{test}");
        }
    }

    #[test]
    fn without_a_datetime_field_nothing_of_time_is_added() {
        let (files, tests) = stamped(&["quantity:int"]);

        assert!(!file(&files, "src/repository.rs").contains("unix_ms"));
        assert!(!tests.contains("fn instant("));
    }

    /// A scratch workspace holding a copy of the worked example and its end-to-end tests.
    fn a_workspace_with_things() -> tempfile::TempDir {
        let copy = tempfile::tempdir().unwrap();
        copy_tree(
            &workspace().join("modules/things"),
            &copy.path().join("modules/things"),
        );
        std::fs::create_dir_all(copy.path().join("tests/e2e")).unwrap();
        std::fs::copy(
            workspace().join("tests/e2e/things.rs"),
            copy.path().join("tests/e2e/things.rs"),
        )
        .unwrap();
        copy
    }

    #[test]
    fn a_field_added_to_a_live_module_comes_in_a_new_migration_with_tests_of_its_own() {
        let copy = a_workspace_with_things();
        let first = read(
            &copy
                .path()
                .join("modules/things/migrations/0001_create_things.sql"),
        )
        .unwrap();

        let fields = Field::parse_all(["colour:string", "seen_at:datetime"]).unwrap();
        let files = fields_added(copy.path(), "things", &fields).unwrap();

        let migration = file(&files, "0003_add_colour_and_seen_at_to_things.sql");
        assert!(
            migration.contains("ALTER TABLE things ADD COLUMN colour TEXT;\n")
                && migration.contains("ALTER TABLE things ADD COLUMN seen_at_ms BIGINT;\n"),
            "{migration}"
        );
        assert!(file(&files, "src/model.rs").contains("pub colour: Option<String>"));
        assert!(file(&files, "src/repository.rs").contains("seen_at_ms"));
        let tests = file(&files, "tests/e2e/things.rs");
        assert!(tests.contains(
            "async fn every_added_field_is_kept_read_back_and_removed_by_a_merge_patch_with_null_colour_seen_at()"
        ));
        assert!(tests.contains("fn instant("));
        assert!(
            !files
                .iter()
                .any(|(path, _)| path.ends_with("0001_create_things.sql")),
            "the first migration is left as a live database ran it"
        );
        assert_eq!(
            read(
                &copy
                    .path()
                    .join("modules/things/migrations/0001_create_things.sql")
            )
            .unwrap(),
            first
        );
    }

    #[test]
    fn fields_added_twice_are_inserted_in_the_order_they_are_bound() {
        let copy = a_workspace_with_things();
        for spec in ["colour:string", "size:int"] {
            let fields = Field::parse_all([spec]).unwrap();
            for (path, text) in fields_added(copy.path(), "things", &fields).unwrap() {
                std::fs::write(path, text).unwrap();
            }
        }

        let repository = read(&copy.path().join("modules/things/src/repository.rs")).unwrap();

        assert!(
            repository.contains("name, description, colour, size)"),
            "{repository}"
        );
        let colour = repository.find(".bind(&fields.colour)").unwrap();
        let size = repository.find(".bind(fields.size)").unwrap();
        assert!(colour < size, "{repository}");
        assert!(
            copy.path()
                .join("modules/things/migrations/0004_add_size_to_things.sql")
                .exists()
        );
    }

    #[test]
    fn a_field_the_entity_has_already_is_refused() {
        let fields = Field::parse_all(["colour:string"]).unwrap();
        let copy = tempfile::tempdir().unwrap();
        copy_tree(
            &workspace().join("modules/things"),
            &copy.path().join("modules/things"),
        );
        let model = copy.path().join("modules/things/src/model.rs");
        let text = read(&model).unwrap().replacen(
            "pub struct Thing {",
            "pub struct Thing {\n    pub colour: Option<String>,",
            1,
        );
        std::fs::write(&model, text).unwrap();

        let error = fields_added(copy.path(), "things", &fields).unwrap_err();

        assert!(
            error.to_string().contains("has a field `colour` already"),
            "{error}"
        );
    }

    #[test]
    fn a_worked_example_without_a_place_for_the_fields_is_an_error_naming_it() {
        let module = ModuleName::new("orders", "Order").unwrap();
        let fields = Field::parse_all(["quantity:int"]).unwrap();
        let added = AddedFields {
            module: &module,
            fields: &fields,
        };

        let error = added
            .to_model("pub struct Order {\n    pub name: String,\n}\n")
            .unwrap_err();

        assert!(
            error
                .to_string()
                .contains("the marker `// cargo xtask new-module: a field as shown` is missing"),
            "{error}"
        );
    }

    #[test]
    fn a_line_goes_above_its_marker_indented_as_the_marker_is() {
        let text = "let apis = (\n    things,\n    // cargo xtask new-module: APIs\n);\n";

        assert_eq!(
            insert_above_marker(text, "// cargo xtask new-module: APIs", "orders,").unwrap(),
            "let apis = (\n    things,\n    orders,\n    // cargo xtask new-module: APIs\n);\n"
        );
    }

    #[test]
    fn a_missing_marker_is_an_error_naming_it() {
        let error = insert_above_marker("(things,)", "// cargo xtask new-module: APIs", "orders,")
            .unwrap_err();

        assert!(
            error
                .to_string()
                .contains("the marker `// cargo xtask new-module: APIs` is missing"),
            "{error}"
        );
    }

    #[test]
    fn a_new_mod_line_goes_where_rustfmt_sorts_it() {
        let main = "//! Tests.\n\nmod alpha;\nmod things;\n";

        assert_eq!(
            insert_mod(main, "orders").unwrap(),
            "//! Tests.\n\nmod alpha;\nmod orders;\nmod things;\n"
        );
        assert_eq!(
            insert_mod(main, "zebras").unwrap(),
            "//! Tests.\n\nmod alpha;\nmod things;\nmod zebras;\n"
        );
    }
}
