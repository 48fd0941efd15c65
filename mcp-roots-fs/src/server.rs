//! The server: one [`FsServer`] per session and the 16 tools'
//! registrations, nothing more (each tool's work is in `tools/`, over the
//! session's [`Context`]; what they advertise is 2.3.0's, in
//! `original::schemas` and `original::reply`). `tools/list` gives them in
//! the original's order ([`ORDER`]), and under `--read-only` withholds
//! the tools that change files, as 2.3.0 does.

use mcp_roots_rmcp::{Needs, Progress, Rounds, SessionRoots, ToolCall};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CacheScope, CallToolResponse, Implementation, JsonObject, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, MetaObject, PaginatedRequestParams, ProtocolVersion,
    ReadResourceRequestParams, ReadResourceResponse, ResultType, ServerCapabilities, ServerConfig,
    Tool,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler, tool, tool_handler, tool_router};

use crate::config::Config;
use crate::context::Context;
use crate::original::reply::{self, Shape};
use crate::original::schemas;
use crate::resources;
use crate::tools::args::Declares;
use crate::tools::{self, args};

/// One session's server (stdio: one per process; HTTP: one per session).
#[derive(Clone)]
pub(crate) struct FsServer {
    cx: Context,
    tool_router: ToolRouter<Self>,
    /// `--read-only`: `tools/list` leaves out every tool whose
    /// `readOnlyHint` is not `true`. A call to one that arrives anyway is
    /// still served, and refused `read_only` by the roots' policy.
    withhold_writes: bool,
}

/// The tools in the original's registration order (2.3.0's `tools/list`);
/// rmcp's router would list them by name.
pub(crate) const ORDER: [&str; 16] = [
    "read_file",
    "read_text_file",
    "read_media_file",
    "read_multiple_files",
    "write_file",
    "append_file",
    "edit_file",
    "create_directory",
    "list_directory",
    "list_directory_with_sizes",
    "directory_tree",
    "move_file",
    "copy_file",
    "search_files",
    "get_file_info",
    "list_allowed_directories",
];

impl std::fmt::Debug for FsServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FsServer")
            .field("bounds", &self.cx.bounds)
            .field("confirm", &self.cx.confirm)
            .finish_non_exhaustive()
    }
}

impl FsServer {
    /// A session's server: its roots built from `config`, its 2026-07-28
    /// request states sealed and kept by `rounds` (the process's).
    pub(crate) fn new(config: &Config, rounds: Rounds) -> Self {
        Self {
            cx: Context {
                roots: SessionRoots::new(config.policy()).with_rounds(rounds),
                bounds: config.bounds,
                max_answer: config.max_answer,
                confirm: config.confirm,
                asks: !config.ask_within.is_empty(),
            },
            tool_router: Self::tool_router(),
            withhold_writes: config.read_only,
        }
    }

    /// The tools `tools/list` shows: every registered one in [`ORDER`]
    /// (one missing from it, last, by name), less the ones that change
    /// files under `--read-only`.
    fn listed(&self) -> Vec<Tool> {
        let mut tools: Vec<Tool> = self
            .tool_router
            .list_all()
            .into_iter()
            .filter(|tool| {
                !self.withhold_writes
                    || tool
                        .annotations
                        .as_ref()
                        .and_then(|a| a.read_only_hint)
                        .unwrap_or(false)
            })
            .collect();
        let rank = |tool: &Tool| {
            ORDER
                .iter()
                .position(|name| *name == tool.name)
                .unwrap_or(ORDER.len())
        };
        tools.sort_by(|a, b| rank(a).cmp(&rank(b)).then_with(|| a.name.cmp(&b.name)));
        tools
    }

    /// The server of a process that serves one client (stdio): the
    /// session's memory is the process's, so a client that declares roots
    /// but has none open is served the directories on every protocol
    /// revision, and files opened under roots a later request drops are
    /// revoked (see `SessionRoots::with_process_session`).
    ///
    /// Like 2.3.0, it prints the directories in force on stderr on every
    /// replacement of the client's roots (`Effective allowed directories
    /// (…):`).
    pub(crate) fn for_stdio(mut self) -> Self {
        let asks = self.cx.asks;
        self.cx.roots =
            self.cx
                .roots
                .with_process_session()
                .on_installed(move |set, from_client| {
                    eprintln!(
                        "{}",
                        crate::config::effective_after_change(set, from_client, asks)
                    );
                });
        self
    }
}

// Titles, descriptions, annotations and schemas are 2.3.0's (`tests/schemas.rs`
// compares them with its `tools/list`; the differences kept are listed there).
#[tool_router]
impl FsServer {
    #[tool(
        title = "Read File (Deprecated)",
        description = "Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.",
        input_schema = schemas::read_text_file(),
        output_schema = reply::text_schema(),
        annotations(read_only_hint = true, idempotent_hint = true, destructive_hint = false, open_world_hint = false)
    )]
    async fn read_file(
        &self,
        call: ToolCall,
        Parameters(args): Parameters<args::ReadTextFile>,
    ) -> CallToolResponse {
        let max_answer = self.cx.max_answer;
        reply::fitted(
            Shape::Text,
            tools::blocking(&self.cx, call, Declares::needs, args, move |snap, args| {
                tools::read_text_file::read(snap, max_answer, args)
            })
            .await,
        )
    }

    #[tool(
        title = "Read Text File",
        description = "Read the complete contents of a file from the file system as text. Handles various text encodings and provides detailed error messages if the file cannot be read. Use this tool when you need to examine the contents of a single file. Use the 'head' parameter to read only the first N lines of a file, or the 'tail' parameter to read only the last N lines of a file. Operates on the file as text regardless of extension. Only works within allowed directories.",
        input_schema = schemas::read_text_file(),
        output_schema = reply::text_schema(),
        annotations(read_only_hint = true, idempotent_hint = true, destructive_hint = false, open_world_hint = false)
    )]
    async fn read_text_file(
        &self,
        call: ToolCall,
        Parameters(args): Parameters<args::ReadTextFile>,
    ) -> CallToolResponse {
        let max_answer = self.cx.max_answer;
        reply::fitted(
            Shape::Text,
            tools::blocking(&self.cx, call, Declares::needs, args, move |snap, args| {
                tools::read_text_file::read(snap, max_answer, args)
            })
            .await,
        )
    }

    #[tool(
        title = "Read Media File",
        description = "Read a file and return it as a base64-encoded content block with its MIME type. Image and audio files are returned as image/audio content; any other file type is returned as an embedded resource. Only works within allowed directories.",
        input_schema = schemas::read_media_file(),
        output_schema = reply::media_schema(),
        annotations(read_only_hint = true, idempotent_hint = true, destructive_hint = false, open_world_hint = false)
    )]
    async fn read_media_file(
        &self,
        call: ToolCall,
        Parameters(args): Parameters<args::PathOnly>,
    ) -> CallToolResponse {
        let max_answer = self.cx.max_answer;
        reply::fitted(
            Shape::Media,
            tools::blocking(&self.cx, call, Declares::needs, args, move |snap, args| {
                tools::read_media_file::read(snap, max_answer, args)
            })
            .await,
        )
    }

    #[tool(
        title = "Read Multiple Files",
        description = "Read the contents of multiple files simultaneously. This is more efficient than reading files one by one when you need to analyze or compare multiple files. Each file's content is returned with its path as a reference. Failed reads for individual files won't stop the entire operation. Only works within allowed directories.",
        input_schema = schemas::read_multiple_files(),
        output_schema = reply::text_schema(),
        annotations(read_only_hint = true, idempotent_hint = true, destructive_hint = false, open_world_hint = false)
    )]
    async fn read_multiple_files(
        &self,
        call: ToolCall,
        Parameters(args): Parameters<args::ReadMultipleFiles>,
    ) -> CallToolResponse {
        reply::fitted(
            Shape::Text,
            tools::blocking(
                &self.cx,
                call,
                Declares::needs,
                args,
                tools::read_multiple_files::read,
            )
            .await,
        )
    }

    #[tool(
        title = "Write File",
        description = "Create a new file or completely overwrite an existing file with new content. Use with caution as it will overwrite existing files without warning. Handles text content with proper encoding. Only works within allowed directories.",
        input_schema = schemas::write_file(),
        output_schema = reply::text_schema(),
        annotations(read_only_hint = false, idempotent_hint = true, destructive_hint = true, open_world_hint = false)
    )]
    async fn write_file(
        &self,
        call: ToolCall,
        Parameters(args): Parameters<args::WriteFile>,
    ) -> CallToolResponse {
        reply::fitted(
            Shape::Text,
            tools::write_file::run(&self.cx, call, args).await,
        )
    }

    #[tool(
        title = "Append File",
        description = "Append text to the end of a file, creating the file if it does not exist. The existing content is never changed or replaced. The text is appended exactly as given, with no newline added before or after it, so end it with a newline if the next append should start on a new line. Only works within allowed directories.",
        input_schema = schemas::append_file(),
        output_schema = reply::text_schema(),
        annotations(read_only_hint = false, idempotent_hint = false, destructive_hint = false, open_world_hint = false)
    )]
    async fn append_file(
        &self,
        call: ToolCall,
        Parameters(args): Parameters<args::AppendFile>,
    ) -> CallToolResponse {
        reply::fitted(
            Shape::Text,
            tools::append_file::run(&self.cx, call, args).await,
        )
    }

    #[tool(
        title = "Edit File",
        description = "Make line-based edits to a text file. Edits apply in order, each to the result of the ones before it, and each replaces the first match of its oldText with newText. oldText must match the file's text exactly, except that line endings (LF or CRLF) never matter and, when there is no exact match, a run of whole lines matches if each line is equal once leading and trailing whitespace is ignored (newText then takes the file's indentation). Whitespace inside a line must match. If any edit has no match, nothing is written and the error shows the closest lines of the file, numbered, to copy oldText from. Returns a git-style diff showing the changes made. Only works within allowed directories.",
        input_schema = schemas::edit_file(),
        output_schema = reply::text_schema(),
        annotations(read_only_hint = false, idempotent_hint = false, destructive_hint = true, open_world_hint = false)
    )]
    async fn edit_file(
        &self,
        call: ToolCall,
        Parameters(args): Parameters<args::EditFile>,
    ) -> CallToolResponse {
        reply::fitted(
            Shape::Text,
            tools::edit_file::run(&self.cx, call, args).await,
        )
    }

    #[tool(
        title = "Create Directory",
        description = "Create a new directory or ensure a directory exists. Can create multiple nested directories in one operation. If the directory already exists, this operation will succeed silently. Perfect for setting up directory structures for projects or ensuring required paths exist. Only works within allowed directories.",
        input_schema = schemas::create_directory(),
        output_schema = reply::text_schema(),
        annotations(read_only_hint = false, idempotent_hint = true, destructive_hint = false, open_world_hint = false)
    )]
    async fn create_directory(
        &self,
        call: ToolCall,
        Parameters(args): Parameters<args::PathOnly>,
    ) -> CallToolResponse {
        reply::fitted(
            Shape::Text,
            tools::inline(
                &self.cx,
                call,
                args::PathOnly::changed,
                args,
                tools::create_directory::create,
            )
            .await,
        )
    }

    #[tool(
        title = "List Directory",
        description = "List the files and directories directly inside a path, each marked [FILE] or [DIR]. Use it to see what a directory contains; when you also need each entry's size or want entries sorted by size, use list_directory_with_sizes instead, and for a recursive view use directory_tree. Returns one line per entry. Only works within allowed directories.",
        input_schema = schemas::list_directory(),
        output_schema = reply::text_schema(),
        annotations(read_only_hint = true, idempotent_hint = true, destructive_hint = false, open_world_hint = false)
    )]
    async fn list_directory(
        &self,
        call: ToolCall,
        progress: Progress,
        Parameters(args): Parameters<args::PathOnly>,
    ) -> CallToolResponse {
        reply::fitted(
            Shape::Text,
            tools::walking(
                &self.cx,
                call,
                Declares::needs,
                progress,
                args,
                tools::list_directory::list,
            )
            .await,
        )
    }

    #[tool(
        title = "List Directory with Sizes",
        description = "List the files and directories directly inside a path with each file's size, marked [FILE] or [DIR], sorted by name or by size, largest first (sortBy). Use it when sizes matter, such as finding the largest files; for names only, use list_directory, which returns less text. Returns one line per entry, followed by the totals. Only works within allowed directories.",
        input_schema = schemas::list_directory_with_sizes(),
        output_schema = reply::text_schema(),
        annotations(read_only_hint = true, idempotent_hint = true, destructive_hint = false, open_world_hint = false)
    )]
    async fn list_directory_with_sizes(
        &self,
        call: ToolCall,
        progress: Progress,
        Parameters(args): Parameters<args::ListWithSizes>,
    ) -> CallToolResponse {
        reply::fitted(
            Shape::Text,
            tools::walking(
                &self.cx,
                call,
                Declares::needs,
                progress,
                args,
                tools::list_directory_with_sizes::list,
            )
            .await,
        )
    }

    #[tool(
        title = "Directory Tree",
        description = "Get a recursive tree view of files and directories as a JSON structure. Each entry includes 'name', 'type' (file/directory), and 'children' for directories. Files have no children array, while directories always have a children array (which may be empty), except at the last level when 'depth' limits the tree: those directories are not read and have no children array. The output is formatted with 2-space indentation for readability. Only works within allowed directories.",
        input_schema = schemas::directory_tree(),
        output_schema = reply::text_schema(),
        annotations(read_only_hint = true, idempotent_hint = true, destructive_hint = false, open_world_hint = false)
    )]
    async fn directory_tree(
        &self,
        call: ToolCall,
        progress: Progress,
        Parameters(args): Parameters<args::DirectoryTree>,
    ) -> CallToolResponse {
        reply::fitted(
            Shape::Text,
            tools::walking(
                &self.cx,
                call,
                Declares::needs,
                progress,
                args,
                tools::directory_tree::tree,
            )
            .await,
        )
    }

    #[tool(
        title = "Move File",
        description = "Move or rename files and directories. Can move files between directories and rename them in a single operation. If the destination exists, the operation will fail. Works across different directories and can be used for simple renaming within the same directory. Both source and destination must be within allowed directories.",
        input_schema = schemas::move_file(),
        output_schema = reply::text_schema(),
        annotations(read_only_hint = false, idempotent_hint = false, destructive_hint = true, open_world_hint = false)
    )]
    async fn move_file(
        &self,
        call: ToolCall,
        Parameters(args): Parameters<args::MoveFile>,
    ) -> CallToolResponse {
        reply::fitted(
            Shape::Text,
            tools::move_file::run(&self.cx, call, args).await,
        )
    }

    #[tool(
        title = "Copy File",
        description = "Copy a file to a new location, without reading its content into the conversation. Copies one regular file, keeping its permissions and modification time; directories are not copied. If the destination exists, the operation will fail: it never overwrites. Both source and destination must be within allowed directories.",
        input_schema = schemas::copy_file(),
        output_schema = reply::text_schema(),
        annotations(read_only_hint = false, idempotent_hint = true, destructive_hint = false, open_world_hint = false)
    )]
    async fn copy_file(
        &self,
        call: ToolCall,
        Parameters(args): Parameters<args::CopyFile>,
    ) -> CallToolResponse {
        reply::fitted(
            Shape::Text,
            tools::blocking(
                &self.cx,
                call,
                Declares::needs,
                args,
                tools::copy_file::copy,
            )
            .await,
        )
    }

    #[tool(
        title = "Search Files",
        description = "Find files and directories by NAME, not by content: this tool never reads or searches inside files. It walks the tree under 'path' and matches a glob pattern against each entry's path relative to 'path' (case-sensitive). Use '*.ext' to match entries directly under 'path', and '**/*.ext' or '**/name' to match at any depth. Returns full paths to all matching items. Great for finding files when you don't know their exact location. Only searches within allowed directories.",
        input_schema = schemas::search_files(),
        output_schema = reply::text_schema(),
        annotations(read_only_hint = true, idempotent_hint = true, destructive_hint = false, open_world_hint = false)
    )]
    async fn search_files(
        &self,
        call: ToolCall,
        progress: Progress,
        Parameters(args): Parameters<args::SearchFiles>,
    ) -> CallToolResponse {
        reply::fitted(
            Shape::Text,
            tools::walking(
                &self.cx,
                call,
                Declares::needs,
                progress,
                args,
                tools::search_files::search,
            )
            .await,
        )
    }

    #[tool(
        title = "Get File Info",
        description = "Retrieve detailed metadata about a file or directory. Returns comprehensive information including size, creation time, last modified time, permissions, type and hard-link count. This tool is perfect for understanding file characteristics without reading the actual content. Only works within allowed directories.",
        input_schema = schemas::get_file_info(),
        output_schema = reply::text_schema(),
        annotations(read_only_hint = true, idempotent_hint = true, destructive_hint = false, open_world_hint = false)
    )]
    async fn get_file_info(
        &self,
        call: ToolCall,
        Parameters(args): Parameters<args::PathOnly>,
    ) -> CallToolResponse {
        reply::fitted(
            Shape::Text,
            tools::inline(
                &self.cx,
                call,
                Declares::needs,
                args,
                tools::get_file_info::info,
            )
            .await,
        )
    }

    #[tool(
        title = "List Allowed Directories",
        description = "Returns the list of directories that this server is allowed to access. Subdirectories within these allowed directories are also accessible. Use this to understand which directories and their nested paths are available before trying to access files.",
        input_schema = schemas::none(),
        output_schema = reply::text_schema(),
        annotations(read_only_hint = true, idempotent_hint = true, destructive_hint = false, open_world_hint = false)
    )]
    async fn list_allowed_directories(&self, call: ToolCall) -> CallToolResponse {
        // Grants exist only under --ask-within: no look-up without it.
        let granted: Vec<_> = match self.cx.asks {
            true => self.cx.roots.roots().grants(),
            false => Vec::new(),
        }
        .into_iter()
        .map(|(_, about)| about)
        .collect();
        reply::fitted(
            Shape::Text,
            tools::inline(
                &self.cx,
                call,
                |_| Needs::new(),
                granted,
                |snap, granted| tools::list_allowed_directories::allowed(snap, granted),
            )
            .await,
        )
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for FsServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .build();
        ServerConfig::new(capabilities).with_server_info(identity())
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(resources::templates(&identity(), &context))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(resources::list(&identity(), &context))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        resources::read_resource(&self.cx, &identity(), request, &context).await
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, rmcp::ErrorData> {
        // 2.3.0's hints on 2026-07-28: fresh each time, private (what is
        // listed depends on this server's options), and who answers.
        let hints = context
            .protocol_version()
            .is_some_and(|version| version >= ProtocolVersion::V_2026_07_28);
        let meta = hints.then(|| {
            let mut meta = JsonObject::new();
            let info = serde_json::to_value(self.get_info().server_info).unwrap_or_default();
            meta.insert("io.modelcontextprotocol/serverInfo".to_owned(), info);
            MetaObject(meta)
        });
        Ok(ListToolsResult {
            result_type: Some(ResultType::COMPLETE),
            tools: self.listed(),
            meta,
            next_cursor: None,
            ttl_ms: hints.then_some(0),
            cache_scope: hints.then_some(CacheScope::Private),
        })
    }

    async fn on_initialized(&self, cx: NotificationContext<RoleServer>) {
        self.cx.roots.on_initialized(&cx.peer).await;
    }

    async fn on_roots_list_changed(&self, cx: NotificationContext<RoleServer>) {
        self.cx.roots.on_list_changed(&cx.peer).await;
    }
}

/// The server's name and version, as `initialize` and the 2026-07-28
/// results' `_meta` give them.
fn identity() -> Implementation {
    Implementation::new("mcp-roots-fs", env!("CARGO_PKG_VERSION"))
}
