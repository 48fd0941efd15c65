//! The state of one resolution and its step function.

use std::borrow::Cow;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};

use rustix::io::Errno;

use super::components::{self, Component};
use super::link;
use super::mount::{self, Mount};
use super::open::{self, Found, Last};
use crate::options::hardening::{MountPoints, Symlinks};
use crate::sys::How;

/// How many symlinks one resolution may follow, as Linux's `MAXSYMLINKS`:
/// the 41st is `ELOOP`.
pub(super) const SYMLINK_BUDGET: u8 = 40;

/// Where a resolution stands between two steps.
#[derive(Debug)]
pub(super) struct Resolution<'a> {
    /// The directory the resolution may not leave.
    start: BorrowedFd<'a>,
    /// The directories entered below `start`, the current one last: its
    /// length is the depth, and a `..` pops one (at depth 0 it is an
    /// escape). Holding them means a `..` never re-resolves anything, even
    /// when a directory on the way is moved meanwhile.
    entered: Vec<OwnedFd>,
    /// The components still to resolve, the next one last.
    remaining: Vec<Component<'a>>,
    /// Symlinks that may still be followed.
    links_left: u8,
    /// The last component has to be a directory and is followed whatever
    /// `how` says: a trailing `/` on the input, or on the body of a link
    /// that was the last component.
    trailing_slash: bool,
    /// What the caller asked of the last component, with the hardening of
    /// the root (or roots) the resolution is beneath.
    how: How,
    /// Under `MountPoints::Refuse`, the mount of `start`, which every
    /// component must share.
    mount: Option<Mount>,
}

/// The state a resolution leaves when it escapes, to go on elsewhere
/// ([`Resolution::into_rest`], [`Resolution::resume`]).
#[derive(Debug)]
pub(super) struct Rest<'a> {
    /// The components still to resolve, the next one last.
    pub(super) remaining: Vec<Component<'a>>,
    /// Symlinks that may still be followed.
    pub(super) links_left: u8,
    /// The last component has to be a directory.
    pub(super) trailing_slash: bool,
    /// The mount every component must share, when one is pinned.
    mount: Option<Mount>,
}

/// What one step did.
#[derive(Debug)]
pub(super) enum Step {
    /// Moved on by one component (or one symlink); resolve on.
    Continue,
    /// Opened the last component: the resolution is over.
    Opened(OwnedFd),
    /// The path leads outside `start`. The state is left as it stood: the
    /// components after the escape are still in `remaining` (for a
    /// symlink, its body first).
    Escaped(Escape),
}

/// How a path tried to leave the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Escape {
    /// A `..` at the start itself.
    AboveStart,
    /// A symlink whose body is an absolute path.
    AbsoluteLink,
}

impl Escape {
    /// What `openat2(RESOLVE_BENEATH)` answers to the same escape.
    pub(super) fn errno(self) -> Errno {
        match self {
            Escape::AboveStart | Escape::AbsoluteLink => Errno::XDEV,
        }
    }
}

impl<'a> Resolution<'a> {
    /// A resolution of the relative path `rel` beneath `start`, not
    /// stepped yet.
    pub(super) fn new(start: BorrowedFd<'a>, rel: &'a str, how: How) -> rustix::io::Result<Self> {
        let mount = match how.hardening.mount_points {
            MountPoints::Refuse => Some(mount::of(start)?),
            MountPoints::Cross => None,
        };
        let mut remaining = Vec::new();
        let shape = components::push(&mut remaining, Cow::Borrowed(rel.as_bytes()));
        let resolution = Self {
            start,
            entered: Vec::new(),
            remaining,
            links_left: SYMLINK_BUDGET,
            trailing_slash: shape.trailing_slash,
            how,
            mount,
        };
        debug_assert!(!shape.absolute, "the caller refuses absolute paths");
        if shape.empty {
            return Err(Errno::NOENT); // the kernel's answer to ""
        }
        Ok(resolution)
    }

    /// What is left of a resolution that escaped: the components after the
    /// escape, the symlink budget, the trailing-`/` demand and the pinned
    /// mount. The handles entered are closed.
    pub(super) fn into_rest(self) -> Rest<'a> {
        Rest {
            remaining: self.remaining,
            links_left: self.links_left,
            trailing_slash: self.trailing_slash,
            mount: self.mount,
        }
    }

    /// Goes on with `rest` beneath another directory, `start`, under `how`
    /// (whose hardening may be stricter than before). A mount pinned before
    /// stays pinned, and `start` must lie on it (`EXDEV`); a mount newly
    /// demanded is `start`'s. An empty `rest` resolves to `start` itself.
    pub(super) fn resume(
        start: BorrowedFd<'a>,
        rest: Rest<'a>,
        how: How,
    ) -> rustix::io::Result<Self> {
        let mount = match (how.hardening.mount_points, rest.mount) {
            (MountPoints::Cross, _) => None,
            (MountPoints::Refuse, Some(pinned)) if mount::of(start)? != pinned => {
                return Err(Errno::XDEV);
            }
            (MountPoints::Refuse, Some(pinned)) => Some(pinned),
            (MountPoints::Refuse, None) => Some(mount::of(start)?),
        };
        let mut remaining = rest.remaining;
        if remaining.is_empty() {
            remaining.push(Component::Dot);
        }
        Ok(Self {
            start,
            entered: Vec::new(),
            remaining,
            links_left: rest.links_left,
            trailing_slash: rest.trailing_slash,
            how,
            mount,
        })
    }

    /// The directory the next component is looked up in.
    fn current(&self) -> BorrowedFd<'_> {
        self.entered.last().map_or(self.start, |fd| fd.as_fd())
    }

    /// Resolves one component: a directory entered or left, a symlink
    /// replaced by its body, or the last component opened.
    pub(super) fn step(&mut self) -> rustix::io::Result<Step> {
        let Some(component) = self.remaining.pop() else {
            // Not reached: the last component ends the resolution.
            return self.finish_at_current();
        };
        let is_last = self.remaining.is_empty();
        match component {
            Component::Dot if is_last => self.finish_at_current(),
            Component::Dot => Ok(Step::Continue),
            Component::DotDot => {
                if self.entered.is_empty() {
                    return Ok(Step::Escaped(Escape::AboveStart));
                }
                // Looking up `..` needs search permission in the current
                // directory, as in the kernel's walk.
                let search = rustix::fs::Access::EXEC_OK;
                rustix::fs::accessat(self.current(), ".", search, rustix::fs::AtFlags::EACCESS)?;
                self.entered.pop();
                if is_last {
                    return self.finish_at_current();
                }
                Ok(Step::Continue)
            }
            Component::Name(name) if is_last => {
                let last = Last {
                    trailing_slash: self.trailing_slash,
                };
                match open::last(self.current(), &name, &self.how, last)? {
                    Found::Opened(fd) => {
                        self.check_mount(&fd)?;
                        Ok(Step::Opened(fd))
                    }
                    Found::Link(body) => self.follow(body, true),
                }
            }
            Component::Name(name) => match open::enter(self.current(), &name)? {
                Found::Opened(fd) => {
                    self.check_mount(&fd)?;
                    self.entered.push(fd);
                    Ok(Step::Continue)
                }
                Found::Link(body) => self.follow(body, false),
            },
        }
    }

    /// Replaces a symlink by its body; `at_end` when it was the last
    /// component (its body's trailing `/` then counts).
    fn follow(&mut self, body: Vec<u8>, at_end: bool) -> rustix::io::Result<Step> {
        if self.how.hardening.symlinks == Symlinks::Refuse || self.links_left == 0 {
            return Err(Errno::LOOP);
        }
        self.links_left -= 1;
        if link::is_magic(self.current(), &body)? {
            return Err(Errno::LOOP); // RESOLVE_NO_MAGICLINKS
        }
        let shape = components::push(&mut self.remaining, Cow::Owned(body));
        if at_end {
            self.trailing_slash |= shape.trailing_slash;
        }
        if shape.absolute {
            return Ok(Step::Escaped(Escape::AbsoluteLink));
        }
        if shape.empty {
            return Err(Errno::NOENT); // an empty body, as the kernel answers
        }
        Ok(Step::Continue)
    }

    /// The last component was `.` or `..`: the current directory itself,
    /// opened as `how` says.
    fn finish_at_current(&mut self) -> rustix::io::Result<Step> {
        Ok(Step::Opened(open::reopen(self.current(), &self.how)?))
    }

    /// Under `MountPoints::Refuse`, `EXDEV` (as `RESOLVE_NO_XDEV`) unless
    /// `fd` lies on the start's mount.
    fn check_mount(&self, fd: &OwnedFd) -> rustix::io::Result<()> {
        match self.mount {
            Some(mount) if mount::of(fd)? != mount => Err(Errno::XDEV),
            _ => Ok(()),
        }
    }
}
