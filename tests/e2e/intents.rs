//! The intent gate: every unsafe operation declares whether it is idempotent, the document says
//! so, and the running service does what the document says. The fixtures below are each wrong
//! in one way, to prove the gate catches it.

use e2e::TestApp;
use e2e::fixtures::{Executions, FixtureApi, IdempotencyFixtureApi};
use poem_idempotency::gate::{assert_idempotency_intents, check_idempotency_intents};
use poem_idempotency::idempotent;
use poem_idempotency::intent::{DeclaredIntents, Intent, OperationIntent};
use poem_openapi::OpenApi;
use poem_openapi::payload::PlainText;

async fn gate_failures(app: &TestApp) -> Vec<String> {
    check_idempotency_intents(&app.address, &app.token_for("gate"), || app.guard_marks())
        .await
        .expect_err("the gate must refuse this API")
}

#[tokio::test]
async fn the_service_passes_the_gate() {
    let app = TestApp::spawn().await;

    assert_idempotency_intents(&app.address, &app.token_for("gate"), || app.guard_marks()).await;
}

#[tokio::test]
async fn the_test_fixtures_pass_the_gate() {
    let app = TestApp::builder()
        .spawn_with((
            FixtureApi,
            IdempotencyFixtureApi::new(Executions::default()),
        ))
        .await;

    assert_idempotency_intents(&app.address, &app.token_for("gate"), || app.guard_marks()).await;
}

/// Forgot to declare anything (no `#[intents]` at all).
struct MissingIntentApi;

#[OpenApi(prefix_path = "/gate")]
impl MissingIntentApi {
    #[oai(path = "/missing", method = "post", operation_id = "gateMissing")]
    async fn missing(&self) -> PlainText<&'static str> {
        PlainText("ran")
    }
}

impl DeclaredIntents for MissingIntentApi {
    fn declared_intents() -> Vec<OperationIntent> {
        Vec::new()
    }
}

#[tokio::test]
async fn an_operation_without_an_intent_fails_the_gate_by_name() {
    let app = TestApp::builder().spawn_with(MissingIntentApi).await;

    let failures = gate_failures(&app).await;

    assert!(
        failures
            .iter()
            .any(|f| f.contains("(gateMissing): declares no idempotency intent")),
        "{failures:?}"
    );
}

/// A blank justification, declared by hand (`#[non_idempotent("")]` would not compile).
struct BlankJustificationApi;

#[OpenApi(prefix_path = "/gate")]
impl BlankJustificationApi {
    #[oai(path = "/blank", method = "post", operation_id = "gateBlank")]
    async fn blank(&self) -> PlainText<&'static str> {
        PlainText("ran")
    }
}

impl DeclaredIntents for BlankJustificationApi {
    fn declared_intents() -> Vec<OperationIntent> {
        vec![OperationIntent {
            operation_id: "gateBlank",
            method: "POST",
            path: "/gate/blank",
            intent: Intent::NonIdempotent {
                justification: "  ",
            },
        }]
    }
}

#[tokio::test]
async fn a_blank_justification_fails_the_gate_by_name() {
    let app = TestApp::builder().spawn_with(BlankJustificationApi).await;

    let failures = gate_failures(&app).await;

    assert!(
        failures
            .iter()
            .any(|f| f.contains("(gateBlank): declared non-idempotent without a justification")),
        "{failures:?}"
    );
}

/// Declared idempotent (so the document shows the header) but never wrapped by the guard.
struct HeaderWithoutGuardApi;

#[OpenApi(prefix_path = "/gate")]
impl HeaderWithoutGuardApi {
    #[oai(path = "/unguarded", method = "post", operation_id = "gateUnguarded")]
    async fn unguarded(&self) -> PlainText<&'static str> {
        PlainText("ran")
    }
}

impl DeclaredIntents for HeaderWithoutGuardApi {
    fn declared_intents() -> Vec<OperationIntent> {
        vec![OperationIntent {
            operation_id: "gateUnguarded",
            method: "POST",
            path: "/gate/unguarded",
            intent: Intent::IDEMPOTENT,
        }]
    }
}

#[tokio::test]
async fn a_documented_header_without_the_guard_fails_the_gate_by_name() {
    let app = TestApp::builder().spawn_with(HeaderWithoutGuardApi).await;

    let failures = gate_failures(&app).await;

    assert!(
        failures
            .iter()
            .any(|f| f.contains("(gateUnguarded): documented as idempotent")
                && f.contains("did not go through the guard")),
        "{failures:?}"
    );
}

/// Wrapped by the guard by hand, but declared non-idempotent.
struct GuardWithoutDeclarationApi;

#[OpenApi(prefix_path = "/gate")]
impl GuardWithoutDeclarationApi {
    #[oai(
        path = "/guarded",
        method = "post",
        operation_id = "gateGuarded",
        transform = "idempotent"
    )]
    async fn guarded(&self) -> PlainText<&'static str> {
        PlainText("ran")
    }
}

impl DeclaredIntents for GuardWithoutDeclarationApi {
    fn declared_intents() -> Vec<OperationIntent> {
        vec![OperationIntent {
            operation_id: "gateGuarded",
            method: "POST",
            path: "/gate/guarded",
            intent: Intent::NonIdempotent {
                justification: "claims to be unguarded",
            },
        }]
    }
}

#[tokio::test]
async fn a_guard_without_the_declaration_fails_the_gate_by_name() {
    let app = TestApp::builder()
        .spawn_with(GuardWithoutDeclarationApi)
        .await;

    let failures = gate_failures(&app).await;

    assert!(
        failures.iter().any(|f| f.contains(
            "(gateGuarded): goes through the idempotency guard, but is not documented as idempotent"
        )),
        "{failures:?}"
    );
}

/// What the hand-guarded operations below declare: idempotent, their effect (none) outside the
/// database, as the plain `idempotent` transform guards them.
const OUTSIDE_DATABASE: Intent = Intent::Idempotent {
    key_required: false,
    on_store_failure: poem_idempotency::intent::OnStoreFailure::Execute,
    effect: poem_idempotency::intent::Effect::OutsideDatabase("answers a constant"),
    fingerprint_headers: &[],
};

/// Secured (it takes `BearerAuth`) and guarded by hand with the plain `idempotent` transform,
/// which does not know the operation is secured: the guard would scope an unauthenticated
/// request anonymously, which is what the gate must catch.
struct SecuredButScopedAnonymouslyApi;

#[OpenApi(prefix_path = "/gate")]
impl SecuredButScopedAnonymouslyApi {
    #[oai(
        path = "/anonymous-scope",
        method = "post",
        operation_id = "gateAnonymousScope",
        transform = "idempotent"
    )]
    async fn create(&self, _auth: kernel::BearerAuth) -> PlainText<&'static str> {
        PlainText("ran")
    }
}

impl DeclaredIntents for SecuredButScopedAnonymouslyApi {
    fn declared_intents() -> Vec<OperationIntent> {
        vec![OperationIntent {
            operation_id: "gateAnonymousScope",
            method: "POST",
            path: "/gate/anonymous-scope",
            intent: OUTSIDE_DATABASE,
        }]
    }
}

#[tokio::test]
async fn a_secured_operation_scoped_anonymously_fails_the_gate_by_name() {
    let app = TestApp::builder()
        .spawn_with(SecuredButScopedAnonymouslyApi)
        .await;

    let failures = gate_failures(&app).await;

    assert_eq!(
        failures,
        [
            "POST /api/v1/gate/anonymous-scope (gateAnonymousScope): secured, but a keyed request \
          without a token reached the idempotency store"
        ]
    );
}

/// A shared building block that exports its declarations, for the APIs serving it to inherit.
mod shared_base {
    use poem_idempotency::intent::Intent;

    pub const CREATE: Intent = Intent::Idempotent {
        key_required: false,
        on_store_failure: poem_idempotency::intent::OnStoreFailure::Execute,
        effect: poem_idempotency::intent::Effect::OutsideDatabase(
            "counts its executions in memory",
        ),
        fingerprint_headers: &[],
    };
    pub const AUDIT: Intent = Intent::NonIdempotent {
        justification: "each call is an audit event of its own",
    };
}

/// Inherits one idempotent and one non-idempotent declaration, and overrides a third.
struct InheritingApi {
    executions: Executions,
}

#[poem_idempotency::intents]
#[OpenApi(prefix_path = "/inherit")]
impl InheritingApi {
    #[inherit_intent(shared_base::CREATE)]
    #[oai(path = "/create", method = "post", operation_id = "inheritCreate")]
    async fn create(&self) -> PlainText<String> {
        PlainText(format!("{}", self.executions.record()))
    }

    #[inherit_intent(shared_base::AUDIT)]
    #[oai(path = "/audit", method = "post", operation_id = "inheritAudit")]
    async fn audit(&self) -> PlainText<String> {
        PlainText(format!("{}", self.executions.record()))
    }

    /// The base would say AUDIT; this API overrides it.
    #[idempotent(outside_database = "counts its executions in memory, for the test")]
    #[oai(path = "/override", method = "post", operation_id = "inheritOverride")]
    async fn overridden(&self) -> PlainText<String> {
        PlainText(format!("{}", self.executions.record()))
    }
}

#[tokio::test]
async fn inherited_and_overridden_intents_are_what_is_served() {
    let executions = Executions::default();
    let app = TestApp::builder()
        .spawn_with(InheritingApi {
            executions: executions.clone(),
        })
        .await;

    assert_idempotency_intents(&app.address, &app.token_for("gate"), || app.guard_marks()).await;
    let document: serde_json::Value = app.get("/openapi.json").await.json().await.unwrap();
    let paths = &document["paths"];
    assert_eq!(
        paths["/api/v1/inherit/create"]["post"]["x-idempotency"]["intent"],
        "idempotent"
    );
    assert_eq!(
        paths["/api/v1/inherit/audit"]["post"]["x-idempotency"]["justification"],
        "each call is an audit event of its own"
    );
    assert_eq!(
        paths["/api/v1/inherit/override"]["post"]["x-idempotency"]["intent"],
        "idempotent"
    );
}

/// Documented as durable, but guarded as an operation whose effect is outside the database: its
/// handler is never handed the means to commit its answer, so a crash after its commit would
/// execute it again.
struct DurableInNameOnlyApi;

#[OpenApi(prefix_path = "/gate")]
impl DurableInNameOnlyApi {
    #[oai(
        path = "/in-name-only",
        method = "post",
        operation_id = "gateDurableInNameOnly",
        transform = "idempotent"
    )]
    async fn in_name_only(&self) -> PlainText<&'static str> {
        PlainText("ran")
    }
}

impl DeclaredIntents for DurableInNameOnlyApi {
    fn declared_intents() -> Vec<OperationIntent> {
        vec![OperationIntent {
            operation_id: "gateDurableInNameOnly",
            method: "POST",
            path: "/gate/in-name-only",
            intent: Intent::IDEMPOTENT,
        }]
    }
}

#[tokio::test]
async fn a_durable_operation_whose_guard_hands_it_no_recorder_fails_the_gate_by_name() {
    let app = TestApp::builder().spawn_with(DurableInNameOnlyApi).await;

    let failures = gate_failures(&app).await;

    assert!(
        failures.iter().any(
            |f| f.contains("(gateDurableInNameOnly): documented as durable")
                && f.contains("was not handed the means to commit its answer")
        ),
        "{failures:?}"
    );
}

#[tokio::test]
async fn the_durable_fixtures_pass_the_gate() {
    let database = testing::database::TestDatabase::create().await;
    let fixture = e2e::fixtures::EffectsFixtureApi::connect(database.url()).await;
    let app = TestApp::builder()
        .database(database)
        .spawn_with(fixture)
        .await;

    assert_idempotency_intents(&app.address, &app.token_for("gate"), || app.guard_marks()).await;
}
