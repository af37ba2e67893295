//! `check-idempotency <base-url>` (also `app check-idempotency`): does idempotency hold
//! *through this deployment*?
//!
//! A proxy that strips `Idempotency-Key`, instances pointed at different Redis databases or key
//! prefixes, sticky sessions hiding a missing shared store: each silently turns exactly-once into
//! at-most-once-per-instance. This sends the sequences that show it, over separate connections so
//! that a load balancer spreads them, and reports each check with what it saw.
//!
//! It picks an idempotent operation the service documents (`x-idempotency` in its
//! `/openapi.json`), builds a minimal body from the operation's schema, and authenticates with a
//! given token or with throwaway accounts it registers (development and test settings only:
//! production requires a confirmed email before login).

use std::collections::BTreeSet;
use std::time::Duration;

use anyhow::{Context as _, bail};
use serde::Serialize;
use serde_json::{Map, Value, json};

/// The command line: the same for `check-idempotency` and `app check-idempotency`.
#[derive(Debug, Clone, clap::Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub options: CheckOptions,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs every check and prints the report; an error when a check failed.
pub async fn run(arguments: CheckArgs) -> anyhow::Result<()> {
    let report = check_idempotency(&arguments.options).await?;
    if arguments.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", report.to_text());
    }
    if !report.passed() {
        bail!("idempotency does not hold through this deployment");
    }
    Ok(())
}

/// What to check, and how.
#[derive(Debug, Clone, clap::Args)]
pub struct CheckOptions {
    /// The service's base URL as clients reach it, e.g. http://lb.internal:8080
    pub base_url: String,
    /// A bearer token; without one, throwaway accounts are registered (not in production,
    /// where login needs a confirmed email).
    #[arg(long)]
    pub token: Option<String>,
    /// The operationId to check (default: an idempotent POST the document lists).
    #[arg(long)]
    pub operation: Option<String>,
    /// How many duplicates to send at once.
    #[arg(long, default_value_t = 8)]
    pub concurrency: usize,
}

/// One check's verdict.
#[derive(Debug, Clone, Serialize)]
pub struct CheckResult {
    pub name: &'static str,
    pub passed: bool,
    /// The check could not be made with the given options (it counts as no failure, and the
    /// report says so rather than calling it passed).
    pub skipped: bool,
    /// What was seen, in a sentence.
    pub detail: String,
}

impl CheckResult {
    fn made(name: &'static str, passed: bool, detail: String) -> Self {
        Self {
            name,
            passed,
            skipped: false,
            detail,
        }
    }
}

/// Every check, and the instances that answered.
#[derive(Debug, Clone, Serialize)]
pub struct CheckReport {
    pub operation: String,
    pub instances: Vec<String>,
    pub checks: Vec<CheckResult>,
}

impl CheckReport {
    pub fn passed(&self) -> bool {
        self.checks.iter().all(|check| check.passed)
    }

    /// The human-readable report.
    pub fn to_text(&self) -> String {
        let mut text = format!(
            "checking {} ({} instance(s) answered: {})\n",
            self.operation,
            self.instances.len(),
            if self.instances.is_empty() {
                "no X-Instance-Id header".to_owned()
            } else {
                self.instances.join(", ")
            }
        );
        for check in &self.checks {
            let verdict = match (check.skipped, check.passed) {
                (true, _) => "SKIP",
                (false, true) => "PASS",
                (false, false) => "FAIL",
            };
            text.push_str(&format!("{verdict} {}: {}\n", check.name, check.detail));
        }
        text
    }
}

/// One answer, as far as the checks care.
#[derive(Debug, Clone)]
struct Answer {
    status: u16,
    replay: bool,
    body: String,
    instance: Option<String>,
}

/// The operation under check.
struct Operation {
    id: String,
    method: reqwest::Method,
    url: String,
    body: Value,
    secured: bool,
}

/// Runs every check against the deployment at `options.base_url`.
pub async fn check_idempotency(options: &CheckOptions) -> anyhow::Result<CheckReport> {
    let base = options.base_url.trim_end_matches('/');
    let document: Value = fresh_client()?
        .get(format!("{base}/openapi.json"))
        .send()
        .await
        .context("fetching /openapi.json")?
        .error_for_status()
        .context("fetching /openapi.json")?
        .json()
        .await
        .context("/openapi.json is not JSON")?;
    // The first operation that accepts a minimal request is checked: an operation may need data
    // the checker cannot invent (a published document, a role), and a refusal changes nothing.
    let run = unique("check");
    let key = format!("{run}-replay");
    let mut accounts: Option<(String, String)> = None;
    let mut refused = Vec::new();
    let mut accepted = None;
    for operation in candidate_operations(&document, base, options.operation.as_deref())? {
        let (caller, other_caller) = match (&options.token, operation.secured) {
            (Some(token), _) => (Some(token.clone()), None),
            (None, true) => {
                if accounts.is_none() {
                    accounts = Some((
                        throwaway_account(base).await?,
                        throwaway_account(base).await?,
                    ));
                }
                let (caller, other) = accounts.clone().expect("made above");
                (Some(caller), Some(other))
            }
            (None, false) => (None, None),
        };
        let first = send_once(&operation, &key, &operation.body, caller.as_deref()).await?;
        if (200..300).contains(&first.status) {
            accepted = Some((operation, caller, other_caller, first));
            break;
        }
        refused.push(format!(
            "{} answered {} ({})",
            operation.id,
            first.status,
            first.body.chars().take(200).collect::<String>()
        ));
    }
    let Some((operation, caller, other_caller, first)) = accepted else {
        bail!(
            "no idempotent operation accepted a minimal request: {}; choose one with --operation, \
             or give a --token",
            refused.join("; ")
        );
    };
    let mut instances = BTreeSet::new();
    let mut checks = Vec::new();
    let send = |key: String, body: Value, token: Option<String>| {
        let operation = &operation;
        async move { send_once(operation, &key, &body, token.as_deref()).await }
    };

    // 1. The first answer (above), then retries: each must be the stored answer, whoever
    // serves it.
    let mut retries = Vec::new();
    for _ in 0..4 {
        retries.push(send(key.clone(), operation.body.clone(), caller.clone()).await?);
    }
    for answer in std::iter::once(&first).chain(&retries) {
        instances.extend(answer.instance.clone());
    }
    let retry_instances: BTreeSet<_> = retries.iter().filter_map(|a| a.instance.clone()).collect();
    let all_replayed = retries
        .iter()
        .all(|a| a.replay && a.status == first.status && a.body == first.body);
    checks.push(CheckResult::made(
        "replay",
        all_replayed,
        format!(
            "first answer {}; {} of 4 retries were its stored answer (X-Idempotent-Replay), served by {} instance(s)",
            first.status,
            retries.iter().filter(|a| a.replay && a.body == first.body).count(),
            retry_instances.len()
        ),
    ));
    // The key reached the service at all: a proxy that strips it turns every retry into a new
    // execution with no replay header (reported separately, because it is the first thing to fix).
    let recognised = retries.iter().any(|a| a.replay);
    checks.push(CheckResult::made(
        "key reaches the service",
        recognised,
        if recognised {
            "Idempotency-Key arrived: retries were recognised".to_owned()
        } else {
            "no retry was recognised: is a proxy removing the Idempotency-Key header?".to_owned()
        },
    ));

    // 2. The same key with another body is a client bug the service must refuse.
    let changed = send(key.clone(), altered(&operation.body), caller.clone()).await?;
    instances.extend(changed.instance.clone());
    checks.push(CheckResult::made(
        "changed body refused",
        changed.status == 422,
        format!("the same key with another body answered {}", changed.status),
    ));

    // 3. Duplicates at once, each on its own connection: one execution, everyone gets it.
    let key = format!("{run}-concurrent");
    let duplicates = futures_util::future::join_all(
        (0..options.concurrency.max(2))
            .map(|_| send(key.clone(), operation.body.clone(), caller.clone())),
    )
    .await
    .into_iter()
    .collect::<anyhow::Result<Vec<_>>>()?;
    for answer in &duplicates {
        instances.extend(answer.instance.clone());
    }
    let fresh = duplicates
        .iter()
        .filter(|a| (200..300).contains(&a.status) && !a.replay)
        .count();
    let bodies: BTreeSet<&String> = duplicates
        .iter()
        .filter(|a| (200..300).contains(&a.status))
        .map(|a| &a.body)
        .collect();
    let conflicts = duplicates.iter().filter(|a| a.status == 409).count();
    // Every answer is the one execution, its replay, or "still running": nothing else.
    let expected_answers = duplicates
        .iter()
        .all(|a| (200..300).contains(&a.status) || a.status == 409);
    checks.push(CheckResult::made(
        "concurrent duplicates execute once",
        fresh == 1 && bodies.len() == 1 && expected_answers,
        format!(
            "{} sent at once: {fresh} executed, {} replayed, {conflicts} still running (409), {} distinct answer(s)",
            duplicates.len(),
            duplicates.iter().filter(|a| a.replay).count(),
            bodies.len()
        ),
    ));

    // 4. Another caller with the same key never receives this caller's answer. Only the
    //    accounts the checker registered give it a second caller to be.
    match other_caller {
        None => checks.push(CheckResult {
            name: "no replay to another caller",
            passed: true,
            skipped: true,
            detail: "needs a second caller: run without --token against a secured operation, \
                     so that the checker registers two"
                .to_owned(),
        }),
        Some(stranger) => {
            let theirs = send(
                format!("{run}-replay"),
                operation.body.clone(),
                Some(stranger),
            )
            .await?;
            instances.extend(theirs.instance.clone());
            checks.push(CheckResult::made(
                "no replay to another caller",
                !theirs.replay,
                format!(
                    "another caller with the same key answered {}{}",
                    theirs.status,
                    if theirs.replay {
                        " as a replay of the first caller's answer"
                    } else {
                        ", not a replay"
                    }
                ),
            ));
        }
    }

    // 5. Durable operations are answered once from their outcomes table even when instances
    //    keep separate stores; operations whose effect is outside the database are not.
    let (shared_store, seen) = retries_outside_the_database(&document, base, &run).await?;
    instances.extend(seen);
    checks.push(shared_store);

    Ok(CheckReport {
        operation: format!("{} ({} {})", operation.id, operation.method, operation.url),
        instances: instances.into_iter().collect(),
        checks,
    })
}

/// What check 5 is called in the report.
const SHARED_STORE: &str = "retries outside the database replayed";

/// An operation whose effect is outside the database, keyed and retried through the load
/// balancer: every retry must be the stored answer. Instances with stores of their own (in
/// process, or Redis under different prefixes) each execute it again. Returns the check and
/// the instances that answered.
async fn retries_outside_the_database(
    document: &Value,
    base: &str,
    run: &str,
) -> anyhow::Result<(CheckResult, Vec<String>)> {
    let skipped = |detail: String| CheckResult {
        name: SHARED_STORE,
        passed: true,
        skipped: true,
        detail,
    };
    let Some(operation) = outside_database_operation(document, base)? else {
        return Ok((
            skipped(
                "the document lists no idempotent POST whose effect is outside the database \
                 (x-idempotency durable: false) that needs no token or path parameter"
                    .to_owned(),
            ),
            Vec::new(),
        ));
    };
    let key = format!("{run}-outside");
    let first = send_once(&operation, &key, &operation.body, None).await?;
    if !(200..300).contains(&first.status) {
        return Ok((
            skipped(format!(
                "{} answered {} to a minimal request, so its retries show nothing",
                operation.id, first.status
            )),
            first.instance.into_iter().collect(),
        ));
    }
    let mut retries = Vec::new();
    for _ in 0..3 {
        retries.push(send_once(&operation, &key, &operation.body, None).await?);
    }
    let name = |answer: &Answer| {
        answer
            .instance
            .clone()
            .unwrap_or_else(|| "an instance without X-Instance-Id".to_owned())
    };
    let seen: Vec<String> = std::iter::once(&first)
        .chain(&retries)
        .filter_map(|answer| answer.instance.clone())
        .collect();
    let again: Vec<&Answer> = retries.iter().filter(|answer| !answer.replay).collect();
    let check = if again.is_empty() {
        CheckResult::made(
            SHARED_STORE,
            true,
            format!(
                "{}: first answer {}; 3 retries with its key were its stored answer, served by \
                 {} instance(s)",
                operation.id,
                first.status,
                retries
                    .iter()
                    .filter_map(|answer| answer.instance.as_ref())
                    .collect::<BTreeSet<_>>()
                    .len()
            ),
        )
    } else {
        let by: BTreeSet<String> = again.iter().map(|answer| name(answer)).collect();
        CheckResult::made(
            SHARED_STORE,
            false,
            format!(
                "{}: first answered {} by {}; {} of 3 retries with its key executed again ({}) \
                 on {}: the instances do not share an idempotency store, so an operation whose \
                 effect is outside the database runs once per instance. Give every instance the \
                 same store: the same redis.url (or redis.cluster_nodes) and redis.key_prefix, or \
                 idempotency.store = \"postgres\" on one database. (Durable operations are still \
                 answered once, from their outcomes table.)",
                operation.id,
                first.status,
                name(&first),
                again.len(),
                again
                    .iter()
                    .map(|answer| answer.status.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                by.into_iter().collect::<Vec<_>>().join(", ")
            ),
        )
    };
    Ok((check, seen))
}

/// The first idempotent POST, by path, whose effect is outside the database and that needs no
/// token and no path parameter.
fn outside_database_operation(document: &Value, base: &str) -> anyhow::Result<Option<Operation>> {
    let paths = document["paths"]
        .as_object()
        .context("the document has no paths")?;
    let found = paths.iter().find_map(|(path, item)| {
        let operation = &item["post"];
        let open = operation["security"]
            .as_array()
            .is_none_or(|requirements| requirements.is_empty());
        let outside = operation["x-idempotency"]["intent"] == "idempotent"
            && operation["x-idempotency"]["durable"] == false;
        (open && outside && !path.contains('{')).then_some((path, operation))
    });
    found
        .map(|(path, operation)| operation_to_check(document, base, path, "post", operation))
        .transpose()
}

/// A client that opens a new connection for every request, so a load balancer balances each.
fn fresh_client() -> anyhow::Result<reqwest::Client> {
    reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .timeout(Duration::from_secs(30))
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .context("building the HTTP client")
}

async fn send_once(
    operation: &Operation,
    key: &str,
    body: &Value,
    token: Option<&str>,
) -> anyhow::Result<Answer> {
    let mut request = fresh_client()?
        .request(operation.method.clone(), &operation.url)
        .header("Idempotency-Key", key)
        .json(body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request
        .send()
        .await
        .with_context(|| format!("sending {} {}", operation.method, operation.url))?;
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let replay = header(poem_idempotency::IDEMPOTENT_REPLAY).as_deref() == Some("true");
    let instance = header("x-instance-id");
    let status = response.status().as_u16();
    let body = response.text().await.unwrap_or_default();
    Ok(Answer {
        status,
        replay,
        body,
        instance,
    })
}

/// The operations to try, in order: the one named, or the idempotent POSTs without path
/// parameters, secured ones first (a minimal body and the checker's own callers are all they
/// need; an open operation tends to want a token from a mail), then by path, so the order is
/// stable.
fn candidate_operations(
    document: &Value,
    base: &str,
    wanted: Option<&str>,
) -> anyhow::Result<Vec<Operation>> {
    let paths = document["paths"]
        .as_object()
        .context("the document has no paths")?;
    let mut candidates = Vec::new();
    for (path, item) in paths {
        for (method, operation) in item.as_object().into_iter().flatten() {
            if operation["x-idempotency"]["intent"] != "idempotent" {
                continue;
            }
            let id = operation["operationId"].as_str().unwrap_or_default();
            let chosen = match wanted {
                Some(wanted) => id == wanted,
                None => method == "post" && !path.contains('{'),
            };
            if chosen {
                candidates.push((path.clone(), method.clone(), operation.clone()));
            }
        }
    }
    let secured = |operation: &Value| {
        operation["security"]
            .as_array()
            .is_some_and(|requirements| !requirements.is_empty())
    };
    candidates.sort_by(|a, b| secured(&b.2).cmp(&secured(&a.2)).then(a.0.cmp(&b.0)));
    if candidates.is_empty() {
        bail!(match wanted {
            Some(wanted) => format!("no idempotent operation `{wanted}` in the document"),
            None => "the document lists no idempotent POST without path parameters: name one with --operation".to_owned(),
        });
    }
    candidates
        .into_iter()
        .map(|(path, method, operation)| {
            operation_to_check(document, base, &path, &method, &operation)
        })
        .collect()
}

fn operation_to_check(
    document: &Value,
    base: &str,
    path: &str,
    method: &str,
    operation: &Value,
) -> anyhow::Result<Operation> {
    // poem-openapi writes `application/json; charset=utf-8`.
    let schema = operation["requestBody"]["content"]
        .as_object()
        .into_iter()
        .flatten()
        .find(|(content_type, _)| content_type.starts_with("application/json"))
        .map(|(_, content)| content["schema"].clone())
        .unwrap_or(Value::Null);
    Ok(Operation {
        id: operation["operationId"].as_str().unwrap_or("?").to_owned(),
        method: reqwest::Method::from_bytes(method.to_ascii_uppercase().as_bytes())
            .context("an HTTP method")?,
        // A path parameter is filled with its own name: `/things/{id}` -> `/things/id`.
        url: format!("{base}{}", path.replace(['{', '}'], "")),
        body: example(&schema, document, 0),
        secured: operation["security"]
            .as_array()
            .is_some_and(|requirements| !requirements.is_empty()),
    })
}

/// A minimal value the schema accepts: required properties only, strings short and plain.
fn example(schema: &Value, document: &Value, depth: usize) -> Value {
    if depth > 8 {
        return Value::Null;
    }
    if let Some(reference) = schema["$ref"].as_str() {
        let name = reference.rsplit('/').next().unwrap_or_default();
        return example(
            &document["components"]["schemas"][name],
            document,
            depth + 1,
        );
    }
    if let Some(first) = schema["allOf"].as_array().and_then(|all| all.first()) {
        return example(first, document, depth + 1);
    }
    if let Some(example) = schema.get("example") {
        return example.clone();
    }
    match schema["type"].as_str() {
        Some("object") | None if schema["properties"].is_object() => {
            let mut object = Map::new();
            let required: Vec<&str> = schema["required"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            for (name, property) in schema["properties"].as_object().into_iter().flatten() {
                if required.contains(&name.as_str()) {
                    object.insert(name.clone(), example(property, document, depth + 1));
                }
            }
            Value::Object(object)
        }
        Some("integer") | Some("number") => json!(1),
        Some("boolean") => json!(false),
        Some("array") => json!([]),
        Some("string") => match schema["format"].as_str() {
            Some("email") => json!(format!("{}@example.com", unique("check"))),
            Some("uuid") => json!(uuid::Uuid::new_v4().to_string()),
            _ => json!("idempotency-check"),
        },
        _ => json!({}),
    }
}

/// The same body, changed: a property added (or the value replaced, for a non-object).
fn altered(body: &Value) -> Value {
    match body {
        Value::Object(object) => {
            let mut object = object.clone();
            object.insert("idempotencyCheckChanged".to_owned(), json!(true));
            Value::Object(object)
        }
        _ => json!({ "idempotencyCheckChanged": true }),
    }
}

/// Registers an account and logs in through the service's typed client (`clients/rust`),
/// answering its access token. The checks themselves send raw requests: each must see every
/// answer as the service gave it, which a client that retries would hide.
async fn throwaway_account(base: &str) -> anyhow::Result<String> {
    use api_client::types::{LoginRequest, RegisterRequest};

    let email = format!("{}@example.com", unique("idempotency-check"));
    let password = format!("{}-Passphrase", unique("pw"));
    let client = api_client::Client::new(base, api_client::ClientOptions::default());
    client
        .register()
        .body(
            RegisterRequest::builder()
                .email(email.as_str())
                .password(password.as_str()),
        )
        .send()
        .await
        .map_err(|err| {
            anyhow::anyhow!(
                "registering a throwaway account failed ({err}): give a token with --token"
            )
        })?;
    let tokens = client
        .login()
        .body(LoginRequest::builder().email(email).password(password))
        .send()
        .await
        .map_err(|err| {
            anyhow::anyhow!(
                "logging in the throwaway account failed ({err}): production needs --token"
            )
        })?;
    Ok(tokens.into_inner().access_token)
}

fn unique(prefix: &str) -> String {
    format!(
        "{prefix}-{}",
        &uuid::Uuid::new_v4().simple().to_string()[..12]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn document() -> Value {
        json!({
            "paths": {
                "/api/v1/auth/confirm-email": { "post": {
                    "operationId": "confirmEmail",
                    "x-idempotency": { "intent": "idempotent" }
                } },
                "/api/v1/things": { "post": {
                    "operationId": "createThing",
                    "security": [{ "BearerAuth": [] }],
                    "x-idempotency": { "intent": "idempotent" },
                    "requestBody": { "content": { "application/json; charset=utf-8": {
                        "schema": { "$ref": "#/components/schemas/ThingInput" }
                    } } }
                } },
                "/api/v1/things/{id}": { "put": {
                    "operationId": "updateThing",
                    "x-idempotency": { "intent": "idempotent" }
                } },
                "/api/v1/auth/login": { "post": {
                    "operationId": "login",
                    "x-idempotency": { "intent": "non-idempotent" }
                } }
            },
            "components": { "schemas": { "ThingInput": {
                "type": "object",
                "required": ["name"],
                "properties": {
                    "name": { "type": "string" },
                    "description": { "type": "string" }
                }
            } } }
        })
    }

    #[test]
    fn by_default_a_secured_idempotent_post_is_tried_first_with_a_minimal_body() {
        let operation = candidate_operations(&document(), "http://lb", None)
            .unwrap()
            .remove(0);

        assert_eq!(operation.id, "createThing");
        assert_eq!(operation.url, "http://lb/api/v1/things");
        assert!(operation.secured);
        assert_eq!(operation.body, json!({ "name": "idempotency-check" }));
    }

    #[test]
    fn a_named_operation_is_chosen_and_its_path_parameters_filled() {
        let operation = candidate_operations(&document(), "http://lb", Some("updateThing"))
            .unwrap()
            .remove(0);

        assert_eq!(operation.method, reqwest::Method::PUT);
        assert_eq!(operation.url, "http://lb/api/v1/things/id");
    }

    #[test]
    fn a_non_idempotent_operation_cannot_be_checked() {
        let error = candidate_operations(&document(), "http://lb", Some("login"))
            .err()
            .unwrap();

        assert!(
            error
                .to_string()
                .contains("no idempotent operation `login`")
        );
    }

    #[test]
    fn the_split_store_probe_takes_an_open_post_whose_effect_is_outside_the_database() {
        let mut document = document();
        document["paths"]["/api/v1/auth/forgot-password"] = json!({ "post": {
            "operationId": "forgotPassword",
            "x-idempotency": { "intent": "idempotent", "durable": false }
        } });
        document["paths"]["/api/v1/secured-mail"] = json!({ "post": {
            "operationId": "securedMail",
            "security": [{ "BearerAuth": [] }],
            "x-idempotency": { "intent": "idempotent", "durable": false }
        } });

        let operation = outside_database_operation(&document, "http://lb")
            .unwrap()
            .unwrap();

        assert_eq!(operation.id, "forgotPassword");
    }

    #[test]
    fn without_an_operation_outside_the_database_there_is_nothing_to_probe() {
        assert!(
            outside_database_operation(&document(), "http://lb")
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn the_changed_body_differs_from_the_original() {
        let body = json!({ "name": "x" });

        assert_ne!(altered(&body), body);
    }
}
