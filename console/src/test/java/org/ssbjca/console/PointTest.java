package org.ssbjca.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The rate maths: rates per second from counter increases, the interval's mean, a restart's counters. */
class PointTest {

    private static Sample at(long millis, long delivered, long rolledBack, long timed, double totalMillis) {
        return new Sample(millis, delivered, rolledBack, rolledBack / 2, rolledBack / 4, timed, totalMillis, 9.5, 7,
                3);
    }

    @Test
    void ratesArePerSecondOfTheIntervalAndTheMeanIsTheIntervals() {
        Point p = Point.between(at(10_000, 100, 8, 100, 1_000), at(15_000, 150, 16, 150, 1_500 + 40 * 50));
        assertEquals(15_000, p.millis());
        assertEquals(10.0, p.delivered(), 1e-9, "50 deliveries in 5 s");
        assertEquals(1.6, p.rolledBack(), 1e-9);
        assertEquals(0.8, p.redelivered(), 1e-9);
        assertEquals(0.4, p.deadLettered(), 1e-9);
        assertEquals(50, p.timed());
        assertEquals(50.0, p.meanDeliveryMillis(), 1e-9, "the interval's 50 deliveries took 2,500 ms");
        assertEquals(9.5, p.p99DeliveryMillis());
        assertEquals(7, p.queueDepth());
        assertEquals(3, p.oldestMessageAgeSeconds());
    }

    @Test
    void anIntervalWithoutDeliveriesHasNoMeanAndZeroRates() {
        Point p = Point.between(at(0, 5, 0, 5, 50), at(5_000, 5, 0, 5, 50));
        assertEquals(0.0, p.delivered());
        assertTrue(Double.isNaN(p.meanDeliveryMillis()), "no mean of nothing, not 0 ms: " + p.meanDeliveryMillis());
    }

    @Test
    void countersStartedAgainCountFromZeroAndNoRateIsNegative() {
        // redeployed: 1,000 delivered before, 20 since the restart within this 5 s interval
        Point p = Point.between(at(0, 1_000, 40, 1_000, 9_000), at(5_000, 20, 4, 20, 100));
        assertEquals(4.0, p.delivered(), 1e-9);
        assertEquals(0.8, p.rolledBack(), 1e-9);
        assertEquals(5.0, p.meanDeliveryMillis(), 1e-9);
        // one counter down is enough: the others are counted since the restart too
        Point q = Point.between(at(0, 10, 40, 10, 100), at(5_000, 30, 4, 30, 150));
        assertEquals(6.0, q.delivered(), 1e-9, "30 since the restart, not 20");
        assertEquals(5.0, q.meanDeliveryMillis(), 1e-9);
    }

    @Test
    void aSampleNotLaterIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Point.between(at(5_000, 0, 0, 0, 0), at(5_000, 1, 0, 1, 1)));
        assertEquals("sample at 5000 is not after 5000", e.getMessage());
    }

    @Test
    void overallAddsRatesWeighsTheMeanAndTakesTheWorstGauges() {
        Point a = new Point(5_000, 10, 1, 0.5, 0.2, 30, 10, 40, 5, 60);
        Point b = new Point(5_000, 2, 0, 0, 0, 10, 50, 90, 3, 20);
        Point idle = new Point(5_000, 0, 0, 0, 0, 0, Double.NaN, 0, 0, 0);
        Point o = Point.overall(5_000, List.of(a, b, idle));
        assertEquals(12.0, o.delivered(), 1e-9);
        assertEquals(1.0, o.rolledBack(), 1e-9);
        assertEquals(40, o.timed());
        assertEquals(20.0, o.meanDeliveryMillis(), 1e-9, "(30 x 10 + 10 x 50) / 40");
        assertEquals(90.0, o.p99DeliveryMillis());
        assertEquals(8, o.queueDepth());
        assertEquals(60, o.oldestMessageAgeSeconds());
        assertTrue(Double.isNaN(Point.overall(5_000, List.of(idle)).meanDeliveryMillis()));
    }
}
