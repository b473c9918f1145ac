package org.ssbjca.backend.sqlserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerException;
import org.ssbjca.api.ConversationEndedException;
import org.ssbjca.api.QueueDisabledException;

class SqlServerErrorsTest {

    @ParameterizedTest
    @ValueSource(ints = {8426, 8427, 8429, 8435, 8438, 8458, 8462})
    void endedOrUnknownConversations(int number) {
        SQLException cause = new SQLException("Service Broker says no", "S0001", number);
        BrokerException e = SqlServerErrors.translate("SEND on conversation 42", null, cause);
        assertInstanceOf(ConversationEndedException.class, e);
        assertSame(cause, e.getCause());
        assertEquals("SEND on conversation 42 failed: Service Broker says no (SQL Server error " + number + ")",
                e.getMessage());
    }

    @Test
    void aDisabledQueueNamesTheQueue() {
        SQLException cause = new SQLException("The service queue \"Q\" is currently disabled.", "S0001", 9617);
        BrokerException e = SqlServerErrors.translate("RECEIVE from queue [Q]", "Q", cause);
        QueueDisabledException disabled = assertInstanceOf(QueueDisabledException.class, e);
        assertEquals("Q", disabled.queue());
        assertSame(cause, e.getCause());
        assertEquals("queue Q is disabled (STATUS = OFF): enable it with ALTER QUEUE ... WITH STATUS = ON",
                disabled.getMessage(), "SQL Server's statement (the portable schema names its own UPDATE)");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 208, 1205, 1222, 8423, 8425, 8428, 8430, 8431, 8432, 8436, 8439, 8490})
    void everythingElseIsABrokerExceptionWithTheCause(int number) {
        SQLException cause = new SQLException("boom", "S0001", number);
        BrokerException e = SqlServerErrors.translate("MOVE CONVERSATION 1 to group 2", "Q", cause);
        assertSame(BrokerException.class, e.getClass());
        assertSame(cause, e.getCause());
        assertTrue(e.getMessage().startsWith("MOVE CONVERSATION 1 to group 2 failed: boom"), e.getMessage());
    }

    @Test
    void aDisabledQueueWithoutAQueueNameStaysABrokerException() {
        SQLException cause = new SQLException("disabled", "S0001", 9617);
        assertSame(BrokerException.class, SqlServerErrors.translate("x", null, cause).getClass());
    }

    @Test
    void theFirstChainedErrorNumberCounts() {
        SQLException first = new SQLException("driver wrapper", "08S01", 0);
        first.setNextException(new SQLException("not in a valid state for SEND", "S0001", 8429));
        assertEquals(8429, SqlServerErrors.number(first));
        assertInstanceOf(ConversationEndedException.class, SqlServerErrors.translate("SEND", null, first));
    }
}
