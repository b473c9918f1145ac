package org.ssbjca.inbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.fakes.FakeEndpointFactory;
import org.ssbjca.fakes.FlightRecordings;
import org.ssbjca.fakes.LogRecords;
import org.ssbjca.support.ReceiveEvent;

/**
 * A transacted bean's RECEIVE waits inside the delivery's JTA transaction, whose timeout (WildFly's
 * {@code default-timeout}) the transaction manager passes to the reader's resource when it enlists it. A
 * {@code waitTimeout} over half that timeout is said once per activation at WARN ({@code SSBJCA0017}), with the
 * figures and the fix, and each wait is cut to half the timeout: an idle reader's turns commit instead of being rolled
 * back by the reaper turn after turn, and a message taken at the end of a wait leaves its delivery the other half.
 * The fake transaction manager's timeout is 3 s (2 s for the RECEIVE outside it), so that an empty turn, its wait cut
 * to 1.5 s, has another 1.5 s for the rest (the first turn's housekeeping) on a busy machine.
 */
class WaitOverTransactionTimeoutTest {

    @Test
    void aWaitOverHalfTheTransactionTimeoutIsSaidOnceAndCut() throws Exception {
        try (InboundHarness h = new InboundHarness();
             LogRecords logs = LogRecords.of(XaDelivery.class)) {
            List<String> got = new CopyOnWriteArrayList<>();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("2");
            spec.setWaitTimeout("4500");
            FakeEndpointFactory factory = activate(h, spec, got, 3);

            // empty turns: each commits within the transaction's 3 s only if its wait was cut to 1.5 s
            await().until(() -> factory.commits.get() >= 4);
            h.send("after idle turns");
            await().until(() -> got.size() == 1);

            assertEquals(0, factory.rollbacks.get(), "no turn outlived its transaction");
            List<String> warnings = logs.messages(Level.WARNING, "SSBJCA0017");
            assertEquals(1, warnings.size(), "once for the activation's 2 readers: " + warnings);
            String warning = warnings.get(0);
            assertTrue(warning.contains("waitTimeout=4500 ms"), warning);
            assertTrue(warning.contains("transaction timeout of 3 s"), warning);
            assertTrue(warning.contains("at most 1500 ms"), warning);
            assertTrue(warning.contains("raise default-timeout"), warning);
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
            spec.setMaxReaders("2");
            spec.setWaitTimeout("1500");
            FakeEndpointFactory factory = activate(h, spec, got, 3);

            await().until(() -> factory.commits.get() >= 4);
            h.send("one");
            await().until(() -> got.size() == 1);

            assertEquals(0, factory.rollbacks.get());
            assertEquals(List.of(), logs.messages(Level.WARNING, "SSBJCA0017"));
        }
    }

    /**
     * A {@code WaitTimeout} set over JMX into range, and later back to the figures said before, is said again: the
     * figures changed twice (as docs/guide/inbound-mdbs.md says), though the over-limit ones are those of the first
     * warning.
     */
    @Test
    void aWaitTimeoutSetBackOverTheLimitIsSaidAgain() throws Exception {
        try (InboundHarness h = new InboundHarness();
             LogRecords logs = LogRecords.of(XaDelivery.class)) {
            List<String> got = new CopyOnWriteArrayList<>();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("1");
            spec.setWaitTimeout("4500");
            FakeEndpointFactory factory = activate(h, spec, got, 3);
            EndpointActivation activation = h.ra.activations().get(0);
            await().until(() -> logs.messages(Level.WARNING, "SSBJCA0017").size() == 1);

            activation.setWaitTimeout(1000L); // in range
            int inRange = factory.commits.get();
            await().until(() -> factory.commits.get() >= inRange + 2); // a whole turn waited 1000 ms
            activation.setWaitTimeout(4500L); // the first warning's figures again
            int back = factory.commits.get();
            await().until(() -> factory.commits.get() >= back + 2); // a whole turn began with them

            List<String> warnings = logs.messages(Level.WARNING, "SSBJCA0017");
            assertEquals(2, warnings.size(), "at the start, and when set back over the limit: " + warnings);
            assertTrue(warnings.get(1).contains("waitTimeout=4500 ms"), warnings.get(1));
            assertEquals(0, factory.rollbacks.get(), "no turn outlived its transaction");
        }
    }

    /**
     * With {@code commitBeforeDelivery} the RECEIVE runs in the reader's local transaction, before the container's
     * begins: the timeout the transaction manager gave the resource at an earlier delivery does not bound it. The
     * reader's looks show it: waiting RECEIVEs look again only when the queue is signalled or their wait ends (a
     * fallback poll of 60 s), so while the queue is idle for 3 s one RECEIVE waits through it with one look, where
     * waits cut to half the 2 s timeout would each end empty and begin another RECEIVE, one look each.
     */
    @Test
    void aReceiveBeforeTheContainersTransactionIsNotBoundByItsTimeout() throws Exception {
        Instant idleFrom;
        Instant idleTo;
        List<RecordedEvent> events;
        try (InboundHarness h = InboundHarness.polling(60_000L);
             LogRecords logs = LogRecords.of(XaDelivery.class);
             Recording recording = new Recording()) {
            recording.enable(ReceiveEvent.NAME).withThreshold(Duration.ZERO);
            recording.start();
            List<String> got = new CopyOnWriteArrayList<>();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("1");
            spec.setWaitTimeout("8000");
            spec.setPriorityEnabled("false"); // no priority request looked for
            spec.setCommitBeforeDelivery("true");
            FakeEndpointFactory factory = activate(h, spec, got, 2);

            h.send("first");
            await().until(() -> got.size() == 1); // its delivery's transaction gave the reader's resource the timeout
            idleFrom = Instant.now();
            Thread.sleep(3_000); // the idle time under test: not a wait for a condition
            idleTo = Instant.now();
            h.send("second"); // taken by the RECEIVE that began after the first delivery, still waiting
            await().until(() -> got.size() == 2);
            recording.stop();
            events = FlightRecordings.events(recording);

            assertEquals(0, factory.rollbacks.get());
            assertEquals(List.of(), logs.messages(Level.WARNING, "SSBJCA0017"));
        }
        List<RecordedEvent> idleLooks = events.stream()
                .filter(e -> e.getEventType().getName().equals(ReceiveEvent.NAME))
                .filter(e -> InboundHarness.TARGET_QUEUE.equals(e.getString("queue")) && e.getInt("messages") == 0)
                .filter(e -> e.getStartTime().isAfter(idleFrom) && e.getStartTime().isBefore(idleTo))
                .toList();
        assertTrue(idleLooks.size() <= 1, "one RECEIVE waited through the idle 3 s, not waits of 1 s: "
                + idleLooks.size() + " empty looks began in it, at " + idleLooks.stream()
                        .map(e -> Duration.between(idleFrom, e.getStartTime()).toMillis() + " ms").toList());
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
