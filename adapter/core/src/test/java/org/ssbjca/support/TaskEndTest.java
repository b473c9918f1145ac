package org.ssbjca.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A task's end, waited for by its owner. */
class TaskEndTest {

    @Test
    void theTasksNotEndedByTheDeadlineAreReturnedInTheirOrder() {
        Map<String, TaskEnd> ends = Map.of("a", new TaskEnd(), "b", new TaskEnd(), "c", new TaskEnd());
        ends.get("b").reached();
        assertEquals(List.of("a", "c"), TaskEnd.notEndedWithin(50, List.of("a", "b", "c"), ends::get));
        ends.get("a").reached();
        ends.get("c").reached();
        assertEquals(List.of(), TaskEnd.notEndedWithin(0, List.of("a", "b", "c"), ends::get));
    }

    @Test
    void theTasksShareOneDeadline() {
        TaskEnd never = new TaskEnd();
        long start = System.nanoTime();
        List<Integer> late = TaskEnd.notEndedWithin(1_000, List.of(1, 2, 3, 4), i -> never);
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals(List.of(1, 2, 3, 4), late);
        // a deadline each would wait 4 s; 3 s leaves a slow machine two seconds of wake-ups
        assertTrue(waited >= 999 && waited < 3_000, "one deadline of 1000 ms for four tasks, waited " + waited);
    }

    @Test
    void anEndReachedOnAnotherThreadEndsTheWait() throws InterruptedException {
        TaskEnd end = new TaskEnd();
        Thread task = new Thread(end::reached);
        task.start();
        assertTrue(end.await(10_000));
        task.join();
    }

    @Test
    void anInterruptedWaitReturnsFalseAndKeepsTheInterrupt() {
        Thread.currentThread().interrupt();
        try {
            assertFalse(new TaskEnd().await(10_000));
            assertTrue(Thread.currentThread().isInterrupted());
        } finally {
            Thread.interrupted();
        }
    }

    /**
     * A task scheduled on a pool that has not run it yet (a reader waiting for a thread) is dropped by its owner's
     * stop: its end is reached at once, and the task, should the pool run it later, does not begin.
     */
    @Test
    void aTaskDroppedBeforeItBeganEndsAtOnceAndNeverBegins() {
        TaskEnd end = new TaskEnd();
        assertTrue(end.waiting());
        assertTrue(end.dropIfWaiting());
        assertTrue(end.await(0), "its end reached by the drop");
        assertFalse(end.waiting());
        assertFalse(end.begin(), "run later, it does not begin");
    }

    @Test
    void aTaskThatBeganIsNotDroppedAndEndsWhenItSaysSo() {
        TaskEnd end = new TaskEnd();
        assertTrue(end.begin());
        assertFalse(end.waiting());
        assertFalse(end.dropIfWaiting(), "it runs: its own stop path ends it");
        assertFalse(end.await(0));
        end.reached();
        assertTrue(end.await(0));
    }

    /** A task that begins as it is dropped either begins (and ends itself) or is dropped: never both, never neither. */
    @Test
    void aBeginRacingADropWinsOrLosesWhole() throws Exception {
        java.util.concurrent.ExecutorService two = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            for (int i = 0; i < 2_000; i++) {
                TaskEnd end = new TaskEnd();
                java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
                java.util.concurrent.Future<Boolean> began = two.submit(() -> {
                    go.await();
                    return end.begin();
                });
                java.util.concurrent.Future<Boolean> dropped = two.submit(() -> {
                    go.await();
                    return end.dropIfWaiting();
                });
                go.countDown();
                boolean b = began.get(10, TimeUnit.SECONDS);
                boolean d = dropped.get(10, TimeUnit.SECONDS);
                assertTrue(b ^ d, "began " + b + ", dropped " + d);
                assertEquals(d, end.await(0), "the end is reached by the drop only");
            }
        } finally {
            two.shutdownNow();
        }
    }
}
