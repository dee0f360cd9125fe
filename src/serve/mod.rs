//! `chariot serve`: the browser board. A small HTTP server hands out one
//! page (its HTML, CSS and JavaScript are compiled into the binary) and
//! talks to it over a WebSocket; each WebSocket is a [`Session`] with an
//! engine of its own, driven in-process. Everything the page sends is
//! checked by the session; nothing of it reaches the filesystem or a shell.
//!
//! Threads: one accepts connections; each connection gets one (a page's
//! file requests end at once, a WebSocket lives as long as the page).

pub mod http;
pub mod json;
pub mod session;

pub use session::{Session, SessionLimits};

use std::io;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tungstenite::protocol::{Role, WebSocket, WebSocketConfig};
use tungstenite::{Message, Utf8Bytes};

/// The page's files: path, content type, content.
const FILES: [(&str, &str, &str); 3] = [
    ("/", "text/html; charset=utf-8", include_str!("page/index.html")),
    ("/app.js", "text/javascript; charset=utf-8", include_str!("page/app.js")),
    ("/style.css", "text/css; charset=utf-8", include_str!("page/style.css")),
];

/// How the server runs (`chariot serve`'s options).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServeConfig {
    pub host: String,
    pub port: u16,
    /// Browser sessions (engines) at once; more are refused with a message.
    pub max_sessions: usize,
    pub session: SessionLimits,
}

impl Default for ServeConfig {
    fn default() -> ServeConfig {
        ServeConfig { host: "127.0.0.1".to_string(), port: 8080, max_sessions: 20, session: SessionLimits::default() }
    }
}

/// A bound server, not yet serving (so the caller can print the address,
/// and tests can bind port 0 and learn the port).
pub struct Server {
    listener: TcpListener,
    config: ServeConfig,
    sessions: Arc<AtomicUsize>,
}

/// A session's socket waits this long for a command before it looks at
/// the search's output again.
const POLL: Duration = Duration::from_millis(20);
/// A connection that does not finish its request head in this time is dropped.
const HEAD_TIMEOUT: Duration = Duration::from_secs(10);

impl Server {
    pub fn bind(config: ServeConfig) -> io::Result<Server> {
        let listener = TcpListener::bind((config.host.as_str(), config.port))?;
        Ok(Server { listener, config, sessions: Arc::new(AtomicUsize::new(0)) })
    }

    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until the process ends.
    pub fn run(self) -> io::Result<()> {
        for stream in self.listener.incoming() {
            let Ok(stream) = stream else { continue };
            let config = self.config.clone();
            let sessions = Arc::clone(&self.sessions);
            let spawned = std::thread::Builder::new().name("serve-connection".into()).spawn(move || {
                if let Err(e) = connection(stream, &config, &sessions) {
                    log::debug!("connection: {e}");
                }
            });
            if let Err(e) = spawned {
                log::warn!("no thread for a connection: {e}");
            }
        }
        Ok(())
    }
}

/// Counts a session for as long as it lives.
struct SessionSlot(Arc<AtomicUsize>);

impl SessionSlot {
    fn take(count: &Arc<AtomicUsize>, max: usize) -> Option<SessionSlot> {
        let mut now = count.load(Ordering::Acquire);
        loop {
            if now >= max {
                return None;
            }
            match count.compare_exchange(now, now + 1, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => return Some(SessionSlot(Arc::clone(count))),
                Err(seen) => now = seen,
            }
        }
    }
}

impl Drop for SessionSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

fn connection(mut stream: TcpStream, config: &ServeConfig, sessions: &Arc<AtomicUsize>) -> io::Result<()> {
    stream.set_read_timeout(Some(HEAD_TIMEOUT))?;
    let (request, rest) = match http::read_head(&mut stream) {
        Ok(r) => r,
        Err(http::HttpError::Io(e)) => return Err(e),
        Err(http::HttpError::Closed) => return Ok(()),
        Err(e) => return http::respond_error(&mut stream, 400, &e.to_string()),
    };
    if request.path == "/ws" {
        if !request.is_websocket_upgrade() {
            return http::respond_error(&mut stream, 400, "/ws is the WebSocket of the page");
        }
        if !http::same_origin(&request) {
            return http::respond_error(&mut stream, 403, "WebSocket from another site's page refused");
        }
        let Some(slot) = SessionSlot::take(sessions, config.max_sessions) else {
            return http::respond_error(&mut stream, 503, "too many sessions; close another page and reload");
        };
        http::websocket_accept(&mut stream, &request)?;
        return websocket(stream, rest, config.session, slot);
    }
    if request.method != "GET" && request.method != "HEAD" {
        return http::respond_error(&mut stream, 405, "only GET");
    }
    let path = request.path.split('?').next().unwrap_or("");
    match FILES.iter().find(|(p, _, _)| *p == path) {
        Some((_, kind, body)) => {
            let body = if request.method == "HEAD" { &b""[..] } else { body.as_bytes() };
            http::respond(&mut stream, 200, kind, body)
        }
        None => http::respond_error(&mut stream, 404, "not found"),
    }
}

/// One page's session: commands in, the session's messages out, and the
/// search's output passed on as it comes.
fn websocket(stream: TcpStream, rest: Vec<u8>, limits: SessionLimits, _slot: SessionSlot) -> io::Result<()> {
    stream.set_read_timeout(Some(POLL))?;
    let ws_config = WebSocketConfig::default()
        .max_message_size(Some(limits.max_message_bytes))
        .max_frame_size(Some(limits.max_message_bytes));
    let mut ws = WebSocket::from_partially_read(stream, rest, Role::Server, Some(ws_config));
    let mut session = Session::new(limits);
    let send = |ws: &mut WebSocket<TcpStream>, messages: Vec<String>| -> Result<(), tungstenite::Error> {
        for m in messages {
            ws.write(Message::Text(Utf8Bytes::from(m)))?;
        }
        ws.flush()
    };
    let closed = |e: &tungstenite::Error| !matches!(e, tungstenite::Error::Io(io) if would_block(io));
    if send(&mut ws, session.welcome()).is_err() {
        return Ok(());
    }
    loop {
        match ws.read() {
            Ok(Message::Text(text)) => {
                let out = session.handle(text.as_str());
                if send(&mut ws, out).is_err() {
                    break;
                }
            }
            Ok(Message::Binary(bytes)) => {
                let out = session.handle_file(&bytes);
                if send(&mut ws, out).is_err() {
                    break;
                }
            }
            Ok(Message::Close(_)) => break,
            Ok(_) => {}
            Err(tungstenite::Error::Capacity(e)) => {
                let out = vec![json::object(&[
                    ("type", json::string("error")),
                    ("message", json::string(&format!("message refused: {e}"))),
                ])];
                let _ = send(&mut ws, out);
                break;
            }
            Err(e) if closed(&e) => break,
            Err(_) => {
                // Nothing arrived in POLL; a pending write may need flushing.
                let _ = ws.flush();
            }
        }
        let out = session.poll();
        if !out.is_empty() && send(&mut ws, out).is_err() {
            break;
        }
    }
    Ok(())
}

fn would_block(e: &io::Error) -> bool {
    matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut)
}

/// Opens `url` in the desktop's browser, if one can be found; failing
/// that, the printed address is there to click.
pub fn open_browser(url: &str) {
    let candidates: &[(&str, &[&str])] = if cfg!(target_os = "windows") {
        &[("cmd", &["/C", "start", ""])]
    } else if cfg!(target_os = "macos") {
        &[("open", &[])]
    } else {
        &[("xdg-open", &[])]
    };
    for (program, args) in candidates {
        let spawned = std::process::Command::new(program)
            .args(*args)
            .arg(url)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
        if spawned.is_ok() {
            return;
        }
    }
    log::warn!("no browser could be started; open {url} by hand");
}
