package org.ssbjca.inbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.ConversationGroupListener;
import org.ssbjca.fakes.FakeEndpointFactory;
import org.ssbjca.fakes.LogRecords;

/** The reader loop against fakes of the container: transactions, rollbacks, system messages, stopping. */
class QueueReaderTest {

    @Test
    void deliversEveryMessageInItsOwnCommittedTransaction() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            List<String> got = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> got.add(m.bodyAsText());
            FakeEndpointFactory f = h.activate(BrokerMessageListener.class, bean, true, h.spec());

            h.send("a", "b", "c");

            await().until(() -> got.size() == 3);
            assertEquals(List.of("a", "b", "c"), got);
            await().until(() -> f.commits.get() >= 3);
            assertEquals(0, h.depth(InboundHarness.TARGET_QUEUE));
            assertEquals(0, f.pairingErrors.get());
        }
    }

    @Test
    void aRolledBackDeliveryIsDeliveredAgain() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            AtomicInteger attempts = new AtomicInteger();
            List<String> done = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                int n = attempts.incrementAndGet();
                if (n == 1) {
                    throw new IllegalStateException("first attempt fails");
                }
                if (n == 2) {
                    FakeEndpointFactory.setRollbackOnly();
                    return;
                }
                done.add(m.bodyAsText());
            };
            FakeEndpointFactory f = h.activate(BrokerMessageListener.class, bean, true, h.spec());

            h.send("retry me");

            await().until(() -> done.size() == 1);
            assertEquals(3, attempts.get(), "thrown, then setRollbackOnly, then delivered");
            assertEquals(List.of("retry me"), done);
            assertEquals(2, f.rollbacks.get());
            assertEquals(0, f.pairingErrors.get());
        }
    }

    @Test
    void endDialogEndsTheTargetSideWithoutReachingTheBean() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            List<BrokerMessage> got = new CopyOnWriteArrayList<>();
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) got::add, true, h.spec());
            long before = h.query(a -> a.endpointCount());

            h.tx(s -> {
                var c = s.beginDialog(InboundHarness.INITIATOR, InboundHarness.TARGET, InboundHarness.CONTRACT,
                        org.ssbjca.api.DialogOptions.defaults());
                s.send(c.handle(), InboundHarness.REQUEST, "last words".getBytes());
                s.endConversation(c.handle(), null, null);
                return c;
            });

            await().until(() -> h.query(a -> a.endpointCount()) == before);
            assertEquals(1, got.size(), "only the application message reaches the bean");
            assertEquals("last words", got.get(0).bodyAsText());
        }
    }

    @Test
    void aBatchListenerGetsAWholeGroupInOneCall() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            List<List<String>> calls = new CopyOnWriteArrayList<>();
            ConversationGroupListener bean = ms -> calls.add(ms.stream().map(BrokerMessage::bodyAsText).toList());
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setReceiveBatchSize("100");
            h.send("1", "2", "3", "4");
            h.activate(ConversationGroupListener.class, bean, true, spec);

            await().until(() -> !calls.isEmpty());
            assertEquals(List.of(List.of("1", "2", "3", "4")), calls);
        }
    }

    @Test
    void aNonTransactedBeanGetsALocalTransactionThatRollsBackOnFailure() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            AtomicInteger attempts = new AtomicInteger();
            List<String> done = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                if (attempts.incrementAndGet() == 1) {
                    throw new IllegalStateException("fails once");
                }
                done.add(m.bodyAsText());
            };
            h.activate(BrokerMessageListener.class, bean, false, h.spec());
            h.send("local");
            await().until(() -> done.size() == 1);
            assertEquals(2, attempts.get());
            await().until(() -> h.depth(InboundHarness.TARGET_QUEUE) == 0);
        }
    }

    @Test
    void stoppingWaitsForTheDeliveryInFlightAndReleasesEverything() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            HeldDelivery held = aDeliveryHeldInItsBean(h, "3", "slow");
            FakeEndpointFactory f = held.factory();

            Thread stopper = new Thread(() -> h.ra.endpointDeactivation(f, null));
            stopper.start();
            Awaitility.await("deactivation waits for the delivery in flight").during(Duration.ofMillis(300))
                    .atMost(Duration.ofSeconds(30)).until(stopper::isAlive);
            held.release().countDown();
            stopper.join(10_000);

            assertEquals(List.of("slow"), held.done());
            assertEquals(0, h.depth(InboundHarness.TARGET_QUEUE), "the delivery in flight committed");
            assertEquals(0, f.rollbacks.get());
            assertEquals(0, f.pairingErrors.get());
            assertEquals(0, f.liveEndpoints.get(), "every endpoint released");
            await().until(() -> h.context.fakeWorkManager().liveThreads() <= 1);
        }
    }

    /**
     * faults-and-recovery.md: a deactivation waits for the deliveries in flight at most its bound (30 s, shortened
     * here), then returns and says the reader it left (SSBJCA0011); the delivery it left still ends as its bean ends,
     * committed, and its endpoint is released then: nothing lost, nothing delivered twice.
     */
    @Test
    void aStopWaitsForADeliveryInFlightAtMostItsBoundAndLeavesItToFinish() throws Exception {
        assertEquals(30_000, ReaderSchedule.STOP_WAIT_MILLIS, "the bound faults-and-recovery.md gives");
        ReaderSchedule.stopWaitMillis = 500;
        try (InboundHarness h = new InboundHarness(); LogRecords log = LogRecords.of(EndpointActivation.class)) {
            HeldDelivery held = aDeliveryHeldInItsBean(h, "1", "outlasts the stop");
            FakeEndpointFactory f = held.factory();

            Thread stopper = new Thread(() -> h.ra.endpointDeactivation(f, null));
            stopper.start();
            try {
                stopper.join(10_000);
                assertFalse(stopper.isAlive(), "the deactivation returned after its bound, the bean still running");
                assertEquals(List.of(), held.done(), "the bean had not returned");
                List<String> said = log.messages(Level.WARNING, "SSBJCA0011");
                assertEquals(1, said.size(), said.toString());
                assertTrue(said.get(0).contains("did not stop within 500 ms"), said.get(0));
            } finally {
                held.release().countDown();
            }
            await("the delivery left running ends").atMost(Duration.ofSeconds(30))
                    .until(() -> f.liveEndpoints.get() == 0);
            assertEquals(List.of("outlasts the stop"), held.done());
            assertEquals(0, h.depth(InboundHarness.TARGET_QUEUE), "the delivery left running committed");
            assertEquals(0, f.rollbacks.get());
            assertEquals(0, f.pairingErrors.get());
        } finally {
            ReaderSchedule.stopWaitMillis = ReaderSchedule.STOP_WAIT_MILLIS;
        }
    }

    /**
     * A transacted bean's delivery held in its call until {@code release} is counted down (at most 30 s).
     *
     * @param factory the bean's endpoint factory
     * @param release lets the bean return
     * @param done the bodies of the calls that returned
     */
    private record HeldDelivery(FakeEndpointFactory factory, CountDownLatch release, List<String> done) {
    }

    /** Activates a transacted bean with {@code maxReaders}, sends {@code body} and returns once the bean holds it. */
    private static HeldDelivery aDeliveryHeldInItsBean(InboundHarness h, String maxReaders, String body)
            throws Exception {
        CountDownLatch inBean = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<String> done = new CopyOnWriteArrayList<>();
        BrokerMessageListener bean = m -> {
            inBean.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            done.add(m.bodyAsText());
        };
        ServiceBrokerActivationSpec spec = h.spec();
        spec.setMaxReaders(maxReaders);
        FakeEndpointFactory f = h.activate(BrokerMessageListener.class, bean, true, spec);
        h.send(body);
        assertTrue(inBean.await(10, TimeUnit.SECONDS), "the bean called");
        return new HeldDelivery(f, release, done);
    }
}
