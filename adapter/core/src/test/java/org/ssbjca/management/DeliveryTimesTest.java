package org.ssbjca.management;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.inbound.InboundBackends;
import org.ssbjca.inbound.InboundHarness;

/**
 * {@code TimedDeliveries}, {@code TotalDeliveryMillis}, {@code MeanDeliveryMillis} and {@code P99DeliveryMillis}
 * against a bean that takes known times. Only lower bounds and exact relations: the build's cores are shared, so a
 * delivery may take any time longer than its bean. The window of the latest 1024 is {@code ActivationMetricsTest}'s.
 */
class DeliveryTimesTest {

    /** Each body is how long the bean sleeps, in ms; "fails" sleeps {@value #FAILING_MILLIS} ms then throws once. */
    private static final long FAILING_MILLIS = 400;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void committedDeliveriesAreTimedWithTheBeansTime(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            List<String> done = new CopyOnWriteArrayList<>();
            AtomicBoolean failing = new AtomicBoolean(true);
            BrokerMessageListener bean = m -> {
                String body = m.bodyAsText();
                if (body.equals("fails")) {
                    if (failing.getAndSet(false)) {
                        sleep(FAILING_MILLIS);
                        throw new IllegalStateException("fails once");
                    }
                } else {
                    sleep(Long.parseLong(body));
                }
                done.add(body);
            };
            h.activate(BrokerMessageListener.class, bean, true, h.spec());
            ActivationMXBean mx = Jmx.proxy(Jmx.onlyActivation(h));
            assertEquals(0, mx.getTimedDeliveries(), "nothing delivered yet");
            assertEquals(0.0, mx.getMeanDeliveryMillis());
            assertEquals(0.0, mx.getP99DeliveryMillis());

            h.send("20", "fails", "250", "40");

            await("four commits and one rollback").until(() -> mx.getCommitted() == 4 && mx.getRolledBack() == 1);
            assertEquals(List.of("20", "fails", "250", "40"), done);
            assertEquals(4, mx.getTimedDeliveries(), "the committed deliveries; the rolled-back one is not timed");
            assertEquals(mx.getCommitted(), mx.getTimedDeliveries());
            double total = mx.getTotalDeliveryMillis();
            assertTrue(total >= 20 + 250 + 40, "TotalDeliveryMillis " + total + " holds the beans' 310 ms");
            assertEquals(total / 4, mx.getMeanDeliveryMillis(), 1e-9, "the mean is the total over the count");
            double p99 = mx.getP99DeliveryMillis();
            assertTrue(p99 >= 250, "P99DeliveryMillis " + p99 + ": of four, the slowest, at least its bean's 250 ms");
            assertTrue(p99 <= total, "P99 " + p99 + " is one of the times summed in " + total);
            assertTrue(p99 >= mx.getMeanDeliveryMillis(), "with under 100 times the 99th percentile is the slowest");
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
