package org.ssbjca.inbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.ssbjca.inbound.InboundFeaturesTest.bytes;
import static org.ssbjca.inbound.InboundFeaturesTest.deadLetters;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.backend.DeadLetter;

/**
 * Failed deliveries count across nodes: a message another node (here its ledger rows, written as that node's reader
 * writes them) failed {@code maxDeliveryAttempts} times is dead-lettered by this node's reader, which has just looked
 * at the queue and found no failed delivery, and has failed none itself.
 */
class FailuresOfAnotherNodeTest {

    private static final int MAX_DELIVERY_ATTEMPTS = 3;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aMessageAnotherNodeFailedMaxDeliveryAttemptsTimesIsDeadLetteredNotDelivered(String backend)
            throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            List<String> seen = new CopyOnWriteArrayList<>();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxDeliveryAttempts(String.valueOf(MAX_DELIVERY_ATTEMPTS));
            spec.setWaitTimeout("60000"); // the idle reader waits in its RECEIVE, and takes the message at once
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> seen.add(m.bodyAsText()), true,
                    spec);
            EndpointActivation a = h.ra.activations().get(0);
            // this node's reader sorts a batch: the queue has no failed delivery recorded, and it fails none
            h.send("first");
            await("the first delivery committed").until(() -> a.metrics().committed() == 1);

            // the other node failed the message maxDeliveryAttempts times: its counts are committed before its last
            // rollback puts the message back where a reader can take it (here, in the transaction that sends it)
            h.tx(s -> {
                Conversation c = s.beginDialog(InboundHarness.INITIATOR, InboundHarness.TARGET,
                        InboundHarness.CONTRACT, DialogOptions.defaults());
                s.send(c.handle(), InboundHarness.REQUEST, bytes("failed on the other node"));
                BrokerMessage queued = queued(s.connection());
                for (int attempt = 1; attempt <= MAX_DELIVERY_ATTEMPTS; attempt++) {
                    h.db.broker().ledger(s.connection()).recordFailure(InboundHarness.TARGET_QUEUE, queued,
                            "failed on the other node, attempt " + attempt);
                }
                return c;
            });

            await("the message dead-lettered or delivered")
                    .until(() -> !deadLetters(h).isEmpty() || seen.contains("failed on the other node"));
            assertEquals(List.of("first"), seen, "the bean never sees a message failed maxDeliveryAttempts times");
            DeadLetter d = deadLetters(h).get(0);
            assertEquals("failed on the other node", d.message().bodyAsText());
            assertEquals(MAX_DELIVERY_ATTEMPTS, d.attempts());
            assertEquals("failed on the other node, attempt 3", d.lastError());
            await("the dead letter counted").until(() -> a.metrics().deadLettered() == 1);
            assertEquals(0, h.depth(InboundHarness.TARGET_QUEUE));
        }
    }

    /**
     * One node, several readers, a bean that always fails, {@code maxDeliveryAttempts} 1: each message is delivered
     * once and dead-lettered by the next reader that takes it. On PostgreSQL a reader's RECEIVE reads the counts with
     * its statement's snapshot; a failure another reader of this activation commits while that statement runs, whose
     * rollback releases the group before the statement reaches it, is not among them, and the message was delivered a
     * second time. The reader then reads the counts again ({@code BatchSorter.prepare}).
     */
    @org.junit.jupiter.api.Test
    void severalReadersOfOneNodeDeliverAMessageNoMoreThanMaxDeliveryAttemptsTimes() throws Exception {
        int messages = 600;
        try (InboundHarness h = InboundBackends.harness("PostgreSQL")) {
            java.util.Map<String, java.util.concurrent.atomic.AtomicInteger> calls =
                    new java.util.concurrent.ConcurrentHashMap<>();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxDeliveryAttempts("1");
            spec.setMaxReaders("8");
            h.tx(s -> {
                for (int i = 0; i < messages; i++) {
                    Conversation c = s.beginDialog(InboundHarness.INITIATOR, InboundHarness.TARGET,
                            InboundHarness.CONTRACT, DialogOptions.defaults());
                    s.send(c.handle(), InboundHarness.REQUEST, bytes("m" + i));
                }
                return null;
            });
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> {
                calls.computeIfAbsent(m.bodyAsText(), k -> new java.util.concurrent.atomic.AtomicInteger())
                        .incrementAndGet();
                throw new IllegalStateException("always fails");
            }, true, spec);
            EndpointActivation a = h.ra.activations().get(0);
            Awaitility.await("every message dead-lettered").atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(100)).until(() -> a.metrics().deadLettered() == messages);
            List<String> twice = calls.entrySet().stream().filter(e -> e.getValue().get() > 1)
                    .map(java.util.Map.Entry::getKey).sorted().toList();
            assertEquals(messages, calls.size(), "every message delivered");
            assertEquals(List.of(), twice, "messages delivered more than maxDeliveryAttempts (1) times");
        }
    }

    /** @return the one message on the target queue, as far as the ledger keys it (handle, sequence number) */
    private static BrokerMessage queued(java.sql.Connection c) {
        try (PreparedStatement st = c.prepareStatement("SELECT conversation_handle, message_sequence_number"
                + " FROM ssb.message WHERE queue_name = ?")) {
            st.setString(1, InboundHarness.TARGET_QUEUE);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return BrokerMessage.builder().conversationHandle(rs.getObject(1, java.util.UUID.class))
                        .messageSequenceNumber(rs.getLong(2)).messageTypeName(InboundHarness.REQUEST).build();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

}
