package org.ssbjca.management;

import org.ssbjca.backend.BackgroundRunner;

/**
 * The throttled redelivery of one activation (or re-queue of one table activation's set-aside rows): at most one job
 * runs at a time (redeliveries go through the activation's readers, and two jobs would share its rate budget unseen);
 * the last one stays readable after it ends, until the next starts. In memory only. Thread-safe.
 */
final class RedeliveryJobs {

    private final BackgroundRunner runner;
    private RedeliveryJob<?> current;

    /** @param runner runs a job (the container's work manager in the server) */
    RedeliveryJobs(BackgroundRunner runner) {
        this.runner = runner;
    }

    /**
     * @param job a new job
     * @return its progress
     * @throws IllegalStateException if a job is still running, naming it
     */
    synchronized RedeliveryJobInfo start(RedeliveryJob<?> job) {
        if (current != null && current.running()) {
            throw new IllegalStateException("a redelivery is running (" + current.info().getDescription()
                    + "): cancel it or wait for it to end");
        }
        current = job;
        runner.run("ssb-jca redelivery", job, job::refused);
        return job.info();
    }

    /** Returns the running or last job's progress, or null when none was started. */
    synchronized RedeliveryJobInfo current() {
        return current == null ? null : current.info();
    }

    /** Returns whether a running job was asked to stop. */
    synchronized boolean cancel() {
        if (current == null || !current.running()) {
            return false;
        }
        current.cancel();
        return true;
    }
}
