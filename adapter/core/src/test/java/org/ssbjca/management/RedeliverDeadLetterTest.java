package org.ssbjca.management;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.DeliveryLedger;
import org.ssbjca.inbound.EndpointActivation;
import org.ssbjca.inbound.InboundBackends;
import org.ssbjca.inbound.InboundHarness;
import org.ssbjca.inbound.ServiceBrokerActivationSpec;

/**
 * {@code redeliverDeadLetter} on an idle activation whose readers wait long in their RECEIVE: the request wakes a
 * waiting reader instead of waiting for its {@code WaitTimeout}.
 */
class RedeliverDeadLetterTest {

    /**
     * A redelivery asked of an activation that has stopped (an operator's JMX call racing an undeploy) is answered
     * at once, not delivered: no reader will take it, and its caller must not wait for one.
     */
    @Test
    void aRedeliveryAskedOfAStoppedActivationIsAnsweredAtOnce() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> { }, true, h.spec());
            EndpointActivation a = h.ra.activations().get(0);
            a.stop();

            assertEquals(Boolean.FALSE, a.redeliver(1).getNow(null));
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aRedeliveryWakesAWaitingReaderAndReturnsAtOnce(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            AtomicBoolean refusing = new AtomicBoolean(true);
            List<String> done = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = refusingWhile(refusing, done);
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxDeliveryAttempts("1");
            spec.setMaxReaders("2");
            spec.setWaitTimeout("20000");
            h.activate(BrokerMessageListener.class, bean, true, spec);
            EndpointActivation a = Jmx.onlyActivation(h);
            ActivationMXBean mx = Jmx.proxy(a);
            h.send("poison");
            await("dead-lettered").until(() -> mx.getDeadLettered() == 1 && mx.getRolledBack() == 1);
            refusing.set(false);
            long id = mx.listDeadLetters(1).get(0).getId();
            // both readers are back in a 20 s WAITFOR on the empty queue
            await("idle").until(() -> mx.getActiveReaders() == 0 && mx.getQueueDepth() == 0);

            long start = System.nanoTime();
            boolean delivered = mx.redeliverDeadLetter(id);
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

            assertTrue(delivered, "the bean processed it");
            assertEquals(List.of("poison"), done);
            // a third of the 20 s WAITFOR it must not wait for; a delivery and its commits fit many times over
            assertTrue(tookMillis < 6_000, "redeliverDeadLetter took " + tookMillis + " ms with WaitTimeout 20000");
            assertTrue(mx.listDeadLetters(10).isEmpty());
        }
    }

    /**
     * A redelivery is a success only when it committed, by the same rule as every delivery: a bean that returns but
     * dooms its transaction ({@code setRollbackOnly}) leaves the letter in the table, and the operator is told so.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aRedeliveryRolledBackIsNotReportedAsDelivered(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            AtomicBoolean refusing = new AtomicBoolean(true);
            BrokerMessageListener bean = m -> {
                if (refusing.get()) {
                    throw new IllegalStateException("refused");
                }
                org.ssbjca.fakes.FakeEndpointFactory.setRollbackOnly();
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxDeliveryAttempts("1");
            h.activate(BrokerMessageListener.class, bean, true, spec);
            ActivationMXBean mx = Jmx.proxy(Jmx.onlyActivation(h));
            h.send("poison");
            await("dead-lettered").until(() -> mx.getDeadLettered() == 1);
            refusing.set(false);
            long id = mx.listDeadLetters(1).get(0).getId();

            boolean delivered = mx.redeliverDeadLetter(id);

            assertEquals(1, mx.listDeadLetters(10).size(), "the rollback left the letter in the table");
            assertFalse(delivered, "reported as not delivered");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void deadLettersAreRedeliveredByTypeAndPurgedByAge(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            AtomicBoolean refusing = new AtomicBoolean(true);
            List<String> done = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = refusingWhile(refusing, done);
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxDeliveryAttempts("1");
            h.activate(BrokerMessageListener.class, bean, true, spec);
            ActivationMXBean mx = Jmx.proxy(Jmx.onlyActivation(h));
            h.send("a", "b", "c");
            await("three dead letters").until(() -> mx.getDeadLettered() == 3);
            refusing.set(false);

            assertEquals(0, mx.redeliverDeadLetters("NoSuchType", 10), "none of that type");
            assertEquals(2, mx.redeliverDeadLetters(InboundHarness.REQUEST, 2), "two of the request type");
            assertEquals(List.of("a", "b"), done, "oldest first");
            assertEquals(0, mx.purgeDeadLettersOlderThan(60), "the third is younger than an hour");
            assertEquals(1, mx.listDeadLetters(10).size());
            assertEquals(1, mx.purgeDeadLettersOlderThan(0));
            assertTrue(mx.listDeadLetters(10).isEmpty());
        }
    }

    /**
     * Five dead letters, oldest first r1, p1 (a SetPriority message), r2, r3, r4: the type filter takes only its type,
     * an empty type any, the oldest first and no more than max; a bean that fails on r3 stops the run there, with r2
     * delivered, and r3 and r4 left in the table (r4 never handed to the bean).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void redeliverDeadLettersTakesTheOldestOfTheTypeAndStopsAtTheFirstFailure(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            AtomicReference<String> refused = new AtomicReference<>("all");
            List<String> seen = new CopyOnWriteArrayList<>();
            List<String> done = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                String body = m.bodyAsText();
                seen.add(body);
                if (refused.get().equals("all") || refused.get().equals(body)) {
                    throw new IllegalStateException(body + " refused");
                }
                done.add(body);
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxDeliveryAttempts("1");
            spec.setPriorityMessageType(null); // SetPriority is a message type like any other here
            h.activate(BrokerMessageListener.class, bean, true, spec);
            ActivationMXBean mx = Jmx.proxy(Jmx.onlyActivation(h));
            h.tx(s -> {
                Conversation c = s.beginDialog(InboundHarness.INITIATOR, InboundHarness.TARGET,
                        InboundHarness.CONTRACT, DialogOptions.defaults());
                send(s, c, InboundHarness.REQUEST, "r1");
                send(s, c, InboundHarness.SET_PRIORITY, "<p1/>");
                for (String body : List.of("r2", "r3", "r4")) {
                    send(s, c, InboundHarness.REQUEST, body);
                }
                return c;
            });
            await("five dead letters").until(() -> mx.getDeadLettered() == 5);
            assertEquals(List.of("r1", "<p1/>", "r2", "r3", "r4"), deadLetterBodies(mx));
            refused.set("r3");

            assertEquals(1, mx.redeliverDeadLetters(InboundHarness.SET_PRIORITY, 10), "the only one of its type");
            assertEquals(List.of("<p1/>"), done);
            assertEquals(1, mx.redeliverDeadLetters("", 1), "any type, the oldest, one at most");
            assertEquals(List.of("<p1/>", "r1"), done);
            assertEquals(1, mx.redeliverDeadLetters(InboundHarness.REQUEST, 10), "r2, then r3 failed");

            assertEquals(List.of("<p1/>", "r1", "r2"), done);
            assertEquals(List.of("r3", "r4"), deadLetterBodies(mx), "the failed one and the one after it stay");
            assertEquals(List.of("r1", "<p1/>", "r2", "r3", "r4", "<p1/>", "r1", "r2", "r3"), seen,
                    "each once before it was dead-lettered, then p1, r1, r2 and r3 again; r4 not");
            assertEquals(4, mx.getRedelivered(), "the four dead letters handed to the bean again");
            await("DeadLetterCount (read at most every 5 s)").until(() -> mx.getDeadLetterCount() == 2);
        }
    }

    /**
     * More dead letters of another type than one listing holds (10000) come before the only one of the type asked
     * for: it is still found and delivered.
     */
    @Test
    void theTypeFilterLooksBeyondTheFirstTenThousandDeadLetters() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            List<String> done = new CopyOnWriteArrayList<>();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setPriorityMessageType(null);
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> done.add(m.bodyAsText()), true,
                    spec);
            ActivationMXBean mx = Jmx.proxy(Jmx.onlyActivation(h));
            ActivationMXBeanTest.pauseFully(mx);
            h.tx(s -> {
                Conversation c = s.beginDialog(InboundHarness.INITIATOR, InboundHarness.TARGET,
                        InboundHarness.CONTRACT, DialogOptions.defaults());
                send(s, c, InboundHarness.REQUEST, "r");
                send(s, c, InboundHarness.SET_PRIORITY, "<p/>");
                return c;
            });
            h.tx(s -> {
                List<BrokerMessage> both = s.receive(ReceiveRequest.from(InboundHarness.TARGET_QUEUE).top(2));
                DeliveryLedger ledger = h.db.broker().ledger(s.connection());
                for (int i = 0; i < 10_000; i++) {
                    ledger.deadLetter(InboundHarness.TARGET_QUEUE, both.get(0), 1, "test");
                }
                ledger.deadLetter(InboundHarness.TARGET_QUEUE, both.get(1), 1, "test");
                return null;
            });
            mx.resume();

            assertEquals(1, mx.redeliverDeadLetters(InboundHarness.SET_PRIORITY, 5), "the 10001st dead letter");

            assertEquals(List.of("<p/>"), done);
        }
    }

    private static void send(BrokerSession s, Conversation c, String type, String body) {
        s.send(c.handle(), type, body.getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> deadLetterBodies(ActivationMXBean mx) {
        return mx.listDeadLetters(100).stream().map(DeadLetterInfo::getBody).collect(Collectors.toList());
    }

    /** @return a bean that throws while {@code refusing} is set, and records the bodies it takes afterwards */
    private static BrokerMessageListener refusingWhile(AtomicBoolean refusing, List<String> done) {
        return m -> {
            if (refusing.get()) {
                throw new IllegalStateException("refused");
            }
            done.add(m.bodyAsText());
        };
    }
}
