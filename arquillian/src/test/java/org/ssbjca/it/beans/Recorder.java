package org.ssbjca.it.beans;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;

/**
 * What the test beans do with a message: insert its body into {@code it_record} through the JDBC connection of a
 * broker connection, so in the caller's JTA transaction (for a bean handling a delivery on the same database: on the
 * reader's own connection, in the delivery's transaction), with the node and thread that recorded it
 * ({@code node/thread}). The table is created by the test (see
 * {@code BrokerDb.createRecordTable}).
 */
public final class Recorder {

    private Recorder() {
    }

    /**
     * @param factory the connection factory whose database holds {@code it_record}
     * @param message the message to record
     */
    public static void record(ServiceBrokerConnectionFactory factory, BrokerMessage message) {
        record(factory, message.bodyAsText());
    }

    /**
     * @param factory the connection factory whose database holds {@code it_record}
     * @param text what to record
     */
    public static void record(ServiceBrokerConnectionFactory factory, String text) {
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            Connection jdbc = broker.jdbcConnection();
            try (PreparedStatement ps = jdbc.prepareStatement(
                    "INSERT INTO it_record (body, reader) VALUES (?, ?)")) {
                ps.setString(1, text);
                ps.setString(2, System.getProperty("jboss.node.name", "?") + "/" + Thread.currentThread().getName());
                ps.executeUpdate();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot record " + text + ": " + e.getMessage(), e);
        }
    }
}
