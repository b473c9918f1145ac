package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ssbjca.api.BrokerMessageListener;

/**
 * A bean that ends the conversation of a message with recorded failed deliveries, then fails (issue 45, point 2):
 * the END deleted the message's attempt row in the delivery's transaction, and the failure is counted on the
 * reader's bookkeeping connection before the rollback. The count must neither wait for the delivery (which waits for
 * it: a hang on PostgreSQL, a lock timeout and a reader failure on H2) nor be lost.
 */
class EndedConversationFailureTest {

    @ParameterizedTest(name = "{0}, transacted {1}")
    @CsvSource({"H2, true", "H2, false", "PostgreSQL, true", "PostgreSQL, false"})
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aBeanThatEndsTheConversationThenFailsIsCountedWithoutWaitingOnItself(String backend, boolean transacted)
            throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend);
             org.ssbjca.fakes.LogRecords logs = org.ssbjca.fakes.LogRecords.of(DeliverySteps.class)) {
            List<Integer> attempts = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                attempts.add(m.deliveryAttempt());
                if (m.deliveryAttempt() == 2) {
                    // on the reader's session, in the delivery's transaction
                    h.withBrokerConnection(broker -> broker.endConversation(m.conversation()));
                }
                if (m.deliveryAttempt() < 3) {
                    throw new IllegalStateException("failing attempt " + m.deliveryAttempt());
                }
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("1");
            spec.setMaxDeliveryAttempts("5");
            h.activate(BrokerMessageListener.class, bean, transacted, spec);
            EndpointActivation a = h.ra.activations().get(0);

            h.send("m");

            Awaitility.await("the third attempt committed").atMost(Duration.ofSeconds(30))
                    .until(() -> a.metrics().committed() >= 1);
            assertEquals(List.of(1, 2, 3), attempts, "the failure after the END was counted");
            assertEquals(0, a.metrics().reconnects(), "no reader failed on a lock wait: " + a.metrics().lastError());
            assertEquals(2, a.metrics().rolledBack());
            assertEquals(0, h.depth(InboundHarness.TARGET_QUEUE));
            assertEquals(1, logs.messages(java.util.logging.Level.INFO, "SSBJCA0180").size(),
                    "the count of the second failure waited for the rollback");
        }
    }

    /**
     * The same through {@code deadLetter=TABLE_AND_END_CONVERSATION}: the reader dead-letters m1 at its last attempt
     * and ends its conversation, which forgets m2's recorded failure in the delivery's transaction; the bean then
     * fails on m2. That failure is counted once the delivery rolled back, so m2 reaches its last attempt and is
     * dead-lettered with both its failures.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"H2", "PostgreSQL"})
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aFailureAfterTheReaderEndedTheConversationOfADeadLetterIsCounted(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            java.util.Map<String, Integer> calls = new java.util.concurrent.ConcurrentHashMap<>();
            BrokerMessageListener bean = m -> {
                int call = calls.merge(m.bodyAsText(), 1, Integer::sum);
                // m2 fails every time; m1 passes its first call (m2 then fails after it), fails its next two
                if (m.bodyAsText().equals("m2") || call == 2 || call == 3) {
                    throw new IllegalStateException(m.bodyAsText() + " fails, call " + call);
                }
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("1");
            spec.setReceiveBatchSize("10");
            spec.setMaxDeliveryAttempts("2");
            spec.setDeadLetter(ServiceBrokerActivationSpec.DeadLetter.TABLE_AND_END_CONVERSATION.name());
            h.activate(BrokerMessageListener.class, bean, true, spec);
            EndpointActivation a = h.ra.activations().get(0);

            h.send("m1", "m2");

            Awaitility.await("both dead-lettered").atMost(Duration.ofSeconds(30))
                    .until(() -> a.metrics().deadLettered() >= 2);
            java.util.Map<String, Integer> attempts = new java.util.TreeMap<>();
            InboundFeaturesTest.deadLetters(h).forEach(d -> attempts.put(d.message().bodyAsText(), d.attempts()));
            assertEquals(java.util.Map.of("m1", 2, "m2", 2), attempts, "m2's failure after the END was counted");
            assertEquals(java.util.Map.of("m1", 3, "m2", 2), calls);
            assertEquals(0, a.metrics().reconnects(), "no reader failed on a lock wait: " + a.metrics().lastError());
        }
    }
}
