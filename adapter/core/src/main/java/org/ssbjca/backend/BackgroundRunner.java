package org.ssbjca.backend;

/**
 * Runs a long-lived background task of a backend (the PostgreSQL notification listener). In the container it is a
 * WorkManager work; in tests, a thread. The task stops when its owner asks it to, not when the runner says so.
 */
@FunctionalInterface
public interface BackgroundRunner {

    /**
     * @param name a name for logs and thread dumps
     * @param task the task; it returns when stopped
     */
    void run(String name, Runnable task);

    /** @return a runner that starts a daemon thread per task (outside a container) */
    static BackgroundRunner daemonThreads() {
        return (name, task) -> {
            Thread t = new Thread(task, name);
            t.setDaemon(true);
            t.start();
        };
    }
}
