package org.ssbjca.management;

import java.time.Instant;
import java.util.Date;
import org.ssbjca.inbound.CircuitBreaker;

/** The {@link BreakerMXBean} attributes of one activation's circuit breaker, for both activation MBeans. */
abstract class BreakerAttributes implements BreakerMXBean {

    private final CircuitBreaker breaker;

    /** @param breaker the activation's breaker ({@link CircuitBreaker#OFF} when it has none) */
    BreakerAttributes(CircuitBreaker breaker) {
        this.breaker = breaker;
    }

    @Override
    public String getBreakerState() {
        return breaker.state().name();
    }

    @Override
    public boolean isBreakerOpen() {
        return breaker.state() != CircuitBreaker.State.CLOSED;
    }

    @Override
    public Date getBreakerOpenedAt() {
        return date(breaker.openedAt());
    }

    @Override
    public Date getBreakerNextProbe() {
        return date(breaker.nextProbe());
    }

    @Override
    public long getBreakerTrips() {
        return breaker.trips();
    }

    @Override
    public int getBreakerParkedReaders() {
        return breaker.parked();
    }

    private static Date date(Instant at) {
        return at == null ? null : Date.from(at);
    }
}
