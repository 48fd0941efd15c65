//! URL-mode elicitation (SEP-1036, protocol 2025-11-25): the server sends a
//! URL instead of a form, for flows a form cannot carry (OAuth, payment,
//! signing, first-run setup). rmcp 3.x keeps the request type and dropped
//! the rest, so this module provides the `-32042`
//! URL-elicitation-required error and the
//! `notifications/elicitation/complete` notification by hand.

use rmcp::model::{
    CustomNotification, ElicitRequestParams, ErrorCode, ErrorData, ServerNotification,
};
use serde_json::json;

use crate::call::revision::URL_MODE_SINCE;
use crate::elicit::elicitor::{ElicitError, Elicitor, Outcome};

/// JSON-RPC error code of the URL-elicitation-required error (SEP-1036).
pub const URL_ELICITATION_REQUIRED: ErrorCode = ErrorCode(-32042);
/// Method of the notification that tells the client an out-of-band flow
/// finished (SEP-1036).
pub const ELICITATION_COMPLETE: &str = "notifications/elicitation/complete";
/// One URL the user must visit, for [`url_elicitation_required`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct UrlElicitation {
    /// Correlates the request with its completion notification.
    pub elicitation_id: String,
    /// The page to open.
    pub url: String,
    /// Why the user should open it.
    pub message: String,
}

impl UrlElicitation {
    /// The page `url` to open for the flow `elicitation_id`, and why.
    pub fn new(
        elicitation_id: impl Into<String>,
        url: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            elicitation_id: elicitation_id.into(),
            url: url.into(),
            message: message.into(),
        }
    }
}

/// The `-32042` error a server returns when a request cannot proceed until
/// the user completes URL flows.
pub fn url_elicitation_required(elicitations: &[UrlElicitation]) -> ErrorData {
    let list: Vec<_> = elicitations
        .iter()
        .map(|e| json!({ "mode": "url", "elicitationId": e.elicitation_id, "url": e.url, "message": e.message }))
        .collect();
    ErrorData::new(
        URL_ELICITATION_REQUIRED,
        "This request requires the user to complete a step in the browser.",
        Some(json!({ "elicitations": list })),
    )
}

impl Elicitor {
    /// Whether URL mode may be used: the client declared
    /// `elicitation.url` and the negotiated protocol is 2025-11-25 (from
    /// which URL mode exists) and still has server-to-client requests.
    ///
    /// # Errors
    ///
    /// [`ElicitError::UrlUnsupported`] saying which condition failed.
    pub fn check_url_mode(&self) -> Result<(), ElicitError> {
        let protocol = self.protocol().map(|p| p.as_str().to_owned());
        match protocol.as_deref() {
            None => {
                return Err(ElicitError::UrlUnsupported(
                    "the protocol version is unknown",
                ));
            }
            Some(v) if v < URL_MODE_SINCE => {
                return Err(ElicitError::UrlUnsupported(
                    "the negotiated protocol predates URL mode (2025-11-25)",
                ));
            }
            Some(_) if !self.has_server_requests() => {
                return Err(ElicitError::UrlUnsupported(
                    "this protocol revision carries elicitation in input-required results",
                ));
            }
            Some(_) => {}
        }
        let declared = self
            .capabilities()
            .and_then(|c| c.elicitation.as_ref())
            .is_some_and(|e| e.url.is_some());
        if !declared {
            return Err(ElicitError::UrlUnsupported(
                "the client did not declare URL-mode elicitation",
            ));
        }
        Ok(())
    }

    /// Asks the user to open `url` (the client shows `message` and asks
    /// for consent). `Accepted` means the user agreed to open it; the flow
    /// itself completes out of band, after which call
    /// [`complete`](Self::complete).
    ///
    /// # Errors
    ///
    /// [`ElicitError::UrlUnsupported`] (nothing sent), budget, request
    /// failures.
    pub async fn ask_url(
        &mut self,
        message: impl Into<String>,
        url: &url::Url,
        elicitation_id: impl Into<String>,
    ) -> Result<Outcome<()>, ElicitError> {
        self.check_url_mode()?;
        let params = ElicitRequestParams::UrlElicitationParams {
            meta: None,
            message: message.into(),
            url: url.as_str().to_owned(),
            elicitation_id: elicitation_id.into(),
        };
        let answer = self.send(params).await?;
        Ok(Outcome::of(&answer.action))
    }

    /// Tells the client that the out-of-band flow of `elicitation_id`
    /// finished (`notifications/elicitation/complete`).
    ///
    /// # Errors
    ///
    /// [`ElicitError::Request`] if the notification cannot be sent.
    pub async fn complete(&self, elicitation_id: &str) -> Result<(), ElicitError> {
        let notification = CustomNotification::new(
            ELICITATION_COMPLETE,
            Some(json!({ "elicitationId": elicitation_id })),
        );
        self.peer()
            .send_notification(ServerNotification::CustomNotification(notification))
            .await
            .map_err(ElicitError::Request)
    }
}
