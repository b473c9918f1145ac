package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
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
import org.ssbjca.tiers.Slow;

/**
 * The messages that waited in {@code ssb.transmission_queue} for a queue disabled with the {@code UPDATE} of
 * docs/guide/backends.md are moved onto it once the same {@code UPDATE} enables it ({@link Transmissions}): by the
 * housekeeping's repair pass when no reader saw the queue disabled, each once, in the order they were sent, even with
 * two nodes moving at once; rows whose conversation this side ended, or whose endpoint is gone, are dropped. A backlog
 * of more than a page is moved a page at a time, each page a transaction of its own: the first by the reader or the
 * repair pass, the rest by a background task of the broker. The readers' prompt move is {@code
 * QueueEnabledAgainTest}'s.
 */
class TransmissionsTest {

    private static final String QUEUE = InboundHarness.TARGET_QUEUE;
    private static final String DISABLE = "UPDATE ssb.service_queue SET is_receive_enabled = FALSE WHERE queue_name = '"
            + QUEUE + "'";
    private static final String ENABLE = "UPDATE ssb.service_queue SET is_receive_enabled = TRUE WHERE queue_name = '"
            + QUEUE + "'";
    /** A backlog of five pages. */
    private static final int BACKLOG = 5 * Transmissions.PAGE;
    /** What the name of the background task that moves a queue's backlog contains. */
    private static final String MOVE_TASK = "ssb.transmission_queue";

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

    /**
     * A backlog of several pages: a reader's move ({@link Transmissions#moveIfDue}, which a reader runs holding its
     * activation's reconnect gate) commits one page and returns, and hands the rest to one background task of the
     * broker's runner (held here until the test runs it), which moves it a page at a time, each page a transaction
     * of its own (counted by the arrivals the broker's commits signal); a second reader meanwhile leaves the rest to
     * that task. Every message arrives once, each conversation's in the order sent.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aReaderMovesOnePageAndABackgroundTaskTheRestPageByPage(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            h.execute(DISABLE);
            Map<UUID, List<String>> sent = sendBacklog(h);
            h.execute(ENABLE);
            Map<String, Runnable> handedOver = new ConcurrentHashMap<>();
            try (PortableBroker node = new PortableBroker(h.db.source(), holding(handedOver),
                    PortableOptions.defaults(), new AtomicLong()::get); Connection c = h.db.source().open()) {
                node.transmissions().moveIfDue(c, QUEUE);
                assertEquals(Transmissions.PAGE, h.depth(QUEUE), "the reader's move committed one page and returned");
                assertEquals(BACKLOG - Transmissions.PAGE, transmissions(h), "the rest waits for the background task");
                assertEquals(1, handedOver.size(), "handed to one background task");

                node.transmissions().moveIfDue(c, QUEUE);
                assertEquals(Transmissions.PAGE, h.depth(QUEUE), "a second reader leaves the rest to that task");
                assertEquals(1, handedOver.size(), "and starts no other");

                handedOver.values().iterator().next().run();
                assertEquals(0, transmissions(h));
                assertEquals(BACKLOG / Transmissions.PAGE, node.signals().arrivals(QUEUE, InboundHarness.REQUEST),
                        "a committed transaction per page");
                assertEquals(sent, receiveAll(node), "each message once, each conversation's in the order sent");
            }
        }
    }

    /**
     * The repair pass moves one page of a queue's backlog and hands the rest to the broker's background task, which
     * moves it at once, page by page, not at the passes to come (one page every 30 s: hours for a large backlog).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void theRepairPassMovesAPageAndHandsTheRestToABackgroundTask(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            Map<String, Runnable> handedOver = new ConcurrentHashMap<>();
            AtomicLong nanos = new AtomicLong();
            try (PortableBroker node = new PortableBroker(h.db.source(), holding(handedOver),
                    PortableOptions.defaults(), nanos::get)) {
                assertEquals(List.of(), receive(node, Duration.ZERO), "the first look ran the pass: nothing yet");
                h.execute(DISABLE);
                Map<UUID, List<String>> sent = sendBacklog(h);
                h.execute(ENABLE);

                nanos.addAndGet(Duration.ofMillis(Housekeeping.REPAIR_MILLIS).toNanos());
                assertEquals(List.of(), receive(node, Duration.ZERO), "the look that runs the pass found nothing");
                assertEquals(BACKLOG - Transmissions.PAGE, transmissions(h), "the pass moved one page");
                assertEquals(1, handedOver.size(), "and handed the rest to a background task");

                handedOver.values().iterator().next().run();
                assertEquals(0, transmissions(h));
                assertEquals(sent, receiveAll(node), "each message once, each conversation's in the order sent");
            }
        }
    }

    /**
     * A page of the background move that keeps failing (a target endpoint another transaction holds past the move's
     * lock wait, 200 ms here, not its 5 s) rolls back alone each time: the pages before it stay committed, the task
     * ends after {@value BacklogMove#MAX_FAILURES} failures in a row (logged once), and a later move takes the rest;
     * nothing is lost or moved twice, and each conversation's messages arrive in the order sent.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    @Slow
    void aPageThatFailsLeavesTheRestToALaterMoveLosingNothing(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend);
                LogRecords logs = LogRecords.of(Transmissions.class)) {
            h.execute(DISABLE);
            List<Conversation> begun = new ArrayList<>();
            Map<UUID, List<String>> sent = sendBacklog(h, begun);
            h.execute(ENABLE);
            // the sixth conversation's messages are the third page's second half (each conversation half a page)
            UUID held = h.query(a -> a.peerHandle(begun.get(5).handle()));
            Map<String, Runnable> handedOver = new ConcurrentHashMap<>();
            try (PortableBroker node = new PortableBroker(h.db.source(), holding(handedOver),
                    PortableOptions.defaults(), new AtomicLong()::get); Connection c = h.db.source().open();
                    Connection locker = h.db.source().open()) {
                node.transmissions().backgroundLockWaitMillis(Transmissions.LOCK_WAIT_MILLIS);
                lockEndpoint(locker, held);
                node.transmissions().moveIfDue(c, QUEUE);
                assertEquals(1, handedOver.size(), "the rest handed to a background task");
                handedOver.values().iterator().next().run();
                assertEquals(2L * Transmissions.PAGE, h.depth(QUEUE), "the pages before the failing one committed");
                assertEquals(BACKLOG - 2L * Transmissions.PAGE, transmissions(h), "the failing page rolled back");
                assertEquals(1, logs.messages(Level.WARNING, "SSBJCA0122").size(), "its failure logged");
                assertEquals(BacklogMove.MAX_FAILURES - 1, logs.messages(Level.FINE, "SSBJCA0123").size(),
                        "tried again before");
                locker.rollback();

                handedOver.clear();
                node.transmissions().moveIfDue(c, QUEUE);
                handedOver.values().iterator().next().run();
                assertEquals(0, transmissions(h));
                assertEquals(sent, receiveAll(node), "each message once, each conversation's in the order sent");
            }
        }
    }

    /**
     * A page of the background move that fails once (a delivery holds a target endpoint past the move's lock wait,
     * 200 ms here: a session of the test, which lets it go once the failure is logged) is tried again and the move
     * goes on: every message moved once, in order, and no failure of the move logged.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aPageThatFailsOnceIsTriedAgain(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend);
                LogRecords logs = LogRecords.of(Transmissions.class)) {
            h.execute(DISABLE);
            List<Conversation> begun = new ArrayList<>();
            Map<UUID, List<String>> sent = sendBacklog(h, begun);
            h.execute(ENABLE);
            UUID held = h.query(a -> a.peerHandle(begun.get(5).handle()));
            Map<String, Runnable> handedOver = new ConcurrentHashMap<>();
            try (PortableBroker node = new PortableBroker(h.db.source(), holding(handedOver),
                    PortableOptions.defaults(), new AtomicLong()::get); Connection c = h.db.source().open();
                    Connection locker = h.db.source().open()) {
                node.transmissions().backgroundLockWaitMillis(Transmissions.LOCK_WAIT_MILLIS);
                lockEndpoint(locker, held);
                node.transmissions().moveIfDue(c, QUEUE);
                java.util.concurrent.CompletableFuture<Void> move = java.util.concurrent.CompletableFuture.runAsync(
                        handedOver.values().iterator().next());
                org.awaitility.Awaitility.await("the page's failure logged, to be tried again (SSBJCA0123)")
                        .atMost(Duration.ofSeconds(30)).until(() -> !logs.messages(Level.FINE, "SSBJCA0123").isEmpty());
                locker.rollback();
                move.get(30, java.util.concurrent.TimeUnit.SECONDS);

                assertEquals(List.of(), logs.messages(Level.WARNING, "SSBJCA0122"), "the move did not give up");
                assertEquals(0, transmissions(h));
                assertEquals(sent, receiveAll(node), "each message once, each conversation's in the order sent");
            }
        }
    }

    /**
     * A background move that waits for its turn (another mover, here a session of the test, holds the queue's row) is
     * stopped by the broker's close, which returns once the move has left its thread; the backlog is left as it was
     * for a later move, nothing lost.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void closingTheBrokerStopsItsBacklogMoveAndWaitsForIt(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend);
                LogRecords logs = LogRecords.of(Transmissions.class)) {
            h.execute(DISABLE);
            sendBacklog(h);
            h.execute(ENABLE);
            List<Thread> threads = new java.util.concurrent.CopyOnWriteArrayList<>();
            List<BacklogMove> moves = new java.util.concurrent.CopyOnWriteArrayList<>();
            BackgroundRunner runner = (name, task, refused) -> {
                if (name.contains(MOVE_TASK)) {
                    Thread t = new Thread(task, name);
                    t.setDaemon(true);
                    threads.add(t);
                    moves.add((BacklogMove) task);
                    t.start();
                }
            };
            PortableBroker node = new PortableBroker(h.db.source(), runner, PortableOptions.defaults(),
                    new AtomicLong()::get);
            try (Connection c = h.db.source().open(); Connection other = h.db.source().open();
                    java.sql.Statement st = other.createStatement()) {
                st.execute("SELECT queue_name FROM ssb.service_queue WHERE queue_name = '" + QUEUE + "' FOR UPDATE");
                node.transmissions().moveIfDue(c, QUEUE);
                assertEquals(1, moves.size(), "the backlog handed to a background move, which waits for its turn");
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30))
                        .until(() -> threads.get(0).getState() == Thread.State.TIMED_WAITING);

                node.close();
                assertTrue(moves.get(0).end().await(0), "the close returned once the move had ended");
                other.rollback();
            } finally {
                node.close();
            }
            assertEquals(List.of(), logs.messages(Level.WARNING, "SSBJCA0122"), "waiting for its turn is no failure");
            assertEquals(BACKLOG, transmissions(h), "nothing moved, nothing lost");
            assertEquals(0, h.depth(QUEUE));
        }
    }

    /**
     * The hand-off of a backlog's rest to the work manager never holds the reader that moved its first page (which
     * holds its activation's reconnect gate) nor the repair pass (which runs in a reader's delivery transaction): with
     * no thread or room in the long-running pool (WildFly's then blocks the caller for the start timeout, 10 s) the
     * move is refused at once (SSBJCA0106), and once the pool has room the next repair pass offers it again and the
     * rest is moved. Before, each call waited the 10 s start timeout, holding the lock of every queue's hand-off.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aPoolWithoutRoomRefusesTheMoveAtOnceAndTheNextRepairPassOffersItAgain(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend);
                LogRecords refusals = LogRecords.of(org.ssbjca.brokers.WorkManagerRunner.class)) {
            org.ssbjca.fakes.FakeWorkManager works = new org.ssbjca.fakes.FakeWorkManager();
            AtomicLong nanos = new AtomicLong();
            try (PortableBroker node = new PortableBroker(h.db.source(),
                    new org.ssbjca.brokers.WorkManagerRunner(works), PortableOptions.defaults(), nanos::get);
                    Connection c = h.db.source().open()) {
                repairPass(node); // the first look's pass: nothing yet
                h.execute(DISABLE);
                Map<UUID, List<String>> sent = sendBacklog(h);
                h.execute(ENABLE);
                works.limitThreads(0);
                works.limitQueue(0); // no thread, no room: WildFly blocks a caller for its start timeout

                java.util.concurrent.CompletableFuture.runAsync(() -> node.transmissions().moveIfDue(c, QUEUE))
                        .get(5, java.util.concurrent.TimeUnit.SECONDS);
                assertEquals(BACKLOG - Transmissions.PAGE, transmissions(h), "the reader moved its page");
                assertEquals(1, refusals.messages(Level.WARNING, "SSBJCA0106").size(), "the rest refused at once");

                nanos.addAndGet(Duration.ofMillis(Housekeeping.REPAIR_MILLIS).toNanos());
                java.util.concurrent.CompletableFuture.runAsync(() -> repairPass(node))
                        .get(5, java.util.concurrent.TimeUnit.SECONDS);
                assertEquals(BACKLOG - 2L * Transmissions.PAGE, transmissions(h), "the pass moved its page");
                assertEquals(2, refusals.messages(Level.WARNING, "SSBJCA0106").size(), "the rest refused at once");

                works.limitThreads(Integer.MAX_VALUE);
                works.limitQueue(Integer.MAX_VALUE);
                nanos.addAndGet(Duration.ofMillis(Housekeeping.REPAIR_MILLIS).toNanos());
                repairPass(node);
                org.awaitility.Awaitility.await("the next pass offered the move again, which moved the rest")
                        .atMost(Duration.ofSeconds(30)).until(() -> transmissions(h) == 0);
                assertEquals(sent, receiveAll(node), "each message once, each conversation's in the order sent");
            }
        }
    }

    /**
     * A runner that throws as it is handed a move leaves no move registered for the queue: the next move of the
     * queue (here a reader's) moves a page and hands the rest over again. Before, the queue kept the move that never
     * ran, and every later move of this broker passed the queue over.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aRunnerThatThrowsLeavesTheQueueToTheNextMove(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend);
                LogRecords logs = LogRecords.of(Transmissions.class)) {
            h.execute(DISABLE);
            Map<UUID, List<String>> sent = sendBacklog(h);
            h.execute(ENABLE);
            Map<String, Runnable> handedOver = new ConcurrentHashMap<>();
            java.util.concurrent.atomic.AtomicBoolean failing = new java.util.concurrent.atomic.AtomicBoolean(true);
            BackgroundRunner runner = (name, task, refused) -> {
                if (name.contains(MOVE_TASK) && failing.getAndSet(false)) {
                    throw new IllegalStateException("the runner fails");
                }
                holding(handedOver).run(name, task, refused);
            };
            try (PortableBroker node = new PortableBroker(h.db.source(), runner, PortableOptions.defaults(),
                    new AtomicLong()::get); Connection c = h.db.source().open()) {
                node.transmissions().moveIfDue(c, QUEUE);
                assertEquals(BACKLOG - Transmissions.PAGE, transmissions(h), "the reader moved its page");
                assertEquals(1, logs.messages(Level.WARNING, "SSBJCA0122").size(), "the runner's failure logged");

                node.transmissions().moveIfDue(c, QUEUE);
                assertEquals(BACKLOG - 2L * Transmissions.PAGE, transmissions(h), "the next reader moves a page");
                assertEquals(1, handedOver.size(), "and hands the rest over");
                handedOver.values().iterator().next().run();
                assertEquals(0, transmissions(h));
                assertEquals(sent, receiveAll(node), "each message once, each conversation's in the order sent");
            }
        }
    }

    /**
     * The background move blocks no reader, so it waits for a row that a delivery holds (a reply holds its
     * endpoint until the delivery commits) seconds, not the 200 ms of a reader's page: a page whose target endpoint
     * another transaction holds for a second waits for it and moves, no page failed. Before, the page failed at 200
     * ms and rolled back (SSBJCA0123), and five such failures in a row ended the move.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aPageWhoseEndpointADeliveryHoldsAWhileWaitsForItAndMoves(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend);
                LogRecords logs = LogRecords.of(Transmissions.class)) {
            h.execute(DISABLE);
            List<Conversation> begun = new ArrayList<>();
            Map<UUID, List<String>> sent = sendBacklog(h, begun);
            h.execute(ENABLE);
            // the sixth conversation's messages are the third page's second half (each conversation half a page)
            UUID held = h.query(a -> a.peerHandle(begun.get(5).handle()));
            Map<String, Runnable> handedOver = new ConcurrentHashMap<>();
            try (PortableBroker node = new PortableBroker(h.db.source(), holding(handedOver),
                    PortableOptions.defaults(), new AtomicLong()::get); Connection c = h.db.source().open();
                    Connection locker = h.db.source().open()) {
                lockEndpoint(locker, held);
                node.transmissions().moveIfDue(c, QUEUE);
                java.util.concurrent.CompletableFuture<Void> move = java.util.concurrent.CompletableFuture.runAsync(
                        handedOver.values().iterator().next());
                org.awaitility.Awaitility.await("the move reached the third page").atMost(Duration.ofSeconds(30))
                        .until(() -> h.depth(QUEUE) == 2L * Transmissions.PAGE);
                org.awaitility.Awaitility.await("the endpoint held a second").during(Duration.ofSeconds(1))
                        .atMost(Duration.ofSeconds(30))
                        .until(() -> transmissions(h) == BACKLOG - 2L * Transmissions.PAGE);
                locker.rollback();
                move.get(30, java.util.concurrent.TimeUnit.SECONDS);

                assertEquals(List.of(), logs.messages(Level.FINE, "SSBJCA0123"), "no page failed");
                assertEquals(List.of(), logs.messages(Level.WARNING, "SSBJCA0122"), "the move did not give up");
                assertEquals(0, transmissions(h));
                assertEquals(sent, receiveAll(node), "each message once, each conversation's in the order sent");
            }
        }
    }

    /**
     * A background move still in a page when the broker's close has waited its time (here a lock wait on a target
     * endpoint another transaction holds) is said at WARN (SSBJCA0117), naming its queue; it ends after that page.
     * Before, the close dropped the list of the moves still running and said nothing.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aMoveStillRunningWhenTheCloseGivesUpIsLogged(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend);
                LogRecords logs = LogRecords.of(Transmissions.class)) {
            h.execute(DISABLE);
            List<Conversation> begun = new ArrayList<>();
            sendBacklog(h, begun);
            h.execute(ENABLE);
            UUID held = h.query(a -> a.peerHandle(begun.get(5).handle()));
            Map<String, Runnable> handedOver = new ConcurrentHashMap<>();
            try (PortableBroker node = new PortableBroker(h.db.source(), holding(handedOver),
                    PortableOptions.defaults(), new AtomicLong()::get); Connection c = h.db.source().open();
                    Connection locker = h.db.source().open()) {
                lockEndpoint(locker, held);
                node.transmissions().moveIfDue(c, QUEUE);
                java.util.concurrent.CompletableFuture<Void> move = java.util.concurrent.CompletableFuture.runAsync(
                        handedOver.values().iterator().next());
                org.awaitility.Awaitility.await("the move waits in the third page").atMost(Duration.ofSeconds(30))
                        .until(() -> h.depth(QUEUE) == 2L * Transmissions.PAGE);
                org.awaitility.Awaitility.await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(30))
                        .until(() -> transmissions(h) == BACKLOG - 2L * Transmissions.PAGE);

                node.transmissions().close(100);

                List<String> late = logs.messages(Level.WARNING, "SSBJCA0117");
                assertEquals(1, late.size(), late.toString());
                assertTrue(late.get(0).contains(QUEUE), late.get(0));
                locker.rollback();
                move.get(30, java.util.concurrent.TimeUnit.SECONDS);
            }
        }
    }

    /** Locks a conversation endpoint's row in the locker's transaction, as a delivery that replied on it does. */
    private static void lockEndpoint(Connection locker, UUID handle) throws java.sql.SQLException {
        try (java.sql.Statement st = locker.createStatement()) {
            st.execute("SELECT state FROM ssb.conversation_endpoint WHERE conversation_handle = '" + handle
                    + "' FOR UPDATE");
        }
    }

    /** A look at another queue, which finds nothing and so runs the housekeeping's pass when it is due. */
    private static void repairPass(PortableBroker node) {
        try (Connection c = node.source().open()) {
            BrokerSession s = node.session(c);
            assertEquals(List.of(), s.receive(ReceiveRequest.from(InboundHarness.INITIATOR_QUEUE)
                    .timeout(Duration.ZERO)));
            c.commit();
            s.afterCompletion(true);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return a runner that keeps the broker's moves of backlogs (by name) for the test to run, and drops the rest */
    private static BackgroundRunner holding(Map<String, Runnable> moves) {
        return (name, task, refused) -> {
            if (name.contains(MOVE_TASK)) {
                moves.put(name, task);
            }
        };
    }

    /**
     * Sends {@link #BACKLOG} messages, half a page per conversation, committed.
     *
     * @return each conversation's bodies in the order sent, the conversations in the order begun
     */
    private static Map<UUID, List<String>> sendBacklog(InboundHarness h) {
        return sendBacklog(h, new ArrayList<>());
    }

    /**
     * As {@link #sendBacklog(InboundHarness)}.
     *
     * @param begun where to add the conversations, in the order begun
     */
    private static Map<UUID, List<String>> sendBacklog(InboundHarness h, List<Conversation> begun) {
        Map<UUID, List<String>> sent = new LinkedHashMap<>();
        int perConversation = Transmissions.PAGE / 2;
        for (int i = 0; i < BACKLOG / perConversation; i++) {
            List<String> bodies = new ArrayList<>();
            for (int j = 0; j < perConversation; j++) {
                bodies.add("c" + i + "." + j);
            }
            Conversation c = h.send(bodies.toArray(String[]::new));
            begun.add(c);
            sent.put(c.conversationId(), bodies);
        }
        return sent;
    }

    /** @return every message on the queue, RECEIVEd on the node until it is empty, by conversation in arrival order */
    private static Map<UUID, List<String>> receiveAll(PortableBroker node) throws Exception {
        Map<UUID, List<String>> got = new LinkedHashMap<>();
        List<String> some;
        while (!(some = receive(node, Duration.ZERO)).isEmpty()) {
            for (String m : some) {
                String[] parts = m.split(" ");
                got.computeIfAbsent(UUID.fromString(parts[0]), k -> new ArrayList<>()).add(parts[1]);
            }
        }
        return got;
    }

    /** @return the messages of one RECEIVE on the node, as "conversation body", committed */
    /**
     * A background move keeps its connection for every page, so each page closes the statements it prepared: they
     * do not pile up on that connection (server-side statements on PostgreSQL) until the move ends.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void eachPageClosesTheStatementsItPrepared(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            h.execute(DISABLE);
            for (int i = 0; i < 3; i++) {
                h.send("m" + i);
            }
            h.execute(ENABLE);
            PortableBroker broker = (PortableBroker) h.db.broker();
            try (Connection real = h.db.source().open()) {
                real.setAutoCommit(true);
                java.util.concurrent.atomic.AtomicInteger open = new java.util.concurrent.atomic.AtomicInteger();
                Connection own = countingStatements(real, open);
                for (int page = 0; page < 3; page++) {
                    broker.transmissions().movePageInBackground(own, QUEUE);
                    assertEquals(0, open.get(), "statements left open after page " + (page + 1));
                }
            }
            assertEquals(0, transmissions(h), "moved");
            assertEquals(3, h.depth(QUEUE));
        }
    }

    /** @return the connection, counting in {@code open} the prepared statements made on it and not closed yet */
    private static Connection countingStatements(Connection real, java.util.concurrent.atomic.AtomicInteger open) {
        return (Connection) java.lang.reflect.Proxy.newProxyInstance(TransmissionsTest.class.getClassLoader(),
                new Class<?>[] {Connection.class}, new java.lang.reflect.InvocationHandler() {
                    @Override
                    public Object invoke(Object proxy, java.lang.reflect.Method m, Object[] args) throws Throwable {
                        if (m.getName().equals("unwrap")) {
                            return proxy; // the statements are prepared on this connection
                        }
                        Object result = invokeOn(real, m, args);
                        if (m.getName().equals("prepareStatement")) {
                            open.incrementAndGet();
                            java.sql.PreparedStatement ps = (java.sql.PreparedStatement) result;
                            java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic
                                    .AtomicBoolean();
                            return java.lang.reflect.Proxy.newProxyInstance(TransmissionsTest.class.getClassLoader(),
                                    new Class<?>[] {java.sql.PreparedStatement.class}, (p, pm, pargs) -> {
                                        if (pm.getName().equals("close") && closed.compareAndSet(false, true)) {
                                            open.decrementAndGet();
                                        }
                                        return invokeOn(ps, pm, pargs);
                                    });
                        }
                        return result;
                    }
                });
    }

    private static Object invokeOn(Object target, java.lang.reflect.Method m, Object[] args) throws Throwable {
        try {
            return m.invoke(target, args);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
        }
    }

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
