package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ssbjca.backend.portable.ScheduledSendCancelRaceTest.broker;
import static org.ssbjca.backend.portable.ScheduledSendCancelRaceTest.database;
import static org.ssbjca.backend.portable.ScheduledSendCancelRaceTest.receive;
import static org.ssbjca.backend.portable.ScheduledSendCancelRaceTest.runPass;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DueTime;
import org.ssbjca.fakes.LogRecords;

/**
 * A due scheduled send whose SEND fails for a reason that passes (another transaction holds the conversation past the
 * pass's lock timeout) is kept and sent by a later pass, once, before the sends of its conversation due after it; one
 * whose SEND fails for good (the conversation ended) is dropped.
 */
class ScheduledSendTransientFailureTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aSendThatTimesOutOnALockIsKeptAndSentByALaterPassInItsPlace(String backend) throws Exception {
        ConnectionSource source = new ConnectionSource(database(backend, "scheduled_lock_timeout"));
        try (PortableBroker broker = broker(source); Connection c = source.open(); Connection p = source.open();
             Connection holder = source.open()) {
            IdleGroupsReceiveTest.declare(broker, c);
            BrokerSession s = broker.session(c);
            Conversation d = s.beginDialog("I", "T", "C", DialogOptions.defaults());
            // both due before the pass looks, however fast it comes (a pass within a millisecond of the first's due
            // time did not see the second, and tried nothing of it)
            Instant due = Instant.now().minusSeconds(1);
            s.scheduleSend(d.handle(), "M", "first".getBytes(StandardCharsets.UTF_8), DueTime.at(due));
            s.scheduleSend(d.handle(), "M", "second".getBytes(StandardCharsets.UTF_8), DueTime.at(due.plusMillis(1)));
            c.commit();
            s.afterCompletion(true);
            shortLockTimeout(backend, p);

            holder.setAutoCommit(false);
            RowLocks.holdConversation(holder, d.handle());
            runPass(broker, p); // the first SEND waits for the holder's lock past the timeout and fails
            holder.rollback();
            assertEquals(2, pending(p), "both kept");
            List<java.time.OffsetDateTime> dueAt = dueTimes(p);
            assertEquals(Duration.ofNanos(1_000), Duration.between(dueAt.get(0), dueAt.get(1)),
                    "the second put one microsecond behind the first, not tried: " + dueAt);

            List<String> got = new ArrayList<>();
            Awaitility.await("a later pass sends it").atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(50)).until(() -> {
                        runPass(broker, p);
                        got.addAll(receive(s, c));
                        return got.size() >= 2;
                    });
            runPass(broker, p);
            got.addAll(receive(s, c));
            assertEquals(List.of("first", "second"), got, "each sent once, by a later pass, in the order due");
            assertEquals(0, pending(p));
        }
    }

    /**
     * delayed-sends.md: a kept send says so at DEBUG ({@code SSBJCA0323}) for its first four failures in a row, then at
     * WARN ({@code SSBJCA0324}) at each one; once the lock is gone it is sent.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aSendStillFailingAfterFourTriesWarns(String backend) throws Exception {
        ConnectionSource source = new ConnectionSource(database(backend, "scheduled_still_kept"));
        try (PortableBroker broker = broker(source); Connection c = source.open(); Connection p = source.open();
             Connection holder = source.open(); LogRecords log = LogRecords.of(ScheduledSends.class)) {
            IdleGroupsReceiveTest.declare(broker, c);
            BrokerSession s = broker.session(c);
            shortLockTimeout(backend, p);
            aDueSendHeld(s, c, holder);

            // backoffs of 250, 500, 1000 and 2000 ms before the fifth try
            Awaitility.await("the fifth failure in a row").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(100)).until(() -> {
                        runPass(broker, p);
                        return !log.messages(Level.WARNING, "SSBJCA0324").isEmpty();
                    });
            holder.rollback();
            List<String> kept = log.messages(Level.FINE, "SSBJCA0323");
            assertEquals(4, kept.size(), kept.toString());
            for (int i = 0; i < 4; i++) {
                assertTrue(kept.get(i).contains("could not be sent, " + (i + 1) + " time(s) in a row"), kept.get(i));
            }
            List<String> still = log.messages(Level.WARNING, "SSBJCA0324");
            assertEquals(1, still.size(), still.toString());
            assertTrue(still.get(0).contains("still could not be sent, 5 times in a row"), still.get(0));

            List<String> got = new ArrayList<>();
            Awaitility.await("sent once the lock is gone").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(100)).until(() -> {
                        runPass(broker, p);
                        got.addAll(receive(s, c));
                        return !got.isEmpty();
                    });
            assertEquals(List.of("held"), got);
        }
    }

    /**
     * delayed-sends.md: the failures in a row are counted by each node. A send this node tried twice waits 250 ms,
     * then 500; its next failure on another node (another broker on the same database) waits 250 ms again.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void eachNodeCountsTheFailuresItSaw(String backend) throws Exception {
        ConnectionSource source = new ConnectionSource(database(backend, "scheduled_two_nodes"));
        try (PortableBroker one = broker(source); PortableBroker other = broker(source); Connection c = source.open();
             Connection p = source.open(); Connection q = source.open(); Connection holder = source.open()) {
            IdleGroupsReceiveTest.declare(one, c);
            shortLockTimeout(backend, p);
            shortLockTimeout(backend, q);
            aDueSendHeld(one.session(c), c, holder);
            try {
                assertBackoff(Duration.ofMillis(250), one, p);
                assertBackoff(Duration.ofMillis(500), one, p);
                assertBackoff(Duration.ofMillis(250), other, q);
            } finally {
                holder.rollback();
            }
        }
    }

    /** Schedules a send already due on a new dialog, committed, and holds its conversation's lock on {@code holder}. */
    private static void aDueSendHeld(BrokerSession s, Connection c, Connection holder) throws Exception {
        Conversation d = s.beginDialog("I", "T", "C", DialogOptions.defaults());
        s.scheduleSend(d.handle(), "M", "held".getBytes(StandardCharsets.UTF_8),
                DueTime.at(Instant.now().minusSeconds(1)));
        c.commit();
        s.afterCompletion(true);
        holder.setAutoCommit(false);
        RowLocks.holdConversation(holder, d.handle());
    }

    /**
     * Waits until the kept send is due, runs one pass of {@code node}, which fails on the held lock, and asserts the
     * send's new due time is {@code backoff} after the failure (the pass's start and end bound it).
     */
    private static void assertBackoff(Duration backoff, PortableBroker node, Connection p) throws Exception {
        Instant due = dueTimes(p).get(0).toInstant();
        Awaitility.await("due").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                .until(() -> Instant.now().isAfter(due));
        Instant before = Instant.now();
        runPass(node, p);
        Instant after = Instant.now();
        assertEquals(1, pending(p), "kept");
        Instant next = dueTimes(p).get(0).toInstant();
        Duration tolerance = Duration.ofMillis(2); // the microseconds the row keeps, the clocks' reading
        assertTrue(!next.isBefore(before.plus(backoff).minus(tolerance))
                && !next.isAfter(after.plus(backoff).plus(tolerance)), "due " + next + ", " + backoff + " after a"
                + " failure between " + before + " and " + after);
    }

    /**
     * delayed-sends.md: a send whose conversation ended, whose message type is no longer in the contract, or whose
     * target service is gone, when it comes due is dropped, with one SSBJCA0300 saying why.
     */
    @ParameterizedTest(name = "{0}, {1}")
    @CsvSource({"H2, ended", "PostgreSQL, ended", "H2, service gone", "PostgreSQL, service gone", "H2, type dropped",
        "PostgreSQL, type dropped"})
    void aSendThatCannotBeSentWhenDueIsDropped(String backend, String why) throws Exception {
        ConnectionSource source = new ConnectionSource(database(backend, "scheduled_dropped"));
        try (PortableBroker broker = broker(source); Connection c = source.open(); Connection p = source.open();
                LogRecords log = LogRecords.of(ScheduledSends.class)) {
            IdleGroupsReceiveTest.declare(broker, c);
            BrokerSession s = broker.session(c);
            Conversation d = s.beginDialog("I", "T", "C", DialogOptions.defaults());
            s.scheduleSend(d.handle(), "M", "due".getBytes(StandardCharsets.UTF_8),
                    DueTime.at(Instant.now().plusMillis(300)));
            c.commit();
            s.afterCompletion(true);
            String because = switch (why) {
                case "ended" -> {
                    s.endConversation(d.handle(), null, null);
                    yield "conversation handle " + d.handle() + " no longer exists";
                }
                case "type dropped" -> {
                    execute(c, "DELETE FROM ssb.contract_message_type WHERE contract_name = 'C'"
                            + " AND message_type_name = 'M'");
                    yield "message type 'M' is not part of contract 'C'";
                }
                default -> {
                    execute(c, "DELETE FROM ssb.service WHERE service_name = 'T'");
                    yield "target service 'T' does not exist";
                }
            };
            c.commit();
            s.afterCompletion(true);

            Awaitility.await("the pass drops it").atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(50)).until(() -> {
                        runPass(broker, p);
                        return pending(p) == 0;
                    });
            assertEquals(List.of(), receive(s, c), "never sent");
            assertDroppedOnce(log, d, because);
        }
    }

    /** One SSBJCA0300 WARN, naming the conversation, saying the send is dropped and why. */
    private static void assertDroppedOnce(LogRecords log, Conversation d, String why) {
        List<String> dropped = log.messages(Level.WARNING, "SSBJCA0300");
        assertEquals(1, dropped.size(), dropped.toString());
        assertTrue(dropped.get(0).contains("on conversation " + d.handle()) && dropped.get(0).contains("is dropped: ")
                && dropped.get(0).contains(why), dropped.get(0));
    }

    private static void execute(Connection c, String sql) throws Exception {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private static void shortLockTimeout(String backend, Connection p) throws Exception {
        try (Statement st = p.createStatement()) {
            st.execute(backend.equals("H2") ? "SET LOCK_TIMEOUT 300" : "SET lock_timeout = '300ms'");
        }
    }

    /** The due times of the pending sends, the first's first. */
    private static List<java.time.OffsetDateTime> dueTimes(Connection p) throws Exception {
        List<java.time.OffsetDateTime> due = new ArrayList<>();
        try (Statement st = p.createStatement(); java.sql.ResultSet rs = st.executeQuery(
                "SELECT due_at FROM ssb.scheduled_send ORDER BY due_at, schedule_order")) {
            while (rs.next()) {
                due.add(rs.getObject(1, java.time.OffsetDateTime.class));
            }
        }
        p.commit();
        return due;
    }

    private static long pending(Connection p) throws Exception {
        try (Statement st = p.createStatement();
             java.sql.ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM ssb.scheduled_send")) {
            rs.next();
            long n = rs.getLong(1);
            p.commit();
            return n;
        }
    }
}
