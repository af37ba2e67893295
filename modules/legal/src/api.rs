//! The HTTP operations of the legal module. Doc comments here are the OpenAPI text.

use std::collections::HashSet;
use std::sync::Arc;

use crud::created_location;
use infra::database::now_ms;
use infra::{UserDirectory, require_any_role};
use kernel::auth::{ADMIN_ROLE, NOT_AN_ADMINISTRATOR, SESSION_ENDED};
use kernel::{
    AppError, AppResult, BearerAuth, Page, PageRequest, RequestContext, Timestamp, client_address,
};
use poem::Request;
use poem::http::header::USER_AGENT;
use poem_idempotency::{OutcomeRecorder, Recorded};
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, OpenApi, Tags};

use crate::enforcement::{AcceptanceGate, RequireAcceptance};
use crate::model::{
    Acceptance, AcceptanceInput, DocumentVersion, Kind, MyAcceptances, PendingVersion,
    PublishVersionInput,
};
use crate::repository::{LegalRepository, NewAcceptance};

/// The longest `User-Agent` kept in an acceptance record, in characters.
const USER_AGENT_MAX_CHARS: usize = 512;

#[derive(Tags)]
enum ApiTags {
    /// Legal documents (terms, privacy policy, ...) in immutable, numbered versions, and the
    /// record of who accepted which. When the service enforces acceptance, an authenticated
    /// caller who has not accepted the current version of every required kind gets `403` with
    /// the problem type `/problems/legal-acceptance-required` from the other APIs (not from
    /// this one, nor from `/auth`), its `detail` naming the versions to accept.
    Legal,
}

/// The legal API.
pub struct LegalApi {
    repository: LegalRepository,
    gate: Arc<AcceptanceGate>,
    /// Who is an administrator now (the access token's claim is not enough).
    directory: Arc<dyn UserDirectory>,
}

impl LegalApi {
    pub fn new(
        repository: LegalRepository,
        gate: Arc<AcceptanceGate>,
        directory: Arc<dyn UserDirectory>,
    ) -> Self {
        Self {
            repository,
            gate,
            directory,
        }
    }

    /// The middleware the host wraps its routes with to enforce acceptance (it lets everything
    /// through unless `legal.require_current_acceptance` is on). It shares this API's memory
    /// of the current versions, so a publication here is enforced at once.
    pub fn enforcement(&self) -> RequireAcceptance {
        RequireAcceptance::new(Arc::clone(&self.gate))
    }
}

#[derive(ApiResponse)]
enum ListDocumentsResponse {
    /// One page of the current documents, one version per kind, by kind.
    #[oai(status = 200)]
    Ok(Json<Page<DocumentVersion>>),
}

#[derive(ApiResponse)]
enum GetVersionResponse {
    /// The version.
    #[oai(status = 200)]
    Ok(Json<DocumentVersion>),
}

#[derive(ApiResponse)]
enum PublishResponse {
    /// The version was published; `Location` addresses it.
    #[oai(status = 201)]
    Created(Json<DocumentVersion>, #[oai(header = "Location")] String),
}

#[derive(ApiResponse)]
enum AcceptResponse {
    /// The acceptance was recorded.
    #[oai(status = 201)]
    Created(Json<Acceptance>),
    /// The caller had already accepted this version: the first record, unchanged.
    #[oai(status = 200)]
    AlreadyAccepted(Json<Acceptance>),
}

#[derive(ApiResponse)]
enum MyAcceptancesResponse {
    /// What the caller accepted, and the current versions still pending.
    #[oai(status = 200)]
    Ok(Json<MyAcceptances>),
}

const NO_SUCH_VERSION: &str = "No version of this kind has this number.";

fn version_not_found(kind: &str, version: i64) -> AppError {
    AppError::NotFound(format!("There is no version {version} of `{kind}`."))
}

// What each operation can fail with, beyond the malformed request (400), missing credentials
// (401) and faults (500) that the host documents on every operation.
kernel::operation_error! {
    /// How reading legal documents fails.
    ListDocumentsError {}
}
kernel::operation_error! {
    /// How reading a version fails.
    GetVersionError {
        NOT_FOUND => NO_SUCH_VERSION,
    }
}
kernel::operation_error! {
    /// How publishing a version fails.
    PublishError {
        UNAUTHORIZED => SESSION_ENDED,
        FORBIDDEN => NOT_AN_ADMINISTRATOR,
    }
}
kernel::operation_error! {
    /// How accepting a version fails.
    AcceptError {
        NOT_FOUND => NO_SUCH_VERSION,
        CONFLICT => "The version is not the current one of its kind: a newer one is in \
                     effect, or it does not take effect yet.",
    }
}
kernel::operation_error! {
    /// How reading the caller's acceptances fails.
    MyAcceptancesError {}
}

/// The request's `User-Agent`, shortened to what is kept.
fn user_agent(req: &Request) -> Option<String> {
    let value = req.headers().get(USER_AGENT)?;
    let text = String::from_utf8_lossy(value.as_bytes());
    Some(text.chars().take(USER_AGENT_MAX_CHARS).collect())
}

#[poem_idempotency::intents]
#[OpenApi(prefix_path = "/legal", tag = "ApiTags::Legal")]
impl LegalApi {
    /// List the current legal documents
    ///
    /// The current version of each kind of document: the highest-numbered version whose
    /// `effectiveAt` has come. Kinds whose versions all take effect later are not listed.
    /// Needs no authentication.
    #[oai(
        path = "/documents",
        method = "get",
        operation_id = "listLegalDocuments"
    )]
    #[tracing::instrument(name = "legal.list_documents", skip_all)]
    async fn list_documents(
        &self,
        paging: PageRequest,
    ) -> Result<ListDocumentsResponse, ListDocumentsError> {
        let now = now_ms();
        let items = self
            .repository
            .current_versions(now, paging.limit(), paging.offset())
            .await?;
        let total = self.repository.count_current(now).await?;
        Ok(ListDocumentsResponse::Ok(Json(Page::new(
            items, paging, total,
        ))))
    }

    /// Get one version of a legal document
    ///
    /// Any published version, current, superseded or not yet in effect. Needs no
    /// authentication.
    #[oai(
        path = "/documents/:kind/versions/:version",
        method = "get",
        operation_id = "getLegalDocumentVersion"
    )]
    #[tracing::instrument(name = "legal.get_version", skip_all)]
    async fn get_version(
        &self,
        /// The kind of document: a lowercase slug such as `terms` or `privacy`.
        #[oai(validator(min_length = 1, max_length = 40, pattern = r"^[a-z][a-z0-9-]*$"))]
        kind: Path<String>,
        /// The version number, from 1.
        #[oai(validator(minimum(value = "1"), maximum(value = "4294967295")))]
        version: Path<u32>,
    ) -> Result<GetVersionResponse, GetVersionError> {
        let kind = Kind::parse(&kind.0)?;
        let number = i64::from(version.0);
        let found = self
            .repository
            .version(&kind, number)
            .await?
            .ok_or_else(|| version_not_found(kind.as_str(), number))?;
        Ok(GetVersionResponse::Ok(Json(found)))
    }

    /// Publish a new version of a legal document (administrators)
    ///
    /// The service numbers the version: one more than the latest version of that kind (the
    /// first is 1). Versions are immutable. The version becomes the current one at
    /// `effectiveAt` (at once without it), unless a higher-numbered version is in effect by
    /// then. Send an `Idempotency-Key`: a retry with the same key and body gets the first answer
    /// back instead of publishing a second version (the answer is committed with the version).
    /// `403` for a caller who is not an administrator.
    #[idempotent]
    #[oai(
        path = "/documents/:kind/versions",
        method = "post",
        operation_id = "publishLegalDocumentVersion"
    )]
    #[tracing::instrument(name = "legal.publish", skip_all, fields(user.id = %auth.0.subject))]
    async fn publish(
        &self,
        req: &Request,
        auth: BearerAuth,
        outcome: OutcomeRecorder,
        /// The kind of document: a lowercase slug such as `terms` or `privacy`.
        #[oai(validator(min_length = 1, max_length = 40, pattern = r"^[a-z][a-z0-9-]*$"))]
        kind: Path<String>,
        body: Json<PublishVersionInput>,
    ) -> Result<Recorded<PublishResponse>, PublishError> {
        require_any_role(
            &*self.directory,
            &auth.0,
            &[ADMIN_ROLE],
            NOT_AN_ADMINISTRATOR,
        )
        .await?;
        let publication = body.parse(&kind.0, &auth.0.subject, now_ms())?;
        let recorded = self
            .repository
            .publish(&publication, &outcome, |published| {
                let location = created_location(req, &published.version.to_string());
                PublishResponse::Created(Json(published), location)
            })
            .await?;
        self.gate.invalidate();
        Ok(recorded)
    }

    /// Accept a version of a legal document
    ///
    /// Records that the caller accepts the current version of a kind, with the time, the
    /// client address and the `User-Agent`: `201` with the record. Accepting a version the
    /// caller already accepted answers `200` with the first record and records nothing (with or
    /// without an `Idempotency-Key`). Only the current version can be accepted: `409` for a
    /// superseded version or one not yet in effect, `404` for a version that does not exist.
    #[idempotent]
    #[oai(
        path = "/acceptances",
        method = "post",
        operation_id = "acceptLegalDocument"
    )]
    #[tracing::instrument(name = "legal.accept", skip_all, fields(user.id = %auth.0.subject))]
    async fn accept(
        &self,
        req: &Request,
        auth: BearerAuth,
        outcome: OutcomeRecorder,
        body: Json<AcceptanceInput>,
    ) -> Result<Recorded<AcceptResponse>, AcceptError> {
        let kind = Kind::parse(&body.kind)?;
        let version = i64::from(body.version);
        let user = auth.0.subject.as_str();
        let address = client_address(req);
        let agent = user_agent(req);
        let request_id = RequestContext::current().map(|context| context.request_id().to_owned());
        let mut tx = outcome.begin(self.repository.pool()).await?;
        self.repository.hold_kind(&mut tx, &kind).await?;
        // Timed once the kind is held: the version current now stays current until the commit.
        let now = now_ms();
        let acceptance = NewAcceptance {
            user_id: user,
            kind: &kind,
            version,
            accepted_at_ms: now,
            client_address: &address,
            user_agent: agent.as_deref(),
            request_id: request_id.as_deref(),
        };
        if let Some(created) = self
            .repository
            .insert_acceptance(&mut tx, &acceptance)
            .await?
        {
            return Ok(tx.commit(AcceptResponse::Created(Json(created))).await?);
        }
        // Nothing inserted: accepted before (a retry, or a concurrent acceptance that won), or
        // not the current version.
        if let Some(existing) = self
            .repository
            .acceptance(&mut *tx, user, &kind, version)
            .await?
        {
            return Ok(tx
                .commit(AcceptResponse::AlreadyAccepted(Json(existing)))
                .await?);
        }
        // A request holds one connection at a time: the transaction ends before the reads that
        // say why.
        drop(tx);
        Err(self.why_not_current(&kind, version, now).await?.into())
    }

    /// Why `version` of `kind` cannot be accepted at `now`: it does not exist (404), or it is
    /// superseded or not yet in effect (409).
    async fn why_not_current(&self, kind: &Kind, version: i64, now: i64) -> AppResult<AppError> {
        let found = self
            .repository
            .version(kind, version)
            .await?
            .ok_or_else(|| version_not_found(kind.as_str(), version))?;
        let current = self.repository.current_version_of(kind, now).await?;
        let detail = if Timestamp::from_unix_ms(now) < found.effective_at {
            format!(
                "Version {version} of `{kind}` takes effect at {}: it cannot be accepted before.",
                found.effective_at
            )
        } else {
            format!(
                "Version {version} of `{kind}` is superseded: accept the current version, {}.",
                current.unwrap_or_default()
            )
        };
        Ok(AppError::Conflict(detail))
    }

    /// What the caller accepted
    ///
    /// Every acceptance the caller made (newest first), and the current versions they have not
    /// accepted yet; `required` marks those the service refuses other requests without.
    #[oai(
        path = "/acceptances/me",
        method = "get",
        operation_id = "getMyLegalAcceptances"
    )]
    #[tracing::instrument(name = "legal.mine", skip_all, fields(user.id = %auth.0.subject))]
    async fn mine(&self, auth: BearerAuth) -> Result<MyAcceptancesResponse, MyAcceptancesError> {
        let user = auth.0.subject.as_str();
        let accepted = self.repository.acceptances_of(user).await?;
        let done: HashSet<(&str, i64)> = accepted
            .iter()
            .map(|acceptance| (acceptance.kind.as_str(), acceptance.version))
            .collect();
        let pending = self
            .repository
            .current_summaries(now_ms())
            .await?
            .into_iter()
            .filter(|current| !done.contains(&(current.kind.as_str(), current.version)))
            .map(|current| PendingVersion {
                required: self.gate.requires(&current.kind),
                effective_at: Timestamp::from_unix_ms(current.effective_at_ms),
                version: current.version,
                kind: current.kind,
            })
            .collect();
        Ok(MyAcceptancesResponse::Ok(Json(MyAcceptances {
            accepted,
            pending,
        })))
    }
}
