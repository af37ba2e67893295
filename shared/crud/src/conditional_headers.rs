//! `If-Match` and `If-None-Match` as operation parameters: an operation that takes them
//! documents them in the OpenAPI document (with the syntax a client must use), and gets every
//! line of the header parsed as one list (RFC 9110 §5.3), which poem-openapi's `Header<String>`
//! would cut to the first line.
//!
//! ```ignore
//! async fn update(
//!     &self,
//!     /// The `ETag` of the version this change is based on.
//!     #[oai(name = "If-Match")] if_match: IfMatch,
//! ) -> AppResult<...> {
//!     let preconditions = Preconditions::for_write(if_match, self.settings.require_if_match)?;
//! ```

use poem::http::{HeaderMap, HeaderName, header};
use poem::{Request, RequestBody};
use poem_openapi::registry::{MetaParamIn, MetaSchema, MetaSchemaRef};
use poem_openapi::{ApiExtractor, ApiExtractorType, ExtractParamOptions};

use crate::entity_tag::Condition;

/// A list of entity tags (which may be empty), or `*`, as RFC 9110 §13.1.1 writes it.
const CONDITION_PATTERN: &str = r#"^(\*|((W/)?"[!#-~]*"(, ?(W/)?"[!#-~]*")*)?)$"#;

/// The `If-Match` of a request: write only if the resource is still this version.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IfMatch(pub(crate) Option<Condition>);

/// The `If-None-Match` of a request: answer 304 Not Modified while the resource is this version.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IfNoneMatch(pub(crate) Option<Condition>);

impl IfMatch {
    /// Every `If-Match` line of `headers`; 400 when one is malformed.
    pub fn from_headers(headers: &HeaderMap) -> kernel::AppResult<Self> {
        Condition::parse(headers, header::IF_MATCH).map(Self)
    }

    /// Whether the request has one.
    pub fn is_present(&self) -> bool {
        self.0.is_some()
    }
}

impl IfNoneMatch {
    /// Every `If-None-Match` line of `headers`; 400 when one is malformed.
    pub fn from_headers(headers: &HeaderMap) -> kernel::AppResult<Self> {
        Condition::parse(headers, header::IF_NONE_MATCH).map(Self)
    }
}

fn condition_schema() -> MetaSchemaRef {
    MetaSchemaRef::Inline(Box::new(MetaSchema {
        pattern: Some(CONDITION_PATTERN.to_owned()),
        example: Some("\"v1\"".into()),
        ..MetaSchema::new("string")
    }))
}

/// The document names the parameter after the argument; reading another header than the one
/// documented would be a lie, so a misnamed argument fails loudly in its first test.
fn check_documented_name(documented: &str, read: &HeaderName) {
    assert!(
        documented.eq_ignore_ascii_case(read.as_str()),
        "name the argument `#[oai(name = \"{read}\")]`, not `{documented}`"
    );
}

macro_rules! condition_extractor {
    ($type:ty, $header:expr, required: $required:expr) => {
        impl<'a> ApiExtractor<'a> for $type {
            const TYPES: &'static [ApiExtractorType] = &[ApiExtractorType::Parameter];
            const PARAM_IS_REQUIRED: bool = $required;
            type ParamType = String;
            type ParamRawType = ();

            fn param_in() -> Option<MetaParamIn> {
                Some(MetaParamIn::Header)
            }

            fn param_schema_ref() -> Option<MetaSchemaRef> {
                Some(condition_schema())
            }

            async fn from_request(
                request: &'a Request,
                _body: &mut RequestBody,
                param_opts: ExtractParamOptions<String>,
            ) -> poem::Result<Self> {
                check_documented_name(param_opts.name, &$header);
                <$type>::from_headers(request.headers()).map_err(Into::into)
            }
        }
    };
}

// Documented as required: a module requires it by default, and one that is set not to accepts
// more than the document promises, never less. The 428 for its absence comes from
// `Preconditions::for_write`, by the module's setting.
condition_extractor!(IfMatch, header::IF_MATCH, required: true);
condition_extractor!(IfNoneMatch, header::IF_NONE_MATCH, required: false);

#[cfg(test)]
mod tests {
    #[test]
    fn the_documented_syntax_is_what_the_parser_takes() {
        // Values of each form the pattern documents parse; the parser's own tests cover the rest.
        for value in [
            "*",
            "\"v1\"",
            "W/\"v1\"",
            "\"v1\", \"v2\"",
            "\"v1\",W/\"x\"",
            "\"\"",
        ] {
            let mut headers = poem::http::HeaderMap::new();
            headers.insert(
                poem::http::header::IF_MATCH,
                poem::http::HeaderValue::from_str(value).unwrap(),
            );
            assert!(
                super::IfMatch::from_headers(&headers).is_ok(),
                "{value} parses"
            );
        }
    }
}
