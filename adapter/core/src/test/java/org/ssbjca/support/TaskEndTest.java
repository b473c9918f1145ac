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
        List<Integer> late = TaskEnd.notEndedWithin(300, List.of(1, 2, 3, 4), i -> never);
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals(List.of(1, 2, 3, 4), late);
        assertTrue(waited >= 299 && waited < 1_200, "one deadline of 300 ms for four tasks, waited " + waited);
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
}
