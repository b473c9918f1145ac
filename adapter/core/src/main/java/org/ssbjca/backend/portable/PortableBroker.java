package org.ssbjca.backend.portable;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import javax.transaction.xa.XAResource;
import org.ssbjca.backend.BackendKind;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.Broker;
import org.ssbjca.backend.BrokerAdmin;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.DeliveryLedger;
import org.ssbjca.backend.GroupPresence;
import org.ssbjca.backend.Jdbc;
import org.ssbjca.backend.QueueSignals;
import org.ssbjca.backend.SchemaVersion;
import org.ssbjca.support.AdapterLog;
import org.ssbjca.support.ConnectionLossXAResource;
import org.ssbjca.support.TaskEnd;

/**
 * The portable broker on H2 or PostgreSQL. Readers in this JVM are woken by {@link QueueSignals} after a sending
 * transaction commits; on PostgreSQL a NOTIFY is also sent after the commit (by {@link PgNotifier}, on its own
 * connection) and a LISTEN connection turns notifications into signals, which wakes readers whose messages were sent
 * by another JVM.
 */
public final class PortableBroker implements Broker {

    private static final AdapterLog LOG = AdapterLog.of(PortableBroker.class);

    /**
     * How long {@link #close()} waits at most for the moves of transmission backlogs to end, then for the listener and
     * the notifier (each in turn, logged {@code SSBJCA0117} when one is still running). A move ends after the page it
     * moves now, or the pause it sleeps before trying a failed page again (at most 1.6 s); a page can take longer
     * than this, since each row it locks may wait {@value Transmissions#BACKGROUND_LOCK_WAIT_MILLIS} ms. The listener
     * looks at its stop flag every 500 ms, between waits for notifications; longer only while it checks a silent
     * connection (at most 2 s) or connects to a database that does not answer; the notifier waits at most
     * {@link PgNotifier#NETWORK_TIMEOUT_MILLIS} for each answer of the database.
     */
    static final long STOP_WAIT_MILLIS = 5_000;

    /** The PostgreSQL notification channel; the payload is the queue name. */
    static final String CHANNEL = "ssb_queue";

    private final DatabaseConfig config;
    private final ConnectionSource source;
    private final Dialect dialect;
    private final PortableSql sql;
    private final QueueSignals signals = new QueueSignals();
    private final org.ssbjca.backend.BrokerIdentity identity = new org.ssbjca.backend.BrokerIdentity(false);
    /** Which queues lately had no prioritised group, so that a RECEIVE runs its smaller statement. */
    private final GroupPresence priorities;
    private final Waiting waiting;
    private final Housekeeping housekeeping;
    private final Transmissions transmissions;
    private final EndedEndpoints endedEndpoints = new EndedEndpoints();
    private final Clock clock;
    private final PgListener listener;
    private final PgNotifier notifier;
    /** What the checks of BEGIN DIALOG and SEND found; null until known to be safe (PostgreSQL with the triggers). */
    private volatile CatalogCache catalog;

    /**
     * @param source where the database is
     * @param runner runs the PostgreSQL notification listener and notifier, and the moves of larger backlogs of the
     *        transmission queue onto queues enabled again ({@link BacklogMove})
     * @param options timing options
     */
    public PortableBroker(ConnectionSource source, BackgroundRunner runner, PortableOptions options) {
        this(source, runner, options, System::nanoTime);
    }

    /**
     * As {@link #PortableBroker(ConnectionSource, BackgroundRunner, PortableOptions)}, for tests that move the clock
     * which {@link GroupPresence} and {@link Housekeeping} read to tell when their intervals have passed.
     *
     * @param presenceClock nanoseconds, as {@link System#nanoTime()}
     */
    PortableBroker(ConnectionSource source, BackgroundRunner runner, PortableOptions options,
            java.util.function.LongSupplier presenceClock) {
        this.priorities = new GroupPresence(presenceClock);
        this.config = source.config();
        this.source = source;
        this.dialect = Dialect.of(config.kind());
        this.sql = PortableSql.of(dialect);
        this.clock = options.clock();
        this.housekeeping = new Housekeeping(this, options.housekeepingMillis(), presenceClock);
        this.waiting = new Waiting(signals, options.fallbackPollMillis(), housekeeping::millisUntilDue);
        this.transmissions = new Transmissions(this, runner);
        if (sql instanceof PostgresSql postgres) {
            this.notifier = new PgNotifier(source, postgres, signals);
            this.listener = new PgListener(source, signals, notifier::backendPid);
            // one the container refuses is stopped: readers hear other JVMs (and they this one) at their poll
            runner.run("ssb-jca PostgreSQL LISTEN " + config, listener, listener::stop);
            runner.run("ssb-jca PostgreSQL NOTIFY " + config, notifier, notifier::stop);
        } else {
            this.listener = null;
            this.notifier = null;
        }
    }

    @Override
    public BackendKind kind() {
        return config.kind();
    }

    @Override
    public DatabaseConfig config() {
        return config;
    }

    @Override
    public BrokerSession session(Connection connection) {
        return new PortableSession(this, connection);
    }

    @Override
    public BrokerAdmin admin(Connection connection) {
        return new PortableAdmin(this, connection);
    }

    @Override
    public org.ssbjca.backend.BrokerDoctor doctor(Connection connection) {
        return new PortableDoctor(connection);
    }

    @Override
    public org.ssbjca.backend.BrokerIdentity identity() {
        return identity;
    }

    @Override
    public DeliveryLedger ledger(Connection connection) {
        return new PortableLedger(this, connection);
    }

    @Override
    public org.ssbjca.backend.table.TableQueue tableQueue(org.ssbjca.backend.table.TableDefinition.Resolved table) {
        return new PortableTableQueue(dialect == Dialect.POSTGRESQL, table);
    }

    @Override
    public boolean connectionLost(SQLException e) {
        return Broker.super.connectionLost(e) || dialect.sessionGone(e);
    }

    /**
     * Returns whether a failure passes: caused by a database error that says the connection was lost ({@link
     * #connectionLost}) or that the statement met other transactions' work at the time (a lock wait that ran out, a
     * deadlock, a serialization failure, a concurrent insert of the same key), so that the same work may succeed when
     * done again later. Any other failure (the broker refused the verb, another database error) is permanent.
     *
     * @param failure a failure of work on this broker's database
     */
    boolean transientFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException e && (connectionLost(e) || dialect.contention(e))) {
                return true;
            }
        }
        return false;
    }

    /**
     * @return as every backend's, and on PostgreSQL a prepare the server refused reported as rolled back (see
     *         {@link RefusedPrepareXAResource})
     */
    @Override
    public XAResource xaResource(XAResource driverResource) {
        if (dialect != Dialect.POSTGRESQL || driverResource instanceof ConnectionLossXAResource) {
            return Broker.super.xaResource(driverResource);
        }
        return Broker.super.xaResource(new RefusedPrepareXAResource(driverResource, this::connectionLost));
    }

    /** Returns which queues lately had prioritised groups or none, shared by this broker's sessions. */
    GroupPresence priorities() {
        return priorities;
    }

    @Override
    public QueueSignals signals() {
        return signals;
    }

    @Override
    public void prepareSchema(Connection connection, boolean create) throws SQLException {
        long version = SchemaVersion.read(connection, PortableSql.SCHEMA_VERSION);
        if (create && version < SchemaVersion.CURRENT) {
            // Missing (0) or older: the install script (sql/portable/install.sql) is idempotent, it creates the schema
            // or brings it up to date. Not run when the schema is current: its DDL is not free (CREATE INDEX IF NOT
            // EXISTS still locks its table), and after a crash a prepared, in-doubt transaction can hold a conflicting
            // lock until recovery resolves it; recovery needs this broker, whose creation would wait: a deadlock.
            SchemaScripts.install(connection, dialect == Dialect.POSTGRESQL);
            version = SchemaVersion.read(connection, PortableSql.SCHEMA_VERSION);
        }
        SchemaVersion.require(version, "sql/portable/install.sql");
        if (dialect == Dialect.POSTGRESQL && catalog == null) {
            if (Jdbc.count(connection, PostgresSql.PREPARED_TRANSACTIONS_LIMIT) == 0) {
                LOG.preparedTransactionsDisabled(config);
            }
            boolean triggers = catalogTriggersInstalled(connection);
            if (!triggers && create) {
                SchemaScripts.installCatalogVersion(connection);
                triggers = catalogTriggersInstalled(connection);
            }
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
            if (triggers) {
                catalog = new CatalogCache();
            } else {
                LOG.catalogVersionMissing(config);
            }
        }
    }

    /** @return whether every table of declared objects has its enabled catalog-version trigger (PostgreSQL) */
    private boolean catalogTriggersInstalled(Connection connection) throws SQLException {
        return Jdbc.count(connection, sql.catalogTriggers()) == PortableSql.CATALOG_TABLES.size();
    }

    /**
     * Returns what the checks of BEGIN DIALOG and SEND found in the declared objects, or null when it may not be
     * remembered (H2; PostgreSQL without the triggers that version the declared objects, or before
     * {@link #prepareSchema}).
     */
    CatalogCache catalogCache() {
        return catalog;
    }

    /**
     * Stops the moves of transmission backlogs (each after the page it moves now), the PostgreSQL listener and
     * notifier, and waits for them to end (at most {@link #STOP_WAIT_MILLIS} each): in WildFly they run on the work
     * manager's pool, which the server stops after the adapter.
     */
    @Override
    public void close() {
        transmissions.close(STOP_WAIT_MILLIS);
        if (listener != null) {
            listener.stop();
            notifier.stop();
            for (BackgroundTask task : TaskEnd.notEndedWithin(STOP_WAIT_MILLIS, List.of(listener, notifier),
                    BackgroundTask::end)) {
                LOG.backgroundTaskDidNotStop(task == listener ? "PostgreSQL notification listener"
                        : "PostgreSQL notifier", config, STOP_WAIT_MILLIS);
            }
        }
    }

    ConnectionSource source() {
        return source;
    }

    Dialect dialect() {
        return dialect;
    }

    PortableSql sql() {
        return sql;
    }

    Waiting waiting() {
        return waiting;
    }

    EndedEndpoints endedEndpoints() {
        return endedEndpoints;
    }

    Housekeeping housekeeping() {
        return housekeeping;
    }

    /** Returns what moves the transmission queue's messages onto queues enabled again. */
    Transmissions transmissions() {
        return transmissions;
    }

    Instant now() {
        return clock.instant();
    }

    /**
     * @param groups groups a committed transaction sent to without finding them parked, or parked: checked on the
     *     notifier's connection (PostgreSQL), after the commit
     */
    void unparkAfterCommit(java.util.Set<java.util.UUID> groups) {
        if (notifier != null && !groups.isEmpty()) {
            notifier.check(groups);
        }
    }

    /**
     * Tells the readers of other JVMs (PostgreSQL) that messages were committed to these queues; the readers of
     * this JVM are woken by {@link QueueSignals} already.
     */
    void committed(java.util.Collection<String> queues) {
        if (notifier != null && !queues.isEmpty()) {
            notifier.committed(queues);
        }
    }
}
