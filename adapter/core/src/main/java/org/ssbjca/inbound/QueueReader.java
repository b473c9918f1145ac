package org.ssbjca.inbound;

import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import java.sql.SQLException;
import java.util.concurrent.Callable;

import org.ssbjca.api.BrokerException;
import org.ssbjca.api.QueueDisabledException;
import org.ssbjca.backend.QueueSignals;
import org.ssbjca.support.AdapterLog;
import org.ssbjca.support.ConnectEvent;
import org.ssbjca.support.FlightEvents;

/**
 * One reader of a queue activation, on the shared {@link ReaderLoop}: each turn one delivery transaction in the
 * activation's {@link DeliveryMode}. It connects first beside the activation's other readers and reconnects one at a
 * time with them ({@link #connect}), waits while the activation is paused, looks for priority requests when a scan is
 * due, and redelivers dead letters an operator asked for. An empty queue is waited on in the RECEIVE, which
 * {@link #wake} and a stop end early.
 */
final class QueueReader extends ReaderLoop {

    private static final AdapterLog LOG = AdapterLog.of(QueueReader.class);

    private final EndpointActivation activation;
    private final DeliverySettings settings;
    /** When the reader's last connect or turn began ({@link System#nanoTime()}): what its failure saw dates from it. */
    private volatile long lookedAt = System.nanoTime();
    /** Whether the reader connected, or tried to, before: its later connects are reconnects. Its own thread's. */
    private boolean connectedBefore;
    /** The check this reader shares with the readers started with it, on its first connect. */
    private final StartCheck startCheck;

    /**
     * @param activation the reader's activation
     * @param id its number in the activation
     * @param startCheck the check shared by the readers started with it
     */
    QueueReader(EndpointActivation activation, int id, StartCheck startCheck) {
        super("reader " + id + " of " + activation.name(), activation.settings().newBackoff());
        this.activation = activation;
        this.settings = activation.settings();
        this.startCheck = startCheck;
    }

    @Override
    protected boolean mayRead() throws Exception {
        return activation.awaitResumed(this::isStopped);
    }

    @Override
    protected long turn() throws Exception {
        lookedAt = System.nanoTime();
        try {
            runOneTransaction();
        } finally {
            activation.breaker().turnEnded(); // a probe that delivered nothing: another may probe
        }
        return 0; // an empty queue is waited on in the RECEIVE itself
    }

    @Override
    protected void succeeded(boolean turned) {
        if (turned) {
            activation.metrics().readerSucceeded(name());
        }
        activation.reports().recovered();
    }

    @Override
    protected void ended() {
        activation.disabledQueue().left(name());
        activation.metrics().readerStopped(name());
    }

    private void runOneTransaction() throws Exception {
        DeliverySteps steps = new DeliverySteps(activation, name(), connection(), endpoint());
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
                LOG.priorityScanStillRunning(name(), PriorityScanner.SCAN_WAIT_MILLIS);
            }
        }
        activation.deliveryMode().deliverOnce(steps);
    }

    private void scanPriorities() throws Exception {
        ReaderConnection connection = connection();
        connection.inLocalTransaction(
                () -> activation.priorities().scan(activation.database().broker(), connection.session()));
    }

    @Override
    protected void failed(Throwable e, int failures, long delay) {
        activation.breaker().turnEnded(); // a probe that failed before its delivery: another may probe
        String name = name();
        String what = describe(e);
        if (e instanceof UnavailableException) {
            LOG.endpointUnavailable(name, what, delay);
        } else {
            activation.metrics().error(what);
            activation.metrics().readerFailed(name, e instanceof QueueDisabledException);
            if (e instanceof QueueDisabledException) {
                activation.events().queueDisabled(settings.queue());
                if (activation.disabledQueue().found(lookedAt)) {
                    LOG.queueDisabledReadersPark(name, settings.queue(), DisabledQueue.PROBE_MILLIS,
                            suspect(), what);
                }
            } else {
                activation.events().reconnecting(settings.queue(), name, delay, what);
            }
            boolean queue = queueFailure(e);
            if (queue && activation.reports().firstReport(what)) {
                // Once per activation and cause (a queue declared after the bean started fails every reader on
                // every retry until it exists); the retries are logged at debug.
                LOG.queueFailing(name, what, failures, delay);
                LOG.readerFailureTrace(e, name);
            } else if (queue) {
                LOG.queueStillFailing(e, name, what, failures, delay);
            } else if (failures == 1) {
                LOG.readerFailed(e, name, failures, delay);
            } else {
                // The stack trace was logged with the first failure of the run; later ones say what and when.
                LOG.readerFailedAgain(name, failures, what, delay);
                LOG.readerFailureTrace(e, name);
            }
        }
    }

    @Override
    protected void waitAfterFailure(Throwable e, long delayMillis) {
        if (e instanceof QueueDisabledException) {
            activation.disabledQueue().park(name(), this::isStopped, DisabledQueue.PROBE_MILLIS);
        } else {
            super.waitAfterFailure(e, delayMillis);
        }
    }

    /**
     * @return the failed delivery the adapter counted last on the queue (read on a connection of its own, once per
     *     disabled episode), as text for SSBJCA0260; what is known when it cannot be read
     */
    private String suspect() {
        try (java.sql.Connection c = activation.database().source().open()) {
            org.ssbjca.backend.FailedDelivery d = activation.database().broker().doctor(c)
                    .lastFailedDelivery(settings.queue());
            c.rollback();
            return d == null ? "none counted by the adapter (the rollbacks were not its deliveries')"
                    : "conversation " + d.conversation() + " message " + d.sequence() + ", " + d.attempts()
                            + " failed deliveries, the last at " + d.lastAttempt() + ": " + d.lastError();
        } catch (SQLException | RuntimeException e) {
            return "unknown (" + describe(e) + ")";
        }
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
        ReaderConnection connection = connection();
        return !lost && (connection == null || connection.alive());
    }

    /**
     * Connects the reader. Its first connect opens its connection beside the activation's other readers, so that a
     * deployment's readers all deliver after one connect's time; a reconnect after a failure opens it one reader of
     * the activation at a time (its reconnect gate), so that a database that comes back is not met by every reader at
     * once. Then, one reader at a time in both cases, it checks the platform, the broker and the queue: a reader that
     * finds its queue enabled again moves a page of its transmissions meanwhile. On their first connect the readers
     * started together share one check that passed ({@link StartCheck}). A connect that succeeds is a flight recorder
     * event ({@link ConnectEvent}).
     */
    @Override
    protected void connect() throws Exception {
        boolean first = !connectedBefore;
        connectedBefore = true;
        ConnectEvent event = FlightEvents.begun(new ConnectEvent());
        boolean checked = first
                ? open() && atTheGate(() -> startCheck.runUnlessPassed(this::check))
                : atTheGate(() -> open() && check());
        if (!isStopped()) { // open() returns without a connection only to a stopped reader
            ConnectEvent.finish(event, settings.queue(), name(), !first, checked);
        }
    }

    /**
     * Runs {@code step} holding the activation's reconnect gate: one reader of the activation at a time.
     *
     * @return what {@code step} returned
     */
    private boolean atTheGate(Callable<Boolean> step) throws Exception {
        activation.reconnectGate().acquire();
        try {
            return step.call();
        } finally {
            activation.reconnectGate().release();
        }
    }

    /** Opens the reader's connection and hands it to the loop; false (none opened) once the reader is stopped. */
    private boolean open() throws Exception {
        lookedAt = System.nanoTime();
        if (isStopped()) {
            return false;
        }
        ReaderConnection connection = ReaderConnection.open(activation.database(), settings.transactionTimeout(),
                activation::setTransactionRollbackOnly);
        connected(connection);
        // its batches are sorted by the failed deliveries their RECEIVE read (BatchSorter.prepare)
        connection.session().readAttemptsWithReceive();
        if (connection.timeoutIgnored() && activation.reports().firstIgnoredTimeout()) {
            LOG.transactionTimeoutIgnored(activation.name(), settings.transactionTimeout(),
                    activation.database().source().config());
        }
        return true;
    }

    /**
     * Checks, unless the reader is stopped, what its connection reads from: the platform, the broker, the queue.
     *
     * @return whether it checked (false when the reader was stopped)
     */
    private boolean check() throws Exception {
        if (isStopped()) {
            return false;
        }
        ReaderConnection connection = connection();
        activation.requirePlatform();
        activation.requireBroker(connection.connection());
        requireQueueReady(connection);
        java.time.Instant since = activation.disabledQueue().enabled();
        if (since != null) {
            LOG.queueEnabledAgain(name(), settings.queue(), since);
        }
        return true;
    }

    @Override
    protected MessageEndpoint createEndpoint(ReaderConnection c) throws Exception {
        return activation.factory().createEndpoint(activation.transacted() ? c.xaResource() : null);
    }

    /**
     * Checks, outside any delivery, that the queue exists and is enabled, so that a missing or disabled queue is
     * reported once per retry instead of failing transaction after transaction.
     */
    private void requireQueueReady(ReaderConnection connection) {
        activation.database().broker().admin(connection.connection()).requireEnabled(settings.queue());
    }

    /**
     * A reader in a delivery sees the stop when its delivery ends; its session is the bean's too (its verbs through
     * the connection factory), and cancelling it would end the bean's own RECEIVE empty. A stop that comes between the
     * reader's RECEIVE and its bean's call still cancels it.
     */
    @Override
    protected void stopping(ReaderConnection c) {
        if (c != null && !activation.metrics().delivering(name())) {
            c.cancel();
        }
        activation.wakePaused();
        activation.disabledQueue().wakeAll();
    }
}
