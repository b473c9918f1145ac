package org.ssbjca.inbound.table;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import javax.management.JMX;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ssbjca.api.TableRowListener;
import org.ssbjca.fakes.FakeEndpointFactory;
import org.ssbjca.fakes.LogRecords;
import org.ssbjca.inbound.InboundHarness;
import org.ssbjca.management.ObjectNames;
import org.ssbjca.management.RedeliveryJobInfo;
import org.ssbjca.management.SetAsideGroupInfo;
import org.ssbjca.management.SetAsideRowInfo;
import org.ssbjca.management.TableActivationMXBean;

/**
 * Issue 47 point 3: a table activation's MBean lists its set-aside rows grouped by the shape of their
 * {@code errorColumn} (rows without an error, or a table without the column, in one group; first and last seen from
 * the {@code errorTimeColumn}, none without a time), finds them by a text in
 * the error, and redelivers one group only, at once or as a re-queue job at a limited rate (progress, cancel, a bad
 * rate refused naming it). Seed 003's job queue, rows set aside as written, on H2 and PostgreSQL.
 */
class SetAsideGroupsTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({"H2", "PostgreSQL"})
    void setAsideRowsAreGroupedByTheirErrorFoundByTextAndRedeliveredByGroup(String kind) throws Exception {
        try (InboundHarness h = new InboundHarness(TableActivationTest.database(kind), false)) {
            setFiveRowsAside(h);
            List<String> delivered = new CopyOnWriteArrayList<>();
            Started started = start(h, delivered);
            try {
                TableActivationMXBean mx = started.mx();
                List<SetAsideGroupInfo> groups = mx.listSetAsideGroups(100);
                assertEquals(java.sql.Timestamp.valueOf("2026-11-30 09:00:00"), new java.sql.Timestamp(
                        groups.get(0).getFirstSeen().getTime()), "the earliest of the group's last failures");
                assertEquals(java.sql.Timestamp.valueOf("2026-12-01 08:00:00"), new java.sql.Timestamp(
                        groups.get(0).getLastSeen().getTime()), "the latest");
                assertEquals(null, groups.get(1).getFirstSeen(), "no time written to its row");
                assertEquals(null, groups.get(2).getLastSeen());
                assertEquals(List.of("java.lang.IllegalStateException: order <n> not found 3 [1, 2, 5]",
                        "java.sql.SQLException: deadlock on '…' 1 [3]", "(no error recorded) 1 [4]"),
                        groups.stream().map(g -> g.getKey() + " " + g.getCount() + " " + g.getSampleKeys()).toList());
                assertEquals("java.lang.IllegalStateException", groups.get(0).getExceptionClass());
                assertEquals("java.lang.IllegalStateException: order 42 not found", groups.get(0).getExampleError());
                assertEquals(List.of("java.lang.IllegalStateException: order <n> not found 2 [1, 2]"),
                        mx.listSetAsideGroups(2).stream().limit(1)
                                .map(g -> g.getKey() + " " + g.getCount() + " " + g.getSampleKeys()).toList(),
                        "the first 2 rows scanned");

                List<SetAsideRowInfo> found = mx.searchSetAside("DEADLOCK", 100);
                assertEquals(List.of("3 java.sql.SQLException: deadlock on 'Orders'"),
                        found.stream().map(r -> r.getKey() + " " + r.getError()).toList());
                assertEquals(5, mx.searchSetAside("", 100).size());
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> mx.listSetAsideGroups(0));
                assertTrue(e.getMessage().startsWith("scanMax: 0 is out of range"), e.getMessage());

                assertEquals(3, mx.redeliverSetAsideGroup(groups.get(0).getKey(), 100));
                await().atMost(Duration.ofSeconds(30)).until(() -> delivered.size() == 3);
                assertEquals(List.of("a", "b", "e"), delivered.stream().sorted().toList(), "the group only");
                assertEquals(2, mx.getSetAsideRows());
            } finally {
                h.ra.endpointDeactivation(started.factory(), started.spec());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"H2", "PostgreSQL"})
    void aGroupOrASelectionIsReQueuedAtALimitedRateWithProgressAndCancel(String kind) throws Exception {
        try (InboundHarness h = new InboundHarness(TableActivationTest.database(kind), false);
                LogRecords log = LogRecords.named("org.ssbjca.management.RedeliveryJob")) {
            setFiveRowsAside(h);
            List<String> delivered = new CopyOnWriteArrayList<>();
            Started started = start(h, delivered);
            try {
                TableActivationMXBean mx = started.mx();
                assertEquals(null, mx.getRequeueJob(), "none started");
                String group = mx.listSetAsideGroups(100).get(0).getKey();
                for (double bad : new double[] {0, -2}) {
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                            () -> mx.startSetAsideGroupRequeue(group, 100, bad));
                    assertEquals("rowsPerSecond must be over 0 and at most 1000, was " + bad, e.getMessage());
                }

                RedeliveryJobInfo job = mx.startSetAsideGroupRequeue(group, 100, 1000);
                assertEquals(3, job.getTotal());
                assertEquals("group " + group, job.getDescription());
                await("the group re-queued").until(() -> "DONE".equals(mx.getRequeueJob().getState()));
                assertEquals(3, mx.getRequeueJob().getRedelivered());
                // console-failures.md: SSBJCA0313 when a re-queue starts
                List<String> startedLines = log.messages(Level.INFO, "SSBJCA0313");
                assertEquals(1, startedLines.size(), startedLines.toString());
                assertTrue(startedLines.get(0).contains("re-queue of group " + group + " started: 3 set-aside row(s)"
                        + " at 1000.0 per second"), startedLines.get(0));
                await("the group's rows delivered").until(() -> delivered.size() == 3);
                assertEquals(List.of("a", "b", "e"), delivered.stream().sorted().toList(), "the group only");

                // 0.1 row per second: the second row is due 10 s after the first, and the job is cancelled before
                mx.startSetAsideRequeue(new String[] {"4", "3", "99"}, 0.1);
                assertEquals(2, mx.getRequeueJob().getTotal(), "key 99 is not set aside");
                await("the first chosen row re-queued").until(() -> mx.getRequeueJob().getRedelivered() == 1);
                IllegalStateException running = assertThrows(IllegalStateException.class,
                        () -> mx.startSetAsideRequeue(new String[] {"3"}, 1));
                assertTrue(running.getMessage().startsWith("a redelivery is running (2 chosen set-aside row(s))"),
                        running.getMessage());
                assertTrue(mx.cancelRequeue());
                await("the job cancelled").until(() -> "CANCELLED".equals(mx.getRequeueJob().getState()));
                await("the chosen row delivered").until(() -> delivered.contains("d"));
                assertEquals(1, mx.getRequeueJob().getRedelivered());
                assertEquals(List.of("3"), mx.searchSetAside("", 100).stream().map(SetAsideRowInfo::getKey).toList(),
                        "the row after the cancel stays set aside");
            } finally {
                h.ra.endpointDeactivation(started.factory(), started.spec());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"H2", "PostgreSQL"})
    void withoutAnErrorColumnSetAsideRowsMakeOneGroup(String kind) throws Exception {
        try (InboundHarness h = new InboundHarness(TableActivationTest.database(kind), false)) {
            TableActivationTest.createJobQueue(h);
            TableActivationTest.execute(h, "INSERT INTO Job_Queue (ID, Priority, Payload, Attempts) VALUES"
                    + " (1, 1, 'a', 3), (2, 1, 'b', 3)");
            TableRowListener bean = row -> { };
            TableActivationSpec spec = TableActivationTest.jobSpec(h, "leased");
            spec.setMaxAttempts("3");
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class, bean, true,
                    h.context.transactions());
            h.ra.endpointActivation(factory, spec);
            try {
                TableActivation a = TableActivationTest.activation(h, factory);
                TableActivationMXBean mx = JMX.newMXBeanProxy(ManagementFactory.getPlatformMBeanServer(),
                        ObjectNames.tableActivation(a.name()), TableActivationMXBean.class);
                assertEquals(List.of("(no error recorded) 2 [1, 2]"), mx.listSetAsideGroups(100).stream()
                        .map(g -> g.getKey() + " " + g.getCount() + " " + g.getSampleKeys()).toList());
                assertEquals(List.of(), mx.searchSetAside("order", 100));
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }

    /**
     * Creates seed 003's job queue with the error columns and sets 5 rows aside as written: 3 of one shape (keys 1, 2,
     * 5, two of them with a time), a deadlock (3) and one without an error (4).
     */
    private static void setFiveRowsAside(InboundHarness h) throws Exception {
        TableActivationTest.createJobQueue(h);
        TableActivationTest.execute(h, "ALTER TABLE Job_Queue ADD Last_Error VARCHAR(200)",
                "ALTER TABLE Job_Queue ADD Last_Error_At TIMESTAMP",
                "INSERT INTO Job_Queue (ID, Priority, Payload, Attempts, Last_Error, Last_Error_At) VALUES"
                        + " (1, 1, 'a', 3, 'java.lang.IllegalStateException: order 42 not found',"
                        + " TIMESTAMP '2026-11-30 10:05:00'),"
                        + " (2, 1, 'b', 3, 'java.lang.IllegalStateException: order 43 not found',"
                        + " TIMESTAMP '2026-11-30 09:00:00'),"
                        + " (3, 1, 'c', 3, 'java.sql.SQLException: deadlock on ''Orders''', NULL),"
                        + " (4, 1, 'd', 3, NULL, NULL), (5, 1, 'e', 3, 'java.lang.IllegalStateException: order 44"
                        + " not found', TIMESTAMP '2026-12-01 08:00:00')");
    }

    /** A started table activation, to stop in a finally block, and its MBean. */
    private record Started(FakeEndpointFactory factory, TableActivationSpec spec, TableActivationMXBean mx) {
    }

    /** Starts a transactional activation of the job queue with both error columns; its bean records the payloads. */
    private static Started start(InboundHarness h, List<String> delivered) throws Exception {
        TableRowListener bean = row -> delivered.add(row.payloadText());
        TableActivationSpec spec = TableActivationTest.jobSpec(h, "transactional");
        spec.setErrorColumn("Last_Error");
        spec.setErrorTimeColumn("Last_Error_At");
        spec.setMaxAttempts("3");
        spec.setPollMillis("50");
        FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class, bean, true,
                h.context.transactions());
        h.ra.endpointActivation(factory, spec);
        TableActivation a = TableActivationTest.activation(h, factory);
        return new Started(factory, spec, JMX.newMXBeanProxy(ManagementFactory.getPlatformMBeanServer(),
                ObjectNames.tableActivation(a.name()), TableActivationMXBean.class));
    }
}
