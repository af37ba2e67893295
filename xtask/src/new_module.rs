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
    let at = text.find(marker).with_context(|| {
        format!("the marker `{marker}` is missing: put it back where new modules' lines go")
    })?;
    let line_start = text[..at].rfind('\n').map_or(0, |newline| newline + 1);
    let indent = &text[line_start..at];
    Ok(format!(
        "{}{indent}{line}\n{}",
        &text[..line_start],
        &text[line_start..]
    ))
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
             Option<OffsetDateTime>, BIGINT Unix milliseconds in `<name>_ms`",
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
            Self::Datetime => "OffsetDateTime",
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
        let name_ok = name.len() <= 50
            && name.split('_').all(|word| {
                word.starts_with(|c: char| c.is_ascii_lowercase())
                    && word
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
            });
        if !name_ok {
            bail!(
                "`--field {spec}`: a field name is snake_case, up to 50 characters: lower-case \
                 words of letters and digits, each starting with a letter, joined by single `_` \
                 (e.g. `unit_price`)"
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

    /// How the column is read in `COLUMNS`.
    fn select(&self) -> String {
        match self.kind {
            FieldType::Bool => format!("CAST({0} AS INTEGER) AS {0}", self.name),
            _ => self.column(),
        }
    }

    /// The expression that binds this field of `value` (the entity or its `...Fields`, where
    /// the field is an `Option<_>`).
    fn bind(&self, value: &str) -> String {
        let name = &self.name;
        match self.kind {
            FieldType::String => format!("&{value}.{name}"),
            FieldType::Datetime => format!("{value}.{name}.map(unix_ms)"),
            _ => format!("{value}.{name}"),
        }
    }

    /// The expression that copies this field of `value` (a `ThingFields`).
    fn copy(&self, value: &str) -> String {
        match self.kind {
            FieldType::String => format!("{value}.{}.clone()", self.name),
            _ => format!("{value}.{}", self.name),
        }
    }
}

/// The `--field`s, added to a fresh copy of the worked example: each goes wherever
/// `description` goes. The places are found by the worked example's own lines (renamed); a test
/// runs this on `modules/things`, so a change there that moves them fails at once.
struct AddedFields<'a> {
    module: &'a ModuleName,
    fields: &'a [Field],
}

impl AddedFields<'_> {
    /// Adds the fields to the copy of the module's `files` (under `root`): to its model, its
    /// repository and the migration that creates its table.
    fn apply(&self, files: &mut [(PathBuf, String)], root: &Path) -> anyhow::Result<()> {
        let creates_table = self.rename("CREATE TABLE things (");
        for place in ["src/model.rs", "src/repository.rs", "migrations/"] {
            let file = files.iter_mut().find(|(path, text)| {
                let relative = path.strip_prefix(root).unwrap_or(path);
                let relative = relative.to_string_lossy().replace('\\', "/");
                relative == place
                    || (place.ends_with('/')
                        && relative.starts_with(place)
                        && text.contains(&creates_table))
            });
            let Some((path, text)) = file else {
                bail!(
                    "the copy of modules/things has no {place} (for a migration: one with \
                     `CREATE TABLE things (`) to add the fields to; if the worked example changed, \
                     change xtask/src/new_module.rs with it"
                );
            };
            let added = match place {
                "src/model.rs" => self.to_model(text),
                "src/repository.rs" => self.to_repository(text),
                _ => self.to_migration(text),
            };
            *text = added.with_context(|| {
                format!(
                    "adding the fields to {}, made from modules/things: if the worked example \
                     changed, change xtask/src/new_module.rs with it",
                    path.display()
                )
            })?;
        }
        Ok(())
    }

    fn rename(&self, text: &str) -> String {
        self.module.rename(text)
    }

    /// `text` with `insert` right after `anchor` (a line of the worked example, renamed), the
    /// first one after `within` (the start of the item it belongs to, renamed).
    fn after(
        &self,
        text: &str,
        within: &str,
        anchor: &str,
        insert: &str,
    ) -> anyhow::Result<String> {
        let at = self.end_of(text, within, anchor)?;
        Ok(format!("{}{insert}{}", &text[..at], &text[at..]))
    }

    /// Where `anchor`, the first after `within`, ends in `text` (both renamed first).
    fn end_of(&self, text: &str, within: &str, anchor: &str) -> anyhow::Result<usize> {
        let (within, anchor) = (self.rename(within), self.rename(anchor));
        let start = text
            .find(&within)
            .with_context(|| format!("no `{}`", within.trim()))?;
        let offset = text[start..]
            .find(&anchor)
            .with_context(|| format!("no `{}` after `{}`", anchor.trim(), within.trim()))?;
        Ok(start + offset + anchor.len())
    }

    /// One line per field, each made by `line`.
    fn lines(&self, line: impl Fn(&Field) -> String) -> String {
        self.fields.iter().map(line).collect()
    }

    fn to_model(&self, text: &str) -> anyhow::Result<String> {
        let shown = self.lines(|field| {
            format!(
                "    /// Optional: {}; absent when there is none.\n    \
                 #[oai(skip_serializing_if_is_none)]\n    pub {}: Option<{}>,\n",
                field.kind.what(),
                field.name,
                field.kind.rust()
            )
        });
        let text = self.after(
            text,
            "pub struct Thing {",
            "    pub description: Option<String>,\n",
            &shown,
        )?;
        let input = self.lines(|field| {
            format!(
                "    /// Optional: {}; absent or `null` for none.\n    {}\n    pub {}: Option<{}>,\n",
                field.kind.what(),
                field.kind.input_attribute(),
                field.name,
                field.kind.input()
            )
        });
        let text = self.after(
            &text,
            "pub struct ThingInput {",
            "    pub description: Option<StrictString>,\n",
            &input,
        )?;
        let checked =
            self.lines(|field| format!("    pub {}: Option<{}>,\n", field.name, field.kind.rust()));
        let text = self.after(
            &text,
            "pub struct ThingFields {",
            "    pub description: Option<String>,\n",
            &checked,
        )?;
        let parsed = self.lines(|field| {
            let name = &field.name;
            match field.kind {
                FieldType::String => {
                    format!("            {name}: self.{name}.as_deref().map(str::to_owned),\n")
                }
                _ => format!("            {name}: self.{name},\n"),
            }
        });
        let text = self.after(
            &text,
            "impl ThingInput {",
            "            description: self.description.as_deref().map(str::to_owned),\n",
            &parsed,
        )?;
        let patch = self.lines(|field| {
            format!(
                "    /// A new value, or `null` to remove it: {}.\n    {}\n    \
                 pub {}: MaybeUndefined<{}>,\n",
                field.kind.what(),
                field.kind.input_attribute(),
                field.name,
                field.kind.input()
            )
        });
        let text = self.after(
            &text,
            "pub struct ThingPatch {",
            "    pub description: MaybeUndefined<StrictString>,\n",
            &patch,
        )?;
        let changes = self.lines(|field| {
            format!(
                "    pub {}: Option<Option<{}>>,\n",
                field.name,
                field.kind.rust()
            )
        });
        let text = self.after(
            &text,
            "pub struct ThingChanges {",
            "    pub description: Option<Option<String>>,\n",
            &changes,
        )?;
        let changed = self.lines(|field| {
            let name = &field.name;
            match field.kind {
                FieldType::String => format!(
                    "            {name}: self.{name}.as_opt_deref().map(|text| text.map(str::to_owned)),\n"
                ),
                _ => format!("            {name}: self.{name}.as_opt_ref().map(|value| value.copied()),\n"),
            }
        });
        self.after(
            &text,
            "impl ThingPatch {",
            "                .map(|text| text.map(str::to_owned)),\n",
            &changed,
        )
    }

    fn to_repository(&self, text: &str) -> anyhow::Result<String> {
        let mut text = text.to_owned();
        if self
            .fields
            .iter()
            .any(|field| field.kind == FieldType::Datetime)
        {
            text = self.after(
                &text,
                "use infra::database::",
                "{now_ms, timestamp",
                ", unix_ms",
            )?;
        }
        let columns: Vec<String> = self.fields.iter().map(Field::select).collect();
        let text = self.after(
            &text,
            "const COLUMNS: &str = \"",
            "updated_at_ms",
            &format!(", \\\n    {}", columns.join(", ")),
        )?;

        // Create: the columns and placeholders after the last ones, the values after the last.
        let statement = "INSERT INTO things (";
        let last = self.last_placeholder(&text, "pub async fn insert(", statement)?;
        let indent = self.indent_of(&text, "pub async fn insert(", "VALUES (")?;
        let columns: Vec<String> = self.fields.iter().map(Field::column).collect();
        let text = self.after(
            &text,
            statement,
            "name, description",
            &format!(",\n{indent}    {}", columns.join(", ")),
        )?;
        let placeholders: Vec<String> = (last + 1..=last + self.fields.len())
            .map(|n| format!("${n}"))
            .collect();
        let text = self.after(
            &text,
            statement,
            &format!("${last}"),
            &format!(",\n{indent}    {}", placeholders.join(", ")),
        )?;
        let constructed =
            self.lines(|field| format!("            {}: {},\n", field.name, field.copy("fields")));
        let text = self.after(
            &text,
            "pub async fn insert(",
            "            description: fields.description.clone(),\n",
            &constructed,
        )?;
        let entity = &self.module.entity_snake;
        let bound = self.lines(|field| format!("        .bind({})\n", field.bind(entity)));
        let text = self.after(
            &text,
            "pub async fn insert(",
            "        .bind(&thing.description)\n",
            &bound,
        )?;

        // Replace: `column = $n` after the description's, the values after the last.
        let last = self.last_placeholder(&text, "pub async fn update(", "UPDATE things SET")?;
        let anchor = "description = $";
        let indent = self.indent_of(&text, "pub async fn update(", anchor)?;
        let set: String = self
            .fields
            .iter()
            .zip(last + 1..)
            .map(|(field, n)| format!(",\n{indent}{} = ${n}", field.column()))
            .collect();
        let text = self.after(
            &text,
            "pub async fn update(",
            &format!("{anchor}{last}"),
            &set,
        )?;
        let bound = self.lines(|field| format!("        .bind({})\n", field.bind("fields")));
        let text = self.after(
            &text,
            "pub async fn update(",
            "        .bind(&fields.description)\n",
            &bound,
        )?;

        // Patch: `column = CASE WHEN $changed THEN $new ELSE column END` after the description's.
        let last = self.last_placeholder(&text, "pub async fn patch(", "UPDATE things SET")?;
        let anchor = "ELSE description END";
        let indent = self.indent_of(&text, "pub async fn patch(", anchor)?;
        let set: String = self
            .fields
            .iter()
            .zip((last + 1..).step_by(2))
            .map(|(field, n)| {
                let column = field.column();
                format!(
                    ",\n{indent}{column} = CASE WHEN ${n} THEN ${} ELSE {column} END",
                    n + 1
                )
            })
            .collect();
        let text = self.after(&text, "pub async fn patch(", anchor, &set)?;
        let bound = self.lines(|field| {
            let name = &field.name;
            let new = match field.kind {
                FieldType::String => format!("changes.{name}.clone().flatten()"),
                FieldType::Datetime => format!("changes.{name}.flatten().map(unix_ms)"),
                _ => format!("changes.{name}.flatten()"),
            };
            format!("        .bind(changes.{name}.is_some())\n        .bind({new})\n")
        });
        let text = self.after(
            &text,
            "pub async fn patch(",
            "        .bind(changes.description.clone().flatten())\n",
            &bound,
        )?;

        let mut read = String::new();
        for (i, field) in self.fields.iter().enumerate() {
            let name = &field.name;
            let first_bool = self.fields[..i]
                .iter()
                .all(|earlier| earlier.kind != FieldType::Bool);
            read += &match field.kind {
                FieldType::Bool if first_bool => format!(
                    "        // A BOOLEAN column is read as an integer (`COLUMNS` casts it): SQLite \
                     keeps\n        // 0 or 1, and sqlx's Any driver refuses a column SQLite \
                     declares BOOLEAN.\n        {name}: row.try_get::<Option<i64>, _>(\"{name}\")?\
                     .map(|flag| flag != 0),\n"
                ),
                FieldType::Bool => format!(
                    "        {name}: row.try_get::<Option<i64>, _>(\"{name}\")?.map(|flag| flag != 0),\n"
                ),
                FieldType::Datetime => format!(
                    "        {name}: row\n            .try_get::<Option<i64>, _>(\"{}\")?\n            \
                     .map(timestamp)\n            .transpose()?,\n",
                    field.column()
                ),
                _ => format!("        {name}: row.try_get(\"{name}\")?,\n"),
            };
        }
        self.after(
            &text,
            "fn thing_from_row(",
            "        description: row.try_get(\"description\")?,\n",
            &read,
        )
    }

    /// The highest `$n` of the SQL statement that starts `statement` in the function `within`.
    fn last_placeholder(&self, text: &str, within: &str, statement: &str) -> anyhow::Result<usize> {
        let start = self.end_of(text, within, statement)?;
        let end = text[start..]
            .find('"')
            .map_or(text.len(), |offset| start + offset);
        text[start..end]
            .split('$')
            .skip(1)
            .filter_map(|rest| {
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                digits.parse().ok()
            })
            .max()
            .with_context(|| format!("`{}` has no `$n`", self.rename(statement)))
    }

    /// The indentation of the line with `anchor` (the first after `within`).
    fn indent_of(&self, text: &str, within: &str, anchor: &str) -> anyhow::Result<String> {
        let end = self.end_of(text, within, anchor)?;
        let line_start = text[..end].rfind('\n').map_or(0, |i| i + 1);
        Ok(text[line_start..]
            .chars()
            .take_while(|c| *c == ' ')
            .collect())
    }

    fn to_migration(&self, text: &str) -> anyhow::Result<String> {
        let columns = self.lines(|field| format!("    {} {},\n", field.column(), field.kind.sql()));
        self.after(
            text,
            "CREATE TABLE things (",
            "    description TEXT,\n",
            &columns,
        )
    }

    /// `text`, the copy of the things tests, with tests of the fields at the end.
    fn to_tests(&self, text: &str) -> anyhow::Result<String> {
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
// The fields added by `cargo xtask new-module --field`: each optional, in every write.

#[tokio::test]
async fn every_added_field_is_kept_read_back_and_removed_by_a_merge_patch_with_null() {{
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
async fn a_merge_patch_sets_the_added_fields_and_a_replacement_without_them_removes_them() {{
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
async fn an_added_field_of_another_json_type_is_a_400_problem_and_creates_no_{entity}() {{
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
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let module = ModuleName::new("orders", "Order").unwrap();
        let fields = Field::parse_all(fields.iter().copied()).unwrap();
        let target = root.join("modules/orders");
        let mut files = Vec::new();
        renamed_files(&module, &root.join("modules/things"), &target, &mut files).unwrap();
        let added = AddedFields {
            module: &module,
            fields: &fields,
        };
        added.apply(&mut files, &target).unwrap();
        let tests = module.rename(&read(&root.join("tests/e2e/things.rs")).unwrap());
        (files, added.to_tests(&tests).unwrap())
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
        let chain_end = ["\n        .execute(", "\n        .fetch_optional("]
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
            ("pub due_at: Option<OffsetDateTime>,", 3),
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
            "updated_at_ms, \\\n    reference, quantity, price, CAST(urgent AS INTEGER) AS urgent, due_at_ms\";"
        ));
        for (statement, count) in [
            ("INSERT INTO orders (", 12),
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
        assert!(repository.contains(".bind(changes.due_at.flatten().map(unix_ms))"));
        assert!(repository.contains("use infra::database::{now_ms, timestamp, unix_ms};"));
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
                .contains("no `pub description: Option<String>,` after `pub struct Order {`"),
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
