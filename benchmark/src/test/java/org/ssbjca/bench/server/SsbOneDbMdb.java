package org.ssbjca.bench.server;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.sql.SQLException;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;

/** ssb-jca, one message per transaction, the payment written on the delivery's own connection (one branch). */
@MessageDriven(name = "SsbOneDbMdb", activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = "BenchQueue"),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "4")
})
@ResourceAdapter("ssb-jca.rar")
public class SsbOneDbMdb implements BrokerMessageListener {

    @Resource
    private TransactionSynchronizationRegistry registry;

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory broker;

    @Override
    public void onMessage(BrokerMessage message) {
        String body = message.bodyAsText();
        try (ServiceBrokerConnection c = broker.getConnection()) {
            Payments.apply(c.jdbcConnection(), body);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        Recorder.delivered(registry, 1, body);
    }
}
