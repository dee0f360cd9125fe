//! Starting a thread without losing the work when the system refuses it
//! (process or memory limit): the caller gets the work back and can run it
//! itself, or a shortened form of it.

use std::sync::{Arc, Mutex};
use std::thread::{Builder, JoinHandle};

/// Runs `work(payload)` on a new thread from `builder`, or, if no thread can
/// be had, gives `payload` back with the error.
pub fn spawn_or_return<P, R>(
    builder: Builder,
    payload: P,
    work: impl FnOnce(P) -> R + Send + 'static,
) -> Result<JoinHandle<R>, (P, std::io::Error)>
where
    P: Send + 'static,
    R: Send + 'static,
{
    // `spawn` consumes its closure even when it fails: the payload waits in
    // a slot that the thread empties, or the caller when there is none.
    let slot = Arc::new(Mutex::new(Some(payload)));
    let theirs = Arc::clone(&slot);
    let take = |slot: &Mutex<Option<P>>| slot.lock().unwrap_or_else(|e| e.into_inner()).take();
    builder.spawn(move || work(take(&theirs).expect("the payload waits for its thread"))).map_err(|e| {
        let payload = take(&slot).expect("a thread that never started left the payload");
        (payload, e)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_thread_gets_the_payload() {
        let handle = spawn_or_return(Builder::new(), 20, |n| n + 1).expect("a thread");
        assert_eq!(handle.join().ok(), Some(21));
    }

    #[test]
    fn a_refused_thread_gives_the_payload_back() {
        // A stack larger than the address space cannot be had.
        let refused = spawn_or_return(Builder::new().stack_size(usize::MAX), vec![1, 2, 3], |v| v.len());
        let (payload, _) = refused.expect_err("no thread");
        assert_eq!(payload, [1, 2, 3]);
    }
}
