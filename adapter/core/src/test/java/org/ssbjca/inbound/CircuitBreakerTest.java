package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.resource.spi.InvalidPropertyException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.UnrecoverableMessageException;
import org.ssbjca.backend.DeliveryLedger;

/**
 * The circuit breaker (issue 47, point 2): after {@code breakerThreshold} failed deliveries in a row of different
 * messages the readers pause, nothing more is charged to the messages but one probe at a time, the probes come after
 * a growing delay, and the first success lets every reader go on. On H2 and PostgreSQL, with several readers.
 */
class CircuitBreakerTest {

    private static final Logger FIGURES = Logger.getLogger("org.ssbjca.figures");

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void anOutagePausesTheReadersProbesAndResumesOnTheFirstSuccess(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            AtomicBoolean down = new AtomicBoolean(true);
            Set<String> charged = ConcurrentHashMap.newKeySet();
            List<Long> failedAt = new CopyOnWriteArrayList<>();
            Map<String, Long> firstFailedAt = new ConcurrentHashMap<>();
            AtomicInteger failures = new AtomicInteger();
            List<String> delivered = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                if (down.get()) {
                    charged.add(DeliveryLedger.key(m));
                    long now = System.currentTimeMillis();
                    failedAt.add(now);
                    firstFailedAt.putIfAbsent(DeliveryLedger.key(m), now);
                    failures.incrementAndGet();
                    throw new IllegalStateException("the stock service is down");
                }
                delivered.add(m.bodyAsText());
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("4");
            spec.setMaxDeliveryAttempts("50");
            spec.setBreakerThreshold("5");
            spec.setBreakerDelay("300");
            spec.setBreakerMaxDelay("1200");
            for (int i = 0; i < 40; i++) {
                h.send("order " + i);
            }
            h.activate(BrokerMessageListener.class, bean, true, spec);
            EndpointActivation a = h.ra.activations().get(0);

            Awaitility.await("the breaker opens").atMost(Duration.ofSeconds(30))
                    .until(() -> !"CLOSED".equals(a.breaker().state().name()));
            long opened = a.breaker().openedAt().toEpochMilli();
            long tripMillis = opened - failedAt.get(0);
            int atTrip = (int) failedAt.stream().filter(t -> t <= opened).count();
            long messagesAtTrip = firstFailedAt.values().stream().filter(t -> t <= opened).count();
            assertNotNull(a.breaker().openedAt());
            assertEquals(1, a.breaker().trips());
            // the readers that were delivering as it opened finish; then all four park, and the probes come one by
            // one: three failed probes, each after a longer delay
            Awaitility.await("three failed probes").atMost(Duration.ofSeconds(30))
                    .until(() -> failures.get() >= atTrip + 3 + 3);
            int before = failedAt.size();
            Awaitility.await("two more probes").atMost(Duration.ofSeconds(30))
                    .until(() -> failedAt.size() >= before + 2);
            long gapA = failedAt.get(before) - failedAt.get(before - 1);
            long gapB = failedAt.get(before + 1) - failedAt.get(before);
            assertTrue(gapA >= 200 && gapB >= 200, "probes at least a delay apart: " + gapA + " and " + gapB + " ms");
            assertEquals(1, a.breaker().trips(), "failed probes are not new trips");
            Awaitility.await("the readers not probing park").atMost(Duration.ofSeconds(30))
                    .until(() -> a.breaker().parked() >= 3);
            assertTrue(a.breaker().nextProbe() != null || "PROBING".equals(a.breaker().state().name()));
            assertEquals(0, a.metrics().deadLettered(), "nothing was set aside");
            assertEquals(0, delivered.size());

            down.set(false);
            Awaitility.await("all delivered after the first successful probe").atMost(Duration.ofSeconds(60))
                    .until(() -> delivered.size() == 40);
            assertEquals("CLOSED", a.breaker().state().name());
            assertNull(a.breaker().nextProbe());
            FIGURES.info(String.format("%s: circuit breaker (threshold 5, 4 readers): opened %d ms after the first"
                    + " failure, after %d failed deliveries charged to %d messages; %d failed deliveries in all,"
                    + " 40 delivered once it closed", backend, tripMillis, atTrip, charged.size(), failures.get()));
            // A run of one message's failures does not open the breaker, so the failed deliveries before it opened
            // may be many more than the threshold when one reader fails the same message again and again (a clean
            // clone's CI, 4 readers on a loaded machine: "open after 11 failed deliveries"). What it must bound is the
            // messages charged: the threshold, the other readers' deliveries in flight as it opened, and slack. A
            // breaker that does not open charges all 40.
            assertTrue(messagesAtTrip <= 12, "opened near the threshold of 5 messages (4 readers): " + messagesAtTrip
                    + " messages charged in " + atTrip + " failed deliveries");
            assertTrue(charged.size() <= atTrip);
        }
    }

    @Test
    void oneMessageFailingAloneNeverOpensItAndASuccessEndsTheRun() {
        List<String> said = new CopyOnWriteArrayList<>();
        CircuitBreaker b = new BreakerSettings(3, 60_000, 100, 1000).newBreaker(new CircuitBreaker.Listener() {
            @Override
            public void opened(int failures, boolean probe, long probeInMillis, String lastError) {
                said.add("opened " + failures + " " + probe);
            }

            @Override
            public void closed(long openMillis) {
                said.add("closed");
            }
        });
        for (int i = 0; i < 5; i++) {
            b.failed("poison", "x");
        }
        assertEquals(CircuitBreaker.State.CLOSED, b.state(), "one poison message");
        b.succeeded();
        b.failed("m3", "x");
        b.failed("m4", "x");
        assertEquals(CircuitBreaker.State.CLOSED, b.state(), "the success ended the run");
        b.failed("m4", "x");
        assertEquals(CircuitBreaker.State.OPEN, b.state(), "three failures of two messages");
        b.succeeded();
        assertEquals(CircuitBreaker.State.CLOSED, b.state());
        assertEquals(List.of("opened 3 false", "closed"), said);
    }

    @Test
    void failuresOutsideTheWindowDoNotCount() throws Exception {
        CircuitBreaker b = new BreakerSettings(2, 1000, 100, 1000).newBreaker(null);
        b.failed("m1", "x");
        long start = System.nanoTime();
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> System.nanoTime() - start > 1_100_000_000L);
        b.failed("m2", "x");
        assertEquals(CircuitBreaker.State.CLOSED, b.state(), "m1 fell out of the window");
        b.failed("m3", "x");
        assertEquals(CircuitBreaker.State.OPEN, b.state());
    }

    /** A failure the policy finds unrecoverable is the message's fault: it is dead-lettered and never trips it. */
    @Test
    void unrecoverableFailuresDoNotTripIt() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            BrokerMessageListener bean = (BrokerMessage m) -> {
                throw new UnrecoverableMessageException("bad " + m.bodyAsText());
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setBreakerThreshold("2");
            h.activate(BrokerMessageListener.class, bean, true, spec);
            EndpointActivation a = h.ra.activations().get(0);
            for (int i = 0; i < 6; i++) {
                h.send("m" + i);
            }
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> a.metrics().deadLettered() == 6);
            assertEquals(0, a.breaker().trips());
            assertEquals("CLOSED", a.breaker().state().name());
        }
    }

    @Test
    void onSqlServerItMustOpenBeforeTheBrokersPoisonDetection() throws Exception {
        ServiceBrokerActivationSpec spec = new ServiceBrokerActivationSpec();
        spec.setQueue("Q");
        spec.setConnectionUrl("jdbc:sqlserver://db;databaseName=x");
        spec.setMaxDeliveryAttempts("4");
        spec.setBreakerThreshold("5");
        InvalidPropertyException e = assertThrows(InvalidPropertyException.class, spec::validate);
        assertTrue(e.getMessage().startsWith("ssb-jca activation property 'breakerThreshold' must be between 0 and 4 "
                + "on SQL Server"), e.getMessage());
        spec.setBreakerThreshold("4");
        spec.validate();
        spec.setBreakerMaxDelay("100");
        e = assertThrows(InvalidPropertyException.class, spec::validate);
        assertEquals("ssb-jca activation property 'breakerMaxDelay' must be between 5000 and 3600000, was 100",
                e.getMessage());
    }

    /**
     * failure-policy.md: the first probe after {@code breakerDelay}, each failed probe's delay doubled up to
     * {@code breakerMaxDelay}, every delay cut at random by up to 20%.
     */
    @Test
    void eachFailedProbeDoublesTheDelayUpToTheMaximumEachCutByUpTo20Percent() throws Exception {
        List<Long> delays = new CopyOnWriteArrayList<>();
        CircuitBreaker b = new BreakerSettings(2, 60_000, 100, 250).newBreaker(probeDelaysInto(delays));
        long deadline = System.nanoTime() + 10_000_000_000L;
        b.failed("m1", "x");
        long openedAt = System.nanoTime(); // before the breaker's own reading of the time
        b.failed("m2", "x");
        for (int probe = 1; probe <= 3; probe++) {
            // the breaker holds the reader until its probe is due
            assertTrue(b.awaitTurn(() -> System.nanoTime() > deadline), "probe " + probe + " came");
            long waited = System.nanoTime() - openedAt;
            long delay = delays.get(probe - 1);
            assertTrue(waited >= delay * 1_000_000L, "probe " + probe + " after " + waited + " ns, its delay " + delay);
            openedAt = System.nanoTime();
            b.failed("m1", "x");
        }
        assertEquals(4, delays.size(), "opened, then three failed probes: " + delays);
        long[][] bounds = {{80, 100}, {160, 200}, {200, 250}, {200, 250}};
        for (int i = 0; i < bounds.length; i++) {
            long d = delays.get(i);
            assertTrue(d >= bounds[i][0] && d <= bounds[i][1], "delay " + (i + 1) + " was " + d + ": " + delays);
        }
    }

    /** The first probe too comes after {@code breakerDelay} less a random part of up to 20%. */
    @Test
    void theFirstProbeDelaysSpreadBetweenFourFifthsOfTheDelayAndTheDelay() {
        Set<Long> delays = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < 50; i++) {
            CircuitBreaker b = new BreakerSettings(2, 60_000, 1000, 300_000).newBreaker(probeDelaysInto(delays));
            b.failed("m1", "x");
            b.failed("m2", "x");
        }
        assertTrue(delays.stream().allMatch(d -> d >= 800 && d <= 1000), delays.toString());
        assertTrue(delays.size() > 1, "50 breakers, one delay: " + delays);
    }

    /** @return a listener that adds each delay before a probe to {@code delays} */
    private static CircuitBreaker.Listener probeDelaysInto(java.util.Collection<Long> delays) {
        return new CircuitBreaker.Listener() {
            @Override
            public void opened(int failures, boolean probe, long probeInMillis, String lastError) {
                delays.add(probeInMillis);
            }

            @Override
            public void closed(long openMillis) {
            }
        };
    }

    /** activation-properties.md: {@code breakerDelay} at least 100 and at most 3600000, named when refused. */
    @Test
    void aBreakerDelayOutOfItsRangeFailsTheActivationNamingIt() throws Exception {
        ServiceBrokerActivationSpec spec = new ServiceBrokerActivationSpec();
        spec.setQueue("Q");
        spec.setBreakerThreshold("3");
        for (String bad : List.of("99", "3600001")) {
            spec.setBreakerDelay(bad);
            InvalidPropertyException e = assertThrows(InvalidPropertyException.class, spec::validate);
            assertEquals("ssb-jca activation property 'breakerDelay' must be between 100 and 3600000, was " + bad,
                    e.getMessage());
        }
        spec.setBreakerDelay("100");
        spec.setBreakerMaxDelay("3600001");
        InvalidPropertyException e = assertThrows(InvalidPropertyException.class, spec::validate);
        assertEquals("ssb-jca activation property 'breakerMaxDelay' must be between 100 and 3600000, was 3600001",
                e.getMessage());
    }
}
