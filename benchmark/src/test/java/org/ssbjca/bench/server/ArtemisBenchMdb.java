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

/** WildFly's own messaging: Artemis through activemq-ra (XA, REQUIRED); maxSession set per deployment. */
@MessageDriven(name = "ArtemisBenchMdb", activationConfig = {
    @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = "java:/jms/queue/BenchQueue"),
    @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
    @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "4")
})
public class ArtemisBenchMdb implements MessageListener {

    @Resource
    private TransactionSynchronizationRegistry registry;

    @Override
    public void onMessage(Message message) {
        try {
            BytesMessage m = (BytesMessage) message;
            byte[] body = new byte[(int) m.getBodyLength()];
            m.readBytes(body);
            Recorder.delivered(registry, 1, new String(body, StandardCharsets.UTF_8));
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
