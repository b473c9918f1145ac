package org.ssbjca.backend.sqlserver;

import java.sql.SQLException;
import java.util.Set;
import org.ssbjca.api.BrokerException;
import org.ssbjca.api.ConversationEndedException;
import org.ssbjca.api.QueueDisabledException;

/**
 * Turns SQL Server errors into the API's exceptions, by error number (mssql-jdbc reports it as
 * {@link SQLException#getErrorCode()}). The numbers and texts are Microsoft's:
 * https://learn.microsoft.com/sql/relational-databases/errors-events/database-engine-events-and-errors-8000-to-8999
 * and https://learn.microsoft.com/sql/relational-databases/errors-events/database-engine-events-and-errors-9000-to-9999.
 */
final class SqlServerErrors {

    /** "Lock request time out period exceeded." */
    static final int LOCK_TIMEOUT = 1222;
    /** "The conversation group "%.*ls" is not found." */
    static final int GROUP_NOT_FOUND = 8436;
    /** "The service queue "%.*ls" is currently disabled." */
    static final int QUEUE_DISABLED = 9617;

    /**
     * The conversation is unknown or can no longer be used:
     * 8426 the conversation handle is not found;
     * 8427 the endpoint is not in a valid state for END CONVERSATION;
     * 8429 the endpoint is not in a valid state for SEND (the other side ended it: DI, or it is in error: ER);
     * 8435 a conversation handle at some position is not found;
     * 8438 the endpoint is not in a valid state for MOVE CONVERSATION;
     * 8458 the endpoint is not in a valid state for BEGIN CONVERSATION TIMER;
     * 8462 the remote endpoint can no longer exchange messages, or was dropped;
     * 50300 ssb.schedule_send (sql/sqlserver/install.sql): the conversation does not exist or cannot send.
     */
    static final Set<Integer> CONVERSATION_ENDED = Set.of(8426, 8427, 8429, 8435, 8438, 8458, 8462, 50300);

    private SqlServerErrors() {
    }

    /**
     * Returns the exception to throw for a driver's exception: a {@link ConversationEndedException} when the error
     * number says the conversation ended, a {@link QueueDisabledException} when the queue read is disabled, else a
     * {@link BrokerException} naming the verb and the error number.
     *
     * @param what the verb and its object, for example {@code SEND on conversation 1234...}
     * @param queue the queue the statement reads, or null: names the queue of a {@link QueueDisabledException}
     * @param e the driver's exception
     */
    static BrokerException translate(String what, String queue, SQLException e) {
        int number = number(e);
        String message = what + " failed: " + e.getMessage() + " (SQL Server error " + number + ")";
        if (CONVERSATION_ENDED.contains(number)) {
            return new ConversationEndedException(message, e);
        }
        if (number == QUEUE_DISABLED && queue != null) {
            return new QueueDisabledException(queue, e);
        }
        return new BrokerException(message, e);
    }

    /**
     * Returns the first SQL Server error number in an exception or the exceptions chained to it, else its own error
     * code.
     *
     * @param e an exception
     */
    static int number(SQLException e) {
        for (SQLException s = e; s != null; s = s.getNextException()) {
            if (s.getErrorCode() != 0) {
                return s.getErrorCode();
            }
        }
        return e.getErrorCode();
    }
}
