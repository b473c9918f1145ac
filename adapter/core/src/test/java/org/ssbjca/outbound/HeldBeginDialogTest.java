package org.ssbjca.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.resource.spi.LocalTransaction;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerException;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.portable.CountingSocketFactory;
import org.ssbjca.conformance.PostgresServer;
import org.ssbjca.fakes.LogRecords;
import org.ssbjca.fakes.TestXid;

/**
 * On PostgreSQL an outbound connection's BEGIN DIALOG in a new group, once the broker knows its declared objects, is
 * held back until the dialog's first SEND, which writes both in one statement (a round trip less); whatever ends
 * the transaction first writes it alone: another verb, the caller's own SQL, the XA branch's end, a local or the
 * connection's own commit. Nothing held back is lost, and the fold writes what the two calls write.
 */
class HeldBeginDialogTest {

    private static final byte[] BODY = "work".getBytes(StandardCharsets.UTF_8);

    private OutboundFixture fx;
    private ServiceBrokerManagedConnection mc;
    private ServiceBrokerConnection h;

    @BeforeEach
    void start(org.junit.jupiter.api.TestInfo test) throws Exception {
        // a database of each test's own: a branch a failing test left prepared does not hold up the next
        String name = "held_" + Integer.toHexString(test.getDisplayName().hashCode()).replace('-', 'm');
        fx = new OutboundFixture(CountingSocketFactory.counted(PostgresServer.get().newDatabase(name)));
        mc = fx.managedConnection();
        h = (ServiceBrokerConnection) mc.getConnection(null, null);
        // the broker finds the declared objects once (BEGIN DIALOG written when called), and then knows them
        OutboundFixture.sendRequest(h, "first");
    }

    @AfterEach
    void stop() throws Exception {
        if (fx == null) { // this run leaves PostgreSQL out (TestTier): nothing was started
            return;
        }
        mc.destroy();
        fx.close();
    }

    @Test
    void inAnXaBranchBeginDialogWaitsForItsFirstSendAndTheyAreOneRoundTrip() throws Exception {
        for (int i = 0; i < 6; i++) { // pgjdbc prepares the statements on the server from their fifth execution
            inBranch(() -> OutboundFixture.sendRequest(h, "warm"));
        }
        Xid xid = TestXid.next("held");
        mc.getXAResource().start(xid, XAResource.TMNOFLAGS);
        long before = CountingSocketFactory.roundTrips();
        Conversation c = h.beginDialog(OutboundFixture.INITIATOR, OutboundFixture.TARGET, OutboundFixture.CONTRACT);
        assertEquals(0, CountingSocketFactory.roundTrips() - before, "BEGIN DIALOG held back");
        h.send(c, OutboundFixture.REQUEST, BODY);
        assertEquals(1, CountingSocketFactory.roundTrips() - before, "BEGIN DIALOG and SEND in one statement");
        mc.getXAResource().end(xid, XAResource.TMSUCCESS);
        mc.getXAResource().commit(xid, true);
        assertEquals(2, CountingSocketFactory.roundTrips() - before, "and the COMMIT");
        assertEquals(8, fx.targetDepth());
    }

    @Test
    void aBeginDialogWithNoSendIsWrittenWhenTheXaBranchEnds() throws Exception {
        Conversation c = inBranch(() -> begin());
        assertTrue(exists(c), "the dialog was written before the branch ended");
        h.send(c, OutboundFixture.REQUEST, BODY); // on its own transaction, after the commit
        assertEquals(2, fx.targetDepth());
    }

    @Test
    void aBeginDialogWithNoSendIsWrittenWhenALocalTransactionCommits() throws Exception {
        LocalTransaction local = mc.getLocalTransaction();
        local.begin();
        Conversation c = begin();
        local.commit();
        assertTrue(exists(c));
    }

    @Test
    void aBeginDialogOutsideAnyTransactionIsWrittenWhenItsOwnTransactionCommits() throws Exception {
        Conversation c = begin();
        assertTrue(exists(c));
    }

    @Test
    void anotherVerbAfterAHeldBeginDialogFindsTheDialog() throws Exception {
        inBranch(() -> {
            Conversation c = begin();
            h.beginConversationTimer(c, Duration.ofHours(1));
            h.endConversation(c);
            return c;
        });
        Conversation other = inBranch(() -> {
            Conversation c = begin();
            OutboundFixture.sendRequest(h, "a SEND on another dialog");
            return c;
        });
        assertTrue(exists(other));
        assertEquals(2, fx.targetDepth());
    }

    @Test
    void theCallersOwnSqlFindsAHeldBeginDialog() throws Exception {
        long[] rows = new long[1];
        inBranch(() -> {
            Conversation c = begin();
            try (PreparedStatement ps = h.jdbcConnection().prepareStatement(
                    "SELECT COUNT(*) FROM ssb.conversation_endpoint WHERE conversation_handle = ?")) {
                ps.setObject(1, c.handle());
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    rows[0] = rs.getLong(1);
                }
            }
            return c;
        });
        assertEquals(1, rows[0]);
    }

    /**
     * The target service dropped by another transaction after BEGIN DIALOG was held back: the BEGIN DIALOG fails when
     * written, at the branch's end, and the transaction rolls back (nothing of it is written), as it would have
     * rolled back had the BEGIN DIALOG run later.
     */
    @Test
    void aHeldBeginDialogThatFailsWhenTheBranchEndsRollsTheBranchBack() throws Exception {
        Xid xid = TestXid.next("held");
        XAResource xa = mc.getXAResource();
        xa.start(xid, XAResource.TMNOFLAGS);
        OutboundFixture.sendRequest(h, "written at once, rolled back with the branch");
        Conversation c = begin();
        dropTheTargetService();
        try (LogRecords log = LogRecords.of(org.ssbjca.support.CompletionAwareXAResource.class)) {
            xa.end(xid, XAResource.TMSUCCESS);
            List<String> logged = log.messages(java.util.logging.Level.WARNING, "SSBJCA0033");
            assertEquals(1, logged.size(), "the failure is logged");
        }
        // as Narayana runs a branch with another: its prepare votes to roll back (one phase: the commit refuses)
        XAException refused = assertThrows(XAException.class, () -> xa.prepare(xid));
        assertEquals(XAException.XA_RBROLLBACK, refused.errorCode);
        assertTrue(!exists(c));
        assertEquals(1, fx.targetDepth(), "only the first request of the test's start");
    }

    /**
     * The held BEGIN DIALOG fails when another verb writes it (its target service dropped meanwhile): that verb throws
     * BEGIN DIALOG's error, and the transaction can no longer commit, even when the caller caught the error, since the
     * dialog the caller holds a handle to was never written.
     */
    @Test
    void aHeldBeginDialogThatFailsInAnotherVerbLetsTheTransactionRollBackOnly() throws Exception {
        Xid xid = TestXid.next("held");
        XAResource xa = mc.getXAResource();
        xa.start(xid, XAResource.TMNOFLAGS);
        OutboundFixture.sendRequest(h, "written at once, rolled back with the branch");
        Conversation c = begin();
        dropTheTargetService();
        BrokerException e = assertThrows(BrokerException.class, () -> h.beginConversationTimer(
                OutboundFixture.sendRequest(h, "another dialog"), Duration.ofHours(1)));
        assertTrue(e.getMessage().contains("target service 'Target' does not exist"), e.getMessage());
        xa.end(xid, XAResource.TMSUCCESS); // the caller caught the error and goes on to commit
        XAException refused = assertThrows(XAException.class, () -> xa.commit(xid, true));
        assertEquals(XAException.XA_RBROLLBACK, refused.errorCode);
        assertTrue(!exists(c));
        assertEquals(1, fx.targetDepth(), "only the first request of the test's start");
    }

    @Test
    void aHeldBeginDialogThatFailsWhenALocalTransactionCommitsRollsItBack() throws Exception {
        LocalTransaction local = mc.getLocalTransaction();
        local.begin();
        OutboundFixture.sendRequest(h, "written at once, rolled back with the transaction");
        Conversation c = begin();
        dropTheTargetService();
        jakarta.resource.ResourceException e = assertThrows(jakarta.resource.ResourceException.class, local::commit);
        assertTrue(e.getMessage().contains("target service 'Target' does not exist"), e.getMessage());
        assertTrue(h.jdbcConnection().getAutoCommit(), "the connection is back in auto-commit");
        local.rollback(); // as a container may, after a failed commit: nothing left to do, no error
        assertTrue(!exists(c));
        assertEquals(1, fx.targetDepth(), "only the first request of the test's start");
        // the connection works on (its own transaction now): the database answers that the service is gone
        BrokerException again = assertThrows(BrokerException.class, () -> OutboundFixture.sendRequest(h, "again"));
        assertTrue(again.getMessage().contains("target service 'Target' does not exist"), again.getMessage());
    }

    /** A SEND the fold cannot take (its type does not exist) fails as it would have, after BEGIN DIALOG is written. */
    @Test
    void aFirstSendThatFailsLeavesTheBeginDialogWritten() throws Exception {
        Conversation c = inBranch(() -> {
            Conversation d = begin();
            BrokerException e = assertThrows(BrokerException.class, () -> h.send(d, "NoSuchType", BODY));
            assertTrue(e.getMessage().contains("message type 'NoSuchType' does not exist"), e.getMessage());
            return d;
        });
        assertTrue(exists(c));
    }

    /** BEGIN DIALOG and its first SEND folded write the same rows as the two calls each written when called. */
    @Test
    void theFoldWritesWhatTheTwoCallsWrite() throws Exception {
        for (DialogOptions options : List.of(DialogOptions.defaults(),
                DialogOptions.defaults().withLifetime(Duration.ofHours(1)))) {
            Conversation written;
            try (Connection c = fx.db.source().open()) {
                BrokerSession s = fx.db.broker().session(c); // not deferring: each verb written when called
                written = s.beginDialog(OutboundFixture.INITIATOR, OutboundFixture.TARGET, OutboundFixture.CONTRACT,
                        options);
                s.send(written.handle(), OutboundFixture.REQUEST, BODY);
                c.commit();
                s.afterCompletion(true);
            }
            Conversation folded = inBranch(() -> {
                Conversation d = h.beginDialog(OutboundFixture.INITIATOR, OutboundFixture.TARGET,
                        OutboundFixture.CONTRACT, options);
                h.send(d, OutboundFixture.REQUEST, BODY);
                return d;
            });
            assertEquals(rows(written), rows(folded), options.toString());
        }
    }

    /** Another transaction drops the target service, committed. */
    private void dropTheTargetService() throws SQLException {
        try (Connection other = fx.db.source().open();
                java.sql.Statement st = other.createStatement()) {
            st.execute("DELETE FROM ssb.service_contract WHERE service_name = 'Target'");
            st.execute("DELETE FROM ssb.service WHERE service_name = 'Target'");
            other.commit();
        }
    }

    private Conversation begin() {
        return h.beginDialog(OutboundFixture.INITIATOR, OutboundFixture.TARGET, OutboundFixture.CONTRACT);
    }

    private interface Work<T> {
        T run() throws Exception;
    }

    /** Runs the work on the handle in an XA branch of its own, committed in one phase. */
    private <T> T inBranch(Work<T> work) throws Exception {
        Xid xid = TestXid.next("held");
        XAResource xa = mc.getXAResource();
        xa.start(xid, XAResource.TMNOFLAGS);
        T result = work.run();
        xa.end(xid, XAResource.TMSUCCESS);
        xa.commit(xid, true);
        return result;
    }

    private boolean exists(Conversation c) throws SQLException {
        try (Connection other = fx.db.source().open();
                PreparedStatement ps = other.prepareStatement(
                        "SELECT COUNT(*) FROM ssb.conversation_endpoint WHERE conversation_handle = ?")) {
            ps.setObject(1, c.handle());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1) == 1;
            }
        }
    }

    /**
     * @return the dialog's endpoints, their groups and messages, as committed, without the values that differ
     *         from dialog to dialog (handles, ids, times; the lifetime from the BEGIN DIALOG)
     */
    private List<String> rows(Conversation c) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection other = fx.db.source().open();
                PreparedStatement ps = other.prepareStatement("SELECT e.is_initiator, e.service_name, e.far_service,"
                        + " e.service_contract_name, e.state, e.send_sequence,"
                        + " e.lifetime_expires_at - (SELECT i.created_at FROM ssb.conversation_endpoint i"
                        + " WHERE i.conversation_id = e.conversation_id AND i.is_initiator) AS lifetime,"
                        + " e.timer_expires_at IS NULL AS no_timer,"
                        + " g.queue_name, g.turn >= 4611686018427387904 AS parked,"
                        + " (SELECT string_agg(m.message_sequence_number || ' ' || m.message_type_name || ' '"
                        + " || m.queue_name || ' ' || encode(m.message_body, 'escape') || ' '"
                        + " || (m.conversation_group_id = e.conversation_group_id), ',' ORDER BY m.queuing_order)"
                        + " FROM ssb.message m WHERE m.conversation_handle = e.conversation_handle) AS messages"
                        + " FROM ssb.conversation_endpoint e JOIN ssb.conversation_group g"
                        + " ON g.conversation_group_id = e.conversation_group_id"
                        + " WHERE e.conversation_id = (SELECT conversation_id FROM ssb.conversation_endpoint"
                        + " WHERE conversation_handle = ?) ORDER BY e.is_initiator")) {
            ps.setObject(1, c.handle());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    StringBuilder row = new StringBuilder();
                    for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                        row.append(rs.getMetaData().getColumnLabel(i)).append('=').append(rs.getString(i))
                                .append(' ');
                    }
                    rows.add(row.toString());
                }
            }
        }
        assertEquals(2, rows.size(), "both endpoints: " + rows);
        return rows;
    }
}
