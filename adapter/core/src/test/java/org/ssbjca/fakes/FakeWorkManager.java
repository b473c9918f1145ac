package org.ssbjca.fakes;

import jakarta.resource.spi.work.ExecutionContext;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkListener;
import jakarta.resource.spi.work.WorkManager;
import jakarta.resource.spi.work.WorkRejectedException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A work manager that runs every work on a thread of its own, and remembers the threads. With
 * {@link #limitThreads(int)} it runs at most that many works at a time and queues the others, in order, until one
 * ends: as WildFly's long-running pool does once its threads are taken.
 */
public final class FakeWorkManager implements WorkManager {

    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final Deque<Work> queued = new ArrayDeque<>();
    private volatile boolean refusing;
    private int limit = Integer.MAX_VALUE;
    private int running;

    @Override
    public void doWork(Work work) {
        work.run();
    }

    @Override
    public void doWork(Work work, long timeout, ExecutionContext ctx, WorkListener listener) {
        work.run();
    }

    @Override
    public long startWork(Work work) throws WorkRejectedException {
        scheduleWork(work);
        return 0;
    }

    @Override
    public long startWork(Work work, long timeout, ExecutionContext ctx, WorkListener listener)
            throws WorkRejectedException {
        scheduleWork(work);
        return 0;
    }

    @Override
    public void scheduleWork(Work work) throws WorkRejectedException {
        if (refusing) {
            throw new WorkRejectedException("the fake work manager refuses work");
        }
        synchronized (this) {
            if (running >= limit) {
                queued.add(work);
                return;
            }
            running++;
        }
        start(work);
    }

    private void start(Work work) {
        Thread t = new Thread(() -> {
            try {
                work.run();
            } finally {
                ended();
            }
        }, "fake-work-" + work);
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    /** A work ended: its thread takes the first queued work, if any. */
    private void ended() {
        Work next;
        synchronized (this) {
            next = queued.poll();
            if (next == null) {
                running--;
                return;
            }
        }
        start(next);
    }

    /** @param threads the most works to run at once from now on; the others wait in a queue until one ends */
    public synchronized void limitThreads(int threads) {
        this.limit = threads;
    }

    /** @return the works waiting for a thread */
    public synchronized int queuedWorks() {
        return queued.size();
    }

    @Override
    public void scheduleWork(Work work, long timeout, ExecutionContext ctx, WorkListener listener)
            throws WorkRejectedException {
        scheduleWork(work);
    }

    /** @param refusing whether to refuse new work from now on, as a container short of threads does */
    public void refuseWork(boolean refusing) {
        this.refusing = refusing;
    }

    /** @return how many of the threads it started are still alive */
    public long liveThreads() {
        return threads.stream().filter(Thread::isAlive).count();
    }
}
