package org.ssbjca.bench.server;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;

/**
 * ssb-jca, one message per transaction, the payment written through an XA datasource of the same database (the
 * {@code data-source} of the deployment's ejb-jar.xml): a second branch.
 */
@MessageDriven(name = "SsbOneDbXaMdb", activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = "BenchQueue"),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "4")
})
@ResourceAdapter("ssb-jca.rar")
public class SsbOneDbXaMdb implements BrokerMessageListener {

    @Resource
    private TransactionSynchronizationRegistry registry;

    @Resource(lookup = OneDbDataSource.NAME)
    private DataSource payments;

    @Override
    public void onMessage(BrokerMessage message) {
        String body = message.bodyAsText();
        try (Connection c = payments.getConnection()) {
            Payments.apply(c, body);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        Recorder.delivered(registry, 1, body);
    }
}
