package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.fakes.FakeEndpointFactory;

/**
 * A reader retired by lowering MaxReaders finishes its delivery in flight; the activation's stop (an undeploy)
 * waits for it as for the others, so that no delivery outlives the deactivation and every endpoint is released when
 * it returns.
 */
class RetiredReadersTest {

    @Test
    void stopWaitsForAReaderRetiredByLoweringMaxReaders() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            HeldReaders bean = new HeldReaders();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("2");
            FakeEndpointFactory f = h.activate(BrokerMessageListener.class, bean, true, spec);
            EndpointActivation a = h.ra.activations().get(0);
            h.send("one");
            h.send("two"); // another conversation, another group: the second reader takes it
            Awaitility.await("both readers in a delivery").atMost(Duration.ofSeconds(30))
                    .until(() -> bean.delivering.size() == 2);

            a.setMaxReaders(1); // retires reader 2 in its delivery
            CompletableFuture<Void> stopped = CompletableFuture.runAsync(a::stop);
            bean.first.countDown();

            assertThrows(TimeoutException.class, () -> stopped.get(1, TimeUnit.SECONDS),
                    "the stop waits for the retired reader's delivery");
            bean.second.countDown();
            stopped.get(30, TimeUnit.SECONDS);
            assertEquals(0, f.liveEndpoints.get(), "every endpoint released when the stop returns");
        }
    }

    /**
     * A reader retired while its bean runs leaves the bean's own verbs on the reader's session working until the
     * delivery ends: the bean's RECEIVE finds the message waiting, instead of an empty answer from a session the stop
     * had cancelled.
     */
    @Test
    void aBeanWhoseReaderIsRetiredStillReceivesInItsDelivery() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            java.util.List<String> received = new java.util.concurrent.CopyOnWriteArrayList<>();
            HeldReaders bean = new HeldReaders();
            bean.secondThen = () -> received.addAll(h.receiveThroughConnectionFactory(Duration.ofSeconds(5)));
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("2");
            h.activate(BrokerMessageListener.class, bean, false, spec);
            EndpointActivation a = h.ra.activations().get(0);
            h.send("one");
            h.send("two");
            Awaitility.await("both readers in a delivery").atMost(Duration.ofSeconds(30))
                    .until(() -> bean.delivering.size() == 2);
            h.send("waiting"); // a third group, which no reader is free to take

            try {
                a.setMaxReaders(1); // retires reader 2 in its delivery
                bean.second.countDown();

                Awaitility.await("the retired reader's bean received").atMost(Duration.ofSeconds(30))
                        .until(() -> a.metrics().committed() >= 1);
                assertEquals(java.util.List.of("waiting"), received);
            } finally {
                bean.first.countDown();
            }
        }
    }

    /**
     * Holds each of two readers' deliveries until the test releases that reader's latch; the fake work manager names
     * each thread after its work ("fake-work-reader <n> of ...").
     */
    private static final class HeldReaders implements BrokerMessageListener {
        final CountDownLatch first = new CountDownLatch(1);
        final CountDownLatch second = new CountDownLatch(1);
        final Set<String> delivering = ConcurrentHashMap.newKeySet();
        /** What reader 2's delivery does once released. */
        volatile java.util.concurrent.Callable<?> secondThen = () -> null;

        @Override
        public void onMessage(org.ssbjca.api.BrokerMessage m) {
            boolean isSecond = Thread.currentThread().getName().contains("reader 2 ");
            delivering.add(isSecond ? "reader 2" : "reader 1");
            try {
                (isSecond ? second : first).await(30, TimeUnit.SECONDS);
                if (isSecond) {
                    secondThen.call();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
