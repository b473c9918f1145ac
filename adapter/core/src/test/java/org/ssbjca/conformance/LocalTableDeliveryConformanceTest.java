package org.ssbjca.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.ssbjca.conformance.TableQueueConformanceTest.count;
import static org.ssbjca.conformance.TableQueueConformanceTest.execute;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.ssbjca.api.TableRow;
import org.ssbjca.backend.BackendKind;
import org.ssbjca.backend.Platform;
import org.ssbjca.backend.table.ColumnRole;
import org.ssbjca.backend.table.TableDefinition;
import org.ssbjca.backend.table.TableQueue;

/**
 * The delivery a table bean without a container transaction gets, which is the only one on Azure SQL Database (no
 * XA): the row taken in the reader's local transaction and the bean's own SQL on the same connection commit together
 * or roll back together, on every backend. And what each server says it can do: every backend here (SQL Server's
 * container is not Azure SQL Database) has Service Broker and XA.
 */
class LocalTableDeliveryConformanceTest {

    private static final AtomicInteger TABLES = new AtomicInteger();

    @BackendTest
    void theServerHasServiceBrokerAndXa(Db db) throws Exception {
        assertEquals(Platform.COMPLETE, db.broker().platform());
    }

    @BackendTest
    void aRowTakenInALocalTransactionGoesWithTheSqlOnTheSameConnection(Db db) throws Exception {
        String n = "Local_" + TABLES.incrementAndGet();
        boolean sqlServer = db.broker().kind() == BackendKind.SQLSERVER;
        String binary = db.broker().kind() == BackendKind.POSTGRESQL ? "BYTEA" : "VARBINARY(100)";
        execute(db, "CREATE TABLE " + n + " (Id " + (sqlServer ? "UNIQUEIDENTIFIER" : "UUID") + " NOT NULL PRIMARY"
                + " KEY, Body " + binary + " NOT NULL, EnqueueTime " + (sqlServer ? "DATETIME2" : "TIMESTAMP")
                + " NOT NULL)", "CREATE TABLE " + n + "_Handled (Body " + binary + " NOT NULL)");
        try (Connection c = db.fixture().connect()) {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + n + " (Id, Body, EnqueueTime)"
                    + " VALUES (?, ?, ?)")) {
                UUID id = UUID.randomUUID();
                ps.setObject(1, sqlServer ? id.toString() : id);
                ps.setBytes(2, "work".getBytes(StandardCharsets.UTF_8));
                ps.setTimestamp(3, new Timestamp(System.currentTimeMillis() - 60_000));
                ps.executeUpdate();
            }
            c.commit();
            TableQueue q = db.broker().tableQueue(TableDefinition.table(n).column(ColumnRole.KEY, "Id")
                    .column(ColumnRole.PAYLOAD, "Body").column(ColumnRole.ORDER, "EnqueueTime").build().resolve(c));

            List<TableRow> taken = q.take(c, 1);
            handle(c, n, taken);
            c.rollback();
            assertEquals(1, count(c, "SELECT COUNT(*) FROM " + n), "the rollback put the row back");
            assertEquals(0, count(c, "SELECT COUNT(*) FROM " + n + "_Handled"), "and undid the bean's insert");
            c.commit();

            handle(c, n, q.take(c, 1));
            c.commit();
            assertEquals(0, count(c, "SELECT COUNT(*) FROM " + n), "the commit removed the row");
            assertEquals(1, count(c, "SELECT COUNT(*) FROM " + n + "_Handled"), "and kept the bean's insert");
            c.commit();
        }
    }

    /** The bean's work: an insert on the connection the row was taken on. */
    private static void handle(Connection c, String table, List<TableRow> rows) throws SQLException {
        assertEquals(1, rows.size());
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + "_Handled (Body) VALUES (?)")) {
            ps.setBytes(1, rows.get(0).payloadBytes());
            ps.executeUpdate();
        }
    }
}
