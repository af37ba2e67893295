//! Page requests and paged results, the same shape for every list operation.
//!
//! A list operation takes a [`PageRequest`] argument: it is the `page` and `perPage` query
//! parameters, declared, parsed and validated here once. poem-openapi gives one extractor one
//! parameter, so the request declares itself as one exploded form-style query object (which is
//! sent as `?page=2&perPage=50`, exactly like two parameters); the host's document writer
//! spells such an object out as its two parameters, which is what generated clients and
//! Swagger UI handle best.

use poem::{Request, RequestBody};
use poem_openapi::error::ParseParamError;
use poem_openapi::registry::{MetaParamIn, MetaSchema, MetaSchemaRef, Registry};
use poem_openapi::types::{ParseFromJSON, ParseFromParameter, ToJSON, Type};
use poem_openapi::validation::{Maximum, Minimum, Validator, ValidatorMeta};
use poem_openapi::{ApiExtractor, ApiExtractorType, ExtractParamOptions, Object};
use serde::Deserialize;

/// Which page of a list to return. Pages are numbered from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct PageRequest {
    pub page: u32,
    pub per_page: u32,
}

impl PageRequest {
    /// The largest page size a client may ask for.
    pub const MAX_PER_PAGE: u32 = 100;
    pub const DEFAULT_PER_PAGE: u32 = 20;

    /// Builds a request from optional query values, clamping them to sane bounds.
    pub fn new(page: Option<u32>, per_page: Option<u32>) -> Self {
        Self {
            page: page.unwrap_or(1).max(1),
            per_page: per_page
                .unwrap_or(Self::DEFAULT_PER_PAGE)
                .clamp(1, Self::MAX_PER_PAGE),
        }
    }

    /// Rows to skip.
    pub fn offset(&self) -> i64 {
        i64::from(self.page - 1) * i64::from(self.per_page)
    }

    /// Rows to return.
    pub fn limit(&self) -> i64 {
        i64::from(self.per_page)
    }
}

/// One of the two query parameters a [`PageRequest`] is read from.
struct PagingParameter {
    name: &'static str,
    description: &'static str,
    maximum: u32,
}

const PAGE: PagingParameter = PagingParameter {
    name: "page",
    description: "Page number, from 1.",
    maximum: u32::MAX,
};

const PER_PAGE: PagingParameter = PagingParameter {
    name: "perPage",
    description: "Items per page, 1 to 100 (default 20).",
    maximum: PageRequest::MAX_PER_PAGE,
};

impl PagingParameter {
    fn minimum(&self) -> Minimum {
        Minimum::new(1.0, false)
    }

    fn maximum(&self) -> Maximum {
        Maximum::new(f64::from(self.maximum), false)
    }

    fn schema(&self) -> MetaSchemaRef {
        let mut schema = match u32::schema_ref() {
            MetaSchemaRef::Inline(schema) => *schema,
            MetaSchemaRef::Reference(_) => unreachable!("u32 is an inline schema"),
        };
        self.minimum().update_meta(&mut schema);
        self.maximum().update_meta(&mut schema);
        schema.description = Some(self.description);
        MetaSchemaRef::Inline(Box::new(schema))
    }

    /// The parameter's value, if given; refused with poem-openapi's own words for a query
    /// parameter it would parse, so every list answers a bad page as every other operation
    /// answers a bad parameter.
    fn read(&self, query: &[(String, String)]) -> Result<Option<u32>, ParseParamError> {
        let values = query
            .iter()
            .filter(|(name, _)| name == self.name)
            .map(|(_, value)| value.as_str());
        let value =
            Option::<u32>::parse_from_parameters(values).map_err(|error| ParseParamError {
                name: self.name,
                reason: error.into_message(),
            })?;
        if let Some(value) = value {
            let minimum = self.minimum();
            let maximum = self.maximum();
            let refused_by = if !minimum.check(&value) {
                Some(minimum.to_string())
            } else if !maximum.check(&value) {
                Some(maximum.to_string())
            } else {
                None
            };
            if let Some(validator) = refused_by {
                return Err(ParseParamError {
                    name: self.name,
                    reason: format!("verification failed. {validator}"),
                });
            }
        }
        Ok(value)
    }
}

impl<'a> ApiExtractor<'a> for PageRequest {
    const TYPES: &'static [ApiExtractorType] = &[ApiExtractorType::Parameter];

    type ParamType = PageRequest;
    type ParamRawType = ();

    fn param_in() -> Option<MetaParamIn> {
        Some(MetaParamIn::Query)
    }

    /// An object with one property per parameter, each with its own validation and text.
    fn param_schema_ref() -> Option<MetaSchemaRef> {
        Some(MetaSchemaRef::Inline(Box::new(MetaSchema {
            properties: vec![
                (PAGE.name, PAGE.schema()),
                (PER_PAGE.name, PER_PAGE.schema()),
            ],
            ..MetaSchema::new("object")
        })))
    }

    fn register(_registry: &mut Registry) {}

    async fn from_request(
        request: &'a Request,
        _body: &mut RequestBody,
        _options: ExtractParamOptions<Self::ParamType>,
    ) -> poem::Result<Self> {
        // poem-openapi keeps its own parse of the query private; this one is the same
        // (serde_urlencoded through poem), read only by list operations.
        let query: Vec<(String, String)> = request.params().unwrap_or_default();
        let page = PAGE.read(&query)?;
        let per_page = PER_PAGE.read(&query)?;
        Ok(Self::new(page, per_page))
    }
}

/// One page of a list.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct Page<T: ParseFromJSON + ToJSON> {
    /// The items on this page.
    pub items: Vec<T>,
    /// The page number, from 1.
    pub page: u32,
    /// The page size asked for.
    pub per_page: u32,
    /// How many items the whole list holds.
    pub total: u64,
}

impl<T: ParseFromJSON + ToJSON> Page<T> {
    pub fn new(items: Vec<T>, request: PageRequest, total: u64) -> Self {
        Self {
            items,
            page: request.page,
            per_page: request.per_page,
            total,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use poem::test::TestClient;
    use poem_openapi::OpenApi;
    use poem_openapi::param::Query;
    use poem_openapi::payload::PlainText;

    struct Lists;

    #[OpenApi]
    impl Lists {
        /// The two parameters as poem-openapi declares them one by one.
        #[oai(path = "/declared-one-by-one", method = "get")]
        async fn declared_one_by_one(
            &self,
            #[oai(validator(minimum(value = "1"), maximum(value = "4294967295")))] page: Query<
                Option<u32>,
            >,
            #[oai(
                name = "perPage",
                validator(minimum(value = "1"), maximum(value = "100"))
            )]
            per_page: Query<Option<u32>>,
        ) -> PlainText<String> {
            let paging = PageRequest::new(page.0, per_page.0);
            PlainText(format!("{} {}", paging.page, paging.per_page))
        }

        #[oai(path = "/declared-once", method = "get")]
        async fn declared_once(&self, paging: PageRequest) -> PlainText<String> {
            PlainText(format!("{} {}", paging.page, paging.per_page))
        }
    }

    #[tokio::test]
    async fn the_extractor_answers_every_query_as_the_parameters_declared_one_by_one_do() {
        let client = TestClient::new(poem_openapi::OpenApiService::new(Lists, "t", "1"));
        let queries = [
            "",
            "page=3&perPage=7",
            "perPage=100",
            "page=4294967295",
            "page=0",
            "perPage=0",
            "perPage=101",
            "page=-1",
            "page=4294967296",
            "page=abc",
            "perPage=",
            "page=2&page=5",
            "page=0&perPage=0",
            "Page=2&PERPAGE=3",
        ];
        for query in queries {
            let mut answers = Vec::new();
            for path in ["/declared-one-by-one", "/declared-once"] {
                let response = client.get(format!("{path}?{query}")).send().await;
                let status = response.0.status();
                answers.push((status, response.0.into_body().into_string().await.unwrap()));
            }

            assert_eq!(answers[0], answers[1], "?{query}");
        }
    }

    #[test]
    fn page_request_clamps_out_of_range_values() {
        let request = PageRequest::new(Some(0), Some(10_000));
        assert_eq!(
            request,
            PageRequest {
                page: 1,
                per_page: 100
            }
        );
        assert_eq!(PageRequest::new(Some(3), Some(10)).offset(), 20);
    }
}
