package org.ssbjca.brokers;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.Broker;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.portable.PortableOptions;
import org.ssbjca.support.AdapterLog;

/**
 * One {@link Broker} per database configuration, shared by the connection factories and the activations of one
 * resource adapter instance, so that a commit on an outbound connection wakes the readers of the same database.
 *
 * <p>Nothing here connects to the database when a broker is created: a database that is down while the adapter
 * starts or a bean is activated must not fail the deployment. The portable schema is prepared by whoever first
 * needs a connection ({@link Entry#prepareSchema()}: a reader, an outbound connection, an operator's JMX call), and
 * prepared again by the next one if that failed.
 */
public final class BrokerRegistry {

    private static final AdapterLog LOG = AdapterLog.of(BrokerRegistry.class);

    private final Map<DatabaseConfig, Entry> brokers = new ConcurrentHashMap<>();
    private final BackgroundRunner runner;
    private final PortableOptions portableOptions;
    private final boolean createSchema;
    private volatile BranchNames names = BranchNames.NONE;

    /**
     * @param runner runs backend background tasks
     * @param portableOptions timing of the portable backends
     * @param createSchema whether to create the portable schema when it is missing
     */
    public BrokerRegistry(BackgroundRunner runner, PortableOptions portableOptions, boolean createSchema) {
        this.runner = runner;
        this.portableOptions = portableOptions;
        this.createSchema = createSchema;
    }

    /**
     * Names the XA branches of every database from now on.
     *
     * @param names how the databases' XA resources are presented to the transaction manager from now on
     */
    public void nameBranches(BranchNames names) {
        this.names = names;
    }

    /**
     * Returns its broker and connection source, created on first use without connecting to the database.
     *
     * @param config a database
     */
    public Entry get(DatabaseConfig config) {
        return brokers.computeIfAbsent(config, this::create);
    }

    private Entry create(DatabaseConfig config) {
        ConnectionSource source = new ConnectionSource(config);
        Broker broker = Brokers.create(source, runner, portableOptions);
        return new Entry(this, source, broker);
    }

    /** Returns the brokers in use. */
    public Collection<Entry> entries() {
        return List.copyOf(brokers.values());
    }

    /** Closes every broker. */
    public void close() {
        brokers.values().forEach(e -> {
            e.readings.close();
            e.recovery.close();
            e.broker.close();
        });
        brokers.clear();
    }

    /** A broker with the connection source of its database. */
    public static final class Entry {
        private final BrokerRegistry registry;
        private final ConnectionSource source;
        private final Broker broker;
        private final RecoveryResources recovery;
        private final ReadingConnections readings;
        private volatile boolean schemaReady;

        Entry(BrokerRegistry registry, ConnectionSource source, Broker broker) {
            this.registry = registry;
            this.source = source;
            this.broker = broker;
            this.recovery = new RecoveryResources(this);
            this.readings = new ReadingConnections(source);
        }

        /**
         * Readies the database once ({@link Broker#prepareSchema}): creates the portable schema if it is missing and
         * {@code createSchema} is on, and checks the version of the adapter's tables on every backend. The first call
         * that reaches the database does it, later calls return at once. Safe when several readers, connections or
         * servers call it at the same time (one at a time in this adapter; PostgreSQL serializes the install script
         * across servers).
         *
         * @throws SQLException if the database cannot be reached or the script fails; the next call tries again
         */
        public void prepareSchema() throws SQLException {
            if (schemaReady) {
                return;
            }
            synchronized (this) {
                if (schemaReady) {
                    return;
                }
                try (Connection c = source.open()) {
                    broker.prepareSchema(c, registry.createSchema);
                } catch (SQLException e) {
                    throw new SQLException("cannot prepare the broker schema on " + source.config() + ": "
                            + e.getMessage(), e.getSQLState(), e.getErrorCode(), e);
                }
                schemaReady = true;
                LOG.schemaReady(source.config());
            }
        }

        /**
         * Returns the XA resource the transaction manager uses to recover this database's in-doubt branches; it
         * reconnects by itself when the database restarted since it was handed out.
         */
        public javax.transaction.xa.XAResource recoveryResource() {
            return recovery.resource();
        }

        /**
         * Returns the resource to enlist in a transaction, named for the transaction manager's recovery when it knows
         * names ({@link BranchNames}).
         *
         * @param resource an XA resource of this database
         */
        public javax.transaction.xa.XAResource enlistable(javax.transaction.xa.XAResource resource) {
            return registry.names.name(source.config(), resource);
        }

        /** Returns where to connect. */
        public ConnectionSource source() {
            return source;
        }

        /** Returns the connections the monitoring readings of this database run on. */
        public ReadingConnections readings() {
            return readings;
        }

        /** Returns the broker. */
        public Broker broker() {
            return broker;
        }
    }
}
