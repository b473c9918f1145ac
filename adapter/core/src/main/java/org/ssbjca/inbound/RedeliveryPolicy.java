package org.ssbjca.inbound;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How long a conversation group waits after a failed delivery before a reader takes it again: {@code delay} after the
 * first failure of a message, multiplied by {@code multiplier} at each further one, never more than {@code max}; then
 * spread by {@code jitter} (as Artemis's collision avoidance factor): times a factor drawn uniformly between
 * {@code 1 - jitter} and {@code 1 + jitter}, so that groups that failed together (an outage) are not all taken again
 * at once. The group is held as a whole, so its messages keep their order; other groups flow meanwhile.
 *
 * @param delayMillis the wait after a first failure, 0 for none
 * @param multiplier the factor for each further failure, at least 1
 * @param maxMillis the longest wait before the spread
 * @param jitter the spread, 0 (none) to 1
 */
record RedeliveryPolicy(long delayMillis, double multiplier, long maxMillis, double jitter) {

    /** A policy without spread. */
    RedeliveryPolicy(long delayMillis, double multiplier, long maxMillis) {
        this(delayMillis, multiplier, maxMillis, 0);
    }

    /** Returns whether groups are held at all. */
    boolean holds() {
        return delayMillis > 0;
    }

    /**
     * Returns how long its group waits now.
     *
     * @param failures the failed deliveries of the message so far, 1 or more
     */
    Duration delayAfter(int failures) {
        return delayAfter(failures, jitter == 0 ? 0 : ThreadLocalRandom.current().nextDouble(-1, 1));
    }

    /**
     * Returns how long its group waits now.
     *
     * @param failures the failed deliveries of the message so far, 1 or more
     * @param draw where in the spread the wait falls, -1 (shortest) to 1 (longest)
     */
    Duration delayAfter(int failures, double draw) {
        double millis = Math.min(delayMillis * Math.pow(multiplier, Math.max(0, failures - 1)), (double) maxMillis);
        return Duration.ofMillis(Math.round(millis * (1 + jitter * draw)));
    }
}
