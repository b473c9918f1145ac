package org.ssbjca.inbound;

import java.util.function.Supplier;
import org.ssbjca.support.AdapterLog;

/**
 * Says what an activation's circuit breaker does: at WARN when it opens ({@code SSBJCA0240}) or a probe fails
 * ({@code SSBJCA0241}), at INFO when it closes ({@code SSBJCA0242}), and as JMX notifications through the
 * activation's {@link ActivationEvents}. Called on the reader's thread that changed the breaker's state; never
 * throws.
 */
public final class BreakerReports implements CircuitBreaker.Listener {

    private static final AdapterLog LOG = AdapterLog.of(CircuitBreaker.class);

    private final String activation;
    private final Supplier<ActivationEvents> events;

    /**
     * @param activation the activation's name, for the log
     * @param events where the notifications go (read at each change: the MBean sets them after the start)
     */
    public BreakerReports(String activation, Supplier<ActivationEvents> events) {
        this.activation = activation;
        this.events = events;
    }

    @Override
    public void opened(int failures, boolean probe, long probeInMillis, String lastError) {
        if (!probe) {
            LOG.breakerOpened(activation, failures, lastError, probeInMillis);
        } else {
            LOG.breakerProbeFailed(activation, lastError, probeInMillis);
        }
        events.get().breakerOpened(activation, failures, probeInMillis, lastError);
    }

    @Override
    public void closed(long openMillis) {
        LOG.breakerClosed(activation, openMillis);
        events.get().breakerClosed(activation, openMillis);
    }
}
