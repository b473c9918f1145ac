package org.ssbjca.it.app;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Declares broker objects on the portable schema (H2, PostgreSQL) as rows, the way
 * {@code sql/portable/sample-install.sql} does, idempotently. Runs in the container, on the JDBC connection of a
 * broker connection ({@code ServiceBrokerConnection.jdbcConnection()}), outside a transaction: each statement
 * commits on its own.
 */
public final class BrokerObjects {

    private final Connection c;

    /** @param c the JDBC connection of a broker connection */
    public BrokerObjects(Connection c) {
        this.c = c;
    }

    /**
     * @param name a message type without validation
     * @return this
     */
    public BrokerObjects messageType(String name) throws SQLException {
        insert("INSERT INTO ssb.message_type (message_type_name, validation) SELECT ?, 'NONE' WHERE NOT EXISTS"
                + " (SELECT 1 FROM ssb.message_type WHERE message_type_name = ?)", name, name);
        return this;
    }

    /**
     * @param name a contract
     * @param messageType the one message type it allows, sent by the initiator
     * @return this
     */
    public BrokerObjects contract(String name, String messageType) throws SQLException {
        insert("INSERT INTO ssb.contract (contract_name) SELECT ? WHERE NOT EXISTS"
                + " (SELECT 1 FROM ssb.contract WHERE contract_name = ?)", name, name);
        insert("INSERT INTO ssb.contract_message_type (contract_name, message_type_name, sent_by)"
                + " SELECT ?, ?, 'INITIATOR' WHERE NOT EXISTS (SELECT 1 FROM ssb.contract_message_type"
                + " WHERE contract_name = ? AND message_type_name = ?)", name, messageType, name, messageType);
        return this;
    }

    /**
     * @param name a service
     * @param queue its queue, created when missing
     * @param contract the contract it accepts as a target, or null for an initiator only
     * @return this
     */
    public BrokerObjects service(String name, String queue, String contract) throws SQLException {
        insert("INSERT INTO ssb.service_queue (queue_name) SELECT ? WHERE NOT EXISTS"
                + " (SELECT 1 FROM ssb.service_queue WHERE queue_name = ?)", queue, queue);
        insert("INSERT INTO ssb.service (service_name, queue_name) SELECT ?, ? WHERE NOT EXISTS"
                + " (SELECT 1 FROM ssb.service WHERE service_name = ?)", name, queue, name);
        if (contract != null) {
            insert("INSERT INTO ssb.service_contract (service_name, contract_name) SELECT ?, ? WHERE NOT EXISTS"
                    + " (SELECT 1 FROM ssb.service_contract WHERE service_name = ? AND contract_name = ?)",
                    name, contract, name, contract);
        }
        return this;
    }

    private void insert(String sql, String... values) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                ps.setString(i + 1, values[i]);
            }
            ps.executeUpdate();
        }
    }
}
