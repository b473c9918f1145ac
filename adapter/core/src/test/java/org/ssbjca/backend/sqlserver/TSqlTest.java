package org.ssbjca.backend.sqlserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.ssbjca.backend.sqlserver.SqlServerNames.QueueName;

/**
 * The exact T-SQL of every verb, as golden strings a reviewer can hold against Microsoft's syntax. Each {@code ?} is
 * a JDBC parameter; no value ever appears in the text.
 */
class TSqlTest {

    private static final QueueName QUEUE = SqlServerNames.queue("dbo.EchoServiceQueue");

    private static final String PEER_QUEUE = """
            SELECT q.name AS queue_name
            FROM sys.conversation_endpoints AS e WITH (NOLOCK)
            JOIN sys.services AS s ON s.name COLLATE Latin1_General_BIN2 = e.far_service \
            COLLATE Latin1_General_BIN2
            JOIN sys.service_queues AS q ON q.object_id = s.service_queue_id
            WHERE e.conversation_handle = @handle;
            """;

    private static final String RECEIVED_TABLE = "DECLARE @received TABLE (priority TINYINT, queuing_order BIGINT,"
            + " conversation_group_id UNIQUEIDENTIFIER, conversation_handle UNIQUEIDENTIFIER,"
            + " message_sequence_number BIGINT, service_name NVARCHAR(512), service_contract_name NVARCHAR(256),"
            + " message_type_name NVARCHAR(256), message_body VARBINARY(MAX),"
            + " message_enqueue_time DATETIMEOFFSET(7));\n";

    private static final String COLUMNS = "priority, queuing_order, conversation_group_id, conversation_handle,"
            + " message_sequence_number, service_name, service_contract_name, message_type_name, message_body,"
            + " message_enqueue_time";

    private static final String TAKE_TRACES = """
            DECLARE @traces TABLE (conversation_handle UNIQUEIDENTIFIER, message_sequence_number BIGINT, \
            trace_context VARCHAR(1024));
            DELETE t OUTPUT r.conversation_handle, deleted.message_sequence_number, deleted.trace_context INTO @traces
            FROM @received AS r
            JOIN sys.conversation_endpoints AS e WITH (NOLOCK) ON e.conversation_handle = r.conversation_handle
            JOIN ssb.message_trace AS t WITH (FORCESEEK) ON t.conversation_id = e.conversation_id \
            AND t.sent_by_initiator = CAST(1 - e.is_initiator AS BIT) \
            AND t.message_sequence_number = r.message_sequence_number;
            """;

    private static final String SELECT_RECEIVED = "SET TRANSACTION ISOLATION LEVEL READ COMMITTED;\n"
            + TAKE_TRACES
            + "SELECT r.priority, r.queuing_order, r.conversation_group_id,"
            + " r.conversation_handle, r.message_sequence_number, r.service_name, r.service_contract_name,"
            + " r.message_type_name, r.message_body, r.message_enqueue_time, e.conversation_id,"
            + " a.attempts AS recorded_attempts,"
            + " CAST(CASE WHEN EXISTS (SELECT 1 FROM ssb.conversation_priority AS p WITH (READCOMMITTEDLOCK, READPAST)"
            + " WHERE p.conversation_group_id = r.conversation_group_id) THEN 1 ELSE 0 END AS BIT) AS has_priority,"
            + " tc.trace_context\n"
            + "FROM @received AS r\n"
            + "LEFT JOIN sys.conversation_endpoints AS e WITH (NOLOCK)"
            + " ON e.conversation_handle = r.conversation_handle\n"
            + "LEFT JOIN ssb.delivery_attempt AS a ON a.conversation_handle = r.conversation_handle"
            + " AND a.message_sequence_number = r.message_sequence_number\n"
            + "LEFT JOIN @traces AS tc ON tc.conversation_handle = r.conversation_handle"
            + " AND tc.message_sequence_number = r.message_sequence_number\n"
            + "ORDER BY r.priority DESC, MIN(r.queuing_order) OVER (PARTITION BY r.conversation_handle),"
            + " r.conversation_handle, r.message_sequence_number;";

    /**
     * Ending this side removes the messages on its queue (END CONVERSATION's remarks; WITH CLEANUP also the endpoint,
     * hence the key read before): the trace contexts of the messages sent to it go with them.
     */
    private static final String TRACES_OF_ENDPOINT = """
            DECLARE @conversation_id UNIQUEIDENTIFIER, @inbound BIT;
            SELECT @conversation_id = e.conversation_id, @inbound = CAST(1 - e.is_initiator AS BIT)
            FROM sys.conversation_endpoints AS e WITH (NOLOCK)
            WHERE e.conversation_handle = @handle;
            """;

    private static final String FORGET_TRACES =
            "\nDELETE FROM ssb.message_trace WHERE conversation_id = @conversation_id AND sent_by_initiator = @inbound;";

    @Test
    void beginDialogWithDefaults() {
        assertEquals("""
                SET NOCOUNT ON;
                DECLARE @handle UNIQUEIDENTIFIER;
                DECLARE @to_service NVARCHAR(256) = ?;
                BEGIN DIALOG CONVERSATION @handle
                    FROM SERVICE [EchoClientService]
                    TO SERVICE @to_service
                    ON CONTRACT [EchoContract]
                    WITH ENCRYPTION = OFF;
                SELECT e.conversation_handle, e.conversation_id, e.conversation_group_id
                FROM sys.conversation_endpoints AS e
                WHERE e.conversation_handle = @handle;""",
                TSql.beginDialog("EchoClientService", "EchoContract", TSql.Related.NONE, false, false));
    }

    @Test
    void beginDialogWithEveryOption() {
        assertEquals("""
                SET NOCOUNT ON;
                DECLARE @handle UNIQUEIDENTIFIER;
                DECLARE @to_service NVARCHAR(256) = ?;
                DECLARE @related UNIQUEIDENTIFIER = ?;
                DECLARE @lifetime INT = ?;
                BEGIN DIALOG CONVERSATION @handle
                    FROM SERVICE [//Adventure-Works.com/ExpenseClient]
                    TO SERVICE @to_service
                    ON CONTRACT [//Adventure-Works.com/Expenses/ExpenseSubmission]
                    WITH RELATED_CONVERSATION = @related, LIFETIME = @lifetime, ENCRYPTION = ON;
                SELECT e.conversation_handle, e.conversation_id, e.conversation_group_id
                FROM sys.conversation_endpoints AS e
                WHERE e.conversation_handle = @handle;""",
                TSql.beginDialog("//Adventure-Works.com/ExpenseClient",
                        "//Adventure-Works.com/Expenses/ExpenseSubmission", TSql.Related.CONVERSATION, true, true));
        assertTrue(TSql.beginDialog("a", "b", TSql.Related.CONVERSATION_GROUP, false, false)
                .contains("    WITH RELATED_CONVERSATION_GROUP = @related, ENCRYPTION = OFF;\n"));
    }

    @Test
    void send() {
        assertEquals("SET NOCOUNT ON;\n"
                + "DECLARE @handle UNIQUEIDENTIFIER = ?;\n"
                + "DECLARE @body VARBINARY(MAX) = ?;\n"
                + PEER_QUEUE
                + "SEND ON CONVERSATION @handle MESSAGE TYPE [EchoRequest] (@body);", TSql.send("EchoRequest", true));
        assertEquals("SET NOCOUNT ON;\n"
                + "DECLARE @handle UNIQUEIDENTIFIER = ?;\n"
                + PEER_QUEUE
                + "SEND ON CONVERSATION @handle MESSAGE TYPE [EchoRequest];", TSql.send("EchoRequest", false));
    }

    /** A SEND with a trace context is ssb.send_traced's (sql/sqlserver/install.sql), the T-SQL senders' convention. */
    @Test
    void sendTraced() {
        assertEquals("SET NOCOUNT ON;\n"
                + "DECLARE @handle UNIQUEIDENTIFIER = ?;\n"
                + "DECLARE @type NVARCHAR(256) = ?;\n"
                + "DECLARE @body VARBINARY(MAX) = ?;\n"
                + "DECLARE @trace VARCHAR(1024) = ?;\n"
                + PEER_QUEUE
                + "EXEC ssb.send_traced @handle, @type, @body, @trace;", TSql.SEND_TRACED);
    }

    @Test
    void endConversation() {
        assertEquals("SET NOCOUNT ON;\n"
                + "DECLARE @handle UNIQUEIDENTIFIER = ?;\n"
                + PEER_QUEUE
                + TRACES_OF_ENDPOINT
                + "END CONVERSATION @handle;"
                + FORGET_TRACES, TSql.endConversation(false));
        assertEquals("SET NOCOUNT ON;\n"
                + "DECLARE @handle UNIQUEIDENTIFIER = ?;\n"
                + "DECLARE @code INT = ?;\n"
                + "DECLARE @description NVARCHAR(3000) = ?;\n"
                + PEER_QUEUE
                + TRACES_OF_ENDPOINT
                + "END CONVERSATION @handle WITH ERROR = @code DESCRIPTION = @description;"
                + FORGET_TRACES, TSql.endConversation(true));
        assertEquals("SET NOCOUNT ON;\n"
                + "DECLARE @handle UNIQUEIDENTIFIER = ?;\n"
                + TRACES_OF_ENDPOINT
                + "END CONVERSATION @handle WITH CLEANUP;"
                + FORGET_TRACES, TSql.END_CONVERSATION_WITH_CLEANUP);
    }

    @Test
    void scheduleAndCancel() {
        assertEquals("""
                SET NOCOUNT ON;
                DECLARE @handle UNIQUEIDENTIFIER = ?;
                DECLARE @type NVARCHAR(256) = ?;
                DECLARE @body VARBINARY(MAX) = ?;
                DECLARE @due_at DATETIMEOFFSET(7) = ?;
                DECLARE @delay_ms BIGINT = ?;
                DECLARE @id UNIQUEIDENTIFIER;
                EXEC ssb.schedule_send @handle, @type, @body, @due_at, @delay_ms, @id OUTPUT;
                SELECT scheduled_id, due_at FROM ssb.scheduled_send WHERE scheduled_id = @id;""", TSql.SCHEDULE_SEND);
        assertEquals("""
                SET NOCOUNT ON;
                DECLARE @id UNIQUEIDENTIFIER = ?;
                DELETE FROM ssb.scheduled_send WHERE scheduled_id = @id;
                SELECT @@ROWCOUNT AS cancelled;""", TSql.CANCEL_SCHEDULED_SEND);
    }

    @Test
    void timerAndMove() {
        assertEquals("""
                SET NOCOUNT ON;
                DECLARE @handle UNIQUEIDENTIFIER = ?;
                DECLARE @timeout INT = ?;
                BEGIN CONVERSATION TIMER (@handle) TIMEOUT = @timeout;""", TSql.BEGIN_CONVERSATION_TIMER);
        assertEquals("""
                SET NOCOUNT ON;
                DECLARE @handle UNIQUEIDENTIFIER = ?;
                DECLARE @group UNIQUEIDENTIFIER = ?;
                MOVE CONVERSATION @handle TO @group;""", TSql.MOVE_CONVERSATION);
    }

    @Test
    void waitForReceiveFromAnyGroup() {
        assertEquals("SET NOCOUNT ON;\n"
                + "DECLARE @top INT = ?;\n"
                + "DECLARE @timeout INT = ?;\n"
                + RECEIVED_TABLE
                + "WAITFOR (\n"
                + "    RECEIVE TOP (@top) " + COLUMNS + "\n"
                + "    FROM [dbo].[EchoServiceQueue] INTO @received\n"
                + "), TIMEOUT @timeout;\n"
                + SELECT_RECEIVED, TSql.receive(QUEUE, TSql.Filter.NONE, true));
    }

    @Test
    void receiveFromOneConversationOrGroupWithoutWaiting() {
        assertEquals("SET NOCOUNT ON;\n"
                + "DECLARE @top INT = ?;\n"
                + "DECLARE @handle UNIQUEIDENTIFIER = ?;\n"
                + RECEIVED_TABLE
                + "RECEIVE TOP (@top) " + COLUMNS + "\n"
                + "FROM [dbo].[EchoServiceQueue] INTO @received WHERE conversation_handle = @handle;\n"
                + SELECT_RECEIVED, TSql.receive(QUEUE, TSql.Filter.CONVERSATION, false));
        assertEquals("SET NOCOUNT ON;\n"
                + "DECLARE @top INT = ?;\n"
                + "DECLARE @timeout INT = ?;\n"
                + "DECLARE @group UNIQUEIDENTIFIER = ?;\n"
                + RECEIVED_TABLE
                + "WAITFOR (\n"
                + "    RECEIVE TOP (@top) " + COLUMNS + "\n"
                + "    FROM [dbo].[EchoServiceQueue] INTO @received WHERE conversation_group_id = @group\n"
                + "), TIMEOUT @timeout;\n"
                + SELECT_RECEIVED, TSql.receive(QUEUE, TSql.Filter.CONVERSATION_GROUP, true));
    }

    @Test
    void priorityCandidatesSkipRowsInFlightAndReadTheQueueWithoutLocks() {
        assertEquals("""
                SET NOCOUNT ON;
                SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
                DECLARE @queue_id INT = OBJECT_ID(?);
                DECLARE @limit INT = ?;
                SELECT TOP (@limit) p.conversation_group_id
                FROM ssb.conversation_priority AS p WITH (READCOMMITTEDLOCK, READPAST)
                WHERE p.queue_schema = OBJECT_SCHEMA_NAME(@queue_id) AND p.queue_name = OBJECT_NAME(@queue_id)
                AND EXISTS (SELECT 1 FROM [dbo].[EchoServiceQueue] AS m WITH (NOLOCK) \
                WHERE m.conversation_group_id = p.conversation_group_id AND m.status = 0)
                ORDER BY p.priority DESC, p.request_order;""", TSql.priorityCandidates(QUEUE));
    }

    @Test
    void unheldCandidatesReadTheQueueWithoutLocksAndLeaveHeldGroupsOut() {
        assertEquals("""
                SET NOCOUNT ON;
                SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
                DECLARE @queue NVARCHAR(517) = ?;
                DECLARE @limit INT = ?;
                SELECT TOP (@limit) m.conversation_group_id
                FROM [dbo].[EchoServiceQueue] AS m WITH (NOLOCK)
                WHERE m.status = 0 AND NOT EXISTS (SELECT 1 FROM ssb.conversation_hold AS h WITH (READCOMMITTEDLOCK, READPAST) \
                WHERE h.conversation_group_id = m.conversation_group_id AND h.queue_name = @queue \
                AND h.held_until > SYSDATETIMEOFFSET())
                GROUP BY m.conversation_group_id
                ORDER BY MIN(m.queuing_order);""", TSql.unheldCandidates(QUEUE));
        assertEquals("SET NOCOUNT ON;\nDECLARE @delay CHAR(12) = ?;\nWAITFOR DELAY @delay;", TSql.PAUSE);
        assertEquals(TSql.priorityCandidates(QUEUE).replace("ORDER BY", "AND NOT EXISTS (SELECT 1 FROM"
                + " ssb.conversation_hold AS h WITH (READCOMMITTEDLOCK, READPAST) WHERE h.conversation_group_id = p.conversation_group_id"
                + " AND h.held_until > SYSDATETIMEOFFSET())\nORDER BY"), TSql.priorityCandidates(QUEUE, true),
                "prioritised groups that are held are left out too");
        assertEquals("00:00:01.000", Batches.delay(1_000));
        assertEquals("00:01:02.003", Batches.delay(62_003));
    }

    @Test
    void prioritisedReceiveNeverWaitsForAGroupLock() {
        assertEquals("SET NOCOUNT ON;\n"
                + "DECLARE @top INT = ?;\n"
                + "DECLARE @group UNIQUEIDENTIFIER = ?;\n"
                + "DECLARE @lock_timeout INT = @@LOCK_TIMEOUT;\n"
                + RECEIVED_TABLE
                + "SET LOCK_TIMEOUT 0;\n"
                + "BEGIN TRY\n"
                + "    RECEIVE TOP (@top) " + COLUMNS + "\n"
                + "    FROM [dbo].[EchoServiceQueue] INTO @received WHERE conversation_group_id = @group;\n"
                + "END TRY\n"
                + "BEGIN CATCH\n"
                + "    SET LOCK_TIMEOUT @lock_timeout;\n"
                + "    IF ERROR_NUMBER() NOT IN (1222, 8436) OR XACT_STATE() = -1\n"
                + "    BEGIN\n"
                + "        THROW;\n"
                + "    END;\n"
                + "END CATCH;\n"
                + "SET LOCK_TIMEOUT @lock_timeout;\n"
                + SELECT_RECEIVED, TSql.receivePrioritisedGroup(QUEUE));
    }

    @Test
    void getConversationGroup() {
        assertEquals("""
                SET NOCOUNT ON;
                DECLARE @timeout INT = ?;
                DECLARE @group UNIQUEIDENTIFIER;
                WAITFOR (GET CONVERSATION GROUP @group FROM [dbo].[EchoServiceQueue]), TIMEOUT @timeout;
                SELECT @group AS conversation_group_id;""", TSql.getConversationGroup(QUEUE, true));
        assertEquals("""
                SET NOCOUNT ON;
                DECLARE @group UNIQUEIDENTIFIER;
                GET CONVERSATION GROUP @group FROM [EchoQueue];
                SELECT @group AS conversation_group_id;""",
                TSql.getConversationGroup(SqlServerNames.queue("EchoQueue"), false));
    }

    @Test
    void priorities() {
        assertEquals("""
                SET NOCOUNT ON;
                DECLARE @group UNIQUEIDENTIFIER = ?;
                DECLARE @priority INT = ?;
                DECLARE @queue_schema SYSNAME, @queue_name SYSNAME;
                SELECT TOP (1) @queue_schema = SCHEMA_NAME(q.schema_id), @queue_name = q.name
                FROM sys.conversation_endpoints AS e WITH (NOLOCK)
                JOIN sys.services AS s ON s.service_id = e.service_id
                JOIN sys.service_queues AS q ON q.object_id = s.service_queue_id
                WHERE e.conversation_group_id = @group;
                IF @queue_name IS NOT NULL
                BEGIN
                    DECLARE @own_transaction BIT = CASE WHEN @@TRANCOUNT = 0 AND (@@OPTIONS & 2) = 0 THEN 1 ELSE 0 END;
                    IF @own_transaction = 1
                    BEGIN
                        BEGIN TRANSACTION;
                    END;
                    BEGIN TRY
                        DELETE FROM ssb.conversation_priority WHERE conversation_group_id = @group;
                        BEGIN TRY
                            INSERT INTO ssb.conversation_priority (conversation_group_id, queue_schema, queue_name, \
                priority, requested_at)
                            VALUES (@group, @queue_schema, @queue_name, @priority, SYSDATETIMEOFFSET());
                        END TRY
                        BEGIN CATCH
                            IF ERROR_NUMBER() NOT IN (2627, 2601) OR XACT_STATE() <> 1
                            BEGIN
                                THROW;
                            END;
                            DELETE FROM ssb.conversation_priority WHERE conversation_group_id = @group;
                            INSERT INTO ssb.conversation_priority (conversation_group_id, queue_schema, queue_name, \
                priority, requested_at)
                            VALUES (@group, @queue_schema, @queue_name, @priority, SYSDATETIMEOFFSET());
                        END CATCH;
                        IF @own_transaction = 1
                        BEGIN
                            COMMIT TRANSACTION;
                        END;
                    END TRY
                    BEGIN CATCH
                        IF @own_transaction = 1 AND @@TRANCOUNT > 0
                        BEGIN
                            ROLLBACK TRANSACTION;
                        END;
                        THROW;
                    END CATCH;
                END;
                SELECT @queue_schema AS queue_schema, @queue_name AS queue_name;""", TSql.SET_PRIORITY);
        assertEquals("DELETE FROM ssb.conversation_priority WHERE conversation_group_id = ?;", TSql.CLEAR_PRIORITY);
    }

    @Test
    void pendingGroupsReadTheEnqueueTimeAsDatetimeoffset() {
        // mssql-jdbc cannot read a datetime column as an OffsetDateTime: the statement converts, as RECEIVE does
        assertEquals("""
                SET NOCOUNT ON;
                SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
                DECLARE @limit INT = ?;
                SELECT TOP (@limit) m.conversation_group_id, COUNT_BIG(*) AS messages, \
                CAST(MIN(m.message_enqueue_time) AS DATETIMEOFFSET(7)) AS oldest, MIN(m.queuing_order) AS first_order, \
                MAX(p.priority) AS priority
                FROM [dbo].[EchoServiceQueue] AS m WITH (NOLOCK)
                LEFT JOIN ssb.conversation_priority AS p WITH (READCOMMITTEDLOCK, READPAST) \
                ON p.conversation_group_id = m.conversation_group_id
                WHERE m.status IN (0, 2)
                GROUP BY m.conversation_group_id
                ORDER BY CASE WHEN MAX(p.priority) IS NULL THEN 1 ELSE 0 END, MAX(p.priority) DESC, \
                MIN(p.request_order), first_order;""", TSqlLedger.pendingGroups(QUEUE));
    }

    @Test
    void lockTimeoutIsANumberNeverText() {
        assertEquals("SET LOCK_TIMEOUT 0;", TSql.setLockTimeout(0));
        assertEquals("SET LOCK_TIMEOUT -1;", TSql.setLockTimeout(-1));
        assertEquals("SET LOCK_TIMEOUT 1800;", TSql.setLockTimeout(1800));
        assertThrows(IllegalArgumentException.class, () -> TSql.setLockTimeout(-2));
        assertThrows(IllegalArgumentException.class, () -> TSql.setLockTimeout(Integer.MAX_VALUE + 1L));
    }

    @Test
    void everyStatementEndsItsStatementsWithSemicolons() {
        // SEND, RECEIVE, GET CONVERSATION GROUP and MOVE CONVERSATION must follow a statement ended with ';'
        for (String sql : new String[] {TSql.send("t", true), TSql.receive(QUEUE, TSql.Filter.NONE, true),
            TSql.receive(QUEUE, TSql.Filter.NONE, false), TSql.receivePrioritisedGroup(QUEUE),
            TSql.getConversationGroup(QUEUE, false), TSql.MOVE_CONVERSATION}) {
            String[] lines = sql.split("\n");
            for (int i = 1; i < lines.length; i++) {
                String line = lines[i].strip();
                if (line.startsWith("SEND ") || line.startsWith("RECEIVE ") || line.startsWith("WAITFOR (")
                        || line.startsWith("GET CONVERSATION") || line.startsWith("MOVE ")) {
                    String before = lines[i - 1].strip();
                    assertTrue(before.endsWith(";") || before.equals("BEGIN TRY") || before.equals("WAITFOR ("),
                            "no ';' before: " + line + " in\n" + sql);
                }
            }
        }
    }

    @Test
    void hostileNamesNeverEscapeTheirBrackets() {
        String attack = "x]; DROP TABLE t; --";
        String sql = TSql.send(attack, true);
        assertTrue(sql.endsWith("MESSAGE TYPE [x]]; DROP TABLE t; --] (@body);"), sql);
        String dialog = TSql.beginDialog(attack, attack, TSql.Related.NONE, false, false);
        assertTrue(dialog.contains("FROM SERVICE [x]]; DROP TABLE t; --]\n"), dialog);
        assertTrue(dialog.contains("ON CONTRACT [x]]; DROP TABLE t; --]\n"), dialog);
        assertFalse(dialog.contains("DROP TABLE t; --]]"), dialog);
        assertThrows(IllegalArgumentException.class, () -> TSql.send("bad\u0000name", false));
        assertThrows(IllegalArgumentException.class, () -> TSql.beginDialog("ok", "", TSql.Related.NONE, false, false));
    }

    @Test
    void administration() {
        assertEquals("""
                IF NOT EXISTS (SELECT 1 FROM sys.service_message_types WHERE name = ?)
                    CREATE MESSAGE TYPE [EchoRequest] VALIDATION = WELL_FORMED_XML;""",
                TSqlTestAdmin.createMessageType("EchoRequest", org.ssbjca.backend.Validation.WELL_FORMED_XML));
        Map<String, org.ssbjca.backend.SentBy> types = new LinkedHashMap<>();
        types.put("EchoRequest", org.ssbjca.backend.SentBy.INITIATOR);
        types.put("EchoReply", org.ssbjca.backend.SentBy.TARGET);
        types.put("DEFAULT", org.ssbjca.backend.SentBy.ANY);
        assertEquals("""
                IF NOT EXISTS (SELECT 1 FROM sys.service_contracts WHERE name = ?)
                    CREATE CONTRACT [EchoContract] ([EchoRequest] SENT BY INITIATOR, [EchoReply] SENT BY TARGET, \
                [DEFAULT] SENT BY ANY);""", TSqlTestAdmin.createContract("EchoContract", types));
        assertThrows(IllegalArgumentException.class, () -> TSqlTestAdmin.createContract("Empty", Map.of()));
        assertEquals("""
                IF NOT EXISTS (SELECT 1 FROM sys.service_queues WHERE object_id = OBJECT_ID(?))
                    CREATE QUEUE [dbo].[EchoServiceQueue] WITH STATUS = ON, RETENTION = OFF, \
                POISON_MESSAGE_HANDLING (STATUS = OFF);""", TSqlTestAdmin.createQueue(QUEUE));
        assertEquals("""
                IF NOT EXISTS (SELECT 1 FROM sys.services WHERE name = ?)
                    CREATE SERVICE [EchoClientService] ON QUEUE [EchoClientQueue];""",
                TSqlTestAdmin.createService("EchoClientService", SqlServerNames.queue("EchoClientQueue")));
        assertEquals("""
                IF NOT EXISTS (SELECT 1 FROM sys.services WHERE name = ?)
                    CREATE SERVICE [EchoService] ON QUEUE [dbo].[EchoServiceQueue] ([EchoContract], [DEFAULT]);""",
                TSqlTestAdmin.createService("EchoService", QUEUE, "EchoContract", "DEFAULT"));
        assertEquals("ALTER QUEUE [dbo].[EchoServiceQueue] WITH STATUS = OFF;", TSqlTestAdmin.setQueueStatus(QUEUE, false));
        assertEquals("ALTER QUEUE [dbo].[EchoServiceQueue] WITH STATUS = ON;", TSqlTestAdmin.setQueueStatus(QUEUE, true));
        assertEquals("SELECT is_receive_enabled FROM sys.service_queues WHERE object_id = OBJECT_ID(?);",
                TSqlAdmin.QUEUE_ENABLED);
        assertEquals("SELECT COUNT_BIG(*) FROM [dbo].[EchoServiceQueue] WITH (NOLOCK) WHERE status IN (0, 2);",
                TSqlAdmin.queueDepth(QUEUE), "not the messages a queue with RETENTION = ON keeps");
        assertEquals("SELECT CAST(MIN(message_enqueue_time) AS DATETIMEOFFSET(7)) AS oldest FROM"
                + " [dbo].[EchoServiceQueue] WITH (NOLOCK) WHERE status IN (0, 2);", TSqlAdmin.oldestMessage(QUEUE));
        assertEquals("SELECT COUNT_BIG(*) FROM sys.transmission_queue WITH (NOLOCK);",
                TSqlAdmin.TRANSMISSION_QUEUE_DEPTH);
        assertEquals("SELECT COUNT_BIG(DISTINCT conversation_group_id) FROM [dbo].[EchoServiceQueue] WITH (NOLOCK)"
                + " WHERE status IN (0, 2);", TSqlAdmin.pendingGroupCount(QUEUE));
        String endpoints = """
                FROM sys.conversation_endpoints AS e WITH (NOLOCK)
                JOIN sys.services AS s ON s.service_id = e.service_id
                CROSS APPLY (SELECT CASE WHEN DATEADD(SECOND, -2147483647, e.lifetime) > DATEADD(YEAR, -10, \
                SYSUTCDATETIME()) THEN CAST(DATEADD(SECOND, -2147483647, e.lifetime) AS DATETIMEOFFSET(7)) END \
                AS begun) AS b
                WHERE e.is_system = 0 AND (@all = 1 OR b.begun < @before)""";
        assertEquals("""
                SET NOCOUNT ON;
                DECLARE @all BIT = ?;
                DECLARE @before DATETIMEOFFSET(7) = ?;
                SELECT s.name AS service_name, e.state, COUNT_BIG(*) AS n, MIN(b.begun) AS oldest
                """ + endpoints + """

                GROUP BY s.name, e.state
                ORDER BY s.name, e.state;""", TSqlAdmin.CONVERSATION_ENDPOINTS);
        assertEquals("""
                SET NOCOUNT ON;
                DECLARE @service NVARCHAR(256) = ?;
                DECLARE @state CHAR(2) = ?;
                DECLARE @all BIT = ?;
                DECLARE @before DATETIMEOFFSET(7) = ?;
                DECLARE @max INT = ?;
                SELECT TOP (@max) e.conversation_handle
                """ + endpoints + """
                 AND s.name = @service AND e.state = @state
                ORDER BY e.lifetime;""", TSqlAdmin.CONVERSATION_HANDLES);
        assertEquals("SELECT COUNT_BIG(*) FROM ssb.dead_letter WITH (NOLOCK) WHERE queue_name = ?;",
                TSqlLedger.DEAD_LETTER_COUNT);
        assertEquals("SELECT state FROM sys.conversation_endpoints WITH (NOLOCK) WHERE conversation_handle = ?;",
                TSqlTestAdmin.ENDPOINT_STATE);
        assertEquals("SELECT COUNT_BIG(*) FROM sys.conversation_endpoints WITH (NOLOCK)"
                + " WHERE state <> 'CD' AND is_system = 0;", TSqlTestAdmin.ENDPOINT_COUNT);
        assertEquals("""
                SELECT p.conversation_handle
                FROM sys.conversation_endpoints AS e WITH (NOLOCK)
                JOIN sys.conversation_endpoints AS p WITH (NOLOCK) ON p.conversation_id = e.conversation_id \
                AND p.is_initiator <> e.is_initiator
                WHERE e.conversation_handle = ?;""", TSqlTestAdmin.PEER_HANDLE);
        assertEquals("""
                SET NOCOUNT ON;
                DECLARE @handle UNIQUEIDENTIFIER;
                DECLARE endpoints CURSOR LOCAL STATIC READ_ONLY FOR
                    SELECT conversation_handle FROM sys.conversation_endpoints WHERE is_system = 0;
                OPEN endpoints;
                FETCH NEXT FROM endpoints INTO @handle;
                WHILE @@FETCH_STATUS = 0
                BEGIN
                    END CONVERSATION @handle WITH CLEANUP;
                    FETCH NEXT FROM endpoints INTO @handle;
                END;
                CLOSE endpoints;
                DEALLOCATE endpoints;
                DELETE FROM ssb.conversation_priority;
                DELETE FROM ssb.delivery_attempt;
                DELETE FROM ssb.dead_letter;""", TSqlTestAdmin.PURGE_CONVERSATIONS);
    }
}
