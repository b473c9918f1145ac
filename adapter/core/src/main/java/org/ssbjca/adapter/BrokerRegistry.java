package org.ssbjca.adapter;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;
import org.ssbjca.api.BrokerException;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.Broker;
import org.ssbjca.backend.Brokers;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.portable.PortableBroker;
import org.ssbjca.backend.portable.PortableOptions;

/**
 * One {@link Broker} per database configuration, shared by the connection factories and the activations of one
 * resource adapter instance, so that a commit on an outbound connection wakes the readers of the same database.
 */
public final class BrokerRegistry {

    private static final Logger LOG = Logger.getLogger(BrokerRegistry.class);

    private final Map<DatabaseConfig, Entry> brokers = new ConcurrentHashMap<>();
    private final BackgroundRunner runner;
    private final PortableOptions portableOptions;
    private final boolean createSchema;

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
     * @param config a database
     * @return its broker and connection source, created on first use (with the schema, if asked to)
     */
    public Entry get(DatabaseConfig config) {
        return brokers.computeIfAbsent(config, this::create);
    }

    private Entry create(DatabaseConfig config) {
        ConnectionSource source = new ConnectionSource(config);
        Broker broker = Brokers.create(source, runner, portableOptions);
        if (createSchema && broker instanceof PortableBroker) {
            try (Connection c = source.open()) {
                ((PortableBroker) broker).installSchema(c);
                LOG.infof("SSBJCA0001: portable broker schema ready on %s", config);
            } catch (SQLException e) {
                broker.close();
                throw new BrokerException("cannot create the broker schema on " + config + ": " + e.getMessage(), e);
            }
        }
        return new Entry(source, broker);
    }

    /** @return the brokers in use */
    public Collection<Entry> entries() {
        return List.copyOf(brokers.values());
    }

    /** Closes every broker. */
    public void close() {
        brokers.values().forEach(e -> {
            e.recovery.close();
            e.broker.close();
        });
        brokers.clear();
    }

    /** A broker with the connection source of its database. */
    public static final class Entry {
        private final ConnectionSource source;
        private final Broker broker;
        private final RecoveryResources recovery;

        Entry(ConnectionSource source, Broker broker) {
            this.source = source;
            this.broker = broker;
            this.recovery = new RecoveryResources(this);
        }

        /**
         * @return the XA resource the transaction manager uses to recover this database's in-doubt branches; it
         *         reconnects by itself when the database restarted since it was handed out
         */
        public javax.transaction.xa.XAResource recoveryResource() {
            return recovery.resource();
        }

        /** @return where to connect */
        public ConnectionSource source() {
            return source;
        }

        /** @return the broker */
        public Broker broker() {
            return broker;
        }
    }
}
