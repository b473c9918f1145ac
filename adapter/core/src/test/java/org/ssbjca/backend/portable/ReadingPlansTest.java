package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.BrokerAdmin;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.table.ColumnRole;
import org.ssbjca.backend.table.TableDefinition;
import org.ssbjca.conformance.PostgresServer;

/**
 * The statements behind the monitoring readings (an activation's queue depth, oldest message, pending groups and dead
 * letters; the database's conversation endpoints and transmission queue; a table activation's counts), run on the
 * adapter's own connection beside realistic row counts (1,300 conversation endpoints, 1,300 queued messages, a table
 * of 10,000 rows), then explained there: none may be costed above the session's {@code jit_above_cost}, where
 * PostgreSQL built with JIT (Debian's, on by default) compiles a statement before running it, which costs hundreds of
 * milliseconds. A session that forbids sequential scans costs every statement that must scan at about 1e10.
 */
class ReadingPlansTest {

    private static final int DIALOGS = 650;
    private static final int TABLE_ROWS = 10_000;
    /** The readings: queue depth, oldest, pending groups, dead letters, endpoints, transmission queue, table counts. */
    private static final int READING_STATEMENTS = 7;

    @Test
    void noReadingIsCostedAboveTheJitThreshold() throws Exception {
        DatabaseConfig db = PostgresServer.get().newDatabase("reading_plans");
        ConnectionSource source = new ConnectionSource(db);
        try (PortableBroker broker = new PortableBroker(source, BackgroundRunner.daemonThreads(),
                PortableOptions.defaults()); Connection c = source.open()) {
            IdleGroupsReceiveTest.declare(broker, c);
            IdleGroupsReceiveTest.send(broker, c, DIALOGS, 2);
            try (Statement st = c.createStatement()) {
                st.execute("CREATE TABLE public.work_item (id BIGINT PRIMARY KEY, body BYTEA NOT NULL,"
                        + " enqueued TIMESTAMP NOT NULL, dequeued TIMESTAMP NULL)");
                st.execute("INSERT INTO public.work_item SELECT i, 'work'::bytea, now() - i * interval '1 second',"
                        + " CASE WHEN i % 2 = 0 THEN now() END FROM generate_series(1, " + TABLE_ROWS + ") i");
                st.execute("CREATE INDEX work_item_order ON public.work_item (enqueued)");
            }
            c.commit();
            c.setAutoCommit(true);
            try (Statement st = c.createStatement()) {
                st.execute("ANALYZE");
            }
            c.setAutoCommit(false);
            assertEquals(2L * DIALOGS, count(c, "SELECT COUNT(*) FROM ssb.conversation_endpoint"), "the endpoints");

            RecordedStatements recorded = new RecordedStatements(c);
            Connection r = recorded.connection();
            BrokerAdmin admin = broker.admin(r);
            admin.queueDepth("QT");
            admin.oldestMessage("QT");
            admin.pendingGroupCount("QT");
            broker.ledger(r).deadLetterCount("QT");
            admin.conversationEndpoints(null);
            admin.conversationEndpoints(Instant.now().minus(Duration.ofHours(1)));
            admin.transmissionQueueDepth();
            broker.tableQueue(TableDefinition.table("public.work_item").column(ColumnRole.KEY, "id")
                    .column(ColumnRole.PAYLOAD, "body").column(ColumnRole.ORDER, "enqueued")
                    .column(ColumnRole.DONE, "dequeued").build().resolve(c)).counts(r);
            c.commit();

            double threshold = Double.parseDouble(show(c, "jit_above_cost"));
            Map<String, Double> costs = recorded.explainedCosts(c);
            c.commit();
            assertEquals(READING_STATEMENTS, costs.size(), "the readings' statements: " + costs.keySet());
            Map<String, Double> over = new TreeMap<>(costs);
            over.values().removeIf(cost -> cost <= threshold);
            assertTrue(over.isEmpty(), "costed above jit_above_cost (" + threshold + "): " + over);
        }
    }

    private static long count(Connection c, String sql) throws Exception {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String show(Connection c, String setting) throws Exception {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW " + setting)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
