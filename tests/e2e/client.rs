//! The typed client (`clients/rust`): generated from the committed document, and retrying as
//! its documentation says against the real service.

use serde_json::Value;

use crate::docs::{repository_file, updating_expectations};

/// The generated client for `document`: progenitor's output (builder interface, the options as
/// the client's inner value), then the table of what the document declares that progenitor
/// does not read (`x-idempotency` intents, merge-patch bodies).
fn generated_client(document: &str) -> String {
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
    format!(
        "// Generated from openapi/openapi.json by progenitor; do not edit. Written again by\n\
         // `UPDATE_EXPECT=1 cargo test -p e2e --test e2e client::`.\n\n{code}\n\
         /// What the document declares that progenitor does not read.\n\
         pub(crate) mod declared {{\n\
         /// Operations whose `x-idempotency.intent` is `idempotent`: keyed and retried.\n\
         pub(crate) const IDEMPOTENT: &[&str] = &[\n{}];\n\
         /// Operations whose body is `application/merge-patch+json` (generated as JSON).\n\
         pub(crate) const MERGE_PATCH: &[&str] = &[\n{}];\n}}\n",
        list(&idempotent),
        list(&merge_patch),
    )
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

#[test]
fn the_client_is_generated_from_the_committed_document() {
    let document = std::fs::read_to_string(repository_file("openapi/openapi.json")).unwrap();
    let generated = generated_client(&document);
    let path = repository_file("clients/rust/src/generated.rs");

    if updating_expectations() {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();

    assert!(
        committed == generated,
        "clients/rust/src/generated.rs is not what progenitor makes of openapi/openapi.json; \
         write it again with `UPDATE_EXPECT=1 cargo test -p e2e --test e2e client::`"
    );
}

#[test]
fn operation_ids_are_named_as_progenitor_names_them() {
    assert_eq!(snake_case("createThing"), "create_thing");
    assert_eq!(snake_case("listOAuthProviders"), "list_o_auth_providers");
    assert_eq!(snake_case("healthLive"), "health_live");
}
