//! The first-run setup page that `notes_setup` sends the user to through
//! URL-mode elicitation: a small web page on `127.0.0.1`, served by axum,
//! at a URL with a random one-time token (`token.rs`: 16 bytes from the
//! operating system through `getrandom`).
//!
//! - It shows one form (`html.rs`): the template for new notes (a short
//!   label, a help text the field is described by, the size limit, focus on
//!   the field), a Save button and a Cancel button. It has no field for
//!   roots or the ceiling, and a submission that carries such fields has
//!   them ignored (and reported as ignored): the folders the server may
//!   touch are the client's roots, never a preference.
//! - The limit is [`MAX_TEMPLATE`](crate::prefs::MAX_TEMPLATE) characters
//!   counted as the browser's `maxlength` counts them: UTF-16 code units, a
//!   line break as one ([`template_length`](crate::prefs::template_length)).
//!   The browser stops typing at the limit and the server refuses (`413`)
//!   past it, so the two agree on every text.
//! - Save ends the page with the [`Submission`]; Cancel ends it at once with
//!   [`PageEnd::Cancelled`] (the tool call does not wait for the page to
//!   expire); so do its lifetime ([`PageEnd::Expired`]) and dropping the
//!   [`SetupPage`] (the user declined, or the flow is over).
//! - A wrong or missing token gets `403` and changes nothing (the page
//!   stays open for the right one). Once the page has ended, every request
//!   with the right token gets `410` and a page that says it is closed, for
//!   [`CLOSED_NOTICE`] after it ended (a late reload or a double click says
//!   so instead of failing to connect); then the port closes.
//! - A page of a 2026-07-28 flow ([`SetupPage::start_in_flow`]) has ended
//!   once its flow has ended on any instance of the deployment: before it
//!   shows the form (`GET`) or takes a submission (`POST`, Save or Cancel)
//!   it asks the rounds' store whether the flow is still open
//!   ([`Rounds::flow_is_open`]), and answers `410` (and ends itself) when it
//!   is not: declined, cancelled, out of rounds or submitted elsewhere. Its
//!   Save or Cancel is recorded in the store first ([`Rounds::finish_flow`],
//!   the first end wins), so a flow that ended elsewhere a moment before
//!   gets `410` too, never a second end. The store unreachable: `503`,
//!   nothing saved.
//! - It answers only at `127.0.0.1:PORT` / `localhost:PORT` (a `Host`
//!   check against DNS rebinding, `421` otherwise), and bounds each request
//!   body in size and time (`routes.rs`).
//!
//! The same routes also serve the page every instance of a deployment
//! serves for any 2026-07-28 flow (`any.rs`, `--setup-listen`): the token
//! is then a flow token sealed with the deployment's keys, the flow's state
//! is in the shared store, and the page answers `503` (nothing saved) when
//! the store cannot be reached.

mod any;
mod html;
mod routes;
mod token;

use std::io;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::{oneshot, watch};
use tokio::time::{Instant, sleep, sleep_until, timeout_at};

use mcp_roots_rmcp::Rounds;

use self::token::Token;
use crate::held::lock;
use crate::prefs::Settings;
pub use any::{AnyInstancePage, serve_any};
pub use token::random_hex;

/// How long a page that has ended keeps saying so before its port closes.
pub const CLOSED_NOTICE: Duration = Duration::from_secs(10 * 60);
/// How long connections still open may take to finish once the port closes.
const GRACE: Duration = Duration::from_secs(5);

/// What the user submitted: the only preference the page sets, and the
/// names of fields that were ignored (anything else, `roots` and `ceiling`
/// included).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Submission {
    /// The template for new notes (line ends normalised to `\n`; empty means
    /// "no template").
    pub template: String,
    /// Field names the page does not know, sorted.
    pub ignored: Vec<String>,
}

/// How a page ended, as [`SetupPage::submission`] reports it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum PageEnd {
    /// Saved.
    Submitted(Submission),
    /// The user pressed Cancel: nothing is to change.
    Cancelled,
    /// Its lifetime passed without either.
    Expired,
}

/// A running setup page. Dropping it ends the page (see the module docs).
#[derive(Debug)]
pub struct SetupPage {
    url: url::Url,
    addr: SocketAddr,
    shared: Arc<Shared>,
    ended: oneshot::Receiver<PageEnd>,
    /// When the page ends at the latest.
    expires: Instant,
}

/// What the page's handlers share.
#[derive(Debug)]
struct Shared {
    token: Token,
    port: u16,
    /// The current template, shown in the form.
    current: String,
    state: Mutex<State>,
    /// Becomes `true` once the page has ended.
    closed: watch::Sender<bool>,
    /// The 2026-07-28 flow the page belongs to, whose end the rounds' store
    /// records for every instance.
    flow: Option<Flow>,
}

/// A page's flow in the rounds' store.
#[derive(Debug)]
struct Flow {
    rounds: Rounds,
    id: String,
}

#[derive(Debug)]
struct State {
    /// Taken when the page ends.
    ended: Option<oneshot::Sender<PageEnd>>,
}

impl SetupPage {
    /// Starts a page on a free port of `127.0.0.1`, showing `current`, that
    /// ends after `lifetime` at the latest.
    ///
    /// # Errors
    ///
    /// If no port can be bound or the random source fails.
    pub async fn start(current: &Settings, lifetime: Duration) -> io::Result<Self> {
        Self::start_with(current, lifetime, None).await
    }

    /// Starts a page for the 2026-07-28 URL flow `id` of `rounds`, as
    /// [`start`](Self::start) does; the page also ends once the flow has
    /// ended on any instance (see the module docs).
    ///
    /// # Errors
    ///
    /// As [`start`](Self::start).
    pub async fn start_in_flow(
        current: &Settings,
        lifetime: Duration,
        rounds: Rounds,
        id: &str,
    ) -> io::Result<Self> {
        let flow = Flow {
            rounds,
            id: id.to_owned(),
        };
        Self::start_with(current, lifetime, Some(flow)).await
    }

    async fn start_with(
        current: &Settings,
        lifetime: Duration,
        flow: Option<Flow>,
    ) -> io::Result<Self> {
        let token = Token::new()?;
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await?;
        let addr = listener.local_addr()?;
        let url = format!("http://{addr}/setup?token={}", token.as_str());
        let url = url::Url::parse(&url).map_err(io::Error::other)?;
        let (sender, ended) = oneshot::channel();
        let shared = Arc::new(Shared {
            token,
            port: addr.port(),
            current: current.template.clone().unwrap_or_default(),
            state: Mutex::new(State {
                ended: Some(sender),
            }),
            closed: watch::Sender::new(false),
            flow,
        });
        let expires = Instant::now() + lifetime;
        tokio::spawn(run(listener, shared.clone(), expires));
        Ok(Self {
            url,
            addr,
            shared,
            ended,
            expires,
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

    /// Waits for the page to end: saved, cancelled, or expired. Bounded by
    /// the page's lifetime whatever its server does: at the deadline the
    /// page is ended here (a submission that arrived first still counts).
    pub async fn submission(&mut self) -> PageEnd {
        match timeout_at(self.expires, &mut self.ended).await {
            Ok(Ok(end)) => end,
            // The sender goes only when the page ends; ending it again here
            // changes nothing but makes sure it is closed.
            Ok(Err(_)) | Err(_) => {
                self.shared.end(None);
                PageEnd::Expired
            }
        }
    }
}

impl Drop for SetupPage {
    fn drop(&mut self) {
        self.shared.end(None);
    }
}

impl Shared {
    /// Ends the page (if it is still open), telling the flow `end`; whether
    /// this call ended it.
    fn end(&self, end: Option<PageEnd>) -> bool {
        let Some(sender) = lock(&self.state).ended.take() else {
            return false;
        };
        if let Some(end) = end {
            // The flow may have gone already (declined): nobody to tell.
            let _ = sender.send(end);
        }
        self.closed.send_replace(true);
        true
    }

    /// Whether the page has ended.
    fn is_closed(&self) -> bool {
        *self.closed.borrow()
    }

    /// Whether the page still takes a submission: not ended here, and its
    /// flow (if any) not ended on any instance; a flow found ended ends the
    /// page here too. `Err`: the store could not be read.
    async fn is_open(&self) -> Result<bool, ()> {
        if self.is_closed() {
            return Ok(false);
        }
        let Some(flow) = &self.flow else {
            return Ok(true);
        };
        let open = flow.rounds.flow_is_open(&flow.id).await.map_err(|err| {
            tracing::error!(error = %err, "the setup page could not read its flow");
        })?;
        if !open {
            self.end(None);
        }
        Ok(open)
    }

    /// Ends the page with `end` (Save or Cancel); whether this call ended
    /// it. A page of a flow records the end in the store first: the first
    /// end of the flow on any instance wins, and a page whose flow ended
    /// elsewhere ends without one.
    async fn submit(&self, end: PageEnd) -> Result<bool, ()> {
        if self.is_closed() {
            return Ok(false);
        }
        if let Some(flow) = &self.flow {
            let ended = flow.rounds.finish_flow(&flow.id, Some(&end)).await;
            let ended = ended.map_err(|err| {
                tracing::error!(error = %err, "the setup page could not record its flow's end");
            })?;
            if !ended {
                self.end(None);
                return Ok(false);
            }
        }
        Ok(self.end(Some(end)))
    }
}

/// What the routes serve: one flow's page ([`SetupPage`]), or the page
/// every instance serves for any flow of the deployment ([`serve_any`]).
#[derive(Debug)]
enum Backend {
    One(Arc<Shared>),
    Any(AnyInstancePage),
}

impl Backend {
    /// The `Host` values the page answers.
    fn hosts(&self) -> Vec<String> {
        let (port, mut extra) = match self {
            Self::One(shared) => (shared.port, Vec::new()),
            Self::Any(any) => (any.port(), any.public_hosts()),
        };
        extra.push(format!("127.0.0.1:{port}"));
        extra.push(format!("localhost:{port}"));
        extra
    }

    /// Whether `token` is this page's (or names a flow of the deployment).
    fn matches(&self, token: &str) -> bool {
        match self {
            Self::One(shared) => shared.token.matches(token),
            Self::Any(any) => any.flow_of(token).is_some(),
        }
    }

    /// Whether the page of `token` still takes a submission (`Err`: the
    /// shared state could not be read).
    async fn is_open(&self, token: &str) -> Result<bool, ()> {
        match self {
            Self::One(shared) => shared.is_open().await,
            Self::Any(any) => any.is_open(token).await,
        }
    }

    /// The template the form shows.
    fn current(&self) -> String {
        match self {
            Self::One(shared) => shared.current.clone(),
            Self::Any(any) => any.current(),
        }
    }

    /// Ends the page of `token` with `end`; whether this call ended it.
    async fn end(&self, token: &str, end: PageEnd) -> Result<bool, ()> {
        match self {
            Self::One(shared) => shared.submit(end).await,
            Self::Any(any) => any.end(token, end).await,
        }
    }
}

/// Serves the page until [`CLOSED_NOTICE`] after it ended (ending it at
/// `expires`), then closes the port, leaving connections still open
/// [`GRACE`] to finish.
async fn run(listener: TcpListener, shared: Arc<Shared>, expires: Instant) {
    let app = routes::router(Backend::One(shared.clone()));
    let (stop, stopped) = oneshot::channel::<()>();
    let mut closed = shared.closed.subscribe();
    let notice = async move {
        tokio::select! {
            () = sleep_until(expires) => { shared.end(Some(PageEnd::Expired)); }
            _ = closed.wait_for(|closed| *closed) => {}
        }
        sleep(CLOSED_NOTICE).await;
        let _ = stop.send(());
    };
    let server = axum::serve(listener, app).with_graceful_shutdown(notice);
    tokio::select! {
        _ = server => {}
        () = async {
            let _ = stopped.await;
            sleep(GRACE).await;
        } => {}
    }
}
