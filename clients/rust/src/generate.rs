//! Writes the client again from the document (feature `generate`): progenitor's output for
//! `openapi/openapi.json`, formatted by rustfmt, with the table of what the document declares
//! that progenitor does not read. `cargo run -p api-client --features generate --bin
//! generate-client` writes `src/generated.rs`; the e2e suite's drift test compares.

use std::io::Write as _;
use std::process::{Command, Stdio};

use serde_json::Value;

/// The generated client for `document`: progenitor's output (builder interface, the options as
/// the client's inner value), then the table of what the document declares that progenitor
/// does not read (`x-idempotency` intents, merge-patch bodies).
pub fn client_code(document: &str) -> String {
    let mut document: Value = serde_json::from_str(document).expect("the document is JSON");
    let mut idempotent = Vec::new();
    let mut merge_patch = Vec::new();
    for item in document["paths"]
        .as_object_mut()
        .expect("paths")
        .values_mut()
    {
        for operation in item.as_object_mut().expect("a path item").values_mut() {
            let Some(id) = operation["operationId"].as_str().map(snake_case) else {
                continue;
            };
            // Named here as progenitor names them, so that the table and the hooks' operation
            // ids are the same strings.
            operation["operationId"] = Value::from(id.clone());
            if operation["x-idempotency"]["intent"] == "idempotent" {
                idempotent.push(id.clone());
                // Optional to the generated builder even where the service requires it: the
                // hooks give every call without one a key of its own.
                for parameter in operation["parameters"].as_array_mut().into_iter().flatten() {
                    if parameter["name"]
                        .as_str()
                        .is_some_and(|name| name.eq_ignore_ascii_case("idempotency-key"))
                    {
                        parameter["required"] = Value::Bool(false);
                    }
                }
            }
            let content = operation.pointer_mut("/requestBody/content");
            if let Some(content) = content.and_then(Value::as_object_mut)
                && let Some(media) = content.remove("application/merge-patch+json")
            {
                // progenitor generates JSON bodies only; the hooks send this one as declared.
                content.insert("application/json".to_owned(), media);
                merge_patch.push(id);
            }
        }
    }
    let spec: openapiv3::OpenAPI =
        serde_json::from_value(document).expect("an OpenAPI 3.0 document");
    let mut settings = progenitor::GenerationSettings::default();
    settings
        .with_interface(progenitor::InterfaceStyle::Builder)
        .with_inner_type(quote::quote!(crate::ClientOptions));
    let tokens = progenitor::Generator::new(&settings)
        .generate_tokens(&spec)
        .expect("progenitor generates the client");
    let code = prettyplease::unparse(&syn::parse2(tokens).expect("generated Rust parses"));
    let list = |ids: &[String]| {
        ids.iter()
            .map(|id| format!("    \"{id}\",\n"))
            .collect::<String>()
    };
    rustfmt(&format!(
        "// Generated from openapi/openapi.json by progenitor; do not edit. Written again by\n\
         // `cargo run -p api-client --features generate --bin generate-client`.\n\n{code}\n\
         /// What the document declares that progenitor does not read.\n\
         pub(crate) mod declared {{\n\
         /// Operations whose `x-idempotency.intent` is `idempotent`: keyed and retried.\n\
         pub(crate) const IDEMPOTENT: &[&str] = &[\n{}];\n\
         /// Operations whose body is `application/merge-patch+json` (generated as JSON).\n\
         pub(crate) const MERGE_PATCH: &[&str] = &[\n{}];\n}}\n",
        list(&idempotent),
        list(&merge_patch),
    ))
}

/// `listOAuthProviders` as progenitor names it: `list_o_auth_providers`.
fn snake_case(id: &str) -> String {
    let mut snake = String::with_capacity(id.len() + 4);
    for (index, character) in id.char_indices() {
        if character.is_ascii_uppercase() {
            if index > 0 {
                snake.push('_');
            }
            snake.push(character.to_ascii_lowercase());
        } else {
            snake.push(character);
        }
    }
    snake
}

/// `code` as rustfmt writes it (edition 2024), so that `cargo fmt` leaves the file alone.
fn rustfmt(code: &str) -> String {
    let rustfmt = std::env::var_os("RUSTFMT").unwrap_or_else(|| "rustfmt".into());
    let mut child = Command::new(rustfmt)
        .args(["--edition", "2024", "--emit", "stdout"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("rustfmt runs (it comes with the toolchain: `rustup component add rustfmt`)");
    child
        .stdin
        .take()
        .expect("rustfmt's stdin")
        .write_all(code.as_bytes())
        .expect("writing to rustfmt");
    let output = child.wait_with_output().expect("rustfmt finishes");
    assert!(
        output.status.success(),
        "rustfmt refused the generated code"
    );
    String::from_utf8(output.stdout).expect("rustfmt writes UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operation_ids_are_named_as_progenitor_names_them() {
        assert_eq!(snake_case("createThing"), "create_thing");
        assert_eq!(snake_case("listOAuthProviders"), "list_o_auth_providers");
        assert_eq!(snake_case("healthLive"), "health_live");
    }
}
