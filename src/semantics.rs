//! The policy the library enforces: what an input means, which root judges
//! it, what may be opened, and why a refusal says what it says.
//!
//! This page is the contract the tests encode (the escape corpus, the
//! operations corpus, the reference model in `testkit`). Each section is
//! numbered; the code and the other docs link here by section.
//!
//! # 1. Input forms
//!
//! An operation takes an untrusted `&str`, a `file:` URI or an absolute
//! path, or a [`ScopedPath`](crate::ScopedPath) a previous operation
//! returned. A relative path, `~`, the empty string, another scheme, or a
//! Windows drive path on Unix is refused (`not_absolute` or
//! `invalid_uri`); Windows has its own forms (section 12). Relative access goes through an explicit root:
//! `set.root_named("notes")?.open("a.md")`, where [`RootSet::root`]
//! counts accepted roots in the client's order and [`RootSet::root_named`]
//! refuses a name that no root, or more than one, bears.
//!
//! # 2. URIs
//!
//! URIs are read by the crate's own strict parser, never by the `url`
//! crate (which rewrites what it reads: it strips tabs, turns `\` into
//! `/`, decodes `%2F`). The scheme is `file` in any case; the authority is
//! empty or `localhost` in any case, with no user or port; a query and a
//! fragment are dropped. Every `%` is followed by two hex digits, and each
//! segment is checked *before* decoding: no segment may decode to a `/`,
//! `\` or NUL, the decoded bytes must be UTF-8, and raw `\` and raw control
//! characters are refused: every Unicode control (`Cc`: C0 with tab and
//! newline, DEL, and C1 such as U+0085 NEL), and the line and paragraph
//! separators U+2028 and U+2029, which are not controls but break lines in
//! logs and in what a model reads. Percent-encoded, they are names like any
//! other (`%C2%85`); a raw path takes them literally (section 3); every log
//! line and error message escapes them. `%2E` spells a dot.
//! Dot segments are then removed as text (RFC 3986, 5.2.4), so
//! `file:///r/a/%2e%2e/x` names `/r/x`.
//!
//! # 3. Raw paths
//!
//! A raw absolute path is taken literally: no decoding and no lexical `..`
//! removal; a `..` is resolved on disk, as the kernel would. The part below
//! the root is handed to the kernel as given, never rebuilt from
//! components (which would drop a trailing `/` and inner `.`). A trailing
//! `/` demands a directory for every operation: a remove, rename, copy or
//! atomic write of a file named with a trailing `/` is `not_a_directory`.
//! A path longer than `PATH_MAX` (4,096 bytes on Linux), or with a
//! component longer than `NAME_MAX` (255 bytes), is `invalid_path` before
//! anything touches the disk.
//!
//! # 4. Physical resolution
//!
//! Symlinks are followed, and the answer is where the kernel lands beneath
//! the root's directory handle (`openat2(RESOLVE_BENEATH |
//! RESOLVE_NO_MAGICLINKS)` on Linux; without it, and on other Unix
//! systems, a component walk from the same handle). A target that does
//! not exist yet (a create) resolves through its deepest existing
//! ancestor; the missing tail must be plain names, and missing parents are
//! not created. A dangling symlink is a link, never a free name: creating
//! through it is `already_exists` (`O_EXCL | O_NOFOLLOW`), and every write
//! open refuses a symlink as its last component.
//!
//! # 5. Containment and the choice of root
//!
//! Containment is by path components, never a string prefix: a root
//! `/allowed` does not contain `/allowed_evil`. The root that judges an
//! input is chosen lexically: the *outermost* root whose path, as given or
//! resolved, is a component prefix of the input. With roots `a` and
//! `a/sub`, `a/sub/../x.txt` is judged beneath `a`. The rest of the input
//! is then opened beneath that root's handle, so whatever the rest does
//! (`..`, links) cannot leave it.
//!
//! Names are compared as the root's volume compares them, for this choice
//! only: byte for byte on Linux and the BSDs; case-insensitively on
//! Windows (always); on macOS, case-insensitively and insensitively to
//! Unicode normalisation (NFC and NFD spell one name) when the volume says
//! it is case-insensitive (`pathconf(_PC_CASE_SENSITIVE)`, asked of the
//! open root), byte for byte otherwise. Each component is folded with the
//! Unicode tables (simple uppercase, on the NFD for macOS), which may
//! differ from a volume's own in rare characters; a difference can only
//! leave a root unmatched or choose another root of the set. The part
//! below the chosen root is handed to the kernel in the input's own
//! spelling: no spelling can leave a root, whatever the folding. A root
//! given through a symlink (`/tmp` on macOS is `/private/tmp`) is found by
//! its path as given and by its resolved path.
//!
//! Served directories can nest (roots `a` and `a/sub`, a read-only ceiling
//! directory inside a writable one, a client root holding a ceiling
//! directory). The strictest answer wins: the outermost root still judges
//! the input, and its judgement gets one more layer per other served
//! directory it physically contains (by resolved path), recomputed
//! whenever a set is built, replaced or rescanned. An inner read-only
//! directory makes everything beneath its place read-only (and a rename
//! of a directory that holds it is refused); an inner directory's
//! patterns judge the path below its place: a ceiling directory's
//! anchored patterns, and a set's own, are re-anchored at its place, while
//! a client root never moves the operator's anchor (section 14). A path is
//! hidden if any layer hides it and read-only if any layer protects it,
//! for reads, changes, listings and walks (an entry an inner layer hides
//! is left out), renames and revocation. Only these are inherited: an
//! inner directory's other hardening (symlinks, mount points, hard links)
//! is not, and a set where nothing nests pays nothing.
//!
//! # 6. Roots
//!
//! Root URIs follow the same rules as inputs and are resolved once, when
//! the set is built. A root that is not an existing directory grants
//! nothing and is listed in [`RootSet::rejected`] with its reason (a file
//! root is `not_a_directory`). A root missing at build time is not revived
//! later: a new `roots/list` answer brings it in. No operation removes,
//! renames or replaces a root of the set, whichever root judged the path.
//!
//! A root is shown ([`Root::path`](crate::Root::path), and every
//! [`ScopedPath::to_uri`](crate::ScopedPath::to_uri) below it) by a path
//! that names the directory that was opened, so a URI handed back names
//! the file that was opened: its path as given, cleaned of `.` and
//! repeated separators, when that is so. A raw path given with a `..` is
//! shown cleaned only when the cleaned path names the same directory as
//! the kernel resolves it; otherwise (a symlink before the `..`:
//! `T/l/../b` with `T/l -> x/y` is `T/x/b`, not `T/b`; `/tmp/../x` on
//! macOS is `/private/x`) it is shown by its physical path. The check is
//! made when the set is built and again when a later set takes the root
//! over; beneath a ceiling directory it looks only beneath that
//! directory. (On Windows, Win32 removes `..` as text before the file
//! system sees it, so the cleaned path names the directory.) A URI root
//! has no such case: its dot segments are removed as text (section 2),
//! so its path has no `..` left for the disk.
//!
//! # 7. File types
//!
//! Only regular files and directories are opened. A FIFO, socket or device
//! is `not_a_regular_file`, and is refused without blocking (every data
//! open is non-blocking).
//!
//! # 8. The server's policy: ceiling, hardening, clients without roots
//!
//! A server may set ceiling directories that the client's roots can only
//! narrow (`effective = ceiling ∩ client roots`), on
//! [`RootsBuilder::ceiling`](crate::RootsBuilder::ceiling). A client root
//! is judged against the ceiling lexically on its path as given, *before*
//! anything at that path is opened: inside a ceiling directory, it is
//! opened beneath that directory's handle (so a link inside the ceiling
//! cannot carry it out); above ceiling directories, it is clipped to them;
//! anywhere else it is `outside_ceiling`, whatever exists there.
//!
//! The policy holds hardening too ([`Symlinks`](crate::Symlinks),
//! [`MountPoints`](crate::MountPoints), [`HardLinks`](crate::HardLinks)):
//! every root of every set [`Roots`](crate::Roots) hands out, clipped,
//! relocated, re-listed or request-scoped, carries at least the policy's,
//! and a client set can only make it stricter. A set carries the hardening
//! it was asked for (read-only included) whichever of its roots were
//! accepted: when a set's roots are judged again under a ceiling
//! ([`Roots::replace`](crate::Roots::replace), [`Roots::scoped`](crate::Roots::scoped)),
//! those rejected when it was built come back with it too.
//!
//! Read-only roots are part of that policy ([`Writes`](crate::Writes)):
//! for every root ([`RootsBuilder::writes`](crate::RootsBuilder::writes)),
//! for the roots at or beneath some ceiling directories
//! ([`RootsBuilder::read_only_ceiling`](crate::RootsBuilder::read_only_ceiling):
//! a client root inside one, as given or physically, or clipped to one), or
//! asked by a set itself ([`RootSetBuilder::writes`](crate::RootSetBuilder::writes)).
//! Beneath a read-only root every mutation is refused with `read_only`
//! once the root is chosen and before anything touches the disk: a create,
//! write, append or truncate open; creating or removing a file or a
//! directory; either end of a rename (so a file can move neither into nor
//! out of a read-only root); an atomic write; the destination of a copy.
//! Files are opened for reading only. Reads, listings, metadata, resolving,
//! walks and copies *out of* a read-only root work as before. A mutation is
//! judged by the root it acts under, and the outermost root is chosen
//! (section 5), with one more layer per served directory inside it: a
//! read-only ceiling directory nested inside a writable one makes
//! read-only the client roots at or beneath it and, beneath its place,
//! a client root above it too.
//!
//! [`EmptyRoots`](crate::EmptyRoots) says what a client that shares no
//! folder, and has never shared one, is served (nothing, or the whole
//! ceiling). On a session (one [`Roots`](crate::Roots)) that is a client
//! that does not declare the roots capability, or one whose answers have
//! all been empty lists so far (an editor with no folder open): `Roots`
//! remembers whether the client has shared
//! ([`Roots::has_shared`](crate::Roots::has_shared)). A list naming at
//! least one root counts as sharing even if every root of it was rejected
//! (the user meant those folders, not the ceiling), and from then on an
//! empty list shares nothing: a removal never grants more than before it.
//! Request-scoped sets ([`Roots::for_request`](crate::Roots::for_request),
//! the 2026-07-28 revision) keep no memory of a client: an empty list there
//! shares nothing, and only a client without the capability is served the
//! ceiling.
//!
//! On Linux the kernel can keep the ceiling as well, for the whole process
//! and everything it runs, not only the library's operations
//! ([`confine_process`](crate::confine_process), Landlock): read and write
//! beneath writable ceiling directories, read only beneath read-only ones,
//! nothing elsewhere. It is coarser than this section: Landlock cannot
//! express a read-only directory inside a writable one, so that, and the
//! policy's patterns, remain the library's to refuse.
//!
//! # 9. Links and `..` across roots
//!
//! Opening beneath one root refuses some targets that do lie inside the
//! roots: an absolute symlink pointing back inside (what `ln -s "$PWD/x" y`
//! makes), a link from one root into another, a `..` that leaves a root and
//! re-enters it or another root (`..` at `/` stays at `/`), a root given
//! through a symlink whose `..` leads back in. These are followed: when the
//! kernel (or the component walk) refuses a path because a symlink or a
//! `..` leads outside the chosen root, the path is walked again, one
//! component at a time from the root's handle, and where a symlink's body
//! or a `..` above the root lands lexically in a root of the set (chosen as
//! in section 5, the outermost), the walk goes on beneath *that* root's
//! handle. Outside every root nothing is looked up on disk: the walk
//! stands on the root's physical path (never its path as given) and takes
//! names only on the way to a root, so a symlink outside the roots is never
//! read and a path that stands in no root and leads to none is
//! `outside_roots`. An escape is refused by the first resolution, and the
//! second can only land inside a root. The walk obeys the same rules as
//! the one beneath one root (40 symlinks in all, then `symlink_loop`; a
//! write never follows a symlink as its last component; a dangling link is
//! a link) and the stricter hardening of the roots it crosses; the file it
//! opens lies beneath, and is tracked under, the root it landed in.
//!
//! Refused by design, and safe: `%5C` in a URI, magic links (root choice
//! is lexical, and magic links are never followed), creates through a
//! dangling link, a root reached only through a third alias (a bind mount,
//! `/var` against `/private/var`), a root's own relative operations (which
//! stay beneath that root), and, on Windows, every path that leaves its
//! root (cap-std's refusal stands). An allow that lands outside never is.
//!
//! # 10. Root identity
//!
//! A root is the directory its path named when the set was built (device
//! and inode, held by its handle: [`RootIdentity::Pinned`](crate::RootIdentity)).
//! If the path stops naming that directory (renamed, removed, replaced),
//! the root is gone (`root_gone`) until the same directory is at the path
//! again; a new directory at the same path needs a new `roots/list`
//! answer. A root whose directory moved while its path still names it is
//! served at its new place, if that place is still inside its ceiling.
//! Identity is verified on every [`Roots::replace`](crate::Roots::replace)
//! and [`Roots::rescan`](crate::Roots::rescan).
//!
//! # 11. Reasons
//!
//! Every refusal is an [`Error`](crate::Error) with one stable
//! [`reason`](crate::ErrorKind::reason), so a server can return it as a tool
//! error the model can act on. The table is closed: a new kind is a new
//! reason.
//!
//! | reason | when |
//! |---|---|
//! | `invalid_uri` | a malformed URI: scheme, authority, escapes, an encoded `/`, `\` or NUL, bad UTF-8, raw control characters (C0, DEL, C1) or U+2028/U+2029; on Windows a name Windows would alias (section 12) |
//! | `not_absolute` | a relative path, `~`, empty input, a drive path on Unix; on Windows a drive-relative path or one rooted without a drive |
//! | `outside_roots` | no root contains the input, or the path leads outside its root |
//! | `outside_ceiling` | a client root outside the operator ceiling (in `rejected()`) |
//! | `not_a_directory` | a root or a listed path is not a directory; a component is not a directory; a trailing `/` on a file |
//! | `not_a_regular_file` | a FIFO, socket or device, or a directory opened as a file |
//! | `not_found` | the target (or, for a create, its parent) does not exist |
//! | `already_exists` | a create onto an existing name, including a dangling symlink |
//! | `symlink_loop` | too many links, or a link where none may be followed |
//! | `root_gone` | the selected root no longer names its pinned directory |
//! | `scope_lost` | a tracked handle was revoked, or an old snapshot aimed beneath a removed root (section 13) |
//! | `no_roots` | no set installed yet, or the set is empty |
//! | `read_only` | a mutation (create, write or truncate open, remove, create a directory, either end of a rename, atomic write, copy destination) beneath a root (or a part of a root) the policy makes read-only |
//! | `hidden` | the path reaches a part of a root the policy hides: the user did not share this part of the folder (section 14) |
//! | `invalid_path` | a path refused for its form: too long, a component too long; on Windows a verbatim or device path, a name Windows would alias or read as a device (section 12) |
//! | `permission_denied` | the operating system refused (mode bits) |
//! | `io` | any other I/O failure, with its `source()` |
//!
//! The table above is the code's:
//!
//! ```
//! let reasons: Vec<&str> = mcp_roots::ErrorKind::ALL.iter().map(|k| k.reason()).collect();
//! assert_eq!(
//!     reasons,
//!     [
//!         "invalid_uri", "not_absolute", "outside_roots", "outside_ceiling",
//!         "not_a_directory", "not_a_regular_file", "not_found", "already_exists",
//!         "symlink_loop", "root_gone", "scope_lost", "no_roots", "read_only",
//!         "hidden", "invalid_path", "permission_denied", "io",
//!     ]
//! );
//! ```
//!
//! # 12. Windows
//!
//! Every lexical layer works on the *slash form* of a Windows path: the
//! drive letter uppercased, each `\` a `/`, a leading `/` (`C:\Users\a`
//! is `/C:/Users/a`, which is also the path of the URI
//! `file:///C:/Users/a`); a UNC path `\\server\share\x` is
//! `/UNC/server/share/x`. [`parse_input`](crate::parse_input) answers in
//! this form. Nothing else is rebuilt: a trailing separator, `.` and `..`
//! stay as given, and the part below a root goes to the resolution as
//! written (section 3). Roots and inputs take the same forms:
//!
//! - raw drive paths with `\`, `/` or both (`C:\a\b`, `c:/a/b`,
//!   `C:\a/b`), and UNC paths (`\\server\share\x`, either separator);
//! - `file:///C:/a` with the drive letter in any case, VS Code's
//!   `file:///c%3A/a` (the colon encoded), `file://localhost/C:/a`, and
//!   `file://server/share/a` for `\\server\share\a` (the host a plain
//!   server name: letters, digits, `-`, `.`, `_`).
//!
//! Refused before anything reaches the file system:
//!
//! | input | reason |
//! |---|---|
//! | a drive-relative path (`C:x`, `C:`), a path rooted without a drive (`\x`, `/x`), a relative path | `not_absolute` |
//! | a `file:` URI whose path has no drive and no host (`file:///home/a`) | `not_absolute` |
//! | a verbatim or device path (`\\?\…`, `\\.\…`, with either separator) | `invalid_path` |
//! | a UNC path without a server and a share (`\\server`, `\\server\\x`) | `invalid_path` |
//! | a `:` in any component but the drive (`x:stream`, `x::$DATA`: alternate data streams) | `invalid_path` |
//! | a component other than `.` and `..` ending in a dot or a space (Win32 strips them: `x.` and `x ` name `x`) | `invalid_path` |
//! | a reserved device name as any component, in any case, with or without an extension: `CON`, `PRN`, `AUX`, `NUL`, `COM0`–`COM9`, `LPT0`–`LPT9`, `COM¹`–`COM³`, `LPT¹`–`LPT³`, `CONIN$`, `CONOUT$` (`nul.txt`, `Con .md`) | `invalid_path` |
//! | a character Win32 refuses in names: `<>"\|?*` and C0 controls | `invalid_path` |
//! | a path of 32,767 UTF-16 units or more, a name longer than 255 units | `invalid_path` |
//! | in a URI: `%5C` or a raw `\` in a segment, and every alias above (`file:///C:/a/x.`, `file:///C:/a/nul`, `%3A` in a name) | `invalid_uri` |
//!
//! Device names are refused in every component, not only the last, and
//! whatever Windows version would still read them as devices: a server has
//! no use for them, and a refusal cannot alias. Short (8.3) names such as
//! `PROGRA~1` are not refused: below a root they are resolved by Windows
//! beneath the root's handle, so they cannot leave it (and the parts a
//! policy hides are judged on the long name, [section 14](#14-parts-of-a-root)); spelling a root
//! through one finds no root (`outside_roots`, an allowed refusal of
//! section 9), as does reaching a drive through `\\localhost\C$`.
//!
//! A root's own operations ([`Root::open`](crate::Root) and the others)
//! take a relative path with either separator; a drive, a UNC prefix or a
//! leading separator is `outside_roots`. [`ScopedPath::to_uri`](crate::ScopedPath::to_uri)
//! writes `file:///C:/…`, or `file://server/share/…` for a UNC root.
//!
//! Below the chosen root, opens go through cap-std (`NtCreateFile`
//! relative to the directory handle, each component resolved by cap-std,
//! `..` never above the root); directory changes through the parent
//! directory opened beneath the root, as on Unix, one plain name at a
//! time. A rename that must not replace is refused by the system when the
//! destination exists (`MoveFileExW` without `MOVEFILE_REPLACE_EXISTING`),
//! and every rename is written through to the disk. Root identity is the
//! volume serial number and the file index; [`HardLinks`](crate::HardLinks)
//! reads the link count as on Unix. The hardening that refuses symlinks or
//! mount points during resolution ([`Symlinks`](crate::Symlinks),
//! [`MountPoints`](crate::MountPoints)) has no cap-std equivalent on
//! Windows: a root with it is refused (`io`) at every open rather than run
//! weaker. A root's directory is held without `FILE_SHARE_DELETE`, so
//! Windows refuses to rename or remove it while the set holds it.
//!
//! # 13. Requests while the roots change
//!
//! A [`Snapshot`](crate::Snapshot) ([`Roots::load`](crate::Roots::load),
//! one per request) *reads* the set installed when it was taken: one view
//! per request. Once a [`replace`](crate::Roots::replace) or a
//! [`rescan`](crate::Roots::rescan) has removed a root, every operation of
//! an older snapshot aimed beneath it is `scope_lost`, and the files opened
//! beneath it are revoked.
//!
//! No *change* lands under a policy the user has withdrawn. Every change
//! through a snapshot (creating, writing, truncating, removing or renaming,
//! an atomic write, a copy, and every open that may change a file) is
//! judged before its system call in the set installed *now*: the root the
//! snapshot chose must still be installed (`scope_lost` otherwise), and
//! the change is then made in the installed set, so it is refused
//! (`read_only`) when the root it acts under, or a root a link or `..`
//! carries it into, is read-only now. A change is made only where both the
//! snapshot's view and the installed set allow it: a target the snapshot
//! places under no root keeps that refusal, even if a root added since
//! contains it. A truncating open is judged before anything is opened. A
//! file opened for writing is revoked (`read_only`) when its root becomes
//! read-only.
//!
//! What `replace` guarantees to operations in flight: an operation that
//! passed its check before `replace` returned may still land; one that
//! begins after `replace` returned never lands under the policy it
//! withdrew. The same holds for `rescan`.
//!
//! What a snapshot exposes of its plain set ([`Snapshot::set`](crate::Snapshot::set),
//! its `Deref` to [`RootSet`](crate::RootSet), and the operations of a [`Root`](crate::Root)
//! reached through it with [`RootSet::root`] or [`RootSet::root_named`])
//! keeps plain-set rules: it acts on the snapshot's set and is not judged
//! against the installed one. Every operation of `RootSet` that can change
//! the disk has a `Snapshot` method of the same name, which is judged.
//!
//! # 14. Parts of a root
//!
//! A server may hide parts of every root, or keep them read-only:
//! [`RootsBuilder::hide`](crate::RootsBuilder::hide) and
//! [`RootsBuilder::read_only`](crate::RootsBuilder::read_only) for its
//! policy, [`RootSetBuilder::hide`](crate::RootSetBuilder::hide) and
//! [`RootSetBuilder::read_only`](crate::RootSetBuilder::read_only) for a
//! fixed set. The patterns are gitignore's ([`Patterns`](crate::Patterns):
//! `**/.git/`, `.env`, `.env.*`, `*.pem`, `/secrets/`, `!keep.pem`),
//! parsed once (a pattern that does not parse is named), and come from the
//! server only: there are no rule files inside roots, which the model
//! could write to redraw its own boundary.
//!
//! - **Anchoring.** A pattern with a `/` at its start or in its middle is
//!   anchored; one without matches a name at any depth. The server's
//!   anchored patterns are relative to the ceiling directory that holds
//!   the root (the operator does not know the client's root URIs), or to
//!   each root when there is no ceiling; a set's own are relative to each
//!   of its roots. A client root that lies inside a hidden part of the
//!   ceiling grants nothing: it is in [`RootSet::rejected`] with `hidden`.
//!   A root inside a read-only part is read-only beneath.
//! - **What a pattern covers.** Everything beneath what it matches: every
//!   component of a path counts, from the top down, so a negation never
//!   re-includes anything beneath a hidden directory (`/secrets/` and
//!   `!keep.pem` hide `secrets/keep.pem`). A trailing `/` does not limit a
//!   pattern to directories (unlike git): a name is judged before it
//!   exists, and the answer must not depend on what is there. Names are
//!   compared as the root's volume compares them: case-insensitively on
//!   Windows, and insensitive to NFC/NFD too on macOS's default volumes.
//!   On Windows an 8.3 short name (`SECRE~1`) names the entry it
//!   abbreviates: a read is judged on the descriptor's final path, a
//!   change on the long name of the entry its last name reaches (only names
//!   holding a `~`, as every generated short name does, are looked up), and
//!   `create_dir_all` judges the directories it passes through by their
//!   long names. What Win32 would strip or read as a stream (`.env.`,
//!   `.env `, `.env::$DATA`) is `invalid_path` before any pattern is asked
//!   ([section 12](#12-windows)).
//! - **Hidden.** What a hide pattern matches does not exist for the
//!   client: it is never opened, created, removed, renamed into or out of,
//!   copied from or to; [`RootSet::read_dir`](crate::RootSet::read_dir) and
//!   [`RootSet::walk`](crate::RootSet::walk) leave it out (a walk counts it
//!   toward `max_entries`, never yields or enters it). A direct access is
//!   `hidden`; the error names the pattern ([`Error::pattern`](crate::Error::pattern)).
//! - **Read-only.** What a read-only pattern matches can be read and
//!   listed; every change (a write, create or truncate open, a remove, a
//!   directory created, either end of a rename, the destination of a copy)
//!   is `read_only`. A copy out of it is allowed; a move out of it changes
//!   it and is refused. Hidden wins over read-only; a read-only root stays
//!   read-only whatever its patterns.
//! - **What a rename carries along.** A rename moves everything beneath the
//!   name it renames, so either end is also refused (`hidden`, else
//!   `read_only`) when a path pattern can match something strictly beneath
//!   it through that end's own components: renaming `config` under
//!   `config/secret.json`, or moving a directory to `vault` under
//!   `/vault/keys/`. This is judged on the patterns alone (the same answer
//!   whatever is on disk) and over-approximates: a glob component other
//!   than `**` counts as any name, and from a `{…}` or `[…]` component on
//!   anything counts. Patterns that name one component at any depth
//!   (`.env`, `**/.git/`) refuse nothing here: what they match still
//!   matches after the move.
//! - **Judged on the object, not the string.** The path matched is the
//!   path beneath the root of what the operation reaches: after URI
//!   decoding (`%2Eenv` is `.env`), symlinks, `..` and a walk across roots
//!   (section 9: the landing root's patterns apply). The input's path is
//!   first judged as given, before the disk, with every component counted
//!   before a `..` is resolved (`secrets/../a` is hidden): a lexical check
//!   may refuse early, never allow, and gives the same answer whether the
//!   target exists or not. A read is then judged on its descriptor's path
//!   (the descriptor closed when that is hidden), except when an open with
//!   no symlink allowed succeeds on a path without `..`: then the path as
//!   given is the object's. A change is judged before its system call: the
//!   parent is opened and judged, then its physical path plus the plain
//!   last name, before anything is created, written, truncated, removed or
//!   renamed.
//! - **Refusals from the disk.** When the disk refuses a path that the
//!   resolution reached through a symlink or a `..` (`not_found`,
//!   `not_a_directory`, `symlink_loop`, …), the path is judged as if it
//!   existed: the deepest existing ancestor's physical path, joined with
//!   the remaining names as given, is matched (with the layers of section
//!   5), and a hidden one answers `hidden`. So `link/../secrets/missing`
//!   answers as `link/../secrets/there` does, for reads, metadata,
//!   listings and the parents of changes. A refusal of a path with no
//!   link and no `..` is the disk's: its lexical judgement already
//!   covered it.
//! - **Over time.** A tracked file whose path comes to be hidden (moved
//!   into a hidden directory on disk, or a `replace` with other patterns)
//!   is revoked on the next rescan or replace with `hidden`; one that
//!   writes and comes to lie in a read-only part, with `read_only`. A
//!   `replace` judges again the files under the roots it keeps when their
//!   patterns change.
//! - **Reporting.** [`Root::hides`](crate::Root::hides) and
//!   [`Root::protects`](crate::Root::protects) list the patterns that apply
//!   to a root, for a tool that tells the client what is shared.
//!
//! What patterns cannot do (SECURITY.md): a second hard link to a hidden
//! file is another path, and is not hidden
//! ([`HardLinks::RefuseWrites`](crate::HardLinks) refuses writes to any
//! file with more than one link); a link that does not resolve (dangling,
//! or a loop) is judged by its own name, so whoever planted it learns, by
//! the answer `hidden`, whether its target in a hidden part exists.
//!
//! # 15. Grants
//!
//! Beside the roots the client shares, the user may grant one file or one
//! directory by answering a question, beneath an area the operator names
//! ([`RootsBuilder::ask_within`](crate::RootsBuilder::ask_within)). A grant
//! is as hard as a root: it is a root, opened and pinned, judged by the
//! same rules.
//!
//! - **The area.** Each `ask_within` directory is admitted as a client
//!   root is (section 8): judged lexically, then opened beneath the
//!   ceiling directory that holds it, with the policy's hardening and
//!   patterns. When the ceiling names a directory, an area directory
//!   outside it grants nothing (`outside_ceiling`, in
//!   [`Roots::ask_area`](crate::Roots::ask_area)'s `rejected()`), one above
//!   ceiling directories is clipped to them, and one at or beneath a
//!   read-only ceiling directory can grant reading only. When it names
//!   none (no ceiling, or an empty one), the area is the operator's limit
//!   and the ceiling is empty: no client root is served, nothing at all
//!   is until the user grants it. Nothing in the area is served before a
//!   grant. [`confine_process`](crate::confine_process) confines the
//!   process to the ceiling and the area, from the start.
//! - **The question, judged first.** [`Snapshot::may_ask`](crate::Snapshot::may_ask)
//!   says, before anything is asked, whether a path may be asked about for
//!   reading ([`GrantAccess::Read`](crate::GrantAccess)) or for changing
//!   (`Change`): `outside_roots` past the area (the same answer whatever
//!   lies there); `hidden` for a hidden part, judged as every access is
//!   (the path as given before the disk, then the physical path reached,
//!   and a refusal from the disk after a link or a `..` judged on the
//!   deepest existing ancestor, section 14), so the answer never tells
//!   whether anything exists in a hidden part; `read_only` for `Change`
//!   where a read-only pattern, a read-only ceiling directory or a
//!   read-only policy covers the path (a question cannot lift it);
//!   `not_found` when neither the path nor its folder exists, or it is a
//!   dangling symlink; `not_a_regular_file` for a FIFO, socket or device.
//!   Otherwise the answer ([`AskAbout`](crate::AskAbout)) names the
//!   physical path (links and `..` resolved: two spellings of one file
//!   give equal answers, so a server remembers a "no" by it) and what the
//!   grant covers: the directory named, or the file (an existing one, or a
//!   new name in an existing folder, for a tool that creates it).
//! - **The grant, judged again.** The user's yes is handed back
//!   ([`Roots::grant`](crate::Roots::grant), [`Snapshot::with_grant`](crate::Snapshot::with_grant)):
//!   the grant is opened beneath its area directory (a link inside the
//!   area that leads out of it cannot carry it out) and refused
//!   (`not_found`) when the path no longer names what was asked about.
//! - **A directory grant** is a root at that directory: everything beneath
//!   it, nothing beside or above. `..` and links that leave it are
//!   `outside_roots` (section 4; section 9 applies across the set's roots
//!   as for any root); the directory itself is never removed or renamed
//!   through it. Its patterns are the server's, anchored as for a client
//!   root at its place (at the ceiling directory holding it, or at the area
//!   directory without a ceiling); the read-only and patterned directories
//!   served inside it give it their layers (section 5). Writable (`Change`)
//!   allows every change inside it: create, write, remove and rename.
//! - **A file grant** is its folder, pinned (identity: the folder and the
//!   name), of which one name alone is reachable. A set chooses it for
//!   that path only: any other name of the folder, and the folder itself,
//!   is `outside_roots` as before; a path that goes through the name to
//!   anything else (`f.txt/../g.txt`, a name beneath it) or an object
//!   reached by another name (the file replaced by a link) is `hidden`.
//!   A link elsewhere never lands in a file grant (a safe refusal).
//!   Writable (`Change`) allows writing the file, truncating it,
//!   replacing its content by an atomic write onto its name, and creating
//!   it when it was granted as a new name; never removing it, renaming it
//!   (either end) or making a folder at its name (`read_only`). A file
//!   moved or renamed away on disk is no longer the grant: its open
//!   handles are revoked by the next rescan (the watcher watches the
//!   folder), and a file put back at the name is reachable.
//! - **The strictest answer wins.** A grant is never past the ceiling,
//!   never covers a hidden part, and never lifts a read-only rule: a
//!   read-only directory or pattern inside a writable grant stays
//!   read-only; a grant inside a client root that is read-only is judged
//!   by that root (the outermost root chooses the handle, section 5).
//!   A read grant (`Read`) refuses every change (`read_only`), also inside
//!   a writable client root it holds (the grant, outermost, judges). A directory
//!   grant served read-only inside a writable root makes that part of the
//!   root read-only, as any read-only served directory does; a file grant
//!   adds nothing to the roots around it.
//! - **For the session.** [`Roots::grant`](crate::Roots::grant) adds a
//!   grant to a layer of its own in the `Roots`: every set installed is
//!   the client's list ∪ the grants, so a new list (`roots/list_changed`)
//!   keeps them. A grant does not count as the client having shared a
//!   folder ([`Roots::has_shared`](crate::Roots::has_shared)). A grant
//!   of what a grant already covers (the same physical path and kind) is
//!   that grant, unless it asks to change what the other lets read: then
//!   it replaces it (for one call, over the session's). It is
//!   installed as a new set, with everything that applies to a root: the
//!   watcher watches it, its identity is verified on every rescan, a
//!   snapshot taken before its end gets `scope_lost` beneath it (section
//!   13), and [`Roots::end_grant`](crate::Roots::end_grant) settles its
//!   files as a removed root's: revoked (`scope_lost`) unless another root
//!   of the set holds them, before it returns. A read that begins after
//!   `end_grant` returned never returns data.
//! - **For one call.** [`Snapshot::with_grant`](crate::Snapshot::with_grant)
//!   makes a snapshot of its own with the grant added, never installed:
//!   no other request sees it. It lasts as long as that snapshot and no
//!   longer than the installed set: after a `replace`, a `rescan` or a
//!   session grant, operations beneath it are `scope_lost`, and files
//!   opened through it are revoked at that change.
//!
//! [`RootSet::root`]: crate::RootSet::root
//! [`RootSet::root_named`]: crate::RootSet::root_named
//! [`RootSet::rejected`]: crate::RootSet::rejected
