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

    for (path, item) in document["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            if path.starts_with("/health") {
                continue;
            }
            let default = &operation["responses"]["default"]["content"]["application/problem+json"];
            assert!(
                default.is_object(),
                "{method} {path} must document its problem answers"
            );
        }
    }
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
