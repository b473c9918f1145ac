package org.ssbjca.management;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.ConversationGroupListener;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.inbound.InboundBackends;
import org.ssbjca.inbound.InboundHarness;
import org.ssbjca.inbound.ServiceBrokerActivationSpec;

/**
 * Each counter of the activation MBean against real deliveries, with the exact values its definition
 * (docs/reference/mxbeans.md, Management) gives.
 */
class ActivationCountersTest {

    /**
     * One reader, three attempts at most: "ok" is delivered once; "flaky" fails once, then is delivered; "poison"
     * fails three times, is dead-lettered by the fourth RECEIVE, and is then delivered by redeliverDeadLetter.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void everyCounterAfterRollbacksADeadLetterAndItsRedelivery(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            AtomicInteger flakyCalls = new AtomicInteger();
            AtomicBoolean refusingPoison = new AtomicBoolean(true);
            List<String> done = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                String body = m.bodyAsText();
                if (body.equals("flaky") && flakyCalls.incrementAndGet() == 1
                        || body.equals("poison") && refusingPoison.get()) {
                    throw new IllegalStateException(body + " refused");
                }
                done.add(body);
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxDeliveryAttempts("3");
            h.activate(BrokerMessageListener.class, bean, true, spec);
            ActivationMXBean mx = Jmx.proxy(Jmx.onlyActivation(h));

            h.send("ok");
            h.send("flaky");
            h.send("poison");
            await("poison dead-lettered, the rest delivered").until(() -> mx.getDeadLettered() == 1
                    && mx.getCommitted() == 3 && mx.getQueueDepth() == 0);
            refusingPoison.set(false);
            assertTrue(mx.redeliverDeadLetter(mx.listDeadLetters(1).get(0).getId()));

            assertEquals(List.of("ok", "flaky", "poison"), done);
            assertEquals(7, mx.getReceived(), "Received: ok once, flaky twice, poison four times (the fourth RECEIVE "
                    + "dead-letters it); a dead letter delivered again is not received from the queue");
            assertEquals(3, mx.getDelivered(), "Delivered: ok, flaky, and poison through redeliverDeadLetter");
            assertEquals(4, mx.getCommitted(), "Committed: ok, flaky, the transaction that dead-lettered poison, "
                    + "and the redelivery");
            assertEquals(4, mx.getRolledBack(), "RolledBack: flaky once, poison three times");
            assertEquals(4, mx.getRedelivered(), "Redelivered: flaky's second delivery, poison's second and third "
                    + "(rolled back too), and poison from the dead-letter table");
            assertEquals(1, mx.getDeadLettered(), "DeadLettered: poison");
        }
    }

    /** A conversation-group listener with RECEIVE TOP (5): one transaction, one commit, five messages. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void committedCountsTransactionsWhileDeliveredCountsMessages(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            List<Integer> batches = new CopyOnWriteArrayList<>();
            ConversationGroupListener bean = messages -> batches.add(messages.size());
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setReceiveBatchSize("5");
            h.activate(ConversationGroupListener.class, bean, true, spec);
            ActivationMXBean mx = Jmx.proxy(Jmx.onlyActivation(h));
            ActivationMXBeanTest.pauseFully(mx);

            h.send("1", "2", "3", "4", "5");
            mx.resume();

            await("one commit").until(() -> mx.getCommitted() == 1 && mx.getQueueDepth() == 0);
            assertEquals(List.of(5), batches);
            assertEquals(5, mx.getReceived());
            assertEquals(5, mx.getDelivered());
            assertEquals(1, mx.getCommitted(), "one transaction for the five messages");
            assertEquals(0, mx.getRolledBack());
            assertEquals(0, mx.getRedelivered());
            assertEquals(0, mx.getDeadLettered());
        }
    }

    /**
     * A conversation whose initiator sends a request and a priority request, then ends it: three messages received in
     * three transactions, all committed, one delivered (the priority request is consumed, the EndDialog ends this
     * side).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void messagesTheBeanNeverSeesAreReceivedAndCommittedButNotDelivered(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            List<String> done = new CopyOnWriteArrayList<>();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setPriorityMessageType(InboundHarness.SET_PRIORITY);
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> done.add(m.bodyAsText()), true,
                    spec);
            ActivationMXBean mx = Jmx.proxy(Jmx.onlyActivation(h));
            ActivationMXBeanTest.pauseFully(mx);

            h.tx(s -> {
                Conversation c = s.beginDialog(InboundHarness.INITIATOR, InboundHarness.TARGET,
                        InboundHarness.CONTRACT, DialogOptions.defaults());
                s.send(c.handle(), InboundHarness.REQUEST, "work".getBytes(StandardCharsets.UTF_8));
                s.send(c.handle(), InboundHarness.SET_PRIORITY,
                        "<priority>5</priority>".getBytes(StandardCharsets.UTF_8));
                s.endConversation(c.handle(), null, null);
                return c;
            });
            mx.resume();

            await("three commits").until(() -> mx.getCommitted() == 3 && mx.getQueueDepth() == 0);
            assertEquals(List.of("work"), done);
            assertEquals(3, mx.getReceived(), "the request, the priority request and the EndDialog");
            assertEquals(1, mx.getDelivered());
            assertEquals(3, mx.getCommitted(), "one transaction per RECEIVE, two of them with nothing delivered");
            assertEquals(0, mx.getRolledBack());
            assertEquals(0, mx.getRedelivered());
            assertEquals(0, mx.getDeadLettered());
        }
    }

    /** With commitBeforeDelivery each bean call counts: one RECEIVE of three messages, then three calls. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void withCommitBeforeDeliveryEachBeanCallIsCounted(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            List<String> done = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                if (m.bodyAsText().equals("fails")) {
                    throw new IllegalStateException("fails");
                }
                done.add(m.bodyAsText());
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setCommitBeforeDelivery("true");
            spec.setReceiveBatchSize("3");
            h.activate(BrokerMessageListener.class, bean, true, spec);
            ActivationMXBean mx = Jmx.proxy(Jmx.onlyActivation(h));
            ActivationMXBeanTest.pauseFully(mx);

            h.send("a", "fails", "c");
            mx.resume();

            await("three bean calls").until(() -> mx.getCommitted() + mx.getRolledBack() == 3);
            assertEquals(List.of("a", "c"), done);
            assertEquals(3, mx.getReceived(), "one RECEIVE of three");
            assertEquals(2, mx.getDelivered());
            assertEquals(2, mx.getCommitted(), "one per bean call that returned");
            assertEquals(1, mx.getRolledBack(), "the call that failed (its message is lost, not rolled back)");
            assertEquals(0, mx.getRedelivered());
            assertEquals(0, mx.getDeadLettered());
        }
    }

    /** A dead letter whose redelivery fails again: a rollback and a redelivery, nothing delivered. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aFailedRedeliveryOfADeadLetterCountsARollbackAndARedelivery(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            BrokerMessageListener bean = m -> {
                throw new IllegalStateException("always fails");
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxDeliveryAttempts("1");
            h.activate(BrokerMessageListener.class, bean, true, spec);
            ActivationMXBean mx = Jmx.proxy(Jmx.onlyActivation(h));

            h.send("x");
            await("dead-lettered").until(() -> mx.getDeadLettered() == 1);

            assertFalse(mx.redeliverDeadLetter(mx.listDeadLetters(1).get(0).getId()), "the bean failed again");

            assertEquals(2, mx.getReceived(), "the failed delivery, then the RECEIVE that dead-lettered it");
            assertEquals(0, mx.getDelivered());
            assertEquals(1, mx.getCommitted(), "the transaction that dead-lettered it");
            assertEquals(2, mx.getRolledBack(), "the first delivery and the redelivery");
            assertEquals(1, mx.getRedelivered(), "the dead letter handed to the bean again");
            assertEquals(1, mx.getDeadLettered());
            assertEquals(1, mx.listDeadLetters(10).size(), "still a dead letter");
        }
    }
}
