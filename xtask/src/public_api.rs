//! `cargo xtask public-api [--bless]`: the public surface of poem-idempotency, one item a line,
//! against the listing committed beside it (`shared/poem-idempotency/public-api.txt`), so that
//! a change to what users can name is a deliberate one.
//!
//! The listing comes from rustdoc's JSON output (unstable, so asked for with
//! `RUSTC_BOOTSTRAP=1`), read as plain JSON: from the crate's root through its public modules
//! and `pub use`s, every item at the path a user writes, with its signature. Items reached at
//! several paths are listed in full once (where they are defined, when that is public) and as a
//! `pub use` line at the others. Trait impls are listed, but not auto-trait ones (`Send`,
//! `Sync`...) nor the blanket impls of other crates, which would bury the rest. Items hidden
//! with `#[doc(hidden)]` (the macros' `__private` path) are not part of it: rustdoc leaves them
//! out.
//!
//! The crate is documented with every feature but `failpoints` (test-only; the template's crash
//! tests turn it on and nothing else should): that is all a user can reach. The features are
//! read from the crate's manifest, so a new one is listed without a change here.
//!
//! The JSON format changes between toolchains: the listing reads the `format_version`s it was
//! written against and refuses any other, naming the constant to revisit.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context as _, bail, ensure};
use serde_json::Value;

const CRATE: &str = "poem-idempotency";
const LISTING: &str = "shared/poem-idempotency/public-api.txt";
/// Features a user never enables: left out of the documented build.
const TEST_ONLY_FEATURES: &[&str] = &["failpoints", "simulation"];
/// The rustdoc JSON `format_version`s this listing reads (rustc 1.95 writes 57).
const FORMAT_VERSIONS: &[u64] = &[57];

/// Compare with the committed listing, or write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Check,
    Bless,
}

pub fn usage() -> &'static str {
    "cargo xtask public-api [--bless]\n  \
     poem-idempotency's public API (every feature but failpoints) against its listing,\n  \
     shared/poem-idempotency/public-api.txt; --bless rewrites the listing after a deliberate change"
}

pub fn mode(arguments: &[&str]) -> anyhow::Result<Mode> {
    match arguments {
        [] => Ok(Mode::Check),
        ["--bless"] => Ok(Mode::Bless),
        _ => bail!("{}", usage()),
    }
}

pub fn run(root: &Path, mode: Mode) -> anyhow::Result<()> {
    let manifest = Manifest::read(root)?;
    let json = rustdoc_json(root, &manifest)?;
    let listing = format!(
        "{}{}",
        header(&manifest.features),
        listing(&json)?
            .iter()
            .map(|line| format!("{line}\n"))
            .collect::<String>()
    );
    let path = root.join(LISTING);
    match mode {
        Mode::Bless => {
            std::fs::write(&path, &listing).with_context(|| format!("writing {LISTING}"))?;
            println!("public-api: wrote {LISTING}");
            Ok(())
        }
        Mode::Check => {
            // No listing yet: every line is one the crate adds.
            let committed = std::fs::read_to_string(&path).unwrap_or_default();
            // Line by line: a checkout with CRLF line ends holds the same listing.
            if committed.lines().eq(listing.lines()) {
                println!("public-api: {CRATE}'s public API is as {LISTING} lists it");
                return Ok(());
            }
            bail!(
                "{CRATE}'s public API differs from {LISTING} (- listed there, + in the crate now):\n\
                 {}\nIf the change is deliberate: `cargo xtask public-api --bless`, and commit {LISTING}",
                diff(&committed, &listing)
            )
        }
    }
}

/// `cargo doc` of the crate with the listing's features, every rustdoc warning an error (a
/// broken intra-doc link among them).
pub fn doc(root: &Path) -> anyhow::Result<()> {
    let manifest = Manifest::read(root)?;
    crate::test::run_command(
        cargo(root)
            .args(["doc", "-p", CRATE, "--no-deps", "--features"])
            .arg(manifest.features.join(","))
            .env("RUSTDOCFLAGS", "-D warnings"),
    )
}

fn cargo(root: &Path) -> Command {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command.current_dir(root);
    command
}

/// What `cargo metadata` says of the build: the crate's features a user may enable, and where
/// rustdoc writes.
struct Manifest {
    features: Vec<String>,
    target_directory: PathBuf,
}

impl Manifest {
    fn read(root: &Path) -> anyhow::Result<Self> {
        let output = cargo(root)
            .args(["metadata", "--format-version", "1", "--no-deps"])
            .output()
            .context("cargo metadata")?;
        ensure!(
            output.status.success(),
            "cargo metadata: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let metadata: serde_json::Value =
            serde_json::from_slice(&output.stdout).context("cargo metadata prints JSON")?;
        Self::from_metadata(&metadata)
    }

    fn from_metadata(metadata: &Value) -> anyhow::Result<Self> {
        let package = metadata["packages"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|package| package["name"] == CRATE)
            .with_context(|| format!("cargo metadata names no package {CRATE}"))?;
        let features = package["features"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(name, _)| name.clone())
            .filter(|name| name != "default" && !TEST_ONLY_FEATURES.contains(&name.as_str()))
            .collect();
        let target_directory = metadata["target_directory"]
            .as_str()
            .context("cargo metadata names no target directory")?
            .into();
        Ok(Self {
            features,
            target_directory,
        })
    }
}

/// Runs rustdoc's JSON output over the crate; the JSON.
fn rustdoc_json(root: &Path, manifest: &Manifest) -> anyhow::Result<Value> {
    let file = manifest
        .target_directory
        .join("doc")
        .join(format!("{}.json", CRATE.replace('-', "_")));
    // A file left by an earlier run must not pass for this one's.
    let _ = std::fs::remove_file(&file);
    crate::test::run_command(
        cargo(root)
            .args(["rustdoc", "-q", "-p", CRATE, "--lib", "--features"])
            .arg(manifest.features.join(","))
            .args(["--", "-Z", "unstable-options", "--output-format", "json"])
            // The JSON output is unstable: a stable toolchain gives it only with this.
            .env("RUSTC_BOOTSTRAP", "1"),
    )?;
    let text = std::fs::read_to_string(&file)
        .with_context(|| format!("rustdoc wrote no {}", file.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{} is not JSON", file.display()))
}

fn header(features: &[String]) -> String {
    format!(
        "// The public API of {CRATE} (features: {}), from rustdoc's JSON output.\n\
         // CI compares the crate with it (`cargo xtask public-api`); after a deliberate change,\n\
         // `cargo xtask public-api --bless` rewrites it.\n",
        features.join(", ")
    )
}

/// The changed lines between `old` and `new`, in order: `-` for a line only `old` has, `+` for
/// one only `new` has (a longest common subsequence of lines is left out).
fn diff(old: &str, new: &str) -> String {
    let old: Vec<&str> = old.lines().collect();
    let new: Vec<&str> = new.lines().collect();
    // common[i][j]: the longest common subsequence of old[i..] and new[j..].
    let mut common = vec![vec![0usize; new.len() + 1]; old.len() + 1];
    for i in (0..old.len()).rev() {
        for j in (0..new.len()).rev() {
            common[i][j] = if old[i] == new[j] {
                common[i + 1][j + 1] + 1
            } else {
                common[i + 1][j].max(common[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, String::new());
    while i < old.len() || j < new.len() {
        if i < old.len() && j < new.len() && old[i] == new[j] {
            (i, j) = (i + 1, j + 1);
        } else if j == new.len() || (i < old.len() && common[i + 1][j] >= common[i][j + 1]) {
            out.push_str(&format!("- {}\n", old[i]));
            i += 1;
        } else {
            out.push_str(&format!("+ {}\n", new[j]));
            j += 1;
        }
    }
    out
}

/// The listing of the crate rustdoc's JSON `json` describes: one line an item, sorted by path
/// (an item, then its trait impls, then its members).
fn listing(json: &Value) -> anyhow::Result<Vec<String>> {
    let version = json["format_version"]
        .as_u64()
        .context("rustdoc's JSON has no format_version")?;
    ensure!(
        FORMAT_VERSIONS.contains(&version),
        "rustdoc's JSON is in format {version}, which this listing does not read (it reads {:?}): \
         the toolchain changed; check the fields xtask/src/public_api.rs reads against that \
         format, then add it to FORMAT_VERSIONS",
        FORMAT_VERSIONS
    );
    let krate = Crate::new(json)?;
    let mut entries = krate.entries()?;
    entries.sort();
    entries.dedup();
    Ok(entries.into_iter().map(|entry| entry.text).collect())
}

/// One line of the listing, with what it sorts by.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    /// The path's segments (compared segment by segment, so `a::b` comes right after `a`).
    path: Vec<String>,
    /// 0 for the item itself, 1 for its trait impls.
    rank: u8,
    text: String,
}

/// One path at which an item is reached from the root.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Reach {
    /// Through a `pub use` anywhere on the way.
    through_use: bool,
    path: Vec<String>,
    /// Named by a `pub use` itself (not only inside a module re-exported).
    by_use: bool,
}

/// rustdoc's JSON of one crate, and the public paths of its items.
struct Crate<'a> {
    index: &'a serde_json::Map<String, Value>,
    paths: &'a serde_json::Map<String, Value>,
    /// Every item reached from the root, by id, with the paths it is reached at.
    reached: BTreeMap<String, Vec<Reach>>,
    /// `pub use`s of another crate's items: the path here, the item's id (null when rustdoc
    /// gives none) and the `use`'s source.
    foreign: Vec<(Vec<String>, Value, String)>,
    /// The path each reached item is listed in full at.
    canonical: HashMap<String, Vec<String>>,
}

impl<'a> Crate<'a> {
    fn new(json: &'a Value) -> anyhow::Result<Self> {
        let index = json["index"]
            .as_object()
            .context("rustdoc's JSON has no index")?;
        let paths = json["paths"]
            .as_object()
            .context("rustdoc's JSON has no paths")?;
        let root = id_of(&json["root"]).context("rustdoc's JSON has no root")?;
        let mut krate = Self {
            index,
            paths,
            reached: BTreeMap::new(),
            foreign: Vec::new(),
            canonical: HashMap::new(),
        };
        let name = krate.item(&root)?["name"]
            .as_str()
            .context("the root module has no name")?
            .to_owned();
        krate.record(&root, vec![name.clone()], false, false);
        krate.walk(&root, &[name], false, &mut vec![root.clone()])?;
        for (id, reaches) in &krate.reached {
            // Where it is defined when that is public, else the shortest path (the first in
            // order of those as short), so that the choice does not depend on the walk's order.
            let first = reaches
                .iter()
                .min_by_key(|reach| (reach.through_use, reach.path.len(), &reach.path))
                .expect("recorded with a path");
            krate.canonical.insert(id.clone(), first.path.clone());
        }
        Ok(krate)
    }

    fn item(&self, id: &str) -> anyhow::Result<&'a Value> {
        self.index
            .get(id)
            .with_context(|| format!("rustdoc's JSON names item {id} but has none"))
    }

    fn record(&mut self, id: &str, path: Vec<String>, through_use: bool, by_use: bool) {
        let reach = Reach {
            through_use,
            path,
            by_use,
        };
        let reaches = self.reached.entry(id.to_owned()).or_default();
        if !reaches.contains(&reach) {
            reaches.push(reach);
        }
    }

    /// Records the public items of module `id`, reached at `prefix`, and walks on into modules.
    fn walk(
        &mut self,
        id: &str,
        prefix: &[String],
        through_use: bool,
        stack: &mut Vec<String>,
    ) -> anyhow::Result<()> {
        let module = &self.item(id)?["inner"]["module"];
        for child in module["items"].as_array().into_iter().flatten() {
            let child = id_of(child).context("a module's item has no id")?;
            let item = self.item(&child)?;
            if item["visibility"] != "public" {
                continue;
            }
            let (target, path, through_use, by_use) = if let Some(using) = item["inner"].get("use")
            {
                let source = using["source"].as_str().unwrap_or_default().to_owned();
                let target = id_of(&using["id"]);
                let target_item = target.as_ref().and_then(|id| self.index.get(id));
                if using["is_glob"] == true {
                    match (target, target_item) {
                        (Some(target), Some(item)) if item["inner"].get("module").is_some() => {
                            self.descend(&target, prefix, true, stack)?
                        }
                        _ => self.foreign.push((
                            [prefix, &["*".to_owned()]].concat(),
                            using["id"].clone(),
                            format!("{source}::*"),
                        )),
                    }
                    continue;
                }
                let name = using["name"].as_str().context("a `use` has no name")?;
                let path = [prefix, &[name.to_owned()]].concat();
                match (target, target_item) {
                    (Some(target), Some(_)) => (target, path, true, true),
                    _ => {
                        self.foreign.push((path, using["id"].clone(), source));
                        continue;
                    }
                }
            } else {
                let name = item["name"].as_str().context("an item has no name")?;
                (
                    child.clone(),
                    [prefix, &[name.to_owned()]].concat(),
                    through_use,
                    false,
                )
            };
            self.record(&target, path.clone(), through_use, by_use);
            if self.item(&target)?["inner"].get("module").is_some() {
                self.descend(&target, &path, through_use, stack)?;
            }
        }
        Ok(())
    }

    /// Walks module `id` unless it is already being walked (a module re-exporting its parent).
    fn descend(
        &mut self,
        id: &str,
        prefix: &[String],
        through_use: bool,
        stack: &mut Vec<String>,
    ) -> anyhow::Result<()> {
        if stack.iter().any(|walked| walked == id) {
            return Ok(());
        }
        stack.push(id.to_owned());
        let walked = self.walk(id, prefix, through_use, stack);
        stack.pop();
        walked
    }

    fn entries(&self) -> anyhow::Result<Vec<Entry>> {
        let mut entries = Vec::new();
        for (id, reaches) in &self.reached {
            let path = &self.canonical[id];
            let item = self.item(id)?;
            self.item_entries(item, path, &mut entries)
                .with_context(|| format!("listing {}", path.join("::")))?;
            for reach in reaches
                .iter()
                .filter(|reach| reach.by_use && &reach.path != path)
            {
                entries.push(Entry {
                    path: reach.path.clone(),
                    rank: 0,
                    text: format!(
                        "pub use {} = {} ({})",
                        reach.path.join("::"),
                        path.join("::"),
                        kind_of(item)?.0
                    ),
                });
            }
        }
        for (path, id, source) in &self.foreign {
            let (target, kind) = match id_of(id).and_then(|id| self.paths.get(&id)) {
                Some(summary) => (
                    segments(&summary["path"]).join("::"),
                    summary["kind"].as_str().unwrap_or("item").to_owned(),
                ),
                None => (source.clone(), "item".to_owned()),
            };
            entries.push(Entry {
                path: path.clone(),
                rank: 0,
                text: format!("pub use {} = {target} ({kind})", path.join("::")),
            });
        }
        Ok(entries)
    }

    /// The lines of `item`, listed at `path`: its declaration, members and trait impls.
    fn item_entries(
        &self,
        item: &Value,
        path: &[String],
        entries: &mut Vec<Entry>,
    ) -> anyhow::Result<()> {
        let (kind, inner) = kind_of(item)?;
        let name = path.join("::");
        entries.push(Entry {
            path: path.to_vec(),
            rank: 0,
            text: self.declaration(kind, inner, &name)?,
        });
        let member = |member: &str, text: String| Entry {
            path: [path, &[member.to_owned()]].concat(),
            rank: 0,
            text,
        };
        match kind {
            "struct" | "union" => {
                for (field_name, field) in self.public_fields(inner)? {
                    let ty = self.ty(&field["inner"]["struct_field"])?;
                    entries.push(member(
                        &field_name,
                        format!("pub {name}::{field_name}: {ty}"),
                    ));
                }
                self.impls(inner, path, entries)?;
            }
            "enum" => {
                for variant in inner["variants"].as_array().into_iter().flatten() {
                    let variant = self.item(&id_of(variant).context("a variant has no id")?)?;
                    let variant_name = variant["name"].as_str().context("a variant has no name")?;
                    let shape = self.variant(&variant["inner"]["variant"])?;
                    entries.push(member(
                        variant_name,
                        format!("pub {name}::{variant_name}{shape}"),
                    ));
                }
                self.impls(inner, path, entries)?;
            }
            "trait" => {
                for item in inner["items"].as_array().into_iter().flatten() {
                    let item = self.item(&id_of(item).context("a trait item has no id")?)?;
                    self.member(item, path, &name, &Value::Null, entries)?;
                }
                // Its impls for types listed here are listed with those types.
                for implementation in inner["implementations"].as_array().into_iter().flatten() {
                    let implementation =
                        self.item(&id_of(implementation).context("an impl has no id")?)?;
                    let implementation = &implementation["inner"]["impl"];
                    if self.listed_type(&implementation["for"]).is_none()
                        && let Some(text) = self.trait_impl(implementation)?
                    {
                        entries.push(Entry {
                            path: path.to_vec(),
                            rank: 1,
                            text,
                        });
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The line that declares an item of `kind` named `name`.
    fn declaration(&self, kind: &str, inner: &Value, name: &str) -> anyhow::Result<String> {
        let generics = &inner["generics"];
        Ok(match kind {
            "module" => format!("pub mod {name}"),
            "struct" | "union" | "enum" => format!(
                "pub {kind} {name}{}{}",
                self.params(generics)?,
                self.where_clause(generics, &[])?
            ),
            "trait" => format!(
                "pub {}{}trait {name}{}{}{}",
                flag(&inner["is_unsafe"], "unsafe "),
                flag(&inner["is_auto"], "auto "),
                self.params(generics)?,
                prefixed(": ", &self.bounds(&inner["bounds"])?),
                self.where_clause(generics, &[])?
            ),
            "function" => format!("pub {}", self.function(name, inner, &[])?),
            "constant" => format!("pub const {name}: {}", self.ty(&inner["type"])?),
            "static" => format!(
                "pub {}static {}{name}: {}",
                flag(&inner["is_unsafe"], "unsafe "),
                flag(&inner["is_mutable"], "mut "),
                self.ty(&inner["type"])?
            ),
            "type_alias" => format!(
                "pub type {name}{}{} = {}",
                self.params(generics)?,
                self.where_clause(generics, &[])?,
                self.ty(&inner["type"])?
            ),
            "macro" => format!("pub macro {name}!"),
            "proc_macro" => match inner["kind"].as_str() {
                Some("attr") => format!("pub proc_macro #[{name}]"),
                Some("derive") => format!("pub proc_macro #[derive({name})]"),
                _ => format!("pub proc_macro {name}!"),
            },
            "trait_alias" => format!(
                "pub trait {name}{} = {}",
                self.params(generics)?,
                self.bounds(&inner["params"])?
            ),
            other => bail!("an item of a kind this listing does not know: {other}"),
        })
    }

    /// A struct's or union's public fields, by name (a tuple struct's by position).
    fn public_fields(&self, inner: &Value) -> anyhow::Result<Vec<(String, &'a Value)>> {
        let mut fields = Vec::new();
        let (named, ids) = match &inner["kind"] {
            Value::String(unit) if unit == "unit" => return Ok(fields),
            Value::Object(shape) if shape.contains_key("tuple") => (false, &shape["tuple"]),
            Value::Object(shape) => (true, &shape["plain"]["fields"]),
            // A union has no kind, only fields.
            _ => (true, &inner["fields"]),
        };
        for (position, id) in ids.as_array().into_iter().flatten().enumerate() {
            // A field rustdoc leaves out (null, in a tuple struct) is private.
            let Some(id) = id_of(id) else { continue };
            let field = self.item(&id)?;
            if field["visibility"] != "public" {
                continue;
            }
            let name = match named {
                true => field["name"]
                    .as_str()
                    .context("a field has no name")?
                    .to_owned(),
                false => position.to_string(),
            };
            fields.push((name, field));
        }
        Ok(fields)
    }

    /// The members of a struct's, enum's or union's inherent impls, and its trait impls (not
    /// the auto-trait and blanket ones).
    fn impls(
        &self,
        inner: &Value,
        path: &[String],
        entries: &mut Vec<Entry>,
    ) -> anyhow::Result<()> {
        for implementation in inner["impls"].as_array().into_iter().flatten() {
            let implementation = self.item(&id_of(implementation).context("an impl has no id")?)?;
            let implementation = &implementation["inner"]["impl"];
            if implementation["trait"].is_null() {
                // A generic impl's methods are named with its parameters: `Type<R>::method`.
                let generics = &implementation["generics"];
                let owner = if has_params(generics) {
                    self.ty(&implementation["for"])?
                } else {
                    path.join("::")
                };
                for member in implementation["items"].as_array().into_iter().flatten() {
                    let member = self.item(&id_of(member).context("an impl item has no id")?)?;
                    if member["visibility"] == "public" {
                        self.member(member, path, &owner, generics, entries)?;
                    }
                }
            } else if let Some(text) = self.trait_impl(implementation)? {
                entries.push(Entry {
                    path: path.to_vec(),
                    rank: 1,
                    text,
                });
            }
        }
        Ok(())
    }

    /// `impl<..> Trait for Type`, unless it is one rustdoc made up (auto traits, other crates'
    /// blanket impls).
    fn trait_impl(&self, implementation: &Value) -> anyhow::Result<Option<String>> {
        if implementation["is_synthetic"] == true || !implementation["blanket_impl"].is_null() {
            return Ok(None);
        }
        let trait_path = self.path(&implementation["trait"])?;
        // The compiler's own marker of a derived `PartialEq`, which users cannot name.
        if trait_path == "core::marker::StructuralPartialEq" {
            return Ok(None);
        }
        let generics = &implementation["generics"];
        Ok(Some(format!(
            "{}impl{} {}{} for {}{}",
            flag(&implementation["is_unsafe"], "unsafe "),
            self.params(generics)?,
            flag(&implementation["is_negative"], "!"),
            trait_path,
            self.ty(&implementation["for"])?,
            self.where_clause(generics, &[])?
        )))
    }

    /// A trait's or an inherent impl's function, constant or type, named `owner::name`;
    /// `outer` the generics of the impl, whose bounds join the member's where clause.
    fn member(
        &self,
        member: &Value,
        path: &[String],
        owner: &str,
        outer: &Value,
        entries: &mut Vec<Entry>,
    ) -> anyhow::Result<()> {
        let member_name = member["name"]
            .as_str()
            .context("an associated item has no name")?;
        let name = format!("{owner}::{member_name}");
        let (kind, inner) = kind_of(member)?;
        let text = match kind {
            "function" => format!(
                "pub {}",
                self.function(&name, inner, &self.bound_predicates(outer)?)?
            ),
            "assoc_const" => format!("pub const {name}: {}", self.ty(&inner["type"])?),
            "assoc_type" => {
                let bounds = self.bounds(&inner["bounds"])?;
                format!(
                    "pub type {name}{}{}{}",
                    self.params(&inner["generics"])?,
                    prefixed(": ", &bounds),
                    match &inner["type"] {
                        Value::Null => String::new(),
                        ty => format!(" = {}", self.ty(ty)?),
                    }
                )
            }
            other => bail!("an associated item of a kind this listing does not know: {other}"),
        };
        entries.push(Entry {
            path: [path, &[member_name.to_owned()]].concat(),
            rank: 0,
            text,
        });
        Ok(())
    }

    /// `fn name<..>(..) -> ..` with its qualifiers, `extra` predicates added to its where clause.
    fn function(&self, name: &str, inner: &Value, extra: &[String]) -> anyhow::Result<String> {
        let header = &inner["header"];
        let qualifiers = format!(
            "{}{}{}{}",
            flag(&header["is_const"], "const "),
            flag(&header["is_async"], "async "),
            flag(&header["is_unsafe"], "unsafe "),
            abi(&header["abi"])
        );
        let sig = &inner["sig"];
        let mut inputs = Vec::new();
        for input in sig["inputs"].as_array().into_iter().flatten() {
            let (argument, ty) = (input[0].as_str().unwrap_or("_"), &input[1]);
            inputs.push(match self_parameter(ty) {
                Some(receiver) if argument == "self" => receiver,
                _ => format!("{argument}: {}", self.ty(ty)?),
            });
        }
        if sig["is_c_variadic"] == true {
            inputs.push("...".to_owned());
        }
        let output = match &sig["output"] {
            Value::Null => String::new(),
            ty => format!(" -> {}", self.ty(ty)?),
        };
        let generics = &inner["generics"];
        Ok(format!(
            "{qualifiers}fn {name}{}({}){output}{}",
            self.params(generics)?,
            inputs.join(", "),
            self.where_clause(generics, extra)?
        ))
    }

    /// `(T, U)`, ` { a: T }` or nothing, and ` = discriminant`.
    fn variant(&self, variant: &Value) -> anyhow::Result<String> {
        let mut text = match &variant["kind"] {
            Value::Object(shape) if shape.contains_key("tuple") => {
                let mut fields = Vec::new();
                for field in shape["tuple"].as_array().into_iter().flatten() {
                    fields.push(match id_of(field) {
                        Some(field) => self.ty(&self.item(&field)?["inner"]["struct_field"])?,
                        None => "_".to_owned(),
                    });
                }
                format!("({})", fields.join(", "))
            }
            Value::Object(shape) if shape.contains_key("struct") => {
                let mut fields = Vec::new();
                for field in shape["struct"]["fields"].as_array().into_iter().flatten() {
                    let field = self.item(&id_of(field).context("a field has no id")?)?;
                    fields.push(format!(
                        "{}: {}",
                        field["name"].as_str().unwrap_or("_"),
                        self.ty(&field["inner"]["struct_field"])?
                    ));
                }
                if shape["struct"]["has_stripped_fields"] == true {
                    fields.push("..".to_owned());
                }
                format!(" {{ {} }}", fields.join(", "))
            }
            _ => String::new(),
        };
        if let Some(expr) = variant["discriminant"]["expr"].as_str() {
            text.push_str(&format!(" = {expr}"));
        }
        Ok(text)
    }

    /// The path a type is listed at, if it is one of this crate's items listed here.
    fn listed_type(&self, ty: &Value) -> Option<&Vec<String>> {
        let id = id_of(&ty["resolved_path"]["id"])?;
        self.canonical.get(&id)
    }

    /// A path to an item (a type's or a trait's), with its generic arguments: this crate's
    /// items by the path they are listed at, others' by rustdoc's summary of them.
    fn path(&self, path: &Value) -> anyhow::Result<String> {
        let id = id_of(&path["id"]);
        let name = match id.as_ref() {
            Some(id) if self.canonical.contains_key(id) => self.canonical[id].join("::"),
            Some(id) if self.paths.contains_key(id) => segments(&self.paths[id]["path"]).join("::"),
            _ => path["path"]
                .as_str()
                .or(path["name"].as_str())
                .context("a path without a name")?
                .to_owned(),
        };
        Ok(format!("{name}{}", self.generic_args(&path["args"])?))
    }

    fn generic_args(&self, args: &Value) -> anyhow::Result<String> {
        match args {
            Value::Null => Ok(String::new()),
            Value::String(notation) if notation == "return_type_notation" => Ok("(..)".to_owned()),
            Value::Object(shape) if shape.contains_key("angle_bracketed") => {
                let shape = &shape["angle_bracketed"];
                let mut parts = Vec::new();
                for arg in shape["args"].as_array().into_iter().flatten() {
                    parts.push(match arg {
                        Value::String(infer) if infer == "infer" => "_".to_owned(),
                        _ if arg.get("lifetime").is_some() => {
                            arg["lifetime"].as_str().unwrap_or("'_").to_owned()
                        }
                        _ if arg.get("type").is_some() => self.ty(&arg["type"])?,
                        _ if arg.get("const").is_some() => {
                            arg["const"]["expr"].as_str().unwrap_or("_").to_owned()
                        }
                        _ => bail!("a generic argument this listing does not know: {arg}"),
                    });
                }
                for constraint in shape["constraints"].as_array().into_iter().flatten() {
                    let name = format!(
                        "{}{}",
                        constraint["name"].as_str().unwrap_or("_"),
                        self.generic_args(&constraint["args"])?
                    );
                    let binding = &constraint["binding"];
                    parts.push(if let Some(term) = binding.get("equality") {
                        match term.get("type") {
                            Some(ty) => format!("{name} = {}", self.ty(ty)?),
                            None => format!(
                                "{name} = {}",
                                term["constant"]["expr"].as_str().unwrap_or("_")
                            ),
                        }
                    } else {
                        format!("{name}: {}", self.bounds(&binding["constraint"])?)
                    });
                }
                Ok(if parts.is_empty() {
                    String::new()
                } else {
                    format!("<{}>", parts.join(", "))
                })
            }
            Value::Object(shape) if shape.contains_key("parenthesized") => {
                let shape = &shape["parenthesized"];
                let mut inputs = Vec::new();
                for input in shape["inputs"].as_array().into_iter().flatten() {
                    inputs.push(self.ty(input)?);
                }
                let output = match &shape["output"] {
                    Value::Null => String::new(),
                    ty => format!(" -> {}", self.ty(ty)?),
                };
                Ok(format!("({}){output}", inputs.join(", ")))
            }
            _ => bail!("generic arguments this listing does not know: {args}"),
        }
    }

    fn ty(&self, ty: &Value) -> anyhow::Result<String> {
        if ty == "infer" {
            return Ok("_".to_owned());
        }
        let (shape, inner) = match ty.as_object().and_then(|object| object.iter().next()) {
            Some(only) if ty.as_object().is_some_and(|object| object.len() == 1) => only,
            _ => bail!("a type this listing does not know: {ty}"),
        };
        Ok(match shape.as_str() {
            "resolved_path" => self.path(inner)?,
            "generic" | "primitive" => inner.as_str().unwrap_or("_").to_owned(),
            "tuple" => {
                let mut parts = Vec::new();
                for part in inner.as_array().into_iter().flatten() {
                    parts.push(self.ty(part)?);
                }
                match parts.len() {
                    1 => format!("({},)", parts[0]),
                    _ => format!("({})", parts.join(", ")),
                }
            }
            "slice" => format!("[{}]", self.ty(inner)?),
            "array" => format!(
                "[{}; {}]",
                self.ty(&inner["type"])?,
                inner["len"].as_str().unwrap_or("_")
            ),
            "pat" => self.ty(&inner["type"])?,
            "borrowed_ref" => format!(
                "&{}{}{}",
                lifetime(&inner["lifetime"]),
                flag(&inner["is_mutable"], "mut "),
                self.ty(&inner["type"])?
            ),
            "raw_pointer" => format!(
                "*{} {}",
                if inner["is_mutable"] == true {
                    "mut"
                } else {
                    "const"
                },
                self.ty(&inner["type"])?
            ),
            "impl_trait" => format!("impl {}", self.bounds(inner)?),
            "dyn_trait" => {
                let mut parts = Vec::new();
                for poly in inner["traits"].as_array().into_iter().flatten() {
                    parts.push(format!(
                        "{}{}",
                        self.higher_ranked(&poly["generic_params"])?,
                        self.path(&poly["trait"])?
                    ));
                }
                if let Some(lifetime) = inner["lifetime"].as_str() {
                    parts.push(lifetime.to_owned());
                }
                format!("dyn {}", parts.join(" + "))
            }
            "function_pointer" => {
                let header = &inner["header"];
                let mut inputs = Vec::new();
                for input in inner["sig"]["inputs"].as_array().into_iter().flatten() {
                    inputs.push(self.ty(&input[1])?);
                }
                let output = match &inner["sig"]["output"] {
                    Value::Null => String::new(),
                    ty => format!(" -> {}", self.ty(ty)?),
                };
                format!(
                    "{}{}{}fn({}){output}",
                    self.higher_ranked(&inner["generic_params"])?,
                    flag(&header["is_unsafe"], "unsafe "),
                    abi(&header["abi"]),
                    inputs.join(", ")
                )
            }
            "qualified_path" => {
                let self_type = self.ty(&inner["self_type"])?;
                let name = inner["name"].as_str().unwrap_or("_");
                let args = self.generic_args(&inner["args"])?;
                match &inner["trait"] {
                    Value::Null => format!("{self_type}::{name}{args}"),
                    as_trait => format!("<{self_type} as {}>::{name}{args}", self.path(as_trait)?),
                }
            }
            _ => bail!("a type this listing does not know: {ty}"),
        })
    }

    /// `A + B<T> + 'a`.
    fn bounds(&self, bounds: &Value) -> anyhow::Result<String> {
        let mut parts = Vec::new();
        for bound in bounds.as_array().into_iter().flatten() {
            parts.push(if let Some(bound) = bound.get("trait_bound") {
                let modifier = match bound["modifier"].as_str() {
                    Some("maybe") => "?",
                    Some("maybe_const") => "~const ",
                    _ => "",
                };
                format!(
                    "{}{modifier}{}",
                    self.higher_ranked(&bound["generic_params"])?,
                    self.path(&bound["trait"])?
                )
            } else if let Some(lifetime) = bound.get("outlives") {
                lifetime.as_str().unwrap_or("'_").to_owned()
            } else if let Some(captured) = bound.get("use") {
                let names: Vec<&str> = captured
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|arg| {
                        arg.as_str()
                            .or(arg["lifetime"].as_str())
                            .or(arg["param"].as_str())
                    })
                    .collect();
                format!("use<{}>", names.join(", "))
            } else {
                bail!("a bound this listing does not know: {bound}")
            });
        }
        Ok(parts.join(" + "))
    }

    /// `for<'a> ` of higher-ranked bounds, or nothing.
    fn higher_ranked(&self, params: &Value) -> anyhow::Result<String> {
        let params = self.param_list(params)?;
        Ok(if params.is_empty() {
            String::new()
        } else {
            format!("for<{}> ", params.join(", "))
        })
    }

    /// `<'a, T: Bound, const N: usize>`, or nothing; `impl Trait` arguments' parameters left out.
    fn params(&self, generics: &Value) -> anyhow::Result<String> {
        let params = self.param_list(&generics["params"])?;
        Ok(if params.is_empty() {
            String::new()
        } else {
            format!("<{}>", params.join(", "))
        })
    }

    fn param_list(&self, params: &Value) -> anyhow::Result<Vec<String>> {
        let mut list = Vec::new();
        for param in params.as_array().into_iter().flatten() {
            let name = param["name"]
                .as_str()
                .context("a generic parameter has no name")?;
            let kind = &param["kind"];
            list.push(if let Some(lifetime) = kind.get("lifetime") {
                let outlives: Vec<&str> = lifetime["outlives"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                if outlives.is_empty() {
                    name.to_owned()
                } else {
                    format!("{name}: {}", outlives.join(" + "))
                }
            } else if let Some(ty) = kind.get("type") {
                if ty["is_synthetic"] == true {
                    continue;
                }
                let bounds = self.bounds(&ty["bounds"])?;
                format!(
                    "{name}{}{}",
                    prefixed(": ", &bounds),
                    match &ty["default"] {
                        Value::Null => String::new(),
                        default => format!(" = {}", self.ty(default)?),
                    }
                )
            } else if let Some(constant) = kind.get("const") {
                format!("const {name}: {}", self.ty(&constant["type"])?)
            } else {
                bail!("a generic parameter this listing does not know: {param}")
            });
        }
        Ok(list)
    }

    /// The bounds of an impl's parameters, as where predicates (`R: Bound`), with its own.
    fn bound_predicates(&self, generics: &Value) -> anyhow::Result<Vec<String>> {
        let mut predicates = Vec::new();
        for param in generics["params"].as_array().into_iter().flatten() {
            let bounds = self.bounds(&param["kind"]["type"]["bounds"])?;
            if !bounds.is_empty() {
                predicates.push(format!(
                    "{}: {bounds}",
                    param["name"].as_str().unwrap_or("_")
                ));
            }
        }
        predicates.extend(self.predicates(generics)?);
        Ok(predicates)
    }

    fn predicates(&self, generics: &Value) -> anyhow::Result<Vec<String>> {
        let mut predicates = Vec::new();
        for predicate in generics["where_predicates"]
            .as_array()
            .into_iter()
            .flatten()
        {
            predicates.push(if let Some(bound) = predicate.get("bound_predicate") {
                format!(
                    "{}{}: {}",
                    self.higher_ranked(&bound["generic_params"])?,
                    self.ty(&bound["type"])?,
                    self.bounds(&bound["bounds"])?
                )
            } else if let Some(lifetime) = predicate.get("lifetime_predicate") {
                let outlives: Vec<&str> = lifetime["outlives"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                format!(
                    "{}: {}",
                    lifetime["lifetime"].as_str().unwrap_or("'_"),
                    outlives.join(" + ")
                )
            } else if let Some(equal) = predicate.get("eq_predicate") {
                let rhs = match equal["rhs"].get("type") {
                    Some(ty) => self.ty(ty)?,
                    None => equal["rhs"]["constant"]["expr"]
                        .as_str()
                        .unwrap_or("_")
                        .to_owned(),
                };
                format!("{} = {rhs}", self.ty(&equal["lhs"])?)
            } else {
                bail!("a where predicate this listing does not know: {predicate}")
            });
        }
        Ok(predicates)
    }

    /// ` where A: B, ..` of `generics` and `extra`, or nothing.
    fn where_clause(&self, generics: &Value, extra: &[String]) -> anyhow::Result<String> {
        let predicates = [extra.to_vec(), self.predicates(generics)?].concat();
        Ok(if predicates.is_empty() {
            String::new()
        } else {
            format!(" where {}", predicates.join(", "))
        })
    }
}

/// `word` when `value` is `true`, else nothing.
fn flag<'w>(value: &Value, word: &'w str) -> &'w str {
    if value == true { word } else { "" }
}

/// `extern "C" ` of a function's ABI, or nothing for Rust's.
fn abi(abi: &Value) -> String {
    let name = match abi {
        Value::String(rust) if rust == "Rust" => return String::new(),
        Value::String(name) => name.clone(),
        // The others are objects: `{"c": {"unwind": false}}`, `{"other": "efiapi"}`.
        Value::Object(only) => match only.iter().next() {
            Some((other, Value::String(name))) if other == "other" => name.clone(),
            Some((c, _)) if c == "c" => "C".to_owned(),
            Some((name, _)) => name.clone(),
            None => return String::new(),
        },
        _ => return String::new(),
    };
    format!("extern \"{name}\" ")
}

/// `'a ` of a reference's lifetime, or nothing.
fn lifetime(lifetime: &Value) -> String {
    lifetime
        .as_str()
        .map(|lifetime| format!("{lifetime} "))
        .unwrap_or_default()
}

/// `text` after `prefix`, or nothing when there is no text.
fn prefixed(prefix: &str, text: &str) -> String {
    if text.is_empty() {
        String::new()
    } else {
        format!("{prefix}{text}")
    }
}

/// An id as the index's keys spell it (rustdoc writes numbers; older formats wrote strings).
fn id_of(id: &Value) -> Option<String> {
    match id {
        Value::Number(number) => Some(number.to_string()),
        Value::String(text) => Some(text.clone()),
        _ => None,
    }
}

fn segments(path: &Value) -> Vec<&str> {
    path.as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

/// An item's kind (`struct`, `function`...) and what rustdoc says of it.
fn kind_of(item: &Value) -> anyhow::Result<(&str, &Value)> {
    match &item["inner"] {
        Value::Object(inner) if inner.len() == 1 => {
            let (kind, inner) = inner.iter().next().expect("one entry");
            Ok((kind.as_str(), inner))
        }
        inner => bail!("an item of a shape this listing does not know: {inner}"),
    }
}

fn has_params(generics: &Value) -> bool {
    generics["params"]
        .as_array()
        .is_some_and(|params| !params.is_empty())
}

/// `self`, `&self`, `&'a mut self` for a receiver of type `Self`, else nothing (`self: Box<Self>`).
fn self_parameter(ty: &Value) -> Option<String> {
    if ty["generic"] == "Self" {
        return Some("self".to_owned());
    }
    let reference = &ty["borrowed_ref"];
    if reference["type"]["generic"] != "Self" {
        return None;
    }
    Some(format!(
        "&{}{}self",
        lifetime(&reference["lifetime"]),
        flag(&reference["is_mutable"], "mut ")
    ))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn path(name: &str, id: u64) -> Value {
        json!({"path": name, "id": id, "args": null})
    }

    fn resolved(name: &str, id: u64) -> Value {
        json!({"resolved_path": path(name, id)})
    }

    fn no_generics() -> Value {
        json!({"params": [], "where_predicates": []})
    }

    fn item(id: u64, name: Option<&str>, visibility: &str, inner: Value) -> (String, Value) {
        (
            id.to_string(),
            json!({"id": id, "crate_id": 0, "name": name, "visibility": visibility,
                   "attrs": [], "docs": null, "links": {}, "deprecation": null, "inner": inner}),
        )
    }

    fn function(inputs: Value, output: Value, generics: Value, is_async: bool) -> Value {
        json!({"function": {
            "sig": {"inputs": inputs, "output": output, "is_c_variadic": false},
            "generics": generics,
            "header": {"is_const": false, "is_unsafe": false, "is_async": is_async, "abi": "Rust"},
            "has_body": true}})
    }

    fn trait_impl(trait_: Value, for_: Value, synthetic: bool, blanket: Value) -> Value {
        json!({"impl": {"is_unsafe": false, "generics": no_generics(),
            "provided_trait_methods": [], "trait": trait_, "for": for_, "items": [],
            "is_negative": false, "is_synthetic": synthetic, "blanket_impl": blanket}})
    }

    /// A small crate `demo` as rustdoc's JSON (format 57) describes it: each kind of item once,
    /// re-exports of its own items (one defined in a private module), another crate's item and
    /// a private module's items by glob, and impls rustdoc makes up beside written ones.
    fn fixture() -> Value {
        let self_ref = json!({"borrowed_ref": {"lifetime": null, "is_mutable": false,
                                               "type": {"generic": "Self"}}});
        let index: serde_json::Map<String, Value> = [
            item(0, Some("demo"), "public", json!({"module": {"is_crate": true,
                "items": [1, 2, 10, 20, 30, 40, 50, 60, 61, 62, 63, 66], "is_stripped": false}})),
            item(1, Some("store"), "public", json!({"module": {"is_crate": false,
                "items": [3, 4], "is_stripped": false}})),
            item(2, None, "public", json!({"use": {"source": "store::Record", "name": "Record",
                "id": 3, "is_glob": false}})),
            item(3, Some("Record"), "public", json!({"struct": {
                "kind": {"plain": {"fields": [5], "has_stripped_fields": true}},
                "generics": no_generics(), "impls": [7, 8, 9, 11]}})),
            item(4, None, "public", json!({"use": {"source": "self::inner::Hidden",
                "name": "Hidden", "id": 13, "is_glob": false}})),
            item(5, Some("key"), "public", json!({"struct_field": {"primitive": "u32"}})),
            item(7, None, "default", json!({"impl": {"is_unsafe": false,
                "generics": no_generics(), "provided_trait_methods": [], "trait": null,
                "for": resolved("Record", 3), "items": [12, 19], "is_negative": false,
                "is_synthetic": false, "blanket_impl": null}})),
            item(8, None, "default", trait_impl(path("Clone", 100), resolved("Record", 3), false, Value::Null)),
            item(9, None, "default", trait_impl(path("Send", 102), resolved("Record", 3), true, Value::Null)),
            item(11, None, "default", trait_impl(path("Into", 104), resolved("Record", 3), false, json!({"generic": "T"}))),
            item(12, Some("new"), "public", function(
                json!([["key", {"primitive": "u32"}]]), json!({"generic": "Self"}), no_generics(), false)),
            item(19, Some("private_helper"), "default", function(
                json!([]), Value::Null, no_generics(), false)),
            item(13, Some("Hidden"), "public", json!({"struct": {"kind": "unit",
                "generics": no_generics(), "impls": []}})),
            item(10, Some("Kind"), "public", json!({"enum": {"generics": no_generics(),
                "has_stripped_variants": false, "variants": [14, 15, 16], "impls": []}})),
            item(14, Some("Empty"), "default", json!({"variant": {"kind": "plain",
                "discriminant": null}})),
            item(15, Some("Pair"), "default", json!({"variant": {"kind": {"tuple": [17]},
                "discriminant": null}})),
            item(16, Some("Named"), "default", json!({"variant": {"kind": {"struct":
                {"fields": [18], "has_stripped_fields": false}}, "discriminant": null}})),
            item(17, Some("0"), "default", json!({"struct_field": {"primitive": "u8"}})),
            item(18, Some("name"), "default", json!({"struct_field": resolved("String", 101)})),
            item(20, Some("Source"), "public", json!({"trait": {"is_auto": false,
                "is_unsafe": false, "is_dyn_compatible": true, "items": [21],
                "generics": no_generics(),
                "bounds": [{"trait_bound": {"trait": path("Send", 102), "generic_params": [],
                                            "modifier": "none"}}],
                "implementations": [22]}})),
            item(21, Some("read"), "default", function(
                json!([["self", self_ref], ["from", {"generic": "T"}]]),
                json!({"resolved_path": {"path": "Option", "id": 105, "args":
                    {"angle_bracketed": {"args": [{"type": {"generic": "T"}}], "constraints": []}}}}),
                json!({"params": [{"name": "T", "kind": {"type": {"bounds": [{"trait_bound": {
                    "trait": path("Clone", 100), "generic_params": [], "modifier": "none"}}],
                    "default": null, "is_synthetic": false}}}], "where_predicates": []}),
                false)),
            item(22, None, "default", trait_impl(path("Source", 20),
                json!({"slice": {"primitive": "u8"}}), false, Value::Null)),
            item(30, Some("run"), "public", function(
                json!([["task", {"impl_trait": [{"trait_bound": {"trait": {"path": "Fn", "id": 106,
                    "args": {"parenthesized": {"inputs": [], "output": null}}},
                    "generic_params": [], "modifier": "none"}}]}]]),
                Value::Null,
                json!({"params": [{"name": "impl Fn()", "kind": {"type": {"bounds": [],
                    "default": null, "is_synthetic": true}}}], "where_predicates": []}),
                true)),
            item(40, Some("LIMIT"), "public", json!({"constant": {"type": {"primitive": "usize"},
                "const": {"expr": "4", "value": "4", "is_literal": true}}})),
            item(50, Some("NAMES"), "public", json!({"static": {"type": {"array": {"type":
                {"borrowed_ref": {"lifetime": "'static", "is_mutable": false,
                                  "type": {"primitive": "str"}}}, "len": "2"}},
                "is_mutable": false, "expr": "_", "is_unsafe": false}})),
            item(60, Some("Both"), "public", json!({"type_alias": {"type": {"tuple": [
                {"primitive": "u8"}, {"primitive": "u8"}]}, "generics": no_generics()}})),
            item(61, Some("demo_macro"), "public", json!({"macro": "macro_rules! demo_macro { ... }"})),
            item(62, None, "public", json!({"use": {"source": "macros::intents",
                "name": "intents", "id": 103, "is_glob": false}})),
            item(63, None, "public", json!({"use": {"source": "extras::*", "name": "extras",
                "id": 64, "is_glob": true}})),
            item(64, Some("extras"), "default", json!({"module": {"is_crate": false,
                "items": [65], "is_stripped": false}})),
            item(65, Some("helper"), "public", function(
                json!([]), json!({"primitive": "bool"}), no_generics(), false)),
            item(66, Some("internal"), "crate", json!({"module": {"is_crate": false,
                "items": [], "is_stripped": false}})),
        ]
        .into_iter()
        .collect();
        let external = |crate_id: u64, path: &[&str], kind: &str| json!({"crate_id": crate_id, "path": path, "kind": kind});
        json!({
            "root": 0,
            "format_version": 57,
            "index": index,
            "paths": {
                "3": external(0, &["demo", "store", "Record"], "struct"),
                "100": external(2, &["core", "clone", "Clone"], "trait"),
                "101": external(3, &["alloc", "string", "String"], "struct"),
                "102": external(2, &["core", "marker", "Send"], "trait"),
                "103": external(1, &["macros", "intents"], "proc_attribute"),
                "104": external(2, &["core", "convert", "Into"], "trait"),
                "105": external(2, &["core", "option", "Option"], "enum"),
                "106": external(2, &["core", "ops", "function", "Fn"], "trait"),
            },
        })
    }

    #[test]
    fn every_public_item_is_listed_once_in_full_at_the_path_a_user_writes() {
        assert_eq!(
            listing(&fixture()).unwrap(),
            [
                "pub mod demo",
                "pub type demo::Both = (u8, u8)",
                "pub enum demo::Kind",
                "pub demo::Kind::Empty",
                "pub demo::Kind::Named { name: alloc::string::String }",
                "pub demo::Kind::Pair(u8)",
                "pub const demo::LIMIT: usize",
                "pub static demo::NAMES: [&'static str; 2]",
                "pub use demo::Record = demo::store::Record (struct)",
                "pub trait demo::Source: core::marker::Send",
                "impl demo::Source for [u8]",
                "pub fn demo::Source::read<T: core::clone::Clone>(&self, from: T) -> core::option::Option<T>",
                "pub macro demo::demo_macro!",
                "pub fn demo::helper() -> bool",
                "pub use demo::intents = macros::intents (proc_attribute)",
                "pub async fn demo::run(task: impl core::ops::function::Fn())",
                "pub mod demo::store",
                "pub struct demo::store::Hidden",
                "pub struct demo::store::Record",
                "impl core::clone::Clone for demo::store::Record",
                "pub demo::store::Record::key: u32",
                "pub fn demo::store::Record::new(key: u32) -> Self",
            ]
        );
    }

    #[test]
    fn a_generic_impls_methods_name_its_parameters_and_a_module_that_reexports_its_parent_ends() {
        let r = json!({"generic": "R"});
        let clone_bound = json!([{"trait_bound": {"trait": path("Clone", 100),
            "generic_params": [], "modifier": "none"}}]);
        let wrapper_of_r = json!({"resolved_path": {"path": "Wrapper", "id": 1, "args":
            {"angle_bracketed": {"args": [{"type": r}], "constraints": []}}}});
        let index: serde_json::Map<String, Value> = [
            item(
                0,
                Some("demo"),
                "public",
                json!({"module": {"is_crate": true,
                "items": [1, 5], "is_stripped": false}}),
            ),
            item(
                1,
                Some("Wrapper"),
                "public",
                json!({"struct": {
                "kind": {"plain": {"fields": [], "has_stripped_fields": true}},
                "generics": {"params": [{"name": "R", "kind": {"type": {"bounds": [],
                    "default": null, "is_synthetic": false}}}], "where_predicates": []},
                "impls": [2]}}),
            ),
            item(
                2,
                None,
                "default",
                json!({"impl": {"is_unsafe": false,
                "generics": {"params": [{"name": "R", "kind": {"type": {"bounds": clone_bound,
                    "default": null, "is_synthetic": false}}}], "where_predicates": []},
                "provided_trait_methods": [], "trait": null, "for": wrapper_of_r,
                "items": [3], "is_negative": false, "is_synthetic": false,
                "blanket_impl": null}}),
            ),
            item(
                3,
                Some("get"),
                "public",
                function(
                    json!([["self", {"borrowed_ref": {"lifetime": null, "is_mutable": true,
                    "type": {"generic": "Self"}}}]]),
                    json!({"borrowed_ref": {"lifetime": null, "is_mutable": false, "type": r}}),
                    no_generics(),
                    false,
                ),
            ),
            item(
                5,
                Some("cycle"),
                "public",
                json!({"module": {"is_crate": false,
                "items": [6], "is_stripped": false}}),
            ),
            item(
                6,
                None,
                "public",
                json!({"use": {"source": "super", "name": "parent",
                "id": 0, "is_glob": false}}),
            ),
        ]
        .into_iter()
        .collect();
        let json = json!({"root": 0, "format_version": 57, "index": index,
            "paths": {"100": {"crate_id": 2, "path": ["core", "clone", "Clone"], "kind": "trait"}}});

        assert_eq!(
            listing(&json).unwrap(),
            [
                "pub mod demo",
                "pub struct demo::Wrapper<R>",
                "pub fn demo::Wrapper<R>::get(&mut self) -> &R where R: core::clone::Clone",
                "pub mod demo::cycle",
                "pub use demo::cycle::parent = demo (module)",
            ]
        );
    }

    #[test]
    fn a_format_the_listing_was_not_written_for_is_refused_by_name() {
        let mut json = fixture();
        json["format_version"] = json!(58);

        let error = listing(&json).unwrap_err().to_string();

        assert!(error.contains("format 58"), "{error}");
        assert!(error.contains("FORMAT_VERSIONS"), "{error}");
    }

    #[test]
    fn types_are_written_as_rust_writes_them() {
        let json = fixture();
        let krate = Crate::new(&json).unwrap();
        let dyn_future = json!({"dyn_trait": {"traits": [{"trait": path("Send", 102),
            "generic_params": []}], "lifetime": "'static"}});
        for (ty, written) in [
            (
                json!({"borrowed_ref": {"lifetime": "'a", "is_mutable": true,
                "type": {"slice": {"primitive": "u8"}}}}),
                "&'a mut [u8]",
            ),
            (
                json!({"raw_pointer": {"is_mutable": false, "type": {"primitive": "u8"}}}),
                "*const u8",
            ),
            (json!({"tuple": []}), "()"),
            (json!({"tuple": [{"generic": "T"}]}), "(T,)"),
            (dyn_future, "dyn core::marker::Send + 'static"),
            (
                json!({"qualified_path": {"name": "Item", "args": null,
                "self_type": {"generic": "I"}, "trait": path("Iterator", 999)}}),
                "<I as Iterator>::Item",
            ),
            (
                json!({"function_pointer": {"sig": {"inputs": [["_", {"primitive": "u8"}]],
                "output": {"primitive": "bool"}, "is_c_variadic": false},
                "generic_params": [], "header": {"is_const": false, "is_unsafe": false,
                "is_async": false, "abi": "Rust"}}}),
                "fn(u8) -> bool",
            ),
            (resolved("Record", 3), "demo::store::Record"),
            ("infer".into(), "_"),
        ] {
            assert_eq!(krate.ty(&ty).unwrap(), written);
        }
        assert!(krate.ty(&json!({"something_new": 1})).is_err());
    }

    #[test]
    fn the_diff_names_each_line_removed_and_added_in_order() {
        let old = "pub mod a\npub fn a::f()\npub fn a::g()\npub mod b\n";
        let new = "pub mod a\npub fn a::f(x: u8)\npub fn a::g()\npub mod b\npub mod c\n";

        assert_eq!(
            diff(old, new),
            "- pub fn a::f()\n+ pub fn a::f(x: u8)\n+ pub mod c\n"
        );
        assert_eq!(diff(new, new), "");
    }

    #[test]
    fn every_feature_but_the_test_only_ones_is_documented() {
        let metadata = json!({
            "packages": [
                {"name": "app", "features": {"other": []}},
                {"name": "poem-idempotency", "features": {
                    "default": ["durable"], "durable": [], "failpoints": [], "gate": []}},
            ],
            "target_directory": "/tmp/target",
        });

        let manifest = Manifest::from_metadata(&metadata).unwrap();

        assert_eq!(manifest.features, ["durable", "gate"]);
        assert_eq!(manifest.target_directory, Path::new("/tmp/target"));
    }

    #[test]
    fn arguments_choose_to_check_or_to_bless() {
        assert_eq!(mode(&[]).unwrap(), Mode::Check);
        assert_eq!(mode(&["--bless"]).unwrap(), Mode::Bless);
        assert!(mode(&["--blessed"]).is_err());
    }
}
