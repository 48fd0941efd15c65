//! The string formats a form schema may name (`email`, `uri`, `date`,
//! `date-time`, the ones MCP allows), checked in accepted answers. Each is
//! a small parser for the grammar the format names, with no I/O:
//!
//! - `date`: RFC 3339 `full-date`, `YYYY-MM-DD`, a day that exists (leap
//!   years included).
//! - `date-time`: RFC 3339 `date-time`: a `date`, `T`, `HH:MM:SS` with an
//!   optional fraction, and `Z` or `±HH:MM` (`t` and `z` in lower case too,
//!   as RFC 3339 allows; second 60 for a leap second).
//! - `uri`: an absolute RFC 3986 URI: a scheme, `:`, and only characters
//!   RFC 3986 allows, `%` followed by two hex digits; the `url` crate must
//!   also parse it (so a host and port are well formed).
//! - `email`: an RFC 5321 mailbox without quoted local parts or comments: a
//!   dot-atom local part of at most 64 octets, `@`, and a domain of
//!   letters, digits and hyphens (labels of at most 63, at most 253 in
//!   all) or an address literal (`[192.0.2.1]`, `[IPv6:…]`). Internationalised
//!   addresses (`idn-email`) are not `email` and are refused.
//!
//! A format this module does not know is refused too, rather than passed
//! unchecked.

use std::net::{Ipv4Addr, Ipv6Addr};

/// Checks `text` against `format`.
///
/// # Errors
///
/// A sentence: what is wrong, or that the format cannot be checked.
pub(crate) fn check(format: &str, text: &str) -> Result<(), String> {
    let ok = match format {
        "date" => date(text),
        "date-time" => date_time(text),
        "uri" => uri(text),
        "email" => email(text),
        other => return Err(format!("the format {other:?} cannot be checked")),
    };
    if ok {
        Ok(())
    } else {
        Err(format!("not a valid {format}"))
    }
}

/// `digits` ASCII digits at the start of `text`, as a number, and the rest.
fn number(text: &str, digits: usize) -> Option<(u32, &str)> {
    let head = text.get(..digits)?;
    if !head.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((head.parse().ok()?, &text[digits..]))
}

/// `text` starts with `c`; the rest.
fn expect(text: &str, c: char) -> Option<&str> {
    text.strip_prefix(c)
}

fn date(text: &str) -> bool {
    full_date(text) == Some("")
}

/// An RFC 3339 `full-date` at the start of `text`; the rest.
fn full_date(text: &str) -> Option<&str> {
    let (year, rest) = number(text, 4)?;
    let (month, rest) = number(expect(rest, '-')?, 2)?;
    let (day, rest) = number(expect(rest, '-')?, 2)?;
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    (1..=days).contains(&day).then_some(rest)
}

fn date_time(text: &str) -> bool {
    let Some(rest) = full_date(text) else {
        return false;
    };
    let Some(rest) = rest.strip_prefix(['T', 't']) else {
        return false;
    };
    let time = || {
        let (hour, rest) = number(rest, 2)?;
        let (minute, rest) = number(expect(rest, ':')?, 2)?;
        let (second, mut rest) = number(expect(rest, ':')?, 2)?;
        if hour > 23 || minute > 59 || second > 60 {
            return None;
        }
        if let Some(fraction) = rest.strip_prefix('.') {
            let digits = fraction.bytes().take_while(u8::is_ascii_digit).count();
            if digits == 0 {
                return None;
            }
            rest = &fraction[digits..];
        }
        if rest == "Z" || rest == "z" {
            return Some(());
        }
        let offset = rest.strip_prefix(['+', '-'])?;
        let (hours, offset) = number(offset, 2)?;
        let (minutes, offset) = number(expect(offset, ':')?, 2)?;
        (hours <= 23 && minutes <= 59 && offset.is_empty()).then_some(())
    };
    time().is_some()
}

fn uri(text: &str) -> bool {
    let Some((scheme, _)) = text.split_once(':') else {
        return false;
    };
    let mut scheme_chars = scheme.chars();
    let scheme_ok = scheme_chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && scheme_chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    scheme_ok && uri_characters(text) && url::Url::parse(text).is_ok()
}

/// Only RFC 3986's characters (unreserved, reserved, `%`), every `%`
/// followed by two hex digits.
fn uri_characters(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'%' {
            let hex = bytes.get(i + 1..i + 3);
            if !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                return false;
            }
            i += 3;
            continue;
        }
        let allowed = b.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=".contains(&b);
        if !allowed {
            return false;
        }
        i += 1;
    }
    true
}

fn email(text: &str) -> bool {
    let Some((local, domain)) = text.rsplit_once('@') else {
        return false;
    };
    local_part(local) && (hostname(domain) || address_literal(domain))
}

/// A dot-atom of `atext`, at most 64 octets.
fn local_part(local: &str) -> bool {
    let atext = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+/=?^_`{|}~-".contains(c);
    local.len() <= 64
        && local
            .split('.')
            .all(|atom| !atom.is_empty() && atom.chars().all(atext))
}

/// Dot-separated labels of letters, digits and inner hyphens.
fn hostname(domain: &str) -> bool {
    let label = |label: &str| {
        (1..=63).contains(&label.len())
            && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            && !label.starts_with('-')
            && !label.ends_with('-')
    };
    domain.len() <= 253 && domain.split('.').all(label)
}

/// `[IPv4]` or `[IPv6:…]`.
fn address_literal(domain: &str) -> bool {
    let Some(inner) = domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) else {
        return false;
    };
    match inner.strip_prefix("IPv6:") {
        Some(v6) => v6.parse::<Ipv6Addr>().is_ok(),
        None => inner.parse::<Ipv4Addr>().is_ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn formats_accept_their_grammar_and_refuse_the_rest() {
        let table: &[(&str, &[&str], &[&str])] = &[
            (
                "date",
                &["2026-12-01", "2024-02-29", "2000-02-29", "1999-12-31"],
                &[
                    "2026-13-01",
                    "2026-02-29",
                    "1900-02-29",
                    "2026-04-31",
                    "2026-00-10",
                    "2026-1-01",
                    "26-12-01",
                    "2026-12-01T00:00:00Z",
                    "2026/12/01",
                    "",
                    "２０２６-12-01",
                ],
            ),
            (
                "date-time",
                &[
                    "2026-12-01T15:06:06Z",
                    "2026-12-01t15:06:06z",
                    "2026-12-01T15:06:06.123+01:00",
                    "2026-12-31T23:59:60-08:00",
                ],
                &[
                    "2026-12-01",
                    "2026-12-01T15:06Z",
                    "2026-12-01T24:00:00Z",
                    "2026-12-01T15:60:00Z",
                    "2026-12-01T15:06:06",
                    "2026-12-01 15:06:06Z",
                    "2026-12-01T15:06:06.Z",
                    "2026-12-01T15:06:06+0100",
                    "2026-12-01T15:06:06+24:00",
                    "2026-02-30T00:00:00Z",
                ],
            ),
            (
                "uri",
                &[
                    "https://example.com/a?b=c#d",
                    "mailto:alice@example.com",
                    "urn:isbn:0451450523",
                    "file:///home/alice/Notes",
                    "http://[::1]:8080/",
                    "https://example.com/%E2%82%AC",
                ],
                &[
                    "example.com/a",
                    "/relative/path",
                    "1http://x",
                    "https://exa mple.com",
                    "https://example.com/a b",
                    "https://example.com/%zz",
                    "https://example.com/€",
                    "http://example.com:99999/",
                    "",
                    ":no-scheme",
                ],
            ),
            (
                "email",
                &[
                    "alice@example.com",
                    "a.b+tag@sub.example.org",
                    "x@localhost",
                    "o'brien@example.ie",
                    "root@[192.0.2.1]",
                    "root@[IPv6:2001:db8::1]",
                ],
                &[
                    "alice",
                    "@example.com",
                    "alice@",
                    "a..b@example.com",
                    ".a@example.com",
                    "a.@example.com",
                    "alice@exa_mple.com",
                    "alice@-example.com",
                    "alice@example..com",
                    "al ice@example.com",
                    "\"quoted\"@example.com",
                    "élise@example.com",
                    "alice@[300.1.1.1]",
                    "alice@example.com\n",
                ],
            ),
        ];
        for (format, good, bad) in table {
            for text in *good {
                assert_eq!(check(format, text), Ok(()), "{format}: {text:?}");
            }
            for text in *bad {
                let err = check(format, text).expect_err(&format!("{format}: {text:?}"));
                assert_eq!(err, format!("not a valid {format}"));
            }
        }
        let long_local = format!("{}@example.com", "a".repeat(65));
        assert!(check("email", &long_local).is_err());
        let long_label = format!("a@{}.com", "b".repeat(64));
        assert!(check("email", &long_label).is_err());
    }

    #[test]
    fn an_unknown_format_is_refused_not_passed() {
        assert_eq!(
            check("hostname", "example.com"),
            Err("the format \"hostname\" cannot be checked".to_owned())
        );
    }
}
