package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.api.ScheduledSend;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.DueTime;
import org.ssbjca.conformance.PostgresServer;

/**
 * A cancel racing the pass that sends a due scheduled send: exactly one of them wins. {@code cancel} returns true
 * only when the send is never delivered (once the cancel commits); false when the pass sent it. A cancel that meets
 * the pass holding the row waits for the pass's outcome; a pass that meets the cancel holding it skips the row.
 */
class ScheduledSendCancelRaceTest {

    private static final int SENDS = 60;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aCancelThatMeetsThePassSendingItWaitsAndReturnsFalse(String backend) throws Exception {
        ConnectionSource source = new ConnectionSource(database(backend, "cancel_meets_pass"));
        try (PortableBroker broker = broker(source); Connection c = source.open(); Connection p = source.open();
             Connection k = source.open()) {
            IdleGroupsReceiveTest.declare(broker, c);
            BrokerSession s = broker.session(c);
            ScheduledSend due = scheduleDueNow(s, c, begin(s, c));
            p.setAutoCommit(false);
            PortableSession pass = (PortableSession) broker.session(p);
            broker.housekeeping().run(pass); // sent and the row deleted, not committed: the pass holds the row

            BrokerSession cancelling = broker.session(k);
            CompletableFuture<Boolean> cancel = cancelAsync(cancelling, k, due.id());
            Awaitility.await("the cancel waits for the pass").during(Duration.ofMillis(300))
                    .atMost(Duration.ofSeconds(30)).until(() -> !cancel.isDone());
            p.commit();
            pass.afterCompletion(true);

            assertFalse(cancel.get(30, TimeUnit.SECONDS), "the pass won: the cancel is false");
            assertEquals(List.of("due"), receive(s, c), "sent once");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aCancelThatMeetsAPassThatRollsBackReturnsTrueAndNothingIsSent(String backend) throws Exception {
        ConnectionSource source = new ConnectionSource(database(backend, "cancel_after_rollback"));
        try (PortableBroker broker = broker(source); Connection c = source.open(); Connection p = source.open();
             Connection k = source.open()) {
            IdleGroupsReceiveTest.declare(broker, c);
            BrokerSession s = broker.session(c);
            ScheduledSend due = scheduleDueNow(s, c, begin(s, c));
            p.setAutoCommit(false);
            PortableSession pass = (PortableSession) broker.session(p);
            broker.housekeeping().run(pass);

            BrokerSession cancelling = broker.session(k);
            CompletableFuture<Boolean> cancel = cancelAsync(cancelling, k, due.id());
            Awaitility.await("the cancel waits for the pass").during(Duration.ofMillis(300))
                    .atMost(Duration.ofSeconds(30)).until(() -> !cancel.isDone());
            p.rollback();
            pass.afterCompletion(false);

            assertTrue(cancel.get(30, TimeUnit.SECONDS), "the pass rolled back: the cancel wins");
            runPass(broker, p);
            assertEquals(List.of(), receive(s, c), "never sent");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aPassThatMeetsACancelSkipsTheRow(String backend) throws Exception {
        ConnectionSource source = new ConnectionSource(database(backend, "pass_meets_cancel"));
        try (PortableBroker broker = broker(source); Connection c = source.open(); Connection p = source.open();
             Connection k = source.open()) {
            IdleGroupsReceiveTest.declare(broker, c);
            BrokerSession s = broker.session(c);
            ScheduledSend due = scheduleDueNow(s, c, begin(s, c));
            k.setAutoCommit(false);
            BrokerSession cancelling = broker.session(k);
            assertTrue(cancelling.cancelScheduledSend(due.id()), "deleted, not yet committed");

            runPass(broker, p); // does not wait for the cancel: the row is skipped
            k.commit();
            cancelling.afterCompletion(true);
            runPass(broker, p);

            assertEquals(List.of(), receive(s, c), "the cancel won: never sent");
        }
    }

    /**
     * {@value #SENDS} sends due now; two threads cancel every one of them while two passes send them: for each send,
     * either its cancel returned true and it was never received, or its cancel returned false and it was received once.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void concurrentCancelsAndPassesAgreeOnEachSend(String backend) throws Exception {
        ConnectionSource source = new ConnectionSource(database(backend, "cancel_race"));
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try (PortableBroker broker = broker(source); Connection c = source.open()) {
            IdleGroupsReceiveTest.declare(broker, c);
            BrokerSession s = broker.session(c);
            Conversation d = begin(s, c);
            // the target endpoint exists before the passes race: two first SENDs at once are another matter
            s.send(d.handle(), "M", "first".getBytes(StandardCharsets.UTF_8));
            c.commit();
            s.afterCompletion(true);
            assertEquals(List.of("first"), receive(s, c));
            List<ScheduledSend> sends = new ArrayList<>();
            for (int i = 0; i < SENDS; i++) {
                sends.add(s.scheduleSend(d.handle(), "M", body(i), DueTime.at(Instant.now())));
            }
            c.commit();
            s.afterCompletion(true);

            Set<Integer> cancelled = ConcurrentHashMap.newKeySet();
            List<Future<?>> running = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                int first = t;
                running.add(threads.submit(() -> {
                    try (Connection k = source.open()) {
                        BrokerSession cancelling = broker.session(k);
                        for (int i = first; i < SENDS + first; i++) { // the two go through the sends, one ahead
                            int n = i % SENDS;
                            if (cancelAndCommit(cancelling, k, sends.get(n).id())) {
                                assertTrue(cancelled.add(n), "cancelled twice: " + n);
                            }
                        }
                    }
                    return null;
                }));
                running.add(threads.submit(() -> {
                    try (Connection p = source.open()) {
                        for (int i = 0; i < 40; i++) {
                            runPass(broker, p);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get(60, TimeUnit.SECONDS);
            }
            try (Connection p = source.open()) {
                runPass(broker, p);
            }
            List<String> got = receiveAll(s, c);
            Set<Integer> received = new HashSet<>();
            for (String b : got) {
                assertTrue(received.add(Integer.parseInt(b)), "received twice: " + b);
            }
            for (int i = 0; i < SENDS; i++) {
                assertTrue(cancelled.contains(i) != received.contains(i), "send " + i + ": cancelled "
                        + cancelled.contains(i) + ", received " + received.contains(i));
            }
            assertEquals(SENDS, cancelled.size() + received.size());
        } finally {
            threads.shutdownNow();
        }
    }

    static PortableBroker broker(ConnectionSource source) {
        return new PortableBroker(source, BackgroundRunner.daemonThreads(), new PortableOptions(1000, 1000,
                Clock.systemUTC()));
    }

    static DatabaseConfig database(String backend, String name) {
        return backend.equals("H2")
                ? new DatabaseConfig("jdbc:h2:mem:" + name + "-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "")
                : PostgresServer.get().newDatabase(name);
    }

    private static Conversation begin(BrokerSession s, Connection c) throws Exception {
        Conversation d = s.beginDialog("I", "T", "C", DialogOptions.defaults());
        c.commit();
        s.afterCompletion(true);
        return d;
    }

    private static ScheduledSend scheduleDueNow(BrokerSession s, Connection c, Conversation d) throws Exception {
        ScheduledSend due = s.scheduleSend(d.handle(), "M", "due".getBytes(StandardCharsets.UTF_8),
                DueTime.at(Instant.now()));
        c.commit();
        s.afterCompletion(true);
        return due;
    }

    private static byte[] body(int i) {
        return Integer.toString(i).getBytes(StandardCharsets.UTF_8);
    }

    /** One housekeeping pass in a transaction of its own on {@code p}, committed. */
    static void runPass(PortableBroker broker, Connection p) throws Exception {
        PortableSession.inOwnTransaction(broker, p, session -> {
            broker.housekeeping().run(session);
            return null;
        });
    }

    /** Cancels on another thread, in a transaction committed there. */
    private static CompletableFuture<Boolean> cancelAsync(BrokerSession s, Connection k, UUID id) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return cancelAndCommit(s, k, id);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static boolean cancelAndCommit(BrokerSession s, Connection k, UUID id) throws Exception {
        k.setAutoCommit(false);
        boolean cancelled = s.cancelScheduledSend(id);
        k.commit();
        s.afterCompletion(true);
        return cancelled;
    }

    static List<String> receive(BrokerSession s, Connection c) throws Exception {
        List<BrokerMessage> got = s.receive(ReceiveRequest.from("QT"));
        c.commit();
        s.afterCompletion(true);
        return got.stream().map(BrokerMessage::bodyAsText).toList();
    }

    private static List<String> receiveAll(BrokerSession s, Connection c) throws Exception {
        List<String> all = new ArrayList<>();
        for (List<String> got = receive(s, c); !got.isEmpty(); got = receive(s, c)) {
            all.addAll(got);
        }
        return all;
    }
}
