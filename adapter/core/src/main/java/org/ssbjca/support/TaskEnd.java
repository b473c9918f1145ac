package org.ssbjca.support;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The end of a task that runs on a thread of its own (a reader, the PostgreSQL listener, the move of a transmission
 * backlog) and that its owner, once it
 * has asked the task to stop, waits for: the task marks its end as the last thing it does on its thread. A task that
 * {@link #begin()}s can also be dropped before it has a thread ({@link #dropIfWaiting()}); its end is then reached by
 * the drop, and either the task began or it was dropped, never both, so its end is reached once.
 */
public final class TaskEnd {

    private static final int WAITING = 0;
    private static final int RUNNING = 1;
    private static final int DROPPED = 2;

    private final CountDownLatch ended = new CountDownLatch(1);
    private final AtomicInteger state = new AtomicInteger(WAITING);

    /**
     * The task calls it first, on its thread, when it is scheduled on a pool that may not run it at once (a reader,
     * a long-running work that waits in the work manager's queue while the pool's threads are taken).
     *
     * @return whether the task may run: false if its owner dropped it before ({@link #dropIfWaiting()}), and then the
     *         task returns at once, without touching anything and without {@link #reached()} (the drop reached it)
     */
    public boolean begin() {
        return state.compareAndSet(WAITING, RUNNING);
    }

    /**
     * Drops the task if it has not begun: it never will, and its end is reached now, so that its owner's stop does not
     * wait for a task that has no thread. A task that began is left to its own stop path, which reaches its end.
     *
     * @return whether it was dropped
     */
    public boolean dropIfWaiting() {
        if (state.compareAndSet(WAITING, DROPPED)) {
            ended.countDown();
            return true;
        }
        return false;
    }

    /**
     * Returns whether the task waits for a thread: neither begun nor dropped (every task of the adapter calls {@link
     * #begin()} first: the readers of queues and tables, the PostgreSQL listener and notifier, the moves of
     * transmission backlogs, {@code BacklogMove}).
     */
    public boolean waiting() {
        return state.get() == WAITING;
    }

    /** Marks the end; the task calls it once, last, in a {@code finally}. */
    public void reached() {
        ended.countDown();
    }

    /**
     * Returns whether the end was reached within that time; false too if the waiting thread is interrupted, whose
     * interrupt status is then kept.
     *
     * @param millis how long to wait at most
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
