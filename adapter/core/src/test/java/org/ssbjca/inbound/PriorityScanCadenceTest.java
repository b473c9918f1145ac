package org.ssbjca.inbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;

/**
 * Priority scans run 250 ms apart unless messages arrive: while several readers drain a queue filled before they
 * started, one message per transaction, a reader that took a full batch hands the queue on to a waiting reader, and
 * that wake-up is not an arrival. (It was: every delivery's hand-off made a scan due 20 ms later, about 50 scans a
 * second in the benchmark's drains, each holding the other readers back until it committed.) Nor is a message a
 * transaction in this server committed: those are counted by type, and only a priority request makes a scan due (at
 * once); a scan 20 ms after every arrival put a scan before the RECEIVE of about every other message at 100 messages
 * a second, on the latency's path.
 */
class PriorityScanCadenceTest {

    private static final int CONVERSATIONS = 40;
    private static final int EACH = 40;
    private static final int SINGLE_MESSAGES = 60;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void messagesCommittedInThisServerDoNotMakeScansDueUnlessTheyArePriorityRequests(String backend)
            throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            AtomicInteger delivered = new AtomicInteger();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("4");
            spec.setPriorityMessageType(InboundHarness.SET_PRIORITY);
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) (BrokerMessage m) ->
                    delivered.incrementAndGet(), true, spec);
            PriorityScanner scanner = h.ra.activations().get(0).priorities();
            await().until(() -> scanner.scans() >= 1);
            long start = System.nanoTime();
            long before = scanner.scans();
            // one message at a time, each delivered before the next is sent: the messages of a steady, light load
            for (int i = 1; i <= SINGLE_MESSAGES; i++) {
                h.send("m" + i);
                int sent = i;
                await().until(() -> delivered.get() == sent);
            }
            long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            long scans = scanner.scans() - before;
            long most = 1 + elapsedMillis / 250 + 1;
            assertTrue(scans <= most, scans + " priority scans while " + SINGLE_MESSAGES + " messages were sent and"
                    + " delivered one by one in " + elapsedMillis + " ms; at most " + most + " expected");
            // (a priority request committed here still makes a scan due at once: PrioritiesWithSeveralReadersTest)
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void handingTheQueueOnBetweenReadersDoesNotMakeScansDue(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            h.tx(s -> {
                for (int i = 0; i < CONVERSATIONS; i++) {
                    Conversation c = s.beginDialog(InboundHarness.INITIATOR, InboundHarness.TARGET,
                            InboundHarness.CONTRACT, DialogOptions.defaults());
                    for (int m = 0; m < EACH; m++) {
                        s.send(c.handle(), InboundHarness.REQUEST, InboundFeaturesTest.bytes("m" + m));
                    }
                }
                return null;
            });
            AtomicInteger delivered = new AtomicInteger();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("4");
            spec.setReceiveBatchSize("1");
            spec.setPriorityMessageType(InboundHarness.SET_PRIORITY);
            long start = System.nanoTime();
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) (BrokerMessage m) ->
                    delivered.incrementAndGet(), true, spec);
            await().until(() -> h.depth(InboundHarness.TARGET_QUEUE) == 0);
            long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            PriorityScanner scanner = h.ra.activations().get(0).priorities();
            long scans = scanner.scans();
            assertEquals(CONVERSATIONS * EACH, delivered.get(), "every message delivered");
            // the first scan at once, then one every 250 ms at most; two more for notifications of the sends that
            // may reach the readers after they started
            long most = 1 + elapsedMillis / 250 + 2;
            assertTrue(scans <= most, scans + " priority scans while " + delivered.get() + " messages were drained in "
                    + elapsedMillis + " ms; at most " + most + " expected");
        }
    }
}
