package org.ssbjca.bench.server;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.jms.BytesMessage;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.Queue;
import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * Artemis, one message per transaction, answered in the same transaction: a persistent send through
 * {@code java:/JmsXA} to the reply queue (a second XA resource of the MDB's transaction).
 */
@MessageDriven(name = "ArtemisReplyMdb", activationConfig = {
    @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = "java:/jms/queue/BenchQueue"),
    @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
    @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "4")
})
public class ArtemisReplyMdb implements MessageListener {

    @Resource
    private TransactionSynchronizationRegistry registry;

    @Resource(lookup = "java:/JmsXA")
    private ConnectionFactory factory;

    @Resource(lookup = "java:/jms/queue/BenchReplyQueue")
    private Queue replies;

    @Override
    public void onMessage(Message message) {
        try {
            BytesMessage m = (BytesMessage) message;
            byte[] body = new byte[(int) m.getBodyLength()];
            m.readBytes(body);
            Recorder.delivered(registry, 1, new String(body, java.nio.charset.StandardCharsets.UTF_8));
            try (JMSContext context = factory.createContext()) {
                BytesMessage reply = context.createBytesMessage();
                reply.writeBytes(body);
                context.createProducer().setDeliveryMode(DeliveryMode.PERSISTENT).send(replies, reply);
            }
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
