package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.conformance.PostgresServer;

/**
 * A connection keeps its prepared statements, and PostgreSQL keeps a prepared statement's plan: after a few executions
 * it may settle on a <em>generic</em> plan, made once with the statistics and the table sizes of that moment. The
 * adapter's connections live long and start on a fresh or drained schema, so the dialog verbs' statements are planned
 * while {@code conversation_endpoint} and {@code conversation_group} are small, and must stay key probes once they have
 * grown (thousands of open dialogs) with no {@code ANALYZE} in between (autovacuum comes later, or not at all).
 * <p>
 * The whole life of a dialog (BEGIN DIALOG and SEND; the target's RECEIVE, reply and END CONVERSATION; the initiator's
 * RECEIVE and END CONVERSATION) runs 20 times on one connection while the tables are analysed empty, then again after
 * 5,000 more dialogs were begun on another connection; the rows the second lives read by sequential scans are
 * counted ({@code pg_stat_xact_user_tables}, the transaction's own counts) and must be those of the small declaration
 * tables only, not the grown ones. The adapter's statements are planned at each execution
 * ({@link org.ssbjca.backend.Jdbc#customPlans}), or, those run once per delivery or per send, kept with a generic plan
 * made without sequential scans ({@link PostgresSql#keptPlanning}), the notifier's check after a commit keeps a generic
 * plan that scans nothing ({@link PostgresSql#GENERIC_PLANS}), and the look for due timers and lifetimes takes the
 * first in its index's order. With generic plans (and no session setting) each life read 20,026 rows by sequential
 * scans of {@code conversation_endpoint} and {@code conversation_group}; before the look's order, 400,160 rows of
 * endpoints over the 20 lives were read by that look alone.
 */
class GrowingTablesDialogTest {

    private static final int LIVES = 20;
    private static final int GROWTH = 5_000;
    /** Rows of the declaration tables (services, contracts, queues, message types) a life may scan. */
    private static final int MAX_SCANNED_ROWS_PER_LIFE = 100;

    @Test
    void dialogVerbsStayKeyProbesAfterTheTablesGrewUnderTheirPlans() throws Exception {
        DatabaseConfig db = PostgresServer.get().newDatabase("growing_tables");
        ConnectionSource source = new ConnectionSource(db);
        // housekeeping's look for due timers and lifetimes at every RECEIVE, not once a second when the run is slow
        PortableOptions everyLook = new PortableOptions(1_000, 1, java.time.Clock.systemUTC());
        try (PortableBroker broker = new PortableBroker(source, BackgroundRunner.daemonThreads(), everyLook);
                Connection c = source.open(); Connection other = source.open()) {
            declaredAndAnalysedEmpty(broker, c);

            for (int i = 0; i < LIVES; i++) {
                life(broker, c);
            }
            IdleGroupsReceiveTest.send(broker, other, GROWTH, 0);

            Map<String, Long> before = scannedRows(c, other);
            for (int i = 0; i < LIVES; i++) {
                life(broker, c);
            }
            Map<String, Long> scanned = scannedRows(c, other);
            scanned.replaceAll((table, rows) -> rows - before.getOrDefault(table, 0L));
            scanned.values().removeIf(rows -> rows == 0);
            long total = scanned.values().stream().mapToLong(Long::longValue).sum();
            assertTrue(total <= (long) MAX_SCANNED_ROWS_PER_LIFE * LIVES, String.format("%d rows read by"
                    + " sequential scans per dialog's life beside %d open dialogs, by table: %s", total / LIVES,
                    GROWTH, scanned));
        }
    }

    /**
     * Declares the queues ({@link IdleGroupsReceiveTest#declare}), then vacuums and analyses every table of the schema
     * while the adapter's are empty, with autovacuum off: their statistics and their sizes say they are empty whatever
     * arrives next.
     */
    static void declaredAndAnalysedEmpty(PortableBroker broker, Connection c) throws Exception {
        IdleGroupsReceiveTest.declare(broker, c);
        List<String> tables = tables(c);
        c.setAutoCommit(true);
        try (Statement st = c.createStatement()) {
            for (String table : tables) {
                // pinned: no autovacuum comes between the ANALYZE and the measurement
                st.execute("ALTER TABLE ssb." + table + " SET (autovacuum_enabled = false)");
                st.execute("VACUUM ANALYZE ssb." + table);
            }
        }
        c.setAutoCommit(false);
    }

    /** One dialog's whole life, in three transactions. */
    private static void life(PortableBroker broker, Connection c) throws Exception {
        BrokerSession s = broker.session(c);
        byte[] body = "work".getBytes(StandardCharsets.UTF_8);
        Conversation d = s.beginDialog("I", "T", "C", DialogOptions.defaults());
        s.send(d.handle(), "M", body);
        commit(c, s);

        List<BrokerMessage> request = s.receive(ReceiveRequest.from("QT").top(1));
        assertEquals(1, request.size(), "the request");
        s.send(request.get(0).conversationHandle(), "M", body);
        s.endConversation(request.get(0).conversationHandle(), null, null);
        commit(c, s);

        List<BrokerMessage> reply = s.receive(ReceiveRequest.from("QI").conversation(d).top(10));
        assertEquals(2, reply.size(), "the reply and the EndDialog");
        s.endConversation(d.handle(), null, null);
        commit(c, s);
    }

    private static void commit(Connection c, BrokerSession s) throws Exception {
        c.commit();
        s.afterCompletion(true);
    }

    /**
     * Rows read by sequential scans so far, per table of the schema: the server's counts once both connections' own
     * counts were handed over to it (a backend does that when it goes idle, at most once a second unless forced).
     */
    static Map<String, Long> scannedRows(Connection c, Connection other) throws Exception {
        for (Connection each : List.of(c, other)) {
            try (Statement st = each.createStatement()) {
                st.execute("SELECT pg_stat_force_next_flush()");
            }
            each.commit();
        }
        Map<String, Long> rows = new TreeMap<>();
        try (Statement st = other.createStatement()) {
            st.execute("SELECT pg_stat_clear_snapshot()");
            try (ResultSet rs = st.executeQuery("SELECT relname, seq_tup_read FROM pg_stat_user_tables"
                    + " WHERE schemaname = 'ssb'")) {
                while (rs.next()) {
                    rows.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        other.commit();
        return rows;
    }

    private static List<String> tables(Connection c) throws Exception {
        List<String> tables = new java.util.ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT table_name FROM"
                + " information_schema.tables WHERE table_schema = 'ssb' AND table_type = 'BASE TABLE'")) {
            while (rs.next()) {
                tables.add(rs.getString(1));
            }
        }
        c.commit();
        return tables;
    }
}
