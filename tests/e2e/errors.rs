//! Every error, the framework's own included, is RFC 9457 problem+json.

use e2e::fixtures::FixtureApi;
use e2e::{TestApp, assert_problem};
use reqwest::StatusCode;

#[tokio::test]
async fn an_unknown_route_is_a_404_problem() {
    let app = TestApp::spawn().await;

    let response = app.get("/no/such/route").await;

    let problem = assert_problem(response, StatusCode::NOT_FOUND).await;
    assert_eq!(problem["instance"], "/no/such/route");
}

#[tokio::test]
async fn a_wrong_method_is_a_405_problem() {
    let app = TestApp::spawn().await;

    let response = app
        .http
        .patch(app.url("/api/v1/things"))
        .send()
        .await
        .unwrap();

    assert_problem(response, StatusCode::METHOD_NOT_ALLOWED).await;
}

#[tokio::test]
async fn a_405_names_the_methods_that_would_have_worked() {
    let app = TestApp::spawn().await;
    let allow =
        |response: &reqwest::Response| response.headers()["allow"].to_str().unwrap().to_owned();

    let thing = app
        .request(reqwest::Method::TRACE, "/api/v1/things/some-id")
        .send()
        .await
        .unwrap();
    let login = app
        .request(reqwest::Method::GET, "/api/v1/auth/login")
        .send()
        .await
        .unwrap();

    assert_eq!(thing.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(allow(&thing), "GET, PUT, PATCH, DELETE");
    assert_eq!(login.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(allow(&login), "POST");
}

#[tokio::test]
async fn malformed_json_is_a_400_problem() {
    let app = TestApp::spawn().await;

    let response = app
        .http
        .post(app.url("/api/v1/things"))
        .bearer_auth(app.token_for("alice"))
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();

    assert_problem(response, StatusCode::BAD_REQUEST).await;
}

#[tokio::test]
async fn an_invalid_parameter_is_a_400_problem() {
    let app = TestApp::spawn().await;

    let response = app
        .http
        .get(app.url("/api/v1/things?page=not-a-number"))
        .bearer_auth(app.token_for("alice"))
        .send()
        .await
        .unwrap();

    let problem = assert_problem(response, StatusCode::BAD_REQUEST).await;
    assert!(
        problem["detail"].as_str().unwrap().contains("page"),
        "{problem}"
    );
}

#[tokio::test]
async fn every_list_refuses_a_page_out_of_range_with_the_same_problem() {
    let app = TestApp::spawn().await;
    let document: serde_json::Value = app.get("/openapi.json").await.json().await.unwrap();
    let lists = paged_lists(&document);
    assert!(lists.len() >= 5, "{lists:?}");

    for list in &lists {
        let mut details = Vec::new();
        for query in ["page=0", "perPage=101", "page=x"] {
            let response = app
                .http
                .get(app.url(&format!("{list}?{query}")))
                .bearer_auth(app.token_for("alice"))
                .send()
                .await
                .unwrap();
            let problem = assert_problem(response, StatusCode::BAD_REQUEST).await;
            details.push(problem["detail"].as_str().unwrap().to_owned());
        }

        assert_eq!(
            details,
            [
                "failed to parse parameter `page`: verification failed. minimum(1, exclusive: false)",
                "failed to parse parameter `perPage`: verification failed. maximum(100, exclusive: false)",
                "failed to parse parameter `page`: failed to parse \"integer(uint32)\": invalid digit found in string (occurred while parsing \"optional_integer(uint32)\")",
            ],
            "{list}"
        );
    }
}

/// The paths of the document's GET operations that take `page` and `perPage`.
fn paged_lists(document: &serde_json::Value) -> Vec<String> {
    let paths = document["paths"].as_object().unwrap();
    paths
        .iter()
        .filter(|(_, item)| {
            let names: Vec<_> = item["get"]["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|parameter| parameter["name"].as_str())
                .collect();
            names.contains(&"page") && names.contains(&"perPage")
        })
        .map(|(path, _)| path.clone())
        .collect()
}

#[tokio::test]
async fn a_missing_parameter_is_a_400_problem() {
    let app = TestApp::builder().spawn_with(FixtureApi).await;

    let response = app.get("/api/v1/fixtures/slow").await;

    assert_problem(response, StatusCode::BAD_REQUEST).await;
}

#[tokio::test]
async fn a_body_over_the_limit_is_a_413_problem() {
    let app = TestApp::builder()
        .setting("server.body_limit_bytes", "64")
        .spawn()
        .await;

    let response = app
        .http
        .post(app.url("/api/v1/things"))
        .bearer_auth(app.token_for("alice"))
        .json(&serde_json::json!({ "name": "x".repeat(200) }))
        .send()
        .await
        .unwrap();

    assert_problem(response, StatusCode::PAYLOAD_TOO_LARGE).await;
}

#[tokio::test]
async fn an_unsupported_media_type_is_a_415_problem() {
    let app = TestApp::spawn().await;

    let response = app
        .http
        .post(app.url("/api/v1/things"))
        .bearer_auth(app.token_for("alice"))
        .header("content-type", "text/plain")
        .body("name=x")
        .send()
        .await
        .unwrap();

    assert_problem(response, StatusCode::UNSUPPORTED_MEDIA_TYPE).await;
}

#[tokio::test]
async fn a_missing_token_is_a_401_problem_with_a_bearer_challenge() {
    let app = TestApp::spawn().await;

    let response = app.get("/api/v1/things").await;

    assert_eq!(response.headers()["www-authenticate"], "Bearer");
    assert_problem(response, StatusCode::UNAUTHORIZED).await;
}

#[tokio::test]
async fn a_panicking_handler_is_a_500_problem_that_reveals_nothing() {
    let app = TestApp::builder().spawn_with(FixtureApi).await;

    let response = app.get("/api/v1/fixtures/panic").await;

    let problem = assert_problem(response, StatusCode::INTERNAL_SERVER_ERROR).await;
    assert!(
        !problem.to_string().contains("secret internals"),
        "{problem}"
    );
}

#[tokio::test]
async fn a_nul_character_in_a_path_or_query_is_a_400_problem_on_every_database() {
    let app = TestApp::spawn().await;

    let in_path = app.get_as("alice", "/api/v1/things/a%00b").await;
    let in_query = app
        .get_as("alice", "/api/v1/things?nameContains=a%00")
        .await;

    assert_problem(in_path, StatusCode::BAD_REQUEST).await;
    assert_problem(in_query, StatusCode::BAD_REQUEST).await;
}
