package org.ssbjca.backend;

/**
 * Runs a long-lived background task of a backend (the PostgreSQL notification listener and notifier, the move of a
 * queue's backlog in the portable schema's transmission queue once the queue is enabled again). In the container it
 * is a WorkManager work; in tests, a thread. The task stops when its owner asks it to, not when the runner says so.
 */
@FunctionalInterface
public interface BackgroundRunner {

    /**
     * Hands the task over; returns without waiting for it to start, and within a bounded time even when the
     * container has no thread for it (WildFly's work manager blocks a caller while its pool's queue is full).
     *
     * @param name a name for logs and thread dumps
     * @param task the task; it returns when stopped
     * @param refused called, once, now or later on another thread, if the runner will never run the task (the
     *        container's work manager refused it): its owner stops it, so that it holds nothing for a run to come
     */
    void run(String name, Runnable task, Runnable refused);

    /**
     * As {@link #run}, for a task whose owner offers it again later when it is refused (the move of a queue's
     * transmission backlog, which each repair pass offers again): the runner takes it only if it can without waiting
     * for a thread or for room in its queue, and refuses it at once otherwise, so that the caller, a reader's thread,
     * is never held. By default {@link #run}, for a runner that never waits (as {@link #daemonThreads()}).
     *
     * @param name a name for logs and thread dumps
     * @param task the task; it returns when stopped
     * @param refused as for {@link #run}
     */
    default void offer(String name, Runnable task, Runnable refused) {
        run(name, task, refused);
    }

    /** Returns a runner that starts a daemon thread per task (outside a container). */
    static BackgroundRunner daemonThreads() {
        return (name, task, refused) -> {
            Thread t = new Thread(task, name);
            t.setDaemon(true);
            t.start();
        };
    }
}
