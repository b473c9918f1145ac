package org.ssbjca.backend.sqlserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.ssbjca.backend.sqlserver.ReadPastRules.Level;
import org.ssbjca.backend.sqlserver.SqlServerNames.QueueName;
import org.ssbjca.backend.table.ColumnRole;
import org.ssbjca.backend.table.TableDefinition;

/**
 * Every statement the SQL Server builders produce, judged by {@link ReadPastRules} (what Microsoft documents for
 * READPAST) on every connection the adapter runs them on: the readers' (XA branches and local transactions), the
 * outbound connections', the bookkeeping and the monitoring connections. The adapter opens each at mssql-jdbc's
 * default, READ COMMITTED (an XA branch takes the connection's level: mssql-jdbc's
 * XAStateTest.testXAIsolationLevelServerVerification), with the database's READ_COMMITTED_SNAPSHOT on or off; an
 * application's bean can change the level of a reader's or an outbound connection with a SET TRANSACTION ISOLATION
 * LEVEL statement on {@code jdbcConnection()}, to READ UNCOMMITTED, REPEATABLE READ or SERIALIZABLE (SNAPSHOT is not
 * supported: see docs/guide/backends.md).
 */
class ReadPastIsolationTest {

    private static final QueueName QUEUE = SqlServerNames.queue("dbo.EchoServiceQueue");

    /** The levels a connection of the adapter can be at when one of its batches starts. */
    private static final List<Level> LEVELS = List.of(Level.READ_UNCOMMITTED, Level.READ_COMMITTED,
            Level.REPEATABLE_READ, Level.SERIALIZABLE);

    @Test
    void theDoubleRefusesWhatMicrosoftDocuments() {
        assertTrue(ReadPastRules.check("SELECT 1 FROM t WITH (READPAST);", Level.SERIALIZABLE, false)
                .startsWith("error 650"));
        assertTrue(ReadPastRules.check("SELECT 1 FROM t WITH (UPDLOCK, READPAST);", Level.SNAPSHOT, false)
                .startsWith("error 650"));
        assertTrue(ReadPastRules.check("SELECT 1 FROM t WITH (READPAST);", Level.READ_COMMITTED, true)
                .contains("without READCOMMITTEDLOCK"));
        assertNull(ReadPastRules.check("SELECT 1 FROM t WITH (READCOMMITTEDLOCK, READPAST);", Level.READ_COMMITTED,
                true));
        assertNull(ReadPastRules.check("SELECT 1 FROM t WITH (READPAST);", Level.REPEATABLE_READ, true));
        assertNull(ReadPastRules.check("SET TRANSACTION ISOLATION LEVEL READ COMMITTED;\n"
                + "SELECT 1 FROM t WITH (READCOMMITTEDLOCK, READPAST);", Level.SERIALIZABLE, true));
    }

    @Test
    void everyReadPastRunsAtEveryLevelOfTheAdaptersConnectionsWithReadCommittedSnapshotOnAndOff() throws Exception {
        Map<String, String> statements = statements();
        int withReadPast = 0;
        List<String> refused = new ArrayList<>();
        for (Map.Entry<String, String> s : statements.entrySet()) {
            withReadPast += ReadPastRules.readPasts(s.getValue()) > 0 ? 1 : 0;
            for (Level level : LEVELS) {
                for (boolean rcsi : new boolean[] {false, true}) {
                    String error = ReadPastRules.check(s.getValue(), level, rcsi);
                    if (error != null) {
                        refused.add(s.getKey() + " at " + level + (rcsi ? ", RCSI on" : ", RCSI off") + ": " + error);
                    }
                }
            }
        }
        assertTrue(withReadPast >= 12, "the statements with READPAST were found: " + withReadPast);
        assertEquals(List.of(), refused);
    }

    /** Every statement text of TSql, TSqlLedger, TSqlAdmin and TSqlTable, by name. */
    static Map<String, String> statements() throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        for (Class<?> builder : List.of(TSql.class, TSqlLedger.class, TSqlAdmin.class)) {
            for (Field f : builder.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
                    f.setAccessible(true);
                    String text = (String) f.get(null);
                    if (text.contains(";")) { // a statement, not a fragment of one
                        out.put(builder.getSimpleName() + "." + f.getName(), text);
                    }
                }
            }
        }
        for (TSql.Filter filter : TSql.Filter.values()) {
            out.put("TSql.receive " + filter, TSql.receive(QUEUE, filter, false));
            out.put("TSql.receive WAITFOR " + filter, TSql.receive(QUEUE, filter, true));
        }
        out.put("TSql.priorityCandidates", TSql.priorityCandidates(QUEUE));
        out.put("TSql.priorityCandidates skipping held", TSql.priorityCandidates(QUEUE, true));
        out.put("TSql.unheldCandidates", TSql.unheldCandidates(QUEUE));
        out.put("TSql.receivePrioritisedGroup", TSql.receivePrioritisedGroup(QUEUE));
        out.put("TSql.getConversationGroup", TSql.getConversationGroup(QUEUE, true));
        out.put("TSqlLedger.priorityRequests", TSqlLedger.priorityRequests(QUEUE));
        out.put("TSqlLedger.clearPriorityIfDrained", TSqlLedger.clearPriorityIfDrained(QUEUE));
        out.put("TSqlLedger.pendingGroups", TSqlLedger.pendingGroups(QUEUE));
        out.put("TSqlLedger.endConversation", TSqlLedger.endConversation(true));
        out.put("TSqlAdmin.queueDepth", TSqlAdmin.queueDepth(QUEUE));
        out.put("TSqlAdmin.oldestMessage", TSqlAdmin.oldestMessage(QUEUE));
        out.put("TSqlAdmin.pendingGroupCount", TSqlAdmin.pendingGroupCount(QUEUE));
        try (Connection c = DriverManager.getConnection("jdbc:h2:mem:readpast-" + System.nanoTime())) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE SCHEMA \"dbo\"");
                s.execute("CREATE TABLE \"dbo\".\"Job_Queue\" (\"ID\" BIGINT PRIMARY KEY, \"Available_Date\""
                        + " TIMESTAMP, \"Timeout_Date\" TIMESTAMP, \"Attempts\" INT, \"Done\" TIMESTAMP,"
                        + " \"Payload\" VARCHAR(100))");
            }
            TSqlTable taken = new TSqlTable(TableDefinition.table("dbo.Job_Queue").column(ColumnRole.KEY, "ID")
                    .column(ColumnRole.PAYLOAD, "Payload").column(ColumnRole.DONE, "Done").build().resolve(c));
            TSqlTable leased = new TSqlTable(TableDefinition.table("dbo.Job_Queue")
                    .mode(TableDefinition.Mode.LEASED).column(ColumnRole.KEY, "ID")
                    .column(ColumnRole.PAYLOAD, "Payload")
                    .column(ColumnRole.AVAILABLE, "Available_Date").column(ColumnRole.LEASE, "Timeout_Date")
                    .column(ColumnRole.ATTEMPTS, "Attempts").build().resolve(c));
            out.put("TSqlTable.take", taken.take(10));
            out.put("TSqlTable.lease", leased.lease(10));
        }
        return out;
    }
}
