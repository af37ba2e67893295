//! The OpenAPI document and Swagger UI.
//!
//! The document is generated from the code (poem-openapi), then edited in one place,
//! [`served_document`], which lists every edit in order (the health probes merged in, spellings,
//! the common failures, links, the legal module's refusal, the declared intents). The result is
//! what `/openapi.json`, Swagger UI and `app openapi` all serve, and what `openapi/openapi.json`
//! must equal (a test checks).

use std::sync::Arc;

use kernel::operation_error::document_problem;
use poem::http::{StatusCode, header};
use poem::web::{Data, Redirect};
use poem::{IntoResponse, Request, Response, handler};
use poem_idempotency::IdempotencySettings;
use poem_idempotency::intent::{OnStoreFailure, OperationIntent};
use poem_idempotency::openapi::{Declaration, UNSAFE_METHODS};
use serde_json::{Value, json};

/// Title and version shown in the document.
pub const TITLE: &str = "Idempotent Service";

/// The document `/openapi.json` serves: what poem-openapi generated for the modules' APIs and
/// for the health probes, then every edit made to it, in order. Each edit is one function with
/// its reason; nothing else changes the document.
pub fn served_document(
    api: Value,
    health: Value,
    intents: &[OperationIntent],
    idempotency: &IdempotencySettings,
) -> Value {
    let mut document = api;
    // The probes are served beside `/api/v1`, by an OpenAPI service of their own.
    merge_health(&mut document, health);
    // Spelling: query objects as the scalar parameters they are sent as; response headers as
    // registered (`ETag`).
    spell_out_query_objects(&mut document);
    spell_response_headers(&mut document);
    // What any operation answers before or around its handler.
    document_common_failures(&mut document);
    // Links from each create to the operations on what it created.
    link_created_resources(&mut document);
    // The front door's refusal of NUL characters in paths and queries.
    document_no_nul_in_urls(&mut document);
    // The legal module's 403 where acceptance is enforced (a middleware, not a handler).
    crate::modules::document_legal_enforcement(&mut document);
    // Each unsafe operation's declared intent (`x-idempotency`), its `Idempotency-Key`
    // parameter and the answers the guard adds (409, 422, 503), last: it reads the rest.
    poem_idempotency::openapi::document_intents(&mut document, intents, idempotency);
    document
}

/// Adds the health document's paths, schemas and tags to the API document's.
fn merge_health(api: &mut Value, health: Value) {
    if let (Some(paths), Some(health_paths)) = (
        api.get_mut("paths").and_then(Value::as_object_mut),
        health.get("paths").and_then(Value::as_object),
    ) {
        for (path, item) in health_paths {
            paths.insert(path.clone(), item.clone());
        }
    }
    if let Some(schemas) = health
        .pointer("/components/schemas")
        .and_then(Value::as_object)
    {
        let target = api
            .as_object_mut()
            .map(|doc| doc.entry("components").or_insert_with(|| json!({})))
            .and_then(Value::as_object_mut)
            .map(|components| components.entry("schemas").or_insert_with(|| json!({})))
            .and_then(Value::as_object_mut);
        if let Some(target) = target {
            for (name, schema) in schemas {
                target.entry(name.clone()).or_insert_with(|| schema.clone());
            }
        }
    }
    if let Some(tags) = health.get("tags").and_then(Value::as_array).cloned()
        && let Some(api_tags) = api.get_mut("tags").and_then(Value::as_array_mut)
    {
        api_tags.extend(tags);
    }
}

/// Every operation object of an OpenAPI document.
fn operations_mut(
    document: &mut Value,
) -> impl Iterator<Item = &mut serde_json::Map<String, Value>> {
    document
        .get_mut("paths")
        .and_then(Value::as_object_mut)
        .into_iter()
        .flat_map(|paths| paths.values_mut())
        .filter_map(Value::as_object_mut)
        .flat_map(|item| item.values_mut())
        .filter_map(Value::as_object_mut)
}

/// Writes each exploded form-style query object (`kernel::PageRequest` declares `page` and
/// `perPage` as one) as the scalar parameters it is sent as: `?page=2&perPage=50` either way,
/// but generated clients and Swagger UI handle scalar parameters best. Each property's
/// description becomes its parameter's.
fn spell_out_query_objects(document: &mut Value) {
    for operation in operations_mut(document) {
        let Some(parameters) = operation
            .get_mut("parameters")
            .and_then(Value::as_array_mut)
        else {
            continue;
        };
        let spelled = parameters
            .drain(..)
            .flat_map(|parameter| match exploded_query_object(&parameter) {
                Some(properties) => properties,
                None => vec![parameter],
            })
            .collect();
        *parameters = spelled;
    }
}

/// The parameters an exploded form-style query object stands for, or `None` for any other.
fn exploded_query_object(parameter: &Value) -> Option<Vec<Value>> {
    let is_form = parameter.get("style").is_none_or(|style| style == "form");
    if parameter["in"] != "query" || parameter["explode"] != true || !is_form {
        return None;
    }
    let schema = parameter.get("schema")?;
    if schema["type"] != "object" {
        return None;
    }
    let required = schema.get("required").and_then(Value::as_array);
    let properties = schema.get("properties").and_then(Value::as_object)?;
    let spelled = properties
        .iter()
        .map(|(name, property)| {
            let mut property = property.clone();
            let description = property
                .as_object_mut()
                .and_then(|schema| schema.remove("description"));
            let mut spelled = json!({
                "name": name,
                "in": "query",
                "required": required.is_some_and(|names| names.iter().any(|n| n == name)),
                "deprecated": parameter["deprecated"],
                "explode": true,
                "schema": property,
            });
            if let Some(description) = description {
                spelled["description"] = description;
            }
            spelled
        })
        .collect();
    Some(spelled)
}

/// What any operation can answer before or around its handler, documented on each: 400 for a
/// request that does not parse (every operation: even a query string is checked), 401 where it
/// needs credentials, 413 and 415 where it takes a body, 500 for a fault, 503 for writes that
/// could not wait their turn in the database (ADR 0018). Handlers document
/// their own failures (`kernel::operation_error!`); a status both document keeps both meanings.
fn document_common_failures(document: &mut Value) {
    for operation in operations_mut(document) {
        let needs_credentials = operation
            .get("security")
            .and_then(Value::as_array)
            .is_some_and(|schemes| !schemes.is_empty());
        let takes_body = operation.contains_key("requestBody");
        let Some(responses) = operation
            .get_mut("responses")
            .and_then(Value::as_object_mut)
        else {
            continue;
        };
        document_problem(
            responses,
            StatusCode::BAD_REQUEST,
            "The request is malformed: a parameter or the body does not parse or validate (`field` names it where it can).",
        );
        if needs_credentials {
            document_problem(
                responses,
                StatusCode::UNAUTHORIZED,
                "The access token is missing, expired or invalid.",
            );
        }
        if takes_body {
            document_problem(
                responses,
                StatusCode::PAYLOAD_TOO_LARGE,
                "The body is larger than the service accepts (`server.body_limit_bytes`).",
            );
            document_problem(
                responses,
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "The body's `Content-Type` is not one this operation takes.",
            );
        }
        document_problem(
            responses,
            StatusCode::INTERNAL_SERVER_ERROR,
            "The service failed: quote the `X-Request-Id` when reporting it.",
        );
        document_problem(
            responses,
            StatusCode::SERVICE_UNAVAILABLE,
            "The database could not take this request's writes in time (other writers held it): nothing was done; retry after `Retry-After`.",
        );
    }
}

/// Every string path and query parameter refuses NUL characters (`infra::http::FrontDoor`
/// answers 400 before any operation runs): their schemas say so, unless an enum or a pattern of
/// their own already does.
fn document_no_nul_in_urls(document: &mut Value) {
    let parameters = operations_mut(document)
        .filter_map(|operation| operation.get_mut("parameters"))
        .filter_map(Value::as_array_mut)
        .flatten();
    for parameter in parameters {
        if !(parameter["in"] == "path" || parameter["in"] == "query") {
            continue;
        }
        let schema = &mut parameter["schema"];
        if schema["type"] == "string"
            && schema.get("pattern").is_none()
            && schema.get("enum").is_none()
        {
            schema["pattern"] = json!(kernel::strict_string::NO_NUL);
        }
    }
}

/// OpenAPI links from each create (a POST to `P` answering 201 with the new entity) to the
/// operations on what it created (`P/{id}` and below): the id comes from the answer's body and
/// `If-Match` from its `ETag`. Clients and tools (Swagger UI, stateful fuzzers) follow them.
fn link_created_resources(document: &mut Value) {
    let Some(paths) = document.get("paths").and_then(Value::as_object).cloned() else {
        return;
    };
    for (path, item) in &paths {
        let Some(created) = item.pointer("/post/responses/201") else {
            continue;
        };
        let gives_etag = created.pointer("/headers/ETag").is_some();
        let entity = format!("{path}/{{id}}");
        let mut links = serde_json::Map::new();
        for (target_path, target) in &paths {
            if !(target_path == &entity || target_path.starts_with(&format!("{entity}/"))) {
                continue;
            }
            for operation in target
                .as_object()
                .into_iter()
                .flat_map(|item| item.values())
            {
                let Some(id) = operation["operationId"].as_str() else {
                    continue;
                };
                let wants_if_match = operation["parameters"]
                    .as_array()
                    .is_some_and(|parameters| {
                        parameters.iter().any(|parameter| {
                            parameter["in"] == "header" && parameter["name"] == "If-Match"
                        })
                    });
                let mut parameters = json!({ "id": "$response.body#/id" });
                if wants_if_match && gives_etag {
                    parameters["header.If-Match"] = json!("$response.header.ETag");
                }
                links.insert(
                    id.to_owned(),
                    json!({ "operationId": id, "parameters": parameters }),
                );
            }
        }
        if !links.is_empty()
            && let Some(response) = document.pointer_mut(&format!(
                "/paths/{}/post/responses/201",
                path.replace('~', "~0").replace('/', "~1")
            ))
        {
            response["links"] = Value::Object(links);
        }
    }
}

/// poem-openapi documents response headers in capitals (`ETAG`); clients and generators read the
/// names as written, so they are given back their registered spelling (`ETag`, `Location`).
fn spell_response_headers(document: &mut Value) {
    let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    let responses = paths
        .values_mut()
        .filter_map(Value::as_object_mut)
        .flat_map(|item| item.values_mut())
        .filter_map(|operation| operation.get_mut("responses"))
        .filter_map(Value::as_object_mut)
        .flat_map(|responses| responses.values_mut());
    for response in responses {
        let Some(headers) = response.get_mut("headers").and_then(Value::as_object_mut) else {
            continue;
        };
        let spelled: serde_json::Map<String, Value> = std::mem::take(headers)
            .into_iter()
            .map(|(name, header)| (registered_spelling(&name), header))
            .collect();
        *headers = spelled;
    }
}

/// `ETAG` → `ETag`, `RETRY-AFTER` → `Retry-After`: each word capitalised, with the registry's
/// exceptions.
fn registered_spelling(name: &str) -> String {
    match name.to_ascii_lowercase().as_str() {
        "etag" => "ETag".to_owned(),
        "www-authenticate" => "WWW-Authenticate".to_owned(),
        lower => lower
            .split('-')
            .map(|word| {
                let mut chars = word.chars();
                chars
                    .next()
                    .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
                    .unwrap_or_default()
            })
            .collect::<Vec<_>>()
            .join("-"),
    }
}

/// The finished document, served as is.
#[derive(Clone)]
pub struct OpenApiDocument(pub Arc<String>);

#[handler]
pub fn openapi_json(document: Data<&OpenApiDocument>) -> Response {
    Response::builder()
        .header(header::CONTENT_TYPE, "application/json")
        .body(document.0.0.as_str().to_owned())
}

/// Swagger UI settings: the finished document, and bearer tokens kept across reloads.
pub fn swagger_config() -> Arc<utoipa_swagger_ui::Config<'static>> {
    Arc::new(utoipa_swagger_ui::Config::from("/openapi.json").persist_authorization(true))
}

/// The request interceptor that gives each "Try it out" of an idempotent operation a fresh
/// `Idempotency-Key` (unless one is typed in).
const IDEMPOTENCY_KEYS_JS: &str = include_str!("swagger/idempotency-keys.js");

/// Swagger UI's start-up script with [`IDEMPOTENCY_KEYS_JS`] installed: the interceptor reads
/// the loaded document to know which operations take a key.
fn with_idempotency_keys(initializer: &[u8]) -> Vec<u8> {
    let script = String::from_utf8_lossy(initializer).replacen(
        "    plugins: [",
        // The first request is the document's own, before `window.ui` exists.
        "    requestInterceptor: (request) => window.ui ? idempotencyKeyInterceptor(\n      \
         window.ui.specSelectors.specJson().toJS(), freshIdempotencyKey)(request) : request,\n    \
         plugins: [",
        1,
    );
    format!("{IDEMPOTENCY_KEYS_JS}\n{script}").into_bytes()
}

/// Serves Swagger UI's files under `/docs/`.
#[handler]
pub fn swagger_ui(
    req: &Request,
    config: Data<&Arc<utoipa_swagger_ui::Config<'static>>>,
) -> poem::Result<Response> {
    let tail = req.uri().path().strip_prefix("/docs/").unwrap_or_default();
    match utoipa_swagger_ui::serve(tail, Arc::clone(&config)) {
        Ok(Some(file)) if tail == "swagger-initializer.js" => Ok(Response::builder()
            .header(header::CONTENT_TYPE, file.content_type)
            .body(with_idempotency_keys(&file.bytes))),
        Ok(Some(file)) => Ok(Response::builder()
            .header(header::CONTENT_TYPE, file.content_type)
            .body(file.bytes.into_owned())),
        Ok(None) => Err(poem::Error::from_status(StatusCode::NOT_FOUND)),
        Err(err) => Err(poem::Error::from_string(
            err.to_string(),
            StatusCode::INTERNAL_SERVER_ERROR,
        )),
    }
}

/// `/docs` to `/docs/`: Swagger UI's page loads its assets by relative paths.
#[handler]
pub fn docs_redirect() -> impl IntoResponse {
    Redirect::permanent("/docs/")
}

/// The inventory of declared intents, as the Markdown table the README carries between
/// `<!-- intents:begin -->` and `<!-- intents:end -->` (`app intents` prints it).
pub fn intent_inventory(document: &Value) -> String {
    let mut rows = Vec::new();
    if let Some(paths) = document["paths"].as_object() {
        for (path, item) in paths {
            for method in UNSAFE_METHODS {
                let Some(operation) = item.get(method) else {
                    continue;
                };
                let (intent, why) = match Declaration::of(operation) {
                    Some(Ok(Declaration::Idempotent {
                        retention,
                        key_required,
                        on_store_failure,
                        durable,
                        effect_outside_database,
                        fingerprint_headers,
                    })) => (
                        "idempotent",
                        format!(
                            "replayed for {retention}{}{}{}{}",
                            match (durable, effect_outside_database) {
                                (true, _) =>
                                    "; durable (the answer is committed with the effect)".to_owned(),
                                (false, Some(what)) => {
                                    format!(
                                        "; not durable: its effect is outside the database ({what})"
                                    )
                                }
                                (false, None) => "; not durable".to_owned(),
                            },
                            if key_required { "; key required" } else { "" },
                            if on_store_failure == OnStoreFailure::Reject {
                                "; fails closed (503) when the store is down"
                            } else {
                                ""
                            },
                            if fingerprint_headers.is_empty() {
                                String::new()
                            } else {
                                format!(
                                    "; the key also binds `{}`",
                                    fingerprint_headers.join("`, `")
                                )
                            }
                        ),
                    ),
                    Some(Ok(Declaration::NonIdempotent { justification })) => {
                        ("non-idempotent", justification)
                    }
                    None | Some(Err(_)) => ("**undeclared**", String::new()),
                };
                rows.push(format!(
                    "| `{}` | `{} {path}` | {intent} | {why} |",
                    operation["operationId"].as_str().unwrap_or("?"),
                    method.to_ascii_uppercase()
                ));
            }
        }
    }
    rows.sort();
    let mut table = String::from(
        "| operation | request | intent | retention or justification |\n|---|---|---|---|\n",
    );
    for row in rows {
        table.push_str(&row);
        table.push('\n');
    }
    table
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{intent_inventory, registered_spelling};

    #[test]
    fn response_headers_are_documented_as_registered() {
        for (generated, registered) in [
            ("ETAG", "ETag"),
            ("LOCATION", "Location"),
            ("RETRY-AFTER", "Retry-After"),
            ("WWW-AUTHENTICATE", "WWW-Authenticate"),
            ("X-Idempotent-Replay", "X-Idempotent-Replay"),
        ] {
            assert_eq!(registered_spelling(generated), registered);
        }
    }

    #[test]
    fn the_inventory_says_which_operations_are_durable_require_a_key_fail_closed_or_bind_headers() {
        let document = json!({ "paths": {
            "/pay": { "post": { "operationId": "pay", "x-idempotency": {
                "intent": "idempotent", "retention": "PT24H", "keyRequired": true,
                "onStoreFailure": "reject", "durable": true
            } } },
            "/things": { "post": { "operationId": "create", "x-idempotency": {
                "intent": "idempotent", "retention": "PT24H", "keyRequired": false,
                "onStoreFailure": "execute", "durable": false,
                "effectOutsideDatabase": "queues a mail",
                "fingerprintHeaders": ["X-Tenant", "X-Region"]
            } } },
            "/login": { "post": { "operationId": "login", "x-idempotency": {
                "intent": "non-idempotent", "justification": "fresh tokens"
            } } }
        }});

        let table = intent_inventory(&document);

        assert!(table.contains(
            "| `pay` | `POST /pay` | idempotent | replayed for PT24H; durable (the answer is committed with the effect); key required; fails closed (503) when the store is down |"
        ), "{table}");
        assert!(
            table.contains("| `create` | `POST /things` | idempotent | replayed for PT24H; not durable: its effect is outside the database (queues a mail); the key also binds `X-Tenant`, `X-Region` |"),
            "{table}"
        );
        assert!(
            table.contains("| `login` | `POST /login` | non-idempotent | fresh tokens |"),
            "{table}"
        );
    }
}
