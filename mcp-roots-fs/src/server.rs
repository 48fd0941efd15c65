//! The server: one [`FsServer`] per session and the 14 tools'
//! registrations, nothing more (each tool's work is in `tools/`, over the
//! session's [`Context`]).

use mcp_roots_rmcp::{Progress, Rounds, SessionRoots, ToolCall};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResponse, Implementation, ServerCapabilities, ServerConfig};
use rmcp::service::NotificationContext;
use rmcp::{RoleServer, ServerHandler, tool, tool_handler, tool_router};

use crate::config::Config;
use crate::context::Context;
use crate::original::reply::{self, Shape};
use crate::tools::{self, args};

/// One session's server (stdio: one per process; HTTP: one per session).
#[derive(Clone)]
pub(crate) struct FsServer {
    cx: Context,
    tool_router: ToolRouter<Self>,
}

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
            },
            tool_router: Self::tool_router(),
        }
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
        self.cx.roots = self
            .cx
            .roots
            .with_process_session()
            .on_installed(|set, from_client| {
                eprintln!(
                    "{}",
                    crate::config::effective_after_change(set, from_client)
                );
            });
        self
    }
}

// The descriptions are the original's, in substance; the annotations are its.
#[tool_router]
impl FsServer {
    #[tool(
        title = "Read File (Deprecated)",
        description = "Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.",
        output_schema = reply::text_schema(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn read_file(
        &self,
        call: ToolCall,
        Parameters(args): Parameters<args::ReadTextFile>,
    ) -> CallToolResponse {
        let max_answer = self.cx.max_answer;
        reply::fitted(
            Shape::Text,
            tools::blocking(&self.cx, call, args, move |snap, args| {
                tools::read_text_file::read(snap, max_answer, args)
            })
            .await,
        )
    }

    #[tool(
        title = "Read Text File",
        description = "Read the complete contents of a file from the file system as text. Handles various text encodings and provides detailed error messages if the file cannot be read. Use this tool when you need to examine the contents of a single file. Use the 'head' parameter to read only the first N lines of a file, or the 'tail' parameter to read only the last N lines of a file. Operates on the file as text regardless of extension. Only works within allowed directories.",
        output_schema = reply::text_schema(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn read_text_file(
        &self,
        call: ToolCall,
        Parameters(args): Parameters<args::ReadTextFile>,
    ) -> CallToolResponse {
        let max_answer = self.cx.max_answer;
        reply::fitted(
            Shape::Text,
            tools::blocking(&self.cx, call, args, move |snap, args| {
                tools::read_text_file::read(snap, max_answer, args)
            })
            .await,
        )
    }

    #[tool(
        title = "Read Media File",
        description = "Read a file and return it as a base64-encoded content block with its MIME type. Image and audio files are returned as image/audio content; any other file type is returned as an embedded resource. Only works within allowed directories.",
        output_schema = reply::media_schema(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn read_media_file(
        &self,
        call: ToolCall,
        Parameters(args): Parameters<args::PathOnly>,
    ) -> CallToolResponse {
        let max_answer = self.cx.max_answer;
        reply::fitted(
            Shape::Media,
            tools::blocking(&self.cx, call, args, move |snap, args| {
                tools::read_media_file::read(snap, max_answer, args)
            })
            .await,
        )
    }

    #[tool(
        title = "Read Multiple Files",
        description = "Read the contents of multiple files simultaneously. This is more efficient than reading files one by one when you need to analyze or compare multiple files. Each file's content is returned with its path as a reference. Failed reads for individual files won't stop the entire operation. Only works within allowed directories.",
        output_schema = reply::text_schema(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn read_multiple_files(
        &self,
        call: ToolCall,
        Parameters(args): Parameters<args::ReadMultipleFiles>,
    ) -> CallToolResponse {
        reply::fitted(
            Shape::Text,
            tools::blocking(&self.cx, call, args, tools::read_multiple_files::read).await,
        )
    }

    #[tool(
        title = "Write File",
        description = "Create a new file or completely overwrite an existing file with new content. Use with caution as it will overwrite existing files without warning. Handles text content with proper encoding. Only works within allowed directories.",
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
        title = "Edit File",
        description = "Make line-based edits to a text file. Each edit replaces exact line sequences with new content. Returns a git-style diff showing the changes made. Only works within allowed directories.",
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
            tools::inline(&self.cx, call, args, tools::create_directory::create).await,
        )
    }

    #[tool(
        title = "List Directory",
        description = "Get a detailed listing of all files and directories in a specified path. Results clearly distinguish between files and directories with [FILE] and [DIR] prefixes. This tool is essential for understanding directory structure and finding specific files within a directory. Only works within allowed directories.",
        output_schema = reply::text_schema(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn list_directory(
        &self,
        call: ToolCall,
        progress: Progress,
        Parameters(args): Parameters<args::PathOnly>,
    ) -> CallToolResponse {
        reply::fitted(
            Shape::Text,
            tools::walking(&self.cx, call, progress, args, tools::list_directory::list).await,
        )
    }

    #[tool(
        title = "List Directory with Sizes",
        description = "Get a detailed listing of all files and directories in a specified path, including sizes. Results clearly distinguish between files and directories with [FILE] and [DIR] prefixes. This tool is useful for understanding directory structure and finding specific files within a directory. Only works within allowed directories.",
        output_schema = reply::text_schema(),
        annotations(read_only_hint = true, open_world_hint = false)
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
                progress,
                args,
                tools::list_directory_with_sizes::list,
            )
            .await,
        )
    }

    #[tool(
        title = "Directory Tree",
        description = "Get a recursive tree view of files and directories as a JSON structure. Each entry includes 'name', 'type' (file/directory), and 'children' for directories. Files have no children array, while directories always have a children array (which may be empty). The output is formatted with 2-space indentation for readability. Only works within allowed directories.",
        output_schema = reply::text_schema(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn directory_tree(
        &self,
        call: ToolCall,
        progress: Progress,
        Parameters(args): Parameters<args::DirectoryTree>,
    ) -> CallToolResponse {
        reply::fitted(
            Shape::Text,
            tools::walking(&self.cx, call, progress, args, tools::directory_tree::tree).await,
        )
    }

    #[tool(
        title = "Move File",
        description = "Move or rename files and directories. Can move files between directories and rename them in a single operation. If the destination exists, the operation will fail. Works across different directories and can be used for simple renaming within the same directory. Both source and destination must be within allowed directories.",
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
        title = "Search Files",
        description = "Recursively search for files and directories matching a pattern. The patterns should be glob-style patterns that match paths relative to the working directory. Use pattern like '*.ext' to match files in current directory, and '**/*.ext' to match files in all subdirectories. Returns full paths to all matching items. Great for finding files when you don't know their exact location. Only searches within allowed directories.",
        output_schema = reply::text_schema(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn search_files(
        &self,
        call: ToolCall,
        progress: Progress,
        Parameters(args): Parameters<args::SearchFiles>,
    ) -> CallToolResponse {
        reply::fitted(
            Shape::Text,
            tools::walking(&self.cx, call, progress, args, tools::search_files::search).await,
        )
    }

    #[tool(
        title = "Get File Info",
        description = "Retrieve detailed metadata about a file or directory. Returns comprehensive information including size, creation time, last modified time, permissions, and type. This tool is perfect for understanding file characteristics without reading the actual content. Only works within allowed directories.",
        output_schema = reply::text_schema(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn get_file_info(
        &self,
        call: ToolCall,
        Parameters(args): Parameters<args::PathOnly>,
    ) -> CallToolResponse {
        reply::fitted(
            Shape::Text,
            tools::inline(&self.cx, call, args, tools::get_file_info::info).await,
        )
    }

    #[tool(
        title = "List Allowed Directories",
        description = "Returns the list of directories that this server is allowed to access. Subdirectories within these allowed directories are also accessible. Use this to understand which directories and their nested paths are available before trying to access files.",
        output_schema = reply::text_schema(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn list_allowed_directories(&self, call: ToolCall) -> CallToolResponse {
        reply::fitted(
            Shape::Text,
            tools::inline(&self.cx, call, (), |snap, _| {
                tools::list_allowed_directories::allowed(snap)
            })
            .await,
        )
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for FsServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_server_info(
            Implementation::new("mcp-roots-fs", env!("CARGO_PKG_VERSION")),
        )
    }

    async fn on_initialized(&self, cx: NotificationContext<RoleServer>) {
        self.cx.roots.on_initialized(&cx.peer).await;
    }

    async fn on_roots_list_changed(&self, cx: NotificationContext<RoleServer>) {
        self.cx.roots.on_list_changed(&cx.peer).await;
    }
}
