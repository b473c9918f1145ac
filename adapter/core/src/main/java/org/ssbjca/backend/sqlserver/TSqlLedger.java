package org.ssbjca.backend.sqlserver;

import org.ssbjca.backend.DeliveryLedger;
import org.ssbjca.backend.sqlserver.SqlServerNames.QueueName;

/**
 * The statements on the adapter's own tables (sql/sqlserver/install.sql: ssb.delivery_attempt, ssb.dead_letter,
 * ssb.conversation_priority) and the reads of a queue an operator or a priority scan needs. Plain DML on ordinary
 * tables, plus SELECTs from queues, which SQL Server allows without removing anything
 * (https://learn.microsoft.com/sql/database-engine/service-broker/querying-queues); queues are read WITH (NOLOCK) as
 * that page advises, so that looking never blocks a reader.
 */
final class TSqlLedger {

    private static final String PROLOGUE = "SET NOCOUNT ON;\n";

    /**
     * The failed deliveries of a batch's messages, in one statement whatever the batch's size: the keys come as one
     * XML value, {@code <k h="handle" s="sequence"/>...} ({@link SqlServerLedger#keys}), shredded with
     * {@code nodes()} (every compatibility level; unlike OPENJSON, which needs 130).
     * https://learn.microsoft.com/sql/t-sql/xml/nodes-method-xml-data-type
     *
     * <p>Parameters: the keys (XML).
     */
    static final String ATTEMPTS_OF = PROLOGUE + "DECLARE @keys XML = ?;\n"
            + "SELECT a.conversation_handle, a.message_sequence_number, a.attempts\n"
            + "FROM @keys.nodes('/k') AS t(k)\n"
            + "JOIN ssb.delivery_attempt AS a ON a.conversation_handle = t.k.value('@h', 'UNIQUEIDENTIFIER')\n"
            + "    AND a.message_sequence_number = t.k.value('@s', 'BIGINT');";

    /**
     * One more failed delivery: UPDATE, or INSERT when the message has none yet; UPDLOCK and HOLDLOCK keep two
     * readers that fail on the same message at once from both inserting
     * (https://learn.microsoft.com/sql/t-sql/queries/hints-transact-sql-table). Returns the new count.
     *
     * <p>Parameters: handle, sequence number, queue name, error text.
     */
    static final String RECORD_FAILURE = PROLOGUE + "DECLARE @handle UNIQUEIDENTIFIER = ?;\n"
            + "DECLARE @sequence BIGINT = ?;\n"
            + "DECLARE @queue NVARCHAR(517) = ?;\n"
            + "DECLARE @error NVARCHAR(4000) = ?;\n"
            + "UPDATE ssb.delivery_attempt WITH (UPDLOCK, HOLDLOCK)\n"
            + "SET attempts = attempts + 1, last_error = @error, last_attempt_at = SYSDATETIMEOFFSET()\n"
            + "WHERE conversation_handle = @handle AND message_sequence_number = @sequence;\n"
            + "IF @@ROWCOUNT = 0\n"
            + "BEGIN\n"
            + "    INSERT INTO ssb.delivery_attempt (conversation_handle, message_sequence_number, queue_name, attempts,"
            + " last_error, last_attempt_at)\n"
            + "    VALUES (@handle, @sequence, @queue, 1, @error, SYSDATETIMEOFFSET());\n"
            + "END;\n"
            + "SELECT attempts FROM ssb.delivery_attempt"
            + " WHERE conversation_handle = @handle AND message_sequence_number = @sequence;";

    /**
     * One more failed delivery of a message the failure policy found unrecoverable, marked set aside: as {@link
     * #RECORD_FAILURE}, with {@link DeliveryLedger#SET_ASIDE} added once to the count. Returns the new count.
     *
     * <p>Parameters: handle, sequence number, queue name, error text.
     */
    static final String RECORD_UNRECOVERABLE = PROLOGUE + "DECLARE @handle UNIQUEIDENTIFIER = ?;\n"
            + "DECLARE @sequence BIGINT = ?;\n"
            + "DECLARE @queue NVARCHAR(517) = ?;\n"
            + "DECLARE @error NVARCHAR(4000) = ?;\n"
            + "UPDATE ssb.delivery_attempt WITH (UPDLOCK, HOLDLOCK)\n"
            + "SET attempts = attempts + 1 + CASE WHEN attempts < " + DeliveryLedger.SET_ASIDE + " THEN "
            + DeliveryLedger.SET_ASIDE + " ELSE 0 END,\n"
            + "    last_error = @error, last_attempt_at = SYSDATETIMEOFFSET()\n"
            + "WHERE conversation_handle = @handle AND message_sequence_number = @sequence;\n"
            + "IF @@ROWCOUNT = 0\n"
            + "BEGIN\n"
            + "    INSERT INTO ssb.delivery_attempt (conversation_handle, message_sequence_number, queue_name, attempts,"
            + " last_error, last_attempt_at)\n"
            + "    VALUES (@handle, @sequence, @queue, " + (DeliveryLedger.SET_ASIDE + 1)
            + ", @error, SYSDATETIMEOFFSET());\n"
            + "END;\n"
            + "SELECT attempts FROM ssb.delivery_attempt"
            + " WHERE conversation_handle = @handle AND message_sequence_number = @sequence;";

    /**
     * Holds a conversation group back until now plus a number of milliseconds (the redelivery delay): UPDATE, or
     * INSERT when the group has no hold row yet, with UPDLOCK and HOLDLOCK as in {@link #RECORD_FAILURE}. DATEADD with
     * a millisecond INT (at most one day here) on SYSDATETIMEOFFSET()
     * (https://learn.microsoft.com/sql/t-sql/functions/dateadd-transact-sql).
     *
     * <p>Parameters: group, queue name (as the application names it), milliseconds.
     */
    static final String HOLD_GROUP = PROLOGUE + "DECLARE @group UNIQUEIDENTIFIER = ?;\n"
            + "DECLARE @queue NVARCHAR(517) = ?;\n"
            + "DECLARE @millis INT = ?;\n"
            + "DECLARE @until DATETIMEOFFSET(7) = DATEADD(MILLISECOND, @millis, SYSDATETIMEOFFSET());\n"
            + "UPDATE ssb.conversation_hold WITH (UPDLOCK, HOLDLOCK) SET held_until = @until\n"
            + "WHERE conversation_group_id = @group;\n"
            + "IF @@ROWCOUNT = 0\n"
            + "BEGIN\n"
            + "    INSERT INTO ssb.conversation_hold (conversation_group_id, queue_name, held_until)\n"
            + "    VALUES (@group, @queue, @until);\n"
            + "END;";


    /**
     * Whether a group of the queue is held now, skipping the holds other transactions lock ({@link TSql#SKIP_LOCKED}).
     * Parameters: queue name (as the application names it).
     */
    static final String HAS_HOLDS = PROLOGUE + TSql.READ_COMMITTED + "SELECT TOP (1) 1 FROM ssb.conversation_hold "
            + TSql.SKIP_LOCKED
            + " WHERE queue_name = ? AND held_until > SYSDATETIMEOFFSET();";

    /**
     * Forgets the failed deliveries of a batch's messages and ends the holds of their groups, in one round trip: keys
     * as for {@link #ATTEMPTS_OF}, groups as {@code <g id="group"/>...}.
     *
     * <p>Each DELETE seeks its keys in the table's primary key and touches no other row: the keys are shredded into
     * a table variable first, typed and unique (its own primary key), and FORCESEEK makes the join seek the table
     * for each of them (https://learn.microsoft.com/sql/t-sql/queries/hints-transact-sql-table). A DELETE joined to
     * {@code nodes()} itself leaves the plan to an estimate of how many nodes there are, which may be a scan: it
     * would then lock rows of other deliveries, and two redeliveries that commit at once could deadlock (1205),
     * the loser rolled back and delivered again.
     *
     * <p>Parameters: the keys (XML), the groups (XML).
     */
    static final String CLEAR_ATTEMPTS = PROLOGUE + "DECLARE @keys XML = ?;\n"
            + "DECLARE @groups XML = ?;\n"
            + "DECLARE @k TABLE (h UNIQUEIDENTIFIER NOT NULL, s BIGINT NOT NULL, PRIMARY KEY (h, s));\n"
            + "DECLARE @g TABLE (id UNIQUEIDENTIFIER NOT NULL PRIMARY KEY);\n"
            + "INSERT INTO @k (h, s) SELECT DISTINCT t.k.value('@h', 'UNIQUEIDENTIFIER'), t.k.value('@s', 'BIGINT')\n"
            + "FROM @keys.nodes('/k') AS t(k);\n"
            + "INSERT INTO @g (id) SELECT DISTINCT t.g.value('@id', 'UNIQUEIDENTIFIER') FROM @groups.nodes('/g') AS t(g);\n"
            + "DELETE a FROM @k AS k\n"
            + "JOIN ssb.delivery_attempt AS a WITH (FORCESEEK)"
            + " ON a.conversation_handle = k.h AND a.message_sequence_number = k.s;\n"
            + "DELETE h FROM @g AS g\n"
            + "JOIN ssb.conversation_hold AS h WITH (FORCESEEK) ON h.conversation_group_id = g.id;";

    /**
     * Forgets the failed deliveries of a conversation's messages; appended to the batches that end this side, which
     * declare {@code @handle} and delete those messages from the queue.
     */
    private static final String FORGET_ATTEMPTS_OF_CONVERSATION =
            "\nDELETE FROM ssb.delivery_attempt WHERE conversation_handle = @handle;";

    /**
     * END CONVERSATION (normally or WITH ERROR, as {@link TSql#endConversation}), forgetting the failed deliveries
     * of the messages it deletes: left behind, they would keep the readers looking up attempts for every message.
     *
     * <p>Parameters: as {@link TSql#endConversation}.
     */
    static String endConversation(boolean withError) {
        return TSql.endConversation(withError) + FORGET_ATTEMPTS_OF_CONVERSATION;
    }

    /**
     * END CONVERSATION ... WITH CLEANUP (as {@link TSql#END_CONVERSATION_WITH_CLEANUP}), forgetting the failed
     * deliveries of the messages it deletes.
     *
     * <p>Parameters: handle.
     */
    static final String END_CONVERSATION_WITH_CLEANUP =
            TSql.END_CONVERSATION_WITH_CLEANUP + FORGET_ATTEMPTS_OF_CONVERSATION;

    /**
     * Stores a received message as a dead letter, with the given error or else the last one recorded for it, and
     * forgets its attempts.
     *
     * <p>Parameters: handle, sequence number, error; queue, group, conversation id, message type, service, contract,
     * body, enqueue time, attempts, the copy's conversation id.
     */
    static final String DEAD_LETTER = PROLOGUE + "DECLARE @handle UNIQUEIDENTIFIER = ?;\n"
            + "DECLARE @sequence BIGINT = ?;\n"
            + "DECLARE @error NVARCHAR(4000) = ?;\n"
            + "SELECT @error = COALESCE(@error, last_error) FROM ssb.delivery_attempt"
            + " WHERE conversation_handle = @handle AND message_sequence_number = @sequence;\n"
            + "INSERT INTO ssb.dead_letter (queue_name, conversation_group_id, conversation_handle, conversation_id,"
            + " message_sequence_number, message_type_name, service_name, service_contract_name, message_body,"
            + " enqueued_at, attempts, last_error, dead_lettered_at, copy_conversation_id)\n"
            + "VALUES (?, ?, @handle, ?, @sequence, ?, ?, ?, ?, ?, ?, @error, SYSDATETIMEOFFSET(), ?);\n"
            + "DELETE FROM ssb.delivery_attempt WHERE conversation_handle = @handle AND message_sequence_number = @sequence;";

    static final String DEAD_LETTER_COLUMNS = "dead_letter_id, queue_name, conversation_group_id, conversation_handle,"
            + " conversation_id, message_sequence_number, message_type_name, service_name, service_contract_name,"
            + " message_body, enqueued_at, attempts, last_error, dead_lettered_at, copy_conversation_id";

    /**
     * A page of a queue's dead letters, for an operator. Skips the rows other transactions lock
     * ({@link TSql#SKIP_LOCKED}): a letter a delivery is writing, uncommitted, or one being taken or purged; a
     * monitoring read never waits for a delivery.
     *
     * <p>Parameters: limit, queue, after id.
     */
    static final String DEAD_LETTERS = PROLOGUE + TSql.READ_COMMITTED + "SELECT TOP (?) " + DEAD_LETTER_COLUMNS
            + " FROM ssb.dead_letter " + TSql.SKIP_LOCKED + " WHERE queue_name = ? AND dead_letter_id > ?"
            + " ORDER BY dead_letter_id;";

    /**
     * A page of a queue's dead letters that mention a text ({@code DeliveryLedger.findDeadLetters}), skipping locked
     * rows as {@link #DEAD_LETTERS}. The text columns match with LIKE under their collation (case-insensitive under the
     * default ones), escape character {@code !} ({@link #containing}); the body with CHARINDEX over varbinary(max), a
     * binary comparison of the text's UTF-8 bytes (bound as varbinary, at most 8,000 bytes as CHARINDEX's
     * expressionToFind allows: https://learn.microsoft.com/sql/t-sql/functions/charindex-transact-sql). Without the
     * bodies, message_body is a typed NULL.
     *
     * <p>Parameters: limit, queue, after id, then with a text the pattern three times and the bytes.
     *
     * @param text whether it looks for a text
     * @param bodies whether it reads the bodies
     * @return the statement
     */
    static String findDeadLetters(boolean text, boolean bodies) {
        return PROLOGUE + TSql.READ_COMMITTED + "SELECT TOP (?) " + (bodies ? DEAD_LETTER_COLUMNS
                : DEAD_LETTER_COLUMNS.replace("message_body", "CAST(NULL AS VARBINARY(MAX)) AS message_body"))
                + " FROM ssb.dead_letter " + TSql.SKIP_LOCKED + " WHERE queue_name = ? AND dead_letter_id > ?"
                + (text ? " AND (last_error LIKE ? ESCAPE '!' OR service_name LIKE ? ESCAPE '!'"
                        + " OR message_type_name LIKE ? ESCAPE '!'"
                        + " OR CHARINDEX(CAST(? AS VARBINARY(8000)), message_body) > 0)" : "")
                + " ORDER BY dead_letter_id;";
    }

    /**
     * Returns the LIKE pattern, escape character {@code !}, that matches a value containing a text: T-SQL's LIKE also
     * takes {@code [} as a wildcard (https://learn.microsoft.com/sql/t-sql/language-elements/like-transact-sql).
     *
     * @param text a text to look for
     */
    static String containing(String text) {
        return "%" + text.replace("!", "!!").replace("%", "!%").replace("_", "!_").replace("[", "![") + "%";
    }

    /**
     * Deletes one dead letter and returns it (OUTPUT clause:
     * https://learn.microsoft.com/sql/t-sql/queries/output-clause-transact-sql).
     *
     * <p>Parameters: queue, id.
     */
    static final String TAKE_DEAD_LETTER = "DELETE FROM ssb.dead_letter\n"
            + "OUTPUT DELETED.dead_letter_id, DELETED.queue_name, DELETED.conversation_group_id,"
            + " DELETED.conversation_handle, DELETED.conversation_id, DELETED.message_sequence_number,"
            + " DELETED.message_type_name, DELETED.service_name, DELETED.service_contract_name, DELETED.message_body,"
            + " DELETED.enqueued_at, DELETED.attempts, DELETED.last_error, DELETED.dead_lettered_at,"
            + " DELETED.copy_conversation_id\n"
            + "WHERE queue_name = ? AND dead_letter_id = ?;";

    /** The version of the objects install.sql created, 0 when none is recorded. */
    static final String SCHEMA_VERSION = "SELECT COALESCE(MAX(version), 0) FROM ssb.schema_version;";

    /**
     * The purges return how many rows they deleted as a result set, counted with OUTPUT INTO a table variable: an
     * update count is not there to read when the session has NOCOUNT ON (a server's 'user options' can set it for
     * every session), and mssql-jdbc's executeUpdate then returns -1.
     */
    private static final String COUNTED = PROLOGUE + "DECLARE @changed TABLE (n INT);\n";
    private static final String COUNT = " OUTPUT 1 INTO @changed (n) ";
    private static final String RETURN_COUNT = ";\nSELECT COUNT(*) FROM @changed;";

    /** Parameters: queue. Returns the rows deleted. */
    static final String PURGE_DEAD_LETTERS = COUNTED + "DELETE FROM ssb.dead_letter" + COUNT + "WHERE queue_name = ?"
            + RETURN_COUNT;

    /**
     * How many dead letters a queue has, read WITH (NOLOCK) as the queue depth is ({@link TSqlAdmin#queueDepth}):
     * never waits for a delivery that is writing one, nor for a purge that took a table lock; the count of a moment,
     * which may include a letter whose delivery then rolls back or miss one being moved.
     *
     * <p>Parameters: queue.
     */
    static final String DEAD_LETTER_COUNT = "SELECT COUNT_BIG(*) FROM ssb.dead_letter WITH (NOLOCK)"
            + " WHERE queue_name = ?;";

    /**
     * Parameters: queue, instant (dead_lettered_at is DATETIMEOFFSET: compared at its UTC offset). Returns the rows
     * deleted.
     */
    static final String PURGE_DEAD_LETTERS_BEFORE = COUNTED + "DELETE FROM ssb.dead_letter" + COUNT
            + "WHERE queue_name = ? AND dead_lettered_at < ?" + RETURN_COUNT;

    /**
     * The priority requests in a queue, without removing them.
     *
     * <p>Parameters: message type.
     */
    static String priorityRequests(QueueName queue) {
        return "SELECT conversation_group_id, message_body FROM " + queue.quoted() + " WITH (NOLOCK)"
                + " WHERE message_type_name = ? AND " + TSql.READY + " ORDER BY queuing_order;";
    }

    /**
     * The priorities of a queue's groups; the queue is matched by schema and name as in SET_PRIORITY of
     * {@link TSql}. Skips the priorities other transactions are writing ({@link TSql#SKIP_LOCKED}): never waits for
     * a delivery or a setter.
     *
     * <p>Parameters: the quoted queue name (for OBJECT_ID).
     */
    static final String PRIORITIES = PROLOGUE + TSql.READ_COMMITTED + "DECLARE @queue_id INT = OBJECT_ID(?);\n"
            + "SELECT conversation_group_id, priority FROM ssb.conversation_priority " + TSql.SKIP_LOCKED + "\n"
            + "WHERE queue_schema = OBJECT_SCHEMA_NAME(@queue_id) AND queue_name = OBJECT_NAME(@queue_id);";

    /**
     * Removes a group's priority once the queue holds no message of the group.
     *
     * <p>Parameters: group.
     */
    static String clearPriorityIfDrained(QueueName queue) {
        return PROLOGUE + "DECLARE @group UNIQUEIDENTIFIER = ?;\n"
                + "DELETE FROM ssb.conversation_priority WHERE conversation_group_id = @group\n"
                + "AND NOT EXISTS (SELECT 1 FROM " + queue.quoted() + " WITH (NOLOCK)"
                + " WHERE conversation_group_id = @group AND " + TSql.PENDING + ");";
    }

    /**
     * The groups that have messages, those holding the oldest message first, with their priorities (skipping those
     * other transactions are writing, {@link TSql#SKIP_LOCKED}: never waits for a delivery). The oldest
     * enqueue time is converted to DATETIMEOFFSET as {@link TSql#RECEIVED_TABLE} does: the documentation gives the
     * queue column no type, and mssql-jdbc reads only a datetimeoffset as an OffsetDateTime.
     *
     * <p>Parameters: limit.
     */
    static String pendingGroups(QueueName queue) {
        return PROLOGUE + TSql.READ_COMMITTED + "DECLARE @limit INT = ?;\n"
                + "SELECT TOP (@limit) m.conversation_group_id, COUNT_BIG(*) AS messages,"
                + " CAST(MIN(m.message_enqueue_time) AS DATETIMEOFFSET(7)) AS oldest, MIN(m.queuing_order) AS first_order,"
                + " MAX(p.priority) AS priority\n"
                + "FROM " + queue.quoted() + " AS m WITH (NOLOCK)\n"
                + "LEFT JOIN ssb.conversation_priority AS p " + TSql.SKIP_LOCKED
                + " ON p.conversation_group_id = m.conversation_group_id\n"
                + "WHERE m." + TSql.PENDING + "\n"
                + "GROUP BY m.conversation_group_id\n"
                + "ORDER BY CASE WHEN MAX(p.priority) IS NULL THEN 1 ELSE 0 END, MAX(p.priority) DESC,"
                + " MIN(p.request_order), first_order;";
    }

    private TSqlLedger() {
    }
}
