package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.fakes.LogRecords;
import org.ssbjca.inbound.InboundBackends;
import org.ssbjca.inbound.InboundHarness;

/**
 * The messages that waited in {@code ssb.transmission_queue} for a queue disabled with the README's {@code UPDATE}
 * are moved onto it once the same {@code UPDATE} enables it ({@link Transmissions}): by the housekeeping's repair pass
 * when no reader saw the queue disabled, each once, in the order they were sent, even with two nodes moving at once;
 * rows whose conversation this side ended, or whose endpoint is gone, are dropped. The readers' prompt move is
 * {@code QueueEnabledAgainTest}'s.
 */
class TransmissionsTest {

    private static final String QUEUE = InboundHarness.TARGET_QUEUE;
    private static final String DISABLE = "UPDATE ssb.service_queue SET is_receive_enabled = FALSE WHERE queue_name = '"
            + QUEUE + "'";
    private static final String ENABLE = "UPDATE ssb.service_queue SET is_receive_enabled = TRUE WHERE queue_name = '"
            + QUEUE + "'";

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void theRepairPassMovesThemWhenItIsDue(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            AtomicLong nanos = new AtomicLong();
            try (PortableBroker node = new PortableBroker(h.db.source(), BackgroundRunner.daemonThreads(),
                    PortableOptions.defaults(), nanos::get)) {
                assertEquals(List.of(), receive(node, Duration.ZERO), "the first look ran the pass: nothing yet");
                h.execute(DISABLE);
                UUID a = h.send("a1", "a2", "a3").conversationId();
                UUID b = h.send("b1", "b2").conversationId();
                h.execute(ENABLE);

                nanos.addAndGet(Duration.ofMillis(Housekeeping.REPAIR_MILLIS - 1_000).toNanos());
                assertEquals(List.of(), receive(node, Duration.ZERO));
                assertEquals(5, transmissions(h), "not moved before the pass is due");

                nanos.addAndGet(Duration.ofSeconds(1).toNanos());
                List<String> got = new ArrayList<>(receive(node, Duration.ofSeconds(5)));
                assertEquals(0, transmissions(h), "moved by the pass that look ran");
                got.addAll(receive(node, Duration.ofSeconds(5)));
                List<String> expected = new ArrayList<>(List.of(a + " a1", a + " a2", a + " a3", b + " b1",
                        b + " b2"));
                assertEquals(expected.stream().sorted().toList(), got.stream().sorted().toList());
                assertEquals(got.stream().filter(m -> m.startsWith(a.toString())).toList(), expected.subList(0, 3),
                        "in the order they were sent");
                assertEquals(0, h.depth(QUEUE));
            }
        }
    }

    /**
     * The repair pass runs after a RECEIVE's look, on that reader's thread: a move it cannot make (here a row the
     * RECEIVE's own transaction deletes and has not committed, as a bean's END CONVERSATION would) fails within its
     * lock wait and is logged, and the RECEIVE answers as if there had been no pass. Before, on PostgreSQL the move
     * waited for that transaction, held by the very thread waiting for the move; on H2 the RECEIVE failed.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aMoveThatCannotBeMadeLeavesTheReceiveAlone(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend);
                LogRecords logs = LogRecords.of(Transmissions.class)) {
            AtomicLong nanos = new AtomicLong();
            try (PortableBroker node = new PortableBroker(h.db.source(), BackgroundRunner.daemonThreads(),
                    PortableOptions.defaults(), nanos::get); Connection c = h.db.source().open()) {
                BrokerSession s = node.session(c);
                ReceiveRequest look = ReceiveRequest.from(QUEUE).timeout(Duration.ZERO);
                assertEquals(List.of(), s.receive(look), "the first look ran the pass: nothing yet");
                c.commit();
                s.afterCompletion(true);
                h.execute(DISABLE);
                h.send("waiting");
                h.execute(ENABLE);
                try (java.sql.Statement st = c.createStatement()) {
                    assertEquals(1, st.executeUpdate("DELETE FROM ssb.transmission_queue"));
                }
                nanos.addAndGet(Duration.ofMillis(Housekeeping.REPAIR_MILLIS).toNanos());
                List<BrokerMessage> got = java.util.concurrent.CompletableFuture.supplyAsync(() -> s.receive(look))
                        .get(10, java.util.concurrent.TimeUnit.SECONDS);
                assertEquals(List.of(), got, "the RECEIVE answered");
                c.rollback();
                s.afterCompletion(false);
                assertEquals(1, logs.messages(Level.WARNING, "SSBJCA0122").size(), "the move's failure logged");
                assertEquals(1, transmissions(h), "left to the next pass");
            }
        }
    }

    /**
     * An END CONVERSATION of the receiving side that has not committed when the move reads the waiting rows: the move
     * locks that endpoint, so it either waits for the END and drops the row, or fails and leaves it to the next move;
     * it never puts the message on the queue for a side that ended (the END's deletion of that side's messages ran
     * before the move's insert). Before, the move read the endpoint's state unlocked and the message stayed queued.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void anEndConversationRacingTheMoveLeavesNothingForTheEndedSide(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            h.execute(DISABLE);
            Conversation raced = h.send("raced");
            UUID target = h.query(a -> a.peerHandle(raced.handle()));
            h.execute(ENABLE);
            PortableBroker broker = (PortableBroker) h.db.broker();
            try (Connection ender = h.db.source().open(); Connection c = h.db.source().open()) {
                BrokerSession ending = broker.session(ender);
                ending.endConversation(target, null, null); // not committed yet
                broker.transmissions().moveIfDue(c, QUEUE);
                ender.commit();
                ending.afterCompletion(true);
                broker.transmissions().moveIfDue(c, QUEUE);
            }
            assertEquals(0, h.depth(QUEUE), "no message on the queue for the side that ended");
            assertEquals(0, transmissions(h), "the row dropped");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void rowsForASideThatEndedOrAnEndpointThatIsGoneAreDropped(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend);
                LogRecords logs = LogRecords.of(Transmissions.class)) {
            h.execute(DISABLE);
            Conversation ended = h.send("ended");
            UUID endedTarget = h.query(a -> a.peerHandle(ended.handle()));
            h.tx(s -> {
                s.endConversation(endedTarget, null, null);
                return null;
            });
            Conversation gone = h.send("gone");
            UUID goneTarget = h.query(a -> a.peerHandle(gone.handle()));
            h.execute("DELETE FROM ssb.conversation_endpoint WHERE conversation_handle = '" + goneTarget + "'");
            h.send("kept");
            assertEquals(3, transmissions(h));
            h.execute(ENABLE);

            PortableBroker broker = (PortableBroker) h.db.broker();
            try (Connection c = h.db.source().open()) {
                broker.transmissions().moveIfDue(c, QUEUE);
            }

            assertEquals(0, transmissions(h), "none left to be read again by every move");
            assertEquals(1, h.depth(QUEUE));
            assertEquals(List.of("SSBJCA0121: moved 1 message(s) that waited in ssb.transmission_queue onto queue "
                    + QUEUE + ", enabled again; dropped 2 whose conversation this side had ended or whose endpoint no"
                    + " longer exists"), logs.messages(Level.INFO, "SSBJCA0121"));
        }
    }

    /**
     * Two nodes at once: the one whose transaction moves a queue's rows holds the queue's row, and the other passes
     * the queue over (it would otherwise put later messages of a conversation ahead of earlier ones); a move that
     * rolls back (a crash before its commit) leaves every row to the next, and none is moved twice.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void oneNodeMovesAQueueAtATimeAndEachRowOnce(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            h.execute(DISABLE);
            for (int i = 0; i < 3; i++) {
                h.send("m" + i + ".1", "m" + i + ".2");
            }
            h.execute(ENABLE);
            PortableBroker broker = (PortableBroker) h.db.broker();
            try (PortableBroker other = new PortableBroker(h.db.source(), BackgroundRunner.daemonThreads(),
                    PortableOptions.defaults()); Connection first = h.db.source().open();
                    Connection second = h.db.source().open()) {
                PortableSession crashing = new PortableSession(broker, first);
                assertEquals(new Transmissions.Moved(6, 0),
                        Transmissions.move(broker.sql(), crashing, QUEUE, Integer.MAX_VALUE));
                first.rollback();
                crashing.afterCompletion(false);
                assertEquals(6, transmissions(h), "rolled back: nothing lost");
                assertEquals(0, h.depth(QUEUE), "nor moved");

                PortableSession moving = new PortableSession(broker, first);
                assertEquals(new Transmissions.Moved(6, 0),
                        Transmissions.move(broker.sql(), moving, QUEUE, Integer.MAX_VALUE));
                second.setAutoCommit(true);
                other.transmissions().moveSomeOfAll(second);
                first.commit();
                moving.afterCompletion(true);
                other.transmissions().moveSomeOfAll(second);

                assertEquals(0, transmissions(h));
                assertEquals(6, h.depth(QUEUE), "each once");
            }
        }
    }

    /** @return the messages of one RECEIVE on the node, as "conversation body", committed */
    private static List<String> receive(PortableBroker node, Duration timeout) throws Exception {
        try (Connection c = node.source().open()) {
            BrokerSession s = node.session(c);
            List<BrokerMessage> got = s.receive(ReceiveRequest.from(QUEUE).top(10).timeout(timeout));
            c.commit();
            s.afterCompletion(true);
            return got.stream().map(m -> m.conversationId() + " " + m.bodyAsText()).toList();
        }
    }

    private static long transmissions(InboundHarness h) {
        return h.query(a -> a.transmissionQueueDepth());
    }
}
