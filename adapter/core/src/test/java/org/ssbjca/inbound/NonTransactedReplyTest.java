package org.ssbjca.inbound;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.fakes.FakeEndpointFactory;

/**
 * A bean whose listener method is not transacted ({@code NOT_SUPPORTED}) replies and ends the conversation it handles
 * through the outbound connection factory: its verbs run on the reader's session, in the delivery's local
 * transaction, instead of waiting on another connection for the locks the RECEIVE holds.
 */
class NonTransactedReplyTest {

    @Test
    void aNonTransactedBeanRepliesAndEndsOnTheReadersSession() throws Exception {
        // a lock wait would last H2's 30 s lock timeout: the bound below is a third of it
        try (InboundHarness h = new InboundHarness("jdbc:h2:mem:inbound-" + java.util.UUID.randomUUID()
                + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=30000")) {
            List<String> failures = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                try {
                    h.withBrokerConnection(broker -> {
                        broker.sendText(m.conversation(), InboundHarness.REQUEST, "echo: " + m.bodyAsText());
                        broker.endConversation(m.conversation());
                    });
                } catch (RuntimeException e) {
                    failures.add(e.getMessage());
                    throw e;
                }
            };
            ServiceBrokerActivationSpec spec = h.spec();
            FakeEndpointFactory f = h.activate(BrokerMessageListener.class, bean, false, spec);
            EndpointActivation a = h.ra.activations().get(0);
            long start = System.nanoTime();

            h.send("ping");

            await().atMost(Duration.ofSeconds(60)).until(() -> a.metrics().committed() + a.metrics().rolledBack() >= 1);
            long tookMillis = (System.nanoTime() - start) / 1_000_000;
            assertEquals(List.of(), failures, "the bean's verbs did not wait on the reader's locks");
            assertEquals(1, a.metrics().committed());
            assertEquals(0, a.metrics().rolledBack());
            assertTrue(tookMillis < 10_000, "no lock wait (H2's lock timeout is 30 s): " + tookMillis + " ms");
            List<BrokerMessage> back = h.tx(s -> s.receive(ReceiveRequest.from(InboundHarness.INITIATOR_QUEUE)
                    .top(10)));
            assertEquals(2, back.size(), "the reply and the EndDialog reached the initiator");
            assertEquals("echo: ping", new String(back.get(0).body(), UTF_8));
            assertTrue(back.get(1).isEndDialog());
            assertEquals(0, h.depth(InboundHarness.TARGET_QUEUE));
            assertEquals(0, f.pairingErrors.get());
        }
    }

    @Test
    void aNonTransactedBeansReplyRollsBackWithTheReceiveWhenItThrows() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
            BrokerMessageListener bean = m -> h.withBrokerConnection(broker -> {
                broker.sendText(m.conversation(), InboundHarness.REQUEST, "echo " + calls.incrementAndGet());
                if (calls.get() == 1) {
                    throw new IllegalStateException("the first attempt fails after replying");
                }
                broker.endConversation(m.conversation());
            });
            h.activate(BrokerMessageListener.class, bean, false, h.spec());
            EndpointActivation a = h.ra.activations().get(0);

            h.send("ping");

            await().atMost(Duration.ofSeconds(20)).until(() -> a.metrics().committed() == 1);
            assertEquals(1, a.metrics().rolledBack());
            List<BrokerMessage> back = h.tx(s -> s.receive(ReceiveRequest.from(InboundHarness.INITIATOR_QUEUE)
                    .top(10)));
            assertEquals(2, back.size(), "the failed attempt's reply rolled back with its RECEIVE");
            assertEquals("echo 2", new String(back.get(0).body(), UTF_8));
            assertTrue(back.get(1).isEndDialog());
        }
    }
}
