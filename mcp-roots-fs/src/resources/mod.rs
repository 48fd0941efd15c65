//! Files as resources, as the original 2.3.0 serves them: one template,
//! `file://{+path}`, no list (the server never enumerates the disk), and
//! `resources/read` judged exactly as the tools are: the URI is the
//! library's to parse (its strict `file:` parser) and to judge (hidden
//! parts, nested layers, outside the roots), through the glue's
//! [`serve_resource`](mcp_roots_rmcp::SessionRoots::serve_resource), which
//! brings the session's roots, or on 2026-07-28 this request's (asked for
//! with an input request). The read is bounded by `--max-answer-bytes`
//! as the tools' whole-file reads are ([`bounded`](crate::tools::bounded)).
//! With `--ask-within`, a URI outside the shared folders is asked about
//! as a tool's path is (the question names `resources/read`).
//!
//! Refusals are JSON-RPC errors (`-32602`, the URI in `data` beside our
//! reason; `-32603` when the disk failed), with this project's sentences.

mod contents;

use mcp_roots::{Error, ErrorKind, Operation, Snapshot};
use mcp_roots_rmcp::{Needs, ResourceRead, Revision, Stop};
use rmcp::model::{
    CacheScope, Implementation, ListResourceTemplatesResult, ListResourcesResult, MetaObject,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, ResourceTemplate,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

use self::contents::Contents;
use crate::context::Context;
use crate::tools::bounded::{media_fits_once, read_at_most, text_fits_once};

/// The one template (RFC 6570 reserved expansion: `path` keeps its `/`).
pub(crate) const TEMPLATE: &str = "file://{+path}";

/// The template's description, the original's.
const DESCRIPTION: &str = "A file inside the allowed directories, by its absolute file:// URI \
     (for example file:///home/user/project/README.md). Text files are returned as text, other \
     files as a base64 blob with their MIME type. Directories are not resources; use the \
     list_directory tool to find files.";

/// The `_meta` key of the server's identity on 2026-07-28 results.
const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// What `resources/templates/list` answers on the revision of `context`.
pub(crate) fn templates(
    server: &Implementation,
    context: &RequestContext<RoleServer>,
) -> ListResourceTemplatesResult {
    let template = ResourceTemplate::new(TEMPLATE, "file")
        .with_title("File")
        .with_description(DESCRIPTION);
    let mut result = ListResourceTemplatesResult::with_all_items(vec![template]);
    if let Some(meta) = rounds_meta(server, context) {
        result = result.with_ttl_ms(0).with_cache_scope(CacheScope::Private);
        result.meta = Some(meta);
    }
    result
}

/// What `resources/list` answers: nothing (the server never enumerates
/// the disk; a client builds a URI from the template).
pub(crate) fn list(
    server: &Implementation,
    context: &RequestContext<RoleServer>,
) -> ListResourcesResult {
    let mut result = ListResourcesResult::with_all_items(Vec::new());
    if let Some(meta) = rounds_meta(server, context) {
        result = result.with_ttl_ms(0).with_cache_scope(CacheScope::Private);
        result.meta = Some(meta);
    }
    result
}

/// Serves one `resources/read` over the session's [`Context`].
///
/// # Errors
///
/// The read's refusal (see the module docs).
pub(crate) async fn read_resource(
    cx: &Context,
    server: &Implementation,
    request: ReadResourceRequestParams,
    context: &RequestContext<RoleServer>,
) -> Result<ReadResourceResponse, ErrorData> {
    let meta = rounds_meta(server, context);
    let read = ResourceRead::new(request, context);
    let uri = read.uri().to_owned();
    let max_answer = cx.max_answer;
    // With an area to ask about (`--ask-within`), a file URI outside the
    // shared folders is asked about as a tool's path is.
    let needs = if cx.asks && is_file_uri(&uri) {
        Needs::new().read(uri.clone())
    } else {
        Needs::new()
    };
    let response = cx
        .roots
        .serve_resource_needing(read, needs, move |snap| read_file(snap, max_answer, &uri))
        .await?;
    Ok(match (response, meta) {
        (ReadResourceResponse::Complete(mut result), Some(meta)) => {
            // A file can change at any time, and its contents are this
            // user's.
            result.ttl_ms = Some(0);
            result.cache_scope = Some(CacheScope::Private);
            result.meta = Some(meta);
            result.into()
        }
        (response, _) => response,
    })
}

/// Whether `uri` is a `file:` URI (a raw path, which the library would
/// also take, is not a resource's name).
fn is_file_uri(uri: &str) -> bool {
    uri.get(..5)
        .is_some_and(|s| s.eq_ignore_ascii_case("file:"))
}

/// The body of a read: the file `uri` names as one resource's contents,
/// over one snapshot of the roots (callable without a request).
pub(crate) fn read_file(
    snap: &Snapshot<'_>,
    max_answer: u64,
    uri: &str,
) -> Result<ReadResourceResult, Stop> {
    if !is_file_uri(uri) {
        let err = Error::new(ErrorKind::InvalidUri, Operation::Open, uri)
            .with_detail("a resource is named by a file: URI");
        return Err(err.into());
    }
    // Opened by the URI, so that a refusal names it; a directory, like any
    // file that is not regular, is the library's `not_a_regular_file`.
    let file = snap.open(uri)?;
    // The name the type is read from: where the URI leads, after links.
    let scoped = snap.resolve(uri)?;
    let Some(bytes) = read_at_most(file, max_answer)? else {
        return Err(too_large(uri, max_answer));
    };
    let contents = Contents::of(scoped.rel(), bytes);
    let fits = match &contents {
        Contents::Text { text, .. } => text_fits_once(text, max_answer),
        Contents::Blob { bytes, .. } => media_fits_once(bytes.len() as u64, max_answer),
    };
    if !fits {
        return Err(too_large(uri, max_answer));
    }
    Ok(ReadResourceResult::new(vec![contents.into_resource(uri)]))
}

/// The refusal of a file whose contents would not fit `bound`.
fn too_large(uri: &str, bound: u64) -> Stop {
    Stop::refused(
        "too_large",
        format!(
            "{uri} is too large to read whole: the answer would exceed {bound} bytes \
             (--max-answer-bytes); read a part of it with the read_text_file tool's head or tail"
        ),
    )
}

/// The `_meta` of a result on 2026-07-28 (the server's identity, as the
/// original sends it); `None` on the session revisions.
fn rounds_meta(
    server: &Implementation,
    context: &RequestContext<RoleServer>,
) -> Option<MetaObject> {
    if Revision::of(context.protocol_version().as_ref()) != Revision::Rounds {
        return None;
    }
    let identity = serde_json::json!({ "name": server.name, "version": server.version });
    let mut meta = MetaObject::new();
    meta.0.insert(SERVER_INFO.to_owned(), identity);
    Some(meta)
}
