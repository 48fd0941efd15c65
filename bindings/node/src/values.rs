//! Plain objects handed to JavaScript.

use napi_derive::napi;

fn file_type(t: mcp_roots::FileType) -> String {
    match t {
        mcp_roots::FileType::File => "file",
        mcp_roots::FileType::Dir => "dir",
        mcp_roots::FileType::Symlink => "symlink",
        _ => "other",
    }
    .into()
}

/// A directory entry.
#[napi(object)]
pub struct DirEntry {
    /// The entry's name (lossy UTF-8).
    pub name: String,
    /// `"file"`, `"dir"`, `"symlink"` or `"other"`.
    #[napi(js_name = "type")]
    pub kind: String,
}

impl DirEntry {
    pub(crate) fn new(e: &mcp_roots::DirEntry) -> Self {
        Self {
            name: e.name().to_string_lossy().into_owned(),
            kind: file_type(e.file_type()),
        }
    }
}

/// A path resolved beneath its root.
#[napi(object)]
pub struct ResolvedPath {
    /// Relative to the root, `/`-separated (`""` for the root).
    pub rel: String,
    /// A `file://` URI built from the root as the client gave it.
    pub uri: String,
}

impl ResolvedPath {
    pub(crate) fn new(p: &mcp_roots::ScopedPath) -> Self {
        Self {
            rel: p.rel().to_owned(),
            uri: p.to_uri(),
        }
    }
}

/// One entry of a walk.
#[napi(object)]
pub struct WalkEntry {
    pub rel: String,
    pub uri: String,
    #[napi(js_name = "type")]
    pub kind: String,
    pub depth: u32,
}

/// A bounded walk: entries, errors met (payloads of the JavaScript layer),
/// and whether the limit cut it short.
#[napi(object)]
pub struct WalkResult {
    pub entries: Vec<WalkEntry>,
    pub errors: Vec<String>,
    pub truncated: bool,
}

impl WalkResult {
    pub(crate) fn collect(mut walk: mcp_roots::Walk) -> Self {
        let mut entries = Vec::new();
        let mut errors = Vec::new();
        for item in walk.by_ref() {
            match item {
                Ok(e) => entries.push(WalkEntry {
                    rel: e.path().rel().to_owned(),
                    uri: e.path().to_uri(),
                    kind: file_type(e.file_type()),
                    depth: u32::try_from(e.depth()).unwrap_or(u32::MAX),
                }),
                Err(err) => errors.push(crate::errors::payload(&err)),
            }
        }
        Self {
            entries,
            errors,
            truncated: walk.is_truncated(),
        }
    }
}

/// The largest limit: what a JavaScript number holds exactly.
const MAX_LIMIT: f64 = 9_007_199_254_740_991.0;

/// Walk limits as given, never wrapped: each an integer from 0 to
/// `Number.MAX_SAFE_INTEGER` (the JavaScript layer throws a `RangeError`
/// before this refusal can be reached).
pub(crate) fn walk_limits(max_depth: f64, max_entries: f64) -> napi::Result<mcp_roots::WalkLimits> {
    let limit = |what: &str, v: f64| {
        if v.is_finite() && v >= 0.0 && v.fract() == 0.0 && v <= MAX_LIMIT {
            Ok(v as usize)
        } else {
            let range = format!("an integer >= 0 and <= {MAX_LIMIT}");
            Err(napi::Error::new(
                napi::Status::InvalidArg,
                format!(
                    "The value of \"{what}\" is out of range. It must be {range}. Received {v}"
                ),
            ))
        }
    };
    Ok(mcp_roots::WalkLimits::new(
        limit("maxDepth", max_depth)?,
        limit("maxEntries", max_entries)?,
    ))
}

/// Metadata of a file or directory.
#[napi(object)]
pub struct Stat {
    /// `"file"`, `"dir"` or `"other"`.
    #[napi(js_name = "type")]
    pub kind: String,
    pub size: f64,
    /// Milliseconds since the Unix epoch (as `fs.Stats.mtimeMs`).
    pub mtime_ms: Option<f64>,
    pub readonly: bool,
}

impl Stat {
    pub(crate) fn new(m: &std::fs::Metadata) -> Self {
        let t = m.file_type();
        let kind = if t.is_file() {
            "file"
        } else if t.is_dir() {
            "dir"
        } else {
            "other"
        };
        Self {
            kind: kind.into(),
            size: m.len() as f64,
            mtime_ms: m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map(|d| d.as_secs_f64() * 1000.0),
            readonly: m.permissions().readonly(),
        }
    }
}

/// A client root the policy refused.
#[napi(object)]
pub struct Rejected {
    pub uri: String,
    pub name: Option<String>,
    pub reason: String,
    /// The refusal (a payload the JavaScript layer makes an error of).
    pub error: String,
}

impl Rejected {
    pub(crate) fn new(r: &mcp_roots::Rejected) -> Self {
        let error = mcp_roots::Error::new(r.kind(), r.error().operation(), r.uri());
        let error = match r.error().detail() {
            Some(d) => error.with_detail(d),
            None => error,
        };
        Self {
            uri: r.uri().to_owned(),
            name: r.name().map(Into::into),
            reason: r.reason().to_owned(),
            error: crate::errors::payload(&error),
        }
    }
}

/// A file revoked by a replace or rescan.
#[napi(object)]
pub struct Revoked {
    pub path: String,
    pub reason: String,
}

/// What a replace or rescan did.
#[napi(object)]
pub struct Report {
    pub generation: f64,
    pub rejected: Vec<Rejected>,
    pub revoked: Vec<Revoked>,
    pub kept: u32,
}

/// A client root: its URI (or absolute path) and name.
#[napi(object)]
pub struct RootArg {
    pub uri: String,
    pub name: Option<String>,
}

/// The server's policy (see `Roots` in the README).
#[napi(object)]
#[derive(Default)]
pub struct Policy {
    pub ceiling: Option<Vec<String>>,
    pub read_only_ceiling: Option<Vec<String>>,
    /// `"allow"` (default) or `"refuse"`.
    pub writes: Option<String>,
    /// `"deny_all"` (default) or `"ceiling"`.
    pub empty_roots: Option<String>,
    /// `"follow_beneath"` (default) or `"refuse"`.
    pub symlinks: Option<String>,
    /// `"cross"` (default) or `"refuse"`.
    pub mount_points: Option<String>,
    /// `"allow"` (default) or `"refuse_writes"`.
    pub hard_links: Option<String>,
    /// Gitignore-style patterns of what the policy hides in every root.
    pub hide: Option<Vec<String>>,
    /// Gitignore-style patterns of what the policy keeps read-only.
    pub read_only_patterns: Option<Vec<String>>,
    /// The directories beneath which the user may grant a file or a
    /// directory (`roots.mayAsk`, `roots.grant`); with no `ceiling`,
    /// nothing is served until granted.
    pub ask_within: Option<Vec<String>>,
}

/// A fixed set's own patterns (see `RootSet` in the README).
#[napi(object)]
#[derive(Default)]
pub struct SetOptions {
    /// Gitignore-style patterns of what is hidden in every root.
    pub hide: Option<Vec<String>>,
    /// Gitignore-style patterns of what is kept read-only.
    pub read_only_patterns: Option<Vec<String>>,
}

/// A root as installed, with what the policy hides and protects in it.
#[napi(object)]
pub struct RootInfo {
    /// The URI as the client gave it.
    pub uri: String,
    /// The client's name for it, or null.
    pub name: Option<String>,
    /// Whether the whole root is read-only.
    pub read_only: bool,
    /// The patterns of what is hidden in it, in order.
    pub hides: Vec<String>,
    /// The patterns of what is kept read-only in it, in order.
    pub protects: Vec<String>,
    /// For a grant: `"file"` or `"directory"`; null for a client root.
    pub grant: Option<String>,
}

impl RootInfo {
    pub(crate) fn new(root: &std::sync::Arc<mcp_roots::Root>) -> Self {
        let owned = |v: Vec<&str>| v.into_iter().map(str::to_owned).collect();
        Self {
            uri: root.uri().to_owned(),
            name: root.name().map(str::to_owned),
            read_only: root.writes() == mcp_roots::Writes::Refuse,
            hides: owned(root.hides()),
            protects: owned(root.protects()),
            grant: root.grant().map(|k| k.as_str().to_owned()),
        }
    }
}
