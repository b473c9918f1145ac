package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.SentBy;
import org.ssbjca.backend.TestAdmin;
import org.ssbjca.backend.Validation;
import org.ssbjca.conformance.PostgresServer;

/**
 * Open conversations whose messages were all received (idle conversation groups: long-lived dialogs, targets that do
 * not end) must cost the RECEIVE nothing: the round-robin pick must not visit them. The benchmark measured 22x the CPU
 * per message with 10,000 of them beside 200 busy ones (each RECEIVE probed every idle group whose turn came first).
 * Here 2,000 idle groups, then 20 busy conversations of 5 messages; each RECEIVE of the busy ones runs under
 * {@code EXPLAIN (ANALYZE, BUFFERS)} and the buffers it touched are bounded, as in {@link StaleStatisticsReceiveTest}.
 * Before PostgreSQL parked emptied groups ({@link PortableSql#PARKED}) the first RECEIVE touched 8,243 buffers.
 */
class IdleGroupsReceiveTest {

    private static final int IDLE = 2_000;
    private static final int BUSY = 20;
    private static final int MESSAGES_EACH = 5;
    /**
     * Per RECEIVE of one message: a few dozen buffers (31 beside 1 idle group, 65 beside 2,000 and 40 beside 20,000
     * when this was written); the pick that visited the idle groups touched 8,243 for the first RECEIVE here.
     */
    private static final int MAX_BUFFERS_PER_RECEIVE = 400;
    private static final int MAX_MEAN_BUFFERS = 80;

    @Test
    void idleGroupsAreNotVisitedByTheRoundRobinPick() throws Exception {
        DatabaseConfig db = PostgresServer.get().newDatabase("idle_groups");
        ConnectionSource source = new ConnectionSource(db);
        try (PortableBroker broker = new PortableBroker(source, BackgroundRunner.daemonThreads(),
                PortableOptions.defaults()); Connection c = source.open()) {
            declare(broker, c);
            send(broker, c, IDLE, 1);
            assertEquals(IDLE, drainWithoutEnding(broker, c, "QT"), "the idle conversations' messages received");
            send(broker, c, BUSY, MESSAGES_EACH);
            assertCheapReceives(c);
        }
    }

    /**
     * Groups with a turn and no message, as an adapter that did not park yet left them (an upgrade), are parked by the
     * first housekeeping pass after a start; and a parked group that has a message (its check after a commit lost)
     * gets its turn back in the same pass.
     */
    @Test
    void theFirstHousekeepingPassParksIdleGroupsAndRepairsStrandedOnes() throws Exception {
        DatabaseConfig db = PostgresServer.get().newDatabase("idle_groups_upgrade");
        ConnectionSource source = new ConnectionSource(db);
        try (PortableBroker old = new PortableBroker(source, BackgroundRunner.daemonThreads(),
                PortableOptions.defaults()); Connection c = source.open()) {
            declare(old, c);
            send(old, c, IDLE, 1);
            assertEquals(IDLE, drainWithoutEnding(old, c, "QT"));
            send(old, c, BUSY, MESSAGES_EACH);
            try (java.sql.Statement st = c.createStatement()) {
                // the state before parking existed: every group with a turn (the idle targets' on QT, and every
                // initiator's on QI, which never had a message: parked since BEGIN DIALOG)
                assertEquals(2 * IDLE + BUSY, st.executeUpdate("UPDATE ssb.conversation_group SET turn = turn - "
                        + PortableSql.PARKED + " WHERE turn >= " + PortableSql.PARKED));
                // and one busy group stranded: parked with messages
                assertEquals(1, st.executeUpdate("UPDATE ssb.conversation_group SET turn = turn + "
                        + PortableSql.PARKED + " WHERE conversation_group_id = (SELECT MIN(conversation_group_id::text)"
                        + "::uuid FROM ssb.message WHERE queue_name = 'QT')"));
            }
            c.commit();
        }
        try (PortableBroker started = new PortableBroker(source, BackgroundRunner.daemonThreads(),
                PortableOptions.defaults()); Connection c = source.open()) {
            started.housekeeping().runIfDue(new PortableSession(started, c), false);
            c.commit();
            try (java.sql.Statement st = c.createStatement(); java.sql.ResultSet rs = st.executeQuery(
                    "SELECT COUNT(*) FILTER (WHERE turn >= " + PortableSql.PARKED + "), COUNT(*) FILTER (WHERE turn >= "
                    + PortableSql.PARKED + " AND EXISTS (SELECT 1 FROM ssb.message m WHERE m.conversation_group_id"
                    + " = g.conversation_group_id)) FROM ssb.conversation_group g WHERE queue_name = 'QT'")) {
                rs.next();
                assertEquals(IDLE, rs.getLong(1), "the idle groups parked, the busy ones not");
                assertEquals(0, rs.getLong(2), "no parked group with messages left");
            }
            c.commit();
            assertCheapReceives(c);
        }
    }

    /** The queues QI and QT, services I and T, contract C with message type M (shared with the other plan tests). */
    static void declare(PortableBroker broker, Connection c) throws Exception {
        broker.prepareSchema(c, true);
        TestAdmin a = TestAdmin.of(broker, c);
        a.createMessageType("M", Validation.NONE);
        a.createContract("C", Map.of("M", SentBy.ANY));
        a.createQueue("QI");
        a.createQueue("QT");
        a.createService("I", "QI");
        a.createService("T", "QT", "C");
        c.commit();
    }

    /** Drains the busy conversations one message per RECEIVE, each under EXPLAIN, and bounds the buffers. */
    private static void assertCheapReceives(Connection c) throws Exception {
        // the state autovacuum leaves: every RECEIVE gives its group a new turn, a new entry in the turn index,
        // and until a vacuum the dead ones are on the pick's way (unvacuumed here: 72 to 219 buffers on average)
        c.setAutoCommit(true);
        try (java.sql.Statement st = c.createStatement()) {
            st.execute("VACUUM ssb.conversation_group");
            st.execute("VACUUM ssb.message");
        }
        c.setAutoCommit(false);
        int received = 0;
        long total = 0;
        long worst = 0;
        while (true) {
            ExplainedReceive.Result one = ExplainedReceive.run(c, "QT");
            c.commit();
            if (one.rows() == 0) {
                break;
            }
            assertEquals(1, one.rows(), "one message per RECEIVE");
            received++;
            total += one.buffers();
            worst = Math.max(worst, one.buffers());
            assertTrue(one.buffers() <= MAX_BUFFERS_PER_RECEIVE, "RECEIVE " + received + " beside " + IDLE
                    + " idle groups touched " + one.buffers() + " buffers");
        }
        assertEquals(BUSY * MESSAGES_EACH, received, "the busy conversations drained");
        assertTrue(total <= (long) MAX_MEAN_BUFFERS * received, String.format("%.1f buffers per RECEIVE on"
                + " average beside %d idle groups, %d at most", (double) total / received, IDLE, worst));
    }

    /** Receives every message of a queue without ending the conversations; returns how many it received. */
    private static int drainWithoutEnding(PortableBroker broker, Connection c, String queue) throws Exception {
        BrokerSession s = broker.session(c);
        int drained = 0;
        List<BrokerMessage> got;
        do {
            got = s.receive(ReceiveRequest.from(queue).top(100));
            drained += got.size();
            c.commit();
            s.afterCompletion(true);
        } while (!got.isEmpty());
        return drained;
    }

    /** Begins {@code conversations} dialogs from I to T and sends {@code each} messages on each; one commit. */
    static void send(PortableBroker broker, Connection c, int conversations, int each) throws Exception {
        BrokerSession s = broker.session(c);
        byte[] body = "work".getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < conversations; i++) {
            Conversation d = s.beginDialog("I", "T", "C", DialogOptions.defaults());
            for (int m = 0; m < each; m++) {
                s.send(d.handle(), "M", body);
            }
        }
        c.commit();
        s.afterCompletion(true);
    }
}
