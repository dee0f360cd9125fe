//! Writing the JSON messages the page reads. Only writing: the page's
//! messages to the server are plain text commands (see `session.rs`), so
//! no JSON parser is needed.

/// A JSON string literal, quotes included (the analysis output's writer).
pub use crate::analysis::output::json_string as string;

/// A JSON array of strings.
pub fn strings<S: AsRef<str>>(items: &[S]) -> String {
    let parts: Vec<String> = items.iter().map(|s| string(s.as_ref())).collect();
    format!("[{}]", parts.join(","))
}

/// A JSON object from (key, already-written value) pairs, in order.
pub fn object(fields: &[(&str, String)]) -> String {
    let parts: Vec<String> = fields.iter().map(|(k, v)| format!("{}:{}", string(k), v)).collect();
    format!("{{{}}}", parts.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped() {
        assert_eq!(string("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u0001\"");
        assert_eq!(string("炮二平五"), "\"炮二平五\"");
    }

    #[test]
    fn objects_and_arrays_keep_their_order() {
        let o = object(&[("type", string("x")), ("list", strings(&["a", "b"])), ("n", 3.to_string())]);
        assert_eq!(o, r#"{"type":"x","list":["a","b"],"n":3}"#);
    }
}
