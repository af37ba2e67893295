//! Enforcement of acceptance (`legal.require_current_acceptance`): an authenticated caller who
//! has not accepted the current version of every required kind gets a 403 problem of type
//! [`ACCEPTANCE_REQUIRED`] from every other module's operations.
//!
//! It is a middleware the host installs around its routes ([`RequireAcceptance`], made by
//! `LegalApi::enforcement`), so no module depends on this one. It lets through, unchecked:
//! anonymous and refused requests (the operation answers them as usual, 401 where it needs a
//! caller), the legal API itself, `/api/v1/auth/*` (logging in, refreshing, logging out, `me`,
//! sessions), and everything outside `/api/v1` (health, the document, Swagger UI).
//!
//! The per-request cost is two map reads: [`AcceptanceGate`] keeps the current required
//! versions (re-read every `legal.cache_ttl`, when a version it knows of takes effect, and at
//! once when this instance publishes) and the callers found to have accepted all of them (valid
//! for as long as those versions stay current, since acceptances are never withdrawn). A
//! version published on another instance is enforced here within `legal.cache_ttl`.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use infra::database::now_ms;
use kernel::{AppResult, Authentication, Problem};
use poem::http::StatusCode;
use poem::{Endpoint, IntoResponse, Middleware, Request, Response};

use crate::model::Kind;
use crate::repository::LegalRepository;

/// The problem type of the 403 a caller gets until they accept the current required versions.
pub const ACCEPTANCE_REQUIRED: &str = "/problems/legal-acceptance-required";

/// Callers remembered as up to date, at most; past this the memory starts again empty.
const MAX_REMEMBERED_CALLERS: usize = 100_000;

/// Path prefixes the gate never checks: the legal API (where the caller accepts) and the
/// identity module's `/auth` (where the caller logs in and out).
const EXEMPT_API_PREFIXES: &[&str] = &["/legal", "/auth"];

/// The current versions of the required kinds, as last read.
#[derive(Debug)]
struct Catalog {
    /// Changes whenever `required` does: what a remembered caller was checked against.
    id: u64,
    /// (kind, version), by kind.
    required: Vec<(String, i64)>,
    /// Unix milliseconds after which this must be read again.
    valid_until_ms: i64,
    /// [`AcceptanceGate::generation`] when it was read: a publication since makes it stale.
    generation: u64,
}

/// What enforcement knows: the required kinds, the current versions and who accepted them.
#[derive(Debug)]
pub struct AcceptanceGate {
    repository: LegalRepository,
    enabled: bool,
    required_kinds: HashSet<String>,
    ttl_ms: i64,
    catalog: RwLock<Option<Arc<Catalog>>>,
    /// Bumped by every publication on this instance.
    generation: AtomicU64,
    /// The last catalog id handed out.
    last_id: AtomicU64,
    /// Caller -> the catalog id they were found to have accepted entirely.
    up_to_date: Mutex<HashMap<String, u64>>,
}

impl AcceptanceGate {
    pub fn new(
        repository: LegalRepository,
        enabled: bool,
        required_kinds: &[Kind],
        ttl: Duration,
    ) -> Self {
        Self {
            repository,
            enabled,
            required_kinds: required_kinds
                .iter()
                .map(|kind| kind.as_str().to_owned())
                .collect(),
            ttl_ms: i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX),
            catalog: RwLock::new(None),
            generation: AtomicU64::new(0),
            last_id: AtomicU64::new(0),
            up_to_date: Mutex::new(HashMap::new()),
        }
    }

    /// Whether the service refuses callers who have not accepted the required versions.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Whether `kind` is one the service requires acceptance of (when enforcing).
    pub fn requires(&self, kind: &str) -> bool {
        self.enabled && self.required_kinds.contains(kind)
    }

    /// Makes the current versions stale: this instance published one.
    pub fn invalidate(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
    }

    /// The current versions of the required kinds, read again when stale.
    async fn catalog(&self) -> AppResult<Arc<Catalog>> {
        let now = now_ms();
        let generation = self.generation.load(Ordering::SeqCst);
        let cached = self
            .catalog
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        if let Some(catalog) = &cached
            && catalog.generation == generation
            && now < catalog.valid_until_ms
        {
            return Ok(Arc::clone(catalog));
        }
        let required: Vec<(String, i64)> = self
            .repository
            .current_summaries(now)
            .await?
            .into_iter()
            .filter(|current| self.required_kinds.contains(&current.kind))
            .map(|current| (current.kind, current.version))
            .collect();
        let next_change = self.repository.next_effective_after(now).await?;
        let valid_until_ms = next_change.map_or(now.saturating_add(self.ttl_ms), |next| {
            next.min(now.saturating_add(self.ttl_ms))
        });
        let mut slot = self.catalog.write().unwrap_or_else(|e| e.into_inner());
        let id = match slot.as_ref() {
            Some(previous) if previous.required == required => previous.id,
            _ => self.last_id.fetch_add(1, Ordering::SeqCst) + 1,
        };
        let catalog = Arc::new(Catalog {
            id,
            required,
            valid_until_ms,
            generation,
        });
        // A publication while this was read: used for this request, not kept.
        if self.generation.load(Ordering::SeqCst) == generation {
            *slot = Some(Arc::clone(&catalog));
        }
        Ok(catalog)
    }

    /// The required current versions `subject` has not accepted; empty when none.
    pub async fn pending_for(&self, subject: &str) -> AppResult<Vec<(String, i64)>> {
        let catalog = self.catalog().await?;
        if catalog.required.is_empty() {
            return Ok(Vec::new());
        }
        let remembered = self
            .up_to_date
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(subject)
            .copied();
        if remembered == Some(catalog.id) {
            return Ok(Vec::new());
        }
        let accepted: HashSet<(String, i64)> = self
            .repository
            .accepted_versions(subject)
            .await?
            .into_iter()
            .collect();
        let pending: Vec<(String, i64)> = catalog
            .required
            .iter()
            .filter(|required| !accepted.contains(*required))
            .cloned()
            .collect();
        if pending.is_empty() {
            let mut up_to_date = self.up_to_date.lock().unwrap_or_else(|e| e.into_inner());
            if up_to_date.len() >= MAX_REMEMBERED_CALLERS {
                up_to_date.clear();
            }
            up_to_date.insert(subject.to_owned(), catalog.id);
        }
        Ok(pending)
    }
}

/// The middleware the host wraps its routes with: refuses an authenticated caller's requests to
/// other modules until they have accepted the current required versions (when
/// `legal.require_current_acceptance` is on; otherwise it lets everything through).
#[derive(Debug, Clone)]
pub struct RequireAcceptance {
    gate: Arc<AcceptanceGate>,
}

impl RequireAcceptance {
    pub fn new(gate: Arc<AcceptanceGate>) -> Self {
        Self { gate }
    }

    /// Documents the 403 on every operation of an OpenAPI document that enforcement covers.
    /// Always, whatever `legal.require_current_acceptance` says: the document describes what a
    /// deployment may answer, and clients generated from it must handle the refusal.
    pub fn document(document: &mut serde_json::Value) {
        let Some(paths) = document
            .get_mut("paths")
            .and_then(serde_json::Value::as_object_mut)
        else {
            return;
        };
        let covered = paths
            .iter_mut()
            .filter(|(path, _)| !is_exempt(path))
            .filter_map(|(_, item)| item.as_object_mut())
            .flat_map(|item| item.values_mut())
            .filter_map(|operation| operation.get_mut("responses"))
            .filter_map(serde_json::Value::as_object_mut);
        for responses in covered {
            kernel::operation_error::document_problem(
                responses,
                StatusCode::FORBIDDEN,
                "Where the service requires it (`legal.require_current_acceptance`), a caller who \
                 has not accepted the current version of every required legal document (problem \
                 type `/problems/legal-acceptance-required`; `GET /api/v1/legal/acceptances/me` \
                 lists what is pending).",
            );
        }
    }
}

impl<E: Endpoint> Middleware<E> for RequireAcceptance {
    type Output = RequireAcceptanceEndpoint<E>;

    fn transform(&self, inner: E) -> Self::Output {
        RequireAcceptanceEndpoint {
            inner,
            gate: Arc::clone(&self.gate),
        }
    }
}

/// [`RequireAcceptance`] around an endpoint.
pub struct RequireAcceptanceEndpoint<E> {
    inner: E,
    gate: Arc<AcceptanceGate>,
}

impl<E: Endpoint> Endpoint for RequireAcceptanceEndpoint<E> {
    type Output = Response;

    async fn call(&self, req: Request) -> poem::Result<Response> {
        if self.gate.enabled() && !is_exempt(req.uri().path()) {
            let caller = Authentication::of(&req)
                .and_then(Authentication::principal)
                .map(|principal| principal.subject.clone());
            if let Some(subject) = caller {
                let pending = self.gate.pending_for(&subject).await?;
                if !pending.is_empty() {
                    return Ok(acceptance_required(&pending).into_response());
                }
            }
        }
        self.inner.call(req).await.map(IntoResponse::into_response)
    }
}

/// Whether `path` is outside enforcement: outside the API, or the legal or auth API. A path
/// with empty, `.` or `..` segments is never exempt (it is not one of those routes).
fn is_exempt(path: &str) -> bool {
    let Some(rest) = path.strip_prefix(kernel::API_PREFIX) else {
        return true;
    };
    if rest.is_empty() {
        return true;
    }
    if rest
        .split('/')
        .skip(1)
        .any(|segment| segment.is_empty() || segment == "." || segment == "..")
    {
        return false;
    }
    EXEMPT_API_PREFIXES.iter().any(|prefix| {
        rest.strip_prefix(prefix)
            .is_some_and(|after| after.is_empty() || after.starts_with('/'))
    })
}

/// The 403 naming what the caller must accept.
fn acceptance_required(pending: &[(String, i64)]) -> Problem {
    let list = pending
        .iter()
        .map(|(kind, version)| format!("{kind} version {version}"))
        .collect::<Vec<_>>()
        .join(", ");
    Problem::new(
        StatusCode::FORBIDDEN,
        ACCEPTANCE_REQUIRED,
        "Legal acceptance required",
    )
    .with_detail(format!(
        "Accept the current version of these documents first (POST {}/legal/acceptances): {list}.",
        kernel::API_PREFIX
    ))
}

#[cfg(test)]
mod tests {
    use super::is_exempt;

    #[test]
    fn the_legal_and_auth_apis_and_everything_outside_the_api_are_exempt() {
        for path in [
            "/health/ready",
            "/openapi.json",
            "/docs/",
            "/api/v1",
            "/api/v1/legal",
            "/api/v1/legal/acceptances",
            "/api/v1/auth/login",
            "/api/v1/auth/me",
        ] {
            assert!(is_exempt(path), "{path}");
        }
    }

    #[test]
    fn other_api_paths_are_checked() {
        for path in [
            "/api/v1/things",
            "/api/v1/admin/users",
            "/api/v1/legalese",
            "/api/v1/authors",
            "/api/v1/auth/../things",
            "/api/v1//things",
            "/api/v1/legal/./../things",
        ] {
            assert!(!is_exempt(path), "{path}");
        }
    }
}
