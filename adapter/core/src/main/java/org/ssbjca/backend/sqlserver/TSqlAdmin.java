package org.ssbjca.backend.sqlserver;

import org.ssbjca.backend.sqlserver.SqlServerNames.QueueName;

/**
 * The catalog queries the adapter runs on SQL Server besides the verbs: the second half of {@link TSql}, under the
 * same rules (values bound, identifiers from {@link SqlServerNames}). Reads use NOLOCK where they only inspect, so
 * that they never wait for a transaction that is changing a conversation.
 */
final class TSqlAdmin {

    private TSqlAdmin() {
    }

    /**
     * https://learn.microsoft.com/sql/relational-databases/system-catalog-views/sys-service-queues-transact-sql
     *
     * <p>Parameters: the quoted queue name (for OBJECT_ID).
     */
    static final String QUEUE_ENABLED =
            "SELECT is_receive_enabled FROM sys.service_queues WHERE object_id = OBJECT_ID(?);";

    /**
     * A queue is the source of a SELECT; NOLOCK as the documentation advises, so that counting never blocks the
     * readers. https://learn.microsoft.com/sql/database-engine/service-broker/querying-queues. Counted: the messages
     * not yet received ({@link TSql#PENDING}), not those a queue with RETENTION = ON keeps.
     *
     * <p>No parameters.
     */
    static String queueDepth(QueueName queue) {
        return "SELECT COUNT_BIG(*) FROM " + queue.quoted() + " WITH (NOLOCK) WHERE " + TSql.PENDING + ";";
    }

    /**
     * When the oldest message of a queue was put on it, read like {@link #queueDepth} (NOLOCK, never blocks a
     * reader); {@code message_enqueue_time} is read as UTC ({@link TSql#UTC_TIMES}), cast to DATETIMEOFFSET as the
     * pending groups' is. No parameters.
     * https://learn.microsoft.com/sql/t-sql/statements/create-queue-transact-sql (the columns of a queue)
     */
    static String oldestMessage(QueueName queue) {
        return "SELECT CAST(MIN(message_enqueue_time) AS DATETIMEOFFSET(7)) AS oldest FROM " + queue.quoted()
                + " WITH (NOLOCK) WHERE " + TSql.PENDING + ";";
    }

    /** https://learn.microsoft.com/sql/relational-databases/system-catalog-views/sys-transmission-queue-transact-sql */
    static final String TRANSMISSION_QUEUE_DEPTH = "SELECT COUNT_BIG(*) FROM sys.transmission_queue WITH (NOLOCK);";

    /**
     * A queue's conversation groups with messages, read like {@link #queueDepth}. No parameters.
     * https://learn.microsoft.com/sql/t-sql/statements/create-queue-transact-sql (the columns of a queue)
     */
    static String pendingGroupCount(QueueName queue) {
        return "SELECT COUNT_BIG(DISTINCT conversation_group_id) FROM " + queue.quoted() + " WITH (NOLOCK) WHERE "
                + TSql.PENDING + ";";
    }

    /**
     * When an endpoint began: sys.conversation_endpoints keeps no begin time, only {@code lifetime}, the instant the
     * dialog expires, read as UTC and compared with SQL Server's UTC clock ({@link TSql#UTC_TIMES}). A dialog begun
     * without LIFETIME gets the largest int (2,147,483,647 seconds), so lifetime minus that is its begin; the result is taken only when it falls within the last 10 years (null otherwise: a
     * dialog begun with an explicit, shorter LIFETIME, whose begin cannot be known).
     * https://learn.microsoft.com/sql/t-sql/statements/begin-dialog-conversation-transact-sql (LIFETIME)
     */
    private static final String BEGUN = "CASE WHEN DATEADD(SECOND, -2147483647, e.lifetime)"
            + " > DATEADD(YEAR, -10, " + TSql.UTC_TIMES + ")"
            + " THEN CAST(DATEADD(SECOND, -2147483647, e.lifetime) AS DATETIMEOFFSET(7)) END";

    /** The user endpoints (not the broker's system dialogs) with their service and begin time. */
    private static final String ENDPOINTS = "FROM sys.conversation_endpoints AS e WITH (NOLOCK)\n"
            + "JOIN sys.services AS s ON s.service_id = e.service_id\n"
            + "CROSS APPLY (SELECT " + BEGUN + " AS begun) AS b\n"
            + "WHERE e.is_system = 0 AND (@all = 1 OR b.begun < @before)";

    /**
     * Endpoints by service and state, read NOLOCK (a count for an operator, never waiting for a conversation's
     * locks). https://learn.microsoft.com/sql/relational-databases/system-catalog-views/sys-conversation-endpoints-transact-sql
     *
     * <p>Parameters: all (bit: every endpoint, whatever its begin), begun before (DATETIMEOFFSET).
     */
    static final String CONVERSATION_ENDPOINTS = "SET NOCOUNT ON;\n"
            + "DECLARE @all BIT = ?;\n"
            + "DECLARE @before DATETIMEOFFSET(7) = ?;\n"
            + "SELECT s.name AS service_name, e.state, COUNT_BIG(*) AS n, MIN(b.begun) AS oldest\n"
            + ENDPOINTS + "\n"
            + "GROUP BY s.name, e.state\n"
            + "ORDER BY s.name, e.state;";

    /**
     * The handles of a service's endpoints in one state, the oldest first (lifetime order).
     * https://learn.microsoft.com/sql/relational-databases/system-catalog-views/sys-conversation-endpoints-transact-sql
     *
     * <p>Parameters: service, state, all (bit), begun before (DATETIMEOFFSET), max.
     */
    static final String CONVERSATION_HANDLES = "SET NOCOUNT ON;\n"
            + "DECLARE @service NVARCHAR(256) = ?;\n"
            + "DECLARE @state CHAR(2) = ?;\n"
            + "DECLARE @all BIT = ?;\n"
            + "DECLARE @before DATETIMEOFFSET(7) = ?;\n"
            + "DECLARE @max INT = ?;\n"
            + "SELECT TOP (@max) e.conversation_handle\n"
            + ENDPOINTS + " AND s.name = @service AND e.state = @state\n"
            + "ORDER BY e.lifetime;";

    /**
     * The server's engine edition: 5 is Azure SQL Database, 8 Azure SQL Managed Instance, 2 to 4 SQL Server
     * (SERVERPROPERTY answers {@code sql_variant}; cast, it is read as an int).
     * https://learn.microsoft.com/sql/t-sql/functions/serverproperty-transact-sql
     */
    static final String ENGINE_EDITION = "SELECT CAST(SERVERPROPERTY('EngineEdition') AS INT) AS engine_edition;";
}
