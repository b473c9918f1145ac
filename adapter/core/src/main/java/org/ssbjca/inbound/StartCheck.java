package org.ssbjca.inbound;

import java.util.concurrent.Callable;

/**
 * The check of the platform, the broker and the queue that the readers an activation starts together share on their
 * first connect. They reach it one at a time, at the activation's reconnect gate: the first checks, and once a check
 * passed the others rely on it instead of checking again, so that the last of them does not wait for every other's
 * check before it delivers. A check that failed, or that did not run, stands for no one: the next reader checks. A
 * reconnect after a failure always checks on its own.
 *
 * <p>Thread-safe; its callers also hold the reconnect gate.
 */
final class StartCheck {

    private volatile boolean passed;

    /**
     * Runs {@code check} unless one passed for the readers started with this one.
     *
     * @param check the reader's own check: true when it checked, false when it did not (its reader was stopped
     *     first); it throws what it found wrong, or why it could not check
     * @return whether {@code check} ran and checked (false when a check passed before, or it did not check)
     * @throws Exception what {@code check} threw
     */
    boolean runUnlessPassed(Callable<Boolean> check) throws Exception {
        if (passed) {
            return false;
        }
        boolean checked = check.call();
        passed = checked;
        return checked;
    }
}
