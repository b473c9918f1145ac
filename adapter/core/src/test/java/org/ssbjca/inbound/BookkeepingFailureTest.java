package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessageListener;

/**
 * A failure of the reader's own bookkeeping in the delivery's transaction (here the dead-letter insert, which the
 * database refuses) rolls the RECEIVE back: the message stays queued, and is set aside once the database lets it be.
 * On H2 a failed statement does not doom its transaction, so only the reader's vote stops the commit.
 */
class BookkeepingFailureTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aRefusedDeadLetterKeepsTheMessageQueued(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            List<String> calls = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                calls.add(m.bodyAsText());
                throw new IllegalStateException("poison");
            };
            ServiceBrokerActivationSpec spec = oneAttemptAndDeadLettersRefused(h);
            h.activate(BrokerMessageListener.class, bean, true, spec);
            EndpointActivation a = h.ra.activations().get(0);

            h.send("poison");

            // the failed delivery, then the dead-letter insert refused at every turn after it
            Awaitility.await("the dead-letter insert refused").atMost(WAIT)
                    .until(() -> namesTheRefusal(a));
            assertEquals(1, h.depth(InboundHarness.TARGET_QUEUE), "the message is still queued");
            assertEquals(0, a.metrics().deadLettered());

            h.execute("ALTER TABLE ssb.dead_letter DROP CONSTRAINT refused_by_the_test");

            Awaitility.await("dead-lettered once the database accepts it").atMost(WAIT)
                    .until(() -> a.metrics().deadLettered() == 1);
            assertEquals(0, h.depth(InboundHarness.TARGET_QUEUE));
            assertEquals(List.of("poison"), InboundFeaturesTest.deadLetters(h).stream()
                    .map(d -> d.message().bodyAsText()).toList());
            assertEquals(List.of("poison"), calls, "delivered once, then set aside");
            assertEquals(1, a.readerCount());
        }
    }

    /**
     * The turn's own failure is what the reader reports, also when ending the transaction then fails with an Error
     * (added to the turn's failure as suppressed): the refused dead letter, not the container's Error.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void theTurnsFailureIsReportedWhenEndingItFailsWithAnError(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            BrokerMessageListener bean = m -> {
                throw new IllegalStateException("poison");
            };
            ServiceBrokerActivationSpec spec = oneAttemptAndDeadLettersRefused(h);
            org.ssbjca.fakes.FakeEndpointFactory f = h.activate(BrokerMessageListener.class, bean, true, spec);
            EndpointActivation a = h.ra.activations().get(0);
            f.failAfterDelivery(new AssertionError("simulated: the container's completion failed"));

            h.send("poison");

            Awaitility.await("the refused dead letter reported").atMost(WAIT).until(
                    () -> namesTheRefusal(a));
            f.failAfterDelivery(null);
            assertEquals(1, h.depth(InboundHarness.TARGET_QUEUE), "the message is still queued");
        }
    }

    /**
     * The turn's own failure is what the reader reports, also when counting the failed delivery after its rollback
     * then fails too (added to the turn's failure as suppressed): the container's Error, not the refused count. In
     * both delivery modes.
     */
    @ParameterizedTest(name = "{0}, transacted {1}")
    @CsvSource({"H2, false", "H2, true", "PostgreSQL, false", "PostgreSQL, true"})
    void theTurnsFailureIsReportedWhenCountingItAfterwardsFails(String backend, boolean transacted) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            BrokerMessageListener bean = m -> {
                throw new IllegalStateException("poison");
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("1");
            h.execute("ALTER TABLE ssb.delivery_attempt ADD CONSTRAINT count_refused_by_the_test CHECK (queue_name <> '"
                    + InboundHarness.TARGET_QUEUE + "')");
            org.ssbjca.fakes.FakeEndpointFactory f = h.activate(BrokerMessageListener.class, bean, transacted, spec);
            EndpointActivation a = h.ra.activations().get(0);
            f.failAfterDelivery(new AssertionError("simulated: the container's completion failed"));

            h.send("poison");

            Awaitility.await("a reader failure reported").atMost(WAIT).until(() -> {
                String last = String.valueOf(a.metrics().lastError()).toLowerCase();
                return last.contains("simulated") || last.contains("count_refused_by_the_test");
            });
            f.failAfterDelivery(null);
            String last = String.valueOf(a.metrics().lastError());
            assertTrue(last.contains("simulated: the container's completion failed"), "reported: " + last);
        }
    }

    /** @return one reader, one attempt before the dead letter, and a database that refuses the dead-letter insert */
    private static ServiceBrokerActivationSpec oneAttemptAndDeadLettersRefused(InboundHarness h) throws Exception {
        ServiceBrokerActivationSpec spec = h.spec();
        spec.setMaxReaders("1");
        spec.setMaxDeliveryAttempts("1");
        h.execute("ALTER TABLE ssb.dead_letter ADD CONSTRAINT refused_by_the_test CHECK (queue_name <> '"
                + InboundHarness.TARGET_QUEUE + "')");
        return spec;
    }

    private static boolean namesTheRefusal(EndpointActivation a) {
        return String.valueOf(a.metrics().lastError()).toLowerCase().contains("refused_by_the_test");
    }
}
