package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The delivery times behind {@code MeanDeliveryMillis}, {@code P99DeliveryMillis}, {@code TimedDeliveries} and
 * {@code TotalDeliveryMillis}: the mean over every timed delivery, the 99th percentile over the latest 1024 only.
 */
class ActivationMetricsTest {

    private static final long SLOW_NANOS = 500_000_000;
    private static final long FAST_NANOS = 1_000_000;

    @Test
    void nothingTimedReadsZero() {
        ActivationMetrics m = new ActivationMetrics();

        assertEquals(0, m.timedDeliveries());
        assertEquals(0.0, m.totalDeliveryMillis());
        assertEquals(0.0, m.meanDeliveryMillis());
        assertEquals(0.0, m.p99DeliveryMillis());
    }

    /** Of 1024 times, the 99th percentile is the 1014th smallest: 11 slow ones among them show, 10 do not. */
    @Test
    void theP99IsTheSlowTimeWhileElevenOfTheLatest1024AreSlow() {
        ActivationMetrics m = new ActivationMetrics();
        took(m, 11, SLOW_NANOS);
        took(m, 1013, FAST_NANOS);

        assertEquals(500.0, m.p99DeliveryMillis());

        took(m, 1, FAST_NANOS);

        assertEquals(1.0, m.p99DeliveryMillis(), "the oldest slow time left the window of 1024");
    }

    @Test
    void slowTimesOlderThanTheLatest1024NoLongerCountInTheP99ButStillInTheMean() {
        ActivationMetrics m = new ActivationMetrics();
        took(m, 1024, SLOW_NANOS);
        took(m, 1024, FAST_NANOS);

        assertEquals(1.0, m.p99DeliveryMillis(), "only the latest 1024 count");
        assertEquals(2048, m.timedDeliveries());
        assertEquals(1024 * 500.0 + 1024 * 1.0, m.totalDeliveryMillis(), 1e-6);
        assertEquals(250.5, m.meanDeliveryMillis(), 1e-9, "the mean is over every timed delivery");
    }

    /** Fewer than 100 times: the 99th percentile is the slowest. */
    @Test
    void withFewTimesTheP99IsTheSlowest() {
        ActivationMetrics m = new ActivationMetrics();
        took(m, 1, 3 * FAST_NANOS);
        took(m, 1, 80 * FAST_NANOS);
        took(m, 1, 5 * FAST_NANOS);

        assertEquals(80.0, m.p99DeliveryMillis());
        assertEquals(88.0, m.totalDeliveryMillis(), 1e-9);
        assertEquals(88.0 / 3, m.meanDeliveryMillis(), 1e-9);
    }

    private static void took(ActivationMetrics m, int times, long nanos) {
        for (int i = 0; i < times; i++) {
            m.deliveryTook(nanos);
        }
    }
}
