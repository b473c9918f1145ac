package org.ssbjca.inbound;

import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import java.sql.SQLException;
import java.util.Objects;
import java.util.stream.Stream;
import org.ssbjca.api.BrokerException;
import org.ssbjca.api.QueueDisabledException;
import org.ssbjca.backend.QueueSignals;
import org.ssbjca.support.AdapterLog;
import org.ssbjca.support.Backoff;
import org.ssbjca.support.TaskEnd;

/**
 * One reader of an activation: a loop on a container work thread, each turn one delivery transaction in the activation's {@link DeliveryMode}. It holds its
 * own connection and endpoint; a failure closes both and retries with capped exponential backoff and jitter, one
 * reconnect at a time per activation. It waits while the activation is paused, looks for priority requests when a
 * scan is due, and redelivers dead letters an operator asked for.
 */
final class QueueReader implements Reader {

    private static final AdapterLog LOG = AdapterLog.of(QueueReader.class);

    private final EndpointActivation activation;
    private final DeliverySettings settings;
    private final String name;
    private final Backoff backoff;
    private final TaskEnd end = new TaskEnd();
    private volatile boolean stopped;
    private volatile ReaderConnection connection;
    private MessageEndpoint endpoint;

    QueueReader(EndpointActivation activation, int id) {
        this.activation = activation;
        this.settings = activation.settings();
        this.name = "reader " + id + " of " + activation.name();
        this.backoff = settings.newBackoff();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void run() {
        if (!end.begin()) {
            return; // stopped while it waited for a thread: it never runs, and its end was reached by the stop
        }
        try {
            while (!stopped) {
                try {
                    if (activation.awaitResumed(this::isStopped)) {
                        ensureReady();
                        runOneTransaction();
                        activation.metrics().readerSucceeded(name);
                    }
                    backoff.reset();
                    activation.reports().recovered();
                } catch (Exception | Error e) {
                    // An Error (a class the bean needs cannot be loaded, a stack overflow) must not end the
                    // reader silently: it would stay counted in readerCount() and never be replaced.
                    if (stopped) {
                        break;
                    }
                    failed(e);
                }
            }
        } finally {
            discard();
            activation.metrics().readerStopped(name);
            end.reached();
        }
    }

    private void runOneTransaction() throws Exception {
        if (stopped) {
            return;
        }
        DeliverySteps steps = new DeliverySteps(activation, name, connection, endpoint);
        Redeliveries.Redelivery redelivery = activation.takeRedelivery();
        if (redelivery != null) {
            try {
                redelivery.done(DeadLetterRedelivery.run(steps, redelivery.id()));
            } catch (Exception | Error e) {
                redelivery.done(false);
                throw e;
            }
            return;
        }
        PriorityScanner priorities = activation.priorities();
        if (priorities != null) {
            QueueSignals signals = activation.database().broker().signals();
            if (priorities.claimScan(signals.uncountedArrivals(settings.queue()),
                    signals.arrivals(settings.queue(), priorities.messageType()))) {
                try {
                    scanPriorities();
                } finally {
                    priorities.scanEnded();
                }
            } else if (!priorities.awaitScan()) {
                LOG.priorityScanStillRunning(name, PriorityScanner.SCAN_WAIT_MILLIS);
            }
        }
        activation.deliveryMode().deliverOnce(steps);
    }

    private void scanPriorities() throws Exception {
        connection.inLocalTransaction(
                () -> activation.priorities().scan(activation.database().broker(), connection.session()));
    }

    private void failed(Throwable e) {
        long delay = backoff.nextDelayMillis();
        String what = describe(e);
        if (e instanceof UnavailableException) {
            LOG.endpointUnavailable(name, what, delay);
        } else {
            activation.metrics().error(what);
            activation.metrics().readerFailed(name, e instanceof QueueDisabledException);
            if (e instanceof QueueDisabledException) {
                activation.events().queueDisabled(settings.queue());
            } else {
                activation.events().reconnecting(settings.queue(), name, delay, what);
            }
            boolean queue = queueFailure(e);
            if (queue && activation.reports().firstReport(what)) {
                // Once per activation and cause (a queue declared after the bean started fails every reader on
                // every retry until it exists); the retries are logged at debug.
                LOG.queueFailing(name, what, backoff.failures(), delay);
                LOG.readerFailureTrace(e, name);
            } else if (queue) {
                LOG.queueStillFailing(e, name, what, backoff.failures(), delay);
            } else if (backoff.failures() == 1) {
                LOG.readerFailed(e, name, backoff.failures(), delay);
            } else {
                // The stack trace was logged with the first failure of the run; later ones say what and when.
                LOG.readerFailedAgain(name, backoff.failures(), what, delay);
                LOG.readerFailureTrace(e, name);
            }
        }
        discard();
        pause(delay);
    }

    /**
     * @return whether a reader's failure is its queue's (missing, disabled, a statement on it refused), reported once
     *         per cause (SSBJCA0025), rather than its connection's: a broker operation that failed because the
     *         connection was lost (the backend's {@code connectionLost}) is a reader failure (SSBJCA0020, then 0027)
     */
    private boolean queueFailure(Throwable e) {
        if (!(e instanceof BrokerException)) {
            return false;
        }
        boolean lost = causes(e).anyMatch(c -> c instanceof SQLException sql
                && activation.database().broker().connectionLost(sql));
        // a driver's own error while its server went away (H2's TCP server closing a session under a statement
        // reports a general error, 50000) names no lost connection: the connection itself says it
        return !lost && (connection == null || connection.alive());
    }

    /** @return the causes of a failure, its own first, at most 10 deep */
    private static Stream<Throwable> causes(Throwable e) {
        return Stream.iterate(e, Objects::nonNull, Throwable::getCause).limit(11);
    }

    /**
     * @return what failed, for LastError and the reconnect notification: the message, or, for a wrapper that has
     *         none (afterDelivery's failed commit as an UndeclaredThrowableException), its first cause that has one
     *         with that cause's class, else the class
     */
    static String describe(Throwable e) {
        if (e.getMessage() != null) {
            return e.getMessage();
        }
        return causes(e).skip(1).filter(c -> c.getMessage() != null).findFirst().orElse(e).toString();
    }

    private void ensureReady() throws Exception {
        if (connection == null) {
            activation.reconnectGate().acquire();
            try {
                if (!stopped) {
                    connection = ReaderConnection.open(activation.database(), settings.transactionTimeout());
                    // its batches are sorted by the failed deliveries their RECEIVE read (BatchSorter.prepare)
                    connection.session().readAttemptsWithReceive();
                    if (connection.timeoutIgnored() && activation.reports().firstIgnoredTimeout()) {
                        LOG.transactionTimeoutIgnored(activation.name(), settings.transactionTimeout(),
                                activation.database().source().config());
                    }
                    activation.requirePlatform();
                    requireQueueReady();
                }
            } finally {
                activation.reconnectGate().release();
            }
        }
        if (endpoint == null && !stopped) {
            endpoint = activation.factory().createEndpoint(activation.transacted() ? connection.xaResource() : null);
        }
    }

    /**
     * Checks, outside any delivery, that the queue exists and is enabled, so that a missing or disabled queue is
     * reported once per retry instead of failing transaction after transaction.
     */
    private void requireQueueReady() {
        activation.database().broker().admin(connection.connection()).requireEnabled(settings.queue());
    }

    /** Ends the reader's RECEIVE if it is waiting, so that it comes back for work the activation has for it. */
    void wake() {
        ReaderConnection c = connection;
        if (c != null) {
            c.wake();
        }
    }

    @Override
    public boolean isStopped() {
        return stopped;
    }

    @Override
    public void stop() {
        stopped = true;
        if (end.dropIfWaiting()) {
            return; // it had no thread yet, and now never runs: nothing to cancel
        }
        ReaderConnection c = connection;
        // A reader in a delivery sees the stop when its delivery ends; its session is the bean's too (its verbs
        // through the connection factory), and cancelling it would end the bean's own RECEIVE empty. A stop that
        // comes between the reader's RECEIVE and its bean's call still cancels it.
        if (c != null && !activation.metrics().delivering(name)) {
            c.cancel();
        }
        activation.wakePaused();
    }

    /** @return the end of the reader's loop, reached once it has left its thread (or by a stop before it began) */
    @Override
    public TaskEnd end() {
        return end;
    }

    private void discard() {
        ReaderConnection c = connection;
        connection = null;
        ReaderResources.discard(endpoint, c, name);
        endpoint = null;
    }

    private void pause(long millis) {
        ReaderResources.pause(this::isStopped, millis);
    }
}
