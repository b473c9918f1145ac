package org.ssbjca.bench.server;

import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.jms.BytesMessage;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.Queue;

/** Sends persistent messages to the Artemis queue through java:/JmsXA, in the caller's container transaction. */
@Stateless
public class ArtemisSender {

    @Resource(lookup = "java:/JmsXA")
    private ConnectionFactory factory;

    @Resource(lookup = "java:/jms/queue/BenchQueue")
    private Queue queue;

    /**
     * @param firstId the first message's number
     * @param count messages to send in this transaction
     * @param size body size
     */
    public void send(int firstId, int count, int size) {
        try (JMSContext context = factory.createContext()) {
            JMSProducer producer = context.createProducer().setDeliveryMode(DeliveryMode.PERSISTENT);
            for (int i = 0; i < count; i++) {
                BytesMessage m = context.createBytesMessage();
                m.writeBytes(Bodies.of(firstId + i, size));
                producer.send(queue, m);
            }
        } catch (jakarta.jms.JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
