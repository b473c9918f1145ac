package org.ssbjca.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * The sampler with a clock the test moves and activations the test counts for: points per activation and overall,
 * an activation undeployed and deployed again (counters from 0), one that fails to read, and the hour kept.
 */
class SamplerTest {

    /** A clock that only moves when told. */
    private static final class TestClock extends Clock {
        private long millis = 1_700_000_000_000L;

        void advanceSeconds(long seconds) {
            millis += seconds * 1000;
        }

        @Override
        public long millis() {
            return millis;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }
    }

    /** Activations whose Delivered counter and queue depth the test sets. */
    private static final class Activations implements Sampler.Source {
        final Map<String, long[]> deliveredAndDepth = new LinkedHashMap<>();
        final List<String> unreadable = new ArrayList<>();
        final Map<String, Integer> depthReads = new LinkedHashMap<>();
        /** When set, the activations cannot even be listed: the whole reading fails. */
        boolean listingFails;

        @Override
        public List<String> names() {
            if (listingFails) {
                throw new IllegalStateException("the activations' MXBeans cannot be listed");
            }
            return new ArrayList<>(deliveredAndDepth.keySet());
        }

        @Override
        public Object[] values(String activation, String[] attributes) {
            if (unreadable.contains(activation)) {
                throw new IllegalStateException("no activation " + activation);
            }
            long[] v = deliveredAndDepth.get(activation);
            Object[] values = new Object[attributes.length];
            for (int i = 0; i < attributes.length; i++) {
                values[i] = switch (attributes[i]) {
                    case "Delivered", "TimedDeliveries" -> v[0];
                    case "TotalDeliveryMillis" -> 2.0 * v[0]; // 2 ms each
                    case "P99DeliveryMillis" -> 4.0;
                    case "QueueDepth" -> {
                        depthReads.merge(activation, 1, Integer::sum);
                        yield v[1];
                    }
                    case "OldestMessageAgeSeconds" -> 1L;
                    default -> 0L;
                };
            }
            return values;
        }
    }

    private final TestClock clock = new TestClock();
    private final Activations beans = new Activations();
    private final Histories histories = new Histories(Histories.CAPACITY);
    private final Sampler sampler = new Sampler(beans, clock, histories);

    private void tick(long aDelivered, long bDelivered) {
        beans.deliveredAndDepth.put("A", new long[] {aDelivered, 4});
        beans.deliveredAndDepth.put("B", new long[] {bDelivered, 6});
        sampler.run();
        clock.advanceSeconds(Histories.PERIOD_SECONDS);
    }

    private List<Double> delivered(History h) {
        return h.points().stream().map(Point::delivered).toList();
    }

    @Test
    void eachActivationAndAllOfThemGetRatesFromTheCountersDeltas() {
        tick(0, 0);
        tick(50, 10);
        tick(100, 10);
        assertEquals(List.of(10.0, 10.0), delivered(histories.of("A").orElseThrow()));
        assertEquals(List.of(2.0, 0.0), delivered(histories.of("B").orElseThrow()));
        assertEquals(List.of(12.0, 10.0), delivered(histories.overall()));
        assertEquals(List.of(10L, 10L), histories.overall().points().stream().map(Point::queueDepth).toList());
        assertEquals(2.0, histories.overall().points().get(0).meanDeliveryMillis(), 1e-9);
        assertEquals(List.of("A", "B"), histories.names());
    }

    @Test
    void anActivationDeployedAgainStartsFromZeroWithoutANegativeRate() {
        tick(0, 0);
        tick(500, 0);
        beans.deliveredAndDepth.remove("A");
        sampler.run(); // A undeployed: missing from this sampling
        clock.advanceSeconds(Histories.PERIOD_SECONDS);
        tick(5, 0); // deployed again, 5 delivered since
        tick(30, 0);
        assertEquals(List.of(100.0, 5.0), delivered(histories.of("A").orElseThrow()),
                "no interval across the redeploy, then 25 in 5 s");
        // deployed again between two samplings: the counter went down
        tick(10, 0);
        assertEquals(2.0, histories.of("A").orElseThrow().points().get(2).delivered(), 1e-9, "10 since the restart");
        assertTrue(histories.overall().points().stream().allMatch(p -> p.delivered() >= 0));
    }

    @Test
    void anActivationThatCannotBeReadIsSkippedAndTheOthersGoOn() {
        tick(0, 0);
        tick(50, 10);
        beans.unreadable.add("B");
        tick(100, 20);
        beans.unreadable.clear();
        tick(150, 30);
        tick(200, 40);
        assertEquals(List.of(10.0, 10.0, 10.0, 10.0), delivered(histories.of("A").orElseThrow()));
        assertEquals(List.of(2.0, 2.0), delivered(histories.of("B").orElseThrow()),
                "no interval across the failed reading");
        assertEquals(List.of(12.0, 10.0, 10.0, 12.0), delivered(histories.overall()));
    }

    /**
     * A whole reading that fails (docs/operations/console.md): {@code SSBJCA0283} once until a reading succeeds, and
     * again at the next failure; no point for the failed readings, and the next point's rate spans them.
     */
    @Test
    void aWholeReadingThatFailsIsLoggedOnceUntilOneSucceedsAndLeavesAGap() {
        List<String> logged = new CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord r) {
                logged.add(r.getLevel() + " " + r.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger logger = Logger.getLogger("org.ssbjca.console");
        logger.addHandler(handler);
        try {
            tick(0, 0);
            tick(50, 10);
            beans.listingFails = true;
            tick(100, 20);
            tick(150, 30);
            assertEquals(1, logged.size(), logged.toString());
            assertTrue(logged.get(0).startsWith("WARNING SSBJCA0283: the console's charts could not read the"
                    + " activations, their history has a gap until a reading succeeds"), logged.get(0));
            beans.listingFails = false;
            tick(200, 40);
            beans.listingFails = true;
            tick(250, 50);
            assertEquals(2, logged.size(), "logged again once a reading had succeeded: " + logged);
            List<Point> points = histories.of("A").orElseThrow().points();
            assertEquals(List.of(10.0, 10.0), delivered(histories.of("A").orElseThrow()));
            assertEquals(3 * Histories.PERIOD_SECONDS * 1000L, points.get(1).millis() - points.get(0).millis(),
                    "no point for the two failed readings");
        } finally {
            logger.removeHandler(handler);
        }
    }

    @Test
    void anHourIsKeptAndAnActivationGoneForAnHourIsForgotten() {
        for (int i = 0; i <= Histories.CAPACITY + 10; i++) {
            tick(i, i);
        }
        List<Point> a = histories.of("A").orElseThrow().points();
        assertEquals(Histories.CAPACITY, a.size());
        assertEquals(3600_000L - Histories.PERIOD_SECONDS * 1000L, a.get(a.size() - 1).millis() - a.get(0).millis());
        beans.deliveredAndDepth.remove("B");
        for (int i = 0; i <= Histories.CAPACITY + 1; i++) {
            beans.deliveredAndDepth.put("A", new long[] {0, 0});
            sampler.run();
            clock.advanceSeconds(Histories.PERIOD_SECONDS);
        }
        assertEquals(List.of("A"), histories.names(), "B gone for more than an hour");
    }

    @Test
    void theQueueIsCountedOnTheDatabaseEverySixthSamplingOnly() {
        for (int i = 0; i < 14; i++) {
            beans.deliveredAndDepth.put("A", new long[] {i, i}); // the queue's depth grows by one at each sampling
            beans.deliveredAndDepth.put("B", new long[] {i, i});
            sampler.run();
            clock.advanceSeconds(Histories.PERIOD_SECONDS);
            if (i == 11) {
                assertEquals(Map.of("A", 2, "B", 2), beans.depthReads, "the counters every 5 s, the queue every 30 s");
            }
        }
        assertEquals(List.of(0L, 0L, 0L, 0L, 0L, 6L, 6L, 6L, 6L, 6L, 6L, 12L, 12L),
                histories.of("A").orElseThrow().points().stream().map(Point::queueDepth).toList(),
                "between readings a point carries the depth last read");
    }
}
