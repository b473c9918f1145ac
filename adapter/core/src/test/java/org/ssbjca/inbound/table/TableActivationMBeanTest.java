package org.ssbjca.inbound.table;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ssbjca.inbound.table.TableActivationTest.count;
import static org.ssbjca.inbound.table.TableActivationTest.createJobQueue;
import static org.ssbjca.inbound.table.TableActivationTest.createMessages;
import static org.ssbjca.inbound.table.TableActivationTest.database;
import static org.ssbjca.inbound.table.TableActivationTest.jobSpec;
import static org.ssbjca.inbound.table.TableActivationTest.mbean;
import static org.ssbjca.inbound.table.TableActivationTest.messageSpec;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.stream.Stream;
import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.ssbjca.api.TableRow;
import org.ssbjca.api.TableRowListener;
import org.ssbjca.conformance.JobQueueRows;
import org.ssbjca.fakes.FakeEndpointFactory;
import org.ssbjca.fakes.LogRecords;
import org.ssbjca.inbound.InboundHarness;
import org.ssbjca.management.TableActivationMXBean;

/**
 * Every figure docs/reference/mxbeans.md documents for the {@code TableActivation} MBean, read through JMX by its
 * documented name ({@code org.ssbjca:type=TableActivation,name=<Bean>@<table>}) while the table is in a known state:
 * rows available now and later, a row the bean holds, rows set aside, the oldest available row's age; on H2 and
 * PostgreSQL, in both modes where a figure differs.
 */
class TableActivationMBeanTest {

    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();
    private static final long A_DAY = 86_400;

    static Stream<Arguments> databasesAndModes() {
        return TableActivationTest.databases().flatMap(kind -> Stream.of(Arguments.of(kind, "leased"),
                Arguments.of(kind, "transactional")));
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("databasesAndModes")
    void theMBeanIsFoundByItsDocumentedNameAndShowsTheTableModeAndReaders(String kind, String mode)
            throws Exception {
        try (InboundHarness h = new InboundHarness(database(kind), false)) {
            createJobQueue(h);
            TableActivationSpec spec = jobSpec(h, mode);
            spec.setMaxReaders("3");
            FakeEndpointFactory factory = activate(h, new Jobs(), spec);
            ObjectName name = new ObjectName("org.ssbjca:type=TableActivation,name=Jobs@Job_Queue");
            try {
                assertTrue(SERVER.isRegistered(name), name + " registered");
                TableActivationMXBean mbean = JMX.newMXBeanProxy(SERVER, name, TableActivationMXBean.class);
                assertEquals("Job_Queue", mbean.getTable());
                assertEquals(mode, mbean.getMode());
                assertEquals(3, mbean.getReaderCount());
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
            assertFalse(SERVER.isRegistered(name), "unregistered with the activation");
        }
    }

    /**
     * Leased: the row the bean holds is leased, not available; the oldest available row is the one made available
     * 120 s ago (the held row, available a day ago, is not counted); a row available in an hour is waiting.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.ssbjca.inbound.table.TableActivationTest#databases")
    void leasedTheRowInDeliveryIsLeasedAndRowsAvailableLaterAreWaiting(String kind) throws Exception {
        try (InboundHarness h = new InboundHarness(database(kind), false)) {
            Jobs bean = new Jobs();
            TableActivationSpec spec = holdingOneOfFourJobs(h, "leased");
            FakeEndpointFactory factory = activate(h, bean, spec);
            try {
                bean.awaitHolding();
                TableActivationMXBean mbean = mbean(h, factory);
                assertEquals(2, mbean.getAvailableRows(), "the two p2 rows");
                assertEquals(1, mbean.getWaitingRows(), "the row available in an hour");
                assertEquals(1, mbean.getLeasedRows(), "the row the bean holds");
                assertEquals(0, mbean.getSetAsideRows());
                assertEquals(0, mbean.getUnscheduledRows(), "every row has its availability time");
                long age = mbean.getOldestAvailableAgeSeconds();
                // not a bound on time taken: below a day tells the held row (available a day ago) is not counted
                assertTrue(age >= 120 && age < A_DAY, "the p2 row made available 120 s ago, not the held one: " + age);
                assertEquals(0, mbean.getDeliveredRows(), "nothing committed yet");

                releaseAndAssertDrained(bean, mbean);
            } finally {
                bean.release.countDown();
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }

    /**
     * Transactional: the row the bean holds is taken in the delivery's transaction, not yet committed; the counts read
     * the committed table without locks, so on H2 and PostgreSQL it still counts as available (the oldest, available a
     * day ago) and nothing is leased.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.ssbjca.inbound.table.TableActivationTest#databases")
    void transactionalTheRowInDeliveryCountsAsAvailableUntilItsTransactionCommits(String kind) throws Exception {
        try (InboundHarness h = new InboundHarness(database(kind), false)) {
            Jobs bean = new Jobs();
            TableActivationSpec spec = holdingOneOfFourJobs(h, "transactional");
            FakeEndpointFactory factory = activate(h, bean, spec);
            try {
                bean.awaitHolding();
                TableActivationMXBean mbean = mbean(h, factory);
                assertEquals(3, mbean.getAvailableRows(), "the two p2 rows and the held one, its taking uncommitted");
                assertEquals(1, mbean.getWaitingRows(), "the row available in an hour");
                assertEquals(0, mbean.getLeasedRows(), "no leases in the transactional mode");
                assertEquals(0, mbean.getSetAsideRows());
                assertEquals(0, mbean.getUnscheduledRows(), "every row has its availability time");
                long age = mbean.getOldestAvailableAgeSeconds();
                assertTrue(age >= A_DAY, "the held row, available a day ago: " + age);

                releaseAndAssertDrained(bean, mbean);
            } finally {
                bean.release.countDown();
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }

    /** Without an availability column nothing waits and the oldest age is -1, rows available or not. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.ssbjca.inbound.table.TableActivationTest#databases")
    void withoutAnAvailableColumnTheOldestAgeIsMinusOneAndNoRowWaits(String kind) throws Exception {
        try (InboundHarness h = new InboundHarness(database(kind), false)) {
            createMessages(h, 3);
            Jobs bean = new Jobs();
            TableActivationSpec spec = messageSpec(h);
            spec.setMaxReaders("1");
            FakeEndpointFactory factory = activate(h, bean, spec);
            try {
                bean.awaitHolding();
                TableActivationMXBean mbean = mbean(h, factory);
                assertEquals(3, mbean.getAvailableRows(), "the held row's taking is not committed yet");
                assertEquals(-1, mbean.getOldestAvailableAgeSeconds(), "no availableColumn");
                assertEquals(0, mbean.getWaitingRows());
                assertEquals(0, mbean.getLeasedRows());
                bean.release.countDown();
                await().atMost(Duration.ofSeconds(30)).until(() -> mbean.getDeliveredRows() == 3);
                assertEquals(0, mbean.getAvailableRows());
                assertEquals(-1, mbean.getOldestAvailableAgeSeconds());
            } finally {
                bean.release.countDown();
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }

    /**
     * A job that always fails is set aside after maxAttempts (2): counted in SetAsideRows, no longer available;
     * redeliverSetAside gives it another round (2 more failures), purgeSetAside deletes it.
     */
    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("databasesAndModes")
    void setAsideRowsAreCountedAndTheOperationsRedeliverAndPurgeThem(String kind, String mode) throws Exception {
        try (InboundHarness h = new InboundHarness(database(kind), false);
             LogRecords log = LogRecords.of(TableActivation.class)) {
            createJobQueue(h);
            insertJob(h, 1, -60, "poison");
            TableActivationSpec spec = jobSpec(h, mode);
            spec.setMaxReaders("1");
            spec.setMaxAttempts("2");
            spec.setRetryDelaySeconds("0");
            TableRowListener bean = row -> {
                throw new IllegalStateException("cannot handle " + row);
            };
            FakeEndpointFactory factory = activate(h, bean, spec);
            try {
                TableActivationMXBean mbean = mbean(h, factory);
                awaitSetAsideAfterFailures(mbean, 2);
                assertEquals(0, mbean.getAvailableRows(), "set aside, no longer taken");
                assertEquals(0, mbean.getLeasedRows());
                assertEquals(0, mbean.getWaitingRows());
                assertEquals(-1, mbean.getOldestAvailableAgeSeconds(), "no row available");
                assertEquals(0, mbean.getDeliveredRows());

                assertEquals(1, mbean.redeliverSetAside());
                awaitSetAsideAfterFailures(mbean, 4);

                assertEquals(1, mbean.purgeSetAside());
                assertEquals(0, mbean.getSetAsideRows());
                assertEquals(0, count(h, "SELECT COUNT(*) FROM Job_Queue"));
                // each operation logged (docs/reference/messages.md), naming the activation and the rows' count
                List<String> logged = log.messages(Level.INFO, "SSBJCA0115");
                assertEquals(2, logged.size(), logged.toString());
                assertTrue(logged.get(0).endsWith(": 1 set-aside row(s) redelivered at an operator's request")
                        && logged.get(1).endsWith(": 1 set-aside row(s) purged at an operator's request"),
                        logged.toString());
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }

    /**
     * What the readiness check reads: a bean deployed before its table has readers failing, since when and why;
     * once the table is there they read again and the failing time is gone.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.ssbjca.inbound.table.TableActivationTest#databases")
    void readersFailingWhileTheTableIsMissingShowSinceWhenAndWhy(String kind) throws Exception {
        try (InboundHarness h = new InboundHarness(database(kind), false);
             LogRecords log = LogRecords.of(TableReader.class)) {
            TableActivationSpec spec = jobSpec(h, "leased");
            spec.setMaxReaders("2");
            Jobs bean = new Jobs();
            bean.release.countDown();
            java.time.Instant before = java.time.Instant.now();
            FakeEndpointFactory factory = activate(h, bean, spec);
            try {
                TableActivationMXBean mbean = mbean(h, factory);
                await().atMost(Duration.ofSeconds(30)).until(() -> mbean.getFailingSince() != null);
                assertFalse(mbean.getFailingSince().toInstant().isBefore(before.minusSeconds(1)),
                        "failing since the activation: " + mbean.getFailingSince());
                assertTrue(mbean.getLastError() != null && mbean.getLastError().contains("Job_Queue"),
                        "names what is missing: " + mbean.getLastError());
                // said once at WARN for the activation and its cause, as a queue activation does; the retries at
                // debug
                await().atMost(Duration.ofSeconds(30)).until(() -> log.messages(Level.FINE, "SSBJCA0119").size() >= 3);
                List<String> warned = log.messages(Level.WARNING, "SSBJCA0114");
                assertEquals(1, warned.size(), warned.toString());
                RuntimeException counts = assertThrows(RuntimeException.class, mbean::getAvailableRows,
                        "the row counts cannot be read while the table is missing");
                assertTrue(String.valueOf(counts.getMessage()).contains("Job_Queue"), counts.getMessage());

                createJobQueue(h);
                insertJob(h, 1, -60, "first");
                await().atMost(Duration.ofSeconds(60)).until(() -> bean.delivered.contains("first"));
                await().atMost(Duration.ofSeconds(30)).until(() -> mbean.getFailingSince() == null);
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }

    private static void awaitSetAsideAfterFailures(TableActivationMXBean mbean, int failures) {
        await().atMost(Duration.ofSeconds(30)).until(() -> mbean.getSetAsideRows() == 1
                && mbean.getFailedDeliveries() == failures);
    }

    /** After the held row and the two p2 rows are delivered: only the row available in an hour is left, waiting. */
    /** Lets the bean go on: it delivers the held row and the two available ones, in order; one row still waits. */
    private static void releaseAndAssertDrained(Jobs bean, TableActivationMXBean mbean) {
        bean.release.countDown();
        await().atMost(Duration.ofSeconds(30)).until(() -> mbean.getDeliveredRows() == 3);
        assertEquals(List.of(Jobs.HELD, "p2 two minutes ago", "p2 a minute ago"), bean.delivered);
        assertDrainedButTheWaitingRow(mbean);
    }

    private static void assertDrainedButTheWaitingRow(TableActivationMXBean mbean) {
        assertEquals(0, mbean.getAvailableRows());
        assertEquals(1, mbean.getWaitingRows());
        assertEquals(0, mbean.getLeasedRows());
        assertEquals(-1, mbean.getOldestAvailableAgeSeconds(), "no row available");
        assertEquals(0, mbean.getFailedDeliveries());
        assertEquals(0, mbean.getLeasesLost());
    }

    /**
     * Seed 003's queue with the row the bean will hold (p1, available a day ago, taken first), two p2 rows made
     * available 120 s and 60 s ago, and a p1 row available in an hour; one reader taking one row at a time.
     */
    private static TableActivationSpec holdingOneOfFourJobs(InboundHarness h, String mode) throws Exception {
        createJobQueue(h);
        insertJob(h, 1, (int) -A_DAY, Jobs.HELD);
        insertJob(h, 2, -120, "p2 two minutes ago");
        insertJob(h, 2, -60, "p2 a minute ago");
        insertJob(h, 1, 3600, "p1 in an hour");
        TableActivationSpec spec = jobSpec(h, mode);
        spec.setMaxReaders("1");
        spec.setBatchSize("1");
        return spec;
    }

    private static void insertJob(InboundHarness h, int priority, int availableInSeconds, String payload)
            throws Exception {
        try (Connection c = h.db.source().open()) {
            JobQueueRows.insert(c, "Job_Queue", priority, availableInSeconds, payload);
            c.commit();
        }
    }

    private static FakeEndpointFactory activate(InboundHarness h, TableRowListener bean, TableActivationSpec spec)
            throws Exception {
        FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class, bean, true,
                h.context.transactions());
        h.ra.endpointActivation(factory, spec);
        return factory;
    }

    /** The bean: holds its first row until released (bounded), then takes every row. */
    static final class Jobs implements TableRowListener {

        static final String HELD = "held";
        final CountDownLatch holding = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final List<String> delivered = new CopyOnWriteArrayList<>();

        @Override
        public void onRow(TableRow row) {
            if (holding.getCount() > 0) {
                holding.countDown();
                try {
                    if (!release.await(60, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("not released");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            delivered.add(row.payloadText());
        }

        /** Waits (bounded) until the bean holds its first row. */
        void awaitHolding() throws InterruptedException {
            assertTrue(holding.await(30, TimeUnit.SECONDS), "the bean got its first row");
        }
    }
}
