package org.ssbjca.backend.sqlserver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.ssbjca.backend.table.ColumnRole;
import org.ssbjca.backend.table.TableDefinition;

/**
 * The T-SQL of table queues, as text (no SQL Server here; the conformance suite runs it where Docker runs): the
 * seeds' tables, resolved against a catalog that holds their names as SQL Server would (an H2 database whose table
 * and columns carry the published names).
 */
class TSqlTableTest {

    private Connection c;

    @BeforeEach
    void catalog() throws Exception {
        c = DriverManager.getConnection("jdbc:h2:mem:tsqltable-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");
        try (Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA \"dbo\"");
            s.execute("CREATE TABLE \"dbo\".\"Job_Queue\" (\"ID\" BIGINT PRIMARY KEY, \"Priority\" TINYINT,"
                    + " \"Available_Date\" TIMESTAMP, \"Timeout_Date\" TIMESTAMP, \"Attempts\" INT,"
                    + " \"Processing_Mark\" UUID, \"Last_Attempt_End_Date\" TIMESTAMP, \"Payload\" VARCHAR(100),"
                    + " \"Last_Error\" VARCHAR(200), \"Last_Error_At\" TIMESTAMP)");
            s.execute("CREATE SCHEMA \"Messaging\"");
            s.execute("CREATE TABLE \"Messaging\".\"Message\" (\"MessageId\" UUID PRIMARY KEY,"
                    + " \"MessageBody\" VARBINARY(1000), \"EnqueueTime\" TIMESTAMP, \"DequeueTime\" TIMESTAMP)");
        }
    }

    @AfterEach
    void close() throws Exception {
        c.close();
    }

    /** Seed 004: take in enqueue order, exactly once, the row kept with its dequeue time. */
    @Test
    void seed004MessagesAreTakenWithUpdlockRowlockReadpastAndMarkedThroughTheCte() throws Exception {
        TSqlTable sql = new TSqlTable(TableDefinition.table("Messaging.Message").column(ColumnRole.KEY, "MessageId")
                .column(ColumnRole.PAYLOAD, "MessageBody").column(ColumnRole.ORDER, "EnqueueTime")
                .column(ColumnRole.DONE, "DequeueTime").build().resolve(c));
        assertEquals("SET NOCOUNT ON;\n"
                + "SET TRANSACTION ISOLATION LEVEL READ COMMITTED;\n"
                + "WITH picked AS (\n"
                + "    SELECT TOP (10) * FROM [Messaging].[Message] WITH (UPDLOCK, ROWLOCK, READCOMMITTEDLOCK, READPAST)\n"
                + "    WHERE [DequeueTime] IS NULL\n"
                + "    ORDER BY [EnqueueTime], [MessageId])\n"
                + "UPDATE picked SET [DequeueTime] = SYSDATETIME()\n"
                + "OUTPUT inserted.[MessageId], inserted.[MessageBody], NULL, NULL, NULL, NULL, NULL,"
                + " inserted.[EnqueueTime];", sql.take(10));
        assertEquals(null, sql.shared().purgeSetAside(), "no attempts column: nothing is ever set aside");
    }

    /** The same table without a done column: the rows are deleted through the CTE. */
    @Test
    void withoutADoneColumnTakenRowsAreDeleted() throws Exception {
        TSqlTable sql = new TSqlTable(TableDefinition.table("Messaging.Message").column(ColumnRole.KEY, "MessageId")
                .column(ColumnRole.PAYLOAD, "MessageBody").column(ColumnRole.ORDER, "EnqueueTime").build().resolve(c));
        assertEquals("SET NOCOUNT ON;\n"
                + "SET TRANSACTION ISOLATION LEVEL READ COMMITTED;\n"
                + "WITH picked AS (\n"
                + "    SELECT TOP (1) * FROM [Messaging].[Message] WITH (UPDLOCK, ROWLOCK, READCOMMITTEDLOCK, READPAST)\n"
                + "    WHERE 1 = 1\n"
                + "    ORDER BY [EnqueueTime], [MessageId])\n"
                + "DELETE FROM picked\n"
                + "OUTPUT deleted.[MessageId], deleted.[MessageBody], NULL, NULL, NULL, NULL, NULL,"
                + " deleted.[EnqueueTime];", sql.take(1));
    }

    /** Rows held back after a failed delivery are left out of the taking, their keys as parameters. */
    @Test
    void heldRowsAreLeftOutOfTheTaking() throws Exception {
        TSqlTable sql = new TSqlTable(TableDefinition.table("Messaging.Message").column(ColumnRole.KEY, "MessageId")
                .column(ColumnRole.PAYLOAD, "MessageBody").column(ColumnRole.ORDER, "EnqueueTime").build().resolve(c));
        assertEquals("SET NOCOUNT ON;\n"
                + "SET TRANSACTION ISOLATION LEVEL READ COMMITTED;\n"
                + "WITH picked AS (\n"
                + "    SELECT TOP (1) * FROM [Messaging].[Message] WITH (UPDLOCK, ROWLOCK, READCOMMITTEDLOCK, READPAST)\n"
                + "    WHERE 1 = 1 AND [MessageId] NOT IN (?, ?)\n"
                + "    ORDER BY [EnqueueTime], [MessageId])\n"
                + "DELETE FROM picked\n"
                + "OUTPUT deleted.[MessageId], deleted.[MessageBody], NULL, NULL, NULL, NULL, NULL,"
                + " deleted.[EnqueueTime];", sql.take(1, 2));
        assertEquals(sql.take(1), sql.take(1, 0));
    }

    /** Seed 003: priority, availability, lease, attempts and the GUID mark. */
    @Test
    void seed003JobsAreLeasedWithTheirMarkAndCompletedOnlyByTheirLease() throws Exception {
        TSqlTable sql = new TSqlTable(TableDefinition.table("dbo.Job_Queue").mode(TableDefinition.Mode.LEASED)
                .column(ColumnRole.KEY, "ID").column(ColumnRole.PAYLOAD, "Payload")
                .column(ColumnRole.PRIORITY, "Priority")
                .column(ColumnRole.AVAILABLE, "Available_Date").column(ColumnRole.LEASE, "Timeout_Date")
                .column(ColumnRole.MARK, "Processing_Mark").column(ColumnRole.ATTEMPTS, "Attempts")
                .column(ColumnRole.DONE, "Last_Attempt_End_Date").maxAttempts(3).build().resolve(c));
        String available = "[Last_Attempt_End_Date] IS NULL AND [Available_Date] <= SYSDATETIME() AND [Attempts] < 3"
                + " AND ([Timeout_Date] IS NULL OR [Timeout_Date] <= SYSDATETIME())";
        assertEquals("SET NOCOUNT ON;\n"
                + "SET TRANSACTION ISOLATION LEVEL READ COMMITTED;\n"
                + "WITH picked AS (\n"
                + "    SELECT TOP (5) * FROM [dbo].[Job_Queue] WITH (UPDLOCK, ROWLOCK, READCOMMITTEDLOCK, READPAST)\n"
                + "    WHERE " + available + "\n"
                + "    ORDER BY [Priority], [Available_Date], [ID])\n"
                + "UPDATE picked SET [Timeout_Date] = DATEADD(SECOND, ?, SYSDATETIME()), [Attempts] = [Attempts] + 1,"
                + " [Processing_Mark] = ?\n"
                + "OUTPUT inserted.[ID], inserted.[Payload], inserted.[Priority], inserted.[Available_Date],"
                + " inserted.[Attempts], inserted.[Timeout_Date], inserted.[Processing_Mark], inserted.[ID];",
                sql.lease(5));
        assertEquals("SET NOCOUNT ON;\nDECLARE @changed TABLE (n INT);\nUPDATE [dbo].[Job_Queue] SET"
                + " [Last_Attempt_End_Date] = SYSDATETIME(), [Timeout_Date] = NULL OUTPUT 1 INTO @changed (n) WHERE"
                + " [ID] = ? AND [Processing_Mark] = ?;\nSELECT COUNT(*) FROM @changed;", sql.shared().complete(),
                "the count read as a result set: no update count under NOCOUNT, a trigger's without it");
        assertEquals("SET NOCOUNT ON;\nUPDATE [dbo].[Job_Queue] SET [Timeout_Date] = DATEADD(SECOND, ?,"
                + " SYSDATETIME()) WHERE [ID] = ? AND [Processing_Mark] = ?;", sql.shared().release());
        assertEquals("SET NOCOUNT ON;\nUPDATE [dbo].[Job_Queue] SET [Timeout_Date] = DATEADD(SECOND, ?,"
                + " SYSDATETIME()), [Attempts] = [Attempts] - 1 WHERE [ID] = ? AND [Processing_Mark] = ?;",
                sql.shared().giveBack());
        assertEquals("SET NOCOUNT ON;\nDECLARE @changed TABLE (n INT);\nUPDATE [dbo].[Job_Queue] SET [Attempts] = 0,"
                + " [Timeout_Date] = NULL OUTPUT 1 INTO @changed (n) WHERE [Last_Attempt_End_Date] IS NULL AND"
                + " [Attempts] >= 3 AND ([Timeout_Date] IS NULL OR [Timeout_Date] <= SYSDATETIME());\n"
                + "SELECT COUNT(*) FROM @changed;", sql.shared().redeliverSetAside());
    }

    /**
     * Issue 47 point 3, set-aside rows: an error written with SYSDATETIME() to the error time column; the set-aside
     * rows read with their error and its time under NOLOCK (as the counts); one row given back by its key, its count
     * read through OUTPUT INTO, as a re-queue job does row by row.
     */
    @Test
    void setAsideRowsAreReadWithTheirErrorTimeAndReQueuedOneKeyAtATime() throws Exception {
        TSqlTable sql = new TSqlTable(TableDefinition.table("dbo.Job_Queue").column(ColumnRole.KEY, "ID")
                .column(ColumnRole.PAYLOAD, "Payload").column(ColumnRole.ATTEMPTS, "Attempts")
                .column(ColumnRole.ERROR, "Last_Error").column(ColumnRole.ERROR_TIME, "Last_Error_At").maxAttempts(3)
                .build().resolve(c));
        assertEquals("SET NOCOUNT ON;\nUPDATE [dbo].[Job_Queue] SET [Last_Error] = ?, [Last_Error_At] = SYSDATETIME()"
                + " WHERE [ID] = ?;", sql.shared().recordError());
        assertEquals("SET NOCOUNT ON;\nSELECT [ID], [Last_Error], [Last_Error_At] FROM [dbo].[Job_Queue] WITH (NOLOCK)"
                + " WHERE [Attempts] >= 3 AND 1 = 1 ORDER BY [ID];", sql.shared().setAsideRows());
        assertEquals("SET NOCOUNT ON;\nDECLARE @changed TABLE (n INT);\nUPDATE [dbo].[Job_Queue] SET [Attempts] = 0"
                + " OUTPUT 1 INTO @changed (n) WHERE [Attempts] >= 3 AND 1 = 1 AND [ID] IN (?);\n"
                + "SELECT COUNT(*) FROM @changed;", sql.shared().redeliverSetAside(1));
    }

    /** A name with a closing bracket is quoted as QUOTENAME does. */
    @Test
    void namesAreQuotedFromTheCatalog() throws Exception {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE \"odd]name\" (\"k\" INT PRIMARY KEY, \"p\" VARCHAR(10))");
        }
        // the activation's names are letters, digits and underscores; the catalog's own spelling is what is quoted
        TableDefinition.Resolved r = TableDefinition.table("Job_Queue").column(ColumnRole.KEY, "id")
                .column(ColumnRole.PAYLOAD, "payload").build().resolve(c);
        assertEquals("dbo", r.schema());
        assertEquals("ID", r.column(ColumnRole.KEY), "the catalog's spelling, matched without regard to case");
        assertEquals("[a]]b]", SqlServerNames.quote("a]b"));
    }
}
