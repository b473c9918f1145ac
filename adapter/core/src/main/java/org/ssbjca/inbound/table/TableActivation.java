package org.ssbjca.inbound.table;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.ssbjca.api.TableRow;
import org.ssbjca.api.TableRowListener;
import org.ssbjca.backend.table.SetAsideRow;
import org.ssbjca.backend.table.TableCounts;
import org.ssbjca.backend.table.TableDefinition;
import org.ssbjca.backend.table.TableQueue;
import org.ssbjca.brokers.AdapterContext;
import org.ssbjca.brokers.BrokerRegistry;
import org.ssbjca.inbound.ActivationEvents;
import org.ssbjca.inbound.BreakerReports;
import org.ssbjca.inbound.CircuitBreaker;
import org.ssbjca.inbound.EndpointActivation;
import org.ssbjca.inbound.FailingReaders;
import org.ssbjca.inbound.FailureReports;
import org.ssbjca.inbound.PlatformRequirements;
import org.ssbjca.inbound.ReaderSchedule;
import org.ssbjca.support.AdapterLog;

/**
 * One message-driven bean fed from an application's own table ({@link TableRowListener}): its readers, each a
 * long-running container work with its own connection ({@link TableReader}). The table and its columns are resolved
 * against the database's catalog when it starts: a column the table does not have fails the activation, naming its
 * property; a table not there yet (created by a migration after the bean deploys) or a database that does not answer
 * is logged, and the readers look again as they retry. Stopping it stops the readers and waits, bounded, for the
 * deliveries in flight.
 */
public final class TableActivation {

    private static final AdapterLog LOG = AdapterLog.of(TableActivation.class);

    private final AdapterContext ra;
    private final MessageEndpointFactory factory;
    private final TableActivationSpec spec;
    private final TableSettings settings;
    private final List<TableReader> readers = new CopyOnWriteArrayList<>();
    /** Rows delivered in committed transactions. */
    final LongAdder delivered = new LongAdder();
    /** Deliveries (transactions) that failed: the bean threw, or the transaction rolled back. */
    final LongAdder failed = new LongAdder();
    /** Leased rows whose lease ended before their delivery committed. */
    final LongAdder leasesLost = new LongAdder();
    /** Readers waiting to connect again after a failed turn. */
    final FailingReaders failing = new FailingReaders();
    private volatile String lastError;
    /** Since when deliveries have failed with none committed in between (the rows taken all failing), or null. */
    private final AtomicReference<Instant> deliveriesFailingSince = new AtomicReference<>();
    private final HeldRows held = new HeldRows();
    private final FailureReports reports = new FailureReports();
    private final ReaderSchedule<TableReader> schedule;
    private volatile boolean stopped;
    private BrokerRegistry.Entry database;
    private volatile TableQueue queue;
    private final CircuitBreaker breaker;
    private Method method;
    private boolean transacted;
    private TableDelivery delivery;
    private TableTransaction transaction;
    private int nextReaderId;

    /**
     * @param ra the resource adapter
     * @param factory the container's endpoint factory for the bean
     * @param spec the activation properties
     * @throws ResourceException if a property is invalid
     */
    public TableActivation(AdapterContext ra, MessageEndpointFactory factory, TableActivationSpec spec)
            throws ResourceException {
        this.ra = ra;
        this.factory = factory;
        this.spec = spec;
        this.settings = new TableSettings(spec, EndpointActivation.loaderOf(factory.getEndpointClass()));
        this.schedule = new ReaderSchedule<>(this, readers, LOG, name());
        this.breaker = settings.breaker.newBreaker(new BreakerReports(name(), () -> ActivationEvents.NONE));
    }

    /**
     * Resolves the table and starts the readers.
     *
     * @throws ResourceException if the table or a column does not exist (naming its property), the bean is not a
     *         {@link TableRowListener}, the database cannot run it (a transacted bean on a server without XA: Azure
     *         SQL Database), or the container's work manager refused every reader (one it refuses, its
     *         long-running pool's threads and queue all taken, never runs and is logged: SSBJCA0015)
     */
    public void start() throws ResourceException {
        database = ra.registry().get(settings.database);
        try {
            method = TableRowListener.class.getMethod("onRow", TableRow.class);
            transacted = factory.isDeliveryTransacted(method);
            delivery = TableDelivery.of(settings.definition.mode());
            transaction = TableTransaction.of(transacted);
        } catch (NoSuchMethodException e) {
            throw new ResourceException("the bean " + name() + " does not implement TableRowListener", e);
        }
        try {
            queue();
        } catch (IllegalStateException e) {
            throw new ResourceException(e.getMessage(), e); // the database cannot run this bean
        } catch (IllegalArgumentException e) {
            if (!e.getMessage().startsWith("table:")) {
                throw new ResourceException("ssb-jca table activation property '"
                        + e.getMessage().replaceFirst(":", "':"), e);
            }
            // the table may be created after the bean deploys (a migration at start-up): readers look again
            LOG.tableNotFoundYet(name(), e.getMessage());
        } catch (SQLException e) {
            // the database is down: readers look again, with backoff, as they reconnect
            LOG.tableNotFoundYet(name(), e.getMessage());
        }
        List<TableReader> added = new ArrayList<>();
        synchronized (this) {
            while (readers.size() < settings.maxReaders && !stopped) {
                TableReader reader = new TableReader(this, ++nextReaderId);
                readers.add(reader);
                added.add(reader);
            }
        }
        if (schedule.start(ra, added, () -> stopped)) { // not holding the lock: a stop does not wait for it
            throw new ResourceException("the container's work manager refused every reader of " + name()
                    + " (SSBJCA0015)");
        }
        LOG.tableActivated(name(), settings.definition.table(), database.source().config(), readerCount(),
                settings.definition.mode().name().toLowerCase(java.util.Locale.ROOT),
                transacted ? "XA transacted" : "local transaction");
    }

    /**
     * Stops every reader and waits (at most 30 s) for deliveries in flight to finish. A reader still waiting for a
     * thread of the work manager is not waited for: it never runs.
     */
    public void stop() {
        List<TableReader> stopping;
        synchronized (this) {
            stopped = true;
            schedule.cancel();
            stopping = new ArrayList<>(readers);
            readers.clear();
        }
        schedule.stop(stopping);
        LOG.tableDeactivated(name());
    }

    /** Returns whether the current delivery's container transaction is marked for rollback (the bean doomed it). */
    boolean transactionRollbackOnly() {
        return ra.transactionRollbackOnly();
    }

    /** Marks the container's transaction on this thread for rollback (see {@link AdapterContext}). */
    void setTransactionRollbackOnly() {
        ra.setTransactionRollbackOnly();
    }

    /** Returns its readers now (a copy: readers added or stopped later are not in it). */
    List<TableReader> readers() {
        return List.copyOf(readers);
    }

    /** Returns {@code Bean@table}. */
    public String name() {
        Class<?> bean = factory.getEndpointClass();
        return (bean == null ? factory.getActivationName() : bean.getSimpleName()) + "@" + spec.getTable();
    }

    /** Returns the table as the activation names it. */
    public String table() {
        return settings.definition.table();
    }

    /** Returns transactional or leased. */
    public String mode() {
        return settings.definition.mode().name().toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * Returns the readers: those running and those still waiting for a thread of the container's work manager ({@link
     * #waitingReaders()}), which read nothing until they get one.
     */
    public int readerCount() {
        return schedule.readerCount();
    }

    /** Returns of {@link #readerCount()}, the readers waiting for a thread of the work manager's long-running pool. */
    public int waitingReaders() {
        return schedule.waitingReaders();
    }

    /**
     * A reader's turn failed (the database, the table, a delivery's commit): it waits and connects again.
     *
     * @return whether it is news: the first failure since a turn succeeded, or another cause than the last reported
     */
    boolean readerFailed(String reader, String error) {
        lastError = error;
        failing.failed(reader);
        return reports.firstReport(error);
    }

    /** A reader's turn succeeded: the activation reads again, and its next failure is news. */
    void readerSucceeded(String reader) {
        if (failing.succeeded(reader)) {
            reports.recovered();
        }
    }

    /**
     * A delivery failed: the bean threw on a row, or its transaction rolled back.
     *
     * @param error which rows and why, for {@link #lastError()}
     */
    void rowFailed(String error) {
        lastError = error;
        deliveriesFailingSince.compareAndSet(null, Instant.now());
    }

    /** A delivery committed: its rows are no longer failing, and the activation's deliveries succeed. */
    void rowsDelivered(List<TableRow> rows) {
        held.forget(rows);
        if (deliveriesFailingSince.get() != null) {
            deliveriesFailingSince.set(null);
        }
    }

    /**
     * A reader found no row to take: the deliveries are no longer failing unless a failed row is still remembered
     * (held, or its hold ended less than a minute ago).
     */
    void nothingDelivered() {
        if (deliveriesFailingSince.get() != null && held.isEmpty()) {
            deliveriesFailingSince.set(null);
        }
    }

    /**
     * Returns since when the readers have failed without any reader's turn succeeding in between (the database
     * unreachable, the table missing); null while they read. A bean that fails on rows is not a reader failure: see
     * {@link #deliveriesFailingSince()}.
     */
    public Instant failingSince() {
        return failing.since();
    }

    /**
     * Returns since when every delivery has failed with none committed in between (while failed rows wait for their
     * retry); null while deliveries commit, or once no failed row has come back for its retry.
     */
    public Instant deliveriesFailingSince() {
        return deliveriesFailingSince.get();
    }

    /** Returns the rows whose delivery failed, held back from the takings. */
    HeldRows held() {
        return held;
    }

    /**
     * Returns the latest failure: of a reader's turn (the database, the table), or of a delivery (which rows, how many
     * times since when, and the cause); null before the first.
     */
    public String lastError() {
        return lastError;
    }

    /** Returns rows delivered in committed transactions since the activation started. */
    public long deliveredRows() {
        return delivered.sum();
    }

    /** Returns deliveries that failed (the bean threw, or the transaction rolled back). */
    public long failedDeliveries() {
        return failed.sum();
    }

    /** Returns leased rows whose lease ended before their delivery committed. */
    public long leasesLost() {
        return leasesLost.sum();
    }

    /**
     * Returns the table's counts now (one statement, read without locking, on one of the database's reading
     * connections: no session opened per reading).
     *
     * @throws SQLException on a database error
     */
    public TableCounts counts() throws SQLException {
        TableQueue q = queue();
        return database.readings().read(q::counts);
    }

    /**
     * Gives the rows set aside (taken {@code maxAttempts} times) another round of attempts.
     *
     * @return rows given back
     * @throws SQLException on a database error
     */
    public int redeliverSetAside() throws SQLException {
        TableQueue q = queue();
        try (Connection c = database.source().open()) {
            int n = q.redeliverSetAside(c);
            c.commit();
            LOG.setAsideRows(name(), n, "redelivered");
            return n;
        }
    }

    /**
     * Returns the rows set aside with their errors, in key order (one statement, read without locking, on one of the
     * database's reading connections).
     *
     * @param max at most this many rows
     * @throws SQLException on a database error
     */
    public List<SetAsideRow> setAsideRows(int max) throws SQLException {
        TableQueue q = queue();
        return database.readings().read(c -> q.setAsideRows(c, max));
    }

    /**
     * Gives those of the keys' rows that are set aside another round of attempts.
     *
     * @param keys the rows' keys, as {@link #setAsideRows} returned them (at most 1000)
     * @return rows given back
     * @throws SQLException on a database error
     */
    public int redeliverSetAside(List<Object> keys) throws SQLException {
        int n = giveBack(keys);
        LOG.setAsideRows(name(), n, "redelivered");
        return n;
    }

    /**
     * Gives one row another round of attempts if it is set aside, without a log line (a re-queue job logs its start
     * and end).
     *
     * @param key the row's key, as {@link #setAsideRows} returned it
     * @return whether it was set aside and is given back
     * @throws SQLException on a database error
     */
    public boolean requeueSetAside(Object key) throws SQLException {
        return giveBack(List.of(key)) == 1;
    }

    private int giveBack(List<Object> keys) throws SQLException {
        TableQueue q = queue();
        try (Connection c = database.source().open()) {
            int n = q.redeliverSetAside(c, keys);
            c.commit();
            return n;
        }
    }

    /**
     * Deletes the rows set aside.
     *
     * @return rows deleted
     * @throws SQLException on a database error
     */
    public int purgeSetAside() throws SQLException {
        TableQueue q = queue();
        try (Connection c = database.source().open()) {
            int n = q.purgeSetAside(c);
            c.commit();
            LOG.setAsideRows(name(), n, "purged");
            return n;
        }
    }

    /** Returns the JTA transaction on this thread, or null. */
    Object transactionKey() {
        return ra.transactionKey();
    }

    BrokerRegistry.Entry database() {
        return database;
    }

    /**
     * @return the queue, its table resolved against the catalog on first use, after the database's server is found
     *     able to run the bean ({@link PlatformRequirements#tableRefusal})
     * @throws IllegalArgumentException naming the property whose table or column the database does not have
     * @throws IllegalStateException if the database's server cannot run the bean, saying what to do
     * @throws SQLException if the catalog cannot be read
     */
    synchronized TableQueue queue() throws SQLException {
        if (queue == null) {
            String refusal = PlatformRequirements.tableRefusal(database.broker().platform(), name(), transacted);
            if (refusal != null) {
                throw new IllegalStateException(refusal);
            }
            try (Connection c = database.source().open()) {
                TableDefinition.Resolved resolved = settings.definition.resolve(c);
                c.rollback();
                queue = database.broker().tableQueue(resolved);
            }
        }
        return queue;
    }

    /** Returns which of the readers' failures are news (logged at WARN once per cause). */
    FailureReports reports() {
        return reports;
    }

    TableSettings settings() {
        return settings;
    }

    MessageEndpointFactory factory() {
        return factory;
    }

    Method method() {
        return method;
    }

    boolean transacted() {
        return transacted;
    }

    /** Returns how its readers take rows, chosen when it started. */
    TableDelivery delivery() {
        return delivery;
    }

    /** Returns where its deliveries' transactions begin and end, chosen when it started. */
    TableTransaction transaction() {
        return transaction;
    }

    /** Returns the activation's circuit breaker ({@link CircuitBreaker#OFF} when {@code breakerThreshold} is 0). */
    public CircuitBreaker breaker() {
        return breaker;
    }

}
