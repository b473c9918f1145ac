package org.ssbjca.inbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.DeadLetter;
import org.ssbjca.fakes.FakeEndpointFactory;
import org.ssbjca.fakes.LogRecords;

/** Poison messages, live settings, pause, priorities, redelivery and receive-commits-first, against fakes. */
class InboundFeaturesTest {

    @Test
    void aPoisonMessageIsDeadLetteredAfterMaxAttemptsWhileOthersFlow() throws Exception {
        try (InboundHarness h = new InboundHarness(); LogRecords log = LogRecords.of(BatchSorter.class)) {
            AtomicInteger poisonAttempts = new AtomicInteger();
            List<String> done = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                if (m.bodyAsText().equals("poison")) {
                    poisonAttempts.incrementAndGet();
                    throw new IllegalStateException("cannot process poison");
                }
                done.add(m.bodyAsText());
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxDeliveryAttempts("3");
            spec.setMaxReaders("2");
            FakeEndpointFactory f = h.activate(BrokerMessageListener.class, bean, true, spec);

            Conversation poison = h.send("poison");
            for (int i = 0; i < 20; i++) {
                h.send("ok " + i);
            }

            await().until(() -> done.size() == 20 && deadLetters(h).size() == 1);
            // the WARN names the conversation as its sender knows it (its id), not only this side's handle
            List<String> warned = log.messages(Level.WARNING, "SSBJCA0042");
            assertEquals(1, warned.size(), warned.toString());
            assertTrue(warned.get(0).contains("conversation " + poison.conversationId()), warned.get(0));
            // the bean saw the 20th message before its delivery committed and was counted
            EndpointActivation counted = h.ra.activations().get(0);
            await().until(() -> counted.metrics().delivered() == 20 && h.depth(InboundHarness.TARGET_QUEUE) == 0);
            assertEquals(3, poisonAttempts.get(), "three failed deliveries, then no more");
            DeadLetter d = deadLetters(h).get(0);
            assertEquals("poison", d.message().bodyAsText());
            assertEquals(3, d.attempts());
            assertTrue(d.lastError().contains("cannot process poison"), d.lastError());
            assertEquals(0, h.depth(InboundHarness.TARGET_QUEUE));
            EndpointActivation a = h.ra.activations().get(0);
            await().until(() -> a.metrics().delivered() == 20 && a.metrics().deadLettered() == 1);
            assertEquals(3, a.metrics().rolledBack());
            assertEquals(20, a.metrics().delivered());
            assertEquals(0, f.pairingErrors.get());
        }
    }

    /**
     * {@code deadLetter=TABLE_AND_END_CONVERSATION} (docs/reference/activation-properties.md): the dead letter goes to
     * the table and the conversation is ended with an error, which the other side receives (code 500, the message
     * named).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aDeadLetterCanAlsoEndItsConversationWithAnError(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxDeliveryAttempts("2");
            spec.setDeadLetter("TABLE_AND_END_CONVERSATION");
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> {
                throw new IllegalStateException("cannot process " + m.bodyAsText());
            }, true, spec);

            h.send("poison");
            await().until(() -> deadLetters(h).size() == 1);

            assertEquals("poison", deadLetters(h).get(0).message().bodyAsText());
            List<BrokerMessage> back = new CopyOnWriteArrayList<>();
            await().until(() -> back.addAll(h.tx(s -> s.receive(ReceiveRequest.from(InboundHarness.INITIATOR_QUEUE)
                    .top(10)))) && !back.isEmpty());
            assertEquals(1, back.size(), back.toString());
            BrokerMessage error = back.get(0);
            assertTrue(error.isError(), error.messageTypeName());
            assertEquals(500, error.errorCode());
            assertTrue(error.errorDescription().contains("dead-lettered"), error.errorDescription());
            assertEquals(0, h.depth(InboundHarness.TARGET_QUEUE));
        }
    }

    /**
     * {@code handleSystemMessages=DELIVER} (docs/reference/activation-properties.md): the bean gets the other side's
     * Error and reads its code and description; the adapter neither ends this side nor counts it in {@code
     * ErrorsReceived} (that is {@code END}'s).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void withDeliverTheBeanReadsTheOtherSidesError(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            List<BrokerMessage> got = new CopyOnWriteArrayList<>();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setHandleSystemMessages("DELIVER");
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) got::add, true, spec);

            h.tx(s -> {
                Conversation c = s.beginDialog(InboundHarness.INITIATOR, InboundHarness.TARGET,
                        InboundHarness.CONTRACT, DialogOptions.defaults());
                s.send(c.handle(), InboundHarness.REQUEST, bytes("the request"));
                s.endConversation(c.handle(), 42, "the initiator gave up");
                return c;
            });
            await().until(() -> got.size() == 2);

            assertEquals("the request", got.get(0).bodyAsText());
            BrokerMessage error = got.get(1);
            assertTrue(error.isError(), error.messageTypeName());
            assertEquals(42, error.errorCode());
            assertEquals("the initiator gave up", error.errorDescription());
            EndpointActivation a = h.ra.activations().get(0);
            await().until(() -> a.metrics().delivered() == 2);
            assertEquals(0, a.metrics().errorsReceived(), "counted only when the adapter handles it (END)");
        }
    }

    /**
     * A message delivered again whose bean then marks the transaction rollback-only: the failure is counted like a
     * thrown exception. (The adapter used to clear the message's failure count inside the doomed delivery
     * transaction and then update the same row on its bookkeeping connection: the bookkeeping waited on its own
     * delivery's lock, until H2's lock timeout here, and forever on PostgreSQL.)
     */
    @Test
    void aRetriedMessageMarkedRollbackOnlyIsCountedAndDeadLettered() throws Exception {
        // a lock wait would last H2's 30 s lock timeout: the bound below is a third of it
        try (InboundHarness h = new InboundHarness("jdbc:h2:mem:inbound-" + java.util.UUID.randomUUID()
                + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=30000")) {
            AtomicInteger calls = new AtomicInteger();
            BrokerMessageListener bean = m -> {
                if (calls.incrementAndGet() == 1) {
                    throw new IllegalStateException("first attempt throws");
                }
                FakeEndpointFactory.setRollbackOnly();
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxDeliveryAttempts("2");
            FakeEndpointFactory f = h.activate(BrokerMessageListener.class, bean, true, spec);
            long start = System.nanoTime();

            h.send("rollback-only on retry");

            await().until(() -> deadLetters(h).size() == 1);
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(2, calls.get(), "thrown, then rollback-only: two failed deliveries, then dead-lettered");
            assertEquals(2, deadLetters(h).get(0).attempts());
            assertTrue(tookMillis < 10_000, "no lock wait between the delivery and its bookkeeping: " + tookMillis
                    + " ms");
            EndpointActivation a = h.ra.activations().get(0);
            assertEquals(0, a.metrics().delivered(), "a rolled-back delivery is not counted as delivered");
            assertEquals(2, f.rollbacks.get());
            assertEquals(0, f.pairingErrors.get());
        }
    }

    @Test
    void aDeadLetterCanBeDeliveredAgain() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            AtomicInteger calls = new AtomicInteger();
            List<String> done = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                if (calls.incrementAndGet() <= 2) {
                    throw new IllegalStateException("not yet");
                }
                done.add(m.bodyAsText());
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxDeliveryAttempts("2");
            h.activate(BrokerMessageListener.class, bean, true, spec);
            h.send("second chance");
            await().until(() -> deadLetters(h).size() == 1);

            EndpointActivation a = h.ra.activations().get(0);
            assertTrue(a.redeliver(deadLetters(h).get(0).id()).get(20, TimeUnit.SECONDS));

            assertEquals(List.of("second chance"), done);
            assertTrue(deadLetters(h).isEmpty(), "taken out of the dead-letter table");
        }
    }

    @Test
    void aNonTransactedBeanThatFailsARedeliveryKeepsTheDeadLetter() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            AtomicBoolean failing = new AtomicBoolean(true);
            List<String> done = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                if (failing.get() && m.bodyAsText().equals("second chance")) {
                    throw new IllegalStateException("not yet");
                }
                done.add(m.bodyAsText());
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxDeliveryAttempts("2");
            h.activate(BrokerMessageListener.class, bean, false, spec);
            h.send("second chance");
            await().until(() -> deadLetters(h).size() == 1);
            long id = deadLetters(h).get(0).id();
            EndpointActivation a = h.ra.activations().get(0);

            assertFalse(a.redeliver(id).get(20, TimeUnit.SECONDS), "the bean failed again");
            h.send("later");
            await().until(() -> done.contains("later"));
            assertEquals(1, deadLetters(h).size(), "the failed redelivery left the letter where it was");

            failing.set(false);
            assertTrue(a.redeliver(id).get(20, TimeUnit.SECONDS));
            assertEquals(List.of("later", "second chance"), done);
            assertTrue(deadLetters(h).isEmpty(), "taken out of the dead-letter table");
        }
    }

    @Test
    void pausedReadersDeliverNothingUntilResumed() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            List<String> done = new CopyOnWriteArrayList<>();
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> done.add(m.bodyAsText()), true,
                    h.spec());
            EndpointActivation a = h.ra.activations().get(0);
            a.pause();
            await().until(() -> a.parkedReaders() == a.readerCount());
            h.send("wait for it");
            Awaitility.await("paused: nothing delivered for a second").during(Duration.ofSeconds(1))
                    .atMost(Duration.ofSeconds(30)).until(done::isEmpty);
            assertEquals(1, h.depth(InboundHarness.TARGET_QUEUE));

            a.resume();
            await().until(() -> done.size() == 1);
        }
    }

    @Test
    void raisingMaxReadersRaisesConcurrency() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            HeldBean bean = new HeldBean();
            h.activate(BrokerMessageListener.class, bean, true, h.spec());
            for (int i = 0; i < 4; i++) {
                h.send("slow " + i);
            }
            await().until(() -> bean.concurrent.get() == 1);
            Awaitility.await("one reader: one delivery at a time").during(Duration.ofMillis(300))
                    .atMost(Duration.ofSeconds(30)).until(() -> bean.peak.get() == 1);

            EndpointActivation a = h.ra.activations().get(0);
            a.setMaxReaders(4);
            await().until(() -> bean.concurrent.get() == 4);
            assertEquals(4, a.readerCount());
            bean.release();
            await().until(() -> h.depth(InboundHarness.TARGET_QUEUE) == 0);
            a.setMaxReaders(2);
            assertEquals(2, a.readerCount());
        }
    }

    @Test
    void priorityRequestsInTheQueueReorderTheGroups() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            List<Integer> order = new CopyOnWriteArrayList<>();
            CountDownLatch firstStarted = new CountDownLatch(1);
            CountDownLatch allSent = new CountDownLatch(1);
            BrokerMessageListener bean = m -> {
                int n = Integer.parseInt(m.bodyAsText());
                if (order.isEmpty()) {
                    firstStarted.countDown();
                    try {
                        allSent.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                order.add(n);
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setPriorityMessageType(InboundHarness.SET_PRIORITY);
            h.activate(BrokerMessageListener.class, bean, true, spec);

            for (int i = 0; i < 30; i++) {
                int n = i;
                h.tx(s -> {
                    Conversation c = s.beginDialog(InboundHarness.INITIATOR, InboundHarness.TARGET,
                            InboundHarness.CONTRACT, DialogOptions.defaults());
                    s.send(c.handle(), InboundHarness.REQUEST, bytes(String.valueOf(n)));
                    if (n % 10 == 0) {
                        s.send(c.handle(), InboundHarness.SET_PRIORITY, bytes("<priority>" + n + "</priority>"));
                    }
                    return c;
                });
                if (i == 0) {
                    assertTrue(firstStarted.await(10, TimeUnit.SECONDS));
                }
            }
            allSent.countDown();

            await().until(() -> order.size() == 30);
            // the bean saw the last message before its delivery committed
            await().until(() -> h.depth(InboundHarness.TARGET_QUEUE) == 0);
            List<Integer> expected = new ArrayList<>(List.of(0, 20, 10));
            for (int i = 1; i < 30; i++) {
                if (i % 10 != 0) {
                    expected.add(i);
                }
            }
            assertEquals(expected, order, "0 was in work; then 20, 10 by priority; then the rest in arrival order");
            assertEquals(0, h.depth(InboundHarness.TARGET_QUEUE), "the priority requests were consumed");
            assertTrue(h.query(a -> a.endpointCount()) >= 0);
        }
    }

    /**
     * {@code priorityEnabled=false} turns priorities off altogether: groups are taken in turn, and priority requests are
     * no longer looked for, so they reach the bean as the messages they are (docs/reference/activation-properties.md).
     */
    @Test
    void withPrioritiesOffAPriorityRequestIsDeliveredAsAMessage() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            List<String> got = new CopyOnWriteArrayList<>();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setPriorityMessageType(InboundHarness.SET_PRIORITY);
            spec.setPriorityEnabled("false");
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> got.add(m.messageTypeName() + " "
                    + m.bodyAsText()), true, spec);
            h.tx(s -> {
                Conversation c = s.beginDialog(InboundHarness.INITIATOR, InboundHarness.TARGET,
                        InboundHarness.CONTRACT, DialogOptions.defaults());
                s.send(c.handle(), InboundHarness.SET_PRIORITY, bytes("<priority>9</priority>"));
                s.send(c.handle(), InboundHarness.REQUEST, bytes("after it"));
                return c;
            });

            await().until(() -> got.size() == 2);
            assertEquals(List.of(InboundHarness.SET_PRIORITY + " <priority>9</priority>",
                    InboundHarness.REQUEST + " after it"), got);
            assertEquals(0, h.ra.activations().get(0).metrics().priorityRequestsRejected());
        }
    }

    @Test
    void receiveCommitsFirstLetsReadersWorkInParallelOnOneConversation() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            AtomicInteger concurrent = new AtomicInteger();
            AtomicInteger peak = new AtomicInteger();
            Set<String> done = ConcurrentHashMap.newKeySet();
            BrokerMessageListener bean = m -> {
                peak.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
                try {
                    Thread.sleep(300);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                concurrent.decrementAndGet();
                done.add(m.bodyAsText());
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setCommitBeforeDelivery("true");
            spec.setMaxReaders("3");
            h.activate(BrokerMessageListener.class, bean, true, spec);

            h.send("a", "b", "c");

            await().until(() -> done.size() == 3);
            assertEquals(3, peak.get(), "the three messages of one conversation ran at the same time");
        }
    }

    static List<DeadLetter> deadLetters(InboundHarness h) {
        return h.tx(s -> h.db.broker().ledger(s.connection()).deadLetters(InboundHarness.TARGET_QUEUE, 10));
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
