//! Two writers at once never get a 500, on either database (ADR 0018): every write transaction
//! waits its turn, and what cannot wait is a 503 with `Retry-After`.
//!
//! The race is driven by the served document, as the intent gate is: every POST, PUT, PATCH and
//! DELETE it lists is sent eight times at once, at one resource, by a signed-in administrator
//! in a service of its own (keyed and unkeyed where the operation takes a key), then all of
//! them at once, each at a resource of its own. A new module's operations are raced without
//! anyone writing a test for them. Each answer must be one the document declares for the
//! operation, and no 5xx (not even the 503 a writer gets when it cannot wait its turn: nothing
//! here waits that long); the answers to one key must be one answer; and the state after must
//! be one that some serial order of the executions gives (a version bumped once per
//! execution, one entity per creating execution).

use std::collections::BTreeMap;

use e2e::TestApp;
use futures_util::future::join_all;
use reqwest::{Method, StatusCode};
use serde_json::{Map, Value, json};

use crate::identity::{Identity, PASSWORD, Tokens};

/// How many copies of a request race.
const RACERS: usize = 8;

// ---- The case the contract fuzzer found first ----

/// Alice's requests, each from its own future so that they meet in the database.
fn alice(app: &TestApp, method: Method, path: &str) -> reqwest::RequestBuilder {
    app.request(method, path)
        .bearer_auth(app.token_for("alice"))
}

#[tokio::test]
async fn replacements_of_one_thing_racing_keyed_creates_never_answer_a_5xx() {
    let app = TestApp::spawn().await;
    let created: Value = alice(&app, Method::POST, "/api/v1/things")
        .json(&json!({ "name": "raced" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let path = format!("/api/v1/things/{}", created["id"].as_str().unwrap());
    let mut answers: BTreeMap<(&str, u16), usize> = BTreeMap::new();

    for round in 0..10 {
        let replacements = (0..8).map(|n| {
            alice(&app, Method::PUT, &path)
                .header("if-match", "*")
                .json(&json!({ "name": format!("round {round} writer {n}") }))
                .send()
        });
        let creates = (0..8).map(|n| {
            alice(&app, Method::POST, "/api/v1/things")
                .header("idempotency-key", uuid::Uuid::new_v4().to_string())
                .json(&json!({ "name": format!("round {round} create {n}") }))
                .send()
        });
        let (replacements, creates) = tokio::join!(join_all(replacements), join_all(creates));
        for (kind, answer) in replacements
            .into_iter()
            .map(|answer| ("PUT", answer))
            .chain(creates.into_iter().map(|answer| ("POST", answer)))
        {
            *answers
                .entry((kind, answer.unwrap().status().as_u16()))
                .or_default() += 1;
        }
    }

    // A PUT may also lose a race it cannot retry (409, documented for it); nothing waits long
    // enough here for a 503.
    let allowed = [("PUT", 200), ("PUT", 409), ("POST", 201)];
    assert!(
        answers.keys().all(|answer| allowed.contains(answer)),
        "answers (operation, status): count: {answers:?}"
    );
    let replaced = answers.get(&("PUT", 200)).copied().unwrap_or_default();
    let made = answers.get(&("POST", 201)).copied().unwrap_or_default();
    let thing = json_at(&app, &app.token_for("alice"), &path).await;
    assert_eq!(
        thing["version"].as_u64(),
        Some(1 + replaced as u64),
        "every successful replacement, and nothing else, made a version"
    );
    let listed = json_at(&app, &app.token_for("alice"), "/api/v1/things?perPage=1").await;
    assert_eq!(listed["total"].as_u64(), Some(1 + made as u64));
}

// ---- Every unsafe operation of the document ----

#[tokio::test]
async fn every_unsafe_operation_of_the_document_survives_eight_copies_of_itself_at_once() {
    let document = served_document().await;
    let operations = unsafe_operations(&document);
    assert!(operations.len() >= 20, "the document lists its writes");

    let mut failures = Vec::new();
    for operation in &operations {
        for values in [Values::Existing, Values::Fresh] {
            let world = World::new(document.clone(), values).await;
            failures.extend(world.race(operation).await);
        }
    }

    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Copies of one operation meet each other only; writers of different kinds (a replacement
/// and a create, say) meet here: every unsafe operation at once, each on a resource of its own.
#[tokio::test]
async fn all_unsafe_operations_of_the_document_at_once_never_answer_a_5xx() {
    let document = served_document().await;
    let operations = unsafe_operations(&document);
    // Fresh values: no racer ends the session the others race with.
    let world = World::new(document, Values::Fresh).await;
    let mut failures = Vec::new();

    for _round in 0..3 {
        let mut prepared = Vec::new();
        for operation in &operations {
            prepared.push(world.prepare(operation).await);
        }
        for (operation, race) in operations.iter().zip(&mut prepared) {
            race.before = world.state(operation, &race.path).await;
        }
        let answers = join_all(
            operations
                .iter()
                .zip(&prepared)
                .map(|(operation, race)| world.fire(operation, race)),
        )
        .await;
        for ((operation, race), answers) in operations.iter().zip(&prepared).zip(&answers) {
            // A collection's count moves with the other operations' creates and deletes
            // here; each entity's version is its operation's alone.
            let versioned = matches!(operation.method, Method::PUT | Method::PATCH);
            let after = world.state(operation, &race.path).await;
            let (before, after) = if versioned {
                (race.before, after)
            } else {
                (None, None)
            };
            failures.extend(world.judge(operation, answers, before, after));
        }
    }

    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The document the service serves (every module's operations, as the host wires them).
async fn served_document() -> Value {
    TestApp::spawn()
        .await
        .get("/openapi.json")
        .await
        .json()
        .await
        .unwrap()
}

/// One unsafe operation, as the document declares it.
struct Operation {
    method: Method,
    path: String,
    parameters: Vec<Value>,
    body: Option<(String, Value)>,
    /// Every status the document declares for it.
    declared: Vec<u16>,
}

impl Operation {
    fn name(&self) -> String {
        format!("{} {}", self.method, self.path)
    }

    fn header(&self, name: &str) -> Option<&Value> {
        self.parameters.iter().find(|parameter| {
            parameter["in"] == "header" && parameter["name"].as_str() == Some(name)
        })
    }

    fn takes_key(&self) -> bool {
        self.header("Idempotency-Key").is_some()
    }

    fn requires_key(&self) -> bool {
        self.header("Idempotency-Key")
            .is_some_and(|parameter| parameter["required"] == true)
    }
}

fn unsafe_operations(document: &Value) -> Vec<Operation> {
    let mut operations = Vec::new();
    for (path, item) in document["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let method = match method.as_str() {
                "post" => Method::POST,
                "put" => Method::PUT,
                "patch" => Method::PATCH,
                "delete" => Method::DELETE,
                _ => continue,
            };
            let body = operation["requestBody"]["content"]
                .as_object()
                .and_then(|content| content.iter().next())
                .map(|(media_type, content)| {
                    (media_type.clone(), resolve(document, &content["schema"]))
                });
            operations.push(Operation {
                method,
                path: path.clone(),
                parameters: operation["parameters"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default(),
                body,
                declared: operation["responses"]
                    .as_object()
                    .unwrap()
                    .keys()
                    .filter_map(|status| status.parse().ok())
                    .collect(),
            });
        }
    }
    operations
}

/// `schema`, with a `$ref` followed.
fn resolve(document: &Value, schema: &Value) -> Value {
    match schema["$ref"].as_str() {
        Some(reference) => {
            let pointer = reference.trim_start_matches('#');
            resolve(
                document,
                &document.pointer(pointer).cloned().unwrap_or_default(),
            )
        }
        None => schema.clone(),
    }
}

/// Which values the racers send where a name says what it is (an email, an id, a token).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Values {
    /// The world's: the administrator's address, account id and refresh token.
    Existing,
    /// Ones nothing has yet (all racers send the same): a new address, a new id.
    Fresh,
}

/// A service of its own, with a signed-in administrator to race as and a bystander account
/// (what an operation on "an account" finds besides the caller's own).
struct World {
    identity: Identity,
    document: Value,
    values: Values,
    admin_email: String,
    admin: Tokens,
    admin_id: String,
    fresh_email: String,
    fresh_id: String,
}

/// One operation's race, ready to fire.
struct Race {
    path: String,
    body: Option<(String, Value)>,
    before: Option<u64>,
    shared_key: String,
}

/// What one racer was answered.
struct Answer {
    status: StatusCode,
    replayed: bool,
    body: Vec<u8>,
    /// Sent with the key the racers share.
    shared_key: bool,
}

impl World {
    async fn new(document: Value, values: Values) -> Self {
        let identity = Identity::spawn().await;
        let admin_email = format!("racer-{}@example.com", testing::unique_suffix());
        let admin = identity.signed_in_admin(&admin_email).await;
        let admin_id = identity.user_id(&admin.access).await;
        let bystander = format!("bystander-{}@example.com", testing::unique_suffix());
        identity.register(&bystander).await;
        Self {
            identity,
            document,
            values,
            admin_email,
            admin,
            admin_id,
            fresh_email: format!("fresh-{}@example.com", testing::unique_suffix()),
            fresh_id: uuid::Uuid::new_v4().to_string(),
        }
    }

    fn app(&self) -> &TestApp {
        &self.identity.app
    }

    /// Races `operation`; what it got wrong, one line each.
    async fn race(&self, operation: &Operation) -> Vec<String> {
        let race = self.prepare(operation).await;
        let answers = self.fire(operation, &race).await;
        let after = self.state(operation, &race.path).await;
        self.judge(operation, &answers, race.before, after)
    }

    /// The resource `operation` races at, its body, and the state before.
    async fn prepare(&self, operation: &Operation) -> Race {
        let path = self.concrete_path(operation).await;
        let body = operation
            .body
            .as_ref()
            .map(|(media_type, schema)| (media_type.clone(), self.instance(schema, "body")));
        let before = self.state(operation, &path).await;
        Race {
            path,
            body,
            before,
            shared_key: uuid::Uuid::new_v4().to_string(),
        }
    }

    /// Sends [`RACERS`] copies of the prepared request at once.
    async fn fire(&self, operation: &Operation, race: &Race) -> Vec<Answer> {
        let Race {
            path,
            body,
            shared_key,
            ..
        } = race;
        let racers = (0..RACERS).map(|n| {
            // Half share one key; the others send none, or keys of their own where one is
            // required.
            let key = match (operation.takes_key(), n % 2 == 0) {
                (false, _) => None,
                (true, true) => Some(shared_key.clone()),
                (true, false) if operation.requires_key() => Some(uuid::Uuid::new_v4().to_string()),
                (true, false) => None,
            };
            self.send(operation, path, body.as_ref(), key, shared_key)
        });
        join_all(racers).await
    }

    async fn send(
        &self,
        operation: &Operation,
        path: &str,
        body: Option<&(String, Value)>,
        key: Option<String>,
        shared_key: &str,
    ) -> Answer {
        let mut request = self
            .app()
            .request(operation.method.clone(), path)
            .bearer_auth(&self.admin.access);
        if operation.header("If-Match").is_some() {
            request = request.header("if-match", "*");
        }
        let shared = key.as_deref() == Some(shared_key);
        if let Some(key) = key {
            request = request.header("idempotency-key", key);
        }
        if let Some((media_type, body)) = body {
            request = request
                .header("content-type", media_type.as_str())
                .body(body.to_string());
        }
        let response = request.send().await.expect("request failed");
        Answer {
            status: response.status(),
            replayed: response.headers().contains_key("x-idempotent-replay"),
            body: response.bytes().await.unwrap().to_vec(),
            shared_key: shared,
        }
    }

    /// The operation's path with its parameters filled: an entity's id from creating one (the
    /// parent collection's POST) or listing them (its GET), else a value its schema allows.
    async fn concrete_path(&self, operation: &Operation) -> String {
        let mut path = operation.path.clone();
        while let Some(start) = path.find('{') {
            let end = start + path[start..].find('}').unwrap();
            let name = path[start + 1..end].to_owned();
            let collection = path[..start].trim_end_matches('/').to_owned();
            let value = match self.existing_id(&collection).await {
                Some(id) => id,
                None => {
                    let schema = operation
                        .parameters
                        .iter()
                        .find(|parameter| parameter["name"] == name.as_str())
                        .map(|parameter| parameter["schema"].clone())
                        .unwrap_or_default();
                    let value = self.instance(&schema, &name);
                    value
                        .as_str()
                        .map(str::to_owned)
                        .unwrap_or(value.to_string())
                }
            };
            path.replace_range(start..=end, &value);
        }
        path
    }

    /// The id of an entity at `collection`: one made by its POST, or the first its GET lists.
    async fn existing_id(&self, collection: &str) -> Option<String> {
        let item = &self.document["paths"][collection];
        if let Some(create) = item.get("post") {
            let body = create["requestBody"]["content"]
                .as_object()
                .and_then(|content| content.iter().next())
                .map(|(media_type, content)| {
                    let schema = resolve(&self.document, &content["schema"]);
                    (media_type.clone(), self.instance(&schema, "body"))
                });
            let mut request = self
                .app()
                .request(Method::POST, collection)
                .bearer_auth(&self.admin.access)
                .header("idempotency-key", uuid::Uuid::new_v4().to_string());
            if let Some((media_type, body)) = body {
                request = request
                    .header("content-type", media_type)
                    .body(body.to_string());
            }
            let created: Value = request.send().await.ok()?.json().await.ok()?;
            if let Some(id) = created["id"].as_str() {
                return Some(id.to_owned());
            }
        }
        // Fresh values touch nothing that exists: no id is taken from a list.
        if item.get("get").is_some() && self.values == Values::Existing {
            // Another's rather than the caller's own, where the list has both.
            let listed = json_at(self.app(), &self.admin.access, collection).await;
            let items = listed["items"].as_array().or_else(|| listed.as_array());
            let ids = items
                .into_iter()
                .flatten()
                .filter_map(|item| item["id"].as_str());
            if let Some(id) = ids.min_by_key(|id| *id == self.admin_id) {
                return Some(id.to_owned());
            }
        }
        None
    }

    /// A value `schema` accepts, for a property or parameter called `name`. Names say what
    /// the world holds: ids are the racer's own account, passwords and refresh tokens its own.
    fn instance(&self, schema: &Value, name: &str) -> Value {
        let schema = resolve(&self.document, schema);
        if let Some(example) = schema.get("example") {
            return example.clone();
        }
        if let Some(first) = schema["enum"].get(0) {
            return first.clone();
        }
        match schema["type"].as_str() {
            Some("object") => {
                let mut object = Map::new();
                for required in schema["required"].as_array().into_iter().flatten() {
                    let property = required.as_str().unwrap();
                    let property_schema = &schema["properties"][property];
                    object.insert(
                        property.to_owned(),
                        self.instance(property_schema, property),
                    );
                }
                Value::Object(object)
            }
            Some("array") => {
                let minimum = schema["minItems"].as_u64().unwrap_or(0).max(1) as usize;
                Value::Array(vec![self.instance(&schema["items"], name); minimum])
            }
            Some("integer") | Some("number") => {
                json!(schema["minimum"].as_f64().unwrap_or(1.0).max(1.0) as u64)
            }
            Some("boolean") => json!(true),
            _ => json!(self.string(&schema, name)),
        }
    }

    fn string(&self, schema: &Value, name: &str) -> String {
        let fresh = self.values == Values::Fresh;
        let email = if fresh {
            &self.fresh_email
        } else {
            &self.admin_email
        };
        match name {
            "email" => return email.clone(),
            "password" | "newPassword" => return PASSWORD.to_owned(),
            "refreshToken" if !fresh => return self.admin.refresh.clone(),
            name if name.ends_with("Id") && fresh => return self.fresh_id.clone(),
            name if name.ends_with("Id") => return self.admin_id.clone(),
            _ => {}
        }
        if schema["format"] == "email" {
            return email.clone();
        }
        // Lower-case letters and dashes: what every string pattern of the document allows.
        let mut text = String::from("race");
        let minimum = schema["minLength"].as_u64().unwrap_or(0) as usize;
        while text.len() < minimum {
            text.push_str("-race");
        }
        text
    }

    /// What can be read of the operation's effect: the version of the entity at `path`, or the
    /// number of entities in the collection at `path`.
    async fn state(&self, operation: &Operation, path: &str) -> Option<u64> {
        self.document["paths"][&operation.path].get("get")?;
        let current = json_at(self.app(), &self.admin.access, path).await;
        match operation.method {
            Method::POST => current["total"].as_u64(),
            Method::PUT | Method::PATCH => current["version"].as_u64(),
            _ => None,
        }
    }

    fn judge(
        &self,
        operation: &Operation,
        answers: &[Answer],
        before: Option<u64>,
        after: Option<u64>,
    ) -> Vec<String> {
        let name = format!("{} ({:?} values)", operation.name(), self.values);
        let mut statuses: BTreeMap<u16, usize> = BTreeMap::new();
        for answer in answers {
            *statuses.entry(answer.status.as_u16()).or_default() += 1;
        }
        eprintln!("{name}: {statuses:?}, state {before:?} -> {after:?}");
        let mut failures = Vec::new();
        for answer in answers {
            let status = answer.status.as_u16();
            if !operation.declared.contains(&status) {
                failures.push(format!("{name}: answered {status}, not declared"));
            }
            // Not even a 503: a writer waits its turn (the busy timeout is far longer than
            // this race), so a 503 here means one did not.
            if answer.status.is_server_error() {
                failures.push(format!(
                    "{name}: answered {status}: {}",
                    String::from_utf8_lossy(&answer.body)
                ));
            }
        }
        let keyed_successes: Vec<&Answer> = answers
            .iter()
            .filter(|answer| answer.shared_key && answer.status.is_success())
            .collect();
        if let Some(first) = keyed_successes.first()
            && keyed_successes
                .iter()
                .any(|answer| answer.status != first.status || answer.body != first.body)
        {
            failures.push(format!("{name}: one key was answered differently"));
        }
        let executions = answers
            .iter()
            .filter(|answer| answer.status.is_success() && !answer.replayed)
            .count() as u64;
        if let (Some(before), Some(after)) = (before, after)
            && after != before + executions
        {
            failures.push(format!(
                "{name}: {executions} executions took the state from {before} to {after}"
            ));
        }
        failures
    }
}

/// The JSON at `path`, read with `access`; `null` unless it answered 200.
async fn json_at(app: &TestApp, access: &str, path: &str) -> Value {
    let response = app
        .request(Method::GET, path)
        .bearer_auth(access)
        .send()
        .await
        .expect("request failed");
    if response.status() != StatusCode::OK {
        return Value::Null;
    }
    response.json().await.unwrap_or_default()
}
