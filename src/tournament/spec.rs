//! How an engine is described on the command line or in a config file:
//! `name=A cmd="prog args" proto=uci opt:Hash=64 dir=/path ranks=1 time=s`.

use super::clock::TimeControl;
use std::path::PathBuf;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// UCI for Xiangqi: Pikafish notation (ranks 0-9) or Fairy-Stockfish's
    /// ranks 1-10 (see [`RankBase`]).
    Uci,
    /// UCCI 3.0 (ElephantEye style): ranks 0-9, times in seconds unless
    /// the engine offers `usemillisec`.
    Ucci,
    /// The xboard / WinBoard protocol 2 (CECP), as MaxQi and Sjaak II speak
    /// it: moves fed one by one in force mode, ranks 0-9.
    Xboard,
}

/// The number of the first rank in an engine's move text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RankBase {
    /// `h2e2`: ICCS, UCCI, Pikafish, Chariot.
    Zero,
    /// `h3e3`: Fairy-Stockfish in UCI mode.
    One,
}

/// The unit of a UCCI engine's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeUnit {
    Millis,
    Seconds,
}

/// One engine of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub name: String,
    /// The program and its arguments.
    pub command: Vec<String>,
    /// Working directory (default: the current one).
    pub dir: Option<PathBuf>,
    pub protocol: Protocol,
    /// `None`: ranks 1-10 for a UCI engine that offers `UCI_Variant`
    /// (Fairy-Stockfish), else 0-9.
    pub ranks: Option<RankBase>,
    /// `None`: milliseconds when a UCCI engine offers `usemillisec`, else
    /// seconds. Ignored for UCI.
    pub time_unit: Option<TimeUnit>,
    /// Options set after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// Where the engine's stderr goes (default: discarded).
    pub stderr: Option<PathBuf>,
    /// This engine's own time control (default: the match's).
    pub control: Option<TimeControl>,
    /// A new process for every game (`restart=on`), for engines whose
    /// `ucinewgame` does not forget everything.
    pub restart: bool,
}

impl EngineSpec {
    /// An engine running `command` with UCI and everything detected.
    pub fn new(name: &str, command: &[&str]) -> EngineSpec {
        EngineSpec {
            name: name.to_string(),
            command: command.iter().map(|s| s.to_string()).collect(),
            dir: None,
            protocol: Protocol::Uci,
            ranks: None,
            time_unit: None,
            options: Vec::new(),
            stderr: None,
            control: None,
            restart: false,
        }
    }

    /// Reads `key=value` tokens (the `--engine` and `--each` syntax) into
    /// this spec: later tokens override earlier ones, options accumulate.
    pub fn apply_tokens<'a>(&mut self, tokens: impl IntoIterator<Item = &'a str>) -> Result<(), String> {
        for token in tokens {
            let (key, value) =
                token.split_once('=').ok_or_else(|| format!("'{token}' is not key=value (e.g. cmd=./engine)"))?;
            if let Some(option) = key.strip_prefix("opt:").or_else(|| key.strip_prefix("option.")) {
                if option.is_empty() {
                    return Err(format!("'{token}': the option has no name"));
                }
                self.options.retain(|(n, _)| n != option);
                self.options.push((option.to_string(), value.to_string()));
                continue;
            }
            match key {
                "name" => self.name = value.to_string(),
                "cmd" => {
                    self.command = split_command(value)?;
                    if self.command.is_empty() {
                        return Err("cmd= is empty".into());
                    }
                }
                "dir" => self.dir = Some(PathBuf::from(value)),
                "stderr" => self.stderr = Some(PathBuf::from(value)),
                "proto" => {
                    self.protocol = match value {
                        "uci" => Protocol::Uci,
                        "ucci" => Protocol::Ucci,
                        "xboard" | "cecp" | "winboard" => Protocol::Xboard,
                        _ => return Err(format!("proto={value}: must be uci, ucci or xboard")),
                    }
                }
                "ranks" => {
                    self.ranks = match value {
                        "0" | "0-9" => Some(RankBase::Zero),
                        "1" | "1-10" => Some(RankBase::One),
                        "auto" => None,
                        _ => return Err(format!("ranks={value}: must be 0 (ranks 0-9), 1 (ranks 1-10) or auto")),
                    }
                }
                "time" => {
                    self.time_unit = match value {
                        "ms" => Some(TimeUnit::Millis),
                        "s" => Some(TimeUnit::Seconds),
                        "auto" => None,
                        _ => return Err(format!("time={value}: must be ms, s or auto")),
                    }
                }
                "restart" => {
                    self.restart = match value {
                        "on" => true,
                        "off" => false,
                        _ => return Err(format!("restart={value}: must be on or off")),
                    }
                }
                "tc" => self.control = Some(TimeControl::parse_clock(value)?),
                "movetime" => self.control = Some(TimeControl::MoveTime { ms: number(key, value)? }),
                "depth" => self.control = Some(TimeControl::Depth(number(key, value)? as u32)),
                "nodes" => self.control = Some(TimeControl::Nodes(number(key, value)?)),
                _ => {
                    return Err(format!(
                        "unknown engine key '{key}' (known: name, cmd, dir, proto, ranks, time, stderr, \
                         restart, tc, movetime, depth, nodes, opt:NAME)"
                    ));
                }
            }
        }
        Ok(())
    }
}

/// A positive whole number of an engine key (`depth=8`).
fn number(key: &str, value: &str) -> Result<u64, String> {
    match value.parse::<u64>() {
        Ok(n) if n > 0 && n <= u64::from(u32::MAX) => Ok(n),
        _ => Err(format!("{key}={value}: must be a whole number above 0")),
    }
}

/// Splits a command line into words: spaces separate, single or double
/// quotes group, a backslash escapes the next character.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (_, '\\') => {
                word.push(chars.next().ok_or_else(|| format!("'{text}' ends with a backslash"))?);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (_, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("'{text}' has an unclosed quote"));
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_like_a_shell() {
        assert_eq!(split_command("a b  'c d' \"e\\\"f\"").unwrap(), ["a", "b", "c d", "e\"f"]);
        assert_eq!(split_command("''").unwrap(), [""]);
        assert!(split_command("a 'b").is_err());
    }

    #[test]
    fn tokens_fill_a_spec() {
        let mut spec = EngineSpec::new("x", &["x"]);
        spec.apply_tokens(["name=fsf", "cmd=/usr/games/fairy-stockfish", "proto=ucci", "opt:Hash=64", "opt:Hash=32"])
            .unwrap();
        assert_eq!(spec.name, "fsf");
        assert_eq!(spec.protocol, Protocol::Ucci);
        assert_eq!(spec.options, [("Hash".to_string(), "32".to_string())]);
        assert!(spec.apply_tokens(["proto=usi"]).is_err());
        assert!(spec.apply_tokens(["colour=red"]).is_err());
        assert!(spec.apply_tokens(["cmd"]).is_err());
    }
}
