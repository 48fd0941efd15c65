//! Following a path across the roots of a set: the resolver's steps, driven
//! from one root's handle to another's when a symlink or a `..` leaves the
//! root the walk is beneath and lands in another root of the set (or back
//! in the same one).
//!
//! It runs only after a resolution beneath one root was refused because
//! the path leads outside it (`EXDEV`), and it can only land inside a root:
//!
//! - The walk is [`Resolution`]'s, beneath a root's handle: every component
//!   opened alone with `O_NOFOLLOW`, every symlink read and followed by the
//!   walk itself, the last component opened with the caller's flags (so a
//!   write never follows a symlink there).
//! - On an escape the walk's position is lexical: the root's *physical*
//!   path (never its path as given) for a `..` above it, `/` for an
//!   absolute symlink. From there the components are taken as text, and
//!   nothing is looked up on disk: a name is taken only while the path still
//!   leads towards a root ([`Lead`]), a `..` only while the path is an
//!   ancestor of a root's physical path (whose components are real
//!   directories), and `..` at `/` stays at `/`. The moment the path stands
//!   in no root and leads to none, the walk is refused (`EXDEV`).
//! - When the path lands in a root, chosen by the set's own lexical rule
//!   (the outermost root), the walk goes on beneath *that* root's handle,
//!   confirmed by its identity (device and inode), with the same remaining
//!   components and symlink budget, and with the stricter hardening of the
//!   roots it went through.
//! - At most 40 symlinks in all, as the kernel; at most
//!   [`MAX_CROSSINGS`] escapes, then `ELOOP`. The depth is bounded with
//!   them: the input and each symlink body are shorter than `PATH_MAX`, and
//!   a landing adds at most the names of one root's path; the handles of
//!   one root's walk are closed when the walk leaves it.
//!
//! # Why by default
//!
//! It costs nothing until the kernel has refused: the open that stays
//! beneath its root is the single `openat2` it was (measured within the
//! noise of this machine, 3.0–5.2 µs before and after for a file ten
//! directories deep). A path that crosses pays for its walk, one `openat`
//! per component plus a `readlinkat` per symlink (25–32 µs for the same
//! file reached through a `..` or an absolute symlink from another root),
//! and turns what would be a refusal of a target inside the roots into an
//! allow; an escape stays refused either way.

use std::borrow::Cow;
use std::fs::File;
use std::io;
use std::os::fd::AsFd;

use rustix::io::Errno;

use super::components::Component;
use super::state::{Escape, Resolution, Step};
use crate::options::hardening::Writes;
use crate::sys::landing::{Landed, Lead, ReadOnlyLanding, RootMap, RootRef};
use crate::sys::{How, Identity};

/// How many times one walk may leave a root: beyond this the walk is
/// refused as a loop. Each crossing comes from a symlink (40 at most) or a
/// `..` of the input or of a symlink's body; an input (shorter than
/// `PATH_MAX`) has fewer `..` than this, so only symlink bodies can reach
/// it.
pub(super) const MAX_CROSSINGS: usize = 4096;

/// Opens `rel` beneath `start`, one of `roots`, as `how` says, following
/// symlinks and `..` across the roots of the set; the result lies beneath
/// the root [`Landed::root`] names.
pub(crate) fn open_across<'a>(
    roots: &'a dyn RootMap,
    start: RootRef<'a>,
    rel: &'a str,
    how: &How,
) -> io::Result<Landed> {
    if rel.starts_with('/') {
        return Err(Errno::XDEV.into());
    }
    let mut how = How {
        hardening: how.hardening.stricter(start.hardening),
        ..*how
    };
    let mut beneath = start;
    let mut landed = None;
    let mut crossings = 0;
    let mut resolution = Resolution::new(start.dir.as_fd(), rel, how)?;
    loop {
        let escape = match resolution.step()? {
            Step::Continue => continue,
            Step::Opened(fd) => {
                return Ok(Landed {
                    file: File::from(fd),
                    root: landed,
                    hardening: how.hardening,
                });
            }
            Step::Escaped(escape) => escape,
        };
        crossings += 1;
        if crossings > MAX_CROSSINGS {
            return Err(Errno::LOOP.into());
        }
        let mut rest = resolution.into_rest();
        let position = match escape {
            Escape::AboveStart => match beneath.resolved {
                Some(path) => Position::above(path),
                None => return Err(Errno::XDEV.into()), // a root without a UTF-8 path
            },
            Escape::AbsoluteLink => Position::top(),
        };
        let (index, names) = position.land(roots, &mut rest.remaining)?;
        let root = roots.root(index).ok_or(Errno::XDEV)?;
        confirm(&root)?;
        rest.remaining.extend(
            names
                .into_iter()
                .rev()
                .map(|n| Component::Name(Cow::Owned(n.into_bytes()))),
        );
        how.hardening = how.hardening.stricter(root.hardening);
        if how.changes() && how.hardening.writes == Writes::Refuse {
            // Judged by the root it lands in (and every root crossed):
            // refused before anything beneath it is opened for a change.
            return Err(ReadOnlyLanding::error());
        }
        resolution = Resolution::resume(root.dir.as_fd(), rest, how)?;
        beneath = root;
        landed = Some(index);
    }
}

/// The landing root's handle is the directory the root is pinned to.
fn confirm(root: &RootRef<'_>) -> rustix::io::Result<()> {
    let stat = rustix::fs::fstat(root.dir)?;
    #[allow(clippy::unnecessary_cast, clippy::useless_conversion)] // types differ by platform
    let id = Identity {
        dev: stat.st_dev as u64,
        ino: stat.st_ino as u64,
    };
    if id != root.id {
        return Err(Errno::XDEV);
    }
    Ok(())
}

/// Where a walk stands outside every root: a clean absolute path, taken as
/// text.
#[derive(Debug)]
struct Position {
    path: String,
    /// The path is an ancestor of a root's physical path (or `/`): its
    /// lexical parent is its parent on disk.
    canonical: bool,
}

impl Position {
    /// Just above a root whose physical path is `resolved`.
    fn above(resolved: &str) -> Self {
        let mut position = Self {
            path: resolved.to_owned(),
            canonical: true,
        };
        position.up();
        position
    }

    /// `/`, where an absolute symlink starts.
    fn top() -> Self {
        Self {
            path: "/".to_owned(),
            canonical: true,
        }
    }

    /// The lexical parent (`/` stays `/`).
    fn up(&mut self) {
        let cut = self.path.rfind('/').unwrap_or(0);
        self.path.truncate(cut.max(1));
    }

    fn push(&mut self, name: &str) {
        if !self.path.ends_with('/') {
            self.path.push('/');
        }
        self.path.push_str(name);
    }

    /// Takes components from `remaining` (the next one last) as text until
    /// the path lands in a root: that root's index and the names below its
    /// key. `EXDEV` when the path stands in no root and leads to none, or
    /// the components end outside every root.
    fn land(
        mut self,
        roots: &dyn RootMap,
        remaining: &mut Vec<Component<'_>>,
    ) -> rustix::io::Result<(usize, Vec<String>)> {
        loop {
            if let Some((index, rest)) = roots.locate(&self.path) {
                let names = rest
                    .split('/')
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect();
                return Ok((index, names));
            }
            match remaining.pop().ok_or(Errno::XDEV)? {
                Component::Dot => {}
                Component::DotDot if self.canonical => self.up(),
                Component::DotDot => return Err(Errno::XDEV),
                Component::Name(name) => {
                    let name = std::str::from_utf8(&name).map_err(|_| Errno::XDEV)?;
                    self.push(name);
                    if roots.locate(&self.path).is_none() {
                        self.canonical = match roots.leads_to(&self.path) {
                            Lead::Canonical => true,
                            Lead::Lexical => false,
                            Lead::Nowhere => return Err(Errno::XDEV),
                        };
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sys::RootRef;

    /// Roots by their physical and given paths, byte for byte; no handles
    /// (the lexical part of the walk never needs one).
    struct Map {
        /// (physical, given) per root.
        roots: Vec<(&'static str, &'static str)>,
    }

    fn under<'p>(key: &str, path: &'p str) -> Option<&'p str> {
        if key == "/" {
            return Some(path);
        }
        let rest = path.strip_prefix(key)?;
        (rest.is_empty() || rest.starts_with('/')).then_some(rest)
    }

    impl RootMap for Map {
        fn locate<'p>(&self, path: &'p str) -> Option<(usize, &'p str)> {
            // The outermost key wins: the longest rest.
            (0..self.roots.len())
                .flat_map(|i| {
                    let (physical, given) = self.roots[i];
                    [under(physical, path), under(given, path)]
                        .into_iter()
                        .flatten()
                        .map(move |rest| (i, rest))
                })
                .max_by_key(|(i, rest)| (rest.len(), usize::MAX - i))
        }

        fn leads_to(&self, path: &str) -> Lead {
            let above = |key: &str| under(path, key).is_some_and(|rest| !rest.is_empty());
            if self.roots.iter().any(|(physical, _)| above(physical)) {
                Lead::Canonical
            } else if self.roots.iter().any(|(_, given)| above(given)) {
                Lead::Lexical
            } else {
                Lead::Nowhere
            }
        }

        fn root(&self, _index: usize) -> Option<RootRef<'_>> {
            None
        }
    }

    /// Lands `body`'s components from `position`: the root and the names
    /// below it, or the errno.
    fn land(map: &Map, position: Position, body: &str) -> Result<(usize, Vec<String>), Errno> {
        let mut remaining = Vec::new();
        super::super::components::push(&mut remaining, Cow::Owned(body.as_bytes().to_vec()));
        position.land(map, &mut remaining)
    }

    fn map() -> Map {
        Map {
            roots: vec![
                ("/t/a", "/t/a"),
                ("/t/b", "/t/b"),
                ("/deep/real", "/l/m"),
                ("/t/a/inner", "/t/a/inner"),
            ],
        }
    }

    #[test]
    fn lands_in_the_outermost_root_a_path_names() {
        let m = map();
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(land(&m, Position::top(), "/t/b/x"), Ok((1, vec![])));
        assert_eq!(land(&m, Position::top(), "/t/a/inner/x"), Ok((0, vec![])));
        assert_eq!(land(&m, Position::above("/t/a"), "b/x"), Ok((1, vec![])));
        assert_eq!(land(&m, Position::above("/t/a"), "../t/a"), Ok((0, vec![])));
        assert_eq!(
            land(&m, Position::above("/t/a/inner"), "x"),
            Ok((0, names(&[])))
        );
        assert_eq!(land(&m, Position::top(), "/t/./a//inner"), Ok((0, vec![])));
        assert_eq!(
            land(&m, Position::above("/deep/real"), "../deep/real/x"),
            Ok((2, vec![]))
        );
        // Through the path a root was given as.
        assert_eq!(land(&m, Position::top(), "/l/m/x"), Ok((2, vec![])));
        // `..` at `/` stays at `/`.
        assert_eq!(land(&m, Position::top(), "/../../t/b"), Ok((1, vec![])));
    }

    #[test]
    fn a_nested_root_lands_in_its_outer_root_with_the_names_between() {
        let m = Map {
            roots: vec![("/t/a", "/t/a"), ("/t/a/s/inner", "/t/a/s/inner")],
        };
        let landed = land(&m, Position::above("/t/a/s/inner"), "x");
        assert_eq!(landed, Ok((0, vec!["s".to_string()])));
    }

    #[test]
    fn refuses_what_stands_outside_every_root() {
        let m = map();
        for (position, body) in [
            (Position::top(), "/etc/passwd"),
            (Position::top(), "/t/c"),
            (Position::top(), "/t"),
            (Position::top(), "/"),
            (Position::above("/t/a"), ""),
            (Position::above("/t/a"), "."),
            (Position::above("/t/a"), "outside/x"),
            (Position::above("/t/b"), "../etc"),
            // `..` from a path known only as given cannot be told lexically.
            (Position::top(), "/l/../t/a"),
            (Position::top(), "/l/.."),
            (Position::top(), "/l/n"),
        ] {
            assert_eq!(land(&m, position, body), Err(Errno::XDEV), "{body:?}");
        }
    }
}
