package org.ssbjca.backend;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * When a scheduled send is due: after a delay from the backend's clock at the moment it is scheduled, or at an
 * instant. Immutable.
 *
 * @param delay the delay, or null when {@code at} is given
 * @param at the instant, or null when {@code delay} is given
 */
public record DueTime(Duration delay, Instant at) {

    /**
     * @param delay zero or more
     * @return a due time {@code delay} after the moment of scheduling
     * @throws IllegalArgumentException if the delay is negative, naming it
     */
    public static DueTime after(Duration delay) {
        Objects.requireNonNull(delay, "delay");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("the delay of a scheduled send must not be negative: " + delay);
        }
        return new DueTime(delay, null);
    }

    /**
     * @param at the instant; one already past is due at once
     * @return a due time at that instant
     */
    public static DueTime at(Instant at) {
        return new DueTime(null, Objects.requireNonNull(at, "at"));
    }

    /**
     * @param now the backend's clock now
     * @return the instant it is due
     */
    public Instant from(Instant now) {
        return at != null ? at : now.plus(delay);
    }
}
