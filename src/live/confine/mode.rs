//! [`Confinement`] from its name, as an operator writes it on a command
//! line (`--confine=required`).

use std::fmt;
use std::str::FromStr;

use super::Confinement;

impl Confinement {
    /// The name [`FromStr`] reads: `best-effort` or `required`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::BestEffort => "best-effort",
            Self::Required => "required",
        }
    }
}

impl FromStr for Confinement {
    type Err = ParseConfinementError;

    /// `best-effort` or `required`, exactly (no other spelling or case).
    ///
    /// # Errors
    ///
    /// Any other text, as [`ParseConfinementError`].
    fn from_str(given: &str) -> Result<Self, Self::Err> {
        match given {
            "best-effort" => Ok(Self::BestEffort),
            "required" => Ok(Self::Required),
            _ => Err(ParseConfinementError {
                given: given.to_owned(),
            }),
        }
    }
}

/// A text that names no [`Confinement`]; its message says which names do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseConfinementError {
    given: String,
}

impl ParseConfinementError {
    /// The text as given.
    pub fn given(&self) -> &str {
        &self.given
    }
}

impl fmt::Display for ParseConfinementError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A command-line parser names the value beside this message.
        f.write_str("best-effort (the default) or required")
    }
}

impl std::error::Error for ParseConfinementError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_to_their_mode_and_back() {
        for mode in [Confinement::BestEffort, Confinement::Required] {
            assert_eq!(mode.as_str().parse::<Confinement>(), Ok(mode));
        }
        for bad in [
            "",
            "Required",
            "best_effort",
            " required",
            "required ",
            "yes",
        ] {
            let err = bad.parse::<Confinement>().unwrap_err();
            assert_eq!(err.given(), bad);
            assert!(err.to_string().contains("required"), "{bad:?}");
        }
    }
}
