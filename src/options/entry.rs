//! An entry of the options table, and the same entry with its type set
//! aside for the code that walks them all. Apart from the entries, so that
//! the table file holds the values and nothing else.

use crate::error::HexError;

/// One entry of the table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Opt<T: 'static> {
    /// The command-line flag (without `--`), or "" for fixed policy.
    pub name: &'static str,
    pub default: T,
    /// Least and greatest values accepted.
    pub min: T,
    pub max: T,
    pub help: &'static str,
}

impl<T: PartialOrd + Copy + std::fmt::Display + std::str::FromStr> Opt<T> {
    /// `text` as a value of this option, or a one-line error naming it.
    ///
    /// # Errors
    ///
    /// `HexError::Usage` when `text` is not a number, or lies outside `min..=max`.
    pub fn parse(&self, text: &str) -> Result<T, HexError> {
        let value: T = text.trim().parse().map_err(|_| HexError::Usage(format!("`{text}` is not a number")))?;
        if value < self.min || value > self.max {
            return Err(HexError::Usage(format!("{} must lie in {}..={}", self.shown_name(), self.min, self.max)));
        }
        Ok(value)
    }

    fn shown_name(&self) -> String {
        if self.name.is_empty() {
            "the value".into()
        } else {
            format!("--{}", self.name)
        }
    }
}

/// One entry of the table with its type set aside, for the code that walks
/// every entry (the tests of tests/options.rs).
pub trait OptionEntry: std::fmt::Debug + Sync {
    /// The flag (without `--`), or "" for fixed policy.
    fn name(&self) -> &'static str;
    fn help(&self) -> &'static str;
    /// The default as `--help` shows it.
    fn default_text(&self) -> String;
    /// Whether `min <= default <= max`.
    fn default_in_range(&self) -> bool;
}

impl<T> OptionEntry for Opt<T>
where
    T: PartialOrd + std::fmt::Display + std::fmt::Debug + Sync + 'static,
{
    fn name(&self) -> &'static str {
        self.name
    }

    fn help(&self) -> &'static str {
        self.help
    }

    fn default_text(&self) -> String {
        self.default.to_string()
    }

    fn default_in_range(&self) -> bool {
        self.min <= self.default && self.default <= self.max
    }
}
