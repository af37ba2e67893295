//! Sorting a list: `sort=name` (ascending) or `sort=-name` (descending), over the fields an
//! entity lets clients sort by, documented as the enum of every accepted value.

use std::borrow::Cow;
use std::fmt;

use poem_openapi::registry::{MetaSchema, MetaSchemaRef};
use poem_openapi::types::{ParseError, ParseFromParameter, ParseResult, ToJSON, Type};
use serde_json::Value;

/// A field clients may sort a list by.
pub trait SortField: Copy + Eq + Send + Sync + 'static {
    /// Every sortable field, by its name in the API; the first is the default order.
    const FIELDS: &'static [(&'static str, Self)];

    /// The column it is stored in: SQL text, so only ever a constant.
    fn column(self) -> &'static str;
}

/// The order of a list: a field, ascending or descending.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sort<F> {
    pub field: F,
    pub descending: bool,
}

impl<F: SortField> Default for Sort<F> {
    /// The first field, ascending.
    fn default() -> Self {
        Self {
            field: F::FIELDS[0].1,
            descending: false,
        }
    }
}

impl<F: SortField> Sort<F> {
    /// The `ORDER BY` terms: the field's column, then `tie_breaker` (a unique column, so pages
    /// never overlap or skip), both in the sort's direction. Built only from [`SortField::column`]
    /// constants, never from request text.
    pub fn order_by(&self, tie_breaker: &'static str) -> String {
        let direction = if self.descending { " DESC" } else { "" };
        format!(
            "{}{direction}, {tie_breaker}{direction}",
            self.field.column()
        )
    }

    fn api_name(&self) -> &'static str {
        F::FIELDS
            .iter()
            .find(|(_, field)| *field == self.field)
            .map(|(name, _)| *name)
            .unwrap_or_default()
    }

    /// Every accepted value: each field, then each field after `-`.
    fn accepted() -> impl Iterator<Item = String> {
        let ascending = F::FIELDS.iter().map(|(name, _)| (*name).to_owned());
        let descending = F::FIELDS.iter().map(|(name, _)| format!("-{name}"));
        ascending.chain(descending)
    }
}

/// `name` or `-name`, as the client sends it.
impl<F: SortField> fmt::Display for Sort<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.descending {
            f.write_str("-")?;
        }
        f.write_str(self.api_name())
    }
}

impl<F: SortField> Type for Sort<F> {
    const IS_REQUIRED: bool = true;
    type RawValueType = Self;
    type RawElementValueType = Self;

    fn name() -> Cow<'static, str> {
        "string(sort)".into()
    }

    fn schema_ref() -> MetaSchemaRef {
        MetaSchemaRef::Inline(Box::new(MetaSchema {
            enum_items: Self::accepted().map(Value::String).collect(),
            ..MetaSchema::new("string")
        }))
    }

    fn as_raw_value(&self) -> Option<&Self> {
        Some(self)
    }

    fn raw_element_iter<'a>(&'a self) -> Box<dyn Iterator<Item = &'a Self> + 'a> {
        Box::new(std::iter::once(self))
    }
}

impl<F: SortField> ParseFromParameter for Sort<F> {
    fn parse_from_parameter(value: &str) -> ParseResult<Self> {
        let (descending, name) = match value.strip_prefix('-') {
            Some(name) => (true, name),
            None => (false, value),
        };
        F::FIELDS
            .iter()
            .find(|(field_name, _)| *field_name == name)
            .map(|(_, field)| Self {
                field: *field,
                descending,
            })
            .ok_or_else(|| {
                ParseError::custom(format!(
                    "`{value}` is not a sort order; use one of: {}",
                    Self::accepted().collect::<Vec<_>>().join(", ")
                ))
            })
    }
}

impl<F: SortField> ToJSON for Sort<F> {
    fn to_json(&self) -> Option<Value> {
        Some(Value::String(self.to_string()))
    }
}

/// A `LIKE` pattern (with `ESCAPE '\'`) matching text that contains `fragment`, lower-cased for
/// a case-insensitive match against `LOWER(column)`: `%` and `_` in the fragment match
/// themselves.
pub fn contains_pattern(fragment: &str) -> String {
    let escaped = fragment
        .to_lowercase()
        .replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_");
    format!("%{escaped}%")
}

#[cfg(test)]
mod tests {
    use poem_openapi::types::{ParseFromParameter, Type};

    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Field {
        CreatedAt,
        Name,
    }

    impl SortField for Field {
        const FIELDS: &'static [(&'static str, Self)] =
            &[("createdAt", Self::CreatedAt), ("name", Self::Name)];

        fn column(self) -> &'static str {
            match self {
                Self::CreatedAt => "created_at_ms",
                Self::Name => "name",
            }
        }
    }

    #[test]
    fn a_minus_sorts_descending_and_the_first_field_is_the_default() {
        let name = Sort::<Field>::parse_from_parameter("-name").unwrap();
        assert_eq!(name.order_by("id"), "name DESC, id DESC");
        assert_eq!(name.to_string(), "-name");
        assert_eq!(Sort::<Field>::default().order_by("id"), "created_at_ms, id");
    }

    #[test]
    fn an_unknown_field_is_refused_naming_the_accepted_ones() {
        let err = Sort::<Field>::parse_from_parameter("price").unwrap_err();
        assert!(
            err.message().contains("createdAt, name, -createdAt, -name"),
            "{}",
            err.message()
        );
        assert!(Sort::<Field>::parse_from_parameter("--name").is_err());
    }

    #[test]
    fn the_document_lists_every_accepted_value() {
        let MetaSchemaRef::Inline(schema) = Sort::<Field>::schema_ref() else {
            panic!("an inline schema");
        };
        assert_eq!(
            schema.enum_items,
            ["createdAt", "name", "-createdAt", "-name"].map(|v| Value::String(v.into()))
        );
    }

    #[test]
    fn like_wildcards_in_a_fragment_match_themselves() {
        assert_eq!(contains_pattern("50%_A\\"), "%50\\%\\_a\\\\%");
    }
}
