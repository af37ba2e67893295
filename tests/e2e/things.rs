//! The things module: CRUD of an owned entity, on SQLite or PostgreSQL.

use e2e::{TestApp, assert_problem};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

async fn create_thing(app: &TestApp, owner: &str, name: &str) -> Value {
    let response = app
        .send_json_as(
            owner,
            Method::POST,
            "/api/v1/things",
            &json!({ "name": name }),
        )
        .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    response.json().await.unwrap()
}

#[tokio::test]
async fn creating_a_thing_answers_201_with_location_and_etag() {
    let app = TestApp::spawn().await;

    let response = app
        .send_json_as(
            "alice",
            Method::POST,
            "/api/v1/things",
            &json!({ "name": "lamp", "description": "red" }),
        )
        .await;

    assert_eq!(response.status(), StatusCode::CREATED);
    let location = response.headers()["location"].to_str().unwrap().to_owned();
    let etag = response.headers()["etag"].to_str().unwrap().to_owned();
    let thing: Value = response.json().await.unwrap();
    assert_eq!(
        location,
        format!("/api/v1/things/{}", thing["id"].as_str().unwrap())
    );
    assert_eq!(etag, format!("\"{}-1\"", thing["id"].as_str().unwrap()));
    assert_eq!(thing["name"], "lamp");
    assert_eq!(thing["description"], "red");
}

#[tokio::test]
async fn a_created_thing_can_be_read_back() {
    let app = TestApp::spawn().await;
    let created = create_thing(&app, "alice", "lamp").await;

    let response = app
        .get_as(
            "alice",
            &format!("/api/v1/things/{}", created["id"].as_str().unwrap()),
        )
        .await;

    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.json::<Value>().await.unwrap(), created);
}

#[tokio::test]
async fn another_owner_cannot_see_the_thing() {
    let app = TestApp::spawn().await;
    let created = create_thing(&app, "alice", "lamp").await;

    let response = app
        .get_as(
            "bob",
            &format!("/api/v1/things/{}", created["id"].as_str().unwrap()),
        )
        .await;

    assert_problem(response, StatusCode::NOT_FOUND).await;
}

#[tokio::test]
async fn updating_a_thing_replaces_its_fields_and_bumps_its_version() {
    let app = TestApp::spawn().await;
    let created = create_thing(&app, "alice", "lamp").await;
    let path = format!("/api/v1/things/{}", created["id"].as_str().unwrap());

    let response = app
        .send_json_as("alice", Method::PUT, &path, &json!({ "name": "desk lamp" }))
        .await;

    assert_eq!(response.status(), StatusCode::OK);
    let updated: Value = response.json().await.unwrap();
    assert_eq!(updated["name"], "desk lamp");
    assert_eq!(updated["version"], 2);
}

#[tokio::test]
async fn updating_a_missing_thing_is_a_404_problem() {
    let app = TestApp::spawn().await;

    let response = app
        .send_json_as(
            "alice",
            Method::PUT,
            "/api/v1/things/missing",
            &json!({ "name": "x" }),
        )
        .await;

    assert_problem(response, StatusCode::NOT_FOUND).await;
}

#[tokio::test]
async fn deleting_a_thing_answers_204_then_it_is_gone() {
    let app = TestApp::spawn().await;
    let created = create_thing(&app, "alice", "lamp").await;
    let path = format!("/api/v1/things/{}", created["id"].as_str().unwrap());

    let response = app
        .http
        .delete(app.url(&path))
        .bearer_auth(app.token_for("alice"))
        .send()
        .await
        .unwrap();

    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_problem(app.get_as("alice", &path).await, StatusCode::NOT_FOUND).await;
}

#[tokio::test]
async fn listing_pages_through_the_callers_things_only() {
    let app = TestApp::spawn().await;
    for name in ["a", "b", "c"] {
        create_thing(&app, "alice", name).await;
    }
    create_thing(&app, "bob", "not alice's").await;

    let page: Value = app
        .get_as("alice", "/api/v1/things?page=2&perPage=2")
        .await
        .json()
        .await
        .unwrap();

    assert_eq!(page["total"], 3);
    assert_eq!(page["page"], 2);
    assert_eq!(page["items"].as_array().unwrap().len(), 1);
    assert_eq!(page["items"][0]["name"], "c");
}

#[tokio::test]
async fn a_blank_name_is_a_400_problem_and_creates_nothing() {
    let app = TestApp::spawn().await;

    let response = app
        .send_json_as(
            "alice",
            Method::POST,
            "/api/v1/things",
            &json!({ "name": "   " }),
        )
        .await;

    assert_problem(response, StatusCode::BAD_REQUEST).await;
    let page: Value = app
        .get_as("alice", "/api/v1/things")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(page["total"], 0);
}

#[tokio::test]
async fn a_token_signed_with_another_key_is_refused() {
    let app = TestApp::spawn().await;
    let forged = e2e::forged_token(&app.settings, "alice");

    let response = app
        .http
        .get(app.url("/api/v1/things"))
        .bearer_auth(forged)
        .send()
        .await
        .unwrap();

    assert_problem(response, StatusCode::UNAUTHORIZED).await;
}
