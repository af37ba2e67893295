//! The idempotency-intent gate: one call checks a running service's OpenAPI document against
//! what the service actually does.
//!
//! Adopt it with one line in a test suite (the `gate` feature), with the service serving its
//! document at `/openapi.json` and `idempotency` the layer it was built with:
//!
//! ```ignore
//! poem_idempotency::gate::assert_idempotency_intents(&base_url, &token, || {
//!     GuardMarks::of(&idempotency)
//! })
//! .await;
//! ```
//!
//! It checks, naming every operation that fails:
//!
//! 1. in the document, every POST, PUT, PATCH and DELETE declares exactly one intent in
//!    `x-idempotency`; idempotent ones list the `Idempotency-Key` header; non-idempotent ones
//!    give a non-blank justification; no other operation lists the header;
//! 2. in the running service, a request with a key to an operation the document calls
//!    idempotent goes through the guard (the store records a claim), and a request to any other
//!    operation does not. Declared intent is thereby verified intent, which the design this crate ports (ADR-017 of a C# framework) did not check;
//! 3. an operation the document calls durable (`x-idempotency.durable`) is handed the means to
//!    commit its answer with its effect when it wins a claim, and no other operation is; an
//!    operation that is not durable names its effect outside the database
//!    (`x-idempotency.effectOutsideDatabase`);
//! 4. for an operation the document secures, a keyed request *without* a token never reaches the
//!    store: it is refused, not scoped to an anonymous caller (then the same request is sent with
//!    `bearer_token` for check 2).

use crate::openapi::{Declaration, UNSAFE_METHODS};
use serde_json::Value;

const METHODS: [&str; 7] = ["get", "head", "options", "post", "put", "patch", "delete"];

/// Counters of the running service that rise when the idempotency guard works.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GuardMarks {
    /// Calls the guard made to its store (claim, complete, release...).
    pub store_operations: u64,
    /// Keyed executions the guard handed an outcome recorder (durable operations).
    pub durable_claims: u64,
}

impl GuardMarks {
    /// The marks of `layer` now.
    pub fn of(layer: &crate::Idempotency) -> Self {
        Self {
            store_operations: layer.store().operations(),
            durable_claims: layer.metrics().durable_claims,
        }
    }
}

/// One operation as the document describes it.
struct Operation {
    method: String,
    path: String,
    name: String,
    declared_idempotent: bool,
    declared_durable: bool,
    secured: bool,
}

/// Checks the service at `base_url` (serving `/openapi.json`). `bearer_token` is a valid access
/// token for the secured operations; `guard_marks` reads the service's [`GuardMarks`]. Returns
/// every failure.
pub async fn check_idempotency_intents(
    base_url: &str,
    bearer_token: &str,
    guard_marks: impl Fn() -> GuardMarks,
) -> Result<(), Vec<String>> {
    let http = reqwest::Client::new();
    let document: Value = http
        .get(format!("{base_url}/openapi.json"))
        .send()
        .await
        .map_err(|err| vec![format!("cannot fetch {base_url}/openapi.json: {err}")])?
        .json()
        .await
        .map_err(|err| vec![format!("/openapi.json is not JSON: {err}")])?;
    let (operations, mut failures) = check_document(&document);
    if operations.is_empty() {
        failures.push("the document lists no operations: nothing was checked".to_owned());
    }
    for operation in &operations {
        let keyed_request = || {
            let url = format!("{base_url}{}", fill_path_parameters(&operation.path));
            let method =
                reqwest::Method::from_bytes(operation.method.to_ascii_uppercase().as_bytes())
                    .expect("methods come from a fixed list");
            let mut request = http.request(method, url).header(
                "Idempotency-Key",
                format!("intent-gate-{}", hex::encode(rand::random::<[u8; 8]>())),
            );
            if takes_a_body(&operation.method) {
                request = request.json(&serde_json::json!({}));
            }
            request
        };
        if operation.secured {
            let before = guard_marks().store_operations;
            match keyed_request().send().await {
                Err(err) => {
                    failures.push(format!("{}: the request failed: {err}", operation.name));
                    continue;
                }
                Ok(response) if response.status() != reqwest::StatusCode::UNAUTHORIZED => {
                    failures.push(format!(
                        "{}: secured, but a request without a token answered {}",
                        operation.name,
                        response.status()
                    ));
                }
                Ok(_) if guard_marks().store_operations > before => failures.push(format!(
                    "{}: secured, but a keyed request without a token reached the idempotency store",
                    operation.name
                )),
                Ok(_) => {}
            }
        }
        let before = guard_marks();
        let mut request = keyed_request();
        if operation.secured {
            request = request.bearer_auth(bearer_token);
        }
        if let Err(err) = request.send().await {
            failures.push(format!("{}: the request failed: {err}", operation.name));
            continue;
        }
        let after = guard_marks();
        let guarded = after.store_operations > before.store_operations;
        let handed_a_recorder = after.durable_claims > before.durable_claims;
        match (operation.declared_durable, handed_a_recorder) {
            (true, false) => failures.push(format!(
                "{}: documented as durable, but a keyed request was not handed the means to commit its answer",
                operation.name
            )),
            (false, true) => failures.push(format!(
                "{}: commits its answer with its effect, but is not documented as durable",
                operation.name
            )),
            _ => {}
        }
        match (operation.declared_idempotent, guarded) {
            (true, false) => failures.push(format!(
                "{}: documented as idempotent (Idempotency-Key), but a request with a key did not go through the guard",
                operation.name
            )),
            (false, true) => failures.push(format!(
                "{}: goes through the idempotency guard, but is not documented as idempotent",
                operation.name
            )),
            _ => {}
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures)
    }
}

/// Whether the gate's probe of a `method` operation carries a (JSON) body.
fn takes_a_body(method: &str) -> bool {
    matches!(method, "post" | "put" | "patch")
}

/// [`check_idempotency_intents`], panicking with every failure.
pub async fn assert_idempotency_intents(
    base_url: &str,
    bearer_token: &str,
    guard_marks: impl Fn() -> GuardMarks,
) {
    if let Err(failures) = check_idempotency_intents(base_url, bearer_token, guard_marks).await {
        panic!(
            "idempotency intents are wrong:\n  - {}",
            failures.join("\n  - ")
        );
    }
}

/// The document half of the gate: every operation, and what is wrong with the declarations.
fn check_document(document: &Value) -> (Vec<Operation>, Vec<String>) {
    let mut operations = Vec::new();
    let mut failures = Vec::new();
    let Some(paths) = document["paths"].as_object() else {
        return (operations, vec!["the document has no paths".into()]);
    };
    for (path, item) in paths {
        for method in METHODS {
            let Some(operation) = item.get(method) else {
                continue;
            };
            let name = format!(
                "{} {path} ({})",
                method.to_ascii_uppercase(),
                operation["operationId"]
                    .as_str()
                    .unwrap_or("no operationId")
            );
            let has_header = operation["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|p| {
                    p["in"] == "header"
                        && p["name"]
                            .as_str()
                            .is_some_and(|n| n.eq_ignore_ascii_case("Idempotency-Key"))
                });
            let declaration = Declaration::of(operation);
            let is_unsafe = UNSAFE_METHODS.contains(&method);
            let (idempotent, durable) = match &declaration {
                Some(Ok(Declaration::Idempotent { durable, .. })) => (true, *durable),
                _ => (false, false),
            };
            match &declaration {
                None if is_unsafe => {
                    failures.push(format!("{name}: declares no idempotency intent"))
                }
                None => {}
                Some(Ok(Declaration::Idempotent { .. })) if !has_header => failures.push(format!(
                    "{name}: declared idempotent but does not document the Idempotency-Key header"
                )),
                Some(Ok(Declaration::Idempotent {
                    durable: false,
                    effect_outside_database,
                    ..
                })) if effect_outside_database
                    .as_deref()
                    .is_none_or(|what| what.trim().is_empty()) =>
                {
                    failures.push(format!(
                        "{name}: not durable, but does not say what its effect outside the database is"
                    ))
                }
                Some(Ok(Declaration::Idempotent { .. })) => {}
                Some(Ok(Declaration::NonIdempotent { justification }))
                    if justification.trim().is_empty() =>
                {
                    failures.push(format!(
                        "{name}: declared non-idempotent without a justification"
                    ))
                }
                Some(Ok(Declaration::NonIdempotent { .. })) => {}
                Some(Err(err)) => failures.push(format!("{name}: unknown intent ({err})")),
            }
            if has_header && !idempotent {
                failures.push(format!(
                    "{name}: documents the Idempotency-Key header but is not declared idempotent"
                ));
            }
            operations.push(Operation {
                method: method.to_owned(),
                path: path.clone(),
                name,
                declared_idempotent: idempotent,
                declared_durable: durable,
                secured: operation["security"]
                    .as_array()
                    .is_some_and(|requirements| !requirements.is_empty()),
            });
        }
    }
    (operations, failures)
}

/// `/things/{id}` -> `/things/intent-gate-probe`
fn fill_path_parameters(path: &str) -> String {
    let mut filled = String::with_capacity(path.len());
    let mut inside = false;
    for c in path.chars() {
        match c {
            '{' => {
                inside = true;
                filled.push_str("intent-gate-probe");
            }
            '}' => inside = false,
            _ if inside => {}
            _ => filled.push(c),
        }
    }
    filled
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_probe_carries_a_body_where_the_method_takes_one() {
        let with_body: Vec<&str> = METHODS.into_iter().filter(|m| takes_a_body(m)).collect();

        assert_eq!(with_body, ["post", "put", "patch"]);
    }

    #[test]
    fn path_parameters_are_filled() {
        assert_eq!(
            fill_path_parameters("/a/{id}/b/{x}"),
            "/a/intent-gate-probe/b/intent-gate-probe"
        );
    }

    #[test]
    fn the_document_check_names_each_bad_operation() {
        let document = json!({ "paths": { "/x": {
            "post": { "operationId": "missing" },
            "put": { "operationId": "blank", "x-idempotency": { "intent": "non-idempotent", "justification": " " } },
            "delete": { "operationId": "headerless", "x-idempotency": { "intent": "idempotent" } },
            "get": { "operationId": "safe", "parameters": [{ "in": "header", "name": "Idempotency-Key" }] }
        }}});

        let (_, failures) = check_document(&document);

        let text = failures.join("\n");
        assert!(
            text.contains("POST /x (missing): declares no idempotency intent"),
            "{text}"
        );
        assert!(
            text.contains("PUT /x (blank): declared non-idempotent without a justification"),
            "{text}"
        );
        assert!(
            text.contains("DELETE /x (headerless): declared idempotent but does not document"),
            "{text}"
        );
        assert!(
            text.contains("GET /x (safe): documents the Idempotency-Key header"),
            "{text}"
        );
    }

    #[test]
    fn only_the_idempotency_key_header_counts_and_a_store_only_operation_names_its_effect() {
        let document = json!({ "paths": {
            "/other-header": { "post": {
                "operationId": "otherHeader",
                "parameters": [
                    { "in": "header", "name": "If-Match" },
                    { "in": "query", "name": "Idempotency-Key" }
                ],
                "x-idempotency": { "intent": "idempotent", "durable": true }
            } },
            "/unnamed-effect": { "post": {
                "operationId": "unnamedEffect",
                "parameters": [{ "in": "header", "name": "idempotency-key" }],
                "x-idempotency": { "intent": "idempotent", "effectOutsideDatabase": " " }
            } },
            "/fine": { "post": {
                "operationId": "fine",
                "parameters": [{ "in": "header", "name": "Idempotency-Key" }],
                "x-idempotency": { "intent": "idempotent", "effectOutsideDatabase": "a mail" }
            } }
        }});

        let (operations, failures) = check_document(&document);

        assert_eq!(
            failures,
            [
                "POST /other-header (otherHeader): declared idempotent but does not document the Idempotency-Key header",
                "POST /unnamed-effect (unnamedEffect): not durable, but does not say what its effect outside the database is",
            ]
        );
        assert_eq!(operations.len(), 3);
    }

    /// A service whose document says one thing and whose operations do another, on a real
    /// socket: the gate must name each lie.
    mod against_a_miswired_service {
        use std::sync::Arc;

        use poem::http::StatusCode;
        use poem::listener::{Acceptor as _, Listener as _, TcpListener};
        use poem::{EndpointExt as _, Request, Route, Server, handler, post};
        use serde_json::{Value, json};

        use super::*;
        use crate::guard::{GuardOptions, guard};
        use crate::host::Host;
        use crate::{Idempotency, IdempotencySettings};

        #[handler]
        fn ok() -> &'static str {
            "ok"
        }

        #[handler]
        fn unauthorized() -> StatusCode {
            StatusCode::UNAUTHORIZED
        }

        /// Refuses, before the key is read, a secured operation's request without a token.
        struct TokenHost;

        impl Host for TokenHost {
            fn require_principal(&self, req: &Request) -> poem::Result<()> {
                match req.header("authorization") {
                    Some(_) => Ok(()),
                    None => Err(poem::Error::from_status(StatusCode::UNAUTHORIZED)),
                }
            }
        }

        fn idempotent(path: &str, id: &str, extra: Value) -> (String, Value) {
            let mut operation = json!({
                "operationId": id,
                "parameters": [{ "in": "header", "name": "Idempotency-Key" }],
                "x-idempotency": {
                    "intent": "idempotent",
                    "effectOutsideDatabase": "a test effect",
                },
            });
            for (key, value) in extra.as_object().into_iter().flatten() {
                match key.as_str() {
                    "durable" => operation["x-idempotency"]["durable"] = value.clone(),
                    _ => operation[key] = value.clone(),
                }
            }
            (path.to_owned(), json!({ "post": operation }))
        }

        /// Serves the routes under the document; the layer, for the gate's marks.
        async fn serve(document: Value, routes: Route) -> (String, Arc<Idempotency>) {
            let layer =
                Idempotency::in_process(IdempotencySettings::default()).with_host(TokenHost);
            serve_with(document, routes, Arc::new(layer)).await
        }

        async fn serve_with(
            document: Value,
            routes: Route,
            layer: Arc<Idempotency>,
        ) -> (String, Arc<Idempotency>) {
            let document = document.to_string();
            let app = routes
                .at(
                    "/openapi.json",
                    poem::get(poem::endpoint::make_sync(move |_| document.clone())),
                )
                .data(Arc::clone(&layer));
            let acceptor = TcpListener::bind("127.0.0.1:0")
                .into_acceptor()
                .await
                .unwrap();
            let address = acceptor.local_addr()[0].as_socket_addr().copied().unwrap();
            tokio::spawn(Server::new_with_acceptor(acceptor).run(app));
            (format!("http://{address}"), layer)
        }

        async fn failures(document: Value, routes: Route) -> Vec<String> {
            let (base, layer) = serve(document, routes).await;
            match check_idempotency_intents(&base, "a-token", || GuardMarks::of(&layer)).await {
                Ok(()) => Vec::new(),
                Err(failures) => failures,
            }
        }

        fn paths(operations: Vec<(String, Value)>) -> Value {
            json!({ "paths": operations.into_iter().collect::<serde_json::Map<_, _>>() })
        }

        #[tokio::test]
        async fn a_document_that_matches_the_service_passes() {
            let routes = Route::new()
                .at("/guarded", post(guard(ok, GuardOptions::default())))
                .at("/plain", post(ok));
            let document = paths(vec![
                idempotent("/guarded", "guarded", json!({})),
                (
                    "/plain".to_owned(),
                    json!({ "post": { "operationId": "plain", "x-idempotency": { "intent": "non-idempotent", "justification": "a test" } } }),
                ),
            ]);

            assert_eq!(failures(document, routes).await, Vec::<String>::new());
        }

        #[tokio::test]
        async fn an_idempotent_operation_left_unguarded_and_a_guarded_one_declared_otherwise_fail()
        {
            let routes = Route::new()
                .at("/unguarded", post(ok))
                .at("/guarded", post(guard(ok, GuardOptions::default())));
            let document = paths(vec![
                idempotent("/unguarded", "unguarded", json!({})),
                (
                    "/guarded".to_owned(),
                    json!({ "post": { "operationId": "guarded", "x-idempotency": { "intent": "non-idempotent", "justification": "a test" } } }),
                ),
            ]);

            let failures = failures(document, routes).await;

            assert_eq!(failures.len(), 2, "{failures:?}");
            assert!(failures[0].contains("POST /guarded (guarded): goes through the idempotency guard, but is not documented as idempotent"), "{failures:?}");
            assert!(failures[1].contains("POST /unguarded (unguarded): documented as idempotent (Idempotency-Key), but a request with a key did not go through the guard"), "{failures:?}");
        }

        #[tokio::test]
        async fn a_secured_operation_that_answers_without_a_token_fails() {
            let routes = Route::new().at("/open", post(guard(ok, GuardOptions::default())));
            let document = paths(vec![idempotent(
                "/open",
                "open",
                json!({ "security": [{ "bearer": [] }] }),
            )]);

            let failures = failures(document, routes).await;

            assert_eq!(
                failures,
                ["POST /open (open): secured, but a request without a token answered 200 OK"]
            );
        }

        #[tokio::test]
        async fn a_secured_operation_whose_refusal_came_after_the_store_fails() {
            // Its 401 comes from the handler, after the guard claimed the key anonymously.
            let routes =
                Route::new().at("/late", post(guard(unauthorized, GuardOptions::default())));
            let document = paths(vec![idempotent(
                "/late",
                "late",
                json!({ "security": [{ "bearer": [] }] }),
            )]);

            let failures = failures(document, routes).await;

            assert_eq!(
                failures,
                [
                    "POST /late (late): secured, but a keyed request without a token reached the idempotency store"
                ]
            );
        }

        #[tokio::test]
        async fn a_secured_operation_refused_before_the_store_passes() {
            let secured = GuardOptions {
                secured: true,
                ..GuardOptions::default()
            };
            let routes = Route::new().at("/secured", post(guard(ok, secured)));
            let document = paths(vec![idempotent(
                "/secured",
                "secured",
                json!({ "security": [{ "bearer": [] }] }),
            )]);

            assert_eq!(failures(document, routes).await, Vec::<String>::new());
        }

        #[cfg(feature = "durable")]
        #[tokio::test]
        async fn durability_documented_but_not_handed_over_and_the_reverse_fail() {
            let database = crate::durable::tests::TestDatabase::create().await;
            let durable = GuardOptions {
                durable: true,
                ..GuardOptions::default()
            };
            let routes = Route::new()
                .at("/says-durable", post(guard(ok, GuardOptions::default())))
                .at("/is-durable", post(guard(ok, durable)));
            let document = paths(vec![
                idempotent("/says-durable", "saysDurable", json!({ "durable": true })),
                idempotent("/is-durable", "isDurable", json!({})),
            ]);
            let layer = Idempotency::in_process(IdempotencySettings::default())
                .with_durable_outcomes(database.outcomes());
            let (base, layer) = serve_with(document, routes, Arc::new(layer)).await;

            let failures = check_idempotency_intents(&base, "", || GuardMarks::of(&layer))
                .await
                .expect_err("two lies");

            assert_eq!(failures.len(), 2, "{failures:?}");
            assert!(failures[0].contains("POST /is-durable (isDurable): commits its answer with its effect, but is not documented as durable"), "{failures:?}");
            assert!(failures[1].contains("POST /says-durable (saysDurable): documented as durable, but a keyed request was not handed the means to commit its answer"), "{failures:?}");
        }

        #[tokio::test]
        async fn a_document_without_operations_checks_nothing_and_says_so() {
            let failures = failures(json!({ "paths": {} }), Route::new()).await;

            assert_eq!(
                failures,
                ["the document lists no operations: nothing was checked"]
            );
        }

        #[tokio::test]
        #[should_panic(expected = "idempotency intents are wrong:\n  - POST /unguarded")]
        async fn the_assertion_panics_naming_each_failure() {
            let routes = Route::new().at("/unguarded", post(ok));
            let (base, layer) = serve(
                paths(vec![idempotent("/unguarded", "unguarded", json!({}))]),
                routes,
            )
            .await;

            assert_idempotency_intents(&base, "", || GuardMarks::of(&layer)).await;
        }
    }
}
