package org.ssbjca.inbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.backend.QueueSignals;

/**
 * A reader that took a full batch wakes another reader once it committed, since its group may hold more; on
 * PostgreSQL not when its RECEIVE took the last messages waiting (the statement says so): at 100 messages a second,
 * one message per transaction, that wake-up sent a second reader to the database for every message, to find nothing.
 */
class HandOffTest {

    private static final int MESSAGES = 30;

    @Test
    void aReaderThatTookTheLastMessageWaitingWakesNoOtherOnPostgresql() throws Exception {
        try (InboundHarness h = InboundBackends.harness("PostgreSQL")) {
            AtomicInteger delivered = new AtomicInteger();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("4");
            spec.setReceiveBatchSize("1");
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) (BrokerMessage m) ->
                    delivered.incrementAndGet(), true, spec);
            QueueSignals signals = h.ra.activations().get(0).database().broker().signals();
            String queue = InboundHarness.TARGET_QUEUE;
            await().until(() -> signals.waiters(queue, true) == 4);
            long before = signals.generation(queue);
            // one message at a time on a conversation of its own, each delivered and every reader waiting again
            // before the next is sent
            for (int i = 1; i <= MESSAGES; i++) {
                h.tx(s -> {
                    Conversation c = s.beginDialog(InboundHarness.INITIATOR, InboundHarness.TARGET,
                            InboundHarness.CONTRACT, DialogOptions.defaults());
                    s.send(c.handle(), InboundHarness.REQUEST, InboundFeaturesTest.bytes("m"));
                    return null;
                });
                int sent = i;
                await().until(() -> delivered.get() == sent && signals.waiters(queue, true) == 4);
            }
            long signalled = signals.generation(queue) - before;
            assertEquals(MESSAGES, delivered.get());
            // each send's commit is one signal; a hand-off would be a second per message (one stray allowed: the
            // periodic repair's or a notification's)
            assertTrue(signalled <= MESSAGES + 1, signalled + " signals of the queue for " + MESSAGES
                    + " messages sent and delivered one by one: a hand-off after each delivery?");
        }
    }
}
