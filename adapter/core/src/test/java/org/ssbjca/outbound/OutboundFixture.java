package org.ssbjca.outbound;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionEvent;
import jakarta.resource.spi.ConnectionEventListener;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionFactory;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.ssbjca.brokers.BrokerRegistry;
import org.ssbjca.adapter.ServiceBrokerResourceAdapter;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.SentBy;
import org.ssbjca.backend.TestAdmin;
import org.ssbjca.backend.Validation;
import org.ssbjca.fakes.FakeBootstrapContext;

/**
 * A started resource adapter on a private in-memory H2 broker with one dialog's objects, and the outbound SPI
 * driven the way the container drives it: managed connections from the factory, handles from them, events
 * recorded.
 */
final class OutboundFixture implements AutoCloseable {

    static final String CONTRACT = "Contract";
    static final String REQUEST = "Request";
    static final String INITIATOR = "Initiator";
    static final String TARGET = "Target";
    static final String TARGET_QUEUE = "TargetQueue";

    final ServiceBrokerResourceAdapter ra = new ServiceBrokerResourceAdapter();
    final FakeBootstrapContext boot = new FakeBootstrapContext();
    final String url;
    final BrokerRegistry.Entry db;

    OutboundFixture() throws Exception {
        this(new DatabaseConfig("jdbc:h2:mem:outbound-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=5000",
                null, null));
    }

    /** @param database the adapter's database, with its credentials (a PostgreSQL database, say) */
    OutboundFixture(DatabaseConfig database) throws Exception {
        url = database.url();
        ra.setConnectionUrl(url);
        ra.setUser(database.user());
        ra.setPassword(database.password());
        ra.setFallbackPollMillis(200L);
        ra.start(boot);
        db = ra.registry().get(ra.defaultDatabase());
        db.prepareSchema();
        try (Connection c = db.source().open()) {
            var admin = TestAdmin.of(db.broker(), c);
            admin.createMessageType(REQUEST, Validation.NONE);
            admin.createContract(CONTRACT, Map.of(REQUEST, SentBy.ANY));
            admin.createQueue("InitiatorQueue");
            admin.createQueue(TARGET_QUEUE);
            admin.createService(INITIATOR, "InitiatorQueue");
            admin.createService(TARGET, TARGET_QUEUE, CONTRACT);
            c.commit();
        }
    }

    /** @return a managed connection factory of the adapter's default database, associated like the container does */
    ServiceBrokerManagedConnectionFactory mcf() throws ResourceException {
        ServiceBrokerManagedConnectionFactory mcf = new ServiceBrokerManagedConnectionFactory();
        mcf.setResourceAdapter(ra);
        return mcf;
    }

    /** @return a new managed connection to the default database */
    ServiceBrokerManagedConnection managedConnection() throws ResourceException {
        return (ServiceBrokerManagedConnection) mcf().createManagedConnection(null, null);
    }

    /** Begins a dialog to the target and sends one request on it, through a handle. */
    static Conversation sendRequest(ServiceBrokerConnection handle, String text) {
        Conversation c = handle.beginDialog(INITIATOR, TARGET, CONTRACT);
        handle.send(c, REQUEST, text.getBytes(StandardCharsets.UTF_8));
        return c;
    }

    /** @return the messages in the target queue, as another session sees them (committed only) */
    long targetDepth() throws SQLException {
        try (Connection c = db.source().open()) {
            return db.broker().admin(c).queueDepth(TARGET_QUEUE);
        }
    }

    @Override
    public void close() {
        ra.stop();
    }

    /** Records the connection events a managed connection fires, as the container's pool listens to them. */
    static final class Events implements ConnectionEventListener {
        final List<ConnectionEvent> all = new CopyOnWriteArrayList<>();

        static Events on(ManagedConnection mc) {
            Events e = new Events();
            mc.addConnectionEventListener(e);
            return e;
        }

        List<Integer> types() {
            return all.stream().map(ConnectionEvent::getId).collect(java.util.stream.Collectors.toList());
        }

        @Override
        public void connectionClosed(ConnectionEvent event) {
            all.add(event);
        }

        @Override
        public void localTransactionStarted(ConnectionEvent event) {
            all.add(event);
        }

        @Override
        public void localTransactionCommitted(ConnectionEvent event) {
            all.add(event);
        }

        @Override
        public void localTransactionRolledback(ConnectionEvent event) {
            all.add(event);
        }

        @Override
        public void connectionErrorOccurred(ConnectionEvent event) {
            all.add(event);
        }
    }

    /** A connection manager without a pool: a new managed connection for every handle. */
    static final class UnpooledConnectionManager implements ConnectionManager {
        private static final long serialVersionUID = 1L;
        final List<ManagedConnection> created = new CopyOnWriteArrayList<>();

        @Override
        public Object allocateConnection(ManagedConnectionFactory mcf, ConnectionRequestInfo info)
                throws ResourceException {
            ManagedConnection mc = mcf.createManagedConnection(null, info);
            created.add(mc);
            return mc.getConnection(null, info);
        }
    }
}
