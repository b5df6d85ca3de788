//! Topic and service handles, the same for every backend.

use std::sync::Arc;
use std::time::Duration;

use crate::queue::Queue;
use crate::wait::{RecvTimeoutError, Source, TryRecvError, Waitable};
use crate::{BusError, RosMessage, RosService};

/// What a backend does for a publisher.
pub(crate) trait PublisherImpl<T>: Send + Sync {
    fn publish(&self, msg: &T) -> Result<(), BusError>;
    fn subscriber_count(&self) -> usize;
}

/// Sends messages of type `T` on one topic.
pub struct Publisher<T: RosMessage> {
    topic: String,
    inner: Box<dyn PublisherImpl<T>>,
}

impl<T: RosMessage> Publisher<T> {
    pub(crate) fn new(topic: String, inner: Box<dyn PublisherImpl<T>>) -> Self {
        Publisher { topic, inner }
    }

    /// The resolved topic name.
    pub fn topic(&self) -> &str {
        &self.topic
    }

    /// Publishes a message to every matched subscription.
    pub fn publish(&self, msg: &T) -> Result<(), BusError> {
        self.inner.publish(msg)
    }

    /// How many subscriptions are matched now.
    pub fn subscriber_count(&self) -> usize {
        self.inner.subscriber_count()
    }

    /// Waits until at least `n` subscriptions are matched; returns whether they are.
    pub fn wait_for_subscribers(&self, n: usize, timeout: Duration) -> bool {
        crate::poll_until(timeout, Duration::from_millis(5), || {
            self.subscriber_count() >= n
        })
    }
}

/// What a backend does for a subscription (beyond filling its queue).
pub(crate) trait SubscriptionImpl: Send + Sync {
    fn publisher_count(&self) -> usize;
}

/// Receives messages of type `T` from one topic. Keeps the newest `depth`
/// unread messages (older ones are dropped, as with DDS keep-last history).
pub struct Subscription<T: RosMessage> {
    topic: String,
    queue: Arc<Queue<T>>,
    inner: Box<dyn SubscriptionImpl>,
}

impl<T: RosMessage> Subscription<T> {
    pub(crate) fn new(
        topic: String,
        queue: Arc<Queue<T>>,
        inner: Box<dyn SubscriptionImpl>,
    ) -> Self {
        Subscription {
            topic,
            queue,
            inner,
        }
    }

    /// The resolved topic name.
    pub fn topic(&self) -> &str {
        &self.topic
    }

    /// The next message, if one is waiting; `Closed` once the transport is shut down.
    pub fn try_recv(&self) -> Result<T, TryRecvError> {
        self.queue.try_pop()
    }

    /// Waits up to `timeout` for the next message. To wait on several handles
    /// at once, add them to a [`WaitSet`](crate::wait::WaitSet).
    pub fn recv_timeout(&self, timeout: Duration) -> Result<T, RecvTimeoutError> {
        self.queue.pop_timeout(timeout)
    }

    /// Every waiting message, oldest first.
    pub fn drain(&self) -> Vec<T> {
        self.queue.drain()
    }

    /// How many messages are waiting.
    pub fn pending(&self) -> usize {
        self.queue.len()
    }

    /// Messages discarded because the queue was full.
    pub fn dropped(&self) -> u64 {
        self.queue.dropped()
    }

    /// How many publishers are matched now.
    pub fn publisher_count(&self) -> usize {
        self.inner.publisher_count()
    }

    /// Waits until at least `n` publishers are matched; returns whether they are.
    pub fn wait_for_publishers(&self, n: usize, timeout: Duration) -> bool {
        crate::poll_until(timeout, Duration::from_millis(5), || {
            self.publisher_count() >= n
        })
    }
}

impl<T: RosMessage> Waitable for Subscription<T> {
    fn source(&self) -> Source {
        Source(self.queue.clone())
    }
}

impl<S: RosService> Waitable for ServiceServer<S> {
    fn source(&self) -> Source {
        Source(self.queue.clone())
    }
}

/// Sends a response back; dropping it unanswered tells an in-process client
/// at once (over DDS the client times out).
pub(crate) type Responder<S> =
    Box<dyn FnOnce(<S as RosService>::Response) -> Result<(), BusError> + Send>;

/// One request received by a [`ServiceServer`]; answer it with [`respond`](Self::respond).
pub struct ServiceRequest<S: RosService> {
    /// The request.
    pub request: S::Request,
    responder: Option<Responder<S>>,
}

impl<S: RosService> ServiceRequest<S> {
    pub(crate) fn new(request: S::Request, responder: Responder<S>) -> Self {
        ServiceRequest {
            request,
            responder: Some(responder),
        }
    }

    /// Sends the response to the caller.
    pub fn respond(mut self, response: S::Response) -> Result<(), BusError> {
        match self.responder.take() {
            Some(r) => r(response),
            None => Ok(()),
        }
    }
}

/// Serves one service: requests queue until taken with
/// [`recv_timeout`](Self::recv_timeout) or handled with [`serve_pending`](Self::serve_pending).
pub struct ServiceServer<S: RosService> {
    name: String,
    queue: Arc<Queue<ServiceRequest<S>>>,
    _guard: Box<dyn Send + Sync>,
}

impl<S: RosService> ServiceServer<S> {
    pub(crate) fn new(
        name: String,
        queue: Arc<Queue<ServiceRequest<S>>>,
        guard: Box<dyn Send + Sync>,
    ) -> Self {
        ServiceServer {
            name,
            queue,
            _guard: guard,
        }
    }

    /// The resolved service name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The next request, if one is waiting; `Closed` once the transport is shut down.
    pub fn try_recv(&self) -> Result<ServiceRequest<S>, TryRecvError> {
        self.queue.try_pop()
    }

    /// Waits up to `timeout` for a request.
    pub fn recv_timeout(&self, timeout: Duration) -> Result<ServiceRequest<S>, RecvTimeoutError> {
        self.queue.pop_timeout(timeout)
    }

    /// Answers every waiting request with `handler`; returns how many.
    pub fn serve_pending(&self, mut handler: impl FnMut(S::Request) -> S::Response) -> usize {
        let mut n = 0;
        while let Ok(req) = self.queue.try_pop() {
            let resp = handler(req.request.clone());
            if let Err(e) = req.respond(resp) {
                tracing::warn!("service {}: could not send a response: {e}", self.name);
            }
            n += 1;
        }
        n
    }
}

/// What a backend does for a service client.
pub(crate) trait ServiceClientImpl<S: RosService>: Send + Sync {
    fn call(&self, request: S::Request, timeout: Duration) -> Result<S::Response, BusError>;
    fn is_ready(&self) -> bool;
}

/// Calls one service.
pub struct ServiceClient<S: RosService> {
    name: String,
    inner: Box<dyn ServiceClientImpl<S>>,
}

impl<S: RosService> ServiceClient<S> {
    pub(crate) fn new(name: String, inner: Box<dyn ServiceClientImpl<S>>) -> Self {
        ServiceClient { name, inner }
    }

    /// The resolved service name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Sends a request and waits for the response. Waits for a server first,
    /// all within `timeout`.
    pub fn call(&self, request: S::Request, timeout: Duration) -> Result<S::Response, BusError> {
        self.inner.call(request, timeout)
    }

    /// Whether a server is available now.
    pub fn is_ready(&self) -> bool {
        self.inner.is_ready()
    }

    /// Waits until a server is available; returns whether one is.
    pub fn wait_for_service(&self, timeout: Duration) -> bool {
        crate::poll_until(timeout, Duration::from_millis(5), || self.inner.is_ready())
    }
}
