//! `/admin/users`: listing, locking and unlocking accounts.
//!
//! The actions live on [`UsersAdminBase`], a reusable building block that declares no
//! idempotency intent: whichever API serves them declares it next to its operations, as
//! [`AdminApi`] does below (ADR-017's consumer-declared admin base). The intent gate checks what
//! is actually served.

use std::sync::Arc;

use kernel::{AppError, AppResult, BearerAuth, Page, PageRequest, Principal};
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, OpenApi, Tags};

use super::views::UserView;
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

    /// Locks an account: it can neither log in nor refresh, and its sessions end.
    pub async fn lock(&self, admin: &Principal, user_id: &str) -> AppResult<()> {
        self.service.authenticate_admin(admin).await?;
        if admin.subject == user_id {
            return Err(AppError::Invalid(
                "Administrators cannot lock their own account.".into(),
            ));
        }
        self.service.lock(user_id).await
    }

    pub async fn unlock(&self, admin: &Principal, user_id: &str) -> AppResult<()> {
        self.service.authenticate_admin(admin).await?;
        self.service.unlock(user_id).await
    }
}

#[derive(Tags)]
enum ApiTags {
    /// Account administration (administrators only).
    Admin,
}

/// The `/admin/users` operations.
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
enum LockResponse {
    /// Done.
    #[oai(status = 204)]
    Done,
}

#[idempotency::intents]
#[OpenApi(prefix_path = "/admin/users", tag = "ApiTags::Admin")]
impl AdminApi {
    /// List accounts
    #[oai(path = "/", method = "get", operation_id = "listUsers")]
    async fn list(
        &self,
        auth: BearerAuth,
        /// Page number, from 1.
        page: Query<Option<u32>>,
        /// Items per page, 1 to 100 (default 20).
        #[oai(name = "perPage")]
        per_page: Query<Option<u32>>,
    ) -> AppResult<ListUsersResponse> {
        let page = self
            .base
            .list(&auth.0, PageRequest::new(page.0, per_page.0))
            .await?;
        Ok(ListUsersResponse::Ok(Json(page)))
    }

    /// Lock an account
    ///
    /// The account can no longer log in or refresh, and every session it has is revoked.
    #[non_idempotent(
        "an administrative state change audited per call; locking twice is harmless, so nothing is replayed"
    )]
    #[oai(path = "/:id/lock", method = "post", operation_id = "lockUser")]
    async fn lock(&self, auth: BearerAuth, id: Path<String>) -> AppResult<LockResponse> {
        self.base.lock(&auth.0, &id.0).await?;
        Ok(LockResponse::Done)
    }

    /// Unlock an account
    #[non_idempotent(
        "an administrative state change audited per call; unlocking twice is harmless, so nothing is replayed"
    )]
    #[oai(path = "/:id/unlock", method = "post", operation_id = "unlockUser")]
    async fn unlock(&self, auth: BearerAuth, id: Path<String>) -> AppResult<LockResponse> {
        self.base.unlock(&auth.0, &id.0).await?;
        Ok(LockResponse::Done)
    }
}
