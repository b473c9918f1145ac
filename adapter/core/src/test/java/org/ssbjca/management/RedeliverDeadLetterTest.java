package org.ssbjca.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ssbjca.management.Jmx.await;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.inbound.EndpointActivation;
import org.ssbjca.inbound.InboundBackends;
import org.ssbjca.inbound.InboundHarness;
import org.ssbjca.inbound.ServiceBrokerActivationSpec;

/**
 * {@code redeliverDeadLetter} on an idle activation whose readers wait long in their RECEIVE: the request wakes a
 * waiting reader instead of waiting for its {@code WaitTimeout}.
 */
class RedeliverDeadLetterTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aRedeliveryWakesAWaitingReaderAndReturnsAtOnce(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            AtomicBoolean refusing = new AtomicBoolean(true);
            List<String> done = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = refusingWhile(refusing, done);
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxDeliveryAttempts(1);
            spec.setMaxReaders(2);
            spec.setWaitTimeout(20_000L);
            h.activate(BrokerMessageListener.class, bean, true, spec);
            EndpointActivation a = Jmx.onlyActivation(h);
            ActivationMXBean mx = Jmx.proxy(a);
            h.send("poison");
            await(() -> mx.getDeadLettered() == 1 && mx.getRolledBack() == 1, "dead-lettered");
            refusing.set(false);
            long id = mx.listDeadLetters(1).get(0).getId();
            // both readers are back in a 20 s WAITFOR on the empty queue
            await(() -> mx.getActiveReaders() == 0 && mx.getQueueDepth() == 0, "idle");

            long start = System.nanoTime();
            boolean delivered = mx.redeliverDeadLetter(id);
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

            assertTrue(delivered, "the bean processed it");
            assertEquals(List.of("poison"), done);
            assertTrue(tookMillis < 2_000, "redeliverDeadLetter took " + tookMillis + " ms with WaitTimeout 20000");
            assertTrue(mx.listDeadLetters(10).isEmpty());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void deadLettersAreRedeliveredByTypeAndPurgedByAge(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            AtomicBoolean refusing = new AtomicBoolean(true);
            List<String> done = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = refusingWhile(refusing, done);
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxDeliveryAttempts(1);
            h.activate(BrokerMessageListener.class, bean, true, spec);
            ActivationMXBean mx = Jmx.proxy(Jmx.onlyActivation(h));
            h.send("a", "b", "c");
            await(() -> mx.getDeadLettered() == 3, "three dead letters");
            refusing.set(false);

            assertEquals(0, mx.redeliverDeadLetters("NoSuchType", 10), "none of that type");
            assertEquals(2, mx.redeliverDeadLetters(InboundHarness.REQUEST, 2), "two of the request type");
            assertEquals(List.of("a", "b"), done, "oldest first");
            assertEquals(0, mx.purgeDeadLettersOlderThan(60), "the third is younger than an hour");
            assertEquals(1, mx.listDeadLetters(10).size());
            assertEquals(1, mx.purgeDeadLettersOlderThan(0));
            assertTrue(mx.listDeadLetters(10).isEmpty());
        }
    }

    /** @return a bean that throws while {@code refusing} is set, and records the bodies it takes afterwards */
    private static BrokerMessageListener refusingWhile(AtomicBoolean refusing, List<String> done) {
        return m -> {
            if (refusing.get()) {
                throw new IllegalStateException("refused");
            }
            done.add(m.bodyAsText());
        };
    }
}
