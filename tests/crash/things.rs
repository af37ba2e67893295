//! The things module's durable operations, crashed after their commit: each is answered from
//! the committed outcome on retry, and its effect happens once. `cargo xtask new-module`
//! copies this file (renamed) for the module it makes.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::{KeyedRequest, Survivor, Test, bearer};
use e2e::is_replay;

/// This file's tests, which the binary's `main` runs with the others.
pub const TESTS: &[(&str, Test)] = &[
    (
        "a_thing_created_just_before_a_crash_is_created_once",
        || Box::pin(a_thing_created_just_before_a_crash_is_created_once()),
    ),
    (
        "a_thing_replaced_just_before_a_crash_is_replaced_once",
        || Box::pin(a_thing_replaced_just_before_a_crash_is_replaced_once()),
    ),
    (
        "a_thing_patched_just_before_a_crash_is_patched_once",
        || Box::pin(a_thing_patched_just_before_a_crash_is_patched_once()),
    ),
    (
        "a_thing_deleted_just_before_a_crash_answers_its_first_204",
        || Box::pin(a_thing_deleted_just_before_a_crash_answers_its_first_204()),
    ),
];

const COLLECTION: &str = "/api/v1/things";

async fn a_thing_created_just_before_a_crash_is_created_once() {
    let survivor = Survivor::start().await;
    let create = KeyedRequest::post(COLLECTION, json!({ "name": "crashed lamp" })).header(
        "authorization",
        format!("Bearer {}", survivor.app.token_for("alice")),
    );

    let retry = survivor.crash_then_retry(&create).await;

    assert_eq!(retry.status(), StatusCode::CREATED);
    assert!(is_replay(&retry), "the committed answer is replayed");
    assert_eq!(
        survivor.rows("things", "name = $1", "crashed lamp").await,
        1,
        "created once"
    );
}

/// Alice's thing named `name`, created without a key: its path.
async fn thing_of_alice(survivor: &Survivor, name: &str) -> String {
    let created: Value = survivor
        .app
        .send_json_as(
            "alice",
            reqwest::Method::POST,
            COLLECTION,
            &json!({ "name": name }),
        )
        .await
        .json()
        .await
        .expect("a created thing");
    format!("{COLLECTION}/{}", created["id"].as_str().expect("an id"))
}

async fn a_thing_replaced_just_before_a_crash_is_replaced_once() {
    let survivor = Survivor::start().await;
    let path = thing_of_alice(&survivor, "before").await;
    let replace = KeyedRequest {
        method: reqwest::Method::PUT,
        path: path.clone(),
        body: Some(json!({ "name": "after" })),
        headers: vec![
            (
                "authorization",
                format!("Bearer {}", survivor.app.token_for("alice")),
            ),
            ("if-match", "\"v1\"".to_owned()),
        ],
    };

    let retry = survivor.crash_then_retry(&replace).await;

    // Without the committed answer the retry would meet version 2 and answer 412.
    assert_eq!(retry.status(), StatusCode::OK);
    assert!(is_replay(&retry), "the committed answer is replayed");
    let id = path.rsplit('/').next().unwrap();
    assert_eq!(
        survivor.rows("things", "id = $1 AND version = 2", id).await,
        1,
        "replaced once"
    );
}

async fn a_thing_patched_just_before_a_crash_is_patched_once() {
    let survivor = Survivor::start().await;
    let path = thing_of_alice(&survivor, "before").await;
    // The body's type is set first: `json` keeps a Content-Type that is already there.
    let patch = KeyedRequest {
        method: reqwest::Method::PATCH,
        path: path.clone(),
        body: Some(json!({ "description": "patched" })),
        headers: vec![
            ("authorization", bearer(survivor.app.token_for("alice"))),
            ("if-match", "\"v1\"".to_owned()),
            ("content-type", "application/merge-patch+json".to_owned()),
        ],
    };

    let retry = survivor.crash_then_retry(&patch).await;

    // Without the committed answer the retry would meet version 2 and answer 412.
    assert_eq!(retry.status(), StatusCode::OK);
    assert!(is_replay(&retry), "the committed answer is replayed");
    let id = path.rsplit('/').next().unwrap();
    assert_eq!(
        survivor.rows("things", "id = $1 AND version = 2", id).await,
        1,
        "patched once"
    );
}

async fn a_thing_deleted_just_before_a_crash_answers_its_first_204() {
    let survivor = Survivor::start().await;
    let path = thing_of_alice(&survivor, "doomed").await;
    let delete = KeyedRequest {
        method: reqwest::Method::DELETE,
        path: path.clone(),
        body: None,
        headers: vec![
            (
                "authorization",
                format!("Bearer {}", survivor.app.token_for("alice")),
            ),
            ("if-match", "\"v1\"".to_owned()),
        ],
    };

    let retry = survivor.crash_then_retry(&delete).await;

    // Without the committed answer the retry would find nothing at version 1 and answer 412.
    assert_eq!(retry.status(), StatusCode::NO_CONTENT);
    assert!(is_replay(&retry), "the committed answer is replayed");
    let id = path.rsplit('/').next().unwrap();
    assert_eq!(survivor.rows("things", "id = $1", id).await, 0);
}
