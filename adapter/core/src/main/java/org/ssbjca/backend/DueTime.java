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
     * Returns a due time {@code delay} after the moment of scheduling.
     *
     * @param delay zero or more
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
     * Returns a due time at an instant.
     *
     * @param at the instant; one already past is due at once
     */
    public static DueTime at(Instant at) {
        return new DueTime(null, Objects.requireNonNull(at, "at"));
    }

    /**
     * Returns the instant this due time falls on, for a send scheduled now.
     *
     * @param now the backend's clock now
     */
    public Instant from(Instant now) {
        return at != null ? at : now.plus(delay);
    }
}
