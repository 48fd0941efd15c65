//! Form elicitation on rmcp's own types, with what rmcp leaves to servers:
//! a capability check before asking, server-side validation of the answer
//! against the schema that was sent, typed outcomes, a question budget per
//! tool call, and the two forms most tools need.
//!
//! When to ask (from the MCP course this crate started from): before a
//! destructive action, to choose one of several candidates, for first-run
//! setup. When not to: for a required argument the model can ask for in
//! prose, inside loops or on frequent calls, or for anything the server can
//! validate afterwards (validate, return an error, let the model ask).

use std::fmt;
use std::time::Duration;

use rmcp::model::{
    CallToolResult, ClientCapabilities, ContentBlock, ElicitRequestParams, ElicitResult,
    ElicitationAction, ElicitationSchema, EnumSchema, ProtocolVersion,
};
use rmcp::service::{RequestContext, ServiceError};
use rmcp::{Peer, RoleServer};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use crate::values::stop::{Halt, Stop};
use crate::values::validate::validate;

/// A form: a message and a flat schema. rmcp's [`ElicitationSchema`] has
/// only primitive properties (string, number, integer, boolean, enum), so a
/// nested object cannot be expressed.
#[derive(Clone, Debug)]
pub struct Form {
    message: String,
    schema: ElicitationSchema,
}

impl Form {
    /// A form asking `message` with `schema`.
    pub fn new(message: impl Into<String>, schema: ElicitationSchema) -> Self {
        Self {
            message: message.into(),
            schema,
        }
    }

    /// One required choice among `options` (shown by their titles; the
    /// answer is an index).
    ///
    /// # Errors
    ///
    /// [`ElicitError::Schema`] for fewer than two options.
    pub fn choose<S: AsRef<str>>(
        message: impl Into<String>,
        options: &[S],
    ) -> Result<Self, ElicitError> {
        if options.len() < 2 {
            return Err(ElicitError::Schema(
                "a choice needs at least two options".into(),
            ));
        }
        let ids: Vec<String> = (0..options.len()).map(|i| i.to_string()).collect();
        let titles: Vec<String> = options.iter().map(|o| o.as_ref().to_owned()).collect();
        let choice = EnumSchema::builder(ids)
            .enum_titles(titles)
            .map_err(|e| ElicitError::Schema(e.to_string()))?
            .title("Choice")
            .build();
        let schema = ElicitationSchema::builder()
            .required_enum_schema(CHOICE, choice)
            .build()
            .map_err(|e| ElicitError::Schema(e.to_string()))?;
        Ok(Self::new(message, schema))
    }

    /// A required yes/no confirmation of `action` (e.g. "Delete the note").
    ///
    /// On the wire the form has one field, required: `{"confirm": boolean}`,
    /// titled `action`, shown under `message`; an accepted answer must
    /// carry it ([`confirmed`](Self::confirmed) reads it).
    pub fn confirm(message: impl Into<String>, action: impl Into<String>) -> Self {
        let action = action.into();
        let schema = ElicitationSchema::builder()
            .required_bool_with(CONFIRM, |b| b.title(action))
            .build()
            .expect("a one-field form always builds");
        Self::new(message, schema)
    }

    /// The `elicitation/create` parameters for this form.
    pub(crate) fn params(&self) -> ElicitRequestParams {
        ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: self.message.clone(),
            requested_schema: self.schema.clone(),
        }
    }

    /// The outcome of an answer to this form: an accepted answer must match
    /// the schema that was sent.
    ///
    /// # Errors
    ///
    /// [`ElicitError::InvalidAnswer`] when it does not.
    pub fn outcome(
        &self,
        answer: ElicitResult,
    ) -> Result<Outcome<Map<String, Value>>, ElicitError> {
        Outcome::of(&answer.action).try_map(|()| {
            let schema = serde_json::to_value(&self.schema)
                .map_err(|e| ElicitError::Schema(e.to_string()))?;
            let content = answer.content.unwrap_or(Value::Null);
            validate(&schema, &content).map_err(ElicitError::InvalidAnswer)
        })
    }

    /// The index chosen in an accepted answer to a [`Form::choose`] form.
    pub fn chosen(answer: &Map<String, Value>) -> Option<usize> {
        answer.get(CHOICE)?.as_str()?.parse().ok()
    }

    /// Whether an accepted answer to a [`Form::confirm`] form says yes.
    pub fn confirmed(answer: &Map<String, Value>) -> bool {
        answer.get(CONFIRM) == Some(&Value::Bool(true))
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The schema.
    pub fn schema(&self) -> &ElicitationSchema {
        &self.schema
    }
}

const CHOICE: &str = "choice";
const CONFIRM: &str = "confirm";

/// What the user did with a form. Declining and cancelling change nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome<T> {
    /// The user answered; the answer passed validation.
    Accepted(T),
    /// The user closed the form.
    Declined,
    /// The user aborted the whole tool call.
    Cancelled,
}

impl Outcome<()> {
    /// What the user did, from an answer's action alone (an accepted
    /// answer's content is the caller's to check). An action newer than
    /// this crate counts as cancelled: it changes nothing.
    pub(crate) fn of(action: &ElicitationAction) -> Self {
        match action {
            ElicitationAction::Accept => Self::Accepted(()),
            ElicitationAction::Decline => Self::Declined,
            _ => Self::Cancelled,
        }
    }
}

impl Outcome<Map<String, Value>> {
    /// The outcome of a [`Form::confirm`] form: only an explicit "yes" is
    /// `Accepted`; an accepted "no" counts as `Declined`.
    pub fn into_confirmation(self) -> Outcome<()> {
        match self {
            Self::Accepted(answer) if Form::confirmed(&answer) => Outcome::Accepted(()),
            Self::Accepted(_) | Self::Declined => Outcome::Declined,
            Self::Cancelled => Outcome::Cancelled,
        }
    }

    /// The outcome of a [`Form::choose`] form among `options` options: the
    /// index chosen.
    ///
    /// # Errors
    ///
    /// [`ElicitError::InvalidAnswer`] when the answer names no option.
    pub fn into_choice(self, options: usize) -> Result<Outcome<usize>, ElicitError> {
        self.try_map(|answer| {
            Form::chosen(&answer)
                .filter(|&i| i < options)
                .ok_or_else(|| ElicitError::InvalidAnswer("no valid choice".into()))
        })
    }
}

impl<T> Outcome<T> {
    /// The accepted value, if any.
    pub fn accepted(self) -> Option<T> {
        match self {
            Self::Accepted(value) => Some(value),
            Self::Declined | Self::Cancelled => None,
        }
    }

    fn try_map<U, E>(self, f: impl FnOnce(T) -> Result<U, E>) -> Result<Outcome<U>, E> {
        Ok(match self {
            Self::Accepted(value) => Outcome::Accepted(f(value)?),
            Self::Declined => Outcome::Declined,
            Self::Cancelled => Outcome::Cancelled,
        })
    }
}

/// Why a question could not be asked or answered.
#[derive(Debug)]
#[non_exhaustive]
pub enum ElicitError {
    /// The client did not declare form elicitation: nothing was sent.
    Unsupported,
    /// URL mode cannot be used on this session (the reason says why):
    /// nothing was sent.
    UrlUnsupported(&'static str),
    /// This tool call already asked its questions (one unless the caller
    /// allowed more with [`Elicitor::with_budget`]).
    Exhausted,
    /// The answer did not match the form.
    InvalidAnswer(String),
    /// The form could not be built.
    Schema(String),
    /// The request failed (transport, timeout, protocol).
    Request(ServiceError),
}

impl fmt::Display for ElicitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unsupported => {
                f.write_str("The client cannot show forms (it declared no form elicitation)")
            }
            Self::UrlUnsupported(why) => write!(f, "URL-mode elicitation is not available: {why}"),
            Self::Exhausted => f.write_str("This tool call has already asked the user"),
            Self::InvalidAnswer(why) => write!(f, "The answer does not match the form: {why}"),
            Self::Schema(why) => write!(f, "The form is invalid: {why}"),
            Self::Request(err) => write!(f, "The elicitation request failed: {err}"),
        }
    }
}

impl std::error::Error for ElicitError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Request(err) => Some(err),
            _ => None,
        }
    }
}

/// A question that cannot be asked or answered stops the body with the
/// error's tool result.
impl From<ElicitError> for Stop {
    fn from(err: ElicitError) -> Self {
        Stop(Halt::Failed(err.to_tool_result()))
    }
}

impl ElicitError {
    /// The stable reason for structured content.
    pub fn reason(&self) -> &'static str {
        match self {
            Self::Unsupported => "elicitation_unsupported",
            Self::UrlUnsupported(_) => "url_elicitation_unsupported",
            Self::Exhausted => "elicitation_exhausted",
            Self::InvalidAnswer(_) => "elicitation_invalid_answer",
            Self::Schema(_) => "elicitation_invalid_form",
            Self::Request(_) => "elicitation_failed",
        }
    }

    /// A tool result that says what happened and that nothing changed, so
    /// the model can go on without retrying in a loop.
    pub fn to_tool_result(&self) -> CallToolResult {
        let advice = match self {
            Self::Unsupported => {
                " This tool needs the user's answer in a form and cannot act without it; nothing was changed. Tell the user it cannot be done from this client."
            }
            Self::UrlUnsupported(_) => {
                " Ask the user in the conversation for what the page would have collected."
            }
            _ => " Nothing was changed.",
        };
        let mut result =
            CallToolResult::error(vec![ContentBlock::text(format!("{self}.{advice}"))]);
        result.structured_content = Some(json!({ "reason": self.reason() }));
        result
    }
}

/// Asks the user through form elicitation, within a budget of questions per
/// tool call (one by default: forms interrupt the conversation).
#[derive(Clone, Debug)]
pub struct Elicitor {
    peer: Peer<RoleServer>,
    protocol: Option<ProtocolVersion>,
    capabilities: Option<ClientCapabilities>,
    budget: usize,
    timeout: Option<Duration>,
}

impl Elicitor {
    /// An elicitor for one tool call, allowed one question, knowing the
    /// client from the `initialize` handshake.
    pub fn new(peer: &Peer<RoleServer>) -> Self {
        let info = peer.peer_info();
        Self {
            peer: peer.clone(),
            protocol: info.as_ref().map(|i| i.protocol_version.clone()),
            capabilities: info.map(|i| i.capabilities.clone()),
            budget: 1,
            timeout: None,
        }
    }

    /// An elicitor for the tool call `context`: the protocol version and
    /// client capabilities come from the request itself where the revision
    /// carries them there (2026-07-28), else from the handshake.
    pub fn for_request(context: &RequestContext<RoleServer>) -> Self {
        Self {
            protocol: context.protocol_version(),
            capabilities: context.client_capabilities(),
            ..Self::new(&context.peer)
        }
    }

    /// For one tool call of [`SessionRoots::serve_with`](crate::SessionRoots::serve_with).
    pub(crate) fn for_call(call: &crate::call::tool_call::ToolCall) -> Self {
        Self {
            peer: call.peer.clone(),
            protocol: call.protocol.clone(),
            capabilities: call.client_capabilities(),
            budget: 1,
            timeout: None,
        }
    }

    pub(crate) fn peer(&self) -> &Peer<RoleServer> {
        &self.peer
    }

    pub(crate) fn protocol(&self) -> Option<&ProtocolVersion> {
        self.protocol.as_ref()
    }

    pub(crate) fn capabilities(&self) -> Option<&ClientCapabilities> {
        self.capabilities.as_ref()
    }

    /// Whether this session has server-to-client requests (revisions with
    /// an `initialize` handshake); 2026-07-28 carries questions in
    /// input-required results instead.
    pub(crate) fn has_server_requests(&self) -> bool {
        self.protocol
            .as_ref()
            .is_none_or(ProtocolVersion::has_initialize)
    }

    /// Allows `questions` questions in this tool call.
    pub fn with_budget(mut self, questions: usize) -> Self {
        self.budget = questions;
        self
    }

    /// Gives up on an answer after `timeout`.
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Whether the client declared form elicitation (an `elicitation`
    /// capability without modes means forms) on a session that can send it.
    pub fn supports_forms(&self) -> bool {
        self.has_server_requests() && self.accepts_form_inputs()
    }

    /// Whether the client declared form elicitation, whatever the revision:
    /// on 2026-07-28, where forms travel as input requests
    /// ([`form_request`](crate::form_request)), this is the check to make.
    pub fn accepts_form_inputs(&self) -> bool {
        let declared = self
            .capabilities
            .as_ref()
            .and_then(|c| c.elicitation.as_ref());
        declared.is_some_and(|e| e.form.is_some() || e.url.is_none())
    }

    /// Spends one question of the budget and sends `params`.
    pub(crate) async fn send(
        &mut self,
        params: ElicitRequestParams,
    ) -> Result<ElicitResult, ElicitError> {
        if self.budget == 0 {
            return Err(ElicitError::Exhausted);
        }
        self.budget -= 1;
        self.peer
            .create_elicitation_with_timeout(params, self.timeout)
            .await
            .map_err(ElicitError::Request)
    }

    /// Asks `form`; an accepted answer is validated against its schema.
    ///
    /// # Errors
    ///
    /// See [`ElicitError`]; nothing is sent unless the client supports forms
    /// and the budget allows.
    pub async fn ask(&mut self, form: &Form) -> Result<Outcome<Map<String, Value>>, ElicitError> {
        if !self.supports_forms() {
            return Err(ElicitError::Unsupported);
        }
        let answer = self.send(form.params()).await?;
        form.outcome(answer)
    }

    /// Asks `form` and deserialises the validated answer into `T`.
    ///
    /// # Errors
    ///
    /// As [`ask`](Self::ask); [`ElicitError::InvalidAnswer`] if `T` does not
    /// fit the answer.
    pub async fn ask_as<T: DeserializeOwned>(
        &mut self,
        form: &Form,
    ) -> Result<Outcome<T>, ElicitError> {
        self.ask(form).await?.try_map(|content| {
            serde_json::from_value(Value::Object(content))
                .map_err(|e| ElicitError::InvalidAnswer(e.to_string()))
        })
    }

    /// Asks the user to pick one of `options`; the answer is its index.
    ///
    /// # Errors
    ///
    /// As [`ask`](Self::ask).
    pub async fn choose<S: AsRef<str>>(
        &mut self,
        message: impl Into<String>,
        options: &[S],
    ) -> Result<Outcome<usize>, ElicitError> {
        let form = Form::choose(message, options)?;
        self.ask(&form).await?.into_choice(options.len())
    }

    /// Asks the user to confirm a destructive `action`. Only an explicit
    /// "yes" is `Accepted`; an accepted "no" counts as `Declined`.
    ///
    /// # Errors
    ///
    /// As [`ask`](Self::ask).
    pub async fn confirm(
        &mut self,
        message: impl Into<String>,
        action: impl Into<String>,
    ) -> Result<Outcome<()>, ElicitError> {
        let form = Form::confirm(message, action);
        Ok(self.ask(&form).await?.into_confirmation())
    }
}
