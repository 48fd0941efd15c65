//! The scripted demo: a notes tree in a temporary directory, a scripted
//! client, and ten scenes printed as a transcript: six on roots and forms
//! (`scenes`), three on the protocol frontier (`frontier`: URL-mode setup
//! with a scripted browser, clients that cannot take a URL, the 2026-07-28
//! revision), and a note outside the shared folders granted by the user's
//! answer (`grant`). Every scene checks itself with what a client sees and what is
//! on disk, never with the server's insides, so the same scenes run against
//! a server in this process ([`run`], the README's first command), against
//! the built binary over stdio and against one `notes-server --http`
//! process, every session inside it ([`run_with`], the end-to-end tests).
//! The result is `true` only if all checks passed.

mod frontier;
mod grant;
mod scenes;

use std::path::Path;
use std::time::{Duration, Instant};

use rmcp::RoleClient;
use rmcp::model::CallToolResult;
use rmcp::service::RunningService;
use serde_json::Value;

use mcp_script::{self as client, Event, ScriptedClient};

use crate::{Connection, Launch};

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The notes tree: `(path below the temporary directory, content)`.
const TREE: &[(&str, &str)] = &[
    (
        "Notes/2023/tps-report.md",
        "# TPS report\n\nQ4 2023: new cover sheets.\n",
    ),
    (
        "Notes/2024/tps-report.md",
        "# TPS report\n\nQ4 2024: cover sheets, again.\n",
    ),
    (
        "Notes/2025/tps-report.md",
        "# TPS report\n\nQ4 2025: all sheets filed.\n",
    ),
    ("Notes/draft.md", "# Draft\n\nTo be thrown away.\n"),
    (
        "Notes/meeting.md",
        "# Meeting notes\n\nMonday: agree on the cover sheets.\n",
    ),
    (
        "Work/plan.md",
        "# Project plan\n\n1. Ship the notes server.\n",
    ),
    ("Journal/today.md", "# Journal\n\nWrote a demo.\n"),
    ("Secret/passwords.md", "# Secrets\n\nhunter2\n"),
    (
        "Inbox/letter.md",
        "# Letter\n\nDear notes server, please file me.\n",
    ),
    ("Inbox/todo.md", "# To do\n\nAnswer the letter.\n"),
];

/// Plays every scene against a server in this process and prints the
/// transcript to stdout.
pub async fn run() -> bool {
    run_with(Launch::InProcess).await
}

/// Plays every scene against servers started by `launch` (one per
/// session) and prints the transcript to stdout.
pub async fn run_with(launch: Launch) -> bool {
    let started = Instant::now();
    let mut demo = match Demo::start(launch).await {
        Ok(demo) => demo,
        Err(err) => {
            println!("could not start the demo: {err}");
            return false;
        }
    };
    scenes::happy_path(&mut demo).await;
    scenes::disambiguation(&mut demo).await;
    scenes::write_outside(&mut demo).await;
    scenes::roots_change(&mut demo).await;
    scenes::no_elicitation(&mut demo).await;
    scenes::decline_and_cancel(&mut demo).await;
    frontier::url_setup(&mut demo).await;
    frontier::url_guard(&mut demo).await;
    frontier::modern(&mut demo).await;
    grant::ask_for_a_note(&mut demo).await;
    demo.finish(started).await
}

/// The demo's state: the tree, one session, and what failed.
pub(crate) struct Demo {
    dir: tempfile::TempDir,
    tmp: String,
    launch: Launch,
    script: ScriptedClient,
    main: Option<Connection>,
    /// Forms the last call caused.
    forms: usize,
    /// Everything the last call caused.
    events: Vec<Event>,
    checks: usize,
    failures: Vec<String>,
}

impl Demo {
    async fn start(launch: Launch) -> Result<Self, BoxError> {
        let dir = tempfile::tempdir()?;
        for (rel, text) in TREE {
            let path = dir.path().join(rel);
            std::fs::create_dir_all(path.parent().expect("a file in a folder"))?;
            std::fs::write(path, text)?;
        }
        // A link planted inside a root, pointing outside it.
        std::os::unix::fs::symlink(
            dir.path().join("Secret/passwords.md"),
            dir.path().join("Notes/passwords.md"),
        )?;
        let tmp = dir
            .path()
            .to_str()
            .ok_or("temporary path is not UTF-8")?
            .to_owned();
        // A server binary gets the tree as its operator ceiling (which a
        // `--confine` among its arguments hands to the kernel too).
        let launch = launch.with_args(["--ceiling", tmp.as_str()]);
        println!("notes-server demo: an MCP server and a scripted client");
        println!("server: {}", launch.describe());
        if let Launch::Binary { args, .. } = &launch {
            println!(
                "server arguments: {}",
                args.join(" ").replace(tmp.as_str(), "$TMP")
            );
        }
        println!("notes tree in $TMP = {tmp}:");
        for (rel, _) in TREE {
            println!("  $TMP/{rel}");
        }
        println!("  $TMP/Notes/passwords.md -> $TMP/Secret/passwords.md (symlink)");
        let script = ScriptedClient::new(true, true).with_url_mode();
        let roots = [
            (format!("file://{tmp}/Notes"), "Notes"),
            (format!("file://{tmp}/Work"), "Work"),
        ];
        script.set_roots(roots.iter().map(|(uri, name)| (uri.as_str(), Some(*name))));
        println!(
            "\nThe client speaks 2025-11-25 and declares roots (listChanged) and form and URL-mode \
             elicitation; the user shares Notes and Work."
        );
        let main = launch.connect(script.clone()).await?;
        Ok(Self {
            dir,
            tmp,
            launch,
            script,
            main: Some(main),
            forms: 0,
            events: Vec::new(),
            checks: 0,
            failures: Vec::new(),
        })
    }

    /// A new session (2025-11-25 lifecycle) for `script`, on a server of
    /// its own (over HTTP: in the same process).
    pub(crate) async fn connect(&self, script: ScriptedClient) -> Result<Connection, BoxError> {
        self.launch.connect(script).await
    }

    /// A new 2026-07-28 session for `script`, on a server of its own (over
    /// HTTP: a server per request, in the same process).
    pub(crate) async fn connect_modern(
        &self,
        script: ScriptedClient,
    ) -> Result<Connection, BoxError> {
        self.launch.connect_modern(script).await
    }

    /// An absolute path in the tree.
    pub(crate) fn path(&self, rel: &str) -> String {
        format!("{}/{rel}", self.tmp)
    }

    /// A `file://` URI in the tree.
    pub(crate) fn uri(&self, rel: &str) -> String {
        format!("file://{}/{rel}", self.tmp)
    }

    /// Whether `rel` exists in the tree (the demo's own look, not the server's).
    pub(crate) fn exists(&self, rel: &str) -> bool {
        self.dir.path().join(rel).exists()
    }

    /// The text of `rel` in the tree ("" if it cannot be read).
    pub(crate) fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.dir.path().join(rel)).unwrap_or_default()
    }

    pub(crate) fn root(&self) -> &Path {
        self.dir.path()
    }

    pub(crate) fn client(&self) -> &RunningService<RoleClient, ScriptedClient> {
        &self.main.as_ref().expect("session open").client
    }

    /// Prints a scene's heading.
    pub(crate) fn scene(&self, title: &str, what: &str) {
        println!("\n━━ {title}\n   {what}");
    }

    /// Prints a line of narration.
    pub(crate) fn say(&self, line: &str) {
        println!("   {}", self.short(line));
    }

    /// Records and prints a check.
    pub(crate) fn check(&mut self, what: &str, ok: bool) {
        self.checks += 1;
        println!("   {} {what}", if ok { "✓" } else { "✗" });
        if !ok {
            self.failures.push(what.to_owned());
        }
    }

    /// Calls a tool on the main session and prints the exchange.
    pub(crate) async fn call(&mut self, tool: &'static str, args: Value) -> CallToolResult {
        let result = client::call(self.client(), tool, args.clone()).await;
        let script = self.script.clone();
        self.show(&script, tool, &args, result)
    }

    /// Calls a tool on the main session, lets the scripted browser finish
    /// and the completion notification arrive, then prints the exchange
    /// (the notification last).
    pub(crate) async fn call_browsing(
        &mut self,
        tool: &'static str,
        args: Value,
    ) -> CallToolResult {
        let result = client::call(self.client(), tool, args.clone()).await;
        self.script.browsed().await;
        let id = result.as_ref().ok().and_then(|r| {
            let structured = r.structured_content.as_ref()?;
            (structured["outcome"] == "configured").then(|| structured["elicitationId"].clone())
        });
        if let Some(id) = id.as_ref().and_then(Value::as_str) {
            self.script.completed(id, Duration::from_secs(5)).await;
        }
        let mut events = self.script.take_events();
        events.sort_by_key(|e| matches!(e, Event::Completed(_)));
        self.present(tool, &args, events, result)
    }

    /// Prints a call, the forms it caused and its result.
    pub(crate) fn show(
        &mut self,
        script: &ScriptedClient,
        tool: &str,
        args: &Value,
        result: Result<CallToolResult, rmcp::ServiceError>,
    ) -> CallToolResult {
        self.present(tool, args, script.take_events(), result)
    }

    /// Prints a call, the `events` it caused and its result.
    pub(crate) fn present(
        &mut self,
        tool: &str,
        args: &Value,
        events: Vec<Event>,
        result: Result<CallToolResult, rmcp::ServiceError>,
    ) -> CallToolResult {
        println!("   → tools/call {tool} {}", self.short(&args.to_string()));
        self.events = events.clone();
        self.forms = events
            .iter()
            .filter(|e| matches!(e, Event::Form { .. }))
            .count();
        for event in &events {
            self.show_event(event);
        }
        let result = match result {
            Ok(result) => result,
            Err(err) => {
                self.check(&format!("{tool} answered (transport error: {err})"), false);
                return CallToolResult::error(Vec::new());
            }
        };
        let flag = if result.is_error == Some(true) {
            "isError: true"
        } else {
            "ok"
        };
        println!("   ← {flag}");
        for line in client::text_of(&result).lines() {
            println!("     │ {}", self.short(line));
        }
        if let Some(reason) = reason(&result) {
            println!("     │ structuredContent.reason = {reason:?}");
        }
        result
    }

    pub(crate) fn show_event(&self, event: &Event) {
        match event {
            Event::RootsListed(uris) => {
                println!("   ⇠ roots/list answered: {}", self.short(&uris.join(", ")));
            }
            Event::Form {
                message,
                schema,
                answer,
            } => {
                println!("     ┌─ elicitation/create (form): {}", self.short(message));
                show_fields(schema);
                let content = answer.content.as_ref().map(Value::to_string);
                println!(
                    "     └─ scripted user: {:?} {}",
                    answer.action,
                    content.unwrap_or_default()
                );
            }
            Event::Url {
                message,
                url,
                elicitation_id,
                action,
            } => {
                println!("     ┌─ elicitation/create (url): {message}");
                let shown = url.split("token=").next().unwrap_or_default();
                println!("     │  url: {shown}token=<token> (32 random hex digits)");
                println!("     │  elicitationId: {elicitation_id}");
                println!("     └─ scripted user: {action:?}");
            }
            Event::Http(visit) => {
                let sent = match visit.sent.as_slice() {
                    [] => String::new(),
                    names => format!(" [{}]", names.join(", ")),
                };
                println!(
                    "     ⇢ browser: {} {}{sent} → {} {:?} {}",
                    visit.method, visit.target, visit.status, visit.heading, visit.said
                );
                if !visit.fields.is_empty() {
                    println!(
                        "     │  the page's form fields: {}; buttons: {}",
                        visit.fields.join(", "),
                        visit.buttons.join(", ")
                    );
                }
            }
            Event::Completed(id) => {
                println!("   ⇠ notifications/elicitation/complete {{\"elicitationId\": {id:?}}}");
            }
        }
    }

    /// The events of the last call.
    /// Where this demo's sessions run.
    pub(crate) fn launch(&self) -> &Launch {
        &self.launch
    }

    pub(crate) fn events(&self) -> &[Event] {
        &self.events
    }

    /// How many forms the last call showed.
    pub(crate) fn forms(&self) -> usize {
        self.forms
    }

    pub(crate) fn script(&self) -> &ScriptedClient {
        &self.script
    }

    /// Replaces `$TMP`'s path by `$TMP` for reading.
    pub(crate) fn short(&self, text: &str) -> String {
        text.replace(&self.tmp, "$TMP")
    }

    async fn finish(mut self, started: Instant) -> bool {
        if let Some(main) = self.main.take() {
            let clean = main.close().await;
            self.check("the main session ended cleanly", clean);
        }
        println!(
            "\n{} checks, {} failed, in {:.2} s",
            self.checks,
            self.failures.len(),
            started.elapsed().as_secs_f64()
        );
        for failure in &self.failures {
            println!("  failed: {failure}");
        }
        self.failures.is_empty()
    }
}

/// The reason in a result's structured content, if any.
pub(crate) fn reason(result: &CallToolResult) -> Option<&str> {
    result.structured_content.as_ref()?.get("reason")?.as_str()
}

/// Prints a flat form's fields: name, type, title, options.
fn show_fields(schema: &Value) {
    let required: Vec<&str> = schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let Some(properties) = schema["properties"].as_object() else {
        return;
    };
    for (name, field) in properties {
        let kind = field["type"].as_str().unwrap_or("?");
        let need = if required.contains(&name.as_str()) {
            "required"
        } else {
            "optional"
        };
        let title = field["title"].as_str().unwrap_or("");
        println!("     │  {name} ({kind}, {need}) {title:?}");
        for option in field["oneOf"].as_array().into_iter().flatten() {
            println!(
                "     │    {} = {}",
                option["const"],
                option["title"].as_str().unwrap_or("")
            );
        }
    }
}
