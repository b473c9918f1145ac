package org.ssbjca.it.tables;

import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.UUID;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;

/**
 * The recipe of docs/guide/table-queues.md (DocsTest compares its lines with this class): work enqueued as rows of seed
 * 004's table, inserted through the connection factory's JDBC connection in the caller's transaction (a rollback
 * enqueues nothing).
 */
@Stateless
public class WorkItems {

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    /** Seed 004's table (and a log of what the listener handled), as a migration would create them. */
    public void createTables() throws SQLException {
        try (ServiceBrokerConnection broker = factory.getConnection();
                Statement s = broker.jdbcConnection().createStatement()) {
            s.execute("CREATE SCHEMA IF NOT EXISTS Messaging");
            s.execute("CREATE TABLE Messaging.Message (MessageId UUID NOT NULL PRIMARY KEY,"
                    + " MessageBody VARBINARY(1000) NOT NULL, EnqueueTime TIMESTAMP NOT NULL, DequeueTime TIMESTAMP)");
            s.execute("CREATE INDEX Message_Enqueued ON Messaging.Message (EnqueueTime)");
            s.execute("CREATE TABLE Messaging.Handled (MessageBody VARBINARY(1000) NOT NULL)");
        }
    }

    /** Enqueues {@code count} work items in the caller's transaction: all or none. */
    public void enqueue(String prefix, int count) {
        try (ServiceBrokerConnection broker = factory.getConnection();
                PreparedStatement insert = broker.jdbcConnection().prepareStatement(
                        "INSERT INTO Messaging.Message (MessageId, MessageBody, EnqueueTime) VALUES (?, ?, ?)")) {
            for (int i = 0; i < count; i++) {
                insert.setObject(1, UUID.randomUUID());
                insert.setBytes(2, (prefix + i).getBytes(StandardCharsets.UTF_8));
                insert.setTimestamp(3, new Timestamp(System.currentTimeMillis()));
                insert.addBatch();
            }
            insert.executeBatch();
        } catch (SQLException e) {
            // unchecked, so that the container rolls the transaction back: a checked exception is an application
            // exception, and the container would commit the rows inserted before the failure
            throw new IllegalStateException("cannot enqueue " + count + " items", e);
        }
    }

    /** Enqueues one item, then fails: the container rolls the insert back. */
    public void enqueueThenFail(String payload) {
        enqueue(payload, 1);
        throw new IllegalStateException("the caller failed after enqueuing " + payload);
    }

    /** Runs one statement of the test's (a constraint that makes the listener's insert fail on one row, say). */
    public void execute(String statement) throws SQLException {
        try (ServiceBrokerConnection broker = factory.getConnection();
                Statement s = broker.jdbcConnection().createStatement()) {
            s.execute(statement);
        }
    }

    /** @return the first column of the first row of {@code query} */
    public long count(String query) throws SQLException {
        try (ServiceBrokerConnection broker = factory.getConnection();
                Statement s = broker.jdbcConnection().createStatement(); ResultSet rs = s.executeQuery(query)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
