package org.ssbjca.backend.portable;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A long-running task of the broker (the PostgreSQL listener, the notifier) that its owner stops and then waits for:
 * in WildFly such a task runs on the work manager's pool, which the server stops after the adapter, and a task still
 * running then ends on a stopped pool.
 */
abstract class BackgroundTask implements Runnable {

    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile boolean stopped;
    /** The thread that runs the task, while it runs (guarded by this): a pool's thread is not interrupted later. */
    private Thread thread;

    @Override
    public final void run() {
        synchronized (this) {
            thread = Thread.currentThread();
        }
        try {
            if (!stopped) {
                work();
            }
        } finally {
            synchronized (this) {
                thread = null;
            }
            ended.countDown();
        }
    }

    /** The task's loop; it returns soon after {@link #stopped()} turns true or its thread is interrupted. */
    abstract void work();

    /** @return whether the owner asked the task to stop */
    final boolean stopped() {
        return stopped;
    }

    /** Asks the task to stop: the flag, and an interrupt for a task that sleeps or waits. */
    final synchronized void stop() {
        stopped = true;
        if (thread != null) {
            thread.interrupt();
        }
    }

    /**
     * @param millis how long to wait at most
     * @return whether the task ended within that time
     */
    final boolean awaitEnded(long millis) {
        try {
            return ended.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
