package org.ssbjca.sample.scheduler;

import java.io.Serializable;

/**
 * A task to submit: its stage, a name, and how long its work takes (the seed's {@code WAITFOR DELAY}).
 *
 * @param stage tasks of one stage may run together; a task of a later stage starts only when every task of every
 *              earlier stage has finished (seed 002's ExecutionOrder)
 * @param name what the task is, for the execution log
 * @param workMillis how long the task works, 0 to 600000
 */
public record TaskSpec(int stage, String name, int workMillis) implements Serializable {

    /** Checks the values. */
    public TaskSpec {
        if (name == null || name.isBlank() || name.length() > 256) {
            throw new IllegalArgumentException("a task needs a name of 1 to 256 characters");
        }
        if (workMillis < 0 || workMillis > 600_000) {
            throw new IllegalArgumentException("workMillis must be between 0 and 600000: " + workMillis);
        }
    }
}
