package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessageListener;

/**
 * {@code BrokerMessage.deliveryAttempt()} (issue 12): 1 on the first delivery, n after n - 1 rolled-back deliveries of
 * the same message, and {@code maxDeliveryAttempts} on the last one before the message is dead-lettered.
 */
class DeliveryAttemptTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void eachDeliveryOfAMessageCarriesItsAttemptNumber(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            Map<String, List<Integer>> attempts = new ConcurrentHashMap<>();
            BrokerMessageListener bean = m -> {
                List<Integer> seen = attempts.computeIfAbsent(m.bodyAsText(), k -> new CopyOnWriteArrayList<>());
                seen.add(m.deliveryAttempt());
                boolean fails = m.bodyAsText().equals("poison") || seen.size() < 3 && m.bodyAsText().equals("twice");
                if (fails) {
                    throw new IllegalStateException("failing attempt " + m.deliveryAttempt());
                }
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxDeliveryAttempts("4");
            h.activate(BrokerMessageListener.class, bean, true, spec);
            h.send("once");
            h.send("twice");
            h.send("poison");
            Awaitility.await("poison dead-lettered, the others delivered").atMost(Duration.ofSeconds(60))
                    .until(() -> h.depth(InboundHarness.TARGET_QUEUE) == 0 && attempts.getOrDefault("twice",
                            List.of()).size() == 3);
            assertEquals(List.of(1), attempts.get("once"));
            assertEquals(List.of(1, 2, 3), attempts.get("twice"), "two failures, then the third attempt");
            assertEquals(List.of(1, 2, 3, 4), attempts.get("poison"),
                    "maxDeliveryAttempts is the number of the last attempt before the dead letter");
        }
    }

    /**
     * A per-message bean given a batch stops at the message that failed: only that message and those before it were
     * delivered, so only theirs count as failed deliveries; the ones after it are not dead-lettered unseen.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void onlyTheMessagesTheBeanSawCountAsFailedDeliveries(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            List<String> calls = new CopyOnWriteArrayList<>();
            List<String> done = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                calls.add(m.bodyAsText() + "#" + m.deliveryAttempt());
                if (m.bodyAsText().equals("poison")) {
                    throw new IllegalStateException("poison");
                }
                done.add(m.bodyAsText());
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("1");
            spec.setReceiveBatchSize("3");
            spec.setMaxDeliveryAttempts("2");
            h.activate(BrokerMessageListener.class, bean, true, spec);
            EndpointActivation a = h.ra.activations().get(0);

            h.send("poison", "after 1", "after 2");

            Awaitility.await("the poison dead-lettered, the others delivered").atMost(Duration.ofSeconds(60))
                    .until(() -> h.depth(InboundHarness.TARGET_QUEUE) == 0 && a.metrics().deadLettered() >= 1);
            assertEquals(List.of("poison"), InboundFeaturesTest.deadLetters(h).stream()
                    .map(d -> d.message().bodyAsText()).toList());
            assertEquals(List.of("after 1", "after 2"), done);
            assertEquals(List.of("poison#1", "poison#2", "after 1#1", "after 2#1"), calls,
                    "the messages after the poison were never delivered before, so this is their first attempt");
        }
    }

    /**
     * A per-message bean that throws on one message of a batch fails that message only: the messages before it were
     * handled (and rolled back with it), those after it were not delivered, so neither counts a failed delivery. The
     * batch comes back whole while the poison message is in it; once the poison message reaches
     * {@code maxDeliveryAttempts} it alone is dead-lettered, and the other nine are delivered in one committed
     * transaction, each still at its first attempt.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aPoisonMessageInABatchIsDeadLetteredAloneAndTheOthersAreDelivered(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend);
             org.ssbjca.fakes.LogRecords logs = org.ssbjca.fakes.LogRecords.of(BatchSorter.class)) {
            Map<String, List<Integer>> calls = new ConcurrentHashMap<>();
            BrokerMessageListener bean = m -> {
                calls.computeIfAbsent(m.bodyAsText(), k -> new CopyOnWriteArrayList<>()).add(m.deliveryAttempt());
                if (m.bodyAsText().equals("m5")) {
                    throw new IllegalStateException("poison, attempt " + m.deliveryAttempt());
                }
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("1");
            spec.setReceiveBatchSize("10");
            spec.setMaxDeliveryAttempts("3");
            h.activate(BrokerMessageListener.class, bean, true, spec);
            EndpointActivation a = h.ra.activations().get(0);

            h.send("m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9", "m10");

            Awaitility.await("the queue drained by a committed delivery").atMost(Duration.ofSeconds(60))
                    .until(() -> h.depth(InboundHarness.TARGET_QUEUE) == 0 && a.metrics().committed() >= 1);
            assertEquals(List.of("m5"), InboundFeaturesTest.deadLetters(h).stream()
                    .map(d -> d.message().bodyAsText()).toList(), "only the poison message is dead-lettered");
            assertEquals(3, InboundFeaturesTest.deadLetters(h).get(0).attempts());
            assertEquals(9, a.metrics().delivered(), "the nine others delivered in the committed transaction");
            assertEquals(1, a.metrics().committed());
            assertEquals(3, a.metrics().rolledBack(), "the batch failed three times on the poison message");
            assertEquals(2, a.metrics().redelivered(), "the poison message's second and third attempts");
            assertEquals(1, a.metrics().deadLettered());
            assertEquals(1, logs.messages(java.util.logging.Level.WARNING, "SSBJCA0042").size());
            for (int i = 1; i <= 4; i++) {
                assertEquals(List.of(1, 1, 1, 1), calls.get("m" + i), "m" + i + ": handled, rolled back with the"
                        + " poison message three times, never charged, then committed");
            }
            assertEquals(List.of(1, 2, 3), calls.get("m5"));
            for (int i = 6; i <= 10; i++) {
                assertEquals(List.of(1), calls.get("m" + i), "m" + i + ": not delivered before the poison message"
                        + " was set aside");
            }
        }
    }

    /**
     * A per-message bean that returns but marks the transaction rollback-only: the failure cannot be told of one
     * message, so every message of the batch the bean was given counts a failed delivery, and all are dead-lettered
     * together at {@code maxDeliveryAttempts}.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aBatchMarkedRollbackOnlyCountsAFailedDeliveryForEveryMessage(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            List<String> calls = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                calls.add(m.bodyAsText() + "#" + m.deliveryAttempt());
                if (m.bodyAsText().equals("b")) {
                    org.ssbjca.fakes.FakeEndpointFactory.setRollbackOnly();
                }
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("1");
            spec.setReceiveBatchSize("3");
            spec.setMaxDeliveryAttempts("2");
            h.activate(BrokerMessageListener.class, bean, true, spec);
            EndpointActivation a = h.ra.activations().get(0);

            h.send("a", "b", "c");

            Awaitility.await("all three dead-lettered").atMost(Duration.ofSeconds(60))
                    .until(() -> h.depth(InboundHarness.TARGET_QUEUE) == 0 && a.metrics().deadLettered() == 3);
            assertEquals(List.of("a", "b", "c"), InboundFeaturesTest.deadLetters(h).stream()
                    .map(d -> d.message().bodyAsText()).toList());
            assertEquals(List.of("a#1", "b#1", "c#1", "a#2", "b#2", "c#2"), calls);
            assertEquals(2, a.metrics().rolledBack());
        }
    }

    /**
     * A dead letter is announced (SSBJCA0042, the {@code deadLettered} notification) once the transaction that moves
     * it commits: here its batch first rolls back (the bean fails the message behind it), which undoes the move, and
     * the next turn moves it again. One dead letter, one announcement, as the {@code DeadLettered} count.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aDeadLetterIsAnnouncedOnceItsMoveCommits(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend);
             org.ssbjca.fakes.LogRecords logs = org.ssbjca.fakes.LogRecords.of(BatchSorter.class)) {
            List<String> done = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                if (m.bodyAsText().equals("poison") || m.deliveryAttempt() == 1) {
                    throw new IllegalStateException("fails: " + m.bodyAsText() + " #" + m.deliveryAttempt());
                }
                done.add(m.bodyAsText());
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("1");
            spec.setReceiveBatchSize("2");
            spec.setMaxDeliveryAttempts("2");
            spec.setDeadLetterService("NoSuchService"); // the copy fails: SSBJCA0046, once too
            h.activate(BrokerMessageListener.class, bean, true, spec);
            EndpointActivation a = h.ra.activations().get(0);
            List<String> announced = new CopyOnWriteArrayList<>();
            a.setEvents(new ActivationEvents() {
                @Override
                public void deadLettered(String queue, org.ssbjca.api.BrokerMessage message, int attempts) {
                    announced.add(message.bodyAsText());
                }
            });

            // the bean stops at "poison" twice ("behind" unseen); then "poison" is moved and "behind" fails once
            h.send("poison", "behind");
            Awaitility.await("the poison dead-lettered, the other delivered at its second attempt")
                    .atMost(Duration.ofSeconds(30)).until(() -> done.size() == 1 && a.metrics().deadLettered() == 1
                            && !announced.isEmpty()); // counted, then announced, after the commit

            assertEquals(3, a.metrics().rolledBack(), "twice the poison, then the batch that moved it");
            assertEquals(List.of("poison"), announced);
            assertEquals(1, logs.messages(java.util.logging.Level.WARNING, "SSBJCA0042").size());
            assertEquals(1, logs.messages(java.util.logging.Level.WARNING, "SSBJCA0046").size());
        }
    }

    /**
     * {@code Redelivered} counts the messages handed to the bean again after failed deliveries of their own: a
     * per-message bean that stops at the first message of a batch was not handed the second, whatever that one's
     * failures before; and the first, handed again after a failure that was the second's, is not counted.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void redeliveredCountsOnlyTheMessagesHandedToTheBean(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            List<String> calls = new CopyOnWriteArrayList<>();
            java.util.concurrent.atomic.AtomicInteger callsOfA = new java.util.concurrent.atomic.AtomicInteger();
            BrokerMessageListener bean = m -> {
                String call = m.bodyAsText() + "#" + m.deliveryAttempt();
                calls.add(call);
                if (call.equals("B#1") || m.bodyAsText().equals("A") && callsOfA.incrementAndGet() == 2) {
                    throw new IllegalStateException("fails: " + call);
                }
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("1");
            spec.setReceiveBatchSize("2");
            spec.setMaxDeliveryAttempts("5");
            h.activate(BrokerMessageListener.class, bean, true, spec);
            EndpointActivation a = h.ra.activations().get(0);

            h.send("A", "B");

            Awaitility.await("both delivered").atMost(Duration.ofSeconds(30))
                    .until(() -> a.metrics().committed() == 1);
            assertEquals(List.of("A#1", "B#1", "A#1", "A#2", "B#2"), calls,
                    "B's failure was not A's: A came again as its first attempt");
            assertEquals(2, a.metrics().redelivered(), "A#2 and B#2: B was not handed over with A's second call");
        }
    }

    /**
     * docs/reference/activation-properties.md, {@code maxDeliveryAttempts}: always 1 with {@code commitBeforeDelivery}
     * (a failed call loses it).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void withCommitBeforeDeliveryEveryMessageIsItsFirstAttempt(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            Map<String, List<Integer>> attempts = new ConcurrentHashMap<>();
            BrokerMessageListener bean = m -> {
                attempts.computeIfAbsent(m.bodyAsText(), k -> new CopyOnWriteArrayList<>()).add(m.deliveryAttempt());
                if (m.bodyAsText().equals("fails")) {
                    throw new IllegalStateException("lost: its RECEIVE committed");
                }
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setCommitBeforeDelivery("true");
            h.activate(BrokerMessageListener.class, bean, true, spec);
            h.send("fails", "after it");
            Awaitility.await("both delivered once").atMost(Duration.ofSeconds(60))
                    .until(() -> attempts.containsKey("after it") && h.depth(InboundHarness.TARGET_QUEUE) == 0);

            assertEquals(Map.of("fails", List.of(1), "after it", List.of(1)), attempts);
        }
    }
}
