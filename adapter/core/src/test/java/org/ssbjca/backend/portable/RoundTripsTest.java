package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.BrokerSession;

/**
 * The round trips of the hot paths on PostgreSQL, counted on the wire ({@link CountingSocketFactory}), once pgjdbc
 * has prepared the statements on the server (from their fifth execution).
 * <p>
 * pgjdbc sends a statement in the same round trip as the {@code BEGIN} of its transaction (in a write of its own, but
 * for the RECEIVE, which sends it itself: {@link #aReceiveInAnXaBranchAndItsOnePhaseCommitAreTwoRoundTrips}), unless
 * the server had to describe the statement (a parameter sent with no type, such as pgjdbc's NULL timestamp) and its
 * result has a column of variable length: then every execution first sends what is queued with a {@code Sync} and
 * waits (the {@code BEGIN} alone, or an empty {@code Sync}), a round trip more. Seen before
 * {@link org.ssbjca.backend.Jdbc} typed its NULL timestamps: BEGIN DIALOG with its first SEND and the commit took 5
 * round trips instead of 3.
 */
class RoundTripsTest {

    /** More executions than pgjdbc's prepare threshold (5), so that the statements are prepared on the server. */
    private static final int WARM_UP = 6;
    private static final byte[] BODY = "work".getBytes(StandardCharsets.UTF_8);

    @Test
    void beginDialogWithItsFirstSendAndTheCommitAreThreeRoundTrips() throws Exception {
        try (Fixture f = new Fixture("round_trips_first")) {
            for (DialogOptions options : List.of(DialogOptions.defaults(),
                    DialogOptions.defaults().withLifetime(Duration.ofHours(1)))) {
                for (int i = 0; i < WARM_UP; i++) {
                    f.dialog(options);
                }
                long before = CountingSocketFactory.roundTrips();
                f.dialog(options);
                assertEquals(3, CountingSocketFactory.roundTrips() - before,
                        "BEGIN DIALOG (with the transaction's BEGIN), its first SEND, the COMMIT; " + options);
            }
        }
    }

    /**
     * A session whose owner flushes it before the commit ({@link BrokerSession#deferWrites}): BEGIN DIALOG, once its
     * declared objects are known, waits for its first SEND, and the two are one statement, as in one call.
     */
    @Test
    void beginDialogThenItsFirstSendOnADeferringSessionAndTheCommitAreTwoRoundTrips() throws Exception {
        try (Fixture f = new Fixture("round_trips_deferred")) {
            f.s.deferWrites();
            for (DialogOptions options : List.of(DialogOptions.defaults(),
                    DialogOptions.defaults().withLifetime(Duration.ofHours(1)))) {
                for (int i = 0; i < WARM_UP; i++) {
                    f.dialog(options);
                }
                long before = CountingSocketFactory.roundTrips();
                f.dialog(options);
                assertEquals(2, CountingSocketFactory.roundTrips() - before,
                        "BEGIN DIALOG and its first SEND in one statement (with the BEGIN), the COMMIT; " + options);
                long alone = CountingSocketFactory.roundTrips();
                f.s.beginDialog("I", "T", "C", options);
                f.commit();
                assertEquals(2, CountingSocketFactory.roundTrips() - alone,
                        "a BEGIN DIALOG with no SEND, written by the flush before the COMMIT; " + options);
            }
        }
    }

    @Test
    void beginDialogAndSendInOneCallAndTheCommitAreTwoRoundTrips() throws Exception {
        try (Fixture f = new Fixture("round_trips_one_call")) {
            for (DialogOptions options : List.of(DialogOptions.defaults(),
                    DialogOptions.defaults().withLifetime(Duration.ofHours(1)))) {
                for (int i = 0; i <= WARM_UP; i++) {
                    long before = CountingSocketFactory.roundTrips();
                    long written = CountingSocketFactory.writes();
                    f.s.beginDialogAndSend("I", "T", "C", options, "M", BODY);
                    f.commit();
                    if (i == WARM_UP) {
                        assertEquals(2, CountingSocketFactory.roundTrips() - before,
                                "BEGIN DIALOG and SEND in one statement (with the BEGIN), the COMMIT; " + options);
                        assertEquals(2, CountingSocketFactory.writes() - written,
                                "the BEGIN in the statement's own write, then the COMMIT; " + options);
                    }
                }
            }
        }
    }

    /**
     * A first SEND whose type asks for well-formed XML: the body is parsed before the statement, once the broker
     * knows the type's validation, so that BEGIN DIALOG and the SEND stay one statement, in one call or in two.
     */
    @Test
    void aFirstSendOfWellFormedXmlIsInTheSameOneStatement() throws Exception {
        try (Fixture f = new Fixture("round_trips_xml")) {
            org.ssbjca.backend.TestAdmin a = org.ssbjca.backend.TestAdmin.of(f.counted.broker, f.counted.c);
            a.createMessageType("X", org.ssbjca.backend.Validation.WELL_FORMED_XML);
            a.createContract("CX", java.util.Map.of("X", org.ssbjca.backend.SentBy.ANY));
            a.createService("TX", "QT", "CX");
            f.commit();
            byte[] xml = "<work/>".getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i <= WARM_UP; i++) {
                long before = CountingSocketFactory.roundTrips();
                f.s.beginDialogAndSend("I", "TX", "CX", DialogOptions.defaults(), "X", xml);
                f.commit();
                if (i == WARM_UP) {
                    assertEquals(2, CountingSocketFactory.roundTrips() - before,
                            "BEGIN DIALOG and SEND in one statement (with the BEGIN), the COMMIT");
                }
            }
            f.s.deferWrites();
            for (int i = 0; i <= WARM_UP; i++) {
                long before = CountingSocketFactory.roundTrips();
                Conversation d = f.s.beginDialog("I", "TX", "CX", DialogOptions.defaults());
                f.s.send(d.handle(), "X", xml);
                f.commit();
                if (i == WARM_UP) {
                    assertEquals(2, CountingSocketFactory.roundTrips() - before,
                            "BEGIN DIALOG held back, with the SEND in one statement (with the BEGIN), the COMMIT");
                }
            }
            org.ssbjca.api.BrokerException e = org.junit.jupiter.api.Assertions.assertThrows(
                    org.ssbjca.api.BrokerException.class, () -> f.s.beginDialogAndSend("I", "TX", "CX",
                            DialogOptions.defaults(), "X", "<not xml".getBytes(StandardCharsets.UTF_8)));
            org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("not well-formed XML"),
                    e.getMessage());
        }
    }

    /**
     * When the one statement of {@code beginDialogAndSend} writes nothing (here: the target queue does not receive,
     * so the message goes to the transmission queue), the call takes the longer way at once: BEGIN DIALOG is not
     * held back for a SEND that would run the same statement again.
     */
    @Test
    void beginDialogAndSendThatTakesTheLongerWayRunsItsOneStatementOnce() throws Exception {
        try (Fixture f = new Fixture("round_trips_longer_way")) {
            f.s.deferWrites();
            f.counted.admin("UPDATE ssb.service_queue SET is_receive_enabled = FALSE WHERE queue_name = 'QT'");
            long[] trips = new long[2];
            for (int i = 0; i <= WARM_UP; i++) {
                long before = CountingSocketFactory.roundTrips();
                f.s.beginDialogAndSend("I", "T", "C", DialogOptions.defaults(), "M", BODY);
                f.commit();
                trips[0] = CountingSocketFactory.roundTrips() - before;
                before = CountingSocketFactory.roundTrips();
                Conversation d = f.s.beginDialog("I", "T", "C", DialogOptions.defaults());
                f.s.send(d.handle(), "M", BODY);
                f.commit();
                trips[1] = CountingSocketFactory.roundTrips() - before;
            }
            assertEquals(trips[1], trips[0], "one call costs what the two calls cost: " + trips[0]);
        }
    }

    @Test
    void aLaterSendAndTheCommitAreThreeRoundTrips() throws Exception {
        try (Fixture f = new Fixture("round_trips_later")) {
            Conversation d = f.dialog(DialogOptions.defaults());
            for (int i = 0; i < WARM_UP; i++) {
                f.s.send(d.handle(), "M", BODY);
                f.commit();
            }
            long before = CountingSocketFactory.roundTrips();
            f.s.send(d.handle(), "M", BODY);
            f.commit();
            assertEquals(3, CountingSocketFactory.roundTrips() - before,
                    "the lock of both endpoints (with the BEGIN), the SEND with its checks, the COMMIT");
        }
    }

    /**
     * A RECEIVE from a queue without prioritised groups runs the statement without them after a probe (are there
     * any?), which is believed for {@link org.ssbjca.backend.GroupPresence#RECHECK_NANOS}: one round trip more at
     * most once in that interval, none in between.
     */
    @Test
    void aReceiveAndTheCommitAreTwoRoundTripsAndTheProbeForPrioritiesComesOncePerInterval() throws Exception {
        try (Fixture f = new Fixture("round_trips_receive")) {
            for (int i = 0; i < WARM_UP + 3; i++) {
                f.dialog(DialogOptions.defaults());
            }
            long[] trips = new long[WARM_UP + 3];
            for (int i = 0; i < trips.length; i++) {
                if (i == WARM_UP + 1) {
                    f.nanos.addAndGet(org.ssbjca.backend.GroupPresence.RECHECK_NANOS);
                }
                long before = CountingSocketFactory.roundTrips();
                assertEquals(1, f.s.receive(ReceiveRequest.from("QT").top(1)).size());
                f.commit();
                trips[i] = CountingSocketFactory.roundTrips() - before;
            }
            assertEquals(2, trips[WARM_UP], "the RECEIVE (with the BEGIN) and the COMMIT");
            assertEquals(3, trips[WARM_UP + 1], "the interval passed: the probe, the RECEIVE, the COMMIT");
            assertEquals(2, trips[WARM_UP + 2], "the probe's answer believed again");
        }
    }

    /**
     * A delivery's transaction as a reader runs it: an XA branch on the reader's connection, the RECEIVE, the branch's
     * end and its one-phase commit. pgjdbc up to 42.7.12 sends the branch's {@code BEGIN} with the first statement;
     * 42.7.13 and 42.7.14 send it alone when the branch starts, a round trip more for every message delivered.
     * <p>
     * Two writes: pgjdbc 42.7.12 would write its {@code BEGIN} alone, just before the RECEIVE (3 writes, seen before
     * the RECEIVE began the transaction in its own write: {@link org.ssbjca.backend.Statements#listBetween}).
     */
    @Test
    void aReceiveInAnXaBranchAndItsOnePhaseCommitAreTwoRoundTrips() throws Exception {
        try (Fixture f = new Fixture("round_trips_xa")) {
            for (int i = 0; i < WARM_UP + 1; i++) {
                f.dialog(DialogOptions.defaults());
            }
            javax.sql.XAConnection xa = f.counted.broker.source().openXa();
            try {
                BrokerSession reader = f.counted.broker.session(xa.getConnection());
                org.ssbjca.support.CompletionAwareXAResource branch = new org.ssbjca.support.CompletionAwareXAResource(
                        xa.getXAResource(), reader::flush, reader::afterCompletion);
                reader.knowBranchesBy(branch::isActive);
                long[] trips = new long[WARM_UP + 1];
                long[] writes = new long[WARM_UP + 1];
                for (int i = 0; i < trips.length; i++) {
                    long before = CountingSocketFactory.roundTrips();
                    long written = CountingSocketFactory.writes();
                    javax.transaction.xa.Xid xid = org.ssbjca.fakes.TestXid.next("round-trips");
                    branch.start(xid, javax.transaction.xa.XAResource.TMNOFLAGS);
                    assertEquals(1, reader.receive(ReceiveRequest.from("QT").top(1)).size());
                    branch.end(xid, javax.transaction.xa.XAResource.TMSUCCESS);
                    branch.commit(xid, true);
                    trips[i] = CountingSocketFactory.roundTrips() - before;
                    writes[i] = CountingSocketFactory.writes() - written;
                }
                assertEquals(2, trips[WARM_UP], "the RECEIVE (with the branch's BEGIN) and the COMMIT: "
                        + java.util.Arrays.toString(trips));
                assertEquals(2, writes[WARM_UP], "the branch's BEGIN in the RECEIVE's own write, then the COMMIT: "
                        + java.util.Arrays.toString(writes));
            } finally {
                xa.close();
            }
        }
    }

    /**
     * Housekeeping (due timers, lifetimes and scheduled sends: three queries when nothing is due) runs after a look
     * that found nothing, not before a RECEIVE that finds a message: that message is not held back by it, unless a
     * whole interval more has passed (a queue so busy that no look comes back empty).
     */
    @Test
    void dueHousekeepingWaitsForALookThatFindsNothing() throws Exception {
        try (Fixture f = new Fixture("round_trips_housekeeping")) {
            for (int i = 0; i < WARM_UP + 2; i++) {
                f.dialog(DialogOptions.defaults());
            }
            for (int i = 0; i < WARM_UP; i++) {
                assertEquals(1, f.s.receive(ReceiveRequest.from("QT").top(1)).size());
                f.commit();
            }
            long interval = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(
                    PortableOptions.defaults().housekeepingMillis());
            // the interval passed (and the priority probe's too: one round trip of its own)
            f.nanos.addAndGet(interval);
            assertEquals(3, f.roundTripsOfAReceive(1),
                    "the probe, the RECEIVE and the COMMIT: housekeeping is due, but not before a message found");
            // a whole interval more: a queue that busy does its housekeeping after a look that found a message
            f.nanos.addAndGet(interval);
            assertEquals(6, f.roundTripsOfAReceive(1),
                    "the probe, the RECEIVE, housekeeping's three queries (nothing due) and the COMMIT");
            f.nanos.addAndGet(interval);
            assertEquals(7, f.roundTripsOfAReceive(0), "the probe, the empty RECEIVE, housekeeping's three queries, the"
                    + " queue's status (empty or disabled?) and the COMMIT");
        }
    }

    /**
     * A RECEIVE of one conversation runs its statements one by one (find and lock the group, take, the group's turn);
     * on a session told to read the failed deliveries of what it takes ({@link BrokerSession#readAttemptsWithReceive},
     * a queue reader's) one statement more reads them, on another (the connection factory's) none.
     */
    @Test
    void aReceiveOfOneConversationReadsTheFailedDeliveriesInOneRoundTripMoreOnlyWhenTold() throws Exception {
        try (Fixture f = new Fixture("round_trips_attempts")) {
            long[] trips = new long[2];
            for (int told = 0; told < 2; told++) {
                if (told == 1) {
                    f.s.readAttemptsWithReceive();
                }
                for (int i = 0; i <= WARM_UP; i++) {
                    java.util.UUID target = f.targetHandle(f.dialog(DialogOptions.defaults()));
                    long before = CountingSocketFactory.roundTrips();
                    org.ssbjca.backend.Received got = f.s.receive(
                            ReceiveRequest.from("QT").conversation(Conversation.ofHandle(target)), true, false);
                    assertEquals(1, got.messages().size());
                    f.commit();
                    trips[told] = CountingSocketFactory.roundTrips() - before;
                    assertEquals(told == 1 ? java.util.Optional.of(java.util.Map.of()) : java.util.Optional.empty(),
                            got.recordedAttempts());
                }
            }
            assertEquals(1, trips[1] - trips[0], "one statement more when told (" + trips[0] + ", then " + trips[1]
                    + ")");
        }
    }

    @Test
    void aReceiveWithAReplyAndTheCommitAreFourRoundTrips() throws Exception {
        try (Fixture f = new Fixture("round_trips_reply")) {
            for (int i = 0; i < WARM_UP + 1; i++) {
                f.dialog(DialogOptions.defaults());
            }
            for (int i = 0; i <= WARM_UP; i++) {
                long before = CountingSocketFactory.roundTrips();
                List<BrokerMessage> got = f.s.receive(ReceiveRequest.from("QT").top(1));
                assertEquals(1, got.size());
                f.s.send(got.get(0).conversationHandle(), "M", BODY);
                f.commit();
                if (i == WARM_UP) {
                    assertEquals(4, CountingSocketFactory.roundTrips() - before,
                            "the RECEIVE (with the BEGIN), the lock, the SEND with its checks, the COMMIT");
                }
            }
        }
    }

    /** {@link CountedSession} with the declarations, and the hot paths' calls. */
    private static final class Fixture implements AutoCloseable {

        final CountedSession counted;
        final BrokerSession s;
        /** The clock of the broker's {@link org.ssbjca.backend.GroupPresence}: it moves only when a test moves it. */
        final java.util.concurrent.atomic.AtomicLong nanos;

        Fixture(String database) throws Exception {
            counted = CountedSession.declared(database);
            s = counted.s;
            nanos = counted.nanos;
        }

        Conversation dialog(DialogOptions options) throws Exception {
            Conversation d = s.beginDialog("I", "T", "C", options);
            s.send(d.handle(), "M", BODY);
            commit();
            return d;
        }

        void commit() throws Exception {
            counted.commit();
        }

        /** @return the target's side of a dialog */
        java.util.UUID targetHandle(Conversation initiator) throws Exception {
            try (java.sql.PreparedStatement st = counted.c.prepareStatement("SELECT conversation_handle"
                    + " FROM ssb.conversation_endpoint WHERE conversation_id = ? AND NOT is_initiator")) {
                st.setObject(1, initiator.conversationId());
                try (java.sql.ResultSet rs = st.executeQuery()) {
                    rs.next();
                    return rs.getObject(1, java.util.UUID.class);
                }
            } finally {
                counted.c.commit();
            }
        }

        /** @return the round trips of a RECEIVE from QT (that takes {@code expected} messages) and its commit */
        long roundTripsOfAReceive(int expected) throws Exception {
            long before = CountingSocketFactory.roundTrips();
            assertEquals(expected, s.receive(ReceiveRequest.from("QT").top(1)).size());
            commit();
            return CountingSocketFactory.roundTrips() - before;
        }

        @Override
        public void close() throws SQLException {
            counted.close();
        }
    }
}
