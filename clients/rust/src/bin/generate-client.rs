//! `cargo run -p api-client --features generate --bin generate-client`: writes
//! `clients/rust/src/generated.rs` from `openapi/openapi.json`.

use std::path::Path;

fn main() {
    let crate_root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let document = std::fs::read_to_string(crate_root.join("../../openapi/openapi.json"))
        .expect("openapi/openapi.json is readable");
    let generated = crate_root.join("src/generated.rs");
    std::fs::write(&generated, api_client::generate::client_code(&document))
        .expect("src/generated.rs is writable");
    println!("wrote {}", generated.display());
}
