package org.ssbjca.inbound;

import static org.awaitility.Awaitility.await;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.Conversation;
import org.awaitility.Awaitility;

/**
 * commitBeforeDelivery sets aside what the bean must not see, as a transacted delivery does: EndDialog (the adapter
 * ends this side itself, handleSystemMessages = END) and priority requests.
 */
class ReceiveCommitsFirstTest {

    @Test
    void endDialogEndsThisSideWithoutReachingTheBean() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            List<String> seen = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> seen.add(m.messageTypeName() + ":" + m.bodyAsText());
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setCommitBeforeDelivery("true");
            h.activate(BrokerMessageListener.class, bean, true, spec);

            Conversation c = h.send("a");
            h.tx(s -> {
                s.endConversation(c.handle(), null, null);
                return null;
            });

            await().until(() -> h.query(a -> a.endpointCount()) == 0);
            assertEquals(List.of(InboundHarness.REQUEST + ":a"), seen, "the EndDialog never reached the bean");
            assertEquals(0, h.depth(InboundHarness.TARGET_QUEUE));
        }
    }

    @Test
    void priorityRequestsAreConsumedWithoutReachingTheBean() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            List<String> seen = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> seen.add(m.messageTypeName() + ":" + m.bodyAsText());
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setCommitBeforeDelivery("true");
            spec.setPriorityMessageType(InboundHarness.SET_PRIORITY);
            h.activate(BrokerMessageListener.class, bean, true, spec);

            h.tx(s -> {
                Conversation c = s.beginDialog(InboundHarness.INITIATOR, InboundHarness.TARGET,
                        InboundHarness.CONTRACT, org.ssbjca.api.DialogOptions.defaults());
                s.send(c.handle(), InboundHarness.REQUEST, "a".getBytes(UTF_8));
                s.send(c.handle(), InboundHarness.SET_PRIORITY, "<priority>7</priority>".getBytes(UTF_8));
                s.send(c.handle(), InboundHarness.REQUEST, "b".getBytes(UTF_8));
                return c;
            });

            await().until(() -> seen.size() == 2 && h.depth(InboundHarness.TARGET_QUEUE) == 0);
            assertEquals(List.of(InboundHarness.REQUEST + ":a", InboundHarness.REQUEST + ":b"), seen);
        }
    }

    /**
     * A non-transacted bean: the reader drops a drained group's priority in a transaction of its own, not in one
     * left open (auto-commit off after the RECEIVE's commit) until the reader's next turn, which holds the row lock
     * for a whole WAITFOR and loses the change if the reader stops.
     */
    @Test
    void aDrainedGroupsPriorityIsDroppedAtOnceWithANonTransactedBean() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            List<String> seen = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> seen.add(m.bodyAsText());
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setCommitBeforeDelivery("true");
            h.activate(BrokerMessageListener.class, bean, false, spec);
            EndpointActivation a = h.ra.activations().get(0);
            a.pause();
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> a.parkedReaders() == 1);
            a.setWaitTimeout(60_000L); // the reader's next turn waits long after the delivery
            h.send("a");
            UUID group = pendingGroup(h);
            h.tx(s -> {
                s.setPriority(group, 9);
                return null;
            });
            a.prioritised(group);
            assertEquals(Map.of(group, 9), priorities(h));

            a.resume();

            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> a.metrics().committed() == 1);
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> priorities(h).isEmpty());
            assertEquals(List.of("a"), seen);
        }
    }

    private static UUID pendingGroup(InboundHarness h) throws Exception {
        try (Connection c = h.db.source().open()) {
            return h.db.broker().ledger(c).pendingGroups(InboundHarness.TARGET_QUEUE, 10).get(0).groupId();
        }
    }

    private static Map<UUID, Integer> priorities(InboundHarness h) throws Exception {
        try (Connection c = h.db.source().open()) {
            return h.db.broker().ledger(c).priorities(InboundHarness.TARGET_QUEUE);
        }
    }

    /**
     * What the RECEIVE's transaction set aside is announced once it commits (here a rejected priority request's
     * notification): an Error from a JMX notification listener then comes after the commit, and the messages of the
     * batch, committed and not delivered, are lost and said so ({@code SSBJCA0041}), as with a failing bean.
     */
    @Test
    void anErrorAnnouncingWhatWasSetAsideLosesTheBatchAndSaysSo() throws Exception {
        try (InboundHarness h = new InboundHarness();
             org.ssbjca.fakes.LogRecords logs = org.ssbjca.fakes.LogRecords.of(ReceiveFirstDelivery.class)) {
            List<String> seen = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> seen.add(m.bodyAsText());
            ServiceBrokerActivationSpec spec = oneReaderCommittingFirst(h, 2);
            spec.setPriorityMessageType(InboundHarness.SET_PRIORITY);
            h.activate(BrokerMessageListener.class, bean, true, spec);
            EndpointActivation a = h.ra.activations().get(0);
            java.util.concurrent.atomic.AtomicInteger notified = new java.util.concurrent.atomic.AtomicInteger();
            a.setEvents(new ActivationEvents() {
                @Override
                public void deadLettered(String queue, org.ssbjca.api.BrokerMessage message, int attempts) {
                    notified.incrementAndGet();
                    throw new AssertionError("simulated: a notification listener's Error");
                }
            });

            h.tx(s -> {
                Conversation c = s.beginDialog(InboundHarness.INITIATOR, InboundHarness.TARGET,
                        InboundHarness.CONTRACT, org.ssbjca.api.DialogOptions.defaults());
                s.send(c.handle(), InboundHarness.SET_PRIORITY, "<priority>high</priority>".getBytes(UTF_8));
                s.send(c.handle(), InboundHarness.REQUEST, "a".getBytes(UTF_8));
                return c;
            });

            Awaitility.await("the loss logged").atMost(Duration.ofSeconds(30))
                    .until(() -> !logs.messages(java.util.logging.Level.WARNING, "SSBJCA0041").isEmpty());
            List<String> lost = logs.messages(java.util.logging.Level.WARNING, "SSBJCA0041");
            assertTrue(lost.get(0).contains(" 1 message(s)"), lost.get(0));
            assertEquals(List.of(), seen);
            assertEquals(1, notified.get(), "announced once, after the commit");
            assertEquals(0, h.depth(InboundHarness.TARGET_QUEUE), "committed before delivery");
        }
    }

    /**
     * With commitBeforeDelivery the batch is committed before the bean's calls; when the container fails one of
     * them ({@code beforeDelivery}), the messages not delivered are lost, and said so ({@code SSBJCA0041}), not
     * dropped in silence.
     */
    @Test
    void messagesLostWhenTheContainerFailsADeliveryAreLogged() throws Exception {
        try (InboundHarness h = new InboundHarness();
             org.ssbjca.fakes.LogRecords logs = org.ssbjca.fakes.LogRecords.of(ReceiveFirstDelivery.class)) {
            List<String> seen = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> seen.add(m.bodyAsText());
            ServiceBrokerActivationSpec spec = oneReaderCommittingFirst(h, 5);
            org.ssbjca.fakes.FakeEndpointFactory f = h.activate(BrokerMessageListener.class, bean, true, spec);
            f.failBeforeDelivery(2);

            h.send("a", "b", "c", "d", "e");

            Awaitility.await("the loss logged").atMost(Duration.ofSeconds(30))
                    .until(() -> !logs.messages(java.util.logging.Level.WARNING, "SSBJCA0041").isEmpty());
            assertEquals(List.of("a"), seen);
            List<String> lost = logs.messages(java.util.logging.Level.WARNING, "SSBJCA0041");
            assertEquals(1, lost.size(), lost.toString());
            assertTrue(lost.get(0).contains(" 4 message(s)"), lost.get(0));
            assertEquals(0, h.depth(InboundHarness.TARGET_QUEUE), "committed before delivery");
            assertEquals(0, f.pairingErrors.get());
        }
    }

    /** @return the harness's spec with commitBeforeDelivery, one reader and that batch size */
    private static ServiceBrokerActivationSpec oneReaderCommittingFirst(InboundHarness h, int batchSize)
            throws Exception {
        ServiceBrokerActivationSpec spec = h.spec();
        spec.setCommitBeforeDelivery("true");
        spec.setReceiveBatchSize(String.valueOf(batchSize));
        spec.setMaxReaders("1");
        return spec;
    }
}
