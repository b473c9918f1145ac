package org.ssbjca.inbound;

import java.time.Duration;

/**
 * How long a conversation group waits after a failed delivery before a reader takes it again: {@code delay} after the
 * first failure of a message, multiplied by {@code multiplier} at each further one, never more than {@code max}. The
 * group is held as a whole, so its messages keep their order; other groups flow meanwhile.
 *
 * @param delayMillis the wait after a first failure, 0 for none
 * @param multiplier the factor for each further failure, at least 1
 * @param maxMillis the longest wait
 */
record RedeliveryPolicy(long delayMillis, double multiplier, long maxMillis) {

    /** @return whether groups are held at all */
    boolean holds() {
        return delayMillis > 0;
    }

    /**
     * @param failures the failed deliveries of the message so far, 1 or more
     * @return how long its group waits now
     */
    Duration delayAfter(int failures) {
        double millis = delayMillis * Math.pow(multiplier, Math.max(0, failures - 1));
        return Duration.ofMillis((long) Math.min(millis, maxMillis));
    }
}
