package org.ssbjca.inbound;

import org.ssbjca.support.AdapterLog;
import org.ssbjca.support.Tracing;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.lang.reflect.Method;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.function.BooleanSupplier;
import org.ssbjca.brokers.AdapterContext;
import org.ssbjca.brokers.BrokerRegistry;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.ConversationGroupListener;

/**
 * One message-driven bean fed from one queue: its readers, each a long-running container work with its own
 * connection. The number of readers, the batch size and the wait can change while it runs; it can be paused and
 * resumed. Stopping it stops the readers and waits, bounded, for the deliveries in flight.
 */
public final class EndpointActivation {

    private static final AdapterLog LOG = AdapterLog.of(EndpointActivation.class);

    private final AdapterContext ra;
    private final MessageEndpointFactory factory;
    private final ServiceBrokerActivationSpec spec;
    private final List<QueueReader> readers = new CopyOnWriteArrayList<>();
    /** Readers retired by a lower MaxReaders that may still finish a delivery: {@link #stop()} waits for them too. */
    private final List<QueueReader> retired = new ArrayList<>();
    private final Semaphore reconnectGate = new Semaphore(1);
    private final DeliverySettings settings;
    private final CircuitBreaker breaker;
    private final ActivationMetrics metrics = new ActivationMetrics();
    private final PauseGate pause = new PauseGate();
    private final DisabledQueue disabledQueue = new DisabledQueue();
    private final Redeliveries redeliveries = new Redeliveries();
    /** See {@link #failuresRecorded}. */
    private final java.util.concurrent.atomic.AtomicLong failuresRecorded =
            new java.util.concurrent.atomic.AtomicLong();
    private final PriorityScanner priorities;
    private final FailureReports reports = new FailureReports();
    private final ReaderSchedule<QueueReader> schedule;
    private volatile ActivationEvents events = ActivationEvents.NONE;
    private volatile boolean stopped;
    private BrokerRegistry.Entry database;
    private Method method;
    private boolean batchListener;
    private boolean transacted;
    private DeliveryMode deliveryMode;
    /** The tracing of this bean's deliveries, chosen at start for its deployment. */
    private Tracing tracing;
    private int nextReaderId;

    /**
     * @param ra the resource adapter
     * @param factory the container's endpoint factory for the bean
     * @param spec the validated activation properties
     * @throws ResourceException if a property is invalid
     */
    public EndpointActivation(AdapterContext ra, MessageEndpointFactory factory, ServiceBrokerActivationSpec spec)
            throws ResourceException {
        this.ra = ra;
        this.factory = factory;
        this.spec = spec;
        this.settings = new DeliverySettings(spec, loaderOf(factory.getEndpointClass()));
        this.breaker = settings.breaker().newBreaker(new BreakerReports(name(), () -> events));
        this.priorities = settings.priorityEnabled()
                ? new PriorityScanner(settings.queue(), settings.priorityMessageType()) : null;
        this.schedule = new ReaderSchedule<>(this, readers, LOG, name());
    }

    /**
     * Starts the readers.
     *
     * @throws ResourceException if the bean implements no listener interface of this adapter, the database has no
     *         Service Broker (Azure SQL Database) or its broker is disabled or changed its id (checked here when it
     *         answers, else by the readers as they connect),
     *         or the work manager refused every reader
     */
    public void start() throws ResourceException {
        database = ra.registry().get(spec.database());
        Class<?> endpointClass = factory.getEndpointClass();
        batchListener = endpointClass != null && ConversationGroupListener.class.isAssignableFrom(endpointClass);
        try {
            method = batchListener
                    ? ConversationGroupListener.class.getMethod("onMessages", List.class)
                    : BrokerMessageListener.class.getMethod("onMessage", BrokerMessage.class);
            transacted = factory.isDeliveryTransacted(method);
        } catch (NoSuchMethodException e) {
            throw new ResourceException("the bean " + name() + " implements neither BrokerMessageListener nor "
                    + "ConversationGroupListener", e);
        }
        deliveryMode = DeliveryMode.of(settings, transacted);
        tracing = Tracing.get().forDeployment(loaderOf(endpointClass), name());
        try {
            requirePlatform();
            requireBroker();
        } catch (IllegalStateException e) {
            throw new ResourceException(e.getMessage(), e);
        } catch (SQLException e) {
            // the database is down: the readers check when they connect
        }
        int readers = new ActivationValues(spec).maxReaders();
        setMaxReaders(readers);
        if (readerCount() == 0 && !stopped) {
            throw new ResourceException("the container's work manager refused every reader of " + name()
                    + " (SSBJCA0015)");
        }
        LOG.activated(name(), database.source().config(), readerCount(), deliveryMode.describe(),
                batchListener ? "conversation group" : "per message");
    }

    /**
     * Checks that the database's server has Service Broker ({@link PlatformRequirements#queueRefusal}); asked of the
     * server once per database.
     *
     * @throws IllegalStateException if it has none (Azure SQL Database), saying what to do
     * @throws SQLException if the server cannot be asked
     */
    void requirePlatform() throws SQLException {
        String refusal = PlatformRequirements.queueRefusal(database.broker().platform(), name());
        if (refusal != null) {
            throw new IllegalStateException(refusal);
        }
    }

    /**
     * Checks, on a connection of its own, that the database's broker is enabled and has the id seen first
     * ({@link org.ssbjca.backend.BrokerDoctor#requireBrokerReady}).
     *
     * @throws IllegalStateException if it is not, saying what to run
     * @throws SQLException if the database cannot be reached
     */
    private void requireBroker() throws SQLException {
        if (!database.broker().identity().applies()) {
            return;
        }
        try (java.sql.Connection c = database.source().open()) {
            try {
                requireBroker(c);
            } finally {
                c.rollback();
            }
        }
    }

    /**
     * @param connection an open connection to the activation's database
     * @throws IllegalStateException if its broker is disabled or its id changed, saying what to run
     */
    void requireBroker(java.sql.Connection connection) {
        if (!database.broker().identity().applies()) {
            return;
        }
        database.broker().doctor(connection).requireBrokerReady(database.broker().identity());
    }

    /**
     * Starts or stops readers until there are {@code n}. Readers that stop finish their delivery in flight first. A
     * reader is scheduled on the container's work manager, outside this activation's lock ({@link ReaderSchedule}):
     * one that gets no thread there within {@value ReaderStarts#WAIT_MILLIS} ms is reported (SSBJCA0014) and counted
     * in {@link #waitingReaders()}; one the work manager refuses (its pool's threads and queue all taken for that
     * long) never runs, leaves {@link #readerCount()} and is reported (SSBJCA0015).
     *
     * @param n 1 to 256
     */
    public void setMaxReaders(int n) {
        if (n < DeliverySettings.MIN_READERS || n > DeliverySettings.MAX_READERS) {
            throw new IllegalArgumentException("MaxReaders must be between " + DeliverySettings.MIN_READERS + " and "
                    + DeliverySettings.MAX_READERS + ", was " + n);
        }
        List<QueueReader> added = new ArrayList<>();
        StartCheck startedTogether = new StartCheck();
        synchronized (this) {
            while (readers.size() < n && !stopped) {
                QueueReader reader = new QueueReader(this, ++nextReaderId, startedTogether);
                readers.add(reader);
                added.add(reader);
            }
            retired.removeIf(r -> r.end().await(0));
            while (readers.size() > n) {
                QueueReader r = readers.remove(readers.size() - 1);
                r.stop();
                retired.add(r);
            }
        }
        if (added.isEmpty()) {
            return;
        }
        schedule.start(ra, added, () -> stopped);
    }

    /**
     * Stops every reader and waits (at most 30 s) for deliveries in flight to finish. A reader still waiting for a
     * thread of the work manager is not waited for: it never runs.
     */
    public void stop() {
        List<QueueReader> stopping;
        synchronized (this) { // not while setMaxReaders (JMX) adds readers: none may escape the stop
            stopped = true;
            schedule.cancel();
            stopping = new ArrayList<>(readers);
            stopping.addAll(retired);
            readers.clear();
            retired.clear();
        }
        schedule.stop(stopping);
        redeliveries.failAll();
        LOG.deactivated(name());
    }

    /** Readers stop taking messages (deliveries in flight finish); {@link #resume()} lets them go on. */
    public void pause() {
        pause.close();
    }

    /** Lets paused readers take messages again. */
    public void resume() {
        pause.open();
    }

    /** Returns whether the readers are paused. */
    public boolean isPaused() {
        return pause.isClosed();
    }

    /**
     * Returns the readers waiting for {@link #resume()}; once it equals {@link #readerCount()} less {@link
     * #waitingReaders()} after a pause, no delivery is in flight and none starts until resumed.
     */
    public int parkedReaders() {
        return pause.parked();
    }

    /**
     * Asks a reader to deliver a dead letter again, in a transaction that takes it out of the dead-letter table. A
     * reader waiting in its RECEIVE is woken for it; when every reader is delivering, the first one done takes it.
     *
     * @param deadLetterId the dead letter's id
     * @return completes with true when the bean took it and the transaction committed; false when it failed, or at
     *         once when the activation has stopped
     */
    public CompletableFuture<Boolean> redeliver(long deadLetterId) {
        CompletableFuture<Boolean> result = redeliveries.add(deadLetterId);
        if (stopped) {
            // stop() may have answered the waiting letters before this one came: no reader will take it
            redeliveries.failAll();
            return result;
        }
        wakeForRedeliveries();
        return result;
    }

    /**
     * Wakes one reader that is not delivering, if dead letters wait for a reader. A wake can miss a reader that was
     * just starting its RECEIVE, so a caller waiting for a redelivery repeats it.
     */
    public void wakeForRedeliveries() {
        redeliveries.wakeOneIdle(readers, metrics.inFlight().keySet());
    }

    /** Sets {@code batchSize}: the new RECEIVE TOP (n), 1 to 10000. */
    public void setReceiveBatchSize(int batchSize) {
        settings.batchSize(batchSize);
    }

    /** Sets {@code millis}: the new WAITFOR timeout, 100 to 600000 ms. */
    public void setWaitTimeout(long millis) {
        settings.waitTimeout(millis);
    }

    /** Sets {@code events}: where to report dead letters, disabled queues and reconnects. */
    public void setEvents(ActivationEvents events) {
        this.events = events == null ? ActivationEvents.NONE : events;
    }

    /** Returns the counters and timings. */
    public ActivationMetrics metrics() {
        return metrics;
    }

    /**
     * Returns how many times a reader of this activation recorded failed deliveries (each time after their commit,
     * before the delivery's rollback released its group): a RECEIVE that began before such a count moved reads the
     * counts again ({@link BatchSorter#prepare}).
     */
    long failuresRecorded() {
        return failuresRecorded.get();
    }

    /** A reader of this activation committed failed deliveries to the ledger. */
    void failureRecorded() {
        failuresRecorded.incrementAndGet();
    }

    /**
     * Returns the readers (MaxReaders): those running and those still waiting for a thread of the container's work
     * manager ({@link #waitingReaders()}), which read nothing until they get one.
     */
    public int readerCount() {
        return schedule.readerCount();
    }

    /**
     * Returns of {@link #readerCount()}, the readers waiting for a thread of the work manager's long-running pool (all
     * its threads taken): they read nothing until one frees.
     */
    public int waitingReaders() {
        return schedule.waitingReaders();
    }

    /** Returns the RECEIVE batch size. */
    public int receiveBatchSize() {
        return settings.batchSize();
    }

    /** Returns the WAITFOR timeout in ms. */
    public long waitTimeoutMillis() {
        return settings.waitTimeout().toMillis();
    }

    /** Returns the queue. */
    public String queue() {
        return settings.queue();
    }

    /** Returns the broker database. */
    public BrokerRegistry.Entry database() {
        return database;
    }

    /** Returns a short name for logs and JMX: the bean's class and queue. */
    public String name() {
        Class<?> bean = factory.getEndpointClass();
        return (bean == null ? factory.getActivationName() : bean.getSimpleName()) + "@" + spec.getQueue();
    }

    /**
     * Marks a group as prioritised (an operator set its priority), so that readers drop the priority once the group
     * is drained.
     *
     * @param group the group
     */
    public void prioritised(java.util.UUID group) {
        if (priorities != null) {
            priorities.prioritised(group);
        }
    }

    /**
     * The priorities that priority requests still in the queue ask for, not yet recorded by a reader's scan (a paused
     * activation, or readers all busy, scans nothing): what the groups' priorities will be once a reader scans.
     * Reads only, in the caller's transaction.
     *
     * @param ledger the delivery ledger on a connection to the activation's database
     * @return each requesting group's requested priority; empty when the activation takes no priority requests
     */
    public java.util.Map<java.util.UUID, Integer> requestedPriorities(org.ssbjca.backend.DeliveryLedger ledger) {
        return priorities == null ? java.util.Map.of() : priorities.requested(ledger);
    }

    // ---- for the readers

    /** Returns once neither an operator's pause nor the circuit breaker holds the reader; false if it stops. */
    boolean awaitResumed(BooleanSupplier stopping) throws InterruptedException {
        return pause.awaitOpen(stopping) && breaker.awaitTurn(stopping);
    }

    void wakePaused() {
        pause.wakeAll();
        breaker.wakeAll();
    }

    /** Returns the activation's circuit breaker ({@link CircuitBreaker#OFF} when {@code breakerThreshold} is 0). */
    public CircuitBreaker breaker() {
        return breaker;
    }

    /** Returns the class loader of the bean's class, or null (where the failure policy's classes may be). */
    public static ClassLoader loaderOf(Class<?> endpointClass) {
        return endpointClass == null ? null : endpointClass.getClassLoader();
    }

    /** Returns since when the readers have found the queue disabled and parked, or null while it is not. */
    public Instant queueDisabledSince() {
        return disabledQueue.since();
    }

    /** Returns the state of the activation's queue found disabled, where its readers park. */
    DisabledQueue disabledQueue() {
        return disabledQueue;
    }

    /**
     * Enables the activation's queue (SQL Server: {@code ALTER QUEUE ... WITH STATUS = ON}) on a connection of its
     * own, committed, and lets the readers parked on it go on at once.
     *
     * @throws SQLException if the database cannot be reached
     */
    public void enableQueue() throws SQLException {
        try (java.sql.Connection c = database.source().open()) {
            boolean committed = false;
            try {
                database.broker().doctor(c).enableQueue(settings.queue());
                c.commit();
                committed = true;
            } finally {
                if (!committed) {
                    c.rollback();
                }
            }
        }
        Instant since = disabledQueue.enabled();
        LOG.queueEnabledByOperator(name(), settings.queue(), since == null ? "it was not found disabled"
                : "disabled since " + since);
    }

    Redeliveries.Redelivery takeRedelivery() {
        return redeliveries.take();
    }

    /** Returns which of the readers' failures are news (logged at WARN once per cause). */
    FailureReports reports() {
        return reports;
    }

    ActivationEvents events() {
        return events;
    }

    PriorityScanner priorities() {
        return priorities;
    }

    MessageEndpointFactory factory() {
        return factory;
    }

    DeliverySettings settings() {
        return settings;
    }

    Method method() {
        return method;
    }

    boolean batchListener() {
        return batchListener;
    }

    /** Returns how the readers deliver, chosen when the activation started. */
    DeliveryMode deliveryMode() {
        return deliveryMode;
    }

    boolean transacted() {
        return transacted;
    }

    /** Returns the tracing of this bean's deliveries ({@link Tracing#forDeployment}), chosen when it started. */
    Tracing tracing() {
        return tracing;
    }

    Object transactionKey() {
        return ra.transactionKey();
    }

    boolean transactionRollbackOnly() {
        return ra.transactionRollbackOnly();
    }

    /** Marks the container's transaction on this thread for rollback (see {@link AdapterContext}). */
    void setTransactionRollbackOnly() {
        ra.setTransactionRollbackOnly();
    }

    Semaphore reconnectGate() {
        return reconnectGate;
    }
}
