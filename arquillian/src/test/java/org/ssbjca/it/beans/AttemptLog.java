package org.ssbjca.it.beans;

import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;

/**
 * Counts deliveries in {@code it_attempt}, in a transaction of its own (REQUIRES_NEW on an outbound connection), so
 * that the count survives the rollback of the delivery that made it.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class AttemptLog {

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    /** @param body the body of the message being delivered */
    public void attempted(String body) {
        try (ServiceBrokerConnection broker = factory.getConnection();
             PreparedStatement ps = broker.jdbcConnection().prepareStatement(
                     "INSERT INTO it_attempt (body) VALUES (?)")) {
            ps.setString(1, body);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot count an attempt of " + body + ": " + e.getMessage(), e);
        }
    }
}
