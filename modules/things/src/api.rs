//! The HTTP operations of the things module. Doc comments here are the OpenAPI text.

use crud::{EntityTag, IfMatch, IfNoneMatch, Preconditions, conditional_write, created_location};
use kernel::{AppError, BearerAuth, Page, PageRequest};
use poem::Request;
use poem_idempotency::{OutcomeRecorder, Recorded};
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{ApiRequest, ApiResponse, OpenApi, Tags};

use crate::model::{Thing, ThingInput, ThingOrder, ThingPatch};
use crate::repository::ThingRepository;
use crate::settings::ThingsSettings;

#[derive(Tags)]
enum ApiTags {
    /// Things: a simple owned entity, the worked example of a module.
    Things,
}

/// The things API.
pub struct ThingsApi {
    repository: ThingRepository,
    settings: ThingsSettings,
}

impl ThingsApi {
    pub fn new(repository: ThingRepository, settings: ThingsSettings) -> Self {
        Self {
            repository,
            settings,
        }
    }
}

#[derive(ApiResponse)]
enum ListThingsResponse {
    /// One page of the caller's things, oldest first.
    #[oai(status = 200)]
    Ok(Json<Page<Thing>>),
}

#[derive(ApiResponse)]
#[allow(
    clippy::large_enum_variant,
    reason = "a thing with many fields makes the 200 large; each answer is built once and moved once"
)]
enum GetThingResponse {
    /// The thing.
    #[oai(status = 200)]
    Ok(Json<Thing>, #[oai(header = "ETag")] String),
    /// The thing is still the version `If-None-Match` names.
    #[oai(status = 304)]
    NotModified(#[oai(header = "ETag")] String),
}

#[derive(ApiResponse)]
enum CreateThingResponse {
    /// The thing was created; `Location` addresses it.
    #[oai(status = 201)]
    Created(
        Json<Thing>,
        #[oai(header = "Location")] String,
        #[oai(header = "ETag")] String,
    ),
}

#[derive(ApiResponse)]
enum UpdateThingResponse {
    /// The thing, as updated.
    #[oai(status = 200)]
    Ok(Json<Thing>, #[oai(header = "ETag")] String),
}

impl UpdateThingResponse {
    /// The thing as written, or 404 when there was none.
    fn of(written: Option<Thing>) -> Result<Self, ChangeThingError> {
        let thing = written.ok_or_else(no_such_thing)?;
        let etag = thing.etag();
        Ok(Self::Ok(Json(thing), etag))
    }
}

/// A change to some fields of a thing.
#[derive(ApiRequest)]
enum PatchThingRequest {
    /// A JSON Merge Patch (RFC 7396).
    #[oai(content_type = "application/merge-patch+json")]
    MergePatch(Json<ThingPatch>),
}

#[derive(ApiResponse)]
enum DeleteThingResponse {
    /// The thing is gone (without `If-Match`, also when it was never there).
    #[oai(status = 204)]
    Deleted,
}

const NO_SUCH_THING: &str = "The caller has no thing with this id.";
const LIMIT_REACHED: &str = "The caller already holds as many things as allowed.";

/// Another owner's thing is as absent as one that never existed.
fn no_such_thing() -> AppError {
    AppError::NotFound(NO_SUCH_THING.into())
}

// What each operation can fail with, beyond the malformed request (400), missing credentials
// (401) and faults (500) that the host documents on every operation.
kernel::operation_error! {
    /// How listing things fails.
    ListThingsError {}
}
kernel::operation_error! {
    /// How reading a thing fails.
    GetThingError {
        NOT_FOUND => NO_SUCH_THING,
    }
}
kernel::operation_error! {
    /// How creating a thing fails.
    CreateThingError {
        CONFLICT => LIMIT_REACHED,
    }
}
kernel::operation_error! {
    /// How replacing or patching a thing fails.
    ChangeThingError {
        NOT_FOUND => NO_SUCH_THING,
        CONFLICT => crud::answers::KEPT_CHANGING,
        PRECONDITION_FAILED => crud::answers::STALE,
        PRECONDITION_REQUIRED => crud::answers::IF_MATCH_REQUIRED,
    }
}
kernel::operation_error! {
    /// How deleting a thing fails.
    DeleteThingError {
        CONFLICT => crud::answers::KEPT_CHANGING,
        PRECONDITION_FAILED => crud::answers::STALE,
        PRECONDITION_REQUIRED => crud::answers::IF_MATCH_REQUIRED,
    }
}

#[poem_idempotency::intents]
#[OpenApi(prefix_path = "/things", tag = "ApiTags::Things")]
impl ThingsApi {
    /// List the caller's things
    ///
    /// Returns one page of the caller's things, in the order `sort` names (oldest first by
    /// default), those whose name contains `nameContains` (ignoring the case of ASCII letters)
    /// when it is given.
    /// `total` counts every thing that matches.
    #[oai(path = "/", method = "get", operation_id = "listThings")]
    #[tracing::instrument(name = "things.list", skip_all, fields(owner = %auth.0.subject))]
    async fn list(
        &self,
        auth: BearerAuth,
        paging: PageRequest,
        /// The order: `createdAt` (the default), `updatedAt` or `name`, or one of them after
        /// `-` for the reverse.
        sort: Query<Option<ThingOrder>>,
        /// Only things whose name contains this text, ignoring the case of ASCII letters.
        #[oai(name = "nameContains", validator(max_length = 200))]
        name_contains: Query<Option<String>>,
    ) -> Result<ListThingsResponse, ListThingsError> {
        let owner = &auth.0.subject;
        let filter = name_contains.0.as_deref().filter(|text| !text.is_empty());
        let order = sort.0.unwrap_or_default();
        let items = self.repository.list(owner, filter, order, paging).await?;
        let total = self.repository.count(owner, filter).await?;
        Ok(ListThingsResponse::Ok(Json(Page::new(
            items, paging, total,
        ))))
    }

    /// Get one thing
    ///
    /// The `ETag` names this version: send it back as `If-Match` to change or delete the
    /// thing, or as `If-None-Match` to get 304 Not Modified while it has not changed.
    #[oai(path = "/:id", method = "get", operation_id = "getThing")]
    #[tracing::instrument(name = "things.get", skip_all, fields(owner = %auth.0.subject, thing.id = %id.0))]
    async fn get(
        &self,
        auth: BearerAuth,
        id: Path<String>,
        /// The `ETag` of the version you hold: 304 Not Modified while it is still current.
        #[oai(name = "If-None-Match")]
        if_none_match: IfNoneMatch,
    ) -> Result<GetThingResponse, GetThingError> {
        let preconditions = Preconditions::for_read(if_none_match);
        let thing = self
            .repository
            .find(&auth.0.subject, &id.0)
            .await?
            .ok_or_else(no_such_thing)?;
        let etag = thing.etag();
        if preconditions.not_modified(&EntityTag::of_version(thing.version))? {
            return Ok(GetThingResponse::NotModified(etag));
        }
        Ok(GetThingResponse::Ok(Json(thing), etag))
    }

    /// Create a thing
    ///
    /// Send an `Idempotency-Key` to make retries safe: a retry with the same key and body
    /// returns the first response instead of creating a second thing.
    #[inherit_intent(crud::intents::CREATE)]
    #[oai(path = "/", method = "post", operation_id = "createThing")]
    #[tracing::instrument(name = "things.create", skip_all, fields(owner = %auth.0.subject))]
    async fn create(
        &self,
        req: &Request,
        auth: BearerAuth,
        outcome: OutcomeRecorder,
        body: Json<ThingInput>,
    ) -> Result<Recorded<CreateThingResponse>, CreateThingError> {
        let fields = body.parse()?;
        let owner = &auth.0.subject;
        let limit = self.settings.max_things_per_owner;
        let mut tx = outcome.begin(self.repository.pool()).await?;
        let Some(thing) = self
            .repository
            .insert(&mut tx, owner, &fields, limit)
            .await?
        else {
            return Err(AppError::Conflict(LIMIT_REACHED.into()).into());
        };
        let location = created_location(req, &thing.id);
        let etag = thing.etag();
        let created = CreateThingResponse::Created(Json(thing), location, etag);
        Ok(tx.commit(created).await?)
    }

    /// Replace a thing
    ///
    /// Sets every field of the thing, if it is still the version `If-Match` names (its
    /// `ETag`): 412 when it changed since, 428 without `If-Match` (unless the service turns
    /// `things.require_if_match` off). Repeating the same request with the same
    /// `Idempotency-Key` gets the first 200 back, not a 412 against the version it wrote.
    #[inherit_intent(crud::intents::REPLACE)]
    #[oai(path = "/:id", method = "put", operation_id = "updateThing")]
    #[tracing::instrument(name = "things.update", skip_all, fields(owner = %auth.0.subject, thing.id = %id.0))]
    async fn update(
        &self,
        auth: BearerAuth,
        id: Path<String>,
        /// The `ETag` of the version this change is based on: 412 when the thing changed since.
        #[oai(name = "If-Match")]
        if_match: IfMatch,
        outcome: OutcomeRecorder,
        body: Json<ThingInput>,
    ) -> Result<Recorded<UpdateThingResponse>, ChangeThingError> {
        let fields = body.parse()?;
        let preconditions = Preconditions::for_write(if_match, self.settings.require_if_match)?;
        let (owner, id) = (auth.0.subject.as_str(), id.0.as_str());
        let mut tx = outcome.begin(self.repository.pool()).await?;
        let updated = conditional_write(
            &preconditions,
            &mut tx,
            async |tx| self.repository.version(tx, owner, id).await,
            async |tx, version| {
                self.repository
                    .update(tx, owner, id, version, &fields)
                    .await
            },
        )
        .await?;
        Ok(tx.commit(UpdateThingResponse::of(updated)?).await?)
    }

    /// Change some fields of a thing
    ///
    /// A JSON Merge Patch (RFC 7396, `Content-Type: application/merge-patch+json`): fields left
    /// out stay as they are, `"description": null` removes the description. Conditional on
    /// `If-Match` like a replacement.
    #[inherit_intent(crud::intents::PATCH)]
    #[oai(path = "/:id", method = "patch", operation_id = "patchThing")]
    #[tracing::instrument(name = "things.patch", skip_all, fields(owner = %auth.0.subject, thing.id = %id.0))]
    async fn patch(
        &self,
        auth: BearerAuth,
        id: Path<String>,
        /// The `ETag` of the version this change is based on: 412 when the thing changed since.
        #[oai(name = "If-Match")]
        if_match: IfMatch,
        outcome: OutcomeRecorder,
        body: PatchThingRequest,
    ) -> Result<Recorded<UpdateThingResponse>, ChangeThingError> {
        let PatchThingRequest::MergePatch(patch) = body;
        let changes = patch.parse()?;
        let preconditions = Preconditions::for_write(if_match, self.settings.require_if_match)?;
        let (owner, id) = (auth.0.subject.as_str(), id.0.as_str());
        let mut tx = outcome.begin(self.repository.pool()).await?;
        let patched = conditional_write(
            &preconditions,
            &mut tx,
            async |tx| self.repository.version(tx, owner, id).await,
            async |tx, version| {
                self.repository
                    .patch(tx, owner, id, version, &changes)
                    .await
            },
        )
        .await?;
        Ok(tx.commit(UpdateThingResponse::of(patched)?).await?)
    }

    /// Delete a thing
    ///
    /// Deletes the thing if it is still the version `If-Match` names: 412 when it changed
    /// since (or is gone), 428 without `If-Match` (unless `things.require_if_match` is off;
    /// then a thing that is not there answers 204 too). A retry with the same
    /// `Idempotency-Key` gets the first 204 back.
    #[inherit_intent(crud::intents::DELETE)]
    #[oai(path = "/:id", method = "delete", operation_id = "deleteThing")]
    #[tracing::instrument(name = "things.delete", skip_all, fields(owner = %auth.0.subject, thing.id = %id.0))]
    async fn delete(
        &self,
        auth: BearerAuth,
        id: Path<String>,
        /// The `ETag` of the version this change is based on: 412 when the thing changed since.
        #[oai(name = "If-Match")]
        if_match: IfMatch,
        outcome: OutcomeRecorder,
    ) -> Result<Recorded<DeleteThingResponse>, DeleteThingError> {
        let preconditions = Preconditions::for_write(if_match, self.settings.require_if_match)?;
        let (owner, id) = (auth.0.subject.as_str(), id.0.as_str());
        let mut tx = outcome.begin(self.repository.pool()).await?;
        conditional_write(
            &preconditions,
            &mut tx,
            async |tx| self.repository.version(tx, owner, id).await,
            async |tx, version| {
                let deleted = self.repository.delete(tx, owner, id, version).await?;
                Ok(deleted.then_some(()))
            },
        )
        .await?;
        Ok(tx.commit(DeleteThingResponse::Deleted).await?)
    }
}
