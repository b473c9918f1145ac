package org.ssbjca.inbound;

import jakarta.resource.spi.InvalidPropertyException;
import org.ssbjca.support.Backoff;

/**
 * An activation's circuit breaker properties, parsed and checked: {@code breakerThreshold} (0 for none),
 * {@code breakerWindow}, {@code breakerDelay} and {@code breakerMaxDelay} in milliseconds.
 *
 * @param threshold failed deliveries in a row, of different messages, that open the breaker; 0 for none
 * @param windowMillis the span they must fall within
 * @param delayMillis the wait before the first probe
 * @param maxDelayMillis the longest wait before a probe
 */
public record BreakerSettings(int threshold, long windowMillis, long delayMillis, long maxDelayMillis) {

    /** The most failures in a row a SQL Server queue may see before its poison detection disables it, less one. */
    static final int SQL_SERVER_MAX_THRESHOLD = 4;
    /** The spread of the probe delays, as the readers' reconnect backoff. */
    private static final double JITTER = 0.2;

    /**
     * Returns the settings.
     *
     * @param spec the activation spec class, for the errors
     * @param sqlServer whether the activation reads a SQL Server queue (the threshold is then at most
     *        {@link #SQL_SERVER_MAX_THRESHOLD})
     * @throws InvalidPropertyException naming the first bad property, what it accepts and the text given
     */
    public static BreakerSettings parse(Class<?> spec, String threshold, String window, String delay, String maxDelay,
            boolean sqlServer) throws InvalidPropertyException {
        int t = (int) ActivationValues.whole(spec, "breakerThreshold", threshold, 0, 1000);
        if (sqlServer && t > SQL_SERVER_MAX_THRESHOLD) {
            throw ActivationValues.invalid(spec, "breakerThreshold", "must be between 0 and "
                    + SQL_SERVER_MAX_THRESHOLD + " on SQL Server (its poison detection disables a queue after 5 "
                    + "rolled-back RECEIVEs in a row: the breaker must open before), was " + t);
        }
        long w = ActivationValues.whole(spec, "breakerWindow", window, 1000, 86_400_000);
        long d = ActivationValues.whole(spec, "breakerDelay", delay, 100, 3_600_000);
        long m = ActivationValues.whole(spec, "breakerMaxDelay", maxDelay, d, 3_600_000);
        return new BreakerSettings(t, w, d, m);
    }

    /**
     * Returns a new breaker for one activation, {@link CircuitBreaker#OFF} when the threshold is 0.
     *
     * @param listener told when it opens and closes
     */
    public CircuitBreaker newBreaker(CircuitBreaker.Listener listener) {
        return threshold == 0 ? CircuitBreaker.OFF
                : new CircuitBreaker(threshold, windowMillis, new Backoff(delayMillis, maxDelayMillis, JITTER),
                        listener);
    }
}
