//! The scripted browser: what the scripted user does with the page of a
//! URL-mode elicitation, over plain blocking `std::net` HTTP/1.1 (one
//! request per connection). Tokens are redacted in what it records, so
//! transcripts are stable.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

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
    /// The page's first sentence (or the connection error).
    pub said: String,
    /// The names of the form fields on the page, for a form page.
    pub fields: Vec<String>,
}

/// Plays `steps` against the page at `url`, calling `seen` after each
/// request. Blocking: run it on a thread of its own or the blocking pool.
pub fn browse(url: &str, steps: &[Step], mut seen: impl FnMut(Visit)) {
    let Ok(url) = url::Url::parse(url) else {
        return seen(unreachable_page("GET", url, "not a URL"));
    };
    let host = url.host_str().unwrap_or_default().to_owned();
    let port = url.port_or_known_default().unwrap_or(80);
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
        let visit = match post {
            None => {
                let target = format!("{}?token={used}", url.path());
                let shown = format!("{}?token={shown}", url.path());
                exchange(&host, port, "GET", &target, None).map(|page| (shown, Vec::new(), page))
            }
            Some(fields) => {
                let mut form = url::form_urlencoded::Serializer::new(String::new());
                form.append_pair("token", used);
                let mut sent = vec!["token".to_owned()];
                for (name, value) in fields {
                    form.append_pair(name, value);
                    sent.push(name.clone());
                }
                let body = form.finish();
                exchange(&host, port, "POST", url.path(), Some(&body))
                    .map(|page| (format!("{} (token={shown})", url.path()), sent, page))
            }
        };
        let method = if post.is_some() { "POST" } else { "GET" };
        seen(match visit {
            Ok((target, sent, (status, html))) => Visit {
                method,
                target,
                sent,
                status,
                said: first_sentence(&html),
                fields: form_fields(&html),
            },
            Err(err) => unreachable_page(method, url.path(), &err.to_string()),
        });
    }
}

/// One request on a fresh connection: the status and the body.
fn exchange(
    host: &str,
    port: u16,
    method: &str,
    target: &str,
    form: Option<&str>,
) -> io::Result<(u16, String)> {
    let mut stream = TcpStream::connect((host, port))?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    stream.set_write_timeout(Some(Duration::from_secs(10)))?;
    let mut request =
        format!("{method} {target} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n");
    if let Some(body) = form {
        request.push_str(&format!(
            "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ));
    } else {
        request.push_str("\r\n");
    }
    stream.write_all(request.as_bytes())?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer)?;
    let answer = String::from_utf8_lossy(&answer);
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "no status line"))?;
    Ok((status, body.to_owned()))
}

fn unreachable_page(method: &'static str, target: &str, why: &str) -> Visit {
    Visit {
        method,
        target: target.to_owned(),
        sent: Vec::new(),
        status: 0,
        said: why.to_owned(),
        fields: Vec::new(),
    }
}

/// The text of the first `<p>`, tags removed.
fn first_sentence(html: &str) -> String {
    let Some(start) = html.find("<p>") else {
        return String::new();
    };
    let rest = &html[start + 3..];
    let end = rest.find("</p>").unwrap_or(rest.len());
    let mut text = String::new();
    let mut in_tag = false;
    for c in rest[..end].chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.replace("&amp;", "&").replace("&quot;", "\"")
}

/// The `name="…"` of every form field.
fn form_fields(html: &str) -> Vec<String> {
    html.split("name=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_owned)
        .collect()
}

fn owned(fields: &[(&str, &str)]) -> Vec<(String, String)> {
    fields
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}
