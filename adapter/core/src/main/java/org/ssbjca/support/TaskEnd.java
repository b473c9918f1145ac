package org.ssbjca.support;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The end of a task that runs on a thread of its own (a reader, the PostgreSQL listener) and that its owner, once it
 * has asked the task to stop, waits for: the task marks its end as the last thing it does on its thread.
 */
public final class TaskEnd {

    private final CountDownLatch ended = new CountDownLatch(1);

    /** Marks the end; the task calls it once, last, in a {@code finally}. */
    public void reached() {
        ended.countDown();
    }

    /**
     * @param millis how long to wait at most
     * @return whether the end was reached within that time; false too if the waiting thread is interrupted, whose
     *         interrupt status is then kept
     */
    public boolean await(long millis) {
        try {
            return ended.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Waits for the end of each task in turn, all within one deadline.
     *
     * @param <T> the tasks' type
     * @param millis the time from now within which every task should end
     * @param tasks the tasks, already asked to stop
     * @param end each task's end
     * @return the tasks that had not ended by the deadline, in their order
     */
    public static <T> List<T> notEndedWithin(long millis, Collection<? extends T> tasks,
            Function<? super T, TaskEnd> end) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        List<T> late = new ArrayList<>();
        for (T task : tasks) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (!end.apply(task).await(Math.max(left, 0))) {
                late.add(task);
            }
        }
        return late;
    }
}
