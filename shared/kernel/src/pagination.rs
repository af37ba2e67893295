//! Page requests and paged results, the same shape for every list operation.

use poem_openapi::Object;
use poem_openapi::types::{ParseFromJSON, ToJSON};
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
