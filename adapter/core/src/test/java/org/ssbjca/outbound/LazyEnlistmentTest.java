package org.ssbjca.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.LazyEnlistableConnectionManager;
import jakarta.resource.spi.LazyEnlistableManagedConnection;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionFactory;
import java.sql.Connection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.brokers.DeliveryContext;
import org.ssbjca.fakes.TestXid;

/**
 * Lazy enlistment, driven as WildFly's connection manager drives a {@link LazyEnlistableManagedConnection}: no
 * enlistment when a handle is taken, one when a verb first works on the connection in a JTA transaction, none for a
 * reply from inside a delivery (it runs on the reader's connection), so the delivery's transaction keeps one resource
 * and commits in one phase.
 */
class LazyEnlistmentTest {

    private OutboundFixture fx;
    private EnlistingConnectionManager cm;
    private ServiceBrokerConnectionFactoryImpl factory;

    @BeforeEach
    void start() throws Exception {
        fx = new OutboundFixture();
        cm = new EnlistingConnectionManager();
        factory = new ServiceBrokerConnectionFactoryImpl(fx.mcf(), cm);
    }

    @AfterEach
    void stop() throws Exception {
        fx.boot.transactions().end();
        for (ManagedConnection mc : cm.created) {
            mc.destroy();
        }
        fx.close();
    }

    @Test
    void theFirstVerbInATransactionEnlistsTheConnectionOnceAndTheVerbsRunInItsBranch() throws Exception {
        Xid xid = TestXid.next("lazy");
        fx.boot.transactions().begin(xid);
        cm.transaction = xid;
        try (ServiceBrokerConnection h = factory.getConnection()) {
            assertEquals(List.of(), cm.enlisted, "taking a handle enlists nothing");
            OutboundFixture.sendRequest(h, "in the branch");
            assertEquals(1, cm.enlisted.size(), "BEGIN DIALOG enlisted the connection, SEND found it enlisted");
        }
        assertEquals(0, fx.targetDepth(), "the verbs wait for the transaction");
        XAResource xa = cm.created.get(0).getXAResource();
        xa.end(xid, XAResource.TMSUCCESS);
        xa.commit(xid, true);
        assertEquals(1, fx.targetDepth());
    }

    @Test
    void aReplyInsideADeliveryRunsOnTheReadersConnectionAndEnlistsNothing() throws Exception {
        try (Connection readerConnection = fx.db.source().open()) {
            BrokerSession reader = fx.db.broker().session(readerConnection);
            Object delivery = "the delivery's transaction";
            fx.boot.transactions().begin(delivery);
            DeliveryContext.enter(fx.db.source().config(), reader, delivery);
            try (ServiceBrokerConnection h = factory.getConnection()) {
                OutboundFixture.sendRequest(h, "a reply");
            } finally {
                DeliveryContext.leave();
                fx.boot.transactions().end();
            }
            assertEquals(List.of(), cm.enlisted, "nothing enlisted: the delivery keeps one resource, the reader's");
            assertEquals(0, fx.targetDepth(), "the reply waits for the reader's transaction");
            readerConnection.commit();
            reader.afterCompletion(true);
            assertEquals(1, fx.targetDepth());
        }
    }

    @Test
    void outsideAnyTransactionNothingIsEnlistedAndEachVerbCommits() throws Exception {
        try (ServiceBrokerConnection h = factory.getConnection()) {
            OutboundFixture.sendRequest(h, "alone");
        }
        assertEquals(List.of(), cm.enlisted);
        assertEquals(1, fx.targetDepth());
    }

    /**
     * docs/guide/one-database.md: outside a delivery, jdbcConnection() in a JTA transaction is the factory's branch.
     */
    @Test
    void jdbcConnectionOutsideADeliveryWorksInTheFactorysBranchOfTheCallersTransaction() throws Exception {
        createAppTable();
        Xid xid = TestXid.next("lazy-jdbc");
        fx.boot.transactions().begin(xid);
        cm.transaction = xid;
        try (ServiceBrokerConnection h = factory.getConnection();
                java.sql.Statement s = h.jdbcConnection().createStatement()) {
            s.executeUpdate("INSERT INTO app_row VALUES (1)");
            assertEquals(1, cm.enlisted.size(), "the statement enlisted the factory's connection");
        }
        assertEquals(0, appRows(), "the row waits for the transaction");
        XAResource xa = cm.created.get(0).getXAResource();
        xa.end(xid, XAResource.TMSUCCESS);
        xa.commit(xid, true);
        assertEquals(1, appRows());
    }

    /** docs/guide/one-database.md: outside a delivery and any transaction, each statement commits on its own. */
    @Test
    void jdbcConnectionOutsideAnyTransactionCommitsEachStatement() throws Exception {
        createAppTable();
        try (ServiceBrokerConnection h = factory.getConnection();
                java.sql.Statement s = h.jdbcConnection().createStatement()) {
            s.executeUpdate("INSERT INTO app_row VALUES (1)");
            assertEquals(1, appRows(), "committed before the handle closes");
        }
        assertEquals(List.of(), cm.enlisted);
    }

    @Test
    void theManagedConnectionTellsTheContainerItEnlistsLazily() throws Exception {
        Object mc = fx.managedConnection();
        assertTrue(mc instanceof LazyEnlistableManagedConnection);
    }

    private void createAppTable() throws Exception {
        try (Connection c = fx.db.source().open(); java.sql.Statement s = c.createStatement()) {
            s.execute("CREATE TABLE app_row (id INT PRIMARY KEY)");
            c.commit();
        }
    }

    /** @return the committed rows of app_row, as another session sees them */
    private long appRows() throws Exception {
        try (Connection c = fx.db.source().open(); java.sql.Statement s = c.createStatement();
                java.sql.ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM app_row")) {
            rs.next();
            long n = rs.getLong(1);
            c.rollback();
            return n;
        }
    }

    /**
     * A connection manager without a pool that leaves enlistment to {@code lazyEnlist}, which starts the managed
     * connection's branch of {@link #transaction} as a transaction manager's enlistment does.
     */
    static final class EnlistingConnectionManager implements ConnectionManager, LazyEnlistableConnectionManager {
        private static final long serialVersionUID = 1L;
        final List<ManagedConnection> created = new CopyOnWriteArrayList<>();
        final List<ManagedConnection> enlisted = new CopyOnWriteArrayList<>();
        volatile Xid transaction;

        @Override
        public Object allocateConnection(ManagedConnectionFactory mcf, ConnectionRequestInfo info)
                throws ResourceException {
            ManagedConnection mc = mcf.createManagedConnection(null, info);
            created.add(mc);
            return mc.getConnection(null, info);
        }

        @Override
        public void lazyEnlist(ManagedConnection mc) throws ResourceException {
            enlisted.add(mc);
            try {
                mc.getXAResource().start(transaction, XAResource.TMNOFLAGS);
            } catch (XAException e) {
                throw new ResourceException(e);
            }
        }
    }
}
