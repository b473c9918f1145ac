package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ssbjca.inbound.QueueReaderTest.await;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.fakes.FakeEndpointFactory;
import org.ssbjca.fakes.LogRecords;

/**
 * A transacted bean's RECEIVE waits inside the delivery's JTA transaction, whose timeout (WildFly's
 * {@code default-timeout}) the transaction manager passes to the reader's resource when it enlists it. A
 * {@code waitTimeout} over half that timeout is said once per activation at WARN ({@code SSBJCA0017}), with the
 * figures and the fix, and each wait is cut to half the timeout: an idle reader's turns commit instead of being rolled
 * back by the reaper turn after turn, and a message taken at the end of a wait leaves its delivery the other half.
 */
class WaitOverTransactionTimeoutTest {

    @Test
    void aWaitOverHalfTheTransactionTimeoutIsSaidOnceAndCut() throws Exception {
        try (InboundHarness h = new InboundHarness();
             LogRecords logs = LogRecords.of(XaDelivery.class)) {
            List<String> got = new CopyOnWriteArrayList<>();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders(2);
            spec.setWaitTimeout(1500L);
            FakeEndpointFactory factory = activate(h, spec, got, 1);

            // empty turns: each commits within the transaction's second only if its wait was cut to 500 ms
            await(() -> factory.commits.get() >= 4);
            h.send("after idle turns");
            await(() -> got.size() == 1);

            assertEquals(0, factory.rollbacks.get(), "no turn outlived its transaction");
            List<String> warnings = logs.messages(Level.WARNING, "SSBJCA0017");
            assertEquals(1, warnings.size(), "once for the activation's 2 readers: " + warnings);
            String warning = warnings.get(0);
            assertTrue(warning.contains("waitTimeout=1500 ms"), warning);
            assertTrue(warning.contains("transaction timeout of 1 s"), warning);
            assertTrue(warning.contains("at most 500 ms"), warning);
            assertTrue(warning.contains("default-timeout"), warning);
            assertTrue(warning.contains(factory.getEndpointClass().getSimpleName() + "@" + InboundHarness.TARGET_QUEUE),
                    warning);
        }
    }

    @Test
    void aWaitOfHalfTheTransactionTimeoutIsLeftAlone() throws Exception {
        try (InboundHarness h = new InboundHarness();
             LogRecords logs = LogRecords.of(XaDelivery.class)) {
            List<String> got = new CopyOnWriteArrayList<>();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders(2);
            spec.setWaitTimeout(500L);
            FakeEndpointFactory factory = activate(h, spec, got, 1);

            await(() -> factory.commits.get() >= 4);
            h.send("one");
            await(() -> got.size() == 1);

            assertEquals(0, factory.rollbacks.get());
            assertEquals(List.of(), logs.messages(Level.WARNING, "SSBJCA0017"));
        }
    }

    /**
     * With {@code commitBeforeDelivery} the RECEIVE runs in the reader's local transaction, before the container's
     * begins: the timeout the transaction manager gave the resource at an earlier delivery does not bound it.
     */
    @Test
    void aReceiveBeforeTheContainersTransactionIsNotBoundByItsTimeout() throws Exception {
        try (InboundHarness h = new InboundHarness();
             LogRecords logs = LogRecords.of(XaDelivery.class);
             LogRecords steps = LogRecords.of(DeliverySteps.class)) {
            List<String> got = new CopyOnWriteArrayList<>();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders(1);
            spec.setWaitTimeout(1500L);
            spec.setCommitBeforeDelivery(true);
            FakeEndpointFactory factory = activate(h, spec, got, 1);

            h.send("first");
            await(() -> got.size() == 1); // its delivery's transaction gave the reader's resource the timeout
            h.send("second"); // taken by a RECEIVE that began after that
            await(() -> got.size() == 2);

            assertEquals(0, factory.rollbacks.get());
            assertEquals(List.of(), logs.messages(Level.WARNING, "SSBJCA0017"));
            assertEquals(List.of(), steps.messages(Level.WARNING, "SSBJCA0017"));
        }
    }

    private static FakeEndpointFactory activate(InboundHarness h, ServiceBrokerActivationSpec spec, List<String> got,
            int transactionTimeoutSeconds) throws Exception {
        FakeEndpointFactory factory = new FakeEndpointFactory(BrokerMessageListener.class,
                (BrokerMessageListener) m -> got.add(m.bodyAsText()), true, h.context.transactions());
        factory.transactionTimeout(transactionTimeoutSeconds);
        h.ra.endpointActivation(factory, spec);
        return factory;
    }
}
