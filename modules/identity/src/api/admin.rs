//! `/admin`: listing, locking and unlocking accounts, and the audit of locks and unlocks.
//!
//! The actions live on [`UsersAdminBase`], a reusable building block that declares no
//! idempotency intent: whichever API serves them declares it next to its operations, as
//! [`AdminApi`] does below (the consumer-declared base of docs/adr/0004). The intent gate checks what
//! is actually served.

use std::sync::Arc;

use kernel::{AppError, AppResult, BearerAuth, Page, PageRequest, Principal};

use super::errors::{AdminChangeError, AdminReadError};
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, OpenApi, Tags};

use super::views::{AuditEntryView, UserView};
use crate::service::IdentityService;

/// User administration, for any API to serve. Every action checks the administrator role.
pub struct UsersAdminBase {
    service: Arc<IdentityService>,
}

impl UsersAdminBase {
    pub fn new(service: Arc<IdentityService>) -> Self {
        Self { service }
    }

    pub async fn list(&self, admin: &Principal, page: PageRequest) -> AppResult<Page<UserView>> {
        self.service.authenticate_admin(admin).await?;
        let (users, total) = self.service.list_users(page).await?;
        Ok(Page::new(
            users.into_iter().map(UserView::from).collect(),
            page,
            total,
        ))
    }

    /// Locks an account: it can neither log in nor refresh, and its sessions end. Audited.
    pub async fn lock(&self, admin: &Principal, user_id: &str) -> AppResult<()> {
        let admin = self.service.authenticate_admin(admin).await?;
        if admin.id == user_id {
            return Err(AppError::Forbidden(
                "Administrators cannot lock their own account.".into(),
            ));
        }
        self.service.lock(&admin, user_id).await
    }

    /// Lifts a lock. Audited.
    pub async fn unlock(&self, admin: &Principal, user_id: &str) -> AppResult<()> {
        let admin = self.service.authenticate_admin(admin).await?;
        self.service.unlock(&admin, user_id).await
    }

    /// The audit of locks and unlocks, newest first.
    pub async fn audit(
        &self,
        admin: &Principal,
        page: PageRequest,
    ) -> AppResult<Page<AuditEntryView>> {
        self.service.authenticate_admin(admin).await?;
        let (records, total) = self.service.audit(page).await?;
        Ok(Page::new(
            records.into_iter().map(AuditEntryView::from).collect(),
            page,
            total,
        ))
    }
}

#[derive(Tags)]
enum ApiTags {
    /// Account administration (administrators only).
    Admin,
}

/// The `/admin` operations.
pub struct AdminApi {
    base: UsersAdminBase,
}

impl AdminApi {
    pub fn new(base: UsersAdminBase) -> Self {
        Self { base }
    }
}

#[derive(ApiResponse)]
enum ListUsersResponse {
    /// One page of accounts, oldest first.
    #[oai(status = 200)]
    Ok(Json<Page<UserView>>),
}

#[derive(ApiResponse)]
enum AuditResponse {
    /// One page of the audit, newest first.
    #[oai(status = 200)]
    Ok(Json<Page<AuditEntryView>>),
}

#[derive(ApiResponse)]
enum LockResponse {
    /// Done.
    #[oai(status = 204)]
    Done,
}

#[poem_idempotency::intents]
#[OpenApi(prefix_path = "/admin", tag = "ApiTags::Admin")]
impl AdminApi {
    /// List accounts
    #[oai(path = "/users", method = "get", operation_id = "listUsers")]
    async fn list(
        &self,
        auth: BearerAuth,
        paging: PageRequest,
    ) -> Result<ListUsersResponse, AdminReadError> {
        let page = self.base.list(&auth.0, paging).await?;
        Ok(ListUsersResponse::Ok(Json(page)))
    }

    /// Lock an account
    ///
    /// The account can no longer log in or refresh, and every session it has is revoked.
    #[non_idempotent(
        "an administrative state change audited per call; locking twice is harmless, so nothing is replayed"
    )]
    #[oai(path = "/users/:id/lock", method = "post", operation_id = "lockUser")]
    async fn lock(
        &self,
        auth: BearerAuth,
        id: Path<String>,
    ) -> Result<LockResponse, AdminChangeError> {
        self.base.lock(&auth.0, &id.0).await?;
        Ok(LockResponse::Done)
    }

    /// Unlock an account
    #[non_idempotent(
        "an administrative state change audited per call; unlocking twice is harmless, so nothing is replayed"
    )]
    #[oai(
        path = "/users/:id/unlock",
        method = "post",
        operation_id = "unlockUser"
    )]
    async fn unlock(
        &self,
        auth: BearerAuth,
        id: Path<String>,
    ) -> Result<LockResponse, AdminChangeError> {
        self.base.unlock(&auth.0, &id.0).await?;
        Ok(LockResponse::Done)
    }

    /// The audit of locks and unlocks
    ///
    /// Who locked or unlocked which account, when, and in which request (its `X-Request-Id`),
    /// newest first. Every lock and unlock is recorded in the same transaction as the change.
    #[oai(path = "/audit", method = "get", operation_id = "listAdminAudit")]
    async fn audit(
        &self,
        auth: BearerAuth,
        paging: PageRequest,
    ) -> Result<AuditResponse, AdminReadError> {
        let page = self.base.audit(&auth.0, paging).await?;
        Ok(AuditResponse::Ok(Json(page)))
    }
}
