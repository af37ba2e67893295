//! The OpenAPI document and Swagger UI.

use e2e::TestApp;
use reqwest::StatusCode;
use serde_json::Value;

#[tokio::test]
async fn the_openapi_document_is_served_and_lists_the_operations() {
    let app = TestApp::spawn().await;

    let response = app.get("/openapi.json").await;

    assert_eq!(response.status(), StatusCode::OK);
    let document: Value = response.json().await.unwrap();
    assert!(document["paths"]["/api/v1/things"]["post"].is_object());
    assert!(document["paths"]["/health/ready"]["get"].is_object());
}

#[tokio::test]
async fn every_operation_documents_problem_details_for_errors() {
    let app = TestApp::spawn().await;

    let document: Value = app.get("/openapi.json").await.json().await.unwrap();

    let mut checked = 0;
    for (path, item) in document["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            if path.starts_with("/health") {
                continue;
            }
            checked += 1;
            let default = &operation["responses"]["default"]["content"]["application/problem+json"];
            assert!(
                default.is_object(),
                "{method} {path} must document its problem answers"
            );
        }
    }
    assert!(checked > 10, "only {checked} operations were checked");
}

#[tokio::test]
async fn response_headers_are_spelled_as_registered() {
    let app = TestApp::spawn().await;

    let document: Value = app.get("/openapi.json").await.json().await.unwrap();

    let things = &document["paths"]["/api/v1/things"]["post"]["responses"]["201"]["headers"];
    assert!(things["Location"].is_object(), "{things}");
    assert!(things["ETag"].is_object(), "{things}");
    let text = document.to_string();
    assert!(!text.contains("\"ETAG\"") && !text.contains("\"LOCATION\""));
}

#[tokio::test]
async fn a_create_links_to_the_operations_on_what_it_created() {
    let app = TestApp::spawn().await;

    let document: Value = app.get("/openapi.json").await.json().await.unwrap();

    let links = &document["paths"]["/api/v1/things"]["post"]["responses"]["201"]["links"];
    assert_eq!(links["getThing"]["parameters"]["id"], "$response.body#/id");
    assert_eq!(
        links["updateThing"]["parameters"]["header.If-Match"],
        "$response.header.ETag"
    );
    let notification = &document["paths"]["/api/v1/notifications"]["post"]["responses"]["201"];
    assert!(notification["links"]["markNotificationRead"].is_object());
}

#[tokio::test]
async fn conditional_headers_are_documented_parameters() {
    let app = TestApp::spawn().await;

    let document: Value = app.get("/openapi.json").await.json().await.unwrap();

    let header = |method: &str, name: &str| {
        document["paths"]["/api/v1/things/{id}"][method]["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .find(|parameter| parameter["in"] == "header" && parameter["name"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("{method} documents {name}"))
    };
    for method in ["put", "patch", "delete"] {
        assert_eq!(header(method, "If-Match")["required"], true, "{method}");
    }
    assert_eq!(header("get", "If-None-Match")["required"], false);
}

#[tokio::test]
async fn swagger_ui_is_served_under_docs() {
    let app = TestApp::spawn().await;

    let page = app.get("/docs/").await;

    assert_eq!(page.status(), StatusCode::OK);
    assert!(page.text().await.unwrap().contains("swagger-ui"));
}

#[tokio::test]
async fn swagger_ui_loads_the_served_document_and_keeps_authorization() {
    let app = TestApp::spawn().await;

    let initializer = app
        .get("/docs/swagger-initializer.js")
        .await
        .text()
        .await
        .unwrap();

    assert!(initializer.contains("/openapi.json"), "{initializer}");
    assert!(
        initializer.contains("persistAuthorization"),
        "{initializer}"
    );
}

#[tokio::test]
async fn docs_without_a_slash_redirects_to_docs_with_one() {
    let app = TestApp::spawn().await;

    let response = app.get("/docs").await;

    assert!(response.status().is_redirection());
    assert_eq!(response.headers()["location"], "/docs/");
}

/// The one command that rewrites `openapi/openapi.json` from the code.
const REGENERATE: &str = "cargo run -q -p app -- openapi > openapi/openapi.json";

#[tokio::test]
async fn the_committed_openapi_document_is_what_the_code_serves() {
    let app = TestApp::spawn().await;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../openapi/openapi.json");
    let committed = std::fs::read_to_string(&path).unwrap_or_default();

    let served: Value = app.get("/openapi.json").await.json().await.unwrap();

    let committed: Value = serde_json::from_str(&committed).unwrap_or(Value::Null);
    assert!(
        committed == served,
        "openapi/openapi.json is not what the code generates; regenerate it with:\n    {REGENERATE}"
    );
}

#[tokio::test]
async fn idempotent_operations_document_the_key_the_replay_header_and_the_409_and_422_answers() {
    let app = TestApp::spawn().await;

    let document: Value = app.get("/openapi.json").await.json().await.unwrap();

    let create = &document["paths"]["/api/v1/things"]["post"];
    assert_eq!(create["x-idempotency"]["intent"], "idempotent");
    assert_eq!(create["x-idempotency"]["retention"], "PT24H");
    let key = create["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "Idempotency-Key")
        .unwrap();
    assert_eq!(key["in"], "header");
    for status in ["409", "422"] {
        assert!(
            create["responses"][status]["content"]["application/problem+json"].is_object(),
            "{status}"
        );
    }
    assert!(create["responses"]["201"]["headers"]["X-Idempotent-Replay"].is_object());
}

#[tokio::test]
async fn the_readme_lists_the_intent_inventory_generated_from_the_document() {
    let app = TestApp::spawn().await;
    let readme = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"),
    )
    .unwrap();
    let section = readme
        .split("<!-- intents:begin -->\n")
        .nth(1)
        .and_then(|rest| rest.split("<!-- intents:end -->").next())
        .expect("README.md has an intents:begin / intents:end section");

    let document: Value = app.get("/openapi.json").await.json().await.unwrap();

    assert_eq!(
        section,
        app::docs::intent_inventory(&document),
        "the README's inventory is stale; regenerate the section with:\n    cargo run -q -p app -- intents"
    );
}
