//! What a module's `build.rs` calls: [`embed_migrations`] finds every file in the module's
//! `migrations/` folder and writes the list the module's `Module::migrations` includes, so that
//! a schema change is a new file named `<version>_<what_it_does>.sql` and no list to edit.
//!
//! ```ignore
//! // build.rs
//! fn main() {
//!     module_build::embed_migrations();
//! }
//! // src/lib.rs, in `impl Module for ...`
//! fn migrations() -> &'static [Migration] {
//!     include!(concat!(env!("OUT_DIR"), "/migrations.rs"))
//! }
//! ```
//!
//! The file's number is the migration's version; the words after it, its name (recorded with
//! it in `schema_migrations`). Versions start at 1 and follow each other without a gap: a
//! missing number is a migration lost, and the build stops naming it.

use std::path::{Path, PathBuf};

/// Writes `$OUT_DIR/migrations.rs` from the files in `$CARGO_MANIFEST_DIR/migrations`, and has
/// cargo run the build script again when that folder changes (a file added, edited, renamed).
/// Panics (stopping the build) with what is wrong when a file's name or the numbering is.
pub fn embed_migrations() {
    let manifest_dir = PathBuf::from(env_var("CARGO_MANIFEST_DIR"));
    let folder = manifest_dir.join("migrations");
    println!("cargo:rerun-if-changed={}", folder.display());
    let files = std::fs::read_dir(&folder)
        .unwrap_or_else(|err| panic!("reading {}: {err}", folder.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect::<Vec<_>>();
    let list = render(&files).unwrap_or_else(|err| panic!("{err}"));
    let out = PathBuf::from(env_var("OUT_DIR")).join("migrations.rs");
    std::fs::write(&out, list).unwrap_or_else(|err| panic!("writing {}: {err}", out.display()));
}

fn env_var(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("{name} is set by cargo for build scripts"))
}

/// One migration file, understood.
#[derive(Debug, PartialEq, Eq)]
struct MigrationFile {
    version: i64,
    name: String,
    path: PathBuf,
}

/// The Rust expression (`&[Migration { .. }, ..]`, in version order) for `files`: every
/// `.sql` file among them, each checked.
fn render(files: &[PathBuf]) -> Result<String, String> {
    let mut migrations = files
        .iter()
        .filter(|path| path.extension().is_some_and(|extension| extension == "sql"))
        .map(|path| parse(path))
        .collect::<Result<Vec<_>, _>>()?;
    migrations.sort_by_key(|migration| migration.version);
    for (expected, migration) in (1..).zip(&migrations) {
        if migration.version != expected {
            return Err(format!(
                "{}: expected version {expected} here (versions start at 1 and follow each \
                 other; is a migration missing, or two numbered alike?)",
                migration.path.display()
            ));
        }
    }
    let entries: String = migrations
        .iter()
        .map(|migration| {
            format!(
                "    Migration {{ version: {}, name: {:?}, sql: include_str!({:?}) }},\n",
                migration.version,
                migration.name,
                migration.path.display().to_string()
            )
        })
        .collect();
    Ok(format!("&[\n{entries}]\n"))
}

/// `0002_count_things_per_owner.sql` → version 2, name "count things per owner".
fn parse(path: &Path) -> Result<MigrationFile, String> {
    let refuse = |why: &str| {
        Err(format!(
            "{}: {why}; a migration's file is named <version>_<what_it_does>.sql, e.g. \
             0002_add_colour_to_things.sql",
            path.display()
        ))
    };
    let stem = path
        .file_stem()
        .and_then(|stem| stem.to_str())
        .unwrap_or_default();
    let Some((number, words)) = stem.split_once('_') else {
        return refuse("no `_` after the version");
    };
    let Ok(version) = number.parse::<i64>() else {
        return refuse("the name does not start with a version number");
    };
    let name = words.replace('_', " ");
    if name.trim().is_empty() {
        return refuse("no words after the version");
    }
    Ok(MigrationFile {
        version,
        name,
        path: path.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(names: &[&str]) -> Vec<PathBuf> {
        names
            .iter()
            .map(|name| Path::new("/m/migrations").join(name))
            .collect()
    }

    #[test]
    fn migrations_are_listed_in_version_order_with_their_names_from_the_file_names() {
        let list = render(&paths(&[
            "0002_count_things_per_owner.sql",
            "0001_create_things.sql",
            "README.md",
        ]))
        .unwrap();

        assert_eq!(
            list,
            "&[\n    Migration { version: 1, name: \"create things\", sql: \
             include_str!(\"/m/migrations/0001_create_things.sql\") },\n    Migration { \
             version: 2, name: \"count things per owner\", sql: \
             include_str!(\"/m/migrations/0002_count_things_per_owner.sql\") },\n]\n"
        );
    }

    #[test]
    fn a_gap_in_the_versions_stops_the_build_naming_the_file_after_it() {
        let error = render(&paths(&["0001_a.sql", "0003_c.sql"])).unwrap_err();

        assert!(error.contains("0003_c.sql: expected version 2"), "{error}");
    }

    #[test]
    fn two_files_with_one_version_stop_the_build() {
        let error = render(&paths(&["0001_a.sql", "0001_b.sql"])).unwrap_err();

        assert!(error.contains("expected version 2"), "{error}");
    }

    #[test]
    fn a_file_named_otherwise_stops_the_build_saying_how_to_name_it() {
        for name in ["create_things.sql", "0001.sql", "0001_.sql"] {
            let error = render(&paths(&[name])).unwrap_err();

            assert!(
                error.contains("<version>_<what_it_does>.sql"),
                "{name}: {error}"
            );
        }
    }
}
