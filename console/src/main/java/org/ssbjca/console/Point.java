package org.ssbjca.console;

import java.util.List;

/**
 * What happened in one sampling interval, ending at {@code millis}: rates per second from the counters' increase,
 * the mean delivery time of the interval's deliveries, and the gauges as read at its end.
 *
 * @param millis the interval's end, in milliseconds since the epoch
 * @param delivered deliveries per second
 * @param rolledBack rolled-back (failed) deliveries per second
 * @param redelivered redeliveries per second
 * @param deadLettered messages dead-lettered per second
 * @param timed deliveries timed in the interval
 * @param meanDeliveryMillis their mean time, NaN when there were none
 * @param p99DeliveryMillis the 99th percentile of the latest 1024 delivery times at the interval's end
 * @param queueDepth the queue's depth at the interval's end
 * @param oldestMessageAgeSeconds the age of the queue's oldest message at the interval's end
 */
record Point(long millis, double delivered, double rolledBack, double redelivered, double deadLettered, long timed,
        double meanDeliveryMillis, double p99DeliveryMillis, long queueDepth, long oldestMessageAgeSeconds) {

    /**
     * The interval between two samples of one activation. A counter's increase is its difference, unless some
     * counter went down (the activation was deployed again and its counters started from 0): then each counter's
     * increase is its later value, as counted since the restart, so no rate is ever negative.
     *
     * @param before the earlier sample
     * @param after the later sample, taken after {@code before}
     * @return the interval
     * @throws IllegalArgumentException when {@code after} is not later than {@code before}
     */
    static Point between(Sample before, Sample after) {
        if (after.millis() <= before.millis()) {
            throw new IllegalArgumentException("sample at " + after.millis() + " is not after " + before.millis());
        }
        Sample base = before.restartedBy(after) ? new Sample(before.millis(), 0, 0, 0, 0, 0, 0, 0, 0, 0) : before;
        double seconds = (after.millis() - base.millis()) / 1000.0;
        long timed = after.timedDeliveries() - base.timedDeliveries();
        return new Point(after.millis(), (after.delivered() - base.delivered()) / seconds,
                (after.rolledBack() - base.rolledBack()) / seconds,
                (after.redelivered() - base.redelivered()) / seconds,
                (after.deadLettered() - base.deadLettered()) / seconds, timed,
                timed == 0 ? Double.NaN : (after.totalDeliveryMillis() - base.totalDeliveryMillis()) / timed,
                after.p99DeliveryMillis(), after.queueDepth(), after.oldestMessageAgeSeconds());
    }

    /**
     * All activations in one interval: rates and depths added, the mean weighted by each activation's deliveries, the
     * highest p99 and the oldest message of any.
     *
     * @param millis the interval's end
     * @param points the activations' points of that interval
     * @return their sum
     */
    static Point overall(long millis, List<Point> points) {
        double delivered = 0;
        double rolledBack = 0;
        double redelivered = 0;
        double deadLettered = 0;
        long timed = 0;
        double totalMillis = 0;
        double p99 = 0;
        long depth = 0;
        long oldest = 0;
        for (Point p : points) {
            delivered += p.delivered;
            rolledBack += p.rolledBack;
            redelivered += p.redelivered;
            deadLettered += p.deadLettered;
            timed += p.timed;
            totalMillis += p.timed == 0 ? 0 : p.meanDeliveryMillis * p.timed;
            p99 = Math.max(p99, p.p99DeliveryMillis);
            depth += p.queueDepth;
            oldest = Math.max(oldest, p.oldestMessageAgeSeconds);
        }
        return new Point(millis, delivered, rolledBack, redelivered, deadLettered, timed,
                timed == 0 ? Double.NaN : totalMillis / timed, p99, depth, oldest);
    }
}
