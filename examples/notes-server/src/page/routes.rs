//! The page's routes on axum: `GET /setup?token=…` shows the form, `POST
//! /setup` (a URL-encoded form) saves or cancels; every request first
//! passes the `Host` check. Everything else gets a short page with a human
//! heading: `404` elsewhere, `405` another method, `403` a wrong token,
//! `410` once the page has ended, and `400`, `408`, `411`, `413`, `415`
//! for a request that is not a form submission of a bounded size, sent in
//! time.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::extract::{RawQuery, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::{Next, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tokio::time::timeout;

use super::html::Page;
use super::{Backend, PageEnd, Submission};
use crate::prefs::{MAX_TEMPLATE, template_length};

/// The longest request body accepted: a template of [`MAX_TEMPLATE`]
/// UTF-16 code units is at most 3 UTF-8 bytes a unit, 9 characters
/// percent-encoded (a line break, sent as CR LF, 6), plus the token and
/// the other fields.
pub(crate) const MAX_BODY: usize = 9 * MAX_TEMPLATE + 4 * 1024;
/// How long a request body may take to arrive.
const BODY_TIME: Duration = Duration::from_secs(10);
/// At most this many ignored field names are reported.
const MAX_IGNORED: usize = 16;

/// The page's router: the `Host` check around `/setup`.
pub(crate) fn router(backend: Backend) -> Router {
    let backend = Arc::new(backend);
    Router::new()
        .route("/setup", get(form).post(submit).fallback(wrong_method))
        .fallback(nothing_here)
        .layer(from_fn_with_state(backend.clone(), check_host))
        .with_state(backend)
}

/// Lets through only requests whose one `Host` is `127.0.0.1:PORT` or
/// `localhost:PORT` (DNS rebinding sends the attacker's name), or the host
/// of the shared page's public URL.
async fn check_host(State(backend): State<Arc<Backend>>, request: Request, next: Next) -> Response {
    let mut hosts = request.headers().get_all(header::HOST).iter();
    let host = match (hosts.next(), hosts.next()) {
        (Some(host), None) => host.to_str().ok(),
        _ => None,
    };
    if !host.is_some_and(|h| backend.hosts().iter().any(|e| e == h)) {
        return Page::says(
            StatusCode::MISDIRECTED_REQUEST,
            "Wrong address",
            "This page answers at 127.0.0.1 only.",
        )
        .into_response();
    }
    next.run(request).await
}

async fn nothing_here() -> Page {
    Page::says(
        StatusCode::NOT_FOUND,
        "Nothing here",
        "There is no page at this address.",
    )
}

async fn wrong_method() -> Page {
    Page::says(
        StatusCode::METHOD_NOT_ALLOWED,
        "Open the link from your MCP client",
        "Open the link, then use the form.",
    )
}

/// `GET /setup?token=…`: the form.
async fn form(State(backend): State<Arc<Backend>>, RawQuery(query): RawQuery) -> Page {
    let fields = fields(query.unwrap_or_default().as_bytes());
    let token = match admit(&backend, &fields).await {
        Ok(token) => token,
        Err(refused) => return refused,
    };
    Page::form(&token, &backend.current())
}

/// `POST /setup`: Save or Cancel.
async fn submit(State(backend): State<Arc<Backend>>, headers: HeaderMap, body: Body) -> Page {
    let length = headers.get(header::CONTENT_LENGTH);
    if length.is_none() && !headers.contains_key(header::TRANSFER_ENCODING) {
        return Page::says(
            StatusCode::LENGTH_REQUIRED,
            "Length required",
            "Send the form with its length.",
        );
    }
    let declared = length.and_then(|v| v.to_str().ok()?.parse::<usize>().ok());
    if declared.is_some_and(|n| n > MAX_BODY) {
        return too_long();
    }
    let form = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    if !form.starts_with("application/x-www-form-urlencoded") {
        return Page::says(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Not a form",
            "Submit the form on the page.",
        );
    }
    let bytes = match timeout(BODY_TIME, to_bytes(body, MAX_BODY)).await {
        Err(_) => {
            return Page::says(
                StatusCode::REQUEST_TIMEOUT,
                "Too slow",
                "The form took too long to arrive; submit it again.",
            );
        }
        // Over the limit, or the body broke off.
        Ok(Err(_)) => return too_long(),
        Ok(Ok(bytes)) => bytes,
    };
    let fields = fields(&bytes);
    let token = match admit(&backend, &fields).await {
        Ok(token) => token,
        Err(refused) => return refused,
    };
    take(&backend, &token, fields).await
}

/// The token if it is right and the page open; else the refusal. A wrong
/// token learns nothing about the page's state.
async fn admit(backend: &Backend, fields: &[(String, String)]) -> Result<String, Page> {
    let token = fields.iter().find(|(k, _)| k == "token").map(|(_, v)| v);
    let Some(token) = token.filter(|t| backend.matches(t)) else {
        return Err(Page::says(
            StatusCode::FORBIDDEN,
            "This link is not valid",
            "Open the setup link your MCP client showed you.",
        ));
    };
    match backend.is_open(token).await {
        Ok(true) => Ok(token.clone()),
        Ok(false) => Err(closed()),
        Err(()) => Err(unavailable()),
    }
}

/// Takes the one submission: Cancel, or the template and nothing else.
async fn take(backend: &Backend, token: &str, fields: Vec<(String, String)>) -> Page {
    let mut template = None;
    let mut action = None;
    let mut ignored = BTreeSet::new();
    for (name, value) in fields {
        match name.as_str() {
            "token" => {}
            "action" if action.is_none() => action = Some(value),
            "template" if template.is_none() => template = Some(value),
            _ => {
                ignored.insert(name.chars().take(40).collect::<String>());
            }
        }
    }
    let cancel = match action.as_deref() {
        // A form posted without a button (Enter in a field) saves.
        None | Some("save") => false,
        Some("cancel") => true,
        Some(_) => {
            return Page::says(
                StatusCode::BAD_REQUEST,
                "Unknown button",
                "Use Save or Cancel on the page.",
            );
        }
    };
    if cancel {
        return match backend.end(token, PageEnd::Cancelled).await {
            Ok(true) => Page::says(
                StatusCode::OK,
                "Setup cancelled",
                "Nothing was changed. You can close this tab.",
            ),
            Ok(false) => closed(),
            Err(()) => unavailable(),
        };
    }
    let Some(template) = template else {
        return Page::says(
            StatusCode::BAD_REQUEST,
            "The form is incomplete",
            "The form has no template field; open the link again.",
        );
    };
    let template = template.replace("\r\n", "\n");
    if template_length(&template) > MAX_TEMPLATE {
        return too_long();
    }
    let ignored = ignored.into_iter().take(MAX_IGNORED).collect();
    let submission = Submission { template, ignored };
    match backend.end(token, PageEnd::Submitted(submission)).await {
        Ok(true) => Page::says(
            StatusCode::OK,
            "Template saved",
            "New notes will use it. You can close this tab.",
        ),
        Ok(false) => closed(),
        Err(()) => unavailable(),
    }
}

/// The shared page's store could not be reached.
fn unavailable() -> Page {
    Page::says(
        StatusCode::SERVICE_UNAVAILABLE,
        "Try again in a moment",
        "The server could not reach its shared state; nothing was saved. Submit the form again.",
    )
}

fn too_long() -> Page {
    Page::says(
        StatusCode::PAYLOAD_TOO_LARGE,
        "The template is too long",
        &format!("A template has at most {MAX_TEMPLATE} characters; nothing was saved."),
    )
}

fn closed() -> Page {
    Page::says(
        StatusCode::GONE,
        "This setup page is closed",
        "It was used, cancelled or expired; nothing more can be saved here. To change the \
         template, ask for setup again in your MCP client.",
    )
}

/// The fields of a URL-encoded form or query, in order.
fn fields(encoded: &[u8]) -> Vec<(String, String)> {
    url::form_urlencoded::parse(encoded)
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}
