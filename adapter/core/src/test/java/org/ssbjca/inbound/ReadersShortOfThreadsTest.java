package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.resource.spi.work.Work;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.fakes.FakeEndpointFactory;
import org.ssbjca.fakes.FakeWorkManager;
import org.ssbjca.fakes.LogRecords;

/**
 * Readers are long-running works of the container's work manager, whose long-running pool (WildFly's default: 50
 * threads, a queue of 50) is shared by every activation: readers beyond its threads wait in its queue and do not read.
 * Over a fake work manager that runs at most a few works at a time: the activation stops at once without waiting for
 * readers that never began (which, run later, do nothing).
 */
class ReadersShortOfThreadsTest {

    @Test
    void stopReturnsAtOnceWhenReadersNeverGotAThreadAndTheyNeverRun() throws Exception {
        try (InboundHarness h = new InboundHarness(); LogRecords log = LogRecords.of(EndpointActivation.class)) {
            FakeWorkManager works = h.context.fakeWorkManager();
            Blocker other = occupyTheOnlyThread(works);
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders(2);
            FakeEndpointFactory factory = h.activate(BrokerMessageListener.class,
                    new Quiet(), true, spec);
            EndpointActivation a = h.ra.activations().get(0);
            assertEquals(2, works.queuedWorks(), "both readers wait for the thread");

            CompletableFuture.runAsync(a::stop).get(5, TimeUnit.SECONDS);
            assertEquals(List.of(), log.messages(Level.WARNING, "SSBJCA0011"), "no reader said not stopped");

            other.release.countDown(); // the thread frees: the work manager runs the stopped readers now
            Awaitility.await("the queued readers ran and ended").atMost(Duration.ofSeconds(5))
                    .until(() -> works.queuedWorks() == 0 && works.liveThreads() == 0);
            assertEquals(0, factory.createdEndpoints.get(), "a reader stopped before it began never ran");
        }
    }

    /** Takes the work manager's one thread with a work that holds it (another activation's reader, say). */
    private static Blocker occupyTheOnlyThread(FakeWorkManager works) throws Exception {
        works.limitThreads(1);
        Blocker other = new Blocker();
        works.scheduleWork(other);
        assertTrue(other.running.await(5, TimeUnit.SECONDS), "the other work runs");
        return other;
    }

    private static final class Quiet implements BrokerMessageListener {
        @Override
        public void onMessage(org.ssbjca.api.BrokerMessage m) {
        }
    }

    private static final class Blocker implements Work {
        final CountDownLatch running = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public void run() {
            running.countDown();
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void release() {
            release.countDown();
        }

        @Override
        public String toString() {
            return "another activation's reader";
        }
    }
}
