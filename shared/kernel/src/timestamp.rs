//! [`Timestamp`]: a moment, written one way across the whole API.
//!
//! Every time the API sends is RFC 3339 in UTC with exactly three fraction digits
//! (`2026-12-06T04:30:59.120Z`): the stores keep milliseconds, and a fixed width sorts as text
//! and parses with any RFC 3339 parser. A time a client sends may use any RFC 3339 offset and
//! precision; it is kept to the millisecond, in UTC.

use std::borrow::Cow;
use std::fmt;

use poem_openapi::registry::{MetaSchema, MetaSchemaRef};
use poem_openapi::types::{
    ParseError, ParseFromJSON, ParseFromParameter, ParseResult, ToJSON, Type,
};
use serde_json::Value;
use time::format_description::well_known::Rfc3339;
use time::{Duration, OffsetDateTime, UtcOffset};

/// A moment, to the millisecond, in UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(OffsetDateTime);

impl Timestamp {
    /// The earliest moment RFC 3339 can write: 0000-01-01T00:00:00.000Z.
    pub const MIN_UNIX_MS: i64 = -62_167_219_200_000;
    /// The latest: 9999-12-31T23:59:59.999Z.
    pub const MAX_UNIX_MS: i64 = 253_402_300_799_999;

    /// The moment `unix_ms` milliseconds after the Unix epoch, held within the years RFC 3339
    /// can write (0000 to 9999): the stores only hold times the service took, so a value
    /// outside them is never met, and holding it keeps every reader infallible.
    pub fn from_unix_ms(unix_ms: i64) -> Self {
        let unix_ms = unix_ms.clamp(Self::MIN_UNIX_MS, Self::MAX_UNIX_MS);
        Self(OffsetDateTime::UNIX_EPOCH + Duration::milliseconds(unix_ms))
    }

    /// Now, to the millisecond.
    pub fn now() -> Self {
        Self::from_date_time(OffsetDateTime::now_utc())
    }

    /// `at` in UTC, to the millisecond (later digits dropped), within the years 0000 to 9999.
    pub fn from_date_time(at: OffsetDateTime) -> Self {
        let unix_ms = at.unix_timestamp_nanos().div_euclid(1_000_000);
        Self::from_unix_ms(i64::try_from(unix_ms).unwrap_or(if unix_ms < 0 {
            i64::MIN
        } else {
            i64::MAX
        }))
    }

    /// Milliseconds since the Unix epoch, as the stores keep it.
    pub fn unix_ms(self) -> i64 {
        // Within the years 0000 to 9999 by construction, so it fits.
        (self.0.unix_timestamp_nanos() / 1_000_000) as i64
    }

    /// The moment as the `time` crate's value, for arithmetic.
    pub fn date_time(self) -> OffsetDateTime {
        self.0
    }

    /// Parses any RFC 3339 time.
    pub fn parse(text: &str) -> Result<Self, time::error::Parse> {
        OffsetDateTime::parse(text, &Rfc3339).map(Self::from_date_time)
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Written by hand: `time`'s RFC 3339 writer drops trailing zero fraction digits.
        let at = self.0.to_offset(UtcOffset::UTC);
        write!(
            f,
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
            at.year(),
            u8::from(at.month()),
            at.day(),
            at.hour(),
            at.minute(),
            at.second(),
            at.millisecond()
        )
    }
}

impl From<Timestamp> for OffsetDateTime {
    fn from(at: Timestamp) -> Self {
        at.0
    }
}

impl Type for Timestamp {
    const IS_REQUIRED: bool = true;
    type RawValueType = Self;
    type RawElementValueType = Self;

    fn name() -> Cow<'static, str> {
        "string(date-time)".into()
    }

    fn schema_ref() -> MetaSchemaRef {
        MetaSchemaRef::Inline(Box::new(MetaSchema {
            example: Some(Value::String("2026-12-06T04:30:59.120Z".to_owned())),
            ..MetaSchema::new_with_format("string", "date-time")
        }))
    }

    fn as_raw_value(&self) -> Option<&Self::RawValueType> {
        Some(self)
    }

    fn raw_element_iter<'a>(
        &'a self,
    ) -> Box<dyn Iterator<Item = &'a Self::RawElementValueType> + 'a> {
        Box::new(self.as_raw_value().into_iter())
    }
}

impl ParseFromJSON for Timestamp {
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        match value.unwrap_or_default() {
            Value::String(text) => Self::parse_from_parameter(&text),
            other => Err(ParseError::expected_type(other)),
        }
    }
}

impl ParseFromParameter for Timestamp {
    fn parse_from_parameter(text: &str) -> ParseResult<Self> {
        Self::parse(text).map_err(|_| {
            ParseError::custom("not an RFC 3339 time, such as 2026-12-06T04:30:59.120Z")
        })
    }
}

impl ToJSON for Timestamp {
    fn to_json(&self) -> Option<Value> {
        Some(Value::String(self.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_written_with_three_fraction_digits_in_utc() {
        assert_eq!(
            Timestamp::from_unix_ms(1_765_000_000_000).to_string(),
            "2025-12-06T05:46:40.000Z"
        );
        assert_eq!(
            Timestamp::from_unix_ms(1_765_000_000_120).to_string(),
            "2025-12-06T05:46:40.120Z"
        );
        assert_eq!(
            Timestamp::from_unix_ms(-1).to_string(),
            "1969-12-31T23:59:59.999Z"
        );
    }

    #[test]
    fn reads_any_offset_and_precision_and_keeps_milliseconds_in_utc() {
        let read = Timestamp::parse("2025-12-06T07:46:40.1209+02:00").unwrap();
        assert_eq!(read.to_string(), "2025-12-06T05:46:40.120Z");
        assert_eq!(read.unix_ms(), 1_765_000_000_120);
    }

    #[test]
    fn holds_the_years_rfc_3339_can_write() {
        assert_eq!(
            Timestamp::from_unix_ms(i64::MAX).to_string(),
            "9999-12-31T23:59:59.999Z"
        );
        assert_eq!(
            Timestamp::from_unix_ms(i64::MIN).to_string(),
            "0000-01-01T00:00:00.000Z"
        );
        assert_eq!(
            Timestamp::from_unix_ms(i64::MAX).unix_ms(),
            Timestamp::MAX_UNIX_MS
        );
    }

    #[test]
    fn is_refused_unless_rfc_3339() {
        let refused = Timestamp::parse_from_json(Some(Value::String("06/12/2026".into())));
        assert!(refused.is_err());
        assert!(Timestamp::parse_from_json(Some(Value::from(1_765_000_000_000_i64))).is_err());
    }
}
