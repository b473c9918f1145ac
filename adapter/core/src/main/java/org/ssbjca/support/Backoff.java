package org.ssbjca.support;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Capped exponential backoff with jitter: the n-th consecutive failure waits
 * {@code min(max, initial * 2^(n-1))}, reduced by a random fraction of at most {@code jitter}, so that many readers
 * that failed together do not retry together. Not thread safe; one instance per retrying loop.
 */
public final class Backoff {

    private final long initialMillis;
    private final long maxMillis;
    private final double jitter;
    private int failures;

    /**
     * @param initialMillis the first delay, at least 1
     * @param maxMillis the cap, at least {@code initialMillis}
     * @param jitter 0 (none) to 1 (anywhere between 0 and the delay)
     */
    public Backoff(long initialMillis, long maxMillis, double jitter) {
        if (initialMillis < 1 || maxMillis < initialMillis || jitter < 0 || jitter > 1) {
            throw new IllegalArgumentException("invalid backoff: initial=" + initialMillis + " max=" + maxMillis
                    + " jitter=" + jitter);
        }
        this.initialMillis = initialMillis;
        this.maxMillis = maxMillis;
        this.jitter = jitter;
    }

    /** Returns the delay before the next attempt; counts one more failure. */
    public long nextDelayMillis() {
        long base = initialMillis;
        for (int i = 0; i < failures && base < maxMillis; i++) {
            base *= 2;
        }
        failures++;
        base = Math.min(base, maxMillis);
        double cut = jitter * ThreadLocalRandom.current().nextDouble();
        return Math.max(1, Math.round(base * (1 - cut)));
    }

    /** Returns how many failures in a row were counted. */
    public int failures() {
        return failures;
    }

    /** Forgets the failures, after a success. */
    public void reset() {
        failures = 0;
    }
}
