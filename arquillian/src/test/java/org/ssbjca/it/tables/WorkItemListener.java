package org.ssbjca.it.tables;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;
import org.ssbjca.api.TableRow;
import org.ssbjca.api.TableRowListener;

/**
 * The recipe of docs/guide/table-queues.md (DocsTest compares its lines with this class): a message-driven bean fed
 * from seed 004's table, each row exactly once (the dequeue time commits with the bean's work), four readers, rows kept
 * with their dequeue time.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "table", propertyValue = "Messaging.Message"),
    @ActivationConfigProperty(propertyName = "keyColumn", propertyValue = "MessageId"),
    @ActivationConfigProperty(propertyName = "payloadColumn", propertyValue = "MessageBody"),
    @ActivationConfigProperty(propertyName = "orderColumn", propertyValue = "EnqueueTime"),
    @ActivationConfigProperty(propertyName = "doneColumn", propertyValue = "DequeueTime"),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "4"),
    @ActivationConfigProperty(propertyName = "pollMillis", propertyValue = "200")
})
@ResourceAdapter("ssb-jca.rar")
public class WorkItemListener implements TableRowListener {

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    @Override
    public void onRow(TableRow row) {
        try (ServiceBrokerConnection broker = factory.getConnection();
                PreparedStatement ps = broker.jdbcConnection().prepareStatement(
                        "INSERT INTO Messaging.Handled (MessageBody) VALUES (?)")) {
            ps.setBytes(1, row.payloadBytes());
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot record " + row, e);
        }
    }
}
