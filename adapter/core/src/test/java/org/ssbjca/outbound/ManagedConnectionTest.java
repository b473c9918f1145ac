package org.ssbjca.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionEvent;
import jakarta.resource.spi.LocalTransaction;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerException;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.fakes.TestXid;

/** The managed connection and its handles, driven as the container drives them, on a real H2 broker. */
class ManagedConnectionTest {

    private OutboundFixture fx;

    @BeforeEach
    void start() throws Exception {
        fx = new OutboundFixture();
    }

    @AfterEach
    void stop() {
        fx.close();
    }

    @Test
    void outsideAnyTransactionEachVerbCommitsOnItsOwn() throws Exception {
        ServiceBrokerManagedConnection mc = fx.managedConnection();
        ServiceBrokerConnection h = (ServiceBrokerConnection) mc.getConnection(null, null);

        OutboundFixture.sendRequest(h, "alone");

        assertEquals(1, fx.targetDepth());
        mc.destroy();
    }

    @Test
    void aClosedHandleFailsClearlyAndItsCloseIsReportedToThePool() throws Exception {
        ServiceBrokerManagedConnection mc = fx.managedConnection();
        OutboundFixture.Events events = OutboundFixture.Events.on(mc);
        ServiceBrokerConnection h = (ServiceBrokerConnection) mc.getConnection(null, null);

        h.close();

        assertEquals(List.of(ConnectionEvent.CONNECTION_CLOSED), events.types());
        assertSame(h, events.all.get(0).getConnectionHandle());
        assertSame(mc, events.all.get(0).getSource());
        BrokerException e = assertThrows(BrokerException.class, () -> OutboundFixture.sendRequest(h, "late"));
        assertTrue(e.getMessage().contains("BEGIN DIALOG") && e.getMessage().contains("it is closed"),
                e.getMessage());
        assertThrows(BrokerException.class, h::jdbcConnection);
        h.close();
        assertEquals(1, events.all.size(), "a second close reports nothing");
        mc.destroy();
    }

    @Test
    void cleanupDetachesEveryHandleAndTheyFailClearly() throws Exception {
        ServiceBrokerManagedConnection mc = fx.managedConnection();
        ServiceBrokerConnection h1 = (ServiceBrokerConnection) mc.getConnection(null, null);
        ServiceBrokerConnection h2 = (ServiceBrokerConnection) mc.getConnection(null, null);
        Connection jdbc = h1.jdbcConnection();

        mc.cleanup();

        for (ServiceBrokerConnection h : List.of(h1, h2)) {
            BrokerException e = assertThrows(BrokerException.class,
                    () -> h.getConversationGroup(OutboundFixture.TARGET_QUEUE, Duration.ZERO));
            assertTrue(e.getMessage().contains("took its managed connection back"), e.getMessage());
        }
        BrokerException e = assertThrows(BrokerException.class, jdbc::createStatement);
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        ServiceBrokerConnection fresh = (ServiceBrokerConnection) mc.getConnection(null, null);
        OutboundFixture.sendRequest(fresh, "after cleanup");
        assertEquals(1, fx.targetDepth(), "the managed connection itself is reusable after cleanup");
        mc.destroy();
        assertThrows(ResourceException.class, () -> mc.getConnection(null, null));
    }

    @Test
    void aHandleAssociatedWithAnotherManagedConnectionWorksOnThatOne() throws Exception {
        ServiceBrokerManagedConnection first = fx.managedConnection();
        ServiceBrokerManagedConnection second = fx.managedConnection();
        OutboundFixture.Events firstEvents = OutboundFixture.Events.on(first);
        OutboundFixture.Events secondEvents = OutboundFixture.Events.on(second);
        ServiceBrokerConnection h = (ServiceBrokerConnection) first.getConnection(null, null);

        second.associateConnection(h);
        first.cleanup();
        first.destroy();

        OutboundFixture.sendRequest(h, "moved");
        assertEquals(1, fx.targetDepth());
        h.close();
        assertEquals(List.of(), firstEvents.types());
        assertEquals(List.of(ConnectionEvent.CONNECTION_CLOSED), secondEvents.types());
        assertThrows(ResourceException.class, () -> second.associateConnection("not a handle"));
        ServiceBrokerConnection detached = (ServiceBrokerConnection) second.getConnection(null, null);
        second.cleanup();
        second.associateConnection(detached);
        OutboundFixture.sendRequest(detached, "reattached");
        assertEquals(2, fx.targetDepth(), "associating a detached handle makes it usable again");
        second.destroy();
    }

    @Test
    void aBrokenConnectionIsReportedOnceWithConnectionErrorOccurredAndNeverMatchedAgain() throws Exception {
        String url = "jdbc:h2:mem:broken-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        ServiceBrokerManagedConnectionFactory mcf = fx.mcf();
        mcf.setConnectionUrl(url);
        ServiceBrokerManagedConnection mc = (ServiceBrokerManagedConnection) mcf.createManagedConnection(null, null);
        OutboundFixture.Events events = OutboundFixture.Events.on(mc);
        ServiceBrokerConnection h = (ServiceBrokerConnection) mc.getConnection(null, null);
        assertSame(mc, mcf.matchManagedConnections(Set.of(mc), null, null));

        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("SHUTDOWN");
        }
        assertThrows(BrokerException.class, () -> h.getConversationGroup("AnyQueue", Duration.ZERO));
        assertThrows(BrokerException.class, () -> h.getConversationGroup("AnyQueue", Duration.ZERO));

        assertEquals(List.of(ConnectionEvent.CONNECTION_ERROR_OCCURRED), events.types(), "reported once");
        ConnectionEvent error = events.all.get(0);
        assertSame(mc, error.getSource());
        assertTrue(error.getException() instanceof SQLException, String.valueOf(error.getException()));
        assertEquals(null, mcf.matchManagedConnections(Set.of(mc), null, null), "the pool must not reuse it");
        mc.destroy();
    }

    @Test
    void aLocalTransactionCommitsOrRollsBackTheVerbsAndFiresItsEvents() throws Exception {
        ServiceBrokerManagedConnection mc = fx.managedConnection();
        OutboundFixture.Events events = OutboundFixture.Events.on(mc);
        ServiceBrokerConnection h = (ServiceBrokerConnection) mc.getConnection(null, null);
        LocalTransaction tx = mc.getLocalTransaction();

        tx.begin();
        OutboundFixture.sendRequest(h, "rolled back");
        assertEquals(0, fx.targetDepth(), "not visible before the commit");
        tx.rollback();
        assertEquals(0, fx.targetDepth());

        tx.begin();
        OutboundFixture.sendRequest(h, "committed");
        tx.commit();
        assertEquals(1, fx.targetDepth());

        assertEquals(List.of(ConnectionEvent.LOCAL_TRANSACTION_STARTED, ConnectionEvent.LOCAL_TRANSACTION_ROLLEDBACK,
                ConnectionEvent.LOCAL_TRANSACTION_STARTED, ConnectionEvent.LOCAL_TRANSACTION_COMMITTED),
                events.types());
        events.all.forEach(e -> assertSame(mc, e.getSource()));
        OutboundFixture.sendRequest(h, "after");
        assertEquals(2, fx.targetDepth(), "back to a transaction per verb");
        mc.destroy();
    }

    /**
     * A verb outside any transaction that fails with an Error (not an exception) after it wrote rolls its own
     * transaction back, as one that throws an exception does: left open, the next verb on the pooled connection, by
     * whatever caller, committed it.
     */
    @Test
    void aVerbFailingWithAnErrorOutsideAnyTransactionRollsBack() throws Exception {
        ServiceBrokerManagedConnection mc = fx.managedConnection();
        ServiceBrokerConnection h = (ServiceBrokerConnection) mc.getConnection(null, null);

        assertThrows(AssertionError.class, () -> mc.execute(session -> {
            Conversation c = session.beginDialog(OutboundFixture.INITIATOR, OutboundFixture.TARGET,
                    OutboundFixture.CONTRACT, DialogOptions.defaults());
            session.send(c.handle(), OutboundFixture.REQUEST, "half done".getBytes(StandardCharsets.UTF_8));
            throw new AssertionError("simulated: an Error in the verb after its SEND");
        }, null));
        OutboundFixture.sendRequest(h, "next user");

        assertEquals(1, fx.targetDepth(), "only the next user's message");
        mc.destroy();
    }

    @Test
    void cleanupRollsBackALocalTransactionLeftOpen() throws Exception {
        ServiceBrokerManagedConnection mc = fx.managedConnection();
        ServiceBrokerConnection h = (ServiceBrokerConnection) mc.getConnection(null, null);
        mc.getLocalTransaction().begin();
        OutboundFixture.sendRequest(h, "abandoned");

        mc.cleanup();

        assertEquals(0, fx.targetDepth());
        ServiceBrokerConnection next = (ServiceBrokerConnection) mc.getConnection(null, null);
        OutboundFixture.sendRequest(next, "next user");
        assertEquals(1, fx.targetDepth(), "the next user's verb commits on its own");
        mc.destroy();
    }

    @Test
    void verbsInAnXaBranchCommitOrRollBackWithIt() throws Exception {
        ServiceBrokerManagedConnection mc = fx.managedConnection();
        ServiceBrokerConnection h = (ServiceBrokerConnection) mc.getConnection(null, null);
        XAResource xa = mc.getXAResource();

        Xid rolledBack = TestXid.next("outbound-test");
        xa.start(rolledBack, XAResource.TMNOFLAGS);
        OutboundFixture.sendRequest(h, "rolled back");
        xa.end(rolledBack, XAResource.TMSUCCESS);
        xa.rollback(rolledBack);
        assertEquals(0, fx.targetDepth());

        Xid committed = TestXid.next("outbound-test");
        xa.start(committed, XAResource.TMNOFLAGS);
        OutboundFixture.sendRequest(h, "committed");
        xa.end(committed, XAResource.TMSUCCESS);
        assertEquals(0, fx.targetDepth(), "not visible before the commit");
        assertEquals(XAResource.XA_OK, xa.prepare(committed));
        xa.commit(committed, false);
        assertEquals(1, fx.targetDepth());
        assertEquals("committed", receiveOne(h));
        mc.destroy();
    }

    private String receiveOne(ServiceBrokerConnection h) {
        return h.receive(org.ssbjca.api.ReceiveRequest.from(OutboundFixture.TARGET_QUEUE).timeout(Duration.ZERO))
                .get(0).bodyAsText(StandardCharsets.UTF_8);
    }
}
