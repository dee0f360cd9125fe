//! The little HTTP the page needs: read one request head (parsed by
//! `httparse`, bounded in size and time), answer with a file of the page,
//! an error, or the switch to WebSocket.

use std::fmt;
use std::io::{self, Read, Write};

/// A request head larger than this is refused: the page's requests are a
/// few hundred bytes.
pub const MAX_HEAD_BYTES: usize = 16 * 1024;
const MAX_HEADERS: usize = 64;

/// One request, as far as the server cares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub method: String,
    pub path: String,
    /// Header names in lower case.
    pub headers: Vec<(String, String)>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Whether this asks to switch to WebSocket (RFC 6455 section 4.2.1).
    pub fn is_websocket_upgrade(&self) -> bool {
        let has_token = |name: &str, token: &str| {
            self.header(name).is_some_and(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case(token)))
        };
        self.method == "GET" && has_token("upgrade", "websocket") && has_token("connection", "upgrade")
    }
}

/// Why a request could not be read.
#[derive(Debug)]
pub enum HttpError {
    Io(io::Error),
    /// The connection closed before the head was complete.
    Closed,
    TooLarge,
    Malformed(String),
}

impl fmt::Display for HttpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HttpError::Io(e) => write!(f, "{e}"),
            HttpError::Closed => f.write_str("the connection closed before the request was complete"),
            HttpError::TooLarge => write!(f, "request head longer than {MAX_HEAD_BYTES} bytes"),
            HttpError::Malformed(why) => write!(f, "malformed request: {why}"),
        }
    }
}

impl std::error::Error for HttpError {}

/// Reads one request head. Returns it with any bytes read past its end
/// (the start of a body or of WebSocket frames).
pub fn read_head(stream: &mut impl Read) -> Result<(Request, Vec<u8>), HttpError> {
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 1024];
    loop {
        let n = stream.read(&mut chunk).map_err(HttpError::Io)?;
        if n == 0 {
            return Err(HttpError::Closed);
        }
        buf.extend_from_slice(&chunk[..n]);
        let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
        let mut req = httparse::Request::new(&mut headers);
        match req.parse(&buf) {
            Ok(httparse::Status::Complete(len)) => {
                let request = Request {
                    method: req.method.unwrap_or("").to_string(),
                    path: req.path.unwrap_or("").to_string(),
                    headers: req
                        .headers
                        .iter()
                        .map(|h| (h.name.to_ascii_lowercase(), String::from_utf8_lossy(h.value).into_owned()))
                        .collect(),
                };
                return Ok((request, buf[len..].to_vec()));
            }
            Ok(httparse::Status::Partial) if buf.len() < MAX_HEAD_BYTES => {}
            Ok(httparse::Status::Partial) => return Err(HttpError::TooLarge),
            Err(e) => return Err(HttpError::Malformed(e.to_string())),
        }
    }
}

/// Writes a whole response and ends the exchange (`Connection: close`: the
/// page makes a handful of requests, so keeping connections buys nothing).
pub fn respond(stream: &mut impl Write, status: u16, content_type: &str, body: &[u8]) -> io::Result<()> {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        413 => "Content Too Large",
        503 => "Service Unavailable",
        _ => "Error",
    };
    let head = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Cache-Control: no-cache\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    stream.flush()
}

/// A plain-text error response.
pub fn respond_error(stream: &mut impl Write, status: u16, message: &str) -> io::Result<()> {
    respond(stream, status, "text/plain; charset=utf-8", format!("{message}\n").as_bytes())
}

/// The handshake's answer that switches the connection to WebSocket.
pub fn websocket_accept(stream: &mut impl Write, request: &Request) -> io::Result<()> {
    let key = request.header("sec-websocket-key").unwrap_or("");
    let accept = tungstenite::handshake::derive_accept_key(key.as_bytes());
    let head = format!(
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: {accept}\r\n\r\n"
    );
    stream.write_all(head.as_bytes())?;
    stream.flush()
}

/// Whether a request comes from our own page: browsers send `Origin` with
/// every WebSocket request, and a page of another site (which could
/// otherwise drive the engine on this machine) has another origin than the
/// `Host` it connects to.
pub fn same_origin(request: &Request) -> bool {
    match (request.header("origin"), request.header("host")) {
        (None, _) => true, // not a browser (a test client, a script)
        (Some(origin), Some(host)) => origin.strip_prefix("http://").is_some_and(|o| o.eq_ignore_ascii_case(host)),
        (Some(_), None) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_head_is_read_and_the_rest_kept() {
        let text = b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUpgrade: websocket\r\nConnection: keep-alive, Upgrade\r\n\r\nxyz";
        let (req, rest) = read_head(&mut &text[..]).unwrap();
        assert_eq!((req.method.as_str(), req.path.as_str()), ("GET", "/ws"));
        assert_eq!(req.header("host"), Some("127.0.0.1:8080"));
        assert!(req.is_websocket_upgrade());
        assert_eq!(rest, b"xyz");
    }

    #[test]
    fn bad_heads_are_refused() {
        assert!(matches!(read_head(&mut &b"GET / HTTP/1.1\r\nHost"[..]), Err(HttpError::Closed)));
        assert!(matches!(read_head(&mut &b"\x00\x01 nonsense\r\n\r\n"[..]), Err(HttpError::Malformed(_))));
        let huge = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(MAX_HEAD_BYTES));
        assert!(matches!(read_head(&mut huge.as_bytes()), Err(HttpError::TooLarge)));
    }

    #[test]
    fn another_sites_page_is_not_our_origin() {
        let req = |origin: Option<&str>| Request {
            method: "GET".into(),
            path: "/ws".into(),
            headers: [("host", Some("127.0.0.1:8080")), ("origin", origin)]
                .iter()
                .filter_map(|(k, v)| v.map(|v| (k.to_string(), v.to_string())))
                .collect(),
        };
        assert!(same_origin(&req(Some("http://127.0.0.1:8080"))));
        assert!(same_origin(&req(None)));
        assert!(!same_origin(&req(Some("http://evil.example"))));
        assert!(!same_origin(&req(Some("https://127.0.0.1:8080"))));
    }
}
