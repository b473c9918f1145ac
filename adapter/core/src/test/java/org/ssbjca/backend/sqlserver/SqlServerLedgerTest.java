package org.ssbjca.backend.sqlserver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Types;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessage;

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
        // error; group, conversation id, service, contract, enqueue time (a missing body is an empty one)
        assertEquals(Map.of(3, Types.NVARCHAR, 5, Types.NVARCHAR, 6, Types.NVARCHAR, 8, Types.NVARCHAR,
                9, Types.NVARCHAR, 11, Types.TIMESTAMP_WITH_TIMEZONE), call.nullTypes);

        ledger.recordFailure("EchoServiceQueue", bare, null);
        assertEquals(Map.of(4, Types.NVARCHAR), jdbc.calls.get(1).nullTypes);
    }
}
