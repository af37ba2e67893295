//! Writing the declared intents into the OpenAPI document.
//!
//! poem-openapi has no per-operation extensions, so the finished document is post-processed:
//!
//! - every declared operation gets `x-idempotency`: `{"intent": "idempotent", "retention":
//!   "PT24H", "keyRequired": false, "onStoreFailure": "execute"}` (and `"fingerprintHeaders":
//!   ["X-Tenant"]` when it declares headers part of its request) or `{"intent":
//!   "non-idempotent", "justification": "..."}`;
//! - idempotent operations also get the `Idempotency-Key` header parameter, the 409 and 422
//!   problem responses (and 503 when they fail closed), and the `X-Idempotent-Replay` header on
//!   their success responses.
//!
//! Operations are matched by `operationId`. A service serves the result with
//! [`annotated_document_endpoint`] (at `/openapi.json`, where the intent gate looks for it), or
//! takes the text from [`annotated_document`].

use poem::http::StatusCode;
use serde_json::{Map, Value, json};

use crate::host::{PROBLEM_JSON, ProblemKind};

use serde::{Deserialize, Serialize};

use crate::intent::{Effect, Intent, OnStoreFailure, OperationIntent};
use crate::settings::IdempotencySettings;

/// The methods whose operations must declare an intent.
pub const UNSAFE_METHODS: [&str; 4] = ["post", "put", "patch", "delete"];

/// The OpenAPI extension that states an operation's declared intent.
pub const EXTENSION: &str = "x-idempotency";

/// What [`EXTENSION`] holds: the one shape the document, its readers (the README inventory, the
/// intent gate) and clients share.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "intent")]
pub enum Declaration {
    /// `#[idempotent]`: a keyed retry gets the first answer.
    #[serde(rename = "idempotent", rename_all = "camelCase")]
    Idempotent {
        /// How long an answer is replayed (ISO 8601 duration, e.g. `PT24H`).
        #[serde(default)]
        retention: String,
        /// A request without an `Idempotency-Key` is refused (400).
        #[serde(default)]
        key_required: bool,
        /// `execute` (fail open) or `reject` (503) when the store is down.
        #[serde(default)]
        on_store_failure: OnStoreFailure,
        /// The answer is committed with the operation's effect, in one database transaction.
        #[serde(default)]
        durable: bool,
        /// What the operation does instead, when its effect is not in the database.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        effect_outside_database: Option<String>,
        /// Headers that belong to the request besides the preconditions, which always do: the
        /// same key with another value of one answers 422.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        fingerprint_headers: Vec<String>,
    },
    /// `#[non_idempotent("why")]`: every request executes.
    #[serde(rename = "non-idempotent")]
    NonIdempotent {
        /// Why.
        #[serde(default)]
        justification: String,
    },
}

impl Declaration {
    /// The declaration `operation` (an OpenAPI operation object) carries: `None` without one, an
    /// error for one of another shape.
    pub fn of(operation: &Value) -> Option<Result<Self, serde_json::Error>> {
        operation
            .get(EXTENSION)
            .map(|value| serde_json::from_value(value.clone()))
    }

    fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// `service`'s OpenAPI document with its operations' declarations added ([`document_intents`]),
/// as pretty JSON: what a service serves in place of poem-openapi's `spec()`, which lacks them.
pub fn annotated_document<T, W>(
    service: &poem_openapi::OpenApiService<T, W>,
    settings: &IdempotencySettings,
) -> String
where
    T: poem_openapi::OpenApi + crate::intent::DeclaredIntents,
    W: poem_openapi::Webhook,
{
    let mut document: Value =
        serde_json::from_str(&service.spec()).expect("poem-openapi writes its document as JSON");
    document_intents(&mut document, &T::declared_intents(), settings);
    serde_json::to_string_pretty(&document).expect("a JSON value serializes")
}

/// An endpoint answering `GET` with [`annotated_document`] as `application/json`, rendered once:
///
/// ```ignore
/// let api = OpenApiService::new(Api, "Greetings", "1.0");
/// let app = Route::new()
///     .at("/openapi.json", poem_idempotency::openapi::annotated_document_endpoint(&api, &settings))
///     .nest("/", api)
///     .data(idempotency);
/// ```
pub fn annotated_document_endpoint<T, W>(
    service: &poem_openapi::OpenApiService<T, W>,
    settings: &IdempotencySettings,
) -> impl poem::Endpoint<Output = poem::Response> + 'static
where
    T: poem_openapi::OpenApi + crate::intent::DeclaredIntents,
    W: poem_openapi::Webhook,
{
    let document = bytes::Bytes::from(annotated_document(service, settings));
    poem::get(poem::endpoint::make_sync(move |_| {
        poem::Response::builder()
            .content_type("application/json")
            .body(document.clone())
    }))
}

/// Adds the declarations to `document` (an OpenAPI 3 document as JSON).
pub fn document_intents(
    document: &mut Value,
    intents: &[OperationIntent],
    settings: &IdempotencySettings,
) {
    let mut guarded = false;
    let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    for item in paths.values_mut() {
        let Some(item) = item.as_object_mut() else {
            continue;
        };
        for operation in item.values_mut() {
            let Some(operation) = operation.as_object_mut() else {
                continue;
            };
            let Some(id) = operation.get("operationId").and_then(Value::as_str) else {
                continue;
            };
            let Some(declared) = intents.iter().find(|intent| intent.operation_id == id) else {
                continue;
            };
            match declared.intent {
                Intent::Idempotent { .. } => {
                    document_idempotent(operation, declared.intent, settings);
                    guarded = true;
                }
                Intent::NonIdempotent { justification } => {
                    let declaration = Declaration::NonIdempotent {
                        justification: justification.to_owned(),
                    };
                    operation.insert(EXTENSION.into(), declaration.to_value());
                }
            }
        }
    }
    if guarded {
        add_problem_schema(document);
    }
}

/// The schema the refusals' responses refer to: `Problem`, the service's own when it has one
/// (RFC 9457 members it may extend), else the members [`crate::Host`]'s default renders.
const PROBLEM_SCHEMA: &str = "Problem";

fn add_problem_schema(document: &mut Value) {
    let Some(document) = document.as_object_mut() else {
        return;
    };
    let components = document.entry("components").or_insert_with(|| json!({}));
    let Some(components) = components.as_object_mut() else {
        return;
    };
    let schemas = components.entry("schemas").or_insert_with(|| json!({}));
    let Some(schemas) = schemas.as_object_mut() else {
        return;
    };
    schemas.entry(PROBLEM_SCHEMA).or_insert_with(|| {
        json!({
            "type": "object",
            "title": "Problem",
            "description": "A problem detail (RFC 9457).",
            "required": ["type", "title", "status"],
            "properties": {
                "type": { "type": "string", "description": "A URI reference identifying the problem type." },
                "title": { "type": "string", "description": "A short summary of the problem type." },
                "status": { "type": "integer", "format": "uint16", "description": "The HTTP status code." },
                "detail": { "type": "string", "description": "What the client should do about it." }
            }
        })
    });
}

/// Records in an OpenAPI `responses` object that the operation can answer `status` as a problem
/// (`application/problem+json`, the `Problem` schema) meaning `description`. When the operation
/// already lists that status for another reason, the description is added to the listed one
/// rather than replacing it.
pub fn document_problem(responses: &mut Map<String, Value>, status: StatusCode, description: &str) {
    let key = status.as_str().to_owned();
    match responses.get_mut(&key) {
        Some(listed) => {
            let before = listed["description"].as_str().unwrap_or_default();
            if !before.contains(description) {
                listed["description"] = format!("{before} Or: {description}").trim().into();
            }
        }
        None => {
            let schema = format!("#/components/schemas/{PROBLEM_SCHEMA}");
            responses.insert(
                key,
                json!({
                    "description": description,
                    "content": { PROBLEM_JSON: { "schema": { "$ref": schema } } },
                }),
            );
        }
    }
}

/// What `ClientKey::parse` accepts: blank, a bare key of visible ASCII, or an RFC 8941 string
/// (spaces allowed, `\"` and `\\` escaped).
const KEY_PATTERN: &str = r#"^([!#-~][!-~]*|"([ !#-\[\]-~]|\\["\\])*")?$"#;

/// [`KEY_PATTERN`] without the blank key, for operations that require one (a blank value counts
/// as none).
const REQUIRED_KEY_PATTERN: &str = r#"^([!#-~][!-~]*|"([ !#-\[\]-~]|\\["\\])+")$"#;

fn document_idempotent(
    operation: &mut Map<String, Value>,
    intent: Intent,
    settings: &IdempotencySettings,
) {
    let Intent::Idempotent {
        key_required,
        on_store_failure,
        effect,
        fingerprint_headers,
    } = intent
    else {
        return;
    };
    let outside_database = match effect {
        Effect::Database => None,
        Effect::OutsideDatabase(what) => Some(what),
    };
    let declaration = Declaration::Idempotent {
        retention: settings.retention_iso8601(),
        key_required,
        on_store_failure,
        durable: effect.is_durable(),
        effect_outside_database: outside_database.map(str::to_owned),
        fingerprint_headers: fingerprint_headers
            .iter()
            .map(|name| (*name).to_owned())
            .collect(),
    };
    operation.insert(EXTENSION.into(), declaration.to_value());
    let description = format!(
        "Makes this request safe to retry. Send a unique value per operation (at most 255 visible \
         ASCII characters, bare or as a quoted string, e.g. a UUID) and reuse it on every retry. \
         A retry with the same key and the same request gets the first response back, marked \
         `X-Idempotent-Replay: true`, without executing again, for {} after the first response. \
         {} A retry while the first request still runs waits up to {} for its response, then \
         answers 409 with `Retry-After`. Failed responses are not kept, so a retry after an \
         error executes. Keys are scoped to the caller and this operation. A blank value counts \
         as no key.{}",
        humanize(settings.retention),
        another_request(fingerprint_headers),
        humanize(settings.lock_wait),
        if key_required {
            " Required: a request without a key answers 400."
        } else {
            ""
        },
    ) + match on_store_failure {
        OnStoreFailure::Execute => "",
        OnStoreFailure::Reject => {
            " If the service cannot reach its idempotency store, a keyed request answers 503 with \
             `Retry-After` and executes nothing, rather than risk executing twice."
        }
    } + &match outside_database {
        None => " The response is committed together with the operation's effect, in one \
                 database transaction: even if the service fails right after the change, a \
                 retry gets this response instead of executing again."
            .to_owned(),
        Some(what) => format!(
            " This operation's effect is not in the database ({what}): if the service fails \
             after the effect and before it keeps the response, a retry executes again."
        ),
    };
    let parameters = operation
        .entry("parameters")
        .or_insert_with(|| Value::Array(Vec::new()));
    if let Some(parameters) = parameters.as_array_mut() {
        parameters.push(json!({
            "name": "Idempotency-Key",
            "in": "header",
            "required": key_required,
            "description": description,
            "schema": {
                "type": "string",
                "maxLength": 255,
                "pattern": if key_required { REQUIRED_KEY_PATTERN } else { KEY_PATTERN },
            },
        }));
    }
    let Some(responses) = operation
        .get_mut("responses")
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    for (status, response) in responses.iter_mut() {
        if status.starts_with('2') {
            let headers = response
                .as_object_mut()
                .map(|r| r.entry("headers").or_insert_with(|| json!({})));
            if let Some(headers) = headers.and_then(Value::as_object_mut) {
                headers.insert(
                    "X-Idempotent-Replay".into(),
                    json!({
                        "description": "`true` when this response is the stored answer to an earlier request with the same Idempotency-Key.",
                        "schema": { "type": "string", "enum": ["true"] }
                    }),
                );
            }
        }
    }
    document_problem(
        responses,
        StatusCode::BAD_REQUEST,
        if key_required {
            "The `Idempotency-Key` is missing or malformed."
        } else {
            "The `Idempotency-Key` is malformed."
        },
    );
    document_problem(
        responses,
        StatusCode::CONFLICT,
        ProblemKind::InProgress.detail(),
    );
    document_problem(
        responses,
        StatusCode::UNPROCESSABLE_ENTITY,
        ProblemKind::KeyReuse.detail(),
    );
    if on_store_failure == OnStoreFailure::Reject {
        document_problem(
            responses,
            StatusCode::SERVICE_UNAVAILABLE,
            ProblemKind::StoreUnavailable.detail(),
        );
    }
}

/// What makes a request under a used key another request (and so a 422), as the key's
/// description says it: another payload or target, another precondition (every one in
/// [`crate::key::PRECONDITION_HEADERS`]), or another value of a header the operation declared.
fn another_request(fingerprint_headers: &[&str]) -> String {
    let declared = match fingerprint_headers {
        [] => String::new(),
        names => {
            let names: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
            format!(" or {}", names.join(", "))
        }
    };
    format!(
        "The same key with a different body, query or path, or with a precondition \
         (`If-Match`, `If-None-Match`, `If-Modified-Since`, `If-Unmodified-Since`, \
         `If-Range`){declared} added, changed or dropped, answers 422."
    )
}

/// `24h`, `5s`, `1m 30s`: durations as the descriptions state them.
fn humanize(duration: std::time::Duration) -> String {
    let seconds = duration.as_secs();
    let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    let mut parts = Vec::new();
    if hours > 0 {
        parts.push(format!("{hours}h"));
    }
    if minutes > 0 {
        parts.push(format!("{minutes}m"));
    }
    if rest > 0 || parts.is_empty() {
        if seconds == 0 {
            parts.push(format!("{}ms", duration.as_millis()));
        } else {
            parts.push(format!("{rest}s"));
        }
    }
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_people_write_them() {
        let stated = |ms: u64| humanize(std::time::Duration::from_millis(ms));

        assert_eq!(stated(24 * 3_600_000), "24h");
        assert_eq!(stated(2 * 3_600_000), "2h");
        assert_eq!(stated(5_405_000), "1h 30m 5s");
        assert_eq!(stated(3_605_000), "1h 5s");
        assert_eq!(stated(61_000), "1m 1s");
        assert_eq!(stated(120_000), "2m");
        assert_eq!(stated(5_000), "5s");
        assert_eq!(stated(250), "250ms");
        assert_eq!(stated(0), "0ms");
    }

    #[test]
    fn a_status_listed_already_gains_the_meaning_once() {
        let mut responses = Map::new();
        responses.insert("409".into(), json!({ "description": "The name is taken." }));

        document_problem(
            &mut responses,
            StatusCode::CONFLICT,
            "A request is running.",
        );
        document_problem(
            &mut responses,
            StatusCode::CONFLICT,
            "A request is running.",
        );
        document_problem(
            &mut responses,
            StatusCode::BAD_REQUEST,
            "The key is malformed.",
        );

        assert_eq!(
            responses["409"]["description"],
            "The name is taken. Or: A request is running."
        );
        assert_eq!(responses["400"]["description"], "The key is malformed.");
        assert_eq!(
            responses["400"]["content"][PROBLEM_JSON]["schema"]["$ref"],
            "#/components/schemas/Problem"
        );
    }

    #[test]
    fn a_document_with_its_own_problem_schema_keeps_it() {
        let mut own = json!({
            "paths": {},
            "components": { "schemas": { "Problem": { "title": "the service's own" } } }
        });
        let mut without = json!({ "paths": {} });

        add_problem_schema(&mut own);
        add_problem_schema(&mut without);

        assert_eq!(
            own["components"]["schemas"]["Problem"]["title"],
            "the service's own"
        );
        assert_eq!(
            without["components"]["schemas"]["Problem"]["required"],
            json!(["type", "title", "status"])
        );
    }

    #[test]
    fn every_form_of_key_the_pattern_documents_parses() {
        // One value per branch of KEY_PATTERN; the parser's own tests cover what it refuses.
        for value in [
            "",
            "abc-123",
            "a\"b",
            r#""with spaces""#,
            r#""esc\"aped\\""#,
        ] {
            assert!(
                crate::key::ClientKey::parse(value).is_ok(),
                "{value} matches {KEY_PATTERN} and must parse"
            );
        }
        for value in ["abc-123", r#"" ""#] {
            assert!(
                matches!(crate::key::ClientKey::parse(value), Ok(Some(_))),
                "{value} matches {REQUIRED_KEY_PATTERN} and must be a key"
            );
        }
    }

    fn document() -> Value {
        json!({ "paths": {
            "/a": { "post": { "operationId": "create", "responses": { "201": { "description": "created" } } } },
            "/b": { "post": { "operationId": "login", "responses": { "200": { "description": "ok" } } } },
            "/c": { "post": { "operationId": "undeclared", "responses": {} } },
            "/d": { "post": { "operationId": "pay", "responses": { "201": { "description": "paid" } } } }
        }})
    }

    fn intents() -> Vec<OperationIntent> {
        vec![
            OperationIntent {
                operation_id: "create",
                method: "POST",
                path: "/a",
                intent: Intent::IDEMPOTENT,
            },
            OperationIntent {
                operation_id: "pay",
                method: "POST",
                path: "/d",
                intent: Intent::Idempotent {
                    key_required: true,
                    on_store_failure: OnStoreFailure::Reject,
                    effect: Effect::OutsideDatabase("sends a payment order"),
                    fingerprint_headers: &["X-Tenant", "X-Region"],
                },
            },
            OperationIntent {
                operation_id: "login",
                method: "POST",
                path: "/b",
                intent: Intent::NonIdempotent {
                    justification: "fresh tokens",
                },
            },
        ]
    }

    #[test]
    fn idempotent_operations_get_the_header_the_extension_and_the_problem_responses() {
        let mut doc = document();
        document_intents(&mut doc, &intents(), &IdempotencySettings::default());
        let create = &doc["paths"]["/a"]["post"];
        assert_eq!(
            create["x-idempotency"],
            json!({
                "intent": "idempotent",
                "retention": "PT24H",
                "keyRequired": false,
                "onStoreFailure": "execute",
                "durable": true
            })
        );
        assert_eq!(create["parameters"][0]["name"], "Idempotency-Key");
        assert_eq!(create["parameters"][0]["in"], "header");
        assert!(create["responses"]["409"].is_object() && create["responses"]["422"].is_object());
        assert!(create["responses"]["201"]["headers"]["X-Idempotent-Replay"].is_object());
    }

    #[test]
    fn a_fail_closed_operation_says_so_and_documents_its_503() {
        let mut doc = document();
        document_intents(&mut doc, &intents(), &IdempotencySettings::default());
        let pay = &doc["paths"]["/d"]["post"];
        assert_eq!(pay["x-idempotency"]["onStoreFailure"], "reject");
        assert_eq!(pay["x-idempotency"]["keyRequired"], true);
        assert!(pay["responses"]["503"].is_object());
        let create = &doc["paths"]["/a"]["post"];
        assert!(create["responses"].get("503").is_none());
    }

    #[test]
    fn a_durable_operation_says_so_in_the_extension_and_the_header_text() {
        let mut doc = document();
        document_intents(&mut doc, &intents(), &IdempotencySettings::default());
        let create = &doc["paths"]["/a"]["post"];

        assert_eq!(create["x-idempotency"]["durable"], true);
        let header = create["parameters"][0]["description"].as_str().unwrap();
        assert!(header.contains("one database transaction"), "{header}");
    }

    #[test]
    fn an_effect_outside_the_database_is_named_in_the_extension_and_the_header_text() {
        let mut doc = document();
        document_intents(&mut doc, &intents(), &IdempotencySettings::default());
        let pay = &doc["paths"]["/d"]["post"];

        assert_eq!(pay["x-idempotency"]["durable"], false);
        assert_eq!(
            pay["x-idempotency"]["effectOutsideDatabase"],
            "sends a payment order"
        );
        let header = pay["parameters"][0]["description"].as_str().unwrap();
        assert!(header.contains("(sends a payment order)"), "{header}");
        assert!(header.contains("a retry executes again"), "{header}");
    }

    #[test]
    fn a_retry_with_another_precondition_is_said_to_answer_422() {
        let mut doc = document();
        document_intents(&mut doc, &intents(), &IdempotencySettings::default());
        let create = &doc["paths"]["/a"]["post"];
        let header = create["parameters"][0]["description"]
            .as_str()
            .unwrap()
            .to_ascii_lowercase();

        for precondition in &crate::key::PRECONDITION_HEADERS {
            assert!(
                header.contains(&format!("`{precondition}`")),
                "{precondition}: {header}"
            );
        }
        assert!(
            header.contains("`if-range`) added, changed or dropped, answers 422."),
            "{header}"
        );
        assert!(create["x-idempotency"].get("fingerprintHeaders").is_none());
    }

    #[test]
    fn the_headers_an_operation_declared_part_of_its_request_are_named_in_the_extension_and_the_header_text()
     {
        let mut doc = document();
        document_intents(&mut doc, &intents(), &IdempotencySettings::default());
        let pay = &doc["paths"]["/d"]["post"];

        assert_eq!(
            pay["x-idempotency"]["fingerprintHeaders"],
            json!(["X-Tenant", "X-Region"])
        );
        let header = pay["parameters"][0]["description"].as_str().unwrap();
        assert!(
            header.contains("`If-Range`) or `X-Tenant`, `X-Region` added, changed or dropped"),
            "{header}"
        );
    }

    #[test]
    fn non_idempotent_operations_get_their_justification_and_no_header() {
        let mut doc = document();
        document_intents(&mut doc, &intents(), &IdempotencySettings::default());
        let login = &doc["paths"]["/b"]["post"];
        assert_eq!(
            login["x-idempotency"],
            json!({ "intent": "non-idempotent", "justification": "fresh tokens" })
        );
        assert!(login.get("parameters").is_none());
    }

    #[test]
    fn undeclared_operations_are_left_for_the_gate_to_find() {
        let mut doc = document();
        document_intents(&mut doc, &intents(), &IdempotencySettings::default());
        assert!(doc["paths"]["/c"]["post"].get("x-idempotency").is_none());
    }
}
