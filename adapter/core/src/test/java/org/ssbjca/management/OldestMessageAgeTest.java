package org.ssbjca.management;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.inbound.InboundBackends;
import org.ssbjca.inbound.InboundHarness;

/**
 * {@code OldestMessageAgeSeconds} through the MBean: 0 while the queue is empty, the age of the queue's oldest
 * message while it waits (at most the time since it was sent: the database's clock and zone read as the JVM's), 0
 * again once it is delivered. Read at most every 5 s, so each value is awaited.
 */
class OldestMessageAgeTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void theOldestMessagesAgeIsZeroWhenEmptyAndGrowsWhileItWaits(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> { }, true, h.spec());
            ActivationMXBean mx = Jmx.proxy(Jmx.onlyActivation(h));
            ActivationMXBeanTest.pauseFully(mx);
            assertEquals(0, mx.getOldestMessageAgeSeconds(), "an empty queue");

            Instant sent = Instant.now();
            h.send("first");
            h.send("second");

            await("the oldest message two seconds old").until(() -> mx.getOldestMessageAgeSeconds() >= 2);
            long age = mx.getOldestMessageAgeSeconds();
            long since = Duration.between(sent, Instant.now()).getSeconds();
            assertTrue(age <= since + 1, "age " + age + " s, sent " + since + " s ago");
            assertEquals(2, mx.getPendingConversationGroupCount(), "read with it");

            mx.resume();
            await("0 again once delivered").until(() -> mx.getOldestMessageAgeSeconds() == 0
                    && mx.getPendingConversationGroupCount() == 0);
        }
    }
}
