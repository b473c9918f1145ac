package org.ssbjca.backend.portable;

import java.time.Clock;

/**
 * Timing of the portable broker.
 */
public final class PortableOptions {

    private final long fallbackPollMillis;
    private final long housekeepingMillis;
    private final Clock clock;

    /**
     * @param fallbackPollMillis the longest a waiting RECEIVE sleeps before it looks again without a signal
     * @param housekeepingMillis how often expired timers and lifetimes are looked for
     * @param clock the clock for enqueue times, timers and lifetimes
     */
    public PortableOptions(long fallbackPollMillis, long housekeepingMillis, Clock clock) {
        if (fallbackPollMillis < 1 || housekeepingMillis < 1) {
            throw new IllegalArgumentException("intervals must be positive");
        }
        this.fallbackPollMillis = fallbackPollMillis;
        this.housekeepingMillis = housekeepingMillis;
        this.clock = clock;
    }

    /** Returns the default options: a 1 s fallback poll, a 1 s housekeeping interval, the UTC system clock. */
    public static PortableOptions defaults() {
        return new PortableOptions(1000, 1000, Clock.systemUTC());
    }

    long fallbackPollMillis() {
        return fallbackPollMillis;
    }

    long housekeepingMillis() {
        return housekeepingMillis;
    }

    Clock clock() {
        return clock;
    }
}
