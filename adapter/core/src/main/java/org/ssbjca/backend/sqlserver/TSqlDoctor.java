package org.ssbjca.backend.sqlserver;

import org.ssbjca.backend.sqlserver.SqlServerNames.QueueName;

/**
 * The broker doctor's statements on SQL Server ({@link SqlServerDoctor}), under {@link TSql}'s rules (values bound,
 * identifiers from {@link SqlServerNames}). Reads of catalog views and the transmission queue use NOLOCK, so that they
 * never wait for a transaction that is changing a conversation.
 */
final class TSqlDoctor {

    private TSqlDoctor() {
    }

    /**
     * The current database's broker: {@code is_broker_enabled} (0 after a RESTORE or ATTACH when another database
     * may have the same id) and {@code service_broker_guid}.
     * https://learn.microsoft.com/sql/relational-databases/system-catalog-views/sys-databases-transact-sql
     *
     * <p>No parameters.
     */
    static final String BROKER_STATE = "SELECT name, is_broker_enabled, service_broker_guid FROM sys.databases"
            + " WHERE database_id = DB_ID();";

    /**
     * The oldest messages of the transmission queue with their status; {@code enqueue_time} is UTC whatever the
     * instance's time zone, hence cast to DATETIMEOFFSET with offset 0.
     * https://learn.microsoft.com/sql/relational-databases/system-catalog-views/sys-transmission-queue-transact-sql
     *
     * <p>Parameters: max (INT).
     */
    static final String STUCK_TRANSMISSIONS = "SET NOCOUNT ON;\n"
            + "DECLARE @max INT = ?;\n"
            + "SELECT TOP (@max) to_service_name, conversation_handle,"
            + " CAST(enqueue_time AS DATETIMEOFFSET(7)) AS enqueued, transmission_status\n"
            + "FROM sys.transmission_queue WITH (NOLOCK)\n"
            + "ORDER BY enqueue_time, message_sequence_number;";

    /**
     * Messages of the transmission queue with a status (blank while the broker has not tried to send them yet).
     * https://learn.microsoft.com/sql/relational-databases/system-catalog-views/sys-transmission-queue-transact-sql
     *
     * <p>No parameters.
     */
    static final String STUCK_COUNT = "SELECT COUNT_BIG(*) FROM sys.transmission_queue WITH (NOLOCK)"
            + " WHERE transmission_status <> N'';";

    /**
     * The failed delivery the adapter counted last on a queue (its {@code ssb.delivery_attempt}, written outside the
     * delivery's transaction, so it survives the rollbacks that disable a queue).
     *
     * <p>Parameters: the queue as the application names it (as {@link TSqlLedger#RECORD_FAILURE} stores it).
     */
    static final String LAST_FAILED_DELIVERY = "SET NOCOUNT ON;\n"
            + "DECLARE @queue NVARCHAR(517) = ?;\n"
            + "SELECT TOP (1) conversation_handle, message_sequence_number, attempts, last_error, last_attempt_at\n"
            + "FROM ssb.delivery_attempt WITH (NOLOCK)\n"
            + "WHERE queue_name = @queue\n"
            + "ORDER BY last_attempt_at DESC;";

    /**
     * Allows RECEIVE on a queue again; does not change its activation or poison message handling.
     * https://learn.microsoft.com/sql/t-sql/statements/alter-queue-transact-sql (STATUS)
     */
    static String enableQueue(QueueName queue) {
        return "ALTER QUEUE " + queue.quoted() + " WITH STATUS = ON;";
    }
}
