//! The scripted browser: what the scripted user does with the page of a
//! URL-mode elicitation, over a real HTTP client (reqwest: no proxy, no
//! redirects, bounded in time) and a real HTML parser (scraper, html5ever's
//! tree): it reads the page's heading, first sentence, form fields and
//! buttons, and posts the form by its field names. Tokens are redacted in
//! what it records, so transcripts are stable.

use std::time::Duration;

use scraper::{ElementRef, Html, Selector};

/// How long one request may take.
const REQUEST_TIME: Duration = Duration::from_secs(10);

/// One thing the scripted user does in the browser.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// `GET` the page: the URL as given, or with a wrong token.
    Open {
        /// Replace the token with one of the same length that is wrong.
        wrong_token: bool,
    },
    /// `POST` the form: the token (or a wrong one) and `fields`.
    Submit {
        /// Replace the token with one of the same length that is wrong.
        wrong_token: bool,
        /// The fields besides the token, in order.
        fields: Vec<(String, String)>,
    },
}

impl Step {
    /// Opens the page as given.
    pub fn open() -> Self {
        Self::Open { wrong_token: false }
    }

    /// Submits `fields` with the page's token.
    pub fn submit(fields: &[(&str, &str)]) -> Self {
        Self::Submit {
            wrong_token: false,
            fields: owned(fields),
        }
    }

    /// Presses the page's Cancel button (`action=cancel`) with its token.
    pub fn cancel() -> Self {
        Self::submit(&[("action", "cancel")])
    }

    /// The same step with a wrong token.
    pub fn with_wrong_token(self) -> Self {
        match self {
            Self::Open { .. } => Self::Open { wrong_token: true },
            Self::Submit { fields, .. } => Self::Submit {
                wrong_token: true,
                fields,
            },
        }
    }
}

/// What one request got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Visit {
    /// `GET` or `POST`.
    pub method: &'static str,
    /// The request target, the token shown as `<token>` or `<wrong token>`.
    pub target: String,
    /// The form fields sent (names, token first), for a `POST`.
    pub sent: Vec<String>,
    /// The status code; 0 if the page could not be reached.
    pub status: u16,
    /// The page's `<h1>` (empty if it has none).
    pub heading: String,
    /// The text of the page's first paragraph (or the connection error).
    pub said: String,
    /// The names of the form's fields (inputs, text areas, selects), in
    /// order.
    pub fields: Vec<String>,
    /// The labels of the form's buttons, in order.
    pub buttons: Vec<String>,
}

/// Plays `steps` against the page at `url`, calling `seen` after each
/// request.
pub async fn browse(url: &str, steps: &[Step], mut seen: impl FnMut(Visit)) {
    let Ok(url) = url::Url::parse(url) else {
        return seen(unreachable_page("GET", url, "not a URL".to_owned()));
    };
    let client = match reqwest::Client::builder()
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(REQUEST_TIME)
        .build()
    {
        Ok(client) => client,
        Err(err) => return seen(unreachable_page("GET", url.path(), err.to_string())),
    };
    let token = url
        .query_pairs()
        .find(|(k, _)| k == "token")
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default();
    let wrong: String = token
        .chars()
        .map(|c| if c == '0' { '1' } else { '0' })
        .collect();
    for step in steps {
        let (wrong_token, post) = match step {
            Step::Open { wrong_token } => (*wrong_token, None),
            Step::Submit {
                wrong_token,
                fields,
            } => (*wrong_token, Some(fields)),
        };
        let (used, shown) = if wrong_token {
            (&wrong, "<wrong token>")
        } else {
            (&token, "<token>")
        };
        let (method, target, sent, request) = match post {
            None => {
                let mut page = url.clone();
                page.query_pairs_mut().clear().append_pair("token", used);
                let target = format!("{}?token={shown}", url.path());
                ("GET", target, Vec::new(), client.get(page))
            }
            Some(fields) => {
                let mut form = url::form_urlencoded::Serializer::new(String::new());
                form.append_pair("token", used);
                let mut sent = vec!["token".to_owned()];
                for (name, value) in fields {
                    form.append_pair(name, value);
                    sent.push(name.clone());
                }
                let mut action = url.clone();
                action.set_query(None);
                let request = client
                    .post(action)
                    .header("content-type", "application/x-www-form-urlencoded")
                    .body(form.finish());
                let target = format!("{} (token={shown})", url.path());
                ("POST", target, sent, request)
            }
        };
        let answer = async {
            let response = request.send().await?;
            let status = response.status().as_u16();
            Ok::<_, reqwest::Error>((status, response.text().await?))
        };
        seen(match answer.await {
            Ok((status, html)) => {
                let page = Read::from(&html);
                Visit {
                    method,
                    target,
                    sent,
                    status,
                    heading: page.heading,
                    said: page.said,
                    fields: page.fields,
                    buttons: page.buttons,
                }
            }
            Err(err) => unreachable_page(method, url.path(), connection_error(&err)),
        });
    }
}

/// What the scripted user reads on a page.
struct Read {
    heading: String,
    said: String,
    fields: Vec<String>,
    buttons: Vec<String>,
}

impl From<&String> for Read {
    fn from(html: &String) -> Self {
        let document = Html::parse_document(html);
        Self {
            heading: first_text(&document, "h1"),
            said: first_text(&document, "p"),
            fields: select(
                &document,
                "form input[name], form textarea[name], form select[name]",
            )
            .filter_map(|field| field.value().attr("name"))
            .map(str::to_owned)
            .collect(),
            buttons: select(&document, "form button")
                .map(|button| text_of(&button))
                .collect(),
        }
    }
}

/// The elements matching `selectors` (written in this file, so valid), in
/// document order.
fn select<'a>(document: &'a Html, selectors: &str) -> impl Iterator<Item = ElementRef<'a>> {
    let selector = Selector::parse(selectors).ok();
    selector
        .map(|s| document.select(&s).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
}

/// The text of the first element matching `selector` ("" if none).
fn first_text(document: &Html, selector: &str) -> String {
    select(document, selector)
        .next()
        .map(|element| text_of(&element))
        .unwrap_or_default()
}

/// An element's text, whitespace collapsed.
fn text_of(element: &ElementRef<'_>) -> String {
    let text: String = element.text().collect();
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What a failed request says, the innermost cause included ("connection
/// refused" rather than reqwest's outer "error sending request").
fn connection_error(err: &reqwest::Error) -> String {
    let mut source: &dyn std::error::Error = err;
    while let Some(inner) = source.source() {
        source = inner;
    }
    source.to_string()
}

fn unreachable_page(method: &'static str, target: &str, why: String) -> Visit {
    Visit {
        method,
        target: target.to_owned(),
        sent: Vec::new(),
        status: 0,
        heading: String::new(),
        said: why,
        fields: Vec::new(),
        buttons: Vec::new(),
    }
}

fn owned(fields: &[(&str, &str)]) -> Vec<(String, String)> {
    fields
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}
