package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ssbjca.inbound.table.TableActivationTest.createJobQueue;
import static org.ssbjca.inbound.table.TableActivationTest.jobSpec;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.TableRowListener;
import org.ssbjca.fakes.FakeEndpointFactory;
import org.ssbjca.fakes.FakeWorkManager;
import org.ssbjca.fakes.LogRecords;
import org.ssbjca.inbound.table.TableActivation;
import org.ssbjca.inbound.table.TableActivationSpec;
import org.ssbjca.management.ObjectNames;

/**
 * Readers are long-running works of the container's work manager, whose long-running pool (WildFly's default: 50
 * threads, a queue of 50) is shared by every activation: readers beyond its threads wait in its queue and do not read.
 * Over a fake work manager that runs at most a few works at a time: the activation says so once at WARN, counts those
 * readers apart, and stops at once without waiting for readers that never began (which, run later, do nothing).
 */
@org.junit.jupiter.api.extension.ExtendWith(ShortPool.ShortWait.class)
class ReadersShortOfThreadsTest {

    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

    @Test
    void aWarningSaysHowManyReadersWaitForAThreadAndWhatToRaise() throws Exception {
        try (InboundHarness h = new InboundHarness(); LogRecords log = LogRecords.of(EndpointActivation.class)) {
            h.context.fakeWorkManager().limitThreads(2);
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("4");
            h.activate(BrokerMessageListener.class, new ShortPool.Quiet(), true, spec);
            EndpointActivation a = h.ra.activations().get(0);

            Awaitility.await("the warning").atMost(Duration.ofSeconds(30))
                    .until(() -> !log.messages(Level.WARNING, "SSBJCA0014").isEmpty());
            // once: no second look comes, well past when one would (the readers still wait)
            Awaitility.await("no second warning").during(Duration.ofMillis(3 * ReaderStarts.waitMillis))
                    .atMost(Duration.ofSeconds(30)).until(() -> log.messages(Level.WARNING, "SSBJCA0014").size() == 1);
            List<String> warnings = log.messages(Level.WARNING, "SSBJCA0014");
            assertEquals(1, warnings.size(), warnings.toString());
            String warning = warnings.get(0);
            assertTrue(warning.contains(a.name()) && warning.contains("2 reader(s) running")
                    && warning.contains("2 waiting for a thread") && warning.contains(ShortPool.POOL), warning);

            assertEquals(4, a.readerCount(), "MaxReaders: the readers the activation has");
            assertEquals(2, a.waitingReaders(), "of which waiting for a thread");
            ObjectName mbean = ObjectNames.activation(a.name());
            assertEquals(4, SERVER.getAttribute(mbean, "MaxReaders"));
            assertEquals(2, SERVER.getAttribute(mbean, "WaitingReaders"));
            assertEquals(4, h.ra.getStatistics().getValue("Readers"));
            assertEquals(2, h.ra.getStatistics().getValue("WaitingReaders"));
        }
    }

    @Test
    void noWarningWhenEveryReaderGetsAThread() throws Exception {
        try (InboundHarness h = new InboundHarness(); LogRecords log = LogRecords.of(EndpointActivation.class)) {
            h.context.fakeWorkManager().limitThreads(4);
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("4");
            h.activate(BrokerMessageListener.class, new ShortPool.Quiet(), true, spec);
            EndpointActivation a = h.ra.activations().get(0);

            Awaitility.await("every reader running").atMost(Duration.ofSeconds(30))
                    .until(() -> a.waitingReaders() == 0);
            Awaitility.await("no warning, well past the wait").during(Duration.ofMillis(1500))
                    .atMost(Duration.ofSeconds(30)).until(() -> log.messages(Level.WARNING, "SSBJCA0014").isEmpty());
        }
    }

    /**
     * MaxReaders raised over JMX past the pool: the reader added is looked at as at the start; lowered again, the
     * reader retired is the one waiting, which never runs.
     */
    @Test
    void aRaiseOfMaxReadersPastThePoolWarnsAndALowerRetiresTheWaitingReader() throws Exception {
        try (InboundHarness h = new InboundHarness(); LogRecords log = LogRecords.of(EndpointActivation.class)) {
            FakeWorkManager works = h.context.fakeWorkManager();
            works.limitThreads(2);
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("2");
            FakeEndpointFactory factory = h.activate(BrokerMessageListener.class, new ShortPool.Quiet(), true, spec);
            EndpointActivation a = h.ra.activations().get(0);
            Awaitility.await("both readers running").atMost(Duration.ofSeconds(30))
                    .until(() -> a.waitingReaders() == 0);
            Awaitility.await("the start's look passed, silent").during(Duration.ofMillis(1000))
                    .atMost(Duration.ofSeconds(30)).until(() -> log.messages(Level.WARNING, "SSBJCA0014").isEmpty());

            a.setMaxReaders(3);
            Awaitility.await("the warning").atMost(Duration.ofSeconds(30))
                    .until(() -> !log.messages(Level.WARNING, "SSBJCA0014").isEmpty());
            String warning = log.messages(Level.WARNING, "SSBJCA0014").get(0);
            assertTrue(warning.contains("2 reader(s) running, 1 waiting for a thread"), warning);
            assertEquals(1, a.waitingReaders());

            a.setMaxReaders(2);
            assertEquals(2, a.readerCount());
            assertEquals(0, a.waitingReaders(), "the reader retired was the waiting one");
            CompletableFuture.runAsync(a::stop).get(5, TimeUnit.SECONDS);
            Awaitility.await("every work ran and ended").atMost(Duration.ofSeconds(30))
                    .until(() -> works.queuedWorks() == 0 && works.liveThreads() == 0);
            assertEquals(0, factory.liveEndpoints.get(), "every endpoint released");
        }
    }

    @Test
    void stopReturnsAtOnceWhenReadersNeverGotAThreadAndTheyNeverRun() throws Exception {
        try (InboundHarness h = new InboundHarness(); LogRecords log = LogRecords.of(EndpointActivation.class)) {
            FakeWorkManager works = h.context.fakeWorkManager();
            ShortPool.Blocker other = occupyTheOnlyThread(works);
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("2");
            FakeEndpointFactory factory = h.activate(BrokerMessageListener.class,
                    new ShortPool.Quiet(), true, spec);
            EndpointActivation a = h.ra.activations().get(0);
            assertEquals(2, works.queuedWorks(), "both readers wait for the thread");

            CompletableFuture.runAsync(a::stop).get(5, TimeUnit.SECONDS);
            assertEquals(List.of(), log.messages(Level.WARNING, "SSBJCA0011"), "no reader said not stopped");

            other.release.countDown(); // the thread frees: the work manager runs the stopped readers now
            Awaitility.await("the queued readers ran and ended").atMost(Duration.ofSeconds(30))
                    .until(() -> works.queuedWorks() == 0 && works.liveThreads() == 0);
            assertEquals(0, factory.createdEndpoints.get(), "a reader stopped before it began never ran");
        }
    }

    @Test
    void aTableActivationWarnsCountsAndStopsAlike() throws Exception {
        try (InboundHarness h = new InboundHarness(ShortPool.h2("short-of-threads"), false);
                LogRecords log = LogRecords.of(TableActivation.class)) {
            createJobQueue(h);
            FakeWorkManager works = h.context.fakeWorkManager();
            ShortPool.Blocker other = occupyTheOnlyThread(works);
            TableActivationSpec spec = jobSpec(h, "leased");
            spec.setMaxReaders("2");
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class,
                    new ShortPool.QuietRows(), true, h.context.transactions());
            h.ra.endpointActivation(factory, spec);
            String name = "QuietRows@Job_Queue";

            Awaitility.await("the warning").atMost(Duration.ofSeconds(30))
                    .until(() -> !log.messages(Level.WARNING, "SSBJCA0014").isEmpty());
            String warning = log.messages(Level.WARNING, "SSBJCA0014").get(0);
            assertTrue(warning.contains(name) && warning.contains("0 reader(s) running")
                    && warning.contains("2 waiting for a thread") && warning.contains(ShortPool.POOL), warning);
            ObjectName mbean = ObjectNames.tableActivation(name);
            assertEquals(2, SERVER.getAttribute(mbean, "ReaderCount"));
            assertEquals(2, SERVER.getAttribute(mbean, "WaitingReaders"));

            CompletableFuture.runAsync(() -> h.ra.endpointDeactivation(factory, spec)).get(5, TimeUnit.SECONDS);
            assertEquals(List.of(), log.messages(Level.WARNING, "SSBJCA0011"), "no reader said not stopped");
            other.release.countDown();
            Awaitility.await("the queued readers ran and ended").atMost(Duration.ofSeconds(30))
                    .until(() -> works.queuedWorks() == 0 && works.liveThreads() == 0);
            assertEquals(0, factory.createdEndpoints.get(), "a reader stopped before it began never ran");
        }
    }

    /** Takes the work manager's one thread with a work that holds it (another activation's reader, say). */
    private static ShortPool.Blocker occupyTheOnlyThread(FakeWorkManager works) throws Exception {
        works.limitThreads(1);
        ShortPool.Blocker other = new ShortPool.Blocker();
        works.scheduleWork(other);
        assertTrue(other.running.await(5, TimeUnit.SECONDS), "the other work runs");
        return other;
    }
}
