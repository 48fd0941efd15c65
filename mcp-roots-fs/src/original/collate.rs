//! Name order for `list_directory_with_sizes`: the original sorts with
//! JavaScript's `localeCompare` (ICU's root collation). This is that order
//! for ASCII names: whitespace and punctuation, then symbols, then digits,
//! then letters, case ignored first (`a` < `B`) and lowercase before
//! uppercase on a tie (`ab` < `aB` < `Ab`). Other characters follow by code
//! point (a listed difference: ICU folds accents, `e` < `é` < `f`).

use std::cmp::Ordering;

/// ICU's root order of the ASCII punctuation and symbols.
const PUNCTUATION: &str = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$";

/// The primary weight of `c`: its place ignoring case.
fn primary(c: char) -> (u8, u32) {
    if let Some(i) = PUNCTUATION.find(c) {
        (0, i as u32)
    } else if c.is_ascii_digit() {
        (1, c as u32)
    } else if c.is_ascii_alphabetic() {
        (2, c.to_ascii_lowercase() as u32)
    } else if c.is_control() {
        (0, 0)
    } else {
        (3, c as u32)
    }
}

/// `a` against `b` as `localeCompare` orders them (see the module docs).
pub(crate) fn locale_compare(a: &str, b: &str) -> Ordering {
    let primaries = a.chars().map(primary).cmp(b.chars().map(primary));
    primaries.then_with(|| {
        // Tertiary: lowercase first, position by position.
        let case = |c: char| u8::from(c.is_uppercase());
        a.chars().map(case).cmp(b.chars().map(case))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_order_of_javascripts_locale_compare() {
        // Sorted by node's `localeCompare` (ICU root).
        let want = [
            "_x", "-x", ".hidden", "10", "9", "a b", "a_b", "a-b", "a.b", "a(b", "a~", "a1", "ab",
            "aB", "Ab", "b.txt", "B.txt", "e", "f", "z", "Z",
        ];
        let mut names = want.to_vec();
        names.reverse();
        names.sort_by(|a, b| locale_compare(a, b));
        assert_eq!(names, want);
    }
}
