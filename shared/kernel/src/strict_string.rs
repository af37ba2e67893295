//! A request field that takes a JSON string and nothing else.
//!
//! poem-openapi's `String` also takes numbers and booleans (`{"name": 12}` becomes `"12"`), which
//! the schema it documents (`type: string`) does not allow: a client's typo would be accepted and
//! stored. Request bodies use [`StrictString`] instead, so such a request gets a 400 that names
//! the field. It is documented and validated exactly like `String` (`#[oai(validator(...))]`
//! works on it).

use std::borrow::Cow;
use std::fmt;
use std::ops::Deref;

use poem_openapi::registry::MetaSchemaRef;
use poem_openapi::types::{ParseError, ParseFromJSON, ParseResult, ToJSON, Type};
use serde_json::Value;

/// A string field of a request body: only a JSON string parses.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct StrictString(String);

impl StrictString {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

impl Deref for StrictString {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl From<&str> for StrictString {
    fn from(text: &str) -> Self {
        Self(text.to_owned())
    }
}

impl From<String> for StrictString {
    fn from(text: String) -> Self {
        Self(text)
    }
}

/// Request fields may hold secrets (passwords, tokens): never printed.
impl fmt::Debug for StrictString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("StrictString(..)")
    }
}

impl Type for StrictString {
    const IS_REQUIRED: bool = true;
    type RawValueType = String;
    type RawElementValueType = String;

    fn name() -> Cow<'static, str> {
        String::name()
    }

    fn schema_ref() -> MetaSchemaRef {
        String::schema_ref()
    }

    fn as_raw_value(&self) -> Option<&String> {
        Some(&self.0)
    }

    fn raw_element_iter<'a>(&'a self) -> Box<dyn Iterator<Item = &'a String> + 'a> {
        Box::new(std::iter::once(&self.0))
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl ParseFromJSON for StrictString {
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        match value.unwrap_or_default() {
            Value::String(text) => Ok(Self(text)),
            other => Err(ParseError::expected_type(other)),
        }
    }
}

impl ToJSON for StrictString {
    fn to_json(&self) -> Option<Value> {
        Some(Value::String(self.0.clone()))
    }
}

#[cfg(test)]
mod tests {
    use poem_openapi::types::ParseFromJSON;
    use serde_json::json;

    use super::StrictString;

    #[test]
    fn only_a_json_string_parses() {
        let parsed = StrictString::parse_from_json(Some(json!("name"))).unwrap();
        assert_eq!(parsed.as_str(), "name");
        for other in [
            json!(12),
            json!(false),
            json!(null),
            json!(["a"]),
            json!({}),
        ] {
            assert!(
                StrictString::parse_from_json(Some(other.clone())).is_err(),
                "{other}"
            );
        }
        assert!(StrictString::parse_from_json(None).is_err());
    }

    #[test]
    fn it_never_prints_its_text() {
        assert_eq!(
            format!("{:?}", StrictString::from("hunter2")),
            "StrictString(..)"
        );
    }
}
