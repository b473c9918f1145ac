package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ssbjca.inbound.table.TableActivationTest.createJobQueue;
import static org.ssbjca.inbound.table.TableActivationTest.jobSpec;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.TableRowListener;
import org.ssbjca.fakes.FakeEndpointFactory;
import org.ssbjca.fakes.FakeWorkManager;
import org.ssbjca.fakes.LogRecords;
import org.ssbjca.inbound.table.TableActivation;
import org.ssbjca.inbound.table.TableActivationSpec;

/**
 * WildFly's long-running pool has a bounded queue: once its threads and its queue are taken, IronJacamar's
 * {@code scheduleWork} blocks the submitting thread until there is room, for ever without a start timeout. Over a fake
 * work manager that does the same: an activation past the pool starts all the same, within a bounded time, with the
 * readers the work manager took, and says which it refused (SSBJCA0015); a stop never waits for a submission that
 * blocks; a reader the container rejects after accepting it is dropped and said alike.
 */
@org.junit.jupiter.api.extension.ExtendWith(ShortPool.ShortWait.class)
class WorkManagerFullTest {


    @Test
    void anActivationPastThePoolsThreadsAndQueueStartsWithTheReadersItGotAndSaysWhichWereRefused() throws Exception {
        try (InboundHarness h = new InboundHarness(); LogRecords log = LogRecords.of(EndpointActivation.class)) {
            FakeWorkManager works = h.context.fakeWorkManager();
            works.limitThreads(2);
            works.limitQueue(1);
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("5");
            try {
                CompletableFuture.runAsync(() -> activate(h, spec)).get(10, TimeUnit.SECONDS);
            } finally {
                works.limitQueue(Integer.MAX_VALUE); // a submitter still blocked goes on: the harness can close
            }
            EndpointActivation a = h.ra.activations().get(0);
            assertEquals(3, a.readerCount(), "the readers the work manager took: 2 running, 1 in its queue");
            Awaitility.await("the refusal said").atMost(Duration.ofSeconds(30))
                    .until(() -> !log.messages(Level.WARNING, "SSBJCA0015").isEmpty());
            String refused = log.messages(Level.WARNING, "SSBJCA0015").get(0);
            assertTrue(refused.contains(a.name()) && refused.contains("refused 2 reader(s)")
                    && refused.contains("now has 3 reader(s)") && refused.contains(ShortPool.POOL), refused);
            Awaitility.await("the readers waiting for a thread said").atMost(Duration.ofSeconds(30))
                    .until(() -> !log.messages(Level.WARNING, "SSBJCA0014").isEmpty());
            String waiting = log.messages(Level.WARNING, "SSBJCA0014").get(0);
            assertTrue(waiting.contains("2 reader(s) running, 1 waiting for a thread"), waiting);
            assertEquals(1, a.waitingReaders());
            CompletableFuture.runAsync(a::stop).get(5, TimeUnit.SECONDS);
        }
    }

    /** MaxReaders raised over JMX past the pool blocks that call for at most the start timeout, never a stop. */
    @Test
    void aStopDoesNotWaitForARaiseOfMaxReadersThatWaitsForRoomInThePool() throws Exception {
        ReaderStarts.waitMillis = 60_000; // the raise stays blocked while the stop runs
        try (InboundHarness h = new InboundHarness(); LogRecords log = LogRecords.of(EndpointActivation.class)) {
            FakeWorkManager works = h.context.fakeWorkManager();
            works.limitThreads(1);
            works.limitQueue(0);
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("1");
            FakeEndpointFactory factory = h.activate(BrokerMessageListener.class, new ShortPool.Quiet(), true, spec);
            EndpointActivation a = h.ra.activations().get(0);
            Awaitility.await("the reader running").atMost(Duration.ofSeconds(30)).until(() -> a.waitingReaders() == 0);

            CompletableFuture<Void> raise = CompletableFuture.runAsync(() -> setMaxReaders(a, 2));
            try {
                Awaitility.await("the raise waits for room").atMost(Duration.ofSeconds(30))
                        .until(() -> works.blockedSubmitters() == 1);
                CompletableFuture.runAsync(a::stop).get(5, TimeUnit.SECONDS);
            } finally {
                works.limitQueue(Integer.MAX_VALUE);
            }
            raise.get(5, TimeUnit.SECONDS);
            assertEquals(0, a.readerCount());
            Awaitility.await("every work ran and ended").atMost(Duration.ofSeconds(30))
                    .until(() -> works.queuedWorks() == 0 && works.liveThreads() == 0);
            // the first reader may have failed a turn under load and made its endpoint again: only the second's count
            String second = "reader 2 of " + a.name();
            assertTrue(factory.creatingThreads.stream().anyMatch(t -> t.endsWith("reader 1 of " + a.name())),
                    factory.creatingThreads.toString());
            assertEquals(List.of(), factory.creatingThreads.stream().filter(t -> t.endsWith(second)).toList(),
                    "the reader submitted after the stop never ran");
            assertEquals(List.of(), log.messages(Level.WARNING, "SSBJCA0011"), "no reader said not stopped");
        }
    }

    /** A container may reject a work it accepted, when its start timeout passes in the queue: it never runs. */
    @Test
    void readersTheContainerRejectsAfterAcceptingThemAreDroppedAndSaid() throws Exception {
        try (InboundHarness h = new InboundHarness(); LogRecords log = LogRecords.of(EndpointActivation.class)) {
            FakeWorkManager works = h.context.fakeWorkManager();
            works.limitThreads(1);
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("3");
            h.activate(BrokerMessageListener.class, new ShortPool.Quiet(), true, spec);
            EndpointActivation a = h.ra.activations().get(0);
            Awaitility.await("two readers queued").atMost(Duration.ofSeconds(30))
                    .until(() -> works.queuedWorks() == 2);

            assertEquals(2, works.rejectQueuedWorks());
            assertEquals(1, a.readerCount(), "the rejected readers are not the activation's");
            assertEquals(0, a.waitingReaders());
            String refused = log.messages(Level.WARNING, "SSBJCA0015").get(0);
            assertTrue(refused.contains("refused 1 reader(s)") && refused.contains("now has 2 reader(s)"), refused);
            assertEquals(2, log.messages(Level.WARNING, "SSBJCA0015").size(), "one line per rejection");
            CompletableFuture.runAsync(a::stop).get(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void aTableActivationPastThePoolStartsAlike() throws Exception {
        try (InboundHarness h = new InboundHarness(ShortPool.h2("full-pool"), false);
                LogRecords log = LogRecords.of(TableActivation.class)) {
            createJobQueue(h);
            FakeWorkManager works = h.context.fakeWorkManager();
            works.limitThreads(1);
            ShortPool.Blocker other = new ShortPool.Blocker();
            works.scheduleWork(other);
            assertTrue(other.running.await(5, TimeUnit.SECONDS), "the other work runs");
            works.limitQueue(1);
            TableActivationSpec spec = jobSpec(h, "leased");
            spec.setMaxReaders("3");
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class,
                    new ShortPool.QuietRows(), true, h.context.transactions());
            try {
                CompletableFuture.runAsync(() -> {
                    try {
                        h.ra.endpointActivation(factory, spec);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }).get(10, TimeUnit.SECONDS);
            } finally {
                works.limitQueue(Integer.MAX_VALUE);
            }
            String refused = log.messages(Level.WARNING, "SSBJCA0015").get(0);
            assertTrue(refused.contains("QuietRows@Job_Queue") && refused.contains("refused 2 reader(s)")
                    && refused.contains("now has 1 reader(s)"), refused);
            CompletableFuture.runAsync(() -> h.ra.endpointDeactivation(factory, spec)).get(5, TimeUnit.SECONDS);
            other.release.countDown();
            Awaitility.await("every work ran and ended").atMost(Duration.ofSeconds(30))
                    .until(() -> works.queuedWorks() == 0 && works.liveThreads() == 0);
            assertEquals(0, factory.createdEndpoints.get(), "the queued reader, stopped before it began, never ran");
        }
    }

    private static void activate(InboundHarness h, ServiceBrokerActivationSpec spec) {
        try {
            h.activate(BrokerMessageListener.class, new ShortPool.Quiet(), true, spec);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void setMaxReaders(EndpointActivation a, int n) {
        try {
            a.setMaxReaders(n);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
