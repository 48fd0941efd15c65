//! `directory_tree`: the tree as JSON, 2-space indented, each entry
//! `{name, type, children}` (`children` on directories only), in the
//! directories' own order. `excludePatterns` as the original applies them
//! (see `glob::Exclusions::for_tree`). A symlink is a `file` and is not
//! followed, so a link loop cannot recur. Bounded (entries, depth,
//! deadline), on the blocking pool, with progress and cancellation.

use mcp_roots::FileType;
use mcp_roots_rmcp::{Progress, ToolCall};
use rmcp::model::CallToolResponse;
use serde::Serialize;

use crate::glob::Exclusions;
use crate::paths::target;
use crate::reply;
use crate::server::FsServer;
use crate::tools::args::DirectoryTree;
use crate::tools::failed;
use crate::walk::{OnError, walk};

/// One entry, its fields in the original's order.
#[derive(Debug, Serialize)]
struct Node {
    name: String,
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    children: Option<Vec<Node>>,
}

pub(crate) async fn run(
    server: &FsServer,
    call: ToolCall,
    progress: Progress,
    args: DirectoryTree,
) -> CallToolResponse {
    let bounds = server.config.bounds;
    server
        .roots
        .serve_blocking(call, move |snap| {
            let exclude = Exclusions::for_tree(&args.exclude_patterns);
            let start = target(snap, &args.path);
            let mut flat = Vec::new();
            let stopped = walk(
                snap,
                &start,
                bounds,
                &progress,
                &exclude,
                OnError::Fail,
                |found| {
                    let name = found.rel.rsplit('/').next().unwrap_or_default().to_owned();
                    flat.push((found.depth, name, found.file_type == FileType::Dir));
                    Ok(())
                },
            )?;
            let tree = build(&mut flat.into_iter().peekable(), 1);
            let text = serde_json::to_string_pretty(&tree).map_err(|e| failed(e.to_string()))?;
            Ok(reply::text_stopped(text, stopped))
        })
        .await
}

/// The nodes at `depth` from a pre-order listing of (depth, name, is_dir).
fn build<I: Iterator<Item = (usize, String, bool)>>(
    flat: &mut std::iter::Peekable<I>,
    depth: usize,
) -> Vec<Node> {
    let mut nodes = Vec::new();
    while let Some((d, _, _)) = flat.peek() {
        if *d < depth {
            break;
        }
        let (_, name, dir) = flat.next().expect("peeked");
        let children = dir.then(|| build(flat, depth + 1));
        nodes.push(Node {
            name,
            kind: if dir { "directory" } else { "file" },
            children,
        });
    }
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preorder_listing_becomes_the_nested_json() {
        let flat = vec![
            (1, "a".to_owned(), true),
            (2, "x".to_owned(), false),
            (2, "e".to_owned(), true),
            (1, "b".to_owned(), false),
        ];
        let tree = build(&mut flat.into_iter().peekable(), 1);
        let text = serde_json::to_string_pretty(&tree).unwrap();
        let want = r#"[
  {
    "name": "a",
    "type": "directory",
    "children": [
      {
        "name": "x",
        "type": "file"
      },
      {
        "name": "e",
        "type": "directory",
        "children": []
      }
    ]
  },
  {
    "name": "b",
    "type": "file"
  }
]"#;
        assert_eq!(text, want);
    }
}
