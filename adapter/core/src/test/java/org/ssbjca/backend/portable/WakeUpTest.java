package org.ssbjca.backend.portable;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;

/**
 * How a waiting RECEIVE wakes up without busy-polling. The sender and the receiver use two separate brokers, as two
 * JVMs would, so that no in-process signal passes between them: on PostgreSQL the NOTIFY sent with the message wakes
 * the receiver long before its 20 s fallback poll; on H2 the bounded fallback poll finds the message.
 */
class WakeUpTest {

    /** What this test reports (figures, or why a backend is skipped). */
    private static final java.util.logging.Logger FIGURES =
            java.util.logging.Logger.getLogger(WakeUpTest.class.getName());

    /** A fallback poll of 30 s: a receiver that missed the NOTIFY would wait that long; the bound is a third. */
    private static final PortableOptions SLOW_FALLBACK = new PortableOptions(30_000, 1000, Clock.systemUTC());

    @Test
    void postgresNotifyWakesAReceiverInAnotherBroker() throws Exception {
        org.ssbjca.tiers.TestTier.assumePostgres();
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start()) {
            DatabaseConfig db = new DatabaseConfig(pg.getJdbcUrl("postgres", "postgres"), "postgres", "postgres");
            long millis = wakeUpMillis(db, SLOW_FALLBACK);
            assertTrue(millis < 10_000, "woken by NOTIFY, not by the 30 s fallback poll: " + millis + " ms");
        }
    }

    @Test
    void withoutASignalTheFallbackPollStillFindsTheMessage() throws Exception {
        DatabaseConfig db = new DatabaseConfig("jdbc:h2:mem:wakeup-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa",
                "");
        long millis = wakeUpMillis(db, new PortableOptions(700, 1000, Clock.systemUTC()));
        // without the poll the RECEIVE would wait its whole 60 s; a poll on a slow machine may take a second or two
        assertTrue(millis < 10_000, "found by the 700 ms fallback poll: " + millis + " ms");
    }

    /**
     * Request and reply: two callers wait on the initiator queue, each for the reply on its own conversation. A reply
     * to the second wakes it, whichever caller waited first (a caller for one conversation is not one of the
     * interchangeable readers a commit wakes only one of). The fallback poll is a minute.
     */
    @Test
    void aReplyWakesTheCallerWaitingOnItsConversation() throws Exception {
        DatabaseConfig db = new DatabaseConfig("jdbc:h2:mem:wakeup-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa",
                "");
        ConnectionSource source = new ConnectionSource(db);
        PortableOptions minute = new PortableOptions(60_000, 1000, Clock.systemUTC());
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newCachedThreadPool();
        try (PortableBroker broker = new PortableBroker(source, BackgroundRunner.daemonThreads(), minute)) {
            List<Conversation> dialogs = new java.util.ArrayList<>();
            List<BrokerMessage> requests;
            try (Connection c = source.open()) {
                IdleGroupsReceiveTest.declare(broker, c);
                BrokerSession s = broker.session(c);
                for (int i = 0; i < 2; i++) {
                    Conversation d = s.beginDialog("I", "T", "C", DialogOptions.defaults());
                    s.send(d.handle(), "M", ("request " + i).getBytes(StandardCharsets.UTF_8));
                    dialogs.add(d);
                }
                c.commit();
                s.afterCompletion(true);
                requests = new java.util.ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    // one conversation group per RECEIVE: each request in its own
                    requests.addAll(s.receive(ReceiveRequest.from("QT").top(10)));
                }
                c.commit();
                s.afterCompletion(true);
            }
            assertEquals(2, requests.size());
            List<CompletableFuture<List<BrokerMessage>>> callers = new java.util.ArrayList<>();
            for (Conversation d : dialogs) {
                int before = waitersOn(broker, "QI");
                callers.add(CompletableFuture.supplyAsync(() -> {
                    try (Connection c = source.open()) {
                        BrokerSession s = broker.session(c);
                        List<BrokerMessage> got = s.receive(ReceiveRequest.from("QI").conversation(d)
                                .timeout(Duration.ofMinutes(2)));
                        c.commit();
                        return got;
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }, pool));
                await("caller waits").atMost(Duration.ofSeconds(30))
                        .until(() -> waitersOn(broker, "QI") == before + 1);
            }
            BrokerMessage second = requests.stream().filter(m -> new String(m.body(), StandardCharsets.UTF_8)
                    .equals("request 1")).findFirst().orElseThrow();
            try (Connection c = source.open()) {
                BrokerSession s = broker.session(c);
                s.send(second.conversationHandle(), "M", "reply 1".getBytes(StandardCharsets.UTF_8));
                c.commit();
                s.afterCompletion(true);
            }
            List<BrokerMessage> reply = callers.get(1).get(30, TimeUnit.SECONDS);
            assertEquals("reply 1", new String(reply.get(0).body(), StandardCharsets.UTF_8));
            assertEquals(false, callers.get(0).isDone(), "the first caller has no reply");
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Waking or cancelling one waiting reader ends that reader's wait alone: it is no arrival on the queue (the
     * priority scans compare {@link org.ssbjca.backend.QueueSignals#uncountedArrivals}), and the other idle readers
     * are not sent to the database (the queue's generation does not move). The fallback poll is a minute.
     */
    @Test
    void wakingOrCancellingOneReaderLeavesTheOthersAsleep() throws Exception {
        DatabaseConfig db = new DatabaseConfig("jdbc:h2:mem:wakeup-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa",
                "");
        ConnectionSource source = new ConnectionSource(db);
        PortableOptions minute = new PortableOptions(60_000, 1000, Clock.systemUTC());
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newCachedThreadPool();
        try (PortableBroker broker = new PortableBroker(source, BackgroundRunner.daemonThreads(), minute)) {
            try (Connection c = source.open()) {
                IdleGroupsReceiveTest.declare(broker, c);
            }
            List<BrokerSession> sessions = new java.util.concurrent.CopyOnWriteArrayList<>();
            List<CompletableFuture<List<BrokerMessage>>> readers = new java.util.ArrayList<>();
            for (int i = 0; i < 3; i++) {
                readers.add(CompletableFuture.supplyAsync(() -> {
                    try (Connection c = source.open()) {
                        BrokerSession s = broker.session(c);
                        sessions.add(s);
                        List<BrokerMessage> got = s.receive(ReceiveRequest.from("QT").timeout(Duration.ofMinutes(2)));
                        c.commit();
                        return got;
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }, pool));
            }
            await("three readers wait").atMost(Duration.ofSeconds(30))
                    .until(() -> broker.signals().waiters("QT", true) == 3);
            long generation = broker.signals().generation("QT");
            long uncounted = broker.signals().uncountedArrivals("QT");

            sessions.get(0).wake();
            await("the woken reader returns").atMost(Duration.ofSeconds(30))
                    .until(() -> readers.stream().filter(CompletableFuture::isDone).count() == 1);
            sessions.get(1).cancel();
            await("the cancelled reader returns").atMost(Duration.ofSeconds(30))
                    .until(() -> readers.stream().filter(CompletableFuture::isDone).count() == 2);

            assertEquals(uncounted, broker.signals().uncountedArrivals("QT"), "no arrival counted");
            assertEquals(generation, broker.signals().generation("QT"), "no signal for the others");
            await("the third still waits").atMost(Duration.ofSeconds(30))
                    .until(() -> broker.signals().waiters("QT", true) == 1);
            assertEquals(2, readers.stream().filter(CompletableFuture::isDone).count(), "the third still waits");
            sessions.get(2).cancel();
            for (CompletableFuture<List<BrokerMessage>> r : readers) {
                assertEquals(List.of(), r.get(10, TimeUnit.SECONDS), "each returns empty");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static int waitersOn(PortableBroker broker, String queue) {
        return broker.signals().waiters(queue, false) + broker.signals().waiters(queue, true);
    }

    /** Time from the commit of a SEND on one broker to the return of a RECEIVE waiting on another. */
    private static long wakeUpMillis(DatabaseConfig db, PortableOptions options) throws Exception {
        ConnectionSource source = new ConnectionSource(db);
        try (PortableBroker sender = new PortableBroker(source, BackgroundRunner.daemonThreads(), options);
             PortableBroker receiver = new PortableBroker(source, BackgroundRunner.daemonThreads(), options)) {
            try (Connection c = source.open()) {
                IdleGroupsReceiveTest.declare(sender, c);
            }
            if (db.kind() == org.ssbjca.backend.BackendKind.POSTGRESQL) {
                await("the receiver's broker listens").atMost(Duration.ofSeconds(30)).until(() -> {
                    try (Connection c = source.open(); java.sql.Statement st = c.createStatement()) {
                        c.setAutoCommit(true);
                        st.execute("NOTIFY " + PortableBroker.CHANNEL + ", 'probe'");
                    }
                    return receiver.signals().generation("probe") > 0;
                });
            }
            CompletableFuture<List<BrokerMessage>> waiting = CompletableFuture.supplyAsync(() -> {
                try (Connection c = source.open()) {
                    BrokerSession s = receiver.session(c);
                    List<BrokerMessage> got = s.receive(ReceiveRequest.from("QT").timeout(Duration.ofSeconds(60)));
                    c.commit();
                    return got;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            await("the RECEIVE is waiting").during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(30))
                    .until(() -> !waiting.isDone());
            long committed;
            try (Connection c = source.open()) {
                BrokerSession s = sender.session(c);
                Conversation d = s.beginDialog("I", "T", "C", DialogOptions.defaults());
                s.send(d.handle(), "M", "wake".getBytes(StandardCharsets.UTF_8));
                c.commit();
                committed = System.nanoTime();
                s.afterCompletion(true);
            }
            List<BrokerMessage> got = waiting.get(60, TimeUnit.SECONDS);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - committed);
            assertEquals(1, got.size());
            FIGURES.info(String.format("%s: woken %d ms after the commit", db.kind(), millis));
            return millis;
        }
    }
}
