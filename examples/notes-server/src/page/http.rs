//! Just enough HTTP/1.1 for the setup page: one request per connection
//! (`Connection: close`), a bounded head and body, `Content-Length` only,
//! and answers with headers that keep the page private (no caching, no
//! referrer, no framing, no scripts).

use std::io;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// The longest request head accepted.
pub(crate) const MAX_HEAD: usize = 8 * 1024;
/// The longest request body accepted (a template of
/// [`MAX_TEMPLATE`](crate::prefs::MAX_TEMPLATE) bytes, percent-encoded).
pub(crate) const MAX_BODY: usize = 64 * 1024;

/// A parsed request.
#[derive(Debug)]
pub(crate) struct Request {
    pub(crate) method: String,
    pub(crate) path: String,
    pub(crate) query: String,
    pub(crate) host: Option<String>,
    pub(crate) content_type: Option<String>,
    pub(crate) body: Vec<u8>,
}

/// An answer: status, reason phrase, HTML body.
#[derive(Debug)]
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) reason: &'static str,
    pub(crate) html: String,
}

impl Answer {
    /// A short page with one sentence.
    pub(crate) fn text(status: u16, reason: &'static str, sentence: &str) -> Self {
        let html = page(reason, &format!("<p>{}</p>", escape(sentence)));
        Self {
            status,
            reason,
            html,
        }
    }
}

/// Reads one request.
///
/// # Errors
///
/// The answer to send instead: 400 malformed, 411 no length, 413 body too
/// large, 431 head too large, 501 a transfer encoding.
pub(crate) async fn read_request<S: AsyncRead + Unpin>(stream: &mut S) -> Result<Request, Answer> {
    let bad = |why: &str| Answer::text(400, "Bad Request", why);
    let mut buf = Vec::with_capacity(1024);
    let head_end = loop {
        if let Some(at) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break at;
        }
        if buf.len() > MAX_HEAD {
            return Err(Answer::text(
                431,
                "Request Header Fields Too Large",
                "Too long.",
            ));
        }
        let mut chunk = [0u8; 2048];
        match stream.read(&mut chunk).await {
            Ok(0) | Err(_) => return Err(bad("The request ended early.")),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    };
    let head = std::str::from_utf8(&buf[..head_end]).map_err(|_| bad("Not UTF-8."))?;
    let mut lines = head.split("\r\n");
    let line = lines.next().unwrap_or_default();
    let (method, target) = match line.split(' ').collect::<Vec<_>>()[..] {
        [method, target, version] if version.starts_with("HTTP/1.") => (method, target),
        _ => return Err(bad("Not an HTTP/1.x request line.")),
    };
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut request = Request {
        method: method.to_owned(),
        path: path.to_owned(),
        query: query.to_owned(),
        host: None,
        content_type: None,
        body: Vec::new(),
    };
    let mut length = None;
    for line in lines {
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| bad("A malformed header."))?;
        let value = value.trim().to_owned();
        match name.trim().to_ascii_lowercase().as_str() {
            "host" if request.host.is_none() => request.host = Some(value),
            "host" => return Err(bad("Two Host headers.")),
            "content-type" => request.content_type = Some(value),
            "content-length" if length.is_none() => {
                length = Some(value.parse::<usize>().map_err(|_| bad("A bad length."))?)
            }
            "content-length" => return Err(bad("Two lengths.")),
            "transfer-encoding" => {
                return Err(Answer::text(
                    501,
                    "Not Implemented",
                    "Send a Content-Length.",
                ));
            }
            _ => {}
        }
    }
    let length = match (length, method) {
        (Some(n), _) => n,
        (None, "POST") => {
            return Err(Answer::text(
                411,
                "Length Required",
                "Send a Content-Length.",
            ));
        }
        (None, _) => 0,
    };
    if length > MAX_BODY {
        return Err(Answer::text(413, "Content Too Large", "Too long."));
    }
    let mut body = buf.split_off(head_end + 4);
    while body.len() < length {
        let mut chunk = vec![0u8; length - body.len()];
        match stream.read(&mut chunk).await {
            Ok(0) | Err(_) => return Err(bad("The body ended early.")),
            Ok(n) => body.extend_from_slice(&chunk[..n]),
        }
    }
    body.truncate(length);
    request.body = body;
    Ok(request)
}

/// Writes `answer` and closes the exchange.
///
/// # Errors
///
/// The stream's.
pub(crate) async fn respond<S: AsyncWrite + Unpin>(
    stream: &mut S,
    answer: &Answer,
) -> io::Result<()> {
    let head = format!(
        "HTTP/1.1 {} {}\r\n\
         Content-Type: text/html; charset=utf-8\r\n\
         Content-Length: {}\r\n\
         Connection: close\r\n\
         Cache-Control: no-store\r\n\
         Referrer-Policy: no-referrer\r\n\
         X-Content-Type-Options: nosniff\r\n\
         X-Frame-Options: DENY\r\n\
         Content-Security-Policy: default-src 'none'; form-action 'self'; frame-ancestors 'none'\r\n\r\n",
        answer.status,
        answer.reason,
        answer.html.len()
    );
    stream.write_all(head.as_bytes()).await?;
    stream.write_all(answer.html.as_bytes()).await?;
    stream.shutdown().await
}

/// A whole page: `title` and an HTML `body`.
pub(crate) fn page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>notes-server: {}</title></head>\n<body>\n<h1>{}</h1>\n{body}\n</body></html>\n",
        escape(title),
        escape(title)
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
