package org.ssbjca.backend.sqlserver;

import java.util.Map;
import java.util.StringJoiner;
import org.ssbjca.backend.SentBy;
import org.ssbjca.backend.Validation;
import org.ssbjca.backend.sqlserver.SqlServerNames.QueueName;

/**
 * The statements only the test kit runs on SQL Server ({@link SqlServerTestAdmin}): declaring objects, ALTER QUEUE,
 * and catalog reads and resets for tests, under the rules of {@link TSql} (values bound, identifiers from
 * {@link SqlServerNames}). Every CREATE is guarded by a catalog check, so running it again does nothing. Catalog
 * reads use NOLOCK: they inspect, and must not wait for a transaction that is changing a conversation. The adapter's
 * own catalog reads are in {@link TSqlAdmin}.
 */
final class TSqlTestAdmin {

    private TSqlTestAdmin() {
    }

    /**
     * CREATE MESSAGE TYPE unless sys.service_message_types has it.
     * https://learn.microsoft.com/sql/t-sql/statements/create-message-type-transact-sql
     * https://learn.microsoft.com/sql/relational-databases/system-catalog-views/sys-service-message-types-transact-sql
     *
     * <p>Parameters: name.
     */
    static String createMessageType(String name, Validation validation) {
        return "IF NOT EXISTS (SELECT 1 FROM sys.service_message_types WHERE name = ?)\n"
                + "    CREATE MESSAGE TYPE " + SqlServerNames.messageType(name) + " VALIDATION = " + validation.name()
                + ";";
    }

    /**
     * CREATE CONTRACT unless sys.service_contracts has it.
     * https://learn.microsoft.com/sql/t-sql/statements/create-contract-transact-sql
     * https://learn.microsoft.com/sql/relational-databases/system-catalog-views/sys-service-contracts-transact-sql
     *
     * <p>Parameters: name.
     */
    static String createContract(String name, Map<String, SentBy> messageTypes) {
        if (messageTypes.isEmpty()) {
            throw new IllegalArgumentException("contract " + name + " needs at least one message type");
        }
        StringJoiner types = new StringJoiner(", ", " (", ")");
        messageTypes.forEach((type, sentBy) ->
                types.add(SqlServerNames.messageType(type) + " SENT BY " + sentBy.name()));
        return "IF NOT EXISTS (SELECT 1 FROM sys.service_contracts WHERE name = ?)\n"
                + "    CREATE CONTRACT " + SqlServerNames.contract(name) + types + ";";
    }

    /**
     * CREATE QUEUE unless sys.service_queues has it, with poison message handling off: the adapter counts failed
     * deliveries and dead-letters messages itself, and SQL Server must not disable the queue after five rollbacks.
     * https://learn.microsoft.com/sql/t-sql/statements/create-queue-transact-sql
     * https://learn.microsoft.com/sql/relational-databases/system-catalog-views/sys-service-queues-transact-sql
     *
     * <p>Parameters: the quoted queue name (for OBJECT_ID).
     */
    static String createQueue(QueueName queue) {
        return "IF NOT EXISTS (SELECT 1 FROM sys.service_queues WHERE object_id = OBJECT_ID(?))\n"
                + "    CREATE QUEUE " + queue.quoted()
                + " WITH STATUS = ON, RETENTION = OFF, POISON_MESSAGE_HANDLING (STATUS = OFF);";
    }

    /**
     * CREATE SERVICE unless sys.services has it; without contracts the service can only initiate.
     * https://learn.microsoft.com/sql/t-sql/statements/create-service-transact-sql
     *
     * <p>Parameters: name.
     */
    static String createService(String name, QueueName queue, String... contracts) {
        StringBuilder b = new StringBuilder("IF NOT EXISTS (SELECT 1 FROM sys.services WHERE name = ?)\n")
                .append("    CREATE SERVICE ").append(SqlServerNames.service(name))
                .append(" ON QUEUE ").append(queue.quoted());
        if (contracts.length > 0) {
            StringJoiner list = new StringJoiner(", ", " (", ")");
            for (String contract : contracts) {
                list.add(SqlServerNames.contract(contract));
            }
            b.append(list);
        }
        return b.append(';').toString();
    }

    /**
     * ALTER QUEUE ... WITH STATUS. https://learn.microsoft.com/sql/t-sql/statements/alter-queue-transact-sql
     *
     * <p>No parameters.
     */
    static String setQueueStatus(QueueName queue, boolean enabled) {
        return "ALTER QUEUE " + queue.quoted() + " WITH STATUS = " + (enabled ? "ON" : "OFF") + ";";
    }

    /**
     * https://learn.microsoft.com/sql/relational-databases/system-catalog-views/sys-conversation-endpoints-transact-sql
     *
     * <p>Parameters: handle.
     */
    static final String ENDPOINT_STATE =
            "SELECT state FROM sys.conversation_endpoints WITH (NOLOCK) WHERE conversation_handle = ?;";

    /** Endpoints not closed (CD), leaving out the broker's own system dialogs. No parameters. */
    static final String ENDPOINT_COUNT = "SELECT COUNT_BIG(*) FROM sys.conversation_endpoints WITH (NOLOCK)"
            + " WHERE state <> 'CD' AND is_system = 0;";

    /** The other side: same conversation_id, the other is_initiator. Parameters: handle. */
    static final String PEER_HANDLE = "SELECT p.conversation_handle\n"
            + "FROM sys.conversation_endpoints AS e WITH (NOLOCK)\n"
            + "JOIN sys.conversation_endpoints AS p WITH (NOLOCK)"
            + " ON p.conversation_id = e.conversation_id AND p.is_initiator <> e.is_initiator\n"
            + "WHERE e.conversation_handle = ?;";

    /**
     * END CONVERSATION ... WITH CLEANUP for every endpoint but the broker's system dialogs, then the adapter's own
     * rows. A STATIC cursor works on a copy, so ending endpoints does not disturb the iteration.
     * https://learn.microsoft.com/sql/t-sql/statements/end-conversation-transact-sql
     * https://learn.microsoft.com/sql/t-sql/language-elements/declare-cursor-transact-sql
     *
     * <p>No parameters.
     */
    static final String PURGE_CONVERSATIONS = "SET NOCOUNT ON;\n"
            + "DECLARE @handle UNIQUEIDENTIFIER;\n"
            + "DECLARE endpoints CURSOR LOCAL STATIC READ_ONLY FOR\n"
            + "    SELECT conversation_handle FROM sys.conversation_endpoints WHERE is_system = 0;\n"
            + "OPEN endpoints;\n"
            + "FETCH NEXT FROM endpoints INTO @handle;\n"
            + "WHILE @@FETCH_STATUS = 0\n"
            + "BEGIN\n"
            + "    END CONVERSATION @handle WITH CLEANUP;\n"
            + "    FETCH NEXT FROM endpoints INTO @handle;\n"
            + "END;\n"
            + "CLOSE endpoints;\n"
            + "DEALLOCATE endpoints;\n"
            + "DELETE FROM ssb.conversation_priority;\n"
            + "DELETE FROM ssb.delivery_attempt;\n"
            + "DELETE FROM ssb.dead_letter;";
}
