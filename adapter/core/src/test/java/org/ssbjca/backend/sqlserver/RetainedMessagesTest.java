package org.ssbjca.backend.sqlserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A queue with RETENTION = ON keeps the messages its conversations received (status 1) and sent (status 3) until the
 * conversation ends; only status 0 (ready) is there to be received, and 2 (not yet complete) is on its way to it
 * (https://learn.microsoft.com/sql/t-sql/statements/create-queue-transact-sql, the queue's columns). The queue's
 * readings count what waits to be received, and the reader's candidates are groups it can receive now. The queue is
 * an H2 table with the queue's columns, read through {@link MssqlJdbcDouble}.
 */
class RetainedMessagesTest {

    private static final String G1 = "11111111-1111-1111-1111-111111111111";
    private static final String G2 = "22222222-2222-2222-2222-222222222222";
    private static final String G3 = "33333333-3333-3333-3333-333333333333";
    private static final String REQUEST = "//ssb-jca/priority";

    private Connection h2;
    private MssqlJdbcDouble driver;

    @BeforeEach
    void queue() throws Exception {
        h2 = DriverManager.getConnection("jdbc:h2:mem:retained-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");
        try (Statement s = h2.createStatement()) {
            s.execute("CREATE SCHEMA \"dbo\"");
            s.execute("CREATE TABLE \"dbo\".\"Work_Queue\" (status TINYINT, queuing_order BIGINT,"
                    + " conversation_group_id UUID, message_type_name VARCHAR(100), message_body VARBINARY(100),"
                    + " message_enqueue_time TIMESTAMP)");
            // received and kept (the oldest), sent and kept, ready, not yet complete
            s.execute("INSERT INTO \"dbo\".\"Work_Queue\" VALUES"
                    + " (1, 1, '" + G1 + "', '" + REQUEST + "', X'01', TIMESTAMP '2026-01-01 00:00:00'),"
                    + " (3, 2, '" + G2 + "', 'reply', X'02', TIMESTAMP '2026-01-02 00:00:00'),"
                    + " (0, 3, '" + G1 + "', '" + REQUEST + "', X'03', TIMESTAMP '2026-01-03 00:00:00'),"
                    + " (2, 4, '" + G3 + "', 'work', X'04', TIMESTAMP '2026-01-04 00:00:00')");
        }
        driver = new MssqlJdbcDouble(h2);
    }

    @AfterEach
    void close() throws Exception {
        h2.close();
    }

    @Test
    void theQueuesReadingsCountOnlyMessagesNotYetReceived() {
        SqlServerAdmin admin = new SqlServerAdmin(driver.connection());
        assertEquals(2, admin.queueDepth("dbo.Work_Queue"), "ready and not yet complete");
        assertEquals(2, admin.pendingGroupCount("dbo.Work_Queue"), "groups 1 and 3");
        assertEquals(Instant.parse("2026-01-03T00:00:00Z"), admin.oldestMessage("dbo.Work_Queue"),
                "the oldest message not yet received (enqueue times are UTC)");
    }

    @Test
    void aPriorityRequestAlreadyReceivedIsNotReadAgain() {
        SqlServerLedger ledger = new SqlServerLedger(driver.connection());
        assertEquals(1, ledger.priorityRequests("dbo.Work_Queue", REQUEST).size());
    }

    /** The statements the double cannot run: the same conditions, as text. */
    @Test
    void candidatesAreGroupsWithReadyMessagesAndAGroupWithKeptMessagesOnlyIsDrained() {
        SqlServerNames.QueueName q = SqlServerNames.queue("dbo.Work_Queue");
        assertTrue(TSql.priorityCandidates(q, true).contains("WHERE m.conversation_group_id = p.conversation_group_id"
                + " AND m.status = 0)"), TSql.priorityCandidates(q, true));
        assertTrue(TSql.unheldCandidates(q).contains("WHERE m.status = 0 AND NOT EXISTS"), TSql.unheldCandidates(q));
        assertTrue(TSqlLedger.pendingGroups(q).contains("WITH (NOLOCK)\nLEFT JOIN ssb.conversation_priority AS p"
                + " WITH (READCOMMITTEDLOCK, READPAST) ON p.conversation_group_id = m.conversation_group_id\n"
                + "WHERE m.status IN (0, 2)\n"),
                TSqlLedger.pendingGroups(q));
        assertTrue(TSqlLedger.clearPriorityIfDrained(q).contains("WHERE conversation_group_id = @group AND status IN"
                + " (0, 2))"), TSqlLedger.clearPriorityIfDrained(q));
    }
}
