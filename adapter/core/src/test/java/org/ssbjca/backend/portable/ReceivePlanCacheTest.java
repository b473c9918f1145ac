package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.GroupPresence;
import org.ssbjca.conformance.PostgresServer;

/**
 * A reader runs the RECEIVE from a whole queue once per delivery on a connection that lives long: PostgreSQL must not
 * plan it again at every execution (planning it costs more than running it). It is kept prepared on the server and
 * settles on a generic plan, which must stay cheap when the queue table grows under it with statistics that say it is
 * empty (docs/design/postgresql-receive.md: its plan does not depend on them).
 */
class ReceivePlanCacheTest {

    private static final String RECEIVE_TEXT = "%took_last%";
    private static final int EXECUTIONS = 30;
    /** Messages that arrive after the plan settled, one per conversation. */
    private static final int GROWTH = 3_000;
    /** Rows of the schema's tables a RECEIVE of one message may read by sequential scans: none of the queue's. */
    private static final int MAX_SCANNED_ROWS_PER_RECEIVE = 2;

    @Test
    void theReceiveIsPlannedOnceNotAtEveryExecution() throws Exception {
        ConnectionSource source = new ConnectionSource(PostgresServer.get().newDatabase("receive_plan_cache"));
        try (PortableBroker broker = new PortableBroker(source, BackgroundRunner.daemonThreads(),
                PortableOptions.defaults()); Connection c = source.open()) {
            IdleGroupsReceiveTest.declare(broker, c);
            IdleGroupsReceiveTest.send(broker, c, EXECUTIONS, 1);
            assertEquals(EXECUTIONS, receiveOneByOne(broker.session(c), c, EXECUTIONS));
            Map<String, long[]> plans = plans(c);
            assertEquals(1, plans.size(), "one text");
            long[] one = plans.values().iterator().next();
            assertTrue(one[1] <= 5, "custom plans (one planning each) of " + EXECUTIONS + " executions: " + one[1]
                    + "; generic: " + one[0]);
            assertTrue(one[0] >= EXECUTIONS - 10, "generic plans: " + one[0]);
        }
    }

    /**
     * The probe for prioritised groups, due every {@link GroupPresence#RECHECK_NANOS}, runs before the RECEIVE whose
     * text it decides but not in the transaction the RECEIVE begins: the RECEIVE stays the first statement of its
     * transaction and runs its one text, kept prepared. When the probe began the transaction, the RECEIVE after it
     * ran a second text (without the BEGIN), which a reader runs too seldom for pgjdbc to keep it prepared: PostgreSQL
     * planned it at each run.
     */
    @Test
    void aProbeForPrioritiesLeavesTheReceiveItsOneTextKeptPrepared() throws Exception {
        ConnectionSource source = new ConnectionSource(PostgresServer.get().newDatabase("receive_plan_probed"));
        AtomicLong nanos = new AtomicLong();
        try (PortableBroker broker = new PortableBroker(source, BackgroundRunner.daemonThreads(),
                PortableOptions.defaults(), nanos::get); Connection c = source.open()) {
            IdleGroupsReceiveTest.declare(broker, c);
            IdleGroupsReceiveTest.send(broker, c, EXECUTIONS, 1);
            BrokerSession reader = broker.session(c);
            for (int i = 0; i < EXECUTIONS; i++) {
                if (i % 3 == 0) {
                    nanos.addAndGet(GroupPresence.RECHECK_NANOS); // the probe is due again
                }
                assertEquals(1, reader.receive(ReceiveRequest.from("QT").top(1)).size());
                c.commit();
                reader.afterCompletion(true);
            }
            Map<String, long[]> plans = plans(c);
            assertEquals(1, plans.size(), "one text kept prepared: " + plans.values().stream()
                    .map(p -> p[0] + " generic, " + p[1] + " custom").toList());
            assertTrue(plans.values().iterator().next()[0] >= EXECUTIONS - 10, "generic plans: "
                    + plans.values().iterator().next()[0]);
        }
    }

    @Test
    void theSettledPlanStaysCheapWhenTheQueueGrowsUnderIt() throws Exception {
        ConnectionSource source = new ConnectionSource(PostgresServer.get().newDatabase("receive_plan_growth"));
        // the presence clock stands still: the priorities' probe runs once, so every later RECEIVE is the first
        // statement of its transaction and runs the one text that carries the BEGIN (Statements.listBetween)
        try (PortableBroker broker = new PortableBroker(source, BackgroundRunner.daemonThreads(),
                PortableOptions.defaults(), () -> 0L); Connection c = source.open();
                Connection other = source.open()) {
            StaleStatisticsReceiveTest.analysedEmptyAfterADrain(broker, c);
            BrokerSession reader = broker.session(c);
            IdleGroupsReceiveTest.send(broker, c, EXECUTIONS, 1);
            assertEquals(EXECUTIONS, receiveOneByOne(reader, c, EXECUTIONS));
            Map<String, long[]> settled = plans(c);
            settled.values().removeIf(p -> p[0] == 0);
            assertTrue(!settled.isEmpty(), "the plan settled before the growth");

            IdleGroupsReceiveTest.send(broker, other, GROWTH, 1);
            Map<String, Long> before = GrowingTablesDialogTest.scannedRows(c, other);
            assertEquals(GROWTH, receiveOneByOne(reader, c, GROWTH + 1));
            Map<String, Long> scanned = GrowingTablesDialogTest.scannedRows(c, other);
            scanned.replaceAll((table, rows) -> rows - before.getOrDefault(table, 0L));
            scanned.values().removeIf(rows -> rows == 0);
            long total = scanned.values().stream().mapToLong(Long::longValue).sum();
            Map<String, long[]> after = plans(c);
            long ranSettled = settled.entrySet().stream().filter(e -> after.containsKey(e.getKey()))
                    .mapToLong(e -> after.get(e.getKey())[0] - e.getValue()[0]).sum();
            assertTrue(ranSettled >= GROWTH, "the drain ran the plan settled before it: " + ranSettled + " times");
            assertTrue(total <= (long) MAX_SCANNED_ROWS_PER_RECEIVE * GROWTH, String.format("%d rows read by"
                    + " sequential scans for %d RECEIVEs, by table: %s", total, GROWTH, scanned));
        }
    }

    /**
     * A reader's first wait on an empty queue runs its RECEIVE back to back until the statement's generic plan is
     * cached, before it first sleeps: the first messages after the reader connects are not planned one by one. Without
     * it, the first ten takes on a new connection took 1.2 to 6 ms and the later ones 0.5 to 1 (the benchmark's
     * PostgreSQL), and in the latency phase most of the slowest messages came in a round's first second.
     */
    @Test
    void theFirstWaitOnAnEmptyQueueLeavesTheReceivePlanned() throws Exception {
        ConnectionSource source = new ConnectionSource(PostgresServer.get().newDatabase("receive_plan_primed"));
        try (PortableBroker broker = new PortableBroker(source, BackgroundRunner.daemonThreads(),
                PortableOptions.defaults()); Connection c = source.open()) {
            IdleGroupsReceiveTest.declare(broker, c);
            BrokerSession reader = broker.session(c);
            assertTrue(reader.receive(ReceiveRequest.from("QT").top(1).timeout(java.time.Duration.ofMillis(200)))
                    .isEmpty());
            c.commit();
            reader.afterCompletion(true);
            Map<String, long[]> plans = plans(c);
            assertTrue(plans.values().stream().anyMatch(p -> p[0] >= 1), "the generic plan cached and run: "
                    + plans.values().stream().map(p -> p[0] + " generic, " + p[1] + " custom").toList());
        }
    }

    /**
     * The planner's setting the RECEIVE is planned under lasts only for it: the application's statements after it, in
     * the same transaction, run under the session's own, whatever that is.
     */
    @Test
    void theApplicationsStatementsAfterTheReceiveKeepTheSessionsSetting() throws Exception {
        ConnectionSource source = new ConnectionSource(PostgresServer.get().newDatabase("receive_plan_setting"));
        try (PortableBroker broker = new PortableBroker(source, BackgroundRunner.daemonThreads(),
                PortableOptions.defaults()); Connection c = source.open()) {
            IdleGroupsReceiveTest.declare(broker, c);
            BrokerSession s = broker.session(c);
            for (String session : List.of("on", "off", "on")) {
                IdleGroupsReceiveTest.send(broker, c, 1, 1);
                execute(c, "SET enable_seqscan = " + session);
                c.commit();
                assertEquals(1, s.receive(ReceiveRequest.from("QT").top(1)).size());
                assertEquals(session, show(c), "in the RECEIVE's transaction, after it");
                c.commit();
                s.afterCompletion(true);
                assertEquals(session, show(c), "after its commit");
                c.commit();
            }
        }
    }

    /** Returns the connection's enable_seqscan as its next statement sees it. */
    static String show(Connection c) throws Exception {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW enable_seqscan")) {
            rs.next();
            return rs.getString(1);
        }
    }

    static void execute(Connection c, String sql) throws Exception {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    /**
     * Receives one message per RECEIVE and commits each, at most {@code max} times; returns how many it got. On one
     * session, as a reader's connection keeps one.
     */
    private static int receiveOneByOne(BrokerSession s, Connection c, int max) throws Exception {
        int received = 0;
        for (int i = 0; i < max; i++) {
            List<BrokerMessage> got = s.receive(ReceiveRequest.from("QT").top(1));
            c.commit();
            s.afterCompletion(true);
            if (got.isEmpty()) {
                break;
            }
            received += got.size();
        }
        return received;
    }

    /**
     * The generic and custom plans so far of each RECEIVE kept prepared on this connection (one statement per TOP and
     * variant), by the server's name for it; fails if none is.
     */
    private static Map<String, long[]> plans(Connection c) throws Exception {
        Map<String, long[]> plans = new java.util.HashMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT name, generic_plans,"
                + " custom_plans FROM pg_prepared_statements WHERE statement LIKE '" + RECEIVE_TEXT + "'")) {
            while (rs.next()) {
                plans.put(rs.getString(1), new long[] {rs.getLong(2), rs.getLong(3)});
            }
        }
        c.commit();
        assertTrue(!plans.isEmpty(), "the RECEIVE is kept prepared on the reader's connection");
        return plans;
    }
}
