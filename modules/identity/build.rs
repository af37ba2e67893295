//! Finds the module's migrations in `migrations/` (see `module_build`): a schema change is a new
//! file there, and nothing else.

fn main() {
    module_build::embed_migrations();
}
