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
     * readers. https://learn.microsoft.com/sql/database-engine/service-broker/querying-queues
     *
     * <p>No parameters.
     */
    static String queueDepth(QueueName queue) {
        return "SELECT COUNT_BIG(*) FROM " + queue.quoted() + " WITH (NOLOCK);";
    }

    /**
     * When the oldest message of a queue was put on it, read like {@link #queueDepth} (NOLOCK, never blocks a
     * reader); {@code message_enqueue_time} is UTC, cast to DATETIMEOFFSET as the pending groups' is. No parameters.
     */
    static String oldestMessage(QueueName queue) {
        return "SELECT CAST(MIN(message_enqueue_time) AS DATETIMEOFFSET(7)) AS oldest FROM " + queue.quoted()
                + " WITH (NOLOCK);";
    }
}
