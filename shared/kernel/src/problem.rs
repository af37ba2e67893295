//! RFC 9457 problem details: the body of every error response this service sends.

use poem::http::{HeaderValue, StatusCode, header};
use poem::{IntoResponse, Response};
use poem_openapi::Object;
use serde::{Deserialize, Serialize};

use crate::context::RequestContext;

/// The media type of every error response.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// The detail of every 500: nothing of what went wrong, only how to report it.
pub const SERVER_ERROR_DETAIL: &str =
    "The service could not complete the request. Quote the request id when reporting it.";

/// A problem detail (RFC 9457): what went wrong, in a shape clients can rely on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Object)]
#[serde(rename_all = "camelCase")]
#[oai(rename_all = "camelCase")]
pub struct Problem {
    /// A URI reference identifying the problem type; `about:blank` when the status says it all.
    #[oai(rename = "type")]
    #[serde(rename = "type")]
    pub problem_type: String,
    /// A short, human-readable summary of the problem type.
    pub title: String,
    /// The HTTP status code.
    pub status: u16,
    /// An explanation specific to this occurrence.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[oai(skip_serializing_if_is_none)]
    pub detail: Option<String>,
    /// The request path this occurrence happened on.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[oai(skip_serializing_if_is_none)]
    pub instance: Option<String>,
    /// The `X-Request-Id` of the request, to quote when reporting the problem.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[oai(skip_serializing_if_is_none)]
    pub request_id: Option<String>,
    /// The request field the problem is about, when it is about one (e.g. the field whose value
    /// another entity already has).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[oai(skip_serializing_if_is_none)]
    pub field: Option<String>,
}

impl Problem {
    /// A problem of the generic type for `status`, titled with its reason phrase.
    pub fn from_status(status: StatusCode) -> Self {
        Self::new(
            status,
            "about:blank",
            status.canonical_reason().unwrap_or("Error"),
        )
    }

    /// A problem of a specific type.
    pub fn new(status: StatusCode, problem_type: &str, title: &str) -> Self {
        let context = RequestContext::current();
        Self {
            problem_type: problem_type.to_owned(),
            title: title.to_owned(),
            status: status.as_u16(),
            detail: None,
            instance: context.as_ref().map(|c| c.path().to_owned()),
            request_id: context.map(|c| c.request_id().to_owned()),
            field: None,
        }
    }

    /// Adds the occurrence-specific explanation.
    pub fn with_detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = Some(detail.into());
        self
    }

    /// Names the request field the problem is about.
    pub fn with_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    /// The HTTP status of this problem.
    pub fn status_code(&self) -> StatusCode {
        StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }
}

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        let body = serde_json::to_vec(&self).unwrap_or_default();
        Response::builder()
            .status(self.status_code())
            .header(header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON))
            .body(body)
    }
}
