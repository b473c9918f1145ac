package org.ssbjca.backend.sqlserver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ssbjca.backend.Platform;

/**
 * The server's engine edition as SERVERPROPERTY answers it (Microsoft Learn, SERVERPROPERTY): 5 is Azure SQL Database,
 * without Service Broker and XA; every other edition (SQL Server's 2 to 4, Managed Instance's 8) has both.
 */
class SqlServerPlatformTest {

    @ParameterizedTest(name = "EngineEdition {0}")
    @CsvSource({"5, false", "8, true", "3, true", "2, true", "4, true"})
    void theEngineEditionSaysWhetherTheServerHasServiceBrokerAndXa(int edition, boolean complete) throws Exception {
        FakeJdbc jdbc = new FakeJdbc().rows(FakeJdbc.row("engine_edition", edition));
        Platform platform = SqlServerBroker.platformOf(jdbc.connection());
        assertEquals(complete ? Platform.COMPLETE : Platform.AZURE_SQL_DATABASE, platform);
        assertEquals("SELECT CAST(SERVERPROPERTY('EngineEdition') AS INT) AS engine_edition;", jdbc.calls.get(0).sql);
        assertEquals(complete, platform.serviceBroker());
        assertEquals(complete, platform.xa());
    }
}
