package org.ssbjca.sample.workqueue;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.logging.Logger;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.ConversationGroupListener;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;

/**
 * The workers of seeds 003 and 004: eight readers drain WorkQueue, each RECEIVE taking up to 20 items of one
 * channel, and record every item in the work log in the same transaction. Exactly once comes from the broker, not
 * from locking hints: a RECEIVE removes the messages and locks their conversation group until the transaction ends,
 * other readers skip a locked group instead of waiting for it (READPAST on SQL Server, {@code SKIP LOCKED} on the
 * portable backends), and the removal and the work log rows commit or roll back together.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = "WorkQueue"),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "8"),
    @ActivationConfigProperty(propertyName = "receiveBatchSize", propertyValue = "20")
})
@ResourceAdapter("ssb-jca.rar")
public class WorkItemProcessor implements ConversationGroupListener {

    static final String TYPE = "WorkItem";
    private static final Logger LOG = Logger.getLogger(WorkItemProcessor.class.getName());

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    @Override
    public void onMessages(List<BrokerMessage> messages) {
        String reader = Thread.currentThread().getName();
        Timestamp now = Timestamp.from(Instant.now());
        try (ServiceBrokerConnection broker = factory.getConnection();
             PreparedStatement insert = broker.jdbcConnection().prepareStatement(
                     "INSERT INTO sample_work_log (run_id, item_id, reader, processed_at) VALUES (?, ?, ?, ?)")) {
            for (BrokerMessage m : messages) {
                if (!TYPE.equals(m.messageTypeName())) {
                    LOG.warning("WorkItemProcessor ignores a message of type " + m.messageTypeName());
                    continue;
                }
                String[] item = m.bodyAsText().split(" ");
                int id = Integer.parseInt(item[1]);
                WorkDeliveries.record(item[0], id);
                insert.setString(1, item[0]);
                insert.setInt(2, id);
                insert.setString(3, reader);
                insert.setTimestamp(4, now);
                insert.addBatch();
            }
            insert.executeBatch();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot write the work log: " + e.getMessage(), e);
        }
    }
}
