//! What the setup page shows: the form and the result pages, each a whole
//! HTML document with a viewport, a human heading and one sentence, sent
//! with headers that keep it private (no caching, no referrer, no framing,
//! no scripts, forms only to itself).

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::prefs::MAX_TEMPLATE;

/// An answer of the page: a status and a whole HTML document.
#[derive(Debug)]
pub(crate) struct Page {
    status: StatusCode,
    html: String,
}

impl Page {
    /// A result page: `heading` (an `<h1>`) and one `sentence`.
    pub(crate) fn says(status: StatusCode, heading: &str, sentence: &str) -> Self {
        let body = format!("<p>{}</p>", escape(sentence));
        Self {
            status,
            html: document(heading, &body),
        }
    }

    /// The form, carrying `token`, showing the `current` template.
    pub(crate) fn form(token: &str, current: &str) -> Self {
        let body = format!(
            "<p>Choose the template for the notes this server creates. The folders it may use \
             are the ones your MCP client shares with it; they cannot be changed here.</p>\n\
             <form method=\"post\" action=\"/setup\">\n\
             <input type=\"hidden\" name=\"token\" value=\"{token}\">\n\
             <p><label for=\"template\">Template for new notes</label></p>\n\
             <p id=\"template-help\"><code>{{content}}</code> is replaced by the note, \
             <code>{{title}}</code> by its file name; leave it empty for no template. \
             At most {MAX_TEMPLATE} characters (counted as the browser counts them: an emoji \
             or another character outside the Basic Multilingual Plane counts as two, a line \
             break as one).</p>\n\
             <p><textarea id=\"template\" name=\"template\" rows=\"10\" cols=\"70\" \
             maxlength=\"{MAX_TEMPLATE}\" aria-describedby=\"template-help\" autofocus>{}</textarea></p>\n\
             <p><button type=\"submit\" name=\"action\" value=\"save\">Save</button>\n\
             <button type=\"submit\" name=\"action\" value=\"cancel\" formnovalidate>Cancel</button></p>\n\
             </form>",
            escape(current),
            token = escape(token),
        );
        Self {
            status: StatusCode::OK,
            html: document("Set up new notes", &body),
        }
    }
}

impl IntoResponse for Page {
    fn into_response(self) -> Response {
        let mut response = (self.status, self.html).into_response();
        let headers = response.headers_mut();
        for (name, value) in [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
            (header::REFERRER_POLICY, "no-referrer"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::X_FRAME_OPTIONS, "DENY"),
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'none'; form-action 'self'; frame-ancestors 'none'",
            ),
        ] {
            headers.insert(name, HeaderValue::from_static(value));
        }
        response
    }
}

/// A whole document titled and headed `heading`, with an HTML `body`.
fn document(heading: &str, body: &str) -> String {
    let heading = escape(heading);
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{heading} · notes-server</title></head>\n\
         <body><main>\n<h1>{heading}</h1>\n{body}\n</main></body></html>\n"
    )
}

/// `text` safe inside HTML text and attribute values.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
