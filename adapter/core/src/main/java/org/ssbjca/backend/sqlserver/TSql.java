package org.ssbjca.backend.sqlserver;

import org.ssbjca.backend.sqlserver.SqlServerNames.QueueName;

/**
 * Every Service Broker statement the SQL Server backend sends, and nothing else sends any. Values are always JDBC
 * parameters ({@code ?}), copied into typed local variables at the top of the batch so that each statement reads as
 * in Microsoft's documentation; identifiers that T-SQL cannot take as parameters (queue, FROM service, contract,
 * message type) come only from {@link SqlServerNames}, validated and quoted.
 *
 * <p>SEND, RECEIVE, GET CONVERSATION GROUP and MOVE CONVERSATION must follow a statement ended with a semicolon, so
 * every statement here ends with one. Batches start with {@code SET NOCOUNT ON} so that the only results a batch
 * returns are its final SELECT. The catalog queries are in {@link TSqlAdmin}.
 */
final class TSql {

    /**
     * Puts the statements that follow, to the end of the batch, at READ COMMITTED, the only level (with REPEATABLE
     * READ) at which SQL Server accepts READPAST: at SERIALIZABLE, READ UNCOMMITTED or SNAPSHOT it fails with error
     * 650, whatever other hints go with it (https://learn.microsoft.com/sql/t-sql/queries/hints-transact-sql-table).
     * The adapter opens its connections at READ COMMITTED, but a bean may set another level on the reader's or an
     * outbound connection ({@code jdbcConnection()}). The setting lasts only to the end of the batch: the adapter's
     * batches go to SQL Server as parameterised RPCs (mssql-jdbc's sp_executesql, sp_prepexec or sp_execute), and
     * SQL Server restores every SET option when such a batch returns
     * (https://learn.microsoft.com/sql/t-sql/statements/set-statements-transact-sql), so the caller's level is
     * never changed for the statements after it.
     */
    static final String READ_COMMITTED = "SET TRANSACTION ISOLATION LEVEL READ COMMITTED;\n";

    /**
     * The hints of a read that skips the rows other transactions lock: READPAST, with READCOMMITTEDLOCK so that it
     * reads by locking even with the database's READ_COMMITTED_SNAPSHOT ON, under which SQL Server refuses READPAST at
     * READ COMMITTED without it (the same page). Always after {@link #READ_COMMITTED} in its batch.
     */
    static final String SKIP_LOCKED = "WITH (READCOMMITTEDLOCK, READPAST)";

    /**
     * How the adapter reads Service Broker's times, {@code sys.conversation_endpoints.lifetime} and a queue's
     * {@code message_enqueue_time}: as UTC, and compared only with SQL Server's UTC clock, {@code SYSUTCDATETIME()},
     * never with its local clock ({@code SYSDATETIME()}, {@code GETDATE()}). Microsoft gives those two columns no time
     * zone; the one Service Broker time it documents, {@code sys.transmission_queue.enqueue_time}, is UTC whatever the
     * instance's zone (https://learn.microsoft.com/sql/relational-databases/system-catalog-views/sys-transmission-queue-transact-sql).
     * Not a statement: the name of this contract.
     */
    static final String UTC_TIMES = "SYSUTCDATETIME()";

    /** The queue columns RECEIVE returns, in the order of {@link #RECEIVED_TABLE}. */
    static final String RECEIVE_COLUMNS = "priority, queuing_order, conversation_group_id, conversation_handle,"
            + " message_sequence_number, service_name, service_contract_name, message_type_name, message_body,"
            + " message_enqueue_time";

    /**
     * The table variable RECEIVE ... INTO fills: the queue columns of RECEIVE
     * (https://learn.microsoft.com/sql/t-sql/statements/receive-transact-sql) and {@code message_enqueue_time}, which
     * queues have had since SQL Server 2012
     * (https://learn.microsoft.com/sql/database-engine/configure-windows/sql-server-service-broker). The documentation
     * gives no type for that column; DATETIMEOFFSET takes a datetime or a datetimeoffset by implicit conversion.
     * A datetime converts at offset +00:00: the adapter reads Service Broker's times as UTC ({@link #UTC_TIMES}).
     */
    static final String RECEIVED_TABLE = "DECLARE @received TABLE (priority TINYINT, queuing_order BIGINT,"
            + " conversation_group_id UNIQUEIDENTIFIER, conversation_handle UNIQUEIDENTIFIER,"
            + " message_sequence_number BIGINT, service_name NVARCHAR(512), service_contract_name NVARCHAR(256),"
            + " message_type_name NVARCHAR(256), message_body VARBINARY(MAX),"
            + " message_enqueue_time DATETIMEOFFSET(7));\n";

    /**
     * What RECEIVE put into {@code @received}, with the conversation id from sys.conversation_endpoints
     * (https://learn.microsoft.com/sql/relational-databases/system-catalog-views/sys-conversation-endpoints-transact-sql),
     * in the order RECEIVE documents: conversation by conversation in descending priority, each conversation in
     * ascending message_sequence_number. A table variable keeps no order of its own, so the ORDER BY rebuilds it
     * (conversations of equal priority by their first message in the queue). NOLOCK: conversation_id never changes,
     * and the read must not wait for a transaction that is sending to this conversation.
     * <p>
     * With each message, the failed deliveries recorded for it ({@code recorded_attempts}, NULL for none), read by
     * the ledger's primary key in the same batch: a node that failed the message recorded them, on a connection of
     * its own, before its transaction rolled back and gave the message back, so this read, after the RECEIVE took
     * it, sees them, and a message another node failed {@code maxDeliveryAttempts} times is not delivered again (a
     * fifth rollback would disable the queue:
     * https://learn.microsoft.com/sql/database-engine/service-broker/remove-poison-messages). Read committed, not NOLOCK: a count whose recording rolled back is no failure.
     * <p>
     * And whether the message's group has a priority ({@code has_priority}), however it got it (a scan, the outbound
     * connection, another node): the reader then drops it once the group is drained. READPAST, as in
     * {@link #priorityCandidates}: a priority another transaction is writing is not waited for. At READ COMMITTED
     * ({@link #READ_COMMITTED}, after the RECEIVE, which runs at the session's level).
     * <p>
     * And the message's trace context ({@code trace_context}, NULL for none), taken by {@link #TAKE_TRACES} first.
     */
    /**
     * Takes the trace contexts of the messages RECEIVE put into {@code @received} out of {@code ssb.message_trace}
     * (sql/sqlserver/install.sql, written by {@code ssb.send_traced}) into {@code @traces}: the row of a message is
     * keyed by its conversation id, the direction it went (sent by the initiator when the receiving endpoint is the
     * target: {@code is_initiator} 0) and its message_sequence_number
     * (https://learn.microsoft.com/sql/relational-databases/system-catalog-views/sys-conversation-endpoints-transact-sql,
     * https://learn.microsoft.com/sql/t-sql/statements/receive-transact-sql). One seek of the primary key per
     * message (FORCESEEK: https://learn.microsoft.com/sql/t-sql/queries/hints-transact-sql-table), also when no sender
     * traces (the table then empty); the DELETE is in the RECEIVE's transaction, so a
     * rollback gives back the message and its row together. It waits for no other sender: a sender's row commits with
     * its message, before a RECEIVE can take it. OUTPUT names the receiving endpoint's handle, so that
     * {@link #SELECT_RECEIVED} joins each context to its message without the key again.
     */
    static final String TAKE_TRACES = "DECLARE @traces TABLE (conversation_handle UNIQUEIDENTIFIER,"
            + " message_sequence_number BIGINT, trace_context VARCHAR(1024));\n"
            + "DELETE t OUTPUT r.conversation_handle, deleted.message_sequence_number, deleted.trace_context"
            + " INTO @traces\n"
            + "FROM @received AS r\n"
            + "JOIN sys.conversation_endpoints AS e WITH (NOLOCK) ON e.conversation_handle = r.conversation_handle\n"
            + "JOIN ssb.message_trace AS t WITH (FORCESEEK) ON t.conversation_id = e.conversation_id"
            + " AND t.sent_by_initiator = CAST(1 - e.is_initiator AS BIT)"
            + " AND t.message_sequence_number = r.message_sequence_number;\n";

    static final String SELECT_RECEIVED = READ_COMMITTED + TAKE_TRACES + "SELECT r.priority, r.queuing_order, r.conversation_group_id,"
            + " r.conversation_handle, r.message_sequence_number, r.service_name, r.service_contract_name,"
            + " r.message_type_name, r.message_body, r.message_enqueue_time, e.conversation_id,"
            + " a.attempts AS recorded_attempts,"
            + " CAST(CASE WHEN EXISTS (SELECT 1 FROM ssb.conversation_priority AS p " + SKIP_LOCKED
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
     * The queue of the other side of a conversation, when that side is a service of this database: the queue a SEND
     * or END CONVERSATION puts a message on. Service Broker matches service names byte by byte, hence the binary
     * collation (https://learn.microsoft.com/sql/database-engine/service-broker/naming-service-broker-objects,
     * https://learn.microsoft.com/sql/relational-databases/system-catalog-views/sys-services-transact-sql).
     */
    static final String SELECT_PEER_QUEUE = "SELECT q.name AS queue_name\n"
            + "FROM sys.conversation_endpoints AS e WITH (NOLOCK)\n"
            + "JOIN sys.services AS s"
            + " ON s.name COLLATE Latin1_General_BIN2 = e.far_service COLLATE Latin1_General_BIN2\n"
            + "JOIN sys.service_queues AS q ON q.object_id = s.service_queue_id\n"
            + "WHERE e.conversation_handle = @handle;\n";

    private static final String PROLOGUE = "SET NOCOUNT ON;\n";

    /**
     * A queue's message that RECEIVE can take now: status 0, ready. A queue with RETENTION = ON also keeps the
     * messages its conversations received (1) and sent (3) until they end, and 2 is a message not yet complete
     * (https://learn.microsoft.com/sql/t-sql/statements/create-queue-transact-sql, the queue's columns).
     */
    static final String READY = "status = 0";
    /** A queue's message not yet received: ready, or not yet complete (see {@link #READY}). */
    static final String PENDING = "status IN (0, 2)";

    private TSql() {
    }

    /** Which related clause BEGIN DIALOG has. */
    enum Related {
        NONE, CONVERSATION, CONVERSATION_GROUP
    }

    /**
     * BEGIN DIALOG CONVERSATION, then the new endpoint's conversation id and group.
     * https://learn.microsoft.com/sql/t-sql/statements/begin-dialog-conversation-transact-sql
     *
     * <p>Parameters: target service (string); the related conversation handle or group when {@code related} is not
     * NONE; the lifetime in seconds when {@code lifetime}.
     */
    static String beginDialog(String fromService, String contract, Related related, boolean lifetime,
            boolean encryption) {
        StringBuilder b = new StringBuilder(PROLOGUE)
                .append("DECLARE @handle UNIQUEIDENTIFIER;\n")
                .append("DECLARE @to_service NVARCHAR(256) = ?;\n");
        if (related != Related.NONE) {
            b.append("DECLARE @related UNIQUEIDENTIFIER = ?;\n");
        }
        if (lifetime) {
            b.append("DECLARE @lifetime INT = ?;\n");
        }
        b.append("BEGIN DIALOG CONVERSATION @handle\n")
                .append("    FROM SERVICE ").append(SqlServerNames.service(fromService)).append('\n')
                .append("    TO SERVICE @to_service\n")
                .append("    ON CONTRACT ").append(SqlServerNames.contract(contract)).append('\n')
                .append("    WITH ");
        if (related == Related.CONVERSATION) {
            b.append("RELATED_CONVERSATION = @related, ");
        } else if (related == Related.CONVERSATION_GROUP) {
            b.append("RELATED_CONVERSATION_GROUP = @related, ");
        }
        if (lifetime) {
            b.append("LIFETIME = @lifetime, ");
        }
        b.append("ENCRYPTION = ").append(encryption ? "ON" : "OFF").append(";\n");
        // https://learn.microsoft.com/sql/relational-databases/system-catalog-views/sys-conversation-endpoints-transact-sql
        return b.append("SELECT e.conversation_handle, e.conversation_id, e.conversation_group_id\n")
                .append("FROM sys.conversation_endpoints AS e\n")
                .append("WHERE e.conversation_handle = @handle;").toString();
    }

    /**
     * SEND ON CONVERSATION, after reading the queue the message goes to. SEND refuses a NULL body and omits the body
     * when the clause is absent, so an empty body is sent without the clause.
     * https://learn.microsoft.com/sql/t-sql/statements/send-transact-sql
     *
     * <p>Parameters: handle; the body when {@code withBody}.
     */
    static String send(String messageType, boolean withBody) {
        StringBuilder b = new StringBuilder(PROLOGUE).append("DECLARE @handle UNIQUEIDENTIFIER = ?;\n");
        if (withBody) {
            b.append("DECLARE @body VARBINARY(MAX) = ?;\n");
        }
        b.append(SELECT_PEER_QUEUE)
                .append("SEND ON CONVERSATION @handle MESSAGE TYPE ").append(SqlServerNames.messageType(messageType));
        return b.append(withBody ? " (@body);" : ";").toString();
    }

    /**
     * SEND ON CONVERSATION through {@code ssb.send_traced} (sql/sqlserver/install.sql), which records the sender's
     * trace context in {@code ssb.message_trace} in the SEND's transaction: the convention T-SQL senders follow too
     * (docs/guide/tracing.md), written once. After reading the queue the message goes to, as {@link #send}. The
     * message type is a value here; the procedure quotes it.
     *
     * <p>Parameters: handle; message type; body or NULL (no body); trace context.
     */
    static final String SEND_TRACED = PROLOGUE + "DECLARE @handle UNIQUEIDENTIFIER = ?;\n"
            + "DECLARE @type NVARCHAR(256) = ?;\n"
            + "DECLARE @body VARBINARY(MAX) = ?;\n"
            + "DECLARE @trace VARCHAR(1024) = ?;\n"
            + SELECT_PEER_QUEUE
            + "EXEC ssb.send_traced @handle, @type, @body, @trace;";

    /**
     * Reads, before an END CONVERSATION, which rows of {@code ssb.message_trace} belong to the messages on this
     * endpoint's queue (sent by the other side), so that {@link #FORGET_TRACES} can delete them after it: ending a
     * conversation removes its messages from the service queue, and WITH CLEANUP also the endpoint
     * (https://learn.microsoft.com/sql/t-sql/statements/end-conversation-transact-sql). Messages this side sent stay
     * on the other side's queue, and so do their rows.
     */
    private static final String TRACES_OF_ENDPOINT = "DECLARE @conversation_id UNIQUEIDENTIFIER, @inbound BIT;\n"
            + "SELECT @conversation_id = e.conversation_id, @inbound = CAST(1 - e.is_initiator AS BIT)\n"
            + "FROM sys.conversation_endpoints AS e WITH (NOLOCK)\n"
            + "WHERE e.conversation_handle = @handle;\n";

    /** Deletes the rows {@link #TRACES_OF_ENDPOINT} found, after the END CONVERSATION, in its transaction. */
    private static final String FORGET_TRACES = "\nDELETE FROM ssb.message_trace"
            + " WHERE conversation_id = @conversation_id AND sent_by_initiator = @inbound;";

    /**
     * END CONVERSATION, normally or WITH ERROR, after reading the queue the EndDialog or Error message goes to;
     * forgets the trace contexts of the messages it removes from this side's queue ({@link #TRACES_OF_ENDPOINT}).
     * https://learn.microsoft.com/sql/t-sql/statements/end-conversation-transact-sql
     *
     * <p>Parameters: handle; the error code and description when {@code withError}.
     */
    static String endConversation(boolean withError) {
        StringBuilder b = new StringBuilder(PROLOGUE).append("DECLARE @handle UNIQUEIDENTIFIER = ?;\n");
        if (withError) {
            b.append("DECLARE @code INT = ?;\n").append("DECLARE @description NVARCHAR(3000) = ?;\n");
        }
        b.append(SELECT_PEER_QUEUE).append(TRACES_OF_ENDPOINT).append("END CONVERSATION @handle");
        return b.append(withError ? " WITH ERROR = @code DESCRIPTION = @description;" : ";").append(FORGET_TRACES)
                .toString();
    }

    /**
     * END CONVERSATION ... WITH CLEANUP, forgetting the trace contexts of the messages it removes (as
     * {@link #endConversation}). https://learn.microsoft.com/sql/t-sql/statements/end-conversation-transact-sql
     *
     * <p>Parameters: handle.
     */
    static final String END_CONVERSATION_WITH_CLEANUP = PROLOGUE + "DECLARE @handle UNIQUEIDENTIFIER = ?;\n"
            + TRACES_OF_ENDPOINT
            + "END CONVERSATION @handle WITH CLEANUP;" + FORGET_TRACES;

    /**
     * BEGIN CONVERSATION TIMER. https://learn.microsoft.com/sql/t-sql/statements/begin-conversation-timer-transact-sql
     *
     * <p>Parameters: handle; timeout in seconds.
     */
    static final String BEGIN_CONVERSATION_TIMER = PROLOGUE + "DECLARE @handle UNIQUEIDENTIFIER = ?;\n"
            + "DECLARE @timeout INT = ?;\n"
            + "BEGIN CONVERSATION TIMER (@handle) TIMEOUT = @timeout;";

    /**
     * Schedules a SEND through {@code ssb.schedule_send} (sql/sqlserver/install.sql: a row of
     * {@code ssb.scheduled_send} and a conversation timer whose DialogTimer the activation procedure of
     * {@code ssb.ScheduledSendQueue} turns into the SEND). T-SQL schedules the same way.
     *
     * <p>Parameters: handle; message type; body or NULL; due instant or NULL; delay in milliseconds or NULL (one of the
     * two). Columns: scheduled_id, due_at.
     */
    static final String SCHEDULE_SEND = PROLOGUE + "DECLARE @handle UNIQUEIDENTIFIER = ?;\n"
            + "DECLARE @type NVARCHAR(256) = ?;\n"
            + "DECLARE @body VARBINARY(MAX) = ?;\n"
            + "DECLARE @due_at DATETIMEOFFSET(7) = ?;\n"
            + "DECLARE @delay_ms BIGINT = ?;\n"
            + "DECLARE @id UNIQUEIDENTIFIER;\n"
            + "EXEC ssb.schedule_send @handle, @type, @body, @due_at, @delay_ms, @id OUTPUT;\n"
            + "SELECT scheduled_id, due_at FROM ssb.scheduled_send WHERE scheduled_id = @id;";

    /**
     * Cancels a scheduled send: deletes its row (the timer then finds nothing to send), waiting for an activation that
     * is sending it. The count is selected, as SET NOCOUNT ON leaves the driver's update count at -1.
     *
     * <p>Parameters: scheduled id. Columns: cancelled (0 or 1).
     */
    static final String CANCEL_SCHEDULED_SEND = PROLOGUE + "DECLARE @id UNIQUEIDENTIFIER = ?;\n"
            + "DELETE FROM ssb.scheduled_send WHERE scheduled_id = @id;\n"
            + "SELECT @@ROWCOUNT AS cancelled;";

    /**
     * MOVE CONVERSATION. https://learn.microsoft.com/sql/t-sql/statements/move-conversation-transact-sql
     *
     * <p>Parameters: handle; target group.
     */
    static final String MOVE_CONVERSATION = PROLOGUE + "DECLARE @handle UNIQUEIDENTIFIER = ?;\n"
            + "DECLARE @group UNIQUEIDENTIFIER = ?;\n"
            + "MOVE CONVERSATION @handle TO @group;";

    /** What a RECEIVE is restricted to. */
    enum Filter {
        NONE, CONVERSATION, CONVERSATION_GROUP
    }

    /**
     * [WAITFOR (] RECEIVE TOP (n) ... FROM queue INTO @received [WHERE ...] [), TIMEOUT t], then
     * {@link #SELECT_RECEIVED}. Without {@code waitFor} RECEIVE returns at once; with it, a timeout of -1 waits
     * without limit. https://learn.microsoft.com/sql/t-sql/statements/receive-transact-sql
     *
     * <p>Parameters: top; the timeout in milliseconds when {@code waitFor}; the handle or group when filtered.
     */
    static String receive(QueueName queue, Filter filter, boolean waitFor) {
        StringBuilder b = new StringBuilder(PROLOGUE).append("DECLARE @top INT = ?;\n");
        if (waitFor) {
            b.append("DECLARE @timeout INT = ?;\n");
        }
        if (filter == Filter.CONVERSATION) {
            b.append("DECLARE @handle UNIQUEIDENTIFIER = ?;\n");
        } else if (filter == Filter.CONVERSATION_GROUP) {
            b.append("DECLARE @group UNIQUEIDENTIFIER = ?;\n");
        }
        b.append(RECEIVED_TABLE).append(waitFor ? "WAITFOR (\n    " : "")
                .append("RECEIVE TOP (@top) ").append(RECEIVE_COLUMNS).append('\n')
                .append(waitFor ? "    " : "").append("FROM ").append(queue.quoted()).append(" INTO @received");
        if (filter == Filter.CONVERSATION) {
            b.append(" WHERE conversation_handle = @handle");
        } else if (filter == Filter.CONVERSATION_GROUP) {
            b.append(" WHERE conversation_group_id = @group");
        }
        return b.append(waitFor ? "\n), TIMEOUT @timeout;\n" : ";\n").append(SELECT_RECEIVED).toString();
    }

    /**
     * The prioritised groups of a queue that have messages, highest priority first, then the earliest request: the
     * adapter's own ordering, tried before SQL Server's. READPAST skips priority rows another transaction is writing
     * or deleting instead of waiting for it ({@link #SKIP_LOCKED}, at {@link #READ_COMMITTED});
     * NOLOCK reads the queue without blocking its readers
     * (https://learn.microsoft.com/sql/database-engine/service-broker/querying-queues).
     *
     * <p>Parameters: the quoted queue name (for OBJECT_ID); how many groups at most.
     */
    static String priorityCandidates(QueueName queue) {
        return priorityCandidates(queue, false);
    }

    /**
     * As {@link #priorityCandidates(QueueName)}, leaving out, when asked, the groups a redelivery delay holds.
     *
     * @param queue the queue
     * @param skipHeld whether held groups are left out
     * @return the statement
     */
    static String priorityCandidates(QueueName queue, boolean skipHeld) {
        return PROLOGUE + READ_COMMITTED + "DECLARE @queue_id INT = OBJECT_ID(?);\n"
                + "DECLARE @limit INT = ?;\n"
                + "SELECT TOP (@limit) p.conversation_group_id\n"
                + "FROM ssb.conversation_priority AS p " + SKIP_LOCKED + "\n"
                + "WHERE p.queue_schema = OBJECT_SCHEMA_NAME(@queue_id) AND p.queue_name = OBJECT_NAME(@queue_id)\n"
                + "AND EXISTS (SELECT 1 FROM " + queue.quoted() + " AS m WITH (NOLOCK)"
                + " WHERE m.conversation_group_id = p.conversation_group_id AND m." + READY + ")\n"
                + (skipHeld ? "AND NOT EXISTS (SELECT 1 FROM ssb.conversation_hold AS h " + SKIP_LOCKED
                        + " WHERE h.conversation_group_id = p.conversation_group_id"
                        + " AND h.held_until > SYSDATETIMEOFFSET())\n" : "")
                + "ORDER BY p.priority DESC, p.request_order;";
    }

    /**
     * The queue's conversation groups that no redelivery delay holds, best first as SQL Server's RECEIVE would take
     * them without broker priorities (oldest message first), read WITH (NOLOCK) like {@link #priorityCandidates}; each
     * is then tried with {@link #receivePrioritisedGroup}. Parameters: queue name (as the application names it, as
     * ssb.conversation_hold holds it), limit.
     */
    static String unheldCandidates(QueueName queue) {
        return PROLOGUE + READ_COMMITTED + "DECLARE @queue NVARCHAR(517) = ?;\n"
                + "DECLARE @limit INT = ?;\n"
                + "SELECT TOP (@limit) m.conversation_group_id\n"
                + "FROM " + queue.quoted() + " AS m WITH (NOLOCK)\n"
                + "WHERE m." + READY + " AND NOT EXISTS (SELECT 1 FROM ssb.conversation_hold AS h " + SKIP_LOCKED
                + " WHERE h.conversation_group_id = m.conversation_group_id AND h.queue_name = @queue"
                + " AND h.held_until > SYSDATETIMEOFFSET())\n"
                + "GROUP BY m.conversation_group_id\n"
                + "ORDER BY MIN(m.queuing_order);";
    }

    /**
     * A pause of a reader that found only held groups: WAITFOR DELAY with a local variable in the 'hh:mm:ss.mss'
     * form (https://learn.microsoft.com/sql/t-sql/language-elements/waitfor-transact-sql). Parameters: the delay.
     */
    static final String PAUSE = PROLOGUE + "DECLARE @delay CHAR(12) = ?;\nWAITFOR DELAY @delay;";

    /**
     * RECEIVE from one prioritised group without waiting for its conversation group lock. RECEIVE ... WHERE
     * conversation_group_id waits for a group another transaction holds (it locks the group like every verb that
     * touches it: https://learn.microsoft.com/sql/database-engine/service-broker/conversation-group-locks), and lock
     * waits obey SET LOCK_TIMEOUT: with 0 the statement fails at once with error 1222 and the transaction stays
     * usable (https://learn.microsoft.com/sql/t-sql/statements/set-lock-timeout-transact-sql). READPAST cannot
     * apply to RECEIVE, so LOCK_TIMEOUT is the documented way to skip a held group. The caller's setting is saved
     * and restored.
     *
     * <p>The group was picked from a NOLOCK read, so it may be gone by now: RECEIVE "returns an error" when the
     * conversation group in its WHERE clause does not exist (RECEIVE's remarks), error 8436 "The conversation group
     * ... is not found"; a group that still exists but has no message left is no error, RECEIVE returns no row.
     * Errors 1222 and 8436 are swallowed (the group is skipped: the SELECT returns nothing, and the caller tries the
     * next group, then SQL Server's choice) unless they doomed the transaction (XACT_ABORT ON), in which case they
     * are thrown like every other error. https://learn.microsoft.com/sql/t-sql/language-elements/try-catch-transact-sql
     *
     * <p>Parameters: top; group.
     */
    static String receivePrioritisedGroup(QueueName queue) {
        return PROLOGUE + "DECLARE @top INT = ?;\n"
                + "DECLARE @group UNIQUEIDENTIFIER = ?;\n"
                + "DECLARE @lock_timeout INT = @@LOCK_TIMEOUT;\n"
                + RECEIVED_TABLE
                + "SET LOCK_TIMEOUT 0;\n"
                + "BEGIN TRY\n"
                + "    RECEIVE TOP (@top) " + RECEIVE_COLUMNS + "\n"
                + "    FROM " + queue.quoted() + " INTO @received WHERE conversation_group_id = @group;\n"
                + "END TRY\n"
                + "BEGIN CATCH\n"
                + "    SET LOCK_TIMEOUT @lock_timeout;\n"
                + "    IF ERROR_NUMBER() NOT IN (" + SqlServerErrors.LOCK_TIMEOUT + ", " + SqlServerErrors.GROUP_NOT_FOUND
                + ") OR XACT_STATE() = -1\n"
                + "    BEGIN\n"
                + "        THROW;\n"
                + "    END;\n"
                + "END CATCH;\n"
                + "SET LOCK_TIMEOUT @lock_timeout;\n"
                + SELECT_RECEIVED;
    }

    /**
     * [WAITFOR (] GET CONVERSATION GROUP @group FROM queue [), TIMEOUT t]; the group is NULL when none came.
     * https://learn.microsoft.com/sql/t-sql/statements/get-conversation-group-transact-sql
     *
     * <p>Parameters: the timeout in milliseconds when {@code waitFor} (-1: no limit).
     */
    static String getConversationGroup(QueueName queue, boolean waitFor) {
        StringBuilder b = new StringBuilder(PROLOGUE);
        if (waitFor) {
            b.append("DECLARE @timeout INT = ?;\n");
        }
        b.append("DECLARE @group UNIQUEIDENTIFIER;\n")
                .append(waitFor ? "WAITFOR (" : "")
                .append("GET CONVERSATION GROUP @group FROM ").append(queue.quoted());
        return b.append(waitFor ? "), TIMEOUT @timeout;\n" : ";\n")
                .append("SELECT @group AS conversation_group_id;").toString();
    }

    /**
     * Records a group's priority (replacing an earlier request, which then queues behind the others of its
     * priority), with the queue of the group's endpoints: sys.conversation_endpoints, sys.services, sys.service_queues.
     * Returns the queue, or NULLs when the group does not exist.
     *
     * <p>DELETE then INSERT rather than UPDATE, because request_order is an IDENTITY that a new request must take
     * anew. Neither takes a key-range lock: at READ COMMITTED the DELETE locks the group's row if there is one, the
     * INSERT the new key (conversation_group_id is the primary key), and both locks last to the end of the
     * transaction. A HOLDLOCK (SERIALIZABLE) DELETE of a group without a row would lock the range up to the next key
     * instead, RangeS-U, which the other groups of that range need for their own DELETE (RangeS-U) and INSERT
     * (RangeI-N) and which is compatible with neither (key-range locking in
     * https://learn.microsoft.com/sql/relational-databases/sql-server-transaction-locking-and-row-versioning-guide):
     * priorities set on unrelated groups would wait for each other for as long as a long XA
     * transaction lasts. Two concurrent sets of one group both find no row; the second's INSERT then waits for the
     * first's key, and fails with a duplicate key (2627, or 2601) once the first commits: a statement error that
     * leaves the transaction usable unless XACT_ABORT is ON, so the batch deletes the first's row and inserts its own
     * (the later set wins); a doomed transaction (XACT_STATE() -1) throws as any error does. The locks protect only
     * inside a transaction: in the caller's (explicit, implicit or XA) when there is one, else in a transaction of the
     * batch's own, which it commits, or rolls back on error. Under SET IMPLICIT_TRANSACTIONS ON with no transaction
     * yet, the reads of sys.conversation_endpoints above have already started the caller's
     * (https://learn.microsoft.com/sql/t-sql/statements/set-implicit-transactions-transact-sql).
     *
     * <p>Parameters: group; priority.
     */
    static final String SET_PRIORITY = PROLOGUE + "DECLARE @group UNIQUEIDENTIFIER = ?;\n"
            + "DECLARE @priority INT = ?;\n"
            + "DECLARE @queue_schema SYSNAME, @queue_name SYSNAME;\n"
            + "SELECT TOP (1) @queue_schema = SCHEMA_NAME(q.schema_id), @queue_name = q.name\n"
            + "FROM sys.conversation_endpoints AS e WITH (NOLOCK)\n"
            + "JOIN sys.services AS s ON s.service_id = e.service_id\n"
            + "JOIN sys.service_queues AS q ON q.object_id = s.service_queue_id\n"
            + "WHERE e.conversation_group_id = @group;\n"
            + "IF @queue_name IS NOT NULL\n"
            + "BEGIN\n"
            + "    DECLARE @own_transaction BIT = CASE WHEN @@TRANCOUNT = 0 AND (@@OPTIONS & 2) = 0 THEN 1 ELSE 0 END;\n"
            + "    IF @own_transaction = 1\n"
            + "    BEGIN\n"
            + "        BEGIN TRANSACTION;\n"
            + "    END;\n"
            + "    BEGIN TRY\n"
            + "        DELETE FROM ssb.conversation_priority WHERE conversation_group_id = @group;\n"
            + "        BEGIN TRY\n"
            + "            INSERT INTO ssb.conversation_priority (conversation_group_id, queue_schema, queue_name,"
            + " priority, requested_at)\n"
            + "            VALUES (@group, @queue_schema, @queue_name, @priority, SYSDATETIMEOFFSET());\n"
            + "        END TRY\n"
            + "        BEGIN CATCH\n"
            + "            IF ERROR_NUMBER() NOT IN (2627, 2601) OR XACT_STATE() <> 1\n"
            + "            BEGIN\n"
            + "                THROW;\n"
            + "            END;\n"
            + "            DELETE FROM ssb.conversation_priority WHERE conversation_group_id = @group;\n"
            + "            INSERT INTO ssb.conversation_priority (conversation_group_id, queue_schema, queue_name,"
            + " priority, requested_at)\n"
            + "            VALUES (@group, @queue_schema, @queue_name, @priority, SYSDATETIMEOFFSET());\n"
            + "        END CATCH;\n"
            + "        IF @own_transaction = 1\n"
            + "        BEGIN\n"
            + "            COMMIT TRANSACTION;\n"
            + "        END;\n"
            + "    END TRY\n"
            + "    BEGIN CATCH\n"
            + "        IF @own_transaction = 1 AND @@TRANCOUNT > 0\n"
            + "        BEGIN\n"
            + "            ROLLBACK TRANSACTION;\n"
            + "        END;\n"
            + "        THROW;\n"
            + "    END CATCH;\n"
            + "END;\n"
            + "SELECT @queue_schema AS queue_schema, @queue_name AS queue_name;";

    /** Parameters: group. */
    static final String CLEAR_PRIORITY = "DELETE FROM ssb.conversation_priority WHERE conversation_group_id = ?;";

    /**
     * SET LOCK_TIMEOUT with a literal: a SET inside a parameterised batch (sp_executesql) is undone when the batch
     * ends (https://learn.microsoft.com/sql/t-sql/statements/set-statements-transact-sql), so a session-wide setting
     * must be a plain statement; the value is a number the caller passes, never text.
     * https://learn.microsoft.com/sql/t-sql/statements/set-lock-timeout-transact-sql
     */
    static String setLockTimeout(long millis) {
        if (millis < -1 || millis > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("lock timeout must be -1 or between 0 and " + Integer.MAX_VALUE
                    + " milliseconds: " + millis);
        }
        return "SET LOCK_TIMEOUT " + millis + ";";
    }
}
