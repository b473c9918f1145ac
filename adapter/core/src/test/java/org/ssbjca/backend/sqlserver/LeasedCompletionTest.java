package org.ssbjca.backend.sqlserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.TableRow;
import org.ssbjca.backend.table.ColumnRole;
import org.ssbjca.backend.table.TableDefinition;

/**
 * Leased table queues on SQL Server through mssql-jdbc's way of reporting row counts ({@link MssqlJdbcDouble}): a
 * batch under SET NOCOUNT ON has no update count, so completion, redelivery and purge read the rows they changed as
 * a result set.
 */
class LeasedCompletionTest {

    private Connection h2;
    private MssqlJdbcDouble driver;

    @BeforeEach
    void table() throws Exception {
        h2 = DriverManager.getConnection("jdbc:h2:mem:leased-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");
        try (Statement s = h2.createStatement()) {
            s.execute("CREATE SCHEMA \"dbo\"");
            s.execute("CREATE TABLE \"dbo\".\"Job_Queue\" (\"ID\" BIGINT PRIMARY KEY, \"Timeout_Date\" TIMESTAMP(3),"
                    + " \"Attempts\" INT NOT NULL, \"Processing_Mark\" VARCHAR(36), \"Payload\" VARCHAR(100))");
        }
        driver = new MssqlJdbcDouble(h2);
        driver.columnTypes.put("Timeout_Date", "datetime2");
    }

    @AfterEach
    void close() throws Exception {
        h2.close();
    }

    private static TableDefinition.Builder jobQueue() {
        return TableDefinition.table("dbo.Job_Queue").mode(TableDefinition.Mode.LEASED).column(ColumnRole.KEY, "ID")
                .column(ColumnRole.PAYLOAD, "Payload").column(ColumnRole.LEASE, "Timeout_Date")
                .column(ColumnRole.ATTEMPTS, "Attempts").maxAttempts(2);
    }

    private void insert(long id, String lease, int attempts, String mark) throws Exception {
        try (Statement s = h2.createStatement()) {
            s.execute("INSERT INTO \"dbo\".\"Job_Queue\" VALUES (" + id + ", " + (lease == null ? "NULL"
                    : "TIMESTAMP '" + lease + "'") + ", " + attempts + ", " + (mark == null ? "NULL" : "'" + mark
                    + "'") + ", 'work " + id + "')");
        }
    }

    private long rows() throws Exception {
        try (Statement s = h2.createStatement();
                ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM \"dbo\".\"Job_Queue\"")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Issue 45 point 1: with NOCOUNT on, executeUpdate is -1 and no completion ever matched its row. */
    @Test
    void aRowLeasedWithItsMarkIsCompletedOnceAndALostLeaseIsRefused() throws Exception {
        insert(1, "2999-01-01 00:00:00", 1, "c2a4a1d2-6a55-4d7e-9d5b-6c1f0c8b2f11");
        SqlServerTableQueue q = new SqlServerTableQueue(jobQueue().column(ColumnRole.MARK, "Processing_Mark").build()
                .resolve(driver.connection()));
        TableRow row = new TableRow("dbo.Job_Queue", 1L, "work 1", null, null, 1,
                "c2a4a1d2-6a55-4d7e-9d5b-6c1f0c8b2f11");
        TableRow lost = new TableRow("dbo.Job_Queue", 1L, "work 1", null, null, 1,
                "00000000-0000-0000-0000-000000000000");

        assertFalse(q.complete(driver.connection(), lost), "another taking's mark: the lease was lost");
        assertEquals(1, rows());
        assertTrue(q.complete(driver.connection(), row), "the lease is still this taking's: " + driver.batches);
        assertEquals(0, rows(), "the row is deleted");
        assertFalse(q.complete(driver.connection(), row), "completed already");
    }

    /** Without a mark the lease's end is the token, here a datetime2 read back as it was written. */
    @Test
    void aRowLeasedWithoutAMarkIsCompletedByItsLeaseEnd() throws Exception {
        insert(1, "2999-01-01 00:00:00.123", 1, null);
        SqlServerTableQueue q = new SqlServerTableQueue(jobQueue().build().resolve(driver.connection()));
        Timestamp token = Timestamp.valueOf(LocalDateTime.parse("2999-01-01T00:00:00.123"));

        assertTrue(q.complete(driver.connection(), new TableRow("dbo.Job_Queue", 1L, "work 1", null, null, 1,
                token)), "the lease is still this taking's: " + driver.batches);
        assertEquals(0, rows());
    }

    /** The operator's redeliver and purge report the rows they changed, not -1. */
    @Test
    void redeliverAndPurgeReportTheRowsSetAside() throws Exception {
        insert(1, null, 2, null);
        insert(2, null, 2, null);
        insert(3, null, 0, null);
        SqlServerTableQueue q = new SqlServerTableQueue(jobQueue().build().resolve(driver.connection()));

        assertEquals(2, q.redeliverSetAside(driver.connection()));
        assertEquals(0, q.purgeSetAside(driver.connection()), "nothing is set aside any more");
        insert(4, null, 5, null);
        assertEquals(1, q.purgeSetAside(driver.connection()));
        assertEquals(3, rows());
    }

    /**
     * Issue 45 point 4: a datetime lease end ending in .003 or .007 compared with the datetime2 parameter the driver
     * sends never matched (compatibility level 130 and later), so its completion failed.
     */
    @Test
    void aDatetimeLeaseEndIsComparedAsADatetime() throws Exception {
        driver.columnTypes.put("Timeout_Date", "datetime");
        insert(1, "2999-01-01 00:00:00.003", 1, null);
        insert(2, "2999-01-01 00:00:00.010", 1, null);
        SqlServerTableQueue q = new SqlServerTableQueue(jobQueue().build().resolve(driver.connection()));

        assertFalse(q.complete(driver.connection(), leased(1, "2999-01-01T00:00:00.007")), "another taking's end");
        assertTrue(q.complete(driver.connection(), leased(1, "2999-01-01T00:00:00.003")),
                "the token as mssql-jdbc read it back: " + driver.batches);
        assertTrue(q.complete(driver.connection(), leased(2, "2999-01-01T00:00:00.010")));
        assertEquals(0, rows());
    }

    /** Issue 45 point 4: a time column of a type the T-SQL cannot compare with SYSDATETIME() is refused. */
    @Test
    void aLeaseColumnOfAnotherTimeTypeIsRefusedNamingPropertyColumnTypeAndTheAcceptedTypes() throws Exception {
        driver.columnTypes.put("Timeout_Date", "datetimeoffset");
        TableDefinition.Resolved resolved = jobQueue().build().resolve(driver.connection());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SqlServerTableQueue(resolved));
        assertEquals("leaseColumn: the column Timeout_Date of [dbo].[Job_Queue] is datetimeoffset; a table queue on"
                + " SQL Server compares its time columns with SYSDATETIME(), the server's local time, and accepts"
                + " datetime2 or datetime", e.getMessage());
        driver.columnTypes.put("Timeout_Date", "smalldatetime");
        TableDefinition.Resolved minutes = jobQueue().build().resolve(driver.connection());
        assertThrows(IllegalArgumentException.class, () -> new SqlServerTableQueue(minutes), "rounded to minutes");
    }

    private static TableRow leased(long id, String leaseEnd) {
        return new TableRow("dbo.Job_Queue", id, "work " + id, null, null, 1,
                Timestamp.valueOf(LocalDateTime.parse(leaseEnd)));
    }
}
