//! The OpenAPI document and Swagger UI.

use e2e::TestApp;
use reqwest::StatusCode;
use serde_json::Value;
use testing::tools::{Suite, Tool};

#[tokio::test]
async fn the_openapi_document_is_served_and_lists_the_operations() {
    let app = TestApp::spawn().await;

    let response = app.get("/openapi.json").await;

    assert_eq!(response.status(), StatusCode::OK);
    let document: Value = response.json().await.unwrap();
    assert!(document["paths"]["/api/v1/things"]["post"].is_object());
    assert!(document["paths"]["/health/ready"]["get"].is_object());
}

/// Every operation of the served document, as (method, path, operation).
async fn operations(app: &TestApp) -> Vec<(String, String, Value)> {
    let document: Value = app.get("/openapi.json").await.json().await.unwrap();
    let mut operations = Vec::new();
    for (path, item) in document["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            operations.push((method.to_uppercase(), path.clone(), operation.clone()));
        }
    }
    assert!(
        operations.len() > 30,
        "only {} operations",
        operations.len()
    );
    operations
}

#[tokio::test]
async fn every_error_answer_is_documented_by_status_as_problem_details() {
    let app = TestApp::spawn().await;

    let operations = operations(&app).await;

    for (method, path, operation) in operations {
        let responses = operation["responses"].as_object().unwrap();
        assert!(
            !responses.contains_key("default"),
            "{method} {path} documents a catch-all `default` instead of its statuses"
        );
        for (status, response) in responses {
            if status.starts_with('4') || status.starts_with('5') {
                assert!(
                    response["content"]["application/problem+json"].is_object(),
                    "{method} {path} {status} must be problem details"
                );
            }
        }
    }
}

#[tokio::test]
async fn every_operation_documents_a_malformed_request_and_a_fault() {
    let app = TestApp::spawn().await;

    let operations = operations(&app).await;

    for (method, path, operation) in operations {
        for status in ["400", "500"] {
            assert!(
                operation["responses"][status].is_object(),
                "{method} {path} does not document {status}"
            );
        }
    }
}

#[tokio::test]
async fn operations_that_need_credentials_or_take_a_body_document_what_the_stack_refuses() {
    let app = TestApp::spawn().await;

    let operations = operations(&app).await;

    for (method, path, operation) in operations {
        let secured = operation["security"]
            .as_array()
            .is_some_and(|schemes| !schemes.is_empty());
        if secured {
            assert!(
                operation["responses"]["401"].is_object(),
                "{method} {path} needs credentials but does not document 401"
            );
        }
        if operation.get("requestBody").is_some() {
            for status in ["413", "415"] {
                assert!(
                    operation["responses"][status].is_object(),
                    "{method} {path} takes a body but does not document {status}"
                );
            }
        }
    }
}

#[tokio::test]
async fn a_status_both_the_handler_and_the_key_answer_keeps_both_meanings() {
    let app = TestApp::spawn().await;

    let operations = operations(&app).await;

    let (_, _, replace) = operations
        .iter()
        .find(|(_, _, operation)| operation["operationId"] == "updateThing")
        .unwrap();
    let conflict = replace["responses"]["409"]["description"].as_str().unwrap();
    assert!(conflict.contains("kept changing"), "{conflict}");
    assert!(conflict.contains("Idempotency-Key"), "{conflict}");
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
    assert!(
        initializer
            .contains("requestInterceptor: (request) => window.ui ? idempotencyKeyInterceptor("),
        "Swagger UI is started with the Idempotency-Key interceptor: {initializer}"
    );
}

/// Runs Swagger UI's served start-up script under Node.js (as a browser would run it, minus the
/// page) and asks its request interceptor what it does to `requests`: the `Idempotency-Key`
/// each one leaves with (`null`: none).
fn idempotency_keys_swagger_would_send(
    script: &str,
    document: &Value,
    requests: &Value,
) -> Vec<Value> {
    const HARNESS: &str = r#"
        let input = "";
        process.stdin.on("data", (chunk) => (input += chunk)).on("end", () => {
            const { script, document, requests } = JSON.parse(input);
            const window = {};
            eval(script);
            const intercept = idempotencyKeyInterceptor(document, freshIdempotencyKey);
            const keys = requests.map((request) =>
                intercept({ ...request, headers: { ...request.headers } }).headers["Idempotency-Key"] ?? null);
            console.log(JSON.stringify(keys));
        });
    "#;
    let mut node = std::process::Command::new(Tool::Node.require())
        .arg("-e")
        .arg(HARNESS)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("node starts");
    let input = serde_json::json!({ "script": script, "document": document, "requests": requests });
    std::io::Write::write_all(node.stdin.as_mut().unwrap(), input.to_string().as_bytes()).unwrap();
    drop(node.stdin.take());
    let output = node.wait_with_output().unwrap();
    assert!(output.status.success(), "node failed");
    serde_json::from_slice(&output.stdout).expect("the harness prints JSON")
}

#[tokio::test]
async fn swagger_ui_sends_a_fresh_idempotency_key_with_each_try_unless_one_is_typed() {
    testing::needs_tools_of!(Suite::SwaggerScript);
    let app = TestApp::spawn().await;
    let script = app
        .get("/docs/swagger-initializer.js")
        .await
        .text()
        .await
        .unwrap();
    let document: Value = app.get("/openapi.json").await.json().await.unwrap();
    let create = serde_json::json!({ "url": "http://localhost:8080/api/v1/things", "method": "post", "headers": {} });

    let keys = idempotency_keys_swagger_would_send(
        &script,
        &document,
        &serde_json::json!([
            create,
            create,
            { "url": "/api/v1/things", "method": "post", "headers": { "Idempotency-Key": "typed-1" } },
            { "url": "/api/v1/things/0193", "method": "put", "headers": {} },
            { "url": "/api/v1/auth/login", "method": "post", "headers": {} },
            { "url": "/api/v1/things", "method": "get", "headers": {} },
        ]),
    );

    let uuid = |key: &Value| key.as_str().and_then(|key| uuid::Uuid::parse_str(key).ok());
    assert!(
        uuid(&keys[0]).is_some() && uuid(&keys[1]).is_some(),
        "{keys:?}"
    );
    assert_ne!(keys[0], keys[1], "each try gets its own key");
    assert_eq!(keys[2], "typed-1", "a typed key is sent as typed");
    assert!(uuid(&keys[3]).is_some(), "a replacement takes a key too");
    assert_eq!(keys[4], Value::Null, "login takes no key");
    assert_eq!(keys[5], Value::Null, "a read takes no key");
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
    let path = repository_file("openapi/openapi.json");
    let committed = std::fs::read_to_string(&path).unwrap_or_default();

    let served: Value = app.get("/openapi.json").await.json().await.unwrap();

    let committed: Value = serde_json::from_str(&committed).unwrap_or(Value::Null);
    if committed != served && updating_expectations() {
        let text = serde_json::to_string_pretty(&served).unwrap() + "\n";
        std::fs::write(&path, text).expect("rewriting openapi/openapi.json");
        return;
    }
    assert!(
        committed == served,
        "openapi/openapi.json is not what the code generates; rewrite it with \
         `UPDATE_EXPECT=1 cargo test -p e2e --test e2e docs::` or:\n    {REGENERATE}"
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
    let path = repository_file("README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let (before, rest) = readme
        .split_once("<!-- intents:begin -->\n")
        .expect("README.md has an intents:begin section");
    let (section, after) = rest
        .split_once("<!-- intents:end -->")
        .expect("README.md has an intents:end section");

    let document: Value = app.get("/openapi.json").await.json().await.unwrap();

    let inventory = app::docs::intent_inventory(&document);
    if section != inventory && updating_expectations() {
        let rewritten =
            format!("{before}<!-- intents:begin -->\n{inventory}<!-- intents:end -->{after}");
        std::fs::write(&path, rewritten).expect("rewriting README.md");
        return;
    }
    assert_eq!(
        section, inventory,
        "the README's inventory is stale; rewrite it with \
         `UPDATE_EXPECT=1 cargo test -p e2e --test e2e docs::`, or regenerate the section with:\n    \
         cargo run -q -p app -- intents"
    );
}

/// A file of the repository, from the `tests` crate.
pub(crate) fn repository_file(relative: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(relative)
}

/// `UPDATE_EXPECT=1`: drift tests rewrite their committed files instead of failing (the
/// expect-test convention). CI never sets it.
pub(crate) fn updating_expectations() -> bool {
    std::env::var("UPDATE_EXPECT").is_ok_and(|value| value == "1")
}

#[tokio::test]
async fn every_time_in_the_document_is_an_rfc_3339_date_time() {
    let app = TestApp::spawn().await;

    let document: Value = app.get("/openapi.json").await.json().await.unwrap();

    let schemas = document["components"]["schemas"].as_object().unwrap();
    let mut times = Vec::new();
    for (schema_name, schema) in schemas {
        let properties = schema["properties"].as_object().into_iter().flatten();
        for (name, property) in properties {
            assert!(
                !name.ends_with("Ms"),
                "{schema_name}.{name}: a time is sent as RFC 3339, not milliseconds"
            );
            if name.ends_with("At") {
                assert_eq!(
                    (&property["type"], &property["format"]),
                    (&Value::from("string"), &Value::from("date-time")),
                    "{schema_name}.{name}"
                );
                times.push(format!("{schema_name}.{name}"));
            }
        }
    }
    for expected in [
        "UserView.createdAt",
        "SessionView.expiresAt",
        "Thing.createdAt",
    ] {
        assert!(times.contains(&expected.to_owned()), "{times:?}");
    }
}
