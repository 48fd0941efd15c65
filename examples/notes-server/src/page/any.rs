//! The setup page any instance of a deployment serves (`--setup-listen`):
//! on 2026-07-28 the flow is the glue's, recorded in the shared store, and
//! the link the user gets carries a flow token sealed with the deployment's
//! keys ([`Rounds::flow_token`]), so the instance the browser reaches reads
//! the flow back, shows the form while the flow is open, and records the
//! submission in the store ([`Rounds::finish_flow`]); the rounds waiting on
//! every instance see it there. Nothing of a flow lives in one instance: a
//! page served by one and submitted to another works, and so does a flow
//! whose asking instance has gone.

use std::io;

use mcp_roots_rmcp::Rounds;
use tokio::net::TcpListener;

use super::{Backend, PageEnd, routes};
use crate::prefs::{Preferences, Settings};

/// The shared page's state: the deployment's rounds, this instance's
/// preferences (shown in the form, set on a submission here), and the
/// hosts it answers.
#[derive(Clone, Debug)]
pub struct AnyInstancePage {
    rounds: Rounds,
    prefs: Preferences,
    port: u16,
    /// `host:port` of the public URL (the load balancer's), if any.
    public: Option<String>,
}

impl AnyInstancePage {
    pub(super) fn port(&self) -> u16 {
        self.port
    }

    pub(super) fn public_hosts(&self) -> Vec<String> {
        self.public.iter().cloned().collect()
    }

    pub(super) fn flow_of(&self, token: &str) -> Option<String> {
        self.rounds.open_flow_token(token)
    }

    pub(super) async fn is_open(&self, token: &str) -> Result<bool, ()> {
        let Some(flow) = self.flow_of(token) else {
            return Ok(false);
        };
        self.rounds.flow_is_open(&flow).await.map_err(|err| {
            tracing::error!(error = %err, "the setup page could not read its flow");
        })
    }

    pub(super) fn current(&self) -> String {
        self.prefs.get().template.unwrap_or_default()
    }

    pub(super) async fn end(&self, token: &str, end: PageEnd) -> Result<bool, ()> {
        let Some(flow) = self.flow_of(token) else {
            return Ok(false);
        };
        let ended = self.rounds.finish_flow(&flow, Some(&end)).await;
        let ended = ended.map_err(|err| {
            tracing::error!(error = %err, "the setup page could not record its flow's end");
        })?;
        if let (true, PageEnd::Submitted(submission)) = (ended, &end) {
            let template = Some(submission.template.clone()).filter(|t| !t.is_empty());
            self.prefs.set(Settings { template });
        }
        Ok(ended)
    }
}

/// Serves the shared setup page on `listener` for the flows of `rounds`
/// until the process ends; `public` is the `host:port` of the URL users
/// are sent to (a load balancer's), answered besides the listener's own.
///
/// # Errors
///
/// The listener's address cannot be read, or serving fails.
pub async fn serve_any(
    listener: TcpListener,
    rounds: Rounds,
    prefs: Preferences,
    public: Option<String>,
) -> io::Result<()> {
    let port = listener.local_addr()?.port();
    let page = AnyInstancePage {
        rounds,
        prefs,
        port,
        public,
    };
    let app = routes::router(Backend::Any(page));
    axum::serve(listener, app).await
}
