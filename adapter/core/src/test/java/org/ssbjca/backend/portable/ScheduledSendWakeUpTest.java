package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerException;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.DueTime;
import org.ssbjca.conformance.PostgresServer;

/**
 * A scheduled send moves at the first look at or after its due time, not at the housekeeping interval's next pass:
 * the clock of due times is the test's, and the interval's clock never moves, so only the due time can start a pass.
 * Waiting sessions sleep no longer than until the earliest due time their node knows of (a send it committed, or one
 * its probe read from the database), and a send due sooner than they would wake makes them look again.
 */
class ScheduledSendWakeUpTest {

    private static final Instant T0 = Instant.parse("2026-12-02T09:00:00Z");
    private static final long MINUTE = 60_000;
    /** Shorter than the fallback poll: a wait that returns a message within it was woken by a pass. */
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final AtomicReference<Instant> now = new AtomicReference<>(T0);

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aDueSendMovesAtTheFirstLookAtItsTimeNotAtTheNextInterval(String backend) throws Exception {
        ConnectionSource source = new ConnectionSource(database(backend, "wake_due"));
        try (PortableBroker broker = broker(source); Connection c = source.open()) {
            IdleGroupsReceiveTest.declare(broker, c);
            BrokerSession s = broker.session(c);
            Conversation d = begin(s, c);
            assertEquals(List.of(), receive(s, c), "the first look runs the interval's pass: nothing due");

            schedule(s, c, d, T0.plusSeconds(5));

            assertEquals(5_000, broker.waiting().sleepMillis("QT", MINUTE), "a wait sleeps until the due time");
            now.set(T0.plusMillis(4_999));
            assertEquals(List.of(), receive(s, c), "not before its time");
            assertEquals(1, broker.waiting().sleepMillis("QT", MINUTE));
            now.set(T0.plusSeconds(5));
            assertEquals(List.of("later"), receive(s, c, PATIENCE), "moved by the first look at its time");
            assertEquals(MINUTE, broker.waiting().sleepMillis("QT", MINUTE), "nothing more is due");
        }
    }

    /** A send due centuries ahead (beyond what a long counts in nanoseconds) bounds no wait, and fails none. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aSendDueCenturiesAheadLeavesTheFallbackPoll(String backend) throws Exception {
        ConnectionSource source = new ConnectionSource(database(backend, "wake_far"));
        try (PortableBroker broker = broker(source); Connection c = source.open()) {
            IdleGroupsReceiveTest.declare(broker, c);
            BrokerSession s = broker.session(c);
            schedule(s, c, begin(s, c), Instant.parse("2500-01-01T00:00:00Z"));

            assertEquals(MINUTE, broker.waiting().sleepMillis("QT", MINUTE));
            assertEquals(List.of(), receive(s, c));
        }
    }

    /** Node B did not schedule the send: its probe reads the next due time from the database. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void anotherNodesSendIsLearnedByTheProbeAndMovedAtItsTime(String backend) throws Exception {
        ConnectionSource source = new ConnectionSource(database(backend, "wake_other"));
        try (PortableBroker a = broker(source); PortableBroker b = broker(source); Connection ca = source.open();
             Connection cb = source.open()) {
            IdleGroupsReceiveTest.declare(a, ca);
            BrokerSession sa = a.session(ca);
            Conversation d = begin(sa, ca);
            schedule(sa, ca, d, T0.plusSeconds(3));
            BrokerSession sb = b.session(cb);

            assertEquals(MINUTE, b.waiting().sleepMillis("QT", MINUTE), "B knows of nothing before it looks");
            assertEquals(List.of(), receive(sb, cb), "B's first look probes: nothing due yet");
            assertEquals(3_000, b.waiting().sleepMillis("QT", MINUTE), "B learned the due time");
            now.set(T0.plusSeconds(3));
            assertEquals(List.of("later"), receive(sb, cb, PATIENCE), "B moved it at its time");
            assertEquals(List.of(), receive(sa, ca), "and A never moves it again");
        }
    }

    /**
     * A reader asleep on a minute's fallback poll: a send committed due now (sooner than the reader would wake) makes
     * it look again, and its look moves and receives the send.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aSendDueSoonerThanASleepEndsWakesTheReader(String backend) throws Exception {
        ConnectionSource source = new ConnectionSource(database(backend, "wake_sleeper"));
        try (PortableBroker broker = broker(source); Connection c = source.open(); Connection r = source.open()) {
            IdleGroupsReceiveTest.declare(broker, c);
            BrokerSession s = broker.session(c);
            Conversation d = begin(s, c);
            BrokerSession reader = broker.session(r);
            assertEquals(List.of(), receive(reader, r), "the first look runs the interval's pass");
            CompletableFuture<List<BrokerMessage>> waiting = CompletableFuture.supplyAsync(
                    () -> reader.receive(ReceiveRequest.from("QT").timeout(Duration.ofMinutes(5))));
            org.awaitility.Awaitility.await("the reader asleep").atMost(Duration.ofSeconds(30))
                    .until(() -> broker.signals().waiters("QT", true) == 1);

            schedule(s, c, d, T0);

            List<BrokerMessage> got = waiting.get(30, TimeUnit.SECONDS);
            r.commit();
            reader.afterCompletion(true);
            assertEquals(List.of("later"), got.stream().map(BrokerMessage::bodyAsText).toList());
        }
    }

    /**
     * A look that finds a send due while another pass of its node runs leaves it to that pass, which may have read the
     * due sends before this one was committed (here: committed due a second before the running pass's time, which it
     * does not read again). The running pass notes it again when it ends, so the next look moves it, not the
     * interval's next pass (never here: the interval's clock stands still).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aSendLeftToARunningPassIsMovedByTheNextLookAfterIt(String backend) throws Exception {
        ConnectionSource source = new ConnectionSource(database(backend, "wake_left_to_pass"));
        try (PortableBroker broker = broker(source); Connection c = source.open(); Connection r = source.open();
             Connection holder = source.open()) {
            IdleGroupsReceiveTest.declare(broker, c);
            BrokerSession s = broker.session(c);
            Conversation first = begin(s, c);
            Conversation second = begin(s, c);
            BrokerSession reader = broker.session(r);
            assertEquals(List.of(), receive(reader, r), "the first look runs the interval's pass");
            schedule(s, c, first, T0.plusSeconds(5), "first");
            now.set(T0.plusSeconds(5));
            holder.setAutoCommit(false);
            RowLocks.holdConversation(holder, first.handle());
            CompletableFuture<List<String>> running = CompletableFuture.supplyAsync(() -> {
                try {
                    return receive(reader, r);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            org.awaitility.Awaitility.await("the pass's SEND of the first waits on its conversation")
                    .atMost(Duration.ofSeconds(30)).until(() -> RowLocks.someSessionWaits(source));

            schedule(s, c, second, T0.plusSeconds(4), "second");
            assertEquals(List.of(), receive(s, c), "this look's pass is left to the running one");
            holder.rollback();
            assertEquals(List.of(), running.get(30, TimeUnit.SECONDS), "the running pass sent only the first");

            assertEquals(List.of("first"), receive(s, c));
            assertEquals(1, broker.waiting().sleepMillis("QT", MINUTE), "the send left to the pass is due");
            assertEquals(List.of("second"), receive(s, c, PATIENCE), "moved by the next look");
        }
    }

    /**
     * A look that claimed a due send and then failed to ask whether anything is due (in its caller's transaction, which
     * rolls back) gives the due time back: the next look moves the send, not the interval's next pass (never here).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aDueTimeClaimedByALookThatFailedIsMovedByTheNextLook(String backend) throws Exception {
        ConnectionSource source = new ConnectionSource(database(backend, "wake_failed_look"));
        try (PortableBroker broker = broker(source); Connection c = source.open(); Connection ddl = source.open()) {
            IdleGroupsReceiveTest.declare(broker, c);
            BrokerSession s = broker.session(c);
            Conversation d = begin(s, c);
            assertEquals(List.of(), receive(s, c), "the first look runs the interval's pass");
            schedule(s, c, d, T0.plusSeconds(5));
            now.set(T0.plusSeconds(5));
            ddl.setAutoCommit(true);
            // the look's check for due timers reads this column; the RECEIVE does not
            try (Statement st = ddl.createStatement()) {
                st.execute("ALTER TABLE ssb.conversation_endpoint RENAME COLUMN timer_expires_at TO renamed_by_test");
            }
            try {
                assertThrows(BrokerException.class, () -> receive(s, c), "the look's check fails");
            } finally {
                c.rollback();
                s.afterCompletion(false);
                try (Statement st = ddl.createStatement()) {
                    st.execute("ALTER TABLE ssb.conversation_endpoint RENAME COLUMN renamed_by_test"
                            + " TO timer_expires_at");
                }
            }

            assertEquals(1, broker.waiting().sleepMillis("QT", MINUTE), "the claimed due time is known again");
            assertEquals(List.of("later"), receive(s, c, PATIENCE), "moved by the next look");
        }
    }

    private PortableBroker broker(ConnectionSource source) {
        Clock clock = new Clock() {
            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now.get();
            }
        };
        // the interval's clock stands still: after the first look, no pass is ever due by the interval
        return new PortableBroker(source, BackgroundRunner.daemonThreads(), new PortableOptions(MINUTE, 1000, clock),
                () -> 0L);
    }

    private static DatabaseConfig database(String backend, String name) {
        return backend.equals("H2")
                ? new DatabaseConfig("jdbc:h2:mem:" + name + "-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1"
                        + ";LOCK_TIMEOUT=60000", "sa", "")
                : PostgresServer.get().newDatabase(name);
    }

    private static Conversation begin(BrokerSession s, Connection c) throws Exception {
        Conversation d = s.beginDialog("I", "T", "C", DialogOptions.defaults());
        c.commit();
        s.afterCompletion(true);
        return d;
    }

    private static void schedule(BrokerSession s, Connection c, Conversation d, Instant due) throws Exception {
        schedule(s, c, d, due, "later");
    }

    private static void schedule(BrokerSession s, Connection c, Conversation d, Instant due, String body)
            throws Exception {
        s.scheduleSend(d.handle(), "M", body.getBytes(StandardCharsets.UTF_8), DueTime.at(due));
        c.commit();
        s.afterCompletion(true);
    }

    private static List<String> receive(BrokerSession s, Connection c) throws Exception {
        return receive(s, c, Duration.ZERO);
    }

    /**
     * One RECEIVE that waits: the housekeeping pass runs after a look that found nothing, and its commit makes the
     * wait look again at once; without a pass the wait sleeps the minute's fallback poll and returns nothing.
     */
    private static List<String> receive(BrokerSession s, Connection c, Duration timeout) throws Exception {
        List<BrokerMessage> got = s.receive(ReceiveRequest.from("QT").timeout(timeout));
        c.commit();
        s.afterCompletion(true);
        return got.stream().map(BrokerMessage::bodyAsText).toList();
    }
}
