//! Windows paths, read the same way on every platform: pure functions, no
//! I/O, so that the Linux test suite covers them
//! ([semantics 12](crate::semantics#12-windows)).
//!
//! A Windows path is turned into its *slash form*, the form every lexical
//! layer works on: `C:\Users\a` is `/C:/Users/a` (the drive letter
//! uppercased, every `\` a `/`), and the UNC path `\\server\share\x` is
//! `/UNC/server/share/x`. A slash form never starts with a component other
//! than a drive (`X:`) or `UNC`, so the two cannot be mistaken for each
//! other. [`native`] turns a slash form back into the path Windows takes.
//!
//! Refused before anything reaches the file system: drive-relative paths
//! (`C:x`) and paths rooted without a drive (`\x`, `/x`) as `not_absolute`;
//! verbatim and device paths (`\\?\`, `\\.\`), a UNC path without a server
//! and a share, and every name Windows would read as another name or as a
//! device ([`refused_name`]) as `invalid_path` (in a URI: `invalid_uri`).

use std::borrow::Cow;

use crate::error::ErrorKind;

/// The longest path Windows takes, in UTF-16 units (the extended-length
/// limit; the standard library adds the `\\?\` prefix to long paths).
pub(crate) const PATH_MAX: usize = 32_767;
/// The longest name (one path component), in UTF-16 units.
pub(crate) const NAME_MAX: usize = 255;

/// The first component of the slash form of a UNC path.
const UNC: &str = "UNC";

/// A refusal: the reason's kind and a short detail.
type Refusal = (ErrorKind, &'static str);

fn is_separator(b: u8) -> bool {
    b == b'\\' || b == b'/'
}

/// Whether `s` starts with a drive letter and a colon (`C:`), absolute
/// (`C:\`) or not (`C:x`).
pub(crate) fn has_drive(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':'
}

/// Whether `s` starts the way a raw Windows path does: with a separator or
/// a drive letter. Everything else is a URI or a relative path.
pub(crate) fn is_raw_path(s: &str) -> bool {
    s.as_bytes().first().is_some_and(|&b| is_separator(b)) || has_drive(s)
}

/// The slash form of a raw Windows path (`C:\a\b`, `C:/a/b`, `c:\a/b`,
/// `\\server\share\x`), separators converted and nothing else rebuilt: a
/// trailing separator, `.` and `..` stay where they are.
pub(crate) fn raw_path(untrusted: &str) -> Result<String, Refusal> {
    let b = untrusted.as_bytes();
    let (mut out, rest) = if b.len() >= 2 && is_separator(b[0]) && is_separator(b[1]) {
        let after = &untrusted[2..];
        let a = after.as_bytes();
        if matches!(a.first(), Some(b'?' | b'.')) && a.get(1).is_none_or(|&c| is_separator(c)) {
            return Err((
                ErrorKind::InvalidPath,
                "a verbatim or device path (\\\\?\\, \\\\.\\)",
            ));
        }
        let (server, share, rest) = unc_parts(after).ok_or((
            ErrorKind::InvalidPath,
            "a UNC path names a server and a share",
        ))?;
        for name in [server, share] {
            if let Some(why) = refused_name(name).or(dots(name)) {
                return Err((ErrorKind::InvalidPath, why));
            }
        }
        (format!("/{UNC}/{server}/{share}"), rest)
    } else if b.first().is_some_and(|&c| is_separator(c)) {
        return Err((ErrorKind::NotAbsolute, "a path rooted without a drive"));
    } else if has_drive(untrusted) {
        if !b.get(2).is_some_and(|&c| is_separator(c)) {
            return Err((ErrorKind::NotAbsolute, "a drive-relative path"));
        }
        (drive(b[0]), &untrusted[2..])
    } else {
        return Err((ErrorKind::NotAbsolute, "relative path"));
    };
    check_names(rest).map_err(|why| (ErrorKind::InvalidPath, why))?;
    out.reserve(rest.len());
    out.extend(rest.chars().map(|c| if c == '\\' { '/' } else { c }));
    Ok(out)
}

/// `/X:` for the drive letter `letter`, uppercased.
fn drive(letter: u8) -> String {
    let mut out = String::with_capacity(3);
    out.push('/');
    out.push(char::from(letter.to_ascii_uppercase()));
    out.push(':');
    out
}

/// The server, the share and the rest (empty or starting with a separator)
/// of a UNC path after its leading `\\`: both names nonempty, one
/// separator between them.
fn unc_parts(after: &str) -> Option<(&str, &str, &str)> {
    let server_end = after.bytes().position(is_separator)?;
    let server = &after[..server_end];
    let tail = &after[server_end + 1..];
    let share_end = tail.bytes().position(is_separator).unwrap_or(tail.len());
    let share = &tail[..share_end];
    (!server.is_empty() && !share.is_empty()).then_some((server, share, &tail[share_end..]))
}

/// A server or share named `.` or `..`.
fn dots(name: &str) -> Option<&'static str> {
    matches!(name, "." | "..").then_some("a UNC server or share named '.' or '..'")
}

/// Checks every name of `rest` (separated by `\` or `/`); empty, `.` and
/// `..` components are left to the resolution.
fn check_names(rest: &str) -> Result<(), &'static str> {
    match rest.split(['\\', '/']).find_map(refused_name) {
        Some(why) => Err(why),
        None => Ok(()),
    }
}

/// Why Windows would not take `name` for itself, or `None`:
///
/// - a `:` (an alternate data stream, `x:stream`, `x::$DATA`);
/// - a character Win32 refuses in names (`<>"|?*` and C0 controls);
/// - a last character `.` or space, which Win32 strips (`x.` and `x ` are
///   other spellings of `x`);
/// - a reserved device name (`CON`, `PRN`, `AUX`, `NUL`, `COM0`–`COM9`,
///   `LPT0`–`LPT9`, `COM¹²³`, `LPT¹²³`, `CONIN$`, `CONOUT$`), in any
///   case, with or without an extension (`nul.txt`, `Con .md`).
///
/// Empty names and the dot segments `.` and `..` are not names: `None`.
pub(crate) fn refused_name(name: &str) -> Option<&'static str> {
    if matches!(name, "" | "." | "..") {
        return None;
    }
    for b in name.bytes() {
        match b {
            b':' => return Some("a ':' in a name (an alternate data stream)"),
            b'<' | b'>' | b'"' | b'|' | b'?' | b'*' | 0..0x20 => {
                return Some("a character Windows refuses in a name");
            }
            _ => {}
        }
    }
    if name.ends_with(['.', ' ']) {
        return Some("a name ending in a dot or a space (Windows strips them)");
    }
    if is_device(name) {
        return Some("a reserved device name (CON, PRN, AUX, NUL, COM1, LPT1, ...)");
    }
    None
}

/// Whether `name` is a reserved device name, with or without an extension
/// and trailing spaces before it.
fn is_device(name: &str) -> bool {
    let stem = name.split('.').next().unwrap_or(name).trim_end_matches(' ');
    let upper = stem.to_ascii_uppercase();
    match upper.as_str() {
        "CON" | "PRN" | "AUX" | "NUL" | "CONIN$" | "CONOUT$" => true,
        _ => {
            let (Some(head), Some(tail)) = (upper.get(..3), upper.get(3..)) else {
                return false;
            };
            matches!(head, "COM" | "LPT")
                && (matches!(tail.as_bytes(), [b'0'..=b'9']) || matches!(tail, "¹" | "²" | "³"))
        }
    }
}

/// The slash form of the path of a `file:` URI on Windows, from what the
/// strict URI parser read: the host (`None` for an empty authority or
/// `localhost`) and the decoded path (starting with `/`, dot segments
/// removed). `file:///C:/a`, `file:///c%3A/a` and `file://localhost/C:/a`
/// name `C:\a`; `file://server/share/a` names `\\server\share\a`.
///
/// A path without a drive is `not_absolute`; every other refusal is
/// `invalid_uri`.
pub(crate) fn uri_path(host: Option<&str>, path: &str) -> Result<String, Refusal> {
    let invalid = |why| (ErrorKind::InvalidUri, why);
    let (mut out, rest) = match host {
        Some(server) => {
            if let Some(why) = refused_name(server).or(dots(server)) {
                return Err(invalid(why));
            }
            let after = &path[1..];
            let share_end = after.find('/').unwrap_or(after.len());
            let share = &after[..share_end];
            if share.is_empty() {
                return Err(invalid("a UNC URI names a share after its host"));
            }
            if let Some(why) = refused_name(share).or(dots(share)) {
                return Err(invalid(why));
            }
            (format!("/{UNC}/{server}/{share}"), &after[share_end..])
        }
        None => {
            let after = &path[1..];
            let first_end = after.find('/').unwrap_or(after.len());
            let first = &after[..first_end];
            if !(first.len() == 2 && has_drive(first)) {
                return Err(if first.contains(':') {
                    invalid("a ':' in a name (a drive letter is one letter)")
                } else {
                    (ErrorKind::NotAbsolute, "a file URI without a drive")
                });
            }
            (drive(first.as_bytes()[0]), &after[first_end..])
        }
    };
    check_names(rest).map_err(invalid)?;
    out.push_str(rest);
    Ok(out)
}

/// A path relative to a root, as a root's own operations take it: `\` and
/// `/` both separate, and the names are checked as in an absolute path. A
/// drive, a UNC prefix or a leading separator leads outside the root
/// (`outside_roots`).
pub(crate) fn relative_path(rel: &str) -> Result<Cow<'_, str>, Refusal> {
    if is_raw_path(rel) {
        return Err((
            ErrorKind::OutsideRoots,
            "a root's own operations take a path relative to it",
        ));
    }
    check_names(rel).map_err(|why| (ErrorKind::InvalidPath, why))?;
    Ok(if rel.contains('\\') {
        Cow::Owned(rel.replace('\\', "/"))
    } else {
        Cow::Borrowed(rel)
    })
}

/// Refuses a slash form Windows could not take whole: `PATH_MAX` UTF-16
/// units or more, or a name longer than `NAME_MAX` units.
pub(crate) fn check_form(path: &str) -> Result<(), &'static str> {
    // A UTF-16 unit takes at least one byte: short paths are short.
    if path.len() >= PATH_MAX && path.encode_utf16().count() >= PATH_MAX {
        return Err("the path is longer than the platform's PATH_MAX");
    }
    if path.len() > NAME_MAX
        && path
            .split('/')
            .any(|c| c.len() > NAME_MAX && c.encode_utf16().count() > NAME_MAX)
    {
        return Err("a path component is longer than the platform's NAME_MAX");
    }
    Ok(())
}

/// The path Windows takes for a slash form: `/C:/a/b` is `C:\a\b`, `/C:` is
/// `C:\` (never the drive-relative `C:`), `/UNC/s/sh/x` is `\\s\sh\x`.
pub(crate) fn native(slash: &str) -> String {
    if let Some(unc) = slash
        .strip_prefix('/')
        .and_then(|s| s.strip_prefix(UNC))
        .filter(|s| s.starts_with('/'))
    {
        return format!("\\{}", unc.replace('/', "\\"));
    }
    let mut out = slash.strip_prefix('/').unwrap_or(slash).replace('/', "\\");
    if out.len() == 2 && has_drive(&out) {
        out.push('\\');
    }
    out
}

/// The slash form of a path Windows reports (a descriptor's final path,
/// with or without `\\?\`), or `None` when it is not one this parser takes
/// (say, a name with a trailing dot made outside Win32).
pub(crate) fn from_native(path: &str) -> Option<String> {
    let plain = if let Some(unc) = path.strip_prefix(r"\\?\UNC\") {
        Cow::Owned(format!(r"\\{unc}"))
    } else {
        Cow::Borrowed(path.strip_prefix(r"\\?\").unwrap_or(path))
    };
    raw_path(&plain).ok()
}

/// A slash form as the parts of a `file:` URI: the host (the server of a
/// UNC path) and the path after it (`/share/x`; for a drive, all of it).
pub(crate) fn uri_parts(slash: &str) -> (Option<&str>, &str) {
    let unc = slash
        .strip_prefix('/')
        .and_then(|s| s.strip_prefix(UNC))
        .and_then(|s| s.strip_prefix('/'));
    match unc {
        Some(after) => {
            let end = after.find('/').unwrap_or(after.len());
            (Some(&after[..end]), &after[end..])
        }
        None => (None, slash),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(s: &str) -> String {
        raw_path(s).unwrap_or_else(|e| panic!("{s}: {e:?}"))
    }

    fn refused(s: &str) -> ErrorKind {
        raw_path(s).expect_err(s).0
    }

    #[test]
    fn drive_paths_in_every_spelling() {
        for s in [r"C:\Users\a", "C:/Users/a", r"c:\Users/a", r"C:/Users\a"] {
            assert_eq!(ok(s), "/C:/Users/a", "{s}");
        }
        assert_eq!(ok(r"C:\\Users\a"), "/C://Users/a");
        assert_eq!(ok(r"d:\x\"), "/D:/x/");
        assert_eq!(ok(r"C:\a\.\b\..\c"), "/C:/a/./b/../c");
        assert_eq!(ok(r"C:\"), "/C:/");
        assert_eq!(ok(r"C:\Program Files\x y.txt"), "/C:/Program Files/x y.txt");
        assert_eq!(ok(r"C:\a\ leading space"), "/C:/a/ leading space");
        assert_eq!(ok(r"C:\a\100%2e.txt"), "/C:/a/100%2e.txt");
        assert_eq!(ok(r"C:\a\café\.hidden"), "/C:/a/café/.hidden");
    }

    #[test]
    fn unc_paths() {
        assert_eq!(ok(r"\\server\share\x\y"), "/UNC/server/share/x/y");
        assert_eq!(ok("//server/share"), "/UNC/server/share");
        assert_eq!(ok(r"\\server\share\"), "/UNC/server/share/");
        assert_eq!(ok(r"\/Server\Share/x"), "/UNC/Server/Share/x");
        for bad in [
            r"\\server",
            r"\\server\",
            r"\\\share",
            r"\\server\\share",
            r"\\..\share",
            r"\\server\..",
        ] {
            assert_eq!(refused(bad), ErrorKind::InvalidPath, "{bad}");
        }
    }

    #[test]
    fn relative_and_rooted_paths_are_not_absolute() {
        for bad in [
            r"C:x", "C:", "c:..", r"\x", "/x", r"\", "/", r"a\b", "x", "C",
        ] {
            assert_eq!(refused(bad), ErrorKind::NotAbsolute, "{bad}");
        }
    }

    #[test]
    fn verbatim_and_device_paths_are_refused() {
        for bad in [
            r"\\?\C:\x",
            r"\\.\C:\x",
            r"\\?\UNC\server\share",
            r"\\.\pipe\x",
            r"\\.\PhysicalDrive0",
            "//?/C:/x",
            "//./nul",
            r"\\?",
            r"\\.",
        ] {
            assert_eq!(refused(bad), ErrorKind::InvalidPath, "{bad}");
        }
        // A server whose name merely starts with a dot or question mark is
        // refused for the name itself.
        assert_eq!(refused(r"\\?x\share"), ErrorKind::InvalidPath);
        assert_eq!(ok(r"\\.x\share"), "/UNC/.x/share");
    }

    #[test]
    fn aliases_are_refused_in_every_component() {
        for name in [
            "x:stream",
            "x::$DATA",
            "x.txt:$DATA",
            "x.",
            "x ",
            "x. ",
            "...",
            "CON",
            "con",
            "Nul.txt",
            "aux.tar.gz",
            "COM1",
            "com9.log",
            "LPT1",
            "lpt0",
            "COM¹",
            "lpt³.txt",
            "CON .txt",
            "conin$",
            "CONOUT$",
            "a<b",
            "a>b",
            "a\"b",
            "a|b",
            "a?b",
            "a*b",
            "a\tb",
            "a\u{1}b",
        ] {
            for path in [format!(r"C:\r\{name}"), format!(r"C:\{name}\x")] {
                assert_eq!(refused(&path), ErrorKind::InvalidPath, "{path:?}");
            }
            assert!(refused_name(name).is_some(), "{name:?}");
        }
        for fine in [
            "CONSOLE", "CON_x", "xCON", "COM10", "COM", "LPT", "comx", "nul_", ".x", "x.y", " x",
            "x..y", "COM¹x", "☃",
        ] {
            assert_eq!(refused_name(fine), None, "{fine:?}");
            ok(&format!(r"C:\r\{fine}"));
        }
    }

    #[test]
    fn uri_paths() {
        let ok = |host, path| uri_path(host, path).unwrap_or_else(|e| panic!("{path}: {e:?}"));
        let refused = |host, path| uri_path(host, path).expect_err(path).0;
        assert_eq!(ok(None, "/C:/a/b"), "/C:/a/b");
        assert_eq!(ok(None, "/c:/a/"), "/C:/a/");
        assert_eq!(ok(None, "/c:"), "/C:");
        assert_eq!(ok(Some("server"), "/share/x"), "/UNC/server/share/x");
        assert_eq!(ok(Some("server"), "/share"), "/UNC/server/share");
        assert_eq!(refused(None, "/home/a"), ErrorKind::NotAbsolute);
        assert_eq!(refused(None, "/"), ErrorKind::NotAbsolute);
        for (host, path) in [
            (None, "/C:x/a"),
            (None, "/CC:/a"),
            (None, "/C:/a:b"),
            (None, "/C:/a/x."),
            (None, "/C:/a/nul"),
            (None, "/C:/a/x /b"),
            (None, "/C:/a/b|c"),
            (Some("server"), "/"),
            (Some("server"), "//x"),
            (Some("server"), "/con/x"),
            (Some(".."), "/share"),
        ] {
            assert_eq!(
                refused(host, path),
                ErrorKind::InvalidUri,
                "{host:?} {path}"
            );
        }
    }

    #[test]
    fn native_forms_round_trip() {
        for (native_form, slash) in [
            (r"C:\Users\a", "/C:/Users/a"),
            (r"C:\", "/C:"),
            (r"\\server\share\x", "/UNC/server/share/x"),
            (r"\\server\share", "/UNC/server/share"),
        ] {
            assert_eq!(native(slash), native_form);
            let back = from_native(native_form).unwrap();
            assert_eq!(crate::parse::lexical::clean_key(&back).unwrap(), slash);
        }
        assert_eq!(native("/C:/"), r"C:\");
        assert_eq!(from_native(r"\\?\C:\x").as_deref(), Some("/C:/x"));
        assert_eq!(
            from_native(r"\\?\UNC\server\share\x").as_deref(),
            Some("/UNC/server/share/x")
        );
        assert_eq!(from_native(r"C:\x."), None);
    }

    #[test]
    fn relative_paths() {
        assert_eq!(relative_path(r"a\b/c").unwrap(), "a/b/c");
        assert!(matches!(relative_path("a/b"), Ok(Cow::Borrowed("a/b"))));
        assert_eq!(relative_path(r"..\x").unwrap(), "../x");
        for outside in [r"C:\x", "C:x", r"\x", "/x", r"\\s\sh"] {
            assert_eq!(
                relative_path(outside).unwrap_err().0,
                ErrorKind::OutsideRoots
            );
        }
        for bad in ["a/nul", r"a\x:y", "x.", "a /b"] {
            assert_eq!(relative_path(bad).unwrap_err().0, ErrorKind::InvalidPath);
        }
    }

    #[test]
    fn form_limits_count_utf16_units() {
        let name = "é".repeat(NAME_MAX);
        assert!(
            check_form(&format!("/C:/{name}")).is_ok(),
            "510 bytes, 255 units"
        );
        assert!(check_form(&format!("/C:/{name}x")).is_err());
        let long = "/a".repeat(PATH_MAX / 2 + 1);
        assert!(check_form(&long).is_err());
        assert!(check_form(&long[..PATH_MAX - 1]).is_ok());
    }

    #[test]
    fn uri_parts_name_the_host() {
        assert_eq!(
            uri_parts("/UNC/server/share/x"),
            (Some("server"), "/share/x")
        );
        assert_eq!(uri_parts("/C:/a"), (None, "/C:/a"));
        assert_eq!(uri_parts("/UNCx/a"), (None, "/UNCx/a"));
    }
}
