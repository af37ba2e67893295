//! A request field that takes a JSON string and nothing else.
//!
//! poem-openapi's `String` also takes numbers and booleans (`{"name": 12}` becomes `"12"`), which
//! the schema it documents (`type: string`) does not allow: a client's typo would be accepted and
//! stored. Request bodies use [`StrictString`] instead, so such a request gets a 400 that names
//! the field. It also refuses the NUL character, which PostgreSQL cannot store in text (it
//! would be a 500 there and accepted on SQLite), and documents that as its pattern.
//! `#[oai(validator(...))]` works on it as on `String`; a field with a `pattern` of its own
//! replaces [`NO_NUL`], so that pattern must exclude `\x00` too.

use std::borrow::Cow;
use std::fmt;
use std::ops::Deref;

use poem_openapi::registry::{MetaSchema, MetaSchemaRef};
use poem_openapi::types::{ParseError, ParseFromJSON, ParseResult, ToJSON, Type};
use serde_json::Value;

/// The documented pattern of every [`StrictString`]: no NUL character.
pub const NO_NUL: &str = r"^[^\x00]*$";

/// A string field of a request body: only a JSON string without NUL characters parses.
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
        MetaSchemaRef::Inline(Box::new(MetaSchema {
            pattern: Some(NO_NUL.to_owned()),
            ..MetaSchema::new("string")
        }))
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
            Value::String(text) if text.contains('\0') => Err(ParseError::custom(
                "must not contain the NUL character (U+0000)",
            )),
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
