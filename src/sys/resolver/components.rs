//! The components still to resolve: a stack, the next one on top, onto
//! which a followed symlink pushes its body. Splitting follows the kernel:
//! empty components (`a//b`) are skipped, `.` and `..` are kept (a final
//! one decides what is opened), and a trailing `/` is reported to the
//! caller, because it makes the last component a directory that is
//! followed even under `O_NOFOLLOW`.

use std::borrow::Cow;

/// One component of a path or of a symlink's body.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Component<'a> {
    /// `.`: stays where it is.
    Dot,
    /// `..`: up one directory, never above the start.
    DotDot,
    /// A name to look up in the current directory.
    Name(Cow<'a, [u8]>),
}

/// What a path looked like as a whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Shape {
    /// It begins with `/`.
    pub(super) absolute: bool,
    /// It ends with `/` after a name: that name must be a directory.
    pub(super) trailing_slash: bool,
    /// It has no component at all (`""`; `"/"` is absolute with none).
    pub(super) empty: bool,
}

/// Pushes the components of `path` onto `stack` so that its first
/// component is popped first; returns its shape.
pub(super) fn push<'a>(stack: &mut Vec<Component<'a>>, path: Cow<'a, [u8]>) -> Shape {
    let shape = shape(&path);
    match path {
        Cow::Borrowed(path) => {
            stack.extend(segments(path).rev().map(|s| component(Cow::Borrowed(s))));
        }
        Cow::Owned(path) => {
            let owned = segments(&path)
                .rev()
                .map(|s| component(Cow::Owned(s.to_vec())));
            stack.extend(owned);
        }
    }
    shape
}

fn shape(path: &[u8]) -> Shape {
    let trimmed = trim_trailing_slashes(path);
    Shape {
        absolute: path.first() == Some(&b'/'),
        trailing_slash: trimmed.len() < path.len()
            && !matches!(last_segment(trimmed), b"." | b".." | b""),
        empty: trimmed.is_empty(),
    }
}

/// The non-empty segments between slashes.
fn segments(path: &[u8]) -> impl DoubleEndedIterator<Item = &[u8]> {
    path.split(|&b| b == b'/').filter(|s| !s.is_empty())
}

fn component(part: Cow<'_, [u8]>) -> Component<'_> {
    match &*part {
        b"." => Component::Dot,
        b".." => Component::DotDot,
        _ => Component::Name(part),
    }
}

fn trim_trailing_slashes(bytes: &[u8]) -> &[u8] {
    let end = bytes.iter().rposition(|&b| b != b'/').map_or(0, |i| i + 1);
    &bytes[..end]
}

fn last_segment(bytes: &[u8]) -> &[u8] {
    bytes.rsplit(|&b| b == b'/').next().unwrap_or(b"")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(path: &str) -> (Vec<String>, Shape) {
        let mut stack = Vec::new();
        let shape = push(&mut stack, Cow::Borrowed(path.as_bytes()));
        let names = stack
            .iter()
            .rev()
            .map(|c| match c {
                Component::Dot => ".".to_owned(),
                Component::DotDot => "..".to_owned(),
                Component::Name(n) => String::from_utf8_lossy(n).into_owned(),
            })
            .collect();
        (names, shape)
    }

    #[test]
    fn splits_like_the_kernel() {
        let (names, shape) = split("a//b/./c/");
        assert_eq!(names, ["a", "b", ".", "c"]);
        assert!(shape.trailing_slash && !shape.absolute && !shape.empty);
        let (names, shape) = split("a/..//");
        assert_eq!(names, ["a", ".."]);
        assert!(!shape.trailing_slash, "a final '..' is a directory anyway");
        let (names, shape) = split("/x");
        assert_eq!(names, ["x"]);
        assert!(shape.absolute);
        assert!(split("").1.empty && split("//").1.empty && split("//").1.absolute);
        assert_eq!(split(".").0, ["."]);
    }
}
