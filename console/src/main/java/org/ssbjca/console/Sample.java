package org.ssbjca.console;

/**
 * One reading of an activation's MXBean: its counters (which only grow while the activation lives, and start again
 * from 0 when it is deployed again) and its gauges, at a time.
 *
 * @param millis when it was read, in milliseconds since the epoch
 * @param delivered {@code Delivered}
 * @param rolledBack {@code RolledBack}
 * @param redelivered {@code Redelivered}
 * @param deadLettered {@code DeadLettered}
 * @param timedDeliveries {@code TimedDeliveries}
 * @param totalDeliveryMillis {@code TotalDeliveryMillis}
 * @param p99DeliveryMillis {@code P99DeliveryMillis}: the 99th percentile of the latest 1024 delivery times
 * @param queueDepth {@code QueueDepth}
 * @param oldestMessageAgeSeconds {@code OldestMessageAgeSeconds}
 */
record Sample(long millis, long delivered, long rolledBack, long redelivered, long deadLettered, long timedDeliveries,
        double totalDeliveryMillis, double p99DeliveryMillis, long queueDepth, long oldestMessageAgeSeconds) {

    /** The MXBean attributes read from memory at every sampling: the counters and the p99. */
    static final String[] COUNTERS = {"Delivered", "RolledBack", "Redelivered", "DeadLettered", "TimedDeliveries",
        "TotalDeliveryMillis", "P99DeliveryMillis"};
    /** The MXBean attributes that query the database: read at every {@link Sampler#GAUGE_EVERY}th sampling only. */
    static final String[] GAUGES = {"QueueDepth", "OldestMessageAgeSeconds"};

    /**
     * @param later a later sample of the same activation
     * @return whether a counter went down between this sample and the later one: the activation started again
     */
    boolean restartedBy(Sample later) {
        return later.delivered < delivered || later.rolledBack < rolledBack || later.redelivered < redelivered
                || later.deadLettered < deadLettered || later.timedDeliveries < timedDeliveries
                || later.totalDeliveryMillis < totalDeliveryMillis;
    }
}
