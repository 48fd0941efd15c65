//! The first-run setup page that `notes_setup` sends the user to through
//! URL-mode elicitation: a tiny web page on `127.0.0.1`, at a URL with a
//! random one-time token (16 bytes from `/dev/urandom`).
//!
//! - It shows one form: the template for new notes. It has no field for
//!   roots or the ceiling, and a submission that carries such fields has
//!   them ignored (and reported as ignored): the folders the server may
//!   touch are the client's roots, never a preference.
//! - A wrong or missing token gets `403` and changes nothing (the page stays
//!   open for the right one); a second valid submission gets `410`.
//! - It stops when the submission has been taken and its [`SetupPage`] is
//!   dropped (after answering `410` for [`LINGER`], so a reload or a double
//!   click says "already used"), when its timeout passes, or when the
//!   [`SetupPage`] is dropped unused (the user declined): then the port is
//!   closed.
//! - It answers only at `127.0.0.1:PORT` / `localhost:PORT` (a `Host`
//!   check against DNS rebinding), one request per connection, each bounded
//!   in size and time.

mod http;

use crate::held::lock;
use std::collections::BTreeSet;
use std::io::{self, Read};
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{oneshot, watch};
use tokio::task::JoinSet;
use tokio::time::{Instant, sleep_until, timeout};

use self::http::{Answer, Request, escape};
use crate::prefs::{MAX_TEMPLATE, Settings};

/// How long a used page keeps answering `410` after it is released.
pub const LINGER: Duration = Duration::from_secs(2);
/// How long one connection may take to send its request and get the answer.
const CONNECTION_TIME: Duration = Duration::from_secs(10);
/// At most this many ignored field names are reported.
const MAX_IGNORED: usize = 16;

/// What the user submitted: the only preference the page sets, and the
/// names of fields that were ignored (anything else, `roots` and `ceiling`
/// included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    /// The template for new notes (line ends normalised to `\n`; empty means
    /// "no template").
    pub template: String,
    /// Field names the page does not know, sorted.
    pub ignored: Vec<String>,
}

/// A running setup page. Dropping it stops the page (see the module docs).
#[derive(Debug)]
pub struct SetupPage {
    url: url::Url,
    addr: SocketAddr,
    shared: Arc<Shared>,
    submission: oneshot::Receiver<Submission>,
}

#[derive(Debug)]
struct Shared {
    token: String,
    port: u16,
    /// The current template, shown in the form.
    current: String,
    state: Mutex<State>,
    /// When the page stops; moved earlier when the page is released.
    deadline: watch::Sender<Instant>,
}

#[derive(Debug)]
struct State {
    sender: Option<oneshot::Sender<Submission>>,
    used: bool,
}

impl SetupPage {
    /// Starts a page on a free port of `127.0.0.1`, showing `current`, that
    /// stops after `lifetime` at the latest.
    ///
    /// # Errors
    ///
    /// If no port can be bound or `/dev/urandom` cannot be read.
    pub async fn start(current: &Settings, lifetime: Duration) -> io::Result<Self> {
        let token = random_hex(16)?;
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await?;
        let addr = listener.local_addr()?;
        let url = format!("http://{addr}/setup?token={token}");
        let url = url::Url::parse(&url).map_err(io::Error::other)?;
        let (sender, submission) = oneshot::channel();
        let shared = Arc::new(Shared {
            token,
            port: addr.port(),
            current: current.template.clone().unwrap_or_default(),
            state: Mutex::new(State {
                sender: Some(sender),
                used: false,
            }),
            deadline: watch::Sender::new(Instant::now() + lifetime),
        });
        tokio::spawn(serve(listener, shared.clone()));
        Ok(Self {
            url,
            addr,
            shared,
            submission,
        })
    }

    /// The URL to send the user to (it carries the token).
    pub fn url(&self) -> &url::Url {
        &self.url
    }

    /// Where the page listens.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Waits for the submission; `None` once the page stopped without one
    /// (its lifetime passed). The port is closed before `None` is returned.
    pub async fn submission(&mut self) -> Option<Submission> {
        (&mut self.submission).await.ok()
    }
}

impl Drop for SetupPage {
    fn drop(&mut self) {
        let state = lock(&self.shared.state);
        let stop = if state.used {
            Instant::now() + LINGER
        } else {
            Instant::now()
        };
        drop(state);
        self.shared.deadline.send_modify(|d| *d = (*d).min(stop));
    }
}

/// Accepts connections until the deadline, each in its own task; then
/// closes the port, ends the connections still open and drops the sender.
async fn serve(listener: TcpListener, shared: Arc<Shared>) {
    let mut deadline = shared.deadline.subscribe();
    let mut connections = JoinSet::new();
    loop {
        let stop = *deadline.borrow_and_update();
        tokio::select! {
            () = sleep_until(stop) => break,
            changed = deadline.changed() => if changed.is_err() { break },
            accepted = listener.accept() => {
                if let Ok((stream, _)) = accepted {
                    connections.spawn(connection(stream, shared.clone()));
                }
            }
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    drop(listener);
    connections.shutdown().await;
    lock(&shared.state).sender.take();
}

/// One request, one answer.
async fn connection(mut stream: TcpStream, shared: Arc<Shared>) {
    let answer = match timeout(CONNECTION_TIME, http::read_request(&mut stream)).await {
        Err(_) => Answer::text(408, "Request Timeout", "Too slow."),
        Ok(Err(answer)) => answer,
        Ok(Ok(request)) => shared.route(&request),
    };
    let _ = timeout(CONNECTION_TIME, http::respond(&mut stream, &answer)).await;
}

impl Shared {
    fn route(&self, request: &Request) -> Answer {
        let hosts = [
            format!("127.0.0.1:{}", self.port),
            format!("localhost:{}", self.port),
        ];
        if !request.host.as_ref().is_some_and(|h| hosts.contains(h)) {
            return Answer::text(
                421,
                "Misdirected Request",
                "This page answers at 127.0.0.1 only.",
            );
        }
        if request.path != "/setup" {
            return Answer::text(404, "Not Found", "There is nothing here.");
        }
        match request.method.as_str() {
            "GET" => {
                let fields = fields(request.query.as_bytes());
                match self.admit(&fields) {
                    Some(refused) => refused,
                    None => self.form(),
                }
            }
            "POST" => {
                let form = request.content_type.as_deref().unwrap_or_default();
                if !form.starts_with("application/x-www-form-urlencoded") {
                    return Answer::text(415, "Unsupported Media Type", "Submit the form.");
                }
                let fields = fields(&request.body);
                match self.admit(&fields) {
                    Some(refused) => refused,
                    None => self.submit(fields),
                }
            }
            _ => Answer::text(
                405,
                "Method Not Allowed",
                "Open the link, then submit the form.",
            ),
        }
    }

    /// `None` if the token is right and the page unused; else the refusal.
    /// A wrong token learns nothing about the page's state.
    fn admit(&self, fields: &[(String, String)]) -> Option<Answer> {
        let token = fields.iter().find(|(k, _)| k == "token").map(|(_, v)| v);
        if !token.is_some_and(|t| same(t.as_bytes(), self.token.as_bytes())) {
            return Some(Answer::text(403, "Forbidden", "This link is not valid."));
        }
        if lock(&self.state).used {
            return Some(Answer::text(
                410,
                "Gone",
                "This setup page was already used.",
            ));
        }
        None
    }

    fn form(&self) -> Answer {
        let body = format!(
            "<p>Preferences for new notes. The folders this server may use are the ones \
             your MCP client shares with it; they cannot be changed here.</p>\n\
             <form method=\"post\" action=\"/setup\">\n\
             <input type=\"hidden\" name=\"token\" value=\"{}\">\n\
             <p><label for=\"template\">Template for new notes: <code>{{content}}</code> \
             is replaced by the note, <code>{{title}}</code> by its file name. Empty: \
             no template.</label></p>\n\
             <p><textarea id=\"template\" name=\"template\" rows=\"10\" cols=\"70\" \
             maxlength=\"{MAX_TEMPLATE}\">{}</textarea></p>\n\
             <p><button type=\"submit\">Save</button></p>\n</form>",
            escape(&self.token),
            escape(&self.current)
        );
        Answer {
            status: 200,
            reason: "OK",
            html: http::page("Setup", &body),
        }
    }

    /// Takes the one submission: the template, nothing else.
    fn submit(&self, fields: Vec<(String, String)>) -> Answer {
        let mut template = None;
        let mut ignored = BTreeSet::new();
        for (name, value) in fields {
            match name.as_str() {
                "token" => {}
                "template" if template.is_none() => template = Some(value),
                _ => {
                    ignored.insert(name.chars().take(40).collect::<String>());
                }
            }
        }
        let Some(template) = template else {
            return Answer::text(400, "Bad Request", "The form has no template field.");
        };
        let template = template.replace("\r\n", "\n");
        if template.len() > MAX_TEMPLATE {
            return Answer::text(413, "Content Too Large", "The template is too long.");
        }
        let ignored = ignored.into_iter().take(MAX_IGNORED).collect();
        let mut state = lock(&self.state);
        if state.used {
            return Answer::text(410, "Gone", "This setup page was already used.");
        }
        state.used = true;
        let submission = Submission { template, ignored };
        match state.sender.take().map(|s| s.send(submission)) {
            Some(Ok(())) => Answer::text(200, "OK", "Saved. You can close this tab."),
            _ => Answer::text(410, "Gone", "Setup has ended; nothing was saved."),
        }
    }
}

/// The fields of a URL-encoded form or query, in order.
fn fields(encoded: &[u8]) -> Vec<(String, String)> {
    url::form_urlencoded::parse(encoded)
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

/// Compares without stopping at the first difference.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// `bytes` random bytes from the kernel, as lowercase hex.
///
/// # Errors
///
/// If `/dev/urandom` cannot be read.
pub fn random_hex(bytes: usize) -> io::Result<String> {
    let mut buf = vec![0u8; bytes];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut buf)?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}
