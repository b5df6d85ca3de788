//! Blocking on several sources at once: how a node sleeps until something
//! happens.
//!
//! A node owns one [`WaitSet`] and adds to it whatever it reacts to: its
//! [`Subscription`](crate::Subscription)s, [`ServiceServer`](crate::ServiceServer)s,
//! [`ActionServer`](crate::ActionServer)s, the [`ClientGoal`](crate::ClientGoal)
//! of a goal it sent, the [`ActiveGoal`](crate::ActiveGoal) it serves (ready when
//! a cancel is requested), a [`Receiver`] fed by one of its own threads, a
//! [`Notifier`], and the node's [`Shutdown`]. [`WaitSet::wait_until`] then
//! sleeps until one of them has something, or a deadline (the earliest of the
//! node's [`Timer`]s) passes. The node takes what is there with the handles'
//! `try_recv` and goes back to sleep: an idle node is asleep, and a message
//! wakes it at once.
//!
//! Every source is a queue (or flag) that, when it becomes ready, bumps a
//! generation counter of each wait set watching it and wakes the thread
//! sleeping there. The same handles serve both backends, so this works
//! identically in process and over DDS.
//!
//! ```
//! use gamebot_ros::wait::{channel, Shutdown, WaitSet, Wake};
//! use std::time::{Duration, Instant};
//!
//! let shutdown = Shutdown::new();
//! let (tx, rx) = channel::<u32>(16);
//! let mut ws = WaitSet::new();
//! ws.add(&rx);
//! ws.add(&shutdown);
//! std::thread::spawn(move || tx.send(7));
//! assert_eq!(ws.wait_until(Some(Instant::now() + Duration::from_secs(10))), Wake::Ready);
//! // (the sender may be dropped by now, closing the channel after its item)
//! assert_eq!(rx.recv_timeout(Duration::from_secs(10)), Ok(7));
//! ```

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::queue::{lock, Queue, Watchers};

/// Why a non-blocking receive returned nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TryRecvError {
    /// Nothing is waiting now; more may come.
    #[error("nothing is waiting")]
    Empty,
    /// Nothing will ever come again: the transport, the sender or the goal is gone.
    #[error("closed: nothing will come again")]
    Closed,
}

/// Why a receive with a timeout returned nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RecvTimeoutError {
    /// Nothing came in time; more may come.
    #[error("nothing came in time")]
    Timeout,
    /// Nothing will ever come again: the transport, the sender or the goal is gone.
    #[error("closed: nothing will come again")]
    Closed,
}

/// The wake-up line of one [`WaitSet`]: a generation counter and a condition
/// variable. Sources hold it weakly and bump it when they become ready.
pub(crate) struct Signal {
    generation: Mutex<u64>,
    changed: Condvar,
}

impl Signal {
    fn new() -> Signal {
        Signal {
            generation: Mutex::new(0),
            changed: Condvar::new(),
        }
    }

    pub(crate) fn notify(&self) {
        *lock(&self.generation) += 1;
        self.changed.notify_all();
    }
}

/// What a wait set needs of a source: to be told when it becomes ready, and
/// to ask whether it is ready now.
pub(crate) trait Watch: Send + Sync {
    fn watch(&self, signal: &Arc<Signal>);
    fn is_ready(&self) -> bool;
}

impl<T: Send> Watch for Queue<T> {
    fn watch(&self, signal: &Arc<Signal>) {
        Queue::watch(self, signal)
    }
    fn is_ready(&self) -> bool {
        Queue::is_ready(self)
    }
}

/// A source a [`WaitSet`] can wait on (opaque; obtained from [`Waitable::source`]).
#[derive(Clone)]
pub struct Source(pub(crate) Arc<dyn Watch>);

impl Source {
    /// Whether the source has something now.
    pub fn is_ready(&self) -> bool {
        self.0.is_ready()
    }
}

/// Anything a node can wait on.
pub trait Waitable {
    /// The source behind this handle.
    fn source(&self) -> Source;
}

/// Identifies a source added to a [`WaitSet`], to remove it later.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct WaitKey(u64);

/// Why [`WaitSet::wait_until`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wake {
    /// At least one source has something.
    Ready,
    /// The deadline passed first.
    Deadline,
}

/// A set of sources one thread sleeps on. See the [module docs](self).
pub struct WaitSet {
    signal: Arc<Signal>,
    sources: Vec<(WaitKey, Source)>,
    next_key: u64,
    wakeups: AtomicU64,
}

impl Default for WaitSet {
    fn default() -> Self {
        WaitSet::new()
    }
}

impl WaitSet {
    /// An empty wait set.
    pub fn new() -> WaitSet {
        WaitSet {
            signal: Arc::new(Signal::new()),
            sources: Vec::new(),
            next_key: 0,
            wakeups: AtomicU64::new(0),
        }
    }

    /// Adds a source; the wait set is told whenever it becomes ready.
    pub fn add(&mut self, w: &impl Waitable) -> WaitKey {
        self.add_source(w.source())
    }

    /// Adds a source obtained earlier with [`Waitable::source`].
    pub fn add_source(&mut self, source: Source) -> WaitKey {
        source.0.watch(&self.signal);
        let key = WaitKey(self.next_key);
        self.next_key += 1;
        self.sources.push((key, source));
        key
    }

    /// Stops waiting on a source (e.g. a finished goal).
    pub fn remove(&mut self, key: WaitKey) {
        self.sources.retain(|(k, _)| *k != key);
    }

    /// How many sources are in the set.
    pub fn len(&self) -> usize {
        self.sources.len()
    }

    /// Whether the set has no source.
    pub fn is_empty(&self) -> bool {
        self.sources.is_empty()
    }

    /// Whether any source has something now.
    pub fn any_ready(&self) -> bool {
        self.sources.iter().any(|(_, s)| s.is_ready())
    }

    /// Sleeps until a source has something ([`Wake::Ready`], at once if one
    /// has already) or `deadline` passes ([`Wake::Deadline`]); `None` waits
    /// without a deadline.
    pub fn wait_until(&self, deadline: Option<Instant>) -> Wake {
        let mut generation = lock(&self.signal.generation);
        loop {
            let seen = *generation;
            // Readiness is checked without the generation lock held (sources
            // take it to notify); a notification in between bumps the counter,
            // so it is not lost.
            drop(generation);
            if self.any_ready() {
                return Wake::Ready;
            }
            generation = lock(&self.signal.generation);
            while *generation == seen {
                let wait = match deadline {
                    Some(d) => {
                        let left = d.saturating_duration_since(Instant::now());
                        if left.is_zero() {
                            return Wake::Deadline;
                        }
                        left
                    }
                    None => Duration::from_secs(3600),
                };
                self.wakeups.fetch_add(1, Ordering::Relaxed);
                generation = self
                    .signal
                    .changed
                    .wait_timeout(generation, wait)
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
            }
        }
    }

    /// [`wait_until`](Self::wait_until) with a timeout.
    pub fn wait_timeout(&self, timeout: Duration) -> Wake {
        self.wait_until(Instant::now().checked_add(timeout))
    }

    /// How many times the waiting thread has gone to sleep so far (a measure
    /// of how often an idle node wakes; the benchmarks read it).
    pub fn sleeps(&self) -> u64 {
        self.wakeups.load(Ordering::Relaxed)
    }
}

/// The earliest of some optional deadlines (`None` if there is none).
pub fn earliest<T: Ord>(deadlines: impl IntoIterator<Item = Option<T>>) -> Option<T> {
    deadlines.into_iter().flatten().min()
}

/// A flag another thread raises to wake a node; taken (cleared) by the node.
#[derive(Clone, Default)]
pub struct Notifier(Arc<FlagSource>);

#[derive(Default)]
struct FlagSource {
    raised: AtomicBool,
    watchers: Watchers,
}

impl Watch for FlagSource {
    fn watch(&self, signal: &Arc<Signal>) {
        self.watchers.add(signal);
    }
    fn is_ready(&self) -> bool {
        self.raised.load(Ordering::SeqCst)
    }
}

impl FlagSource {
    fn raise(&self) {
        self.raised.store(true, Ordering::SeqCst);
        self.watchers.notify();
    }
}

impl Notifier {
    /// A lowered flag.
    pub fn new() -> Notifier {
        Notifier::default()
    }

    /// Raises the flag and wakes the wait sets watching it.
    pub fn notify(&self) {
        self.0.raise();
    }

    /// Whether the flag was raised; lowers it.
    pub fn take(&self) -> bool {
        self.0.raised.swap(false, Ordering::SeqCst)
    }
}

impl Waitable for Notifier {
    fn source(&self) -> Source {
        Source(self.0.clone())
    }
}

/// A node's stop request (Ctrl-C, the test ending, the process shutting
/// down). Once requested it stays requested, so a wait set holding it
/// returns at once from then on.
#[derive(Clone, Default)]
pub struct Shutdown(Arc<FlagSource>);

impl Shutdown {
    /// Not requested yet.
    pub fn new() -> Shutdown {
        Shutdown::default()
    }

    /// Requests the stop and wakes every node waiting on it.
    pub fn request(&self) {
        self.0.raise();
    }

    /// Whether the stop was requested.
    pub fn is_requested(&self) -> bool {
        self.0.raised.load(Ordering::SeqCst)
    }
}

impl std::fmt::Debug for Shutdown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Shutdown(requested: {})", self.is_requested())
    }
}

impl Waitable for Shutdown {
    fn source(&self) -> Source {
        Source(self.0.clone())
    }
}

/// Sends to a [`Receiver`] (e.g. from a worker thread to its node). The
/// receiver sees [`TryRecvError::Closed`] once every sender is dropped.
pub struct Sender<T> {
    inner: Arc<SenderInner<T>>,
}

struct SenderInner<T> {
    queue: Arc<Queue<T>>,
}

impl<T> Drop for SenderInner<T> {
    fn drop(&mut self) {
        self.queue.close();
    }
}

impl<T> Clone for Sender<T> {
    fn clone(&self) -> Self {
        Sender {
            inner: self.inner.clone(),
        }
    }
}

impl<T> Sender<T> {
    /// Queues `item` (dropping the oldest when `depth` are waiting).
    pub fn send(&self, item: T) {
        self.inner.queue.push(item);
    }
}

/// Receives what a [`Sender`] sends; a [`Waitable`].
pub struct Receiver<T> {
    queue: Arc<Queue<T>>,
}

impl<T> Receiver<T> {
    /// The next item, if one is waiting.
    pub fn try_recv(&self) -> Result<T, TryRecvError> {
        self.queue.try_pop()
    }

    /// Waits up to `timeout` for the next item.
    pub fn recv_timeout(&self, timeout: Duration) -> Result<T, RecvTimeoutError> {
        self.queue.pop_timeout(timeout)
    }
}

impl<T: Send + 'static> Waitable for Receiver<T> {
    fn source(&self) -> Source {
        Source(self.queue.clone())
    }
}

/// A channel keeping the newest `depth` unread items.
pub fn channel<T>(depth: usize) -> (Sender<T>, Receiver<T>) {
    let queue = Arc::new(Queue::new(depth));
    (
        Sender {
            inner: Arc::new(SenderInner {
                queue: queue.clone(),
            }),
        },
        Receiver { queue },
    )
}

/// A periodic deadline on the monotonic clock, for heartbeats and retries:
/// pass [`deadline`](Self::deadline) to [`WaitSet::wait_until`] (with
/// [`earliest`] for several), then ask [`fire`](Self::fire).
#[derive(Debug, Clone)]
pub struct Timer {
    period: Duration,
    next: Instant,
}

impl Timer {
    /// A timer that first fires one `period` from now.
    pub fn new(period: Duration) -> Timer {
        Timer {
            period,
            next: Instant::now() + period,
        }
    }

    /// When it fires next.
    pub fn deadline(&self) -> Instant {
        self.next
    }

    /// Whether it is due; if so, re-arms it one period later (periods that
    /// were missed entirely are skipped, not fired in a burst).
    pub fn fire(&mut self) -> bool {
        let now = Instant::now();
        if now < self.next {
            return false;
        }
        self.next += self.period;
        if self.next <= now {
            self.next = now + self.period;
        }
        true
    }

    /// Starts the period again from now.
    pub fn reset(&mut self) {
        self.next = Instant::now() + self.period;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_idle_wait_sleeps_until_its_deadline() {
        let (_tx, rx) = channel::<u8>(4);
        let mut ws = WaitSet::new();
        ws.add(&rx);
        let start = Instant::now();
        assert_eq!(ws.wait_timeout(Duration::from_millis(30)), Wake::Deadline);
        assert!(start.elapsed() >= Duration::from_millis(30));
        // One sleep, not one per millisecond.
        assert!(ws.sleeps() <= 2, "slept {} times", ws.sleeps());
    }

    #[test]
    fn any_source_wakes_the_set() {
        let (tx, rx) = channel::<u8>(4);
        let n = Notifier::new();
        let stop = Shutdown::new();
        let mut ws = WaitSet::new();
        ws.add(&rx);
        ws.add(&n);
        ws.add(&stop);
        let n2 = n.clone();
        let t = std::thread::spawn(move || n2.notify());
        assert_eq!(ws.wait_timeout(Duration::from_secs(30)), Wake::Ready);
        t.join().unwrap();
        assert!(n.take());
        assert!(!n.take());
        let t = std::thread::spawn(move || tx.send(3));
        assert_eq!(ws.wait_timeout(Duration::from_secs(30)), Wake::Ready);
        t.join().unwrap();
        assert_eq!(rx.try_recv(), Ok(3));
        // The sender is gone: closed stays ready.
        assert_eq!(rx.try_recv(), Err(TryRecvError::Closed));
        let key = ws.add(&Notifier::new());
        ws.remove(key);
        assert_eq!(ws.len(), 3);
    }

    #[test]
    fn shutdown_stays_requested() {
        let stop = Shutdown::new();
        let mut ws = WaitSet::new();
        ws.add(&stop);
        let s2 = stop.clone();
        std::thread::spawn(move || s2.request());
        assert_eq!(ws.wait_timeout(Duration::from_secs(30)), Wake::Ready);
        assert!(stop.is_requested());
        assert_eq!(ws.wait_timeout(Duration::from_secs(30)), Wake::Ready);
    }

    #[test]
    fn a_source_added_after_it_became_ready_is_seen() {
        let n = Notifier::new();
        n.notify();
        let mut ws = WaitSet::new();
        ws.add(&n);
        assert_eq!(ws.wait_timeout(Duration::ZERO), Wake::Ready);
    }

    #[test]
    fn timers_skip_missed_periods() {
        let mut t = Timer::new(Duration::from_millis(5));
        assert!(!t.fire());
        std::thread::sleep(Duration::from_millis(30));
        assert!(t.fire());
        assert!(!t.fire());
        assert!(t.deadline() > Instant::now());
        assert_eq!(earliest([None, Some(t.deadline())]), Some(t.deadline()));
        assert_eq!(earliest::<Instant>([None, None]), None);
    }

    proptest::proptest! {
        /// Whatever interleaving of sends and waits, a wait never misses an
        /// item: every item sent is received, and a wait with items queued
        /// returns Ready at once.
        #[test]
        fn no_lost_wakeups(n in 1usize..50) {
            let (tx, rx) = channel::<usize>(usize::MAX);
            let mut ws = WaitSet::new();
            ws.add(&rx);
            let t = std::thread::spawn(move || for i in 0..n { tx.send(i) });
            let mut got = Vec::new();
            loop {
                match rx.try_recv() {
                    Ok(i) => got.push(i),
                    Err(TryRecvError::Closed) => break,
                    Err(TryRecvError::Empty) => {
                        proptest::prop_assert_eq!(ws.wait_timeout(Duration::from_secs(30)), Wake::Ready);
                    }
                }
            }
            t.join().unwrap();
            proptest::prop_assert_eq!(got, (0..n).collect::<Vec<_>>());
        }
    }
}
