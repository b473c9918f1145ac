package org.ssbjca.management;

import java.util.Date;

/**
 * The circuit breaker's attributes, the same on a queue's {@link ActivationMXBean} and a table's
 * {@link TableActivationMXBean}. Each reading is a snapshot of the breaker, which readers change concurrently.
 */
public interface BreakerMXBean {

    /**
     * Returns the circuit breaker's state: CLOSED (readers deliver), OPEN (readers paused after {@code
     * breakerThreshold} failed deliveries in a row) or PROBING (one reader delivers once).
     */
    String getBreakerState();

    /** Returns whether the circuit breaker holds the readers (OPEN or PROBING): the gauge a metric reads. */
    boolean isBreakerOpen();

    /** Returns when the circuit breaker last opened, or null if it never did. */
    Date getBreakerOpenedAt();

    /** Returns when the open circuit breaker's next probe is due, or null while it is closed. */
    Date getBreakerNextProbe();

    /** Returns how many times a run of failed deliveries opened the circuit breaker (failed probes not counted). */
    long getBreakerTrips();

    /**
     * Returns how many readers the open circuit breaker holds before their next RECEIVE or taking of rows (all but a
     * probing one once the deliveries in flight as it opened are done); 0 while it is closed. An operator's pause's
     * readers are not counted here.
     */
    int getBreakerParkedReaders();
}
