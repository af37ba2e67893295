//! The things module: CRUD of an owned entity, on SQLite or PostgreSQL.

use e2e::{TestApp, assert_api_time, assert_problem};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

/// Alice replaces her thing at `path` with one named `name`, under `If-Match: if_match` when
/// given.
async fn replace(
    app: &TestApp,
    path: &str,
    if_match: Option<&str>,
    name: &str,
) -> reqwest::Response {
    conditional(app, Method::PUT, path, if_match)
        .json(&json!({ "name": name }))
        .send()
        .await
        .expect("request failed")
}

/// Alice deletes her thing at `path`, under `If-Match: if_match` when given.
async fn delete(app: &TestApp, path: &str, if_match: Option<&str>) -> reqwest::Response {
    conditional(app, Method::DELETE, path, if_match)
        .send()
        .await
        .expect("request failed")
}

pub(crate) fn conditional(
    app: &TestApp,
    method: Method,
    path: &str,
    if_match: Option<&str>,
) -> reqwest::RequestBuilder {
    let request = app
        .request(method, path)
        .bearer_auth(app.token_for("alice"));
    match if_match {
        Some(tag) => request.header("if-match", tag),
        None => request,
    }
}

/// The path of a thing `owner` creates named `name`.
pub(crate) async fn created_path(app: &TestApp, owner: &str, name: &str) -> String {
    let created = create_thing(app, owner, name).await;
    format!("/api/v1/things/{}", created["id"].as_str().unwrap())
}

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
    assert_eq!(etag, "\"v1\"");
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
    let path = created_path(&app, "alice", "lamp").await;

    let response = replace(&app, &path, Some("\"v1\""), "desk lamp").await;

    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["etag"], "\"v2\"");
    let updated: Value = response.json().await.unwrap();
    assert_eq!(updated["name"], "desk lamp");
    assert_eq!(updated["version"], 2);
}

#[tokio::test]
async fn updating_a_missing_thing_is_a_404_problem() {
    let app = TestApp::builder()
        .setting("things.require_if_match", "false")
        .spawn()
        .await;

    let response = replace(&app, "/api/v1/things/missing", None, "x").await;

    assert_problem(response, StatusCode::NOT_FOUND).await;
}

#[tokio::test]
async fn deleting_a_thing_answers_204_then_it_is_gone() {
    let app = TestApp::spawn().await;
    let path = created_path(&app, "alice", "lamp").await;

    let response = delete(&app, &path, Some("\"v1\"")).await;

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

/// Creating a thing from `body` answers a 400 problem, and alice still has no things.
async fn assert_create_refused(app: &TestApp, body: Value) {
    let response = app
        .send_json_as("alice", Method::POST, "/api/v1/things", &body)
        .await;

    assert_problem(response, StatusCode::BAD_REQUEST).await;
    let (names, total) = listed_names(app, "").await;
    assert_eq!((names.len(), total), (0, 0));
}

#[tokio::test]
async fn a_blank_name_is_a_400_problem_and_creates_nothing() {
    let app = TestApp::spawn().await;

    assert_create_refused(&app, json!({ "name": "   " })).await;
}

#[tokio::test]
async fn a_name_that_is_not_a_json_string_is_a_400_problem_and_creates_nothing() {
    let app = TestApp::spawn().await;

    assert_create_refused(&app, json!({ "name": 12 })).await;
}

#[tokio::test]
async fn a_name_with_a_nul_character_is_a_400_problem_on_every_database() {
    let app = TestApp::spawn().await;

    assert_create_refused(&app, json!({ "name": "lamp\u{0}" })).await;
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

#[tokio::test]
async fn a_change_without_if_match_is_a_428_problem() {
    let app = TestApp::spawn().await;
    let path = created_path(&app, "alice", "lamp").await;

    let put = replace(&app, &path, None, "x").await;
    let delete = delete(&app, &path, None).await;

    assert_problem(put, StatusCode::PRECONDITION_REQUIRED).await;
    assert_problem(delete, StatusCode::PRECONDITION_REQUIRED).await;
    let unchanged: Value = app.get_as("alice", &path).await.json().await.unwrap();
    assert_eq!(unchanged["name"], "lamp");
}

#[tokio::test]
async fn a_change_to_a_version_since_replaced_is_a_412_and_changes_nothing() {
    let app = TestApp::spawn().await;
    let path = created_path(&app, "alice", "lamp").await;
    let first = replace(&app, &path, Some("\"v1\""), "desk lamp").await;

    let stale_put = replace(&app, &path, Some("\"v1\""), "floor lamp").await;
    let stale_delete = delete(&app, &path, Some("\"v1\"")).await;

    assert_eq!(first.status(), StatusCode::OK);
    assert_problem(stale_put, StatusCode::PRECONDITION_FAILED).await;
    assert_problem(stale_delete, StatusCode::PRECONDITION_FAILED).await;
    let current: Value = app.get_as("alice", &path).await.json().await.unwrap();
    assert_eq!(current["name"], "desk lamp");
    assert_eq!(current["version"], 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_updates_of_one_version_lose_nothing_one_wins() {
    let app = TestApp::spawn().await;
    let path = created_path(&app, "alice", "lamp").await;

    let names: Vec<String> = (0..8).map(|n| format!("lamp {n}")).collect();
    let updates = names
        .iter()
        .map(|name| replace(&app, &path, Some("\"v1\""), name));
    let statuses: Vec<StatusCode> = futures_util::future::join_all(updates)
        .await
        .iter()
        .map(reqwest::Response::status)
        .collect();

    let won = statuses.iter().filter(|s| **s == StatusCode::OK).count();
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::PRECONDITION_FAILED)
        .count();
    assert_eq!((won, refused), (1, 7), "{statuses:?}");
    let current: Value = app.get_as("alice", &path).await.json().await.unwrap();
    assert_eq!(current["version"], 2);
}

#[tokio::test]
async fn a_retried_conditional_update_with_its_key_replays_the_first_200_not_a_412() {
    let app = TestApp::spawn().await;
    let path = created_path(&app, "alice", "lamp").await;
    let update = || {
        conditional(&app, Method::PUT, &path, Some("\"v1\""))
            .header("idempotency-key", "update-lamp-1")
            .json(&json!({ "name": "desk lamp" }))
            .send()
    };

    let first = update().await.unwrap();
    let retry = update().await.unwrap();

    assert_eq!(first.status(), StatusCode::OK);
    assert_eq!(
        retry.status(),
        StatusCode::OK,
        "not a 412 against the version it wrote"
    );
    assert!(e2e::is_replay(&retry));
    assert_eq!(retry.headers()["etag"], "\"v2\"");
}

#[tokio::test]
async fn a_read_whose_if_none_match_still_holds_is_a_304() {
    let app = TestApp::spawn().await;
    let path = created_path(&app, "alice", "lamp").await;
    let get = |tag: &'static str| {
        app.request(Method::GET, &path)
            .bearer_auth(app.token_for("alice"))
            .header("if-none-match", tag)
            .send()
    };

    let unchanged = get("\"v1\"").await.unwrap();
    let any = get("*").await.unwrap();
    let changed = get("\"v0\"").await.unwrap();

    assert_eq!(unchanged.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(unchanged.headers()["etag"], "\"v1\"");
    assert_eq!(any.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(changed.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_malformed_if_match_is_a_400_problem() {
    let app = TestApp::spawn().await;
    let path = created_path(&app, "alice", "lamp").await;

    let response = delete(&app, &path, Some("v1")).await;

    assert_problem(response, StatusCode::BAD_REQUEST).await;
}

#[tokio::test]
async fn without_required_if_match_changes_need_no_condition_and_a_delete_of_nothing_is_a_204() {
    let app = TestApp::builder()
        .setting("things.require_if_match", "false")
        .spawn()
        .await;
    let path = created_path(&app, "alice", "lamp").await;

    let put = replace(&app, &path, None, "x").await;
    let deleted = delete(&app, &path, None).await;
    let deleted_again = delete(&app, &path, None).await;

    assert_eq!(put.status(), StatusCode::OK);
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        deleted_again.status(),
        StatusCode::NO_CONTENT,
        "gone is gone"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_burst_of_creates_never_takes_an_owner_past_the_limit() {
    let app = TestApp::builder()
        .setting("things.max_things_per_owner", "3")
        .spawn()
        .await;

    let creates = (0..10).map(|n| {
        app.request(Method::POST, "/api/v1/things")
            .bearer_auth(app.token_for("alice"))
            .json(&json!({ "name": format!("lamp {n}") }))
            .send()
    });
    let statuses: Vec<StatusCode> = futures_util::future::join_all(creates)
        .await
        .into_iter()
        .map(|response| response.expect("request failed").status())
        .collect();

    let created = statuses
        .iter()
        .filter(|s| **s == StatusCode::CREATED)
        .count();
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::CONFLICT)
        .count();
    assert_eq!((created, refused), (3, 7), "{statuses:?}");
    let page: Value = app
        .get_as("alice", "/api/v1/things")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(page["total"], 3);
}

#[tokio::test]
async fn deleting_a_thing_frees_its_place_under_the_limit() {
    let app = TestApp::builder()
        .setting("things.max_things_per_owner", "1")
        .spawn()
        .await;
    let path = created_path(&app, "alice", "lamp").await;
    let over = app
        .send_json_as(
            "alice",
            Method::POST,
            "/api/v1/things",
            &json!({ "name": "desk" }),
        )
        .await;

    delete(&app, &path, Some("\"v1\"")).await;
    let after_delete = app
        .send_json_as(
            "alice",
            Method::POST,
            "/api/v1/things",
            &json!({ "name": "desk" }),
        )
        .await;

    assert_problem(over, StatusCode::CONFLICT).await;
    assert_eq!(after_delete.status(), StatusCode::CREATED);
}

#[tokio::test]
async fn a_thing_without_a_description_has_no_description_field() {
    let app = TestApp::spawn().await;

    let created = create_thing(&app, "alice", "lamp").await;

    assert!(created.get("description").is_none(), "{created}");
}

/// The path of a thing alice creates named "lamp", described "red".
async fn red_lamp_path(app: &TestApp) -> String {
    let created = app
        .send_json_as(
            "alice",
            Method::POST,
            "/api/v1/things",
            &json!({ "name": "lamp", "description": "red" }),
        )
        .await;
    assert_eq!(created.status(), StatusCode::CREATED);
    created.headers()["location"].to_str().unwrap().to_owned()
}

/// PATCHes `path` as alice with a JSON Merge Patch under `If-Match: "v1"`.
async fn merge_patch(app: &TestApp, path: &str, patch: Value) -> reqwest::Response {
    conditional(app, Method::PATCH, path, Some("\"v1\""))
        .header("content-type", "application/merge-patch+json")
        .body(patch.to_string())
        .send()
        .await
        .expect("request failed")
}

#[tokio::test]
async fn a_merge_patch_changes_only_the_fields_it_names() {
    let app = TestApp::spawn().await;
    let path = red_lamp_path(&app).await;

    let response = merge_patch(&app, &path, json!({ "name": "desk lamp" })).await;

    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["etag"], "\"v2\"");
    let patched: Value = response.json().await.unwrap();
    assert_eq!(patched["name"], "desk lamp");
    assert_eq!(patched["description"], "red", "left out, left as it was");
}

#[tokio::test]
async fn a_merge_patch_with_null_removes_the_description() {
    let app = TestApp::spawn().await;
    let path = red_lamp_path(&app).await;

    let response = merge_patch(&app, &path, json!({ "description": null })).await;

    assert_eq!(response.status(), StatusCode::OK);
    let patched: Value = response.json().await.unwrap();
    assert!(patched.get("description").is_none(), "{patched}");
    assert_eq!(patched["name"], "lamp");
}

#[tokio::test]
async fn a_merge_patch_cannot_remove_or_blank_the_name() {
    let app = TestApp::spawn().await;
    let path = created_path(&app, "alice", "lamp").await;

    let removed = merge_patch(&app, &path, json!({ "name": null })).await;
    let blank = merge_patch(&app, &path, json!({ "name": "   " })).await;

    assert_problem(removed, StatusCode::BAD_REQUEST).await;
    assert_problem(blank, StatusCode::BAD_REQUEST).await;
    let unchanged: Value = app.get_as("alice", &path).await.json().await.unwrap();
    assert_eq!(unchanged["version"], 1);
}

#[tokio::test]
async fn a_patch_in_plain_json_is_refused() {
    let app = TestApp::spawn().await;
    let path = created_path(&app, "alice", "lamp").await;

    let response = app
        .request(Method::PATCH, &path)
        .bearer_auth(app.token_for("alice"))
        .header("if-match", "\"v1\"")
        .json(&json!({ "name": "desk lamp" }))
        .send()
        .await
        .unwrap();

    assert_problem(response, StatusCode::UNSUPPORTED_MEDIA_TYPE).await;
}

#[tokio::test]
async fn a_create_that_fails_takes_no_place_under_the_limit() {
    let app = TestApp::builder()
        .setting("things.max_things_per_owner", "1")
        .spawn()
        .await;
    let fault = app
        .database
        .inject_fault("things", testing::fault::Statement::Insert)
        .await;

    let failed = app
        .send_json_as(
            "alice",
            Method::POST,
            "/api/v1/things",
            &json!({ "name": "lamp" }),
        )
        .await;
    fault.remove().await;
    let retried = app
        .send_json_as(
            "alice",
            Method::POST,
            "/api/v1/things",
            &json!({ "name": "lamp" }),
        )
        .await;

    assert_problem(failed, StatusCode::INTERNAL_SERVER_ERROR).await;
    assert_eq!(
        retried.status(),
        StatusCode::CREATED,
        "the failed create was not counted"
    );
}

#[tokio::test]
async fn a_delete_that_fails_keeps_the_thing() {
    let app = TestApp::spawn().await;
    let path = created_path(&app, "alice", "lamp").await;
    let fault = app
        .database
        .inject_fault(
            "things_owners",
            testing::fault::Statement::UpdateOf("things"),
        )
        .await;

    let failed = delete(&app, &path, Some("\"v1\"")).await;
    let meanwhile = app.get_as("alice", &path).await;
    fault.remove().await;
    let retried = delete(&app, &path, Some("\"v1\"")).await;

    assert_problem(failed, StatusCode::INTERNAL_SERVER_ERROR).await;
    assert_eq!(
        meanwhile.status(),
        StatusCode::OK,
        "the thing is still there"
    );
    assert_eq!(retried.status(), StatusCode::NO_CONTENT);
}

#[tokio::test]
async fn times_are_rfc_3339_in_utc_with_milliseconds() {
    let app = TestApp::spawn().await;

    let created = create_thing(&app, "alice", "lamp").await;

    assert_api_time(&created["createdAt"]);
    assert_eq!(created["updatedAt"], created["createdAt"]);
}

/// The names on the first page of `query` (e.g. `?sort=-name`), as alice.
async fn listed_names(app: &TestApp, query: &str) -> (Vec<String>, u64) {
    let page: Value = app
        .get_as("alice", &format!("/api/v1/things{query}"))
        .await
        .json()
        .await
        .unwrap();
    let names = page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["name"].as_str().unwrap().to_owned())
        .collect();
    (names, page["total"].as_u64().unwrap())
}

#[tokio::test]
async fn lists_are_sorted_as_asked() {
    let app = TestApp::spawn().await;
    for name in ["b", "c", "a"] {
        create_thing(&app, "alice", name).await;
        // Creation times in whole milliseconds: keep them apart.
        tokio::time::sleep(std::time::Duration::from_millis(3)).await;
    }

    let oldest_first = listed_names(&app, "").await.0;
    let newest_first = listed_names(&app, "?sort=-createdAt").await.0;
    let by_name = listed_names(&app, "?sort=name").await.0;
    let by_name_reversed = listed_names(&app, "?sort=-name").await.0;

    assert_eq!(oldest_first, ["b", "c", "a"]);
    assert_eq!(newest_first, ["a", "c", "b"]);
    assert_eq!(by_name, ["a", "b", "c"]);
    assert_eq!(by_name_reversed, ["c", "b", "a"]);
}

#[tokio::test]
async fn lists_filter_by_a_name_fragment_ignoring_case_and_counting_only_matches() {
    let app = TestApp::spawn().await;
    for name in [
        "Desk Lamp",
        "floor lamp",
        "chair",
        "100% cotton",
        "1000 cotton",
    ] {
        create_thing(&app, "alice", name).await;
    }

    let lamps = listed_names(&app, "?nameContains=LAMP&sort=name").await;
    let percent = listed_names(&app, "?nameContains=0%25").await;

    assert_eq!(
        lamps,
        (vec!["Desk Lamp".to_owned(), "floor lamp".to_owned()], 2)
    );
    assert_eq!(
        percent,
        (vec!["100% cotton".to_owned()], 1),
        "`%` matches itself"
    );
}

#[tokio::test]
async fn an_unknown_sort_is_a_400_problem() {
    let app = TestApp::spawn().await;

    let response = app.get_as("alice", "/api/v1/things?sort=colour").await;

    assert_problem(response, StatusCode::BAD_REQUEST).await;
}

#[tokio::test]
async fn a_registered_user_keeps_a_thing_with_the_token_login_gave() {
    let identity = crate::identity::Identity::spawn().await;
    let alice = identity.signed_in("alice@example.com").await;
    let app = &identity.app;
    let call = |method: Method, path: &str| app.request(method, path).bearer_auth(&alice.access);

    let created = call(Method::POST, "/api/v1/things")
        .json(&json!({ "name": "lamp" }))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), StatusCode::CREATED);
    let path = created.headers()["location"].to_str().unwrap().to_owned();
    let etag = created.headers()["etag"].to_str().unwrap().to_owned();
    let renamed = call(Method::PUT, &path)
        .header("if-match", &etag)
        .json(&json!({ "name": "desk lamp" }))
        .send()
        .await
        .unwrap();
    let read: Value = call(Method::GET, &path)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let new_etag = renamed.headers()["etag"].to_str().unwrap().to_owned();
    let deleted = call(Method::DELETE, &path)
        .header("if-match", &new_etag)
        .send()
        .await
        .unwrap();
    let gone = call(Method::GET, &path).send().await.unwrap();

    assert_eq!(renamed.status(), StatusCode::OK);
    assert_eq!(read["name"], "desk lamp");
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    assert_problem(gone, StatusCode::NOT_FOUND).await;
}

/// An instance of the service on `database`, with its own in-process idempotency store.
async fn instance_on(database: &testing::database::TestDatabase) -> TestApp {
    TestApp::builder()
        .setting("database.url", database.url())
        .spawn()
        .await
}

/// Alice creates a thing named `name` under the Idempotency-Key `key` on `app`.
async fn create_keyed(app: &TestApp, key: &str, name: &str) -> reqwest::Response {
    app.request(Method::POST, "/api/v1/things")
        .bearer_auth(app.token_for("alice"))
        .header("idempotency-key", key)
        .json(&json!({ "name": name }))
        .send()
        .await
        .expect("request failed")
}

/// The process that executed the request is gone, and its store with it (what a crash right
/// after the commit leaves): the retry reaches an instance that never saw the key, and gets
/// the answer committed with the thing instead of a second thing.
#[tokio::test]
async fn a_retry_that_reaches_an_instance_without_the_stored_answer_gets_the_committed_one() {
    let database = testing::database::TestDatabase::create().await;
    let crashed = instance_on(&database).await;
    let first = create_keyed(&crashed, "k1", "lamp").await;
    let first_body: Value = first.json().await.unwrap();
    let survivor = instance_on(&database).await;

    let retry = create_keyed(&survivor, "k1", "lamp").await;

    assert_eq!(retry.status(), StatusCode::CREATED);
    assert!(e2e::is_replay(&retry), "the committed answer is replayed");
    assert_eq!(retry.json::<Value>().await.unwrap(), first_body);
    let listed: Value = survivor
        .request(Method::GET, "/api/v1/things")
        .bearer_auth(survivor.token_for("alice"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(listed["total"], 1, "created once");
}

/// A durable write holds one connection for its transaction: everything it reads goes through
/// that one, so a service with a single connection (an in-memory SQLite database has no more)
/// still answers, and a busy pool cannot deadlock on requests that each wait for a second one.
#[tokio::test]
async fn keyed_writes_need_one_database_connection_each() {
    // Without `If-Match` the write reads the current version first.
    let app = TestApp::builder()
        .setting("database.max_connections", "1")
        .setting("things.require_if_match", "false")
        .spawn()
        .await;
    let path = created_path(&app, "alice", "lamp").await;

    let replaced = conditional(&app, Method::PUT, &path, None)
        .header("idempotency-key", "k-put")
        .json(&json!({ "name": "desk lamp" }))
        .send()
        .await
        .expect("request failed");
    let deleted = conditional(&app, Method::DELETE, &path, None)
        .header("idempotency-key", "k-delete")
        .send()
        .await
        .expect("request failed");

    assert_eq!(replaced.status(), StatusCode::OK);
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
}
