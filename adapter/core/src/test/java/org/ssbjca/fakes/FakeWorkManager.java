package org.ssbjca.fakes;

import jakarta.resource.spi.work.ExecutionContext;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkListener;
import jakarta.resource.spi.work.WorkManager;
import jakarta.resource.spi.work.WorkRejectedException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A work manager that runs every work on a thread of its own, and remembers the threads. */
public final class FakeWorkManager implements WorkManager {

    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private volatile boolean refusing;

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
        Thread t = new Thread(work, "fake-work-" + work);
        t.setDaemon(true);
        threads.add(t);
        t.start();
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
