//! Blocking keep-last queues and one-shot slots: the plumbing every handle
//! receives through, whatever the backend.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

use crate::wait::{RecvTimeoutError, Signal, TryRecvError};

/// The wait sets watching one source: each is told when the source becomes
/// ready. Dead wait sets are pruned as they are found.
#[derive(Default)]
pub(crate) struct Watchers(Mutex<Vec<Weak<Signal>>>);

impl Watchers {
    pub(crate) fn add(&self, signal: &Arc<Signal>) {
        let mut w = lock(&self.0);
        w.retain(|s| s.strong_count() > 0);
        w.push(Arc::downgrade(signal));
    }

    pub(crate) fn notify(&self) {
        let w = lock(&self.0);
        for s in w.iter().filter_map(Weak::upgrade) {
            s.notify();
        }
    }
}

/// A FIFO that keeps only the newest `depth` items (DDS keep-last history),
/// with blocking receive.
pub(crate) struct Queue<T> {
    state: Mutex<QueueState<T>>,
    ready: Condvar,
    depth: usize,
    watchers: Watchers,
}

struct QueueState<T> {
    items: VecDeque<T>,
    dropped: u64,
    /// No item will ever come again (the transport or the peer is gone).
    closed: bool,
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding the lock leaves plain data that is still usable.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl<T> Queue<T> {
    /// A queue keeping at most `depth` items (at least 1).
    pub(crate) fn new(depth: usize) -> Queue<T> {
        Queue {
            state: Mutex::new(QueueState {
                items: VecDeque::new(),
                dropped: 0,
                closed: false,
            }),
            ready: Condvar::new(),
            depth: depth.max(1),
            watchers: Watchers::default(),
        }
    }

    /// Appends, discarding the oldest item when full.
    pub(crate) fn push(&self, item: T) {
        self.push_all(std::iter::once(item));
    }

    /// Appends several items under one lock with one wake-up, discarding
    /// the oldest beyond `depth`: a receiver never sees part of the batch.
    pub(crate) fn push_all(&self, items: impl IntoIterator<Item = T>) {
        let mut s = lock(&self.state);
        let mut pushed = false;
        for item in items {
            if s.items.len() == self.depth {
                s.items.pop_front();
                s.dropped += 1;
            }
            s.items.push_back(item);
            pushed = true;
        }
        drop(s);
        if pushed {
            self.ready.notify_all();
            self.watchers.notify();
        }
    }

    /// Marks the queue closed: what is queued can still be taken, then every
    /// receive answers `Closed` at once.
    pub(crate) fn close(&self) {
        lock(&self.state).closed = true;
        self.ready.notify_all();
        self.watchers.notify();
    }

    /// Whether a receive would return at once (an item, or `Closed`).
    pub(crate) fn is_ready(&self) -> bool {
        let s = lock(&self.state);
        !s.items.is_empty() || s.closed
    }

    /// Tells `signal` whenever an item arrives or the queue closes.
    pub(crate) fn watch(&self, signal: &Arc<Signal>) {
        self.watchers.add(signal);
    }

    pub(crate) fn try_pop(&self) -> Result<T, TryRecvError> {
        let mut s = lock(&self.state);
        match s.items.pop_front() {
            Some(item) => Ok(item),
            None if s.closed => Err(TryRecvError::Closed),
            None => Err(TryRecvError::Empty),
        }
    }

    /// Waits up to `timeout` for an item.
    pub(crate) fn pop_timeout(&self, timeout: Duration) -> Result<T, RecvTimeoutError> {
        let deadline = Instant::now().checked_add(timeout);
        let mut s = lock(&self.state);
        loop {
            if let Some(item) = s.items.pop_front() {
                return Ok(item);
            }
            if s.closed {
                return Err(RecvTimeoutError::Closed);
            }
            let wait = match deadline {
                Some(d) => d.saturating_duration_since(Instant::now()),
                None => Duration::from_secs(3600),
            };
            if wait.is_zero() {
                return Err(RecvTimeoutError::Timeout);
            }
            s = self
                .ready
                .wait_timeout(s, wait)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    pub(crate) fn drain(&self) -> Vec<T> {
        lock(&self.state).items.drain(..).collect()
    }

    pub(crate) fn len(&self) -> usize {
        lock(&self.state).items.len()
    }

    /// How many items were discarded because the queue was full.
    pub(crate) fn dropped(&self) -> u64 {
        lock(&self.state).dropped
    }
}

/// Closes a queue when dropped: held by the task that fills the queue, so
/// the receiver learns when the transport stops (the task ends or is dropped
/// with its executor).
pub(crate) struct CloseOnDrop<T>(pub(crate) Arc<Queue<T>>);

impl<T> Drop for CloseOnDrop<T> {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// A value set once and awaited by another thread.
pub(crate) struct Slot<T> {
    value: Mutex<Option<T>>,
    ready: Condvar,
}

impl<T> Slot<T> {
    pub(crate) fn new() -> Slot<T> {
        Slot {
            value: Mutex::new(None),
            ready: Condvar::new(),
        }
    }

    /// Sets the value unless one is already set; returns whether it was set.
    pub(crate) fn set(&self, v: T) -> bool {
        let mut g = lock(&self.value);
        if g.is_some() {
            return false;
        }
        *g = Some(v);
        drop(g);
        self.ready.notify_all();
        true
    }

    /// Waits up to `timeout` and takes the value.
    pub(crate) fn take_timeout(&self, timeout: Duration) -> Option<T> {
        let deadline = Instant::now().checked_add(timeout);
        let mut g = lock(&self.value);
        loop {
            if let Some(v) = g.take() {
                return Some(v);
            }
            let wait = match deadline {
                Some(d) => d.saturating_duration_since(Instant::now()),
                None => Duration::from_secs(3600),
            };
            if wait.is_zero() {
                return None;
            }
            g = self
                .ready
                .wait_timeout(g, wait)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn keep_last_drops_oldest() {
        let q = Queue::new(3);
        for i in 0..5 {
            q.push(i);
        }
        assert_eq!(q.len(), 3);
        assert_eq!(q.dropped(), 2);
        assert_eq!(q.drain(), vec![2, 3, 4]);
        assert_eq!(q.try_pop(), Err(TryRecvError::Empty));
        assert_eq!(
            q.pop_timeout(Duration::from_millis(1)),
            Err(RecvTimeoutError::Timeout)
        );
        q.push(9);
        q.close();
        assert_eq!(q.try_pop(), Ok(9));
        assert_eq!(q.try_pop(), Err(TryRecvError::Closed));
        assert_eq!(
            q.pop_timeout(Duration::from_secs(30)),
            Err(RecvTimeoutError::Closed)
        );
    }

    #[test]
    fn a_batch_arrives_whole() {
        let q = Queue::new(1);
        q.push_all([1, 2, 3]);
        assert_eq!(q.dropped(), 2);
        assert_eq!(q.try_pop(), Ok(3));
        q.push_all(std::iter::empty());
        assert_eq!(q.try_pop(), Err(TryRecvError::Empty));
    }

    #[test]
    fn blocking_pop_wakes_on_push() {
        let q = Arc::new(Queue::new(2));
        let q2 = q.clone();
        let t = std::thread::spawn(move || q2.pop_timeout(Duration::from_secs(30)));
        q.push(7);
        assert_eq!(t.join().unwrap(), Ok(7));
    }

    #[test]
    fn slot_is_set_once() {
        let s = Slot::new();
        assert!(s.set(1));
        assert!(!s.set(2));
        assert_eq!(s.take_timeout(Duration::ZERO), Some(1));
        assert_eq!(s.take_timeout(Duration::from_millis(1)), None);
    }

    proptest::proptest! {
        #[test]
        fn queue_keeps_the_newest(depth in 1usize..8, n in 0usize..40) {
            let q = Queue::new(depth);
            for i in 0..n { q.push(i); }
            let got = q.drain();
            let want: Vec<usize> = (n.saturating_sub(depth)..n).collect();
            proptest::prop_assert_eq!(got, want);
        }
    }
}
