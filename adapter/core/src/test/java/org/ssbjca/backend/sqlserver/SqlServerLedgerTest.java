package org.ssbjca.backend.sqlserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Types;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.backend.DeliveryLedger;

/** The ledger's binding on SQL Server, against a scripted JDBC connection. */
class SqlServerLedgerTest {

    private static final UUID HANDLE = UUID.fromString("0f7bd7a6-8f4c-4b35-9b56-3c2f0e8a1d01");

    private final FakeJdbc jdbc = new FakeJdbc();
    private final SqlServerLedger ledger = new SqlServerLedger(jdbc.connection());

    /**
     * mssql-jdbc sends a NULL bound as Types.NULL as a binary value, which SQL Server does not convert to
     * datetimeoffset; every NULL carries the type of the column or variable it goes to.
     */
    @Test
    void nullsAreBoundWithTheirColumnsTypes() {
        BrokerMessage bare = BrokerMessage.builder().conversationHandle(HANDLE).messageSequenceNumber(3)
                .messageTypeName("http://schemas.microsoft.com/SQL/ServiceBroker/EndDialog").build();
        ledger.deadLetter("EchoServiceQueue", bare, 2, null);
        FakeJdbc.Call call = jdbc.calls.get(0);
        assertEquals(TSqlLedger.DEAD_LETTER, call.sql);
        // error; group, conversation id, service, contract, enqueue time (a missing body is an empty one); no copy
        assertEquals(Map.of(3, Types.NVARCHAR, 5, Types.NVARCHAR, 6, Types.NVARCHAR, 8, Types.NVARCHAR,
                9, Types.NVARCHAR, 11, Types.TIMESTAMP_WITH_TIMEZONE, 13, Types.NVARCHAR), call.nullTypes);

        ledger.recordFailure("EchoServiceQueue", bare, null);
        assertEquals(Map.of(4, Types.NVARCHAR), jdbc.calls.get(1).nullTypes);

        UUID copy = UUID.fromString("5e1f0c2a-9b7d-4c3e-8a6f-1d2c3b4a5e6f");
        ledger.deadLetter("EchoServiceQueue", bare, 2, null, copy);
        assertEquals(copy.toString(), jdbc.calls.get(2).params.get(13), "the copy's conversation id, as text");
        assertTrue(TSqlLedger.DEAD_LETTER.contains("dead_lettered_at, copy_conversation_id)\nVALUES (?, ?, @handle, ?,"
                + " @sequence, ?, ?, ?, ?, ?, ?, @error, SYSDATETIMEOFFSET(), ?);"), TSqlLedger.DEAD_LETTER);
    }

    /**
     * A failure the policy found unrecoverable is one statement that counts the delivery and marks the message set
     * aside once: SQL Server returns the count as the SELECT at the batch's end reads it (SET NOCOUNT ON, so no update
     * counts come first).
     */
    @Test
    void anUnrecoverableFailureIsCountedAndMarkedInOneStatement() {
        BrokerMessage m = BrokerMessage.builder().conversationHandle(HANDLE).messageSequenceNumber(3)
                .messageTypeName("DEFAULT").build();
        jdbc.rows(FakeJdbc.row("attempts", DeliveryLedger.SET_ASIDE + 1));
        assertEquals(DeliveryLedger.SET_ASIDE + 1,
                ledger.recordUnrecoverable("EchoServiceQueue", m, "closed"));
        FakeJdbc.Call call = jdbc.calls.get(0);
        assertEquals(TSqlLedger.RECORD_UNRECOVERABLE, call.sql);
        assertEquals(java.util.List.of(HANDLE.toString(), 3L, "EchoServiceQueue",
                "closed"), call.params());
        assertTrue(call.sql.contains("SET attempts = attempts + 1 + CASE WHEN attempts < 1000000 THEN 1000000 ELSE 0"
                + " END,"), call.sql);
        assertTrue(call.sql.contains("VALUES (@handle, @sequence, @queue, 1000001, @error"), call.sql);
    }

    /**
     * The bookkeeping's bounded lock wait (issue 45 point 2) is a plain SET LOCK_TIMEOUT: inside a parameterised batch
     * (sp_executesql) it would be undone when the batch ends.
     */
    @Test
    void boundingLockWaitsIsASessionWideSetLockTimeout() {
        ledger.boundLockWaits(1000);
        assertEquals(1, jdbc.calls.size());
        assertEquals("SET LOCK_TIMEOUT 1000;", jdbc.calls.get(0).sql);
        assertEquals(java.util.List.of(), jdbc.calls.get(0).params());
    }

    /**
     * Issue 15: a batch of three messages on two conversations (one group) costs one statement to read their
     * attempts and one to forget them with the group's hold, not one per message.
     */
    @Test
    void aBatchCostsOneStatementToReadAndOneToForgetItsAttempts() {
        UUID other = UUID.fromString("6b1f1d8e-2a55-4d8c-8a0e-9d6d1c2b3a02");
        UUID group = UUID.fromString("11111111-2222-3333-4444-555555555555");
        java.util.List<BrokerMessage> batch = java.util.List.of(message(HANDLE, 1, group), message(HANDLE, 2, group),
                message(other, 1, group));
        jdbc.rows(FakeJdbc.row("conversation_handle", other.toString().toUpperCase(), "message_sequence_number", 1L,
                "attempts", 2));
        assertEquals(Map.of(other + "/1", 2), ledger.attempts(batch));
        assertEquals(1, jdbc.calls.size());
        assertEquals(TSqlLedger.ATTEMPTS_OF, jdbc.calls.get(0).sql);
        String keys = "<k h=\"" + HANDLE + "\" s=\"1\"/><k h=\"" + HANDLE + "\" s=\"2\"/><k h=\"" + other
                + "\" s=\"1\"/>";
        assertEquals(java.util.List.of(keys), jdbc.calls.get(0).params());

        ledger.clearAttempts(batch);
        assertEquals(2, jdbc.calls.size(), "one more statement");
        assertEquals(TSqlLedger.CLEAR_ATTEMPTS, jdbc.calls.get(1).sql);
        assertEquals(java.util.List.of(keys, "<g id=\"" + group + "\"/>"), jdbc.calls.get(1).params());
        assertEquals(Map.of(), ledger.attempts(java.util.List.of()));
        ledger.clearAttempts(java.util.List.of());
        assertEquals(2, jdbc.calls.size(), "nothing for an empty batch");
    }

    private static BrokerMessage message(UUID handle, long sequence, UUID group) {
        return BrokerMessage.builder().conversationHandle(handle).messageSequenceNumber(sequence)
                .conversationGroupId(group).messageTypeName("Request").build();
    }
}
