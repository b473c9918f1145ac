package org.ssbjca.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ssbjca.conformance.DialogConformanceTest.begin;
import static org.ssbjca.conformance.DialogConformanceTest.bytes;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.ReceiveRequest;

/** Many readers on one queue: every message exactly once, in order per conversation, no reader waiting on another. */
class ConcurrencyConformanceTest {

    /**
     * The longest a reader's lock wait may last: far longer than any transaction of this test, even on a slow machine
     * where one commit may take over a second.
     */
    private static final int LOCK_TIMEOUT_MILLIS = 10_000;

    /** What this test reports (figures, or why a backend is skipped). */
    private static final java.util.logging.Logger FIGURES =
            java.util.logging.Logger.getLogger(ConcurrencyConformanceTest.class.getName());

    private static final int READERS = 8;
    private static final int CONVERSATIONS = 100;
    private static final int PER_CONVERSATION = 100;
    private static final int TOTAL = CONVERSATIONS * PER_CONVERSATION;

    @BackendTest
    void eightReadersTakeTenThousandMessagesExactlyOnceInOrder(Db db) throws Exception {
        Db.Objects o = db.objects();
        List<Conversation> dialogs = new ArrayList<>();
        for (int i = 0; i < CONVERSATIONS; i++) {
            dialogs.add(begin(db, o));
        }
        for (int round = 0; round < PER_CONVERSATION; round += 10) {
            int from = round;
            db.run(s -> {
                for (int i = 0; i < CONVERSATIONS; i++) {
                    for (int n = from; n < from + 10; n++) {
                        s.send(dialogs.get(i).handle(), o.request, bytes(i + ":" + n));
                    }
                }
            });
        }
        assertEquals(TOTAL, db.depth(o.targetQueue));

        Map<UUID, List<Long>> seen = new ConcurrentHashMap<>();
        AtomicInteger received = new AtomicInteger();
        AtomicLong slowestReceiveMillis = new AtomicLong();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(READERS);
        List<Future<?>> readers = new ArrayList<>();
        for (int r = 0; r < READERS; r++) {
            readers.add(pool.submit(() -> {
                try {
                    while (received.get() < TOTAL && failures.isEmpty()) {
                        try (Db.Tx tx = db.begin()) {
                            // A reader never waits for a group another holds (SKIP LOCKED, READPAST). On PostgreSQL a
                            // RECEIVE can still wait, briefly, while it locks the newest version of a group row another
                            // reader's committed RECEIVE updated (its turn): 200 ms failed twice in CI under load.
                            db.fixture().setLockTimeout(tx.connection(), LOCK_TIMEOUT_MILLIS);
                            long start = System.nanoTime();
                            List<BrokerMessage> batch = tx.session().receive(ReceiveRequest.from(o.targetQueue)
                                    .top(7).timeout(Duration.ofMillis(200)));
                            slowestReceiveMillis.accumulateAndGet(
                                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), Math::max);
                            // Recorded while the group is still locked: the order in which the group's messages
                            // were taken, which a record made after the commit could not show.
                            for (BrokerMessage m : batch) {
                                seen.computeIfAbsent(m.conversationHandle(), k -> new CopyOnWriteArrayList<>())
                                        .add(m.messageSequenceNumber());
                            }
                            tx.commit();
                            received.addAndGet(batch.size());
                        }
                    }
                } catch (Throwable t) {
                    failures.add(t);
                }
            }));
        }
        for (Future<?> f : readers) {
            f.get(5, TimeUnit.MINUTES);
        }
        pool.shutdown();

        assertTrue(failures.isEmpty(), "a reader failed (a lock wait times out after " + LOCK_TIMEOUT_MILLIS
                + " ms): " + failures);
        assertEquals(TOTAL, received.get(), "every message received exactly once in total");
        assertEquals(CONVERSATIONS, seen.size());
        for (List<Long> sequence : seen.values()) {
            List<Long> expected = new ArrayList<>();
            for (long n = 0; n < PER_CONVERSATION; n++) {
                expected.add(n);
            }
            assertEquals(expected, sequence, "each conversation's messages exactly once and in order");
        }
        assertEquals(0, db.depth(o.targetQueue));
        FIGURES.info(String.format("%s: %d readers took %d messages; slowest RECEIVE %d ms", db, READERS, TOTAL,
                slowestReceiveMillis.get()));
    }
}
