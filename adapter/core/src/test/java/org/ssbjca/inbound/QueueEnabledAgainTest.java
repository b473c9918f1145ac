package org.ssbjca.inbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * docs/guide/backends.md, "Disabling a queue": messages sent to a service whose queue an operator disabled with the
 * page's {@code UPDATE} wait in {@code ssb.transmission_queue}; once the same {@code UPDATE} enables the queue again
 * they are delivered, each once, in each conversation's order, without the test kit's {@code setQueueEnabled}: a reader
 * that found its queue disabled moves them as it finds it enabled again, within its backoff (here at most 500 ms), not
 * at the housekeeping's next repair pass (every 30 s, {@code TransmissionsTest}). A backlog of more than a page is
 * moved a page at a time: the reader moves the first and a background work the rest, while the readers deliver.
 */
class QueueEnabledAgainTest {

    private static final String DISABLE = "UPDATE ssb.service_queue SET is_receive_enabled = FALSE WHERE queue_name = '"
            + InboundHarness.TARGET_QUEUE + "'";
    private static final String ENABLE = "UPDATE ssb.service_queue SET is_receive_enabled = TRUE WHERE queue_name = '"
            + InboundHarness.TARGET_QUEUE + "'";
    /** How many messages a move takes in one transaction ({@code Transmissions.PAGE}). */
    private static final int PAGE = 200;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void messagesSentWhileTheQueueWasDisabledAreDeliveredOnceItIsEnabledAgain(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            List<String> got = new CopyOnWriteArrayList<>();
            h.activate(BrokerMessageListener.class,
                    (BrokerMessageListener) m -> got.add(m.conversationId() + " " + m.bodyAsText()), true,
                    h.spec());
            h.send("before");
            await().atMost(Duration.ofSeconds(30)).until(() -> got.size() == 1);

            EndpointActivation activation = h.ra.activations().get(0);

            h.execute(DISABLE);
            // the reader finds it so at its next look (its RECEIVE waits 500 ms), backs off and connects again
            await("the reader found the queue disabled").atMost(Duration.ofSeconds(30))
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
            await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(30)).until(() -> got.size() == 8);
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

    /**
     * A backlog of five pages: the reader that finds the queue enabled moves one page while it holds its activation's
     * reconnect gate and hands the rest to a background work of the container's work manager (held here until the
     * test releases it). The gate is free again, the readers deliver that page, and the rest waits for the work,
     * which then moves it page by page; every message arrives once, each conversation's in the order sent.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aBacklogOfSeveralPagesIsMovedPageByPageWhileTheReadersDeliver(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            List<String> got = new CopyOnWriteArrayList<>();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("2");
            h.activate(BrokerMessageListener.class,
                    (BrokerMessageListener) m -> got.add(m.conversationId() + " " + m.bodyAsText()), true, spec);
            h.send("before");
            await().atMost(Duration.ofSeconds(30)).until(() -> got.size() == 1);
            EndpointActivation activation = h.ra.activations().get(0);
            h.execute(DISABLE);
            await("the readers found the queue disabled").atMost(Duration.ofSeconds(30))
                    .until(() -> activation.metrics().queueDisabled());
            int backlog = 5 * PAGE;
            Map<String, List<String>> sent = new TreeMap<>();
            for (int i = 0; i < backlog / (PAGE / 2); i++) {
                List<String> bodies = new ArrayList<>();
                for (int j = 0; j < PAGE / 2; j++) {
                    bodies.add("c" + i + "." + j);
                }
                sent.put(h.send(bodies.toArray(String[]::new)).conversationId().toString(), bodies);
            }
            h.context.fakeWorkManager().hold(name -> name.contains("ssb.transmission_queue"));

            h.execute(ENABLE);

            await("the readers deliver the page the reader moved").atMost(Duration.ofSeconds(30))
                    .until(() -> got.size() >= 1 + PAGE);
            assertEquals((long) backlog - PAGE, (long) h.query(admin -> admin.transmissionQueueDepth()),
                    "the rest waits for the background work");
            assertEquals(1, h.context.fakeWorkManager().heldWorks().size(), "one background work");
            assertTrue(activation.reconnectGate().tryAcquire(), "the reconnect gate is free");
            activation.reconnectGate().release();

            h.context.fakeWorkManager().releaseHeld();

            await("the rest moved and delivered").atMost(Duration.ofSeconds(60)).until(() -> got.size() >= 1 + backlog);
            await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(30))
                    .until(() -> got.size() == 1 + backlog);
            assertEquals(0L, (long) h.query(admin -> admin.transmissionQueueDepth()));
            assertEquals(0, h.depth(InboundHarness.TARGET_QUEUE));
            Map<String, List<String>> byConversation = new TreeMap<>();
            for (String delivery : got.subList(1, got.size())) {
                String[] parts = delivery.split(" ");
                byConversation.computeIfAbsent(parts[0], k -> new ArrayList<>()).add(parts[1]);
            }
            assertEquals(sent, byConversation, "each conversation's messages once, in the order sent");
        }
    }
}
