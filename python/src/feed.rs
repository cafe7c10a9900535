//! What a thread of the package's own sends to a Python iterator (`verify`'s verdicts, `open`'s
//! records), one at a time, through a bounded channel: taken without the GIL when it must be
//! waited for, and the thread stopped when the iterator is closed or dropped.

use std::sync::mpsc::Receiver;
use std::sync::Mutex;
use std::thread::JoinHandle;

use pyo3::prelude::*;

/// The receiving end of a thread's items, and the thread.
pub struct Feed<T> {
    items: Mutex<Option<Receiver<T>>>,
    /// Joined once the iterator is closed.
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl<T: Send> Feed<T> {
    pub fn new(items: Receiver<T>, thread: JoinHandle<()>) -> Feed<T> {
        Feed { items: Mutex::new(Some(items)), thread: Mutex::new(Some(thread)) }
    }

    /// The next item, None once the thread has sent everything or the feed is closed.
    pub fn next(&self, py: Python<'_>) -> Option<T> {
        let items = &self.items;
        // An item already waiting is taken without letting the GIL go and taking it back; the
        // lock is only tried, since a thread that holds it may be waiting for an item without the
        // GIL, and needs the GIL back to go on.
        let ready = match items.try_lock() {
            Ok(guard) => guard.as_ref().and_then(|r| r.try_recv().ok()),
            Err(_) => None,
        };
        ready.or_else(|| {
            py.detach(|| {
                let guard = items.lock().unwrap_or_else(|e| e.into_inner());
                guard.as_ref().and_then(|r| r.recv().ok())
            })
        })
    }

    /// Stops the thread: it sees the receiver gone at its next item and ends once its work in
    /// hand is done; waited for without the GIL.
    pub fn close(&self, py: Python<'_>) {
        drop(self.items.lock().unwrap_or_else(|e| e.into_inner()).take());
        let thread = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(thread) = thread {
            py.detach(|| {
                let _ = thread.join();
            });
        }
    }
}

impl<T> Drop for Feed<T> {
    fn drop(&mut self) {
        // The receiver goes: the thread sees it gone at its next item and ends; it is left to end
        // on its own, so that dropping an iterator never waits.
        if let Ok(mut items) = self.items.lock() {
            items.take();
        }
    }
}
