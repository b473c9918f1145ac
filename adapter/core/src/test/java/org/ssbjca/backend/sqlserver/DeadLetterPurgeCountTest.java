package org.ssbjca.backend.sqlserver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The operator's purge of dead letters reports the rows it deleted on a server whose sessions start with NOCOUNT ON
 * ('user options' 512), where mssql-jdbc's executeUpdate has no count to give ({@link MssqlJdbcDouble}).
 */
class DeadLetterPurgeCountTest {

    private Connection h2;
    private MssqlJdbcDouble driver;

    @BeforeEach
    void ledger() throws Exception {
        h2 = DriverManager.getConnection("jdbc:h2:mem:purge-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");
        try (Statement s = h2.createStatement()) {
            s.execute("CREATE SCHEMA ssb");
            s.execute("CREATE TABLE ssb.dead_letter (id BIGINT PRIMARY KEY, queue_name VARCHAR(100),"
                    + " dead_lettered_at TIMESTAMP WITH TIME ZONE)");
            s.execute("INSERT INTO ssb.dead_letter VALUES (1, 'Q', TIMESTAMP WITH TIME ZONE '2026-01-01 00:00:00+00'),"
                    + " (2, 'Q', TIMESTAMP WITH TIME ZONE '2026-06-01 00:00:00+00'),"
                    + " (3, 'Q', TIMESTAMP WITH TIME ZONE '2026-09-01 00:00:00+00'),"
                    + " (4, 'Other', TIMESTAMP WITH TIME ZONE '2026-01-01 00:00:00+00')");
        }
        driver = new MssqlJdbcDouble(h2);
        driver.sessionNocount = true;
    }

    @AfterEach
    void close() throws Exception {
        h2.close();
    }

    @Test
    void purgesReportTheRowsDeletedUnderASessionsNocount() {
        SqlServerLedger ledger = new SqlServerLedger(driver.connection());
        assertEquals(1, ledger.purgeDeadLettersBefore("Q", Instant.parse("2026-03-01T00:00:00Z")));
        assertEquals(2, ledger.purgeDeadLetters("Q"));
        assertEquals(0, ledger.purgeDeadLetters("Q"));
    }
}
