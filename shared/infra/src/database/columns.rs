//! How a value the API shows is kept in a column both engines share, for rows read with
//! `#[derive(sqlx::FromRow)]`: a field names its stored form with `#[sqlx(try_from = "...")]`.
//!
//! ```ignore
//! #[derive(sqlx::FromRow)]
//! pub struct Thing {
//!     #[sqlx(rename = "created_at_ms", try_from = "UnixMs")]
//!     pub created_at: Timestamp,
//! }
//! ```

use kernel::Timestamp;
use sqlx::decode::Decode;
use sqlx::error::BoxDynError;
use sqlx::{Database, Type, ValueRef};

/// A time kept as Unix milliseconds in a `BIGINT` column (`created_at_ms`); read as a
/// [`Timestamp`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnixMs(pub i64);

/// A nullable [`UnixMs`] column, read as an `Option<Timestamp>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptionalUnixMs(pub Option<i64>);

/// A nullable `BOOLEAN` column read through `CAST(<column> AS INTEGER)`, as an `Option<bool>`:
/// SQLite keeps 0 or 1, and sqlx's `Any` driver refuses a column SQLite declares `BOOLEAN`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptionalFlag(pub Option<i64>);

impl From<UnixMs> for Timestamp {
    fn from(stored: UnixMs) -> Self {
        Timestamp::from_unix_ms(stored.0)
    }
}

impl From<OptionalUnixMs> for Option<Timestamp> {
    fn from(stored: OptionalUnixMs) -> Self {
        stored.0.map(Timestamp::from_unix_ms)
    }
}

impl From<OptionalFlag> for Option<bool> {
    fn from(stored: OptionalFlag) -> Self {
        stored.0.map(|flag| flag != 0)
    }
}

/// Each is read as the `i64` it holds; the nullable ones take a NULL as `None` themselves,
/// because `try_from` reads the column as the stored type, not as an `Option` of it.
macro_rules! read_as_i64 {
    ($stored:ident, nullable: $nullable:literal) => {
        impl<DB: Database> Type<DB> for $stored
        where
            i64: Type<DB>,
        {
            fn type_info() -> DB::TypeInfo {
                <i64 as Type<DB>>::type_info()
            }

            fn compatible(ty: &DB::TypeInfo) -> bool {
                <i64 as Type<DB>>::compatible(ty)
            }
        }

        impl<'r, DB: Database> Decode<'r, DB> for $stored
        where
            i64: Decode<'r, DB>,
        {
            fn decode(value: DB::ValueRef<'r>) -> Result<Self, BoxDynError> {
                if $nullable && value.is_null() {
                    return Ok(Self(Default::default()));
                }
                Ok(Self(<i64 as Decode<DB>>::decode(value)?.into()))
            }
        }
    };
}

read_as_i64!(UnixMs, nullable: false);
read_as_i64!(OptionalUnixMs, nullable: true);
read_as_i64!(OptionalFlag, nullable: true);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_milliseconds_read_back_as_the_instant_they_name() {
        let before_1970 = Timestamp::from(UnixMs(-1));

        assert_eq!(before_1970.unix_ms(), -1);
        assert_eq!(
            Option::<Timestamp>::from(OptionalUnixMs(Some(1_700_000_000_123)))
                .map(Timestamp::unix_ms),
            Some(1_700_000_000_123)
        );
        assert_eq!(Option::<Timestamp>::from(OptionalUnixMs(None)), None);
    }

    #[test]
    fn a_stored_flag_is_true_unless_zero() {
        assert_eq!(Option::<bool>::from(OptionalFlag(Some(1))), Some(true));
        assert_eq!(Option::<bool>::from(OptionalFlag(Some(0))), Some(false));
        assert_eq!(Option::<bool>::from(OptionalFlag(None)), None);
    }
}
