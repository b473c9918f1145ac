package org.ssbjca.backend.portable;

import org.ssbjca.support.TaskEnd;

/**
 * A long-running task of the broker (the PostgreSQL listener, the notifier) that its owner stops and then waits for:
 * in WildFly such a task runs on the work manager's pool, which the server stops after the adapter, and a task still
 * running then ends on a stopped pool.
 */
abstract class BackgroundTask implements Runnable {

    private final TaskEnd end = new TaskEnd();
    private volatile boolean stopped;
    /** The thread that runs the task, while it runs (guarded by this): a pool's thread is not interrupted later. */
    private Thread thread;

    @Override
    public final void run() {
        if (!end.begin()) {
            return; // stopped while it waited for a thread of the pool: it never runs (the stop reached its end)
        }
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
            end.reached();
        }
    }

    /** The task's loop; it returns soon after {@link #stopped()} turns true or its thread is interrupted. */
    abstract void work();

    /** Returns whether the owner asked the task to stop. */
    final boolean stopped() {
        return stopped;
    }

    /**
     * Asks the task to stop: the flag, and an interrupt for a task that sleeps or waits. A task that has not begun
     * (waiting for a thread of a full pool) never will, and its end is reached now.
     */
    final synchronized void stop() {
        stopped = true;
        if (end.dropIfWaiting()) {
            return;
        }
        if (thread != null) {
            thread.interrupt();
        }
    }

    /** Returns the task's end, reached once it has left its thread, or by a stop before it began. */
    final TaskEnd end() {
        return end;
    }
}
