package org.ssbjca.management;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.inbound.InboundBackends;
import org.ssbjca.inbound.InboundHarness;
import org.ssbjca.inbound.ServiceBrokerActivationSpec;

/**
 * Activation properties, {@code maxDeliveryAttempts}: {@code message.deliveryAttempt()} is always 1 for a redelivered
 * dead letter.
 */
class DeadLetterAttemptTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aRedeliveredDeadLetterIsItsFirstAttempt(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            List<Integer> attempts = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                attempts.add(m.deliveryAttempt());
                if (attempts.size() <= 2) {
                    throw new IllegalStateException("failing attempt " + m.deliveryAttempt());
                }
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxDeliveryAttempts("2");
            h.activate(BrokerMessageListener.class, bean, true, spec);
            ActivationMXBean mx = Jmx.proxy(Jmx.onlyActivation(h));
            h.send("poison");
            await("dead-lettered after two attempts").until(() -> mx.getDeadLettered() == 1);

            assertTrue(mx.redeliverDeadLetter(mx.listDeadLetters(1).get(0).getId()), "the bean processed it");
            assertEquals(List.of(1, 2, 1), attempts);
        }
    }
}
