package org.ssbjca.brokers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.ssbjca.fakes.FakeWorkManager;
import org.ssbjca.fakes.LogRecords;

/**
 * The PostgreSQL LISTEN and NOTIFY tasks are scheduled in the broker registry's lock, while an activation or a
 * connection factory asks for its database: on a work manager whose long-running pool's threads and queue are taken
 * (WildFly's blocks the caller then), the scheduling must end within its start timeout, and a task refused, at once or
 * after it was queued, be told to its owner, once, and said at WARN.
 */
class WorkManagerRunnerTest {

    private static final String TASK = "ssb-jca PostgreSQL LISTEN jdbc:postgresql://db/app";

    @Test
    void aTaskThePoolHasNoRoomForIsRefusedWithinTheStartTimeout() throws Exception {
        FakeWorkManager works = new FakeWorkManager();
        works.limitThreads(0);
        works.limitQueue(0);
        AtomicInteger refused = new AtomicInteger();
        try (LogRecords log = LogRecords.of(WorkManagerRunner.class)) {
            try {
                CompletableFuture.runAsync(() -> new WorkManagerRunner(works, 200).run(TASK, () -> { },
                        refused::incrementAndGet)).get(5, TimeUnit.SECONDS);
            } finally {
                works.limitQueue(Integer.MAX_VALUE);
            }
            assertEquals(1, refused.get(), "its owner told once");
            String warning = log.messages(Level.WARNING, "SSBJCA0106").get(0);
            assertTrue(warning.contains(TASK) && warning.contains("start timeout of 200 ms"), warning);
        }
    }

    @Test
    void aTaskRejectedAfterItWasQueuedIsRefusedToo() throws Exception {
        FakeWorkManager works = new FakeWorkManager();
        works.limitThreads(0);
        AtomicInteger refused = new AtomicInteger();
        try (LogRecords log = LogRecords.of(WorkManagerRunner.class)) {
            new WorkManagerRunner(works, 200).run(TASK, () -> { }, refused::incrementAndGet);
            assertEquals(0, refused.get(), "queued, not refused");

            assertEquals(1, works.rejectQueuedWorks());
            assertEquals(1, refused.get());
            assertEquals(1, log.messages(Level.WARNING, "SSBJCA0106").size());
        }
    }

    /**
     * A task only offered (the move of a transmission backlog, which a reader's thread hands over) is refused at once
     * when the pool has no thread or room, not after the start timeout (10 s by default): told once, said at WARN.
     */
    @Test
    void aTaskOfferedToAPoolWithoutRoomIsRefusedAtOnce() throws Exception {
        FakeWorkManager works = new FakeWorkManager();
        works.limitThreads(0);
        works.limitQueue(0);
        AtomicInteger refused = new AtomicInteger();
        try (LogRecords log = LogRecords.of(WorkManagerRunner.class)) {
            try {
                CompletableFuture.runAsync(() -> new WorkManagerRunner(works).offer(TASK, () -> { },
                        refused::incrementAndGet)).get(5, TimeUnit.SECONDS);
            } finally {
                works.limitQueue(Integer.MAX_VALUE);
            }
            assertEquals(1, refused.get(), "its owner told once");
            String warning = log.messages(Level.WARNING, "SSBJCA0106").get(0);
            assertTrue(warning.contains(TASK) && warning.contains("no thread or room in its queue now"), warning);
        }
    }

    /** IronJacamar tells the listener of a refusal, then throws it: one refusal all the same. */
    @Test
    void aTaskRefusedAtOnceIsToldOnce() throws Exception {
        FakeWorkManager works = new FakeWorkManager();
        works.refuseWork(true);
        AtomicInteger refused = new AtomicInteger();
        try (LogRecords log = LogRecords.of(WorkManagerRunner.class)) {
            new WorkManagerRunner(works, 200).run(TASK, () -> { }, refused::incrementAndGet);
            assertEquals(1, refused.get());
            String warning = log.messages(Level.WARNING, "SSBJCA0106").get(0);
            assertTrue(warning.contains("the fake work manager refuses work"), warning);
        }
    }
}
