//! The one rule for the names the tasks take (a service's slug, a module's name, a field's
//! name): lower-case words of letters and digits, each starting with a letter, joined by single
//! separators, up to 50 characters. Each is then used where such a name must be valid: a URL, a
//! crate, a settings section, a Rust identifier, an SQL column.

/// The longest name.
const MAX_LENGTH: usize = 50;

/// Whether `name` is lower-case words joined by single `separator`s (`acme-orders`,
/// `unit_price`).
pub fn is_lower_words(name: &str, separator: char) -> bool {
    name.len() <= MAX_LENGTH
        && name.split(separator).all(|word| {
            word.starts_with(|c: char| c.is_ascii_lowercase())
                && word
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

/// The rule, said for an error message.
pub fn rule(separator: char) -> String {
    format!(
        "lower-case words of letters and digits, each starting with a letter, joined by single \
         `{separator}`, up to {MAX_LENGTH} characters"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_of_letters_and_digits_joined_by_single_separators_are_names() {
        for name in ["orders", "acme", "unit2", "purchase_orders", "a_b2_c"] {
            assert!(is_lower_words(name, '_'), "{name}");
        }
        assert!(is_lower_words("acme-orders", '-'));
        assert!(is_lower_words(&"a".repeat(50), '_'));
    }

    #[test]
    fn anything_else_is_not_a_name() {
        for name in [
            "",
            "Orders",
            "2orders",
            "orders_",
            "_orders",
            "a__b",
            "a_2b",
            "a-b",
            "ördersß",
        ] {
            assert!(!is_lower_words(name, '_'), "{name}");
        }
        assert!(!is_lower_words("acme_orders", '-'));
        assert!(!is_lower_words(&"a".repeat(51), '_'));
    }
}
