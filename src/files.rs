//! Reading a file named from outside (a GUI's `EvalFile` or `BookFile`
//! option) without trusting it: only a regular file, and only up to a
//! limit. A FIFO would block the open for ever, `/dev/zero` would be read
//! until memory runs out.

use std::fmt;
use std::io::Read;
use std::path::Path;

/// Why [`read_regular_file`] gave no bytes.
#[derive(Debug)]
pub enum ReadProblem {
    Io(std::io::Error),
    /// A device, pipe or directory (refused before reading: a FIFO would
    /// block the open, a device may never end).
    NotRegularFile,
    /// Over the limit: the size the file system gave (`None`: it grew
    /// past the limit while being read).
    TooLarge {
        bytes: Option<u64>,
        limit: u64,
    },
}

impl fmt::Display for ReadProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadProblem::Io(e) => write!(f, "{e}"),
            ReadProblem::NotRegularFile => write!(f, "not a regular file"),
            ReadProblem::TooLarge { bytes: Some(bytes), limit } => {
                write!(f, "{bytes} bytes, more than the {limit} allowed")
            }
            ReadProblem::TooLarge { bytes: None, limit } => write!(f, "more than the {limit} bytes allowed"),
        }
    }
}

impl std::error::Error for ReadProblem {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadProblem::Io(e) => Some(e),
            _ => None,
        }
    }
}

/// The bytes of a regular file of at most `limit` bytes. Devices, pipes and
/// directories are refused before they are opened.
pub fn read_regular_file(path: &Path, limit: u64) -> Result<Vec<u8>, ReadProblem> {
    let meta = std::fs::metadata(path).map_err(ReadProblem::Io)?;
    if !meta.is_file() {
        return Err(ReadProblem::NotRegularFile);
    }
    if meta.len() > limit {
        return Err(ReadProblem::TooLarge { bytes: Some(meta.len()), limit });
    }
    let mut bytes = Vec::new();
    let file = std::fs::File::open(path).map_err(ReadProblem::Io)?;
    // The file may grow after the check: read one byte past the limit at most.
    file.take(limit + 1).read_to_end(&mut bytes).map_err(ReadProblem::Io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadProblem::TooLarge { bytes: None, limit });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_pipes_directories_and_big_files_are_refused() {
        for path in ["/dev/zero", "/dev/null", "/"] {
            let problem = read_regular_file(Path::new(path), 1 << 20).unwrap_err();
            assert!(matches!(problem, ReadProblem::NotRegularFile), "{path}: {problem:?}");
        }
        let dir = std::env::temp_dir().join(format!("chariot-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("ten-bytes");
        std::fs::write(&file, b"0123456789").unwrap();
        assert_eq!(read_regular_file(&file, 10).unwrap(), b"0123456789");
        let problem = read_regular_file(&file, 9).unwrap_err();
        assert!(matches!(problem, ReadProblem::TooLarge { bytes: Some(10), limit: 9 }), "{problem:?}");
        assert!(matches!(read_regular_file(&dir.join("none"), 9), Err(ReadProblem::Io(_))));
        std::fs::remove_dir_all(dir).ok();
    }
}
