package org.ssbjca.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.ssbjca.backend.BackendKind;

/**
 * The SQL Server fixture either prepares a server or says, in one line and quickly, why it cannot; it never throws
 * from {@link SqlServerFixture#unavailableReason()}.
 */
class SqlServerFixtureTest {

    @Test
    void reportsAvailabilityWithoutThrowing() throws SQLException {
        SqlServerFixture fixture = new SqlServerFixture();
        long start = System.nanoTime();
        String reason = fixture.unavailableReason();
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertEquals("SQL Server", fixture.name());
        if (reason != null) {
            assertTrue(reason.startsWith("SQL Server conformance skipped: "), reason);
            assertFalse(reason.contains("\n"), reason);
            assertTrue(millis < 30_000, "took " + millis + " ms to find out: " + reason);
            assertThrows(IllegalStateException.class, fixture::broker);
            assertEquals(reason, new SqlServerFixture().unavailableReason(), "decided once per JVM");
            fixture.close();
        } else {
            assertEquals(BackendKind.SQLSERVER, fixture.broker().kind());
            try (Connection c = fixture.connect()) {
                fixture.setLockTimeout(c, 0);
                assertFalse(c.isClosed());
            }
        }
    }
}
