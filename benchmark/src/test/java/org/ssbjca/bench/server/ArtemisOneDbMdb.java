package org.ssbjca.bench.server;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Artemis (XA, REQUIRED), one message per transaction, the payment written through an XA datasource of the database
 * (the {@code data-source} of the deployment's ejb-jar.xml): two resources, a two-phase commit.
 */
@MessageDriven(name = "ArtemisOneDbMdb", activationConfig = {
    @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = "java:/jms/queue/BenchQueue"),
    @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
    @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "4")
})
public class ArtemisOneDbMdb implements MessageListener {

    @Resource
    private TransactionSynchronizationRegistry registry;

    @Resource(lookup = OneDbDataSource.NAME)
    private DataSource payments;

    @Override
    public void onMessage(Message message) {
        try {
            BytesMessage m = (BytesMessage) message;
            byte[] bytes = new byte[(int) m.getBodyLength()];
            m.readBytes(bytes);
            String body = new String(bytes, StandardCharsets.UTF_8);
            try (Connection c = payments.getConnection()) {
                Payments.apply(c, body);
            }
            Recorder.delivered(registry, 1, body);
        } catch (JMSException | SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
