//! `chariot serve`: the board in the browser (the server is `chariot::serve`).

use super::CommandResult;
use chariot::serve::{ServeConfig, Server, SessionLimits};
use std::io::{self, Write};

#[derive(clap::Args)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on. Anything but the local machine lets other
    /// machines in (each visitor gets an engine): only when asked.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
    /// Browser sessions (each with its own engine) at once.
    #[arg(long, default_value_t = 20, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1000))]
    max_sessions: usize,
    /// Threads one session may give its engine.
    #[arg(long, default_value_t = 2, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1024))]
    max_threads: usize,
    /// Hash (MB) one session may give its engine.
    #[arg(long, default_value_t = 256, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=65536))]
    max_hash: usize,
}

pub fn run(args: &ServeArgs) -> CommandResult {
    let config = ServeConfig {
        host: args.host.clone(),
        port: args.port,
        max_sessions: args.max_sessions,
        session: SessionLimits {
            max_threads: args.max_threads,
            max_hash_mb: args.max_hash,
            ..SessionLimits::default()
        },
    };
    let server = Server::bind(config).map_err(|e| format!("cannot listen on {}:{}: {e}", args.host, args.port))?;
    let addr = server.local_addr()?;
    if !addr.ip().is_loopback() {
        eprintln!("chariot serve: warning: {addr} can be reached from other machines; every visitor gets an engine");
    }
    let url = format!("http://{addr}/");
    println!("Chariot board at {url}  (Ctrl-C stops)");
    io::stdout().flush()?;
    if args.open {
        chariot::serve::open_browser(&url);
    }
    server.run()?;
    Ok(())
}
