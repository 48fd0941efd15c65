//! Grants by the user's answer ([semantics 15](mcp_roots::semantics)):
//! a tool declares its paths and access before its work ([`Needs`]); a
//! path the call's roots refuse `outside_roots` (or `no_roots`) that the
//! server may ask about ([`Snapshot::may_ask`]) is asked about, with every
//! other such path of the call, in one flat form; the user's answer grants
//! them for this call ([`Snapshot::with_grant`]), for the session
//! ([`Roots::grant`]), or not at all.
//!
//! What is never asked: a hidden path (`hidden` before any question), a
//! path past the area, a change the policy keeps read-only, a path the
//! user said no to earlier in the session (by physical path and access,
//! not spelling; a "no" to reading is a "no" to changing), and anything
//! past the session's rate ([`SessionRoots::with_grant_questions`]). A
//! client without form elicitation is asked nothing: the refusal stays
//! `outside_roots`, with a sentence telling the model to ask the user.

use mcp_roots::{AskAbout, Error, ErrorKind, GrantAccess, GrantKind, Roots, Snapshot};
use rmcp::model::{CallToolResponse, CallToolResult, ElicitationSchema, EnumSchema};

use crate::call::tool_call::ToolCall;
use crate::elicit::elicitor::{Form, Outcome};
use crate::serve::ask::{Ask, Scope, with_call_grants};
use crate::session::asking::{Asking, InFlight, key_of};
use crate::session::roots::SessionRoots;
use crate::values::answer::escaped;
use crate::values::needs::Needs;
use crate::values::stop::Stop;

/// The form's one field: the user's choice.
pub(crate) const GRANT_FIELD: &str = "grant";

/// How many times a call waits for other calls' answers before asking.
const WAITS: usize = 2;

/// The user's choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Choice {
    Call,
    Session,
    No,
}

impl Choice {
    fn id(self) -> &'static str {
        match self {
            Self::Call => "call",
            Self::Session => "session",
            Self::No => "no",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Self::Call => "Allow for this call only",
            Self::Session => "Allow for this session",
            Self::No => "Don't allow",
        }
    }
}

impl SessionRoots {
    /// [`serve`](Self::serve) for a tool that declares the paths it uses
    /// before its work: a declared path outside the shared folders that
    /// the server may ask about ([`RootsBuilder::ask_within`](mcp_roots::RootsBuilder::ask_within))
    /// is asked about first, once for all of them (see [`Ask::need`]), and
    /// `work` runs with what the user granted.
    ///
    /// ```no_run
    /// # use mcp_roots_rmcp::{Needs, Parameters, SessionRoots};
    /// # use rmcp::handler::server::router::tool::ToolRouter;
    /// # use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};
    /// # use rmcp::{tool, tool_router};
    /// # #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// # struct MoveArgs { from: String, to: String }
    /// # #[derive(Clone)]
    /// # struct Server { roots: SessionRoots, tool_router: ToolRouter<Server> }
    /// # #[tool_router]
    /// # impl Server {
    /// #[tool(description = "Move a file")]
    /// async fn move_file(&self, Parameters(call, args): Parameters<MoveArgs>) -> CallToolResponse {
    ///     let needs = Needs::new().change(&args.from).change(&args.to);
    ///     self.roots
    ///         .serve_needing(call, needs, move |snap| {
    ///             snap.rename(&args.from, &args.to)?;
    ///             Ok(CallToolResult::success(vec![ContentBlock::text("moved")]))
    ///         })
    ///         .await
    /// }
    /// # }
    /// # fn main() {}
    /// ```
    pub async fn serve_needing<F>(&self, call: ToolCall, needs: Needs, work: F) -> CallToolResponse
    where
        F: FnOnce(&Snapshot<'_>) -> Result<CallToolResult, Stop>,
    {
        self.serve_with(call, move |mut ask| async move {
            ask.need(&needs).await?;
            ask.files_inline(work).await
        })
        .await
    }

    /// [`serve_needing`](Self::serve_needing) for work that may block for
    /// long (a walk, a large read, a copy): it runs on tokio's blocking
    /// pool, as [`serve_blocking`](Self::serve_blocking)'s does.
    pub async fn serve_blocking_needing<F>(
        &self,
        call: ToolCall,
        needs: Needs,
        work: F,
    ) -> CallToolResponse
    where
        F: FnOnce(&Snapshot<'_>) -> Result<CallToolResult, Stop> + Send + 'static,
    {
        self.serve_with(call, move |mut ask| async move {
            ask.need(&needs).await?;
            ask.files(work).await
        })
        .await
    }
}

impl Ask {
    /// Makes sure this call may use what `needs` declares, asking the user
    /// when it takes a grant: every later [`files`](Self::files) and
    /// [`files_inline`](Self::files_inline) of the call runs with the
    /// grants made.
    ///
    /// A declared path this call's roots refuse `outside_roots` or
    /// `no_roots`, and that [`Snapshot::may_ask`] allows, is asked about;
    /// so is a change to what a session grant lets read (the new grant
    /// replaces it), and a change inside a directory a grant lets read:
    /// the question is about changing that directory (the outermost
    /// directory grant holding the path, which judges the change). Every such path of the call goes in one form: the
    /// tool, each physical path, file or directory, read or change, and the
    /// choice "this call", "this session" (only where there is a session:
    /// 2024-11-05 to 2025-11-25) or "no". "This call" grants them to this
    /// call alone ([`Snapshot::with_grant`]); "this session" to the
    /// session ([`Roots::grant`]: kept across `roots/list_changed`, ended
    /// with the session, never counted as the client having shared); "no"
    /// (or declining the form) is remembered for the session by physical
    /// path and access. A concurrent call that needs one of the grants
    /// being asked about waits for that answer (bounded by the form's
    /// timeout), then judges again: it asks only if it still needs to.
    ///
    /// On 2026-07-28 the question is an input request, replayed across
    /// rounds like every [`form`](Self::form): the answer is bound to the
    /// question's digest. Each request is its own call there (no session):
    /// only "this call" is offered, and the call's question budget
    /// ([`limit`](Self::limit), one by default) applies; a process that is
    /// its client's session ([`SessionRoots::with_process_session`])
    /// still remembers the "no"s.
    ///
    /// A path the roots refuse otherwise (`not_found`, `hidden` inside a
    /// root, `read_only`) is left to the work, which meets the same
    /// refusal.
    ///
    /// The question counts against the call's budget
    /// ([`limit`](Self::limit), one by default): a body that asks its own
    /// questions after `need` raises the limit first.
    ///
    /// # Errors
    ///
    /// What a declared path cannot be asked about for: `hidden`,
    /// `read_only`, the roots' own `outside_roots` or `no_roots` past the
    /// area or for a path missing in it (whether a path of the area
    /// exists is not told before the user answers); `outside_roots` for a client without form
    /// elicitation (the sentence says to ask the user to share the
    /// folder); `grant_declined` (now or earlier in the session);
    /// `grant_cancelled`; `grant_questions_exhausted` past the session's
    /// rate; as [`form`](Self::form); and the grant's own refusal when the
    /// path changed since it was judged.
    pub async fn need(&mut self, needs: &Needs) -> Result<(), Stop> {
        let mut waits = 0;
        let forms = self.can_ask_forms();
        loop {
            let (asked, spelled) = self.to_ask(needs, forms).await?;
            if asked.is_empty() {
                return Ok(());
            }
            if let Some(no) = self
                .asking
                .as_ref()
                .and_then(|a| asked.iter().find(|about| a.declined(about)))
            {
                tracing::info!(
                    tool = %escaped(&self.tool),
                    path = %escaped(&no.path().to_string_lossy()),
                    access = no.access().as_str(),
                    "grant refused: the user said no earlier in this session"
                );
                return Err(declined(&asked, true));
            }
            // Another call of the session may be asking about one of these
            // now: its answer may settle this call's need. Checked and
            // marked at once, so two calls never both ask.
            let keys: Vec<_> = asked.iter().map(key_of).collect();
            let flight = match (&self.scope, &self.asking) {
                (Scope::Session(_), Some(asking)) => match Asking::asking(asking, keys.clone()) {
                    Some(flight) => Some(flight),
                    None if waits < WAITS => {
                        waits += 1;
                        let pending = asking.awaited(&keys);
                        let timeout = self.form_timeout();
                        for mut answer in pending {
                            let _ =
                                tokio::time::timeout(timeout, answer.wait_for(|done| *done)).await;
                        }
                        continue;
                    }
                    None => None,
                },
                _ => None,
            };
            return self.ask_grants(asked, &spelled, flight).await;
        }
    }

    /// What of `needs` takes a question (and those paths as spelled),
    /// judged on this call's roots with the grants it has; the refusal of
    /// a path that cannot be asked about. `forms`: whether the client can
    /// answer a question.
    ///
    /// Whether a path of the area exists is not told before the user
    /// answers (SECURITY.md, "Existence inside the area"): a path that
    /// `may_ask` finds missing gets the roots' own refusal, or, for a
    /// client that cannot be asked, the same sentence as an existing one.
    async fn to_ask(
        &self,
        needs: &Needs,
        forms: bool,
    ) -> Result<(Vec<AskAbout>, Vec<String>), Stop> {
        let roots = self.call_roots().await?;
        let loaded = roots.load();
        let client = self.client();
        let session_grants = roots.grants();
        let mut asked: Vec<AskAbout> = Vec::new();
        let mut spelled: Vec<String> = Vec::new();
        let mut missing: Option<Stop> = None;
        let judged = |snap: &Snapshot<'_>| -> Result<(), Stop> {
            // The roots' own refusal of a path that is not asked about: the
            // library's, or no_roots for an empty set.
            let roots_refusal = |refused: Option<Error>| match refused {
                Some(err) => Stop::from(err),
                None => crate::values::empty::no_roots(client, snap.set(), snap.ask_area()),
            };
            for (path, access, creates) in needs.entries() {
                let path = if creates {
                    folder_to_ask(snap, path)
                } else {
                    path
                };
                let about = match judge(snap, path) {
                    Judged::Reachable => {
                        if access != GrantAccess::Change {
                            continue;
                        }
                        let Ok(about) = snap.may_ask(path, access) else {
                            continue;
                        };
                        if read_grant_of(&about, &session_grants, &self.granted) {
                            about
                        } else if let Some(folder) =
                            read_folder_over(&about, &session_grants, &self.granted)
                        {
                            // The folder the user let read judges the
                            // change (the outermost grant holding the
                            // path): the question is about changing it.
                            let Some(folder) = folder.to_str() else {
                                continue;
                            };
                            snap.may_ask(folder, access)?
                        } else {
                            continue;
                        }
                    }
                    Judged::Other => continue,
                    Judged::Outside(refused) => match snap.may_ask(path, access) {
                        // Granted already, and still refused: this spelling
                        // does not reach the grant (a file grant is one
                        // name of its folder); asking again would not help.
                        Ok(about) if covered(&about, &session_grants, &self.granted) => {
                            return Err(roots_refusal(refused));
                        }
                        Ok(about) => about,
                        Err(err) if err.kind() == ErrorKind::OutsideRoots => {
                            return Err(roots_refusal(refused));
                        }
                        Err(err) if matches!(err.reason(), "not_found" | "not_a_regular_file") => {
                            spelled.push(path.to_owned());
                            missing.get_or_insert(roots_refusal(refused));
                            continue;
                        }
                        Err(err) => {
                            tracing::info!(
                                tool = %escaped(&self.tool),
                                reason = err.reason(),
                                "a declared path may not be asked about; nothing was asked"
                            );
                            return Err(err.into());
                        }
                    },
                };
                spelled.push(path.to_owned());
                if !asked.contains(&about) {
                    asked.push(about);
                }
            }
            Ok(())
        };
        with_call_grants(&loaded, &self.granted, judged)?;
        match missing {
            Some(_) if !forms => Err(cannot_ask(&spelled)),
            Some(refused) => Err(refused),
            None => Ok((asked, spelled)),
        }
    }

    /// Asks the user about `asked` (one form) and makes the grants.
    async fn ask_grants(
        &mut self,
        asked: Vec<AskAbout>,
        spelled: &[String],
        _flight: Option<InFlight>,
    ) -> Result<(), Stop> {
        if !self.can_ask_forms() {
            tracing::info!(
                tool = %escaped(&self.tool),
                paths = asked.len(),
                "grant not asked: the client cannot answer a form"
            );
            return Err(cannot_ask(spelled));
        }
        let session = match &self.scope {
            Scope::Session(session) => Some(session.clone()),
            Scope::Request(_) => None,
        };
        let in_session = session.is_some();
        if let (Some(_), Some(asking)) = (&session, &self.asking)
            && !asking.take_question()
        {
            tracing::warn!(
                tool = %escaped(&self.tool),
                limit = asking.limit,
                "grant not asked: the session's question limit is reached"
            );
            return Err(exhausted(asking));
        }
        let form = grant_form(&self.tool, &asked, in_session);
        for about in &asked {
            tracing::info!(
                tool = %escaped(&self.tool),
                path = %escaped(&about.path().to_string_lossy()),
                kind = about.kind().as_str(),
                access = about.access().as_str(),
                "grant question"
            );
        }
        let choice = match self.form(&form).await? {
            Outcome::Accepted(answer) => match answer.get(GRANT_FIELD).and_then(|v| v.as_str()) {
                Some("session") if in_session => Choice::Session,
                Some("call") => Choice::Call,
                _ => Choice::No,
            },
            Outcome::Declined => Choice::No,
            Outcome::Cancelled => {
                tracing::info!(tool = %escaped(&self.tool), answer = "cancelled", "grant answer");
                return Err(Stop::refused(
                    "grant_cancelled",
                    format!(
                        "The user dismissed the question about {}; nothing was read or changed.",
                        listed(&asked)
                    ),
                ));
            }
        };
        tracing::info!(tool = %escaped(&self.tool), answer = choice.id(), "grant answer");
        match (choice, session) {
            (Choice::No, _) => {
                if let Some(asking) = &self.asking {
                    asked.iter().for_each(|about| asking.remember_no(about));
                }
                Err(declined(&asked, false))
            }
            (Choice::Session, Some(session)) => {
                grant_session(session.roots(), &asked)?;
                Ok(())
            }
            (_, _) => {
                // Judged again now: a refusal comes before the work.
                let roots = self.call_roots().await?;
                let mut granted = self.granted.clone();
                granted.extend(asked.iter().cloned());
                with_call_grants(&roots.load(), &granted, |_| Ok(()))?;
                self.granted = granted;
                for about in &asked {
                    tracing::info!(
                        path = %escaped(&about.path().to_string_lossy()),
                        access = about.access().as_str(),
                        scope = "call",
                        "grant made"
                    );
                }
                Ok(())
            }
        }
    }

    /// How long a form may stay open (how long a call waits for another's
    /// answer).
    fn form_timeout(&self) -> std::time::Duration {
        match &self.scope {
            Scope::Session(session) => session.rounds().ttl(),
            Scope::Request(_) => std::time::Duration::ZERO,
        }
    }
}

/// What the call's roots say of a declared path.
enum Judged {
    /// Reached (whatever the operation will then say).
    Reachable,
    /// Refused `outside_roots` (`Some`), or the set is empty (`None`).
    Outside(Option<Error>),
    /// Refused otherwise: the work meets it.
    Other,
}

fn judge(snap: &Snapshot<'_>, path: &str) -> Judged {
    if snap.set().is_empty() {
        return Judged::Outside(None);
    }
    match snap.resolve(path) {
        Ok(_) => Judged::Reachable,
        Err(err) if err.kind() == ErrorKind::OutsideRoots => Judged::Outside(Some(err)),
        Err(err) if err.kind() == ErrorKind::NoRoots => Judged::Outside(None),
        Err(_) => Judged::Other,
    }
}

/// What a call that creates the directory `path` is asked about: `path`
/// itself where it is an existing directory the roots refuse, else the
/// nearest existing directory above it (lexically: its spelling with the
/// last components taken off) that may be asked about; `path` where
/// nothing is refused or nothing above it may be asked about (the usual
/// judgement then refuses it).
fn folder_to_ask<'p>(snap: &Snapshot<'_>, path: &'p str) -> &'p str {
    if !matches!(judge(snap, path), Judged::Outside(_)) {
        return path;
    }
    // The platform's separators (`/`, and `\` on Windows).
    let separators = std::path::is_separator;
    let mut at = path.trim_end_matches(separators);
    loop {
        match snap.may_ask(at, GrantAccess::Change) {
            Ok(about) if about.kind() == GrantKind::Directory => return at,
            // A new name (or a missing one): the folder it would be in.
            Ok(_) => {}
            Err(err) if err.kind() == ErrorKind::NotFound => {}
            Err(_) => return path,
        }
        match at.rsplit_once(separators) {
            Some((parent, _)) if !parent.trim_end_matches(separators).is_empty() => {
                at = parent.trim_end_matches(separators);
            }
            _ => return path,
        }
    }
}

/// Whether a grant in force covers `about` (the same thing, with its
/// access or more).
fn covered(
    about: &AskAbout,
    session: &[(mcp_roots::GrantId, AskAbout)],
    call: &[AskAbout],
) -> bool {
    let covers = |g: &AskAbout| {
        g.path() == about.path()
            && g.kind() == about.kind()
            && (g.access() == about.access() || g.access() == GrantAccess::Change)
    };
    session.iter().any(|(_, g)| covers(g)) || call.iter().any(covers)
}

/// Whether a grant for reading the same thing as `about` is in force: then
/// a change takes a question (its grant replaces that one).
fn read_grant_of(
    about: &AskAbout,
    session: &[(mcp_roots::GrantId, AskAbout)],
    call: &[AskAbout],
) -> bool {
    let same = |g: &AskAbout| {
        g.path() == about.path() && g.kind() == about.kind() && g.access() == GrantAccess::Read
    };
    let changes = |g: &AskAbout| {
        g.path() == about.path() && g.kind() == about.kind() && g.access() == GrantAccess::Change
    };
    let any_read = session.iter().any(|(_, g)| same(g)) || call.iter().any(same);
    let any_change = session.iter().any(|(_, g)| changes(g)) || call.iter().any(changes);
    any_read && !any_change
}

/// The folder grant in force that judges a change of `about` (the
/// outermost directory grant holding it), when it lets read only and no
/// grant lets change it: a change inside it takes a question about the
/// folder (its grant for changing replaces the one for reading). A
/// grant's read-only rule is the user's narrower answer, not the
/// operator's: asking again is how the user widens it.
fn read_folder_over(
    about: &AskAbout,
    session: &[(mcp_roots::GrantId, AskAbout)],
    call: &[AskAbout],
) -> Option<std::path::PathBuf> {
    let grants = || session.iter().map(|(_, g)| g).chain(call);
    let outermost = grants()
        .filter(|g| {
            g.kind() == GrantKind::Directory
                && g.path() != about.path()
                && about.path().starts_with(g.path())
        })
        .min_by_key(|g| g.path().components().count())?;
    let folder = outermost.path();
    let changes = grants().any(|g| {
        g.kind() == GrantKind::Directory && g.path() == folder && g.access() == GrantAccess::Change
    });
    (!changes).then(|| folder.to_path_buf())
}

fn grant_session(roots: &Roots, asked: &[AskAbout]) -> Result<(), Stop> {
    for about in asked {
        let id = roots.grant(about)?;
        tracing::info!(
            grant = id.get(),
            path = %escaped(&about.path().to_string_lossy()),
            access = about.access().as_str(),
            scope = "session",
            "grant made"
        );
    }
    Ok(())
}

/// The one flat form: the tool, each path with its kind and access, and
/// the choice.
pub(crate) fn grant_form(tool: &str, asked: &[AskAbout], in_session: bool) -> Form {
    let mut message = format!(
        "The tool \"{}\" needs access outside the folders you shared:",
        escaped(tool)
    );
    for about in asked {
        message.push_str(&format!(
            "\n- {} the {} {}",
            about.access().as_str(),
            about.kind().as_str(),
            escaped(&about.path().to_string_lossy()),
        ));
        if !about.exists() {
            message.push_str(" (a new file)");
        }
    }
    message.push_str("\nAllow it?");
    let choices: Vec<Choice> = match in_session {
        true => vec![Choice::Call, Choice::Session, Choice::No],
        false => vec![Choice::Call, Choice::No],
    };
    let ids = choices.iter().map(|c| c.id().to_owned()).collect();
    let titles = choices.iter().map(|c| c.title().to_owned()).collect();
    let choice = EnumSchema::builder(ids)
        .enum_titles(titles)
        .expect("as many titles as choices")
        .title("Access")
        .build();
    let schema = ElicitationSchema::builder()
        .required_enum_schema(GRANT_FIELD, choice)
        .build()
        .expect("a one-field form always builds");
    Form::new(message, schema)
}

fn listed(asked: &[AskAbout]) -> String {
    let each: Vec<String> = asked
        .iter()
        .map(|a| {
            format!(
                "{} ({})",
                escaped(&a.path().to_string_lossy()),
                a.access().as_str()
            )
        })
        .collect();
    each.join(", ")
}

fn declined(asked: &[AskAbout], earlier: bool) -> Stop {
    let when = match earlier {
        true => "earlier in this session",
        false => "just now",
    };
    Stop::refused(
        "grant_declined",
        format!(
            "The user declined access to {} {when}; nothing was read or changed. Do not ask \
             again: work inside the shared folders, or ask the user in the conversation.",
            listed(asked)
        ),
    )
}

fn cannot_ask(spelled: &[String]) -> Stop {
    let each: Vec<String> = spelled.iter().map(|p| escaped(p)).collect();
    Stop::refused(
        "outside_roots",
        format!(
            "{} is outside the folders shared with this server, and this client cannot be asked \
             for access (it declares no form elicitation); nothing was read or changed. Ask the \
             user to add the folder in the client, or to restart the server with it.",
            each.join(", ")
        ),
    )
}

fn exhausted(asking: &Asking) -> Stop {
    Stop::refused(
        "grant_questions_exhausted",
        format!(
            "The server has asked the user for access {} times in the last {} seconds, its \
             limit; nothing was asked, read or changed. Work inside the shared folders, or ask \
             the user to share the folder in the client.",
            asking.limit,
            asking.window.as_secs()
        ),
    )
}
