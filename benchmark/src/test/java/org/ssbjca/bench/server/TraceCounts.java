package org.ssbjca.bench.server;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What the tracing phase's bean ({@link SsbTracedMdb}) found current in its calls, against the trace context the
 * loader gave the messages ({@link #TRACE_PARENT}).
 */
public final class TraceCounts {

    /** The trace id the loader's messages carry. */
    public static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    /** The sender's span id the loader's messages carry. */
    public static final String SENDER_SPAN = "00f067aa0ba902b7";
    /** The W3C traceparent the loader writes into each traced message, sampled. */
    public static final String TRACE_PARENT = "00-" + TRACE_ID + "-" + SENDER_SPAN + "-01";

    private static final AtomicLong CHILDREN = new AtomicLong();
    private static final AtomicLong NONE = new AtomicLong();
    private static final AtomicLong OTHER = new AtomicLong();

    private TraceCounts() {
    }

    /**
     * Counts one call of the bean (from its deployment's class loader: public).
     *
     * @param traceId the current span's trace id, or null when no valid span is current
     * @param spanId the current span's id
     */
    public static void seen(String traceId, String spanId) {
        if (traceId == null) {
            NONE.incrementAndGet();
        } else if (TRACE_ID.equals(traceId) && !SENDER_SPAN.equals(spanId)) {
            CHILDREN.incrementAndGet();
        } else {
            OTHER.incrementAndGet();
        }
    }

    /**
     * @return {calls in a span of the loader's trace other than the sender's (the adapter's consumer span), calls
     *         with no span, calls with another one}, counted since the last call of this method
     */
    static long[] takeCounts() {
        return new long[] {CHILDREN.getAndSet(0), NONE.getAndSet(0), OTHER.getAndSet(0)};
    }
}
