package org.ssbjca.inbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessageListener;

/**
 * README, "Disabling a queue" (PostgreSQL and H2): messages sent to a service whose queue an operator disabled with the
 * README's {@code UPDATE} wait in {@code ssb.transmission_queue}; once the same {@code UPDATE} enables the queue again
 * they are delivered, each once, in each conversation's order, without the test kit's {@code setQueueEnabled}: a
 * reader that found its queue disabled moves them as it finds it enabled again, within its backoff (here at most
 * 500 ms), not at the housekeeping's next repair pass (every 30 s, {@code TransmissionsTest}).
 */
class QueueEnabledAgainTest {

    private static final String DISABLE = "UPDATE ssb.service_queue SET is_receive_enabled = FALSE WHERE queue_name = '"
            + InboundHarness.TARGET_QUEUE + "'";
    private static final String ENABLE = "UPDATE ssb.service_queue SET is_receive_enabled = TRUE WHERE queue_name = '"
            + InboundHarness.TARGET_QUEUE + "'";

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void messagesSentWhileTheQueueWasDisabledAreDeliveredOnceItIsEnabledAgain(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            List<String> got = new CopyOnWriteArrayList<>();
            h.activate(BrokerMessageListener.class,
                    (BrokerMessageListener) m -> got.add(m.conversationId() + " " + m.bodyAsText()), true,
                    h.spec());
            h.send("before");
            await().atMost(Duration.ofSeconds(10)).until(() -> got.size() == 1);

            EndpointActivation activation = h.ra.activations().get(0);

            h.execute(DISABLE);
            // the reader finds it so at its next look (its RECEIVE waits 500 ms), backs off and connects again
            await("the reader found the queue disabled").atMost(Duration.ofSeconds(10))
                    .until(() -> activation.metrics().queueDisabled());
            String a = h.send("a1", "a2", "a3").conversationId().toString();
            String b = h.send("b1", "b2", "b3").conversationId().toString();
            String c = h.send("c1").conversationId().toString();
            assertEquals(7L, (long) h.query(admin -> admin.transmissionQueueDepth()),
                    "the SENDs wait in the transmission queue");
            assertEquals(0, h.depth(InboundHarness.TARGET_QUEUE));

            h.execute(ENABLE);

            await("delivered within the readers' backoff, not the 30 s repair pass").atMost(Duration.ofSeconds(10))
                    .until(() -> got.size() >= 8);
            // each once: no more arrive
            await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(5)).until(() -> got.size() == 8);
            assertEquals(0L, (long) h.query(admin -> admin.transmissionQueueDepth()),
                    "the transmission queue is empty");
            assertEquals(0, h.depth(InboundHarness.TARGET_QUEUE));
            Map<String, List<String>> byConversation = new TreeMap<>();
            for (String delivery : got.subList(1, got.size())) {
                String[] parts = delivery.split(" ");
                byConversation.computeIfAbsent(parts[0], k -> new ArrayList<>()).add(parts[1]);
            }
            assertEquals(new TreeMap<>(Map.of(a, List.of("a1", "a2", "a3"), b, List.of("b1", "b2", "b3"),
                    c, List.of("c1"))), byConversation, "each conversation's messages once, in order");
        }
    }
}
