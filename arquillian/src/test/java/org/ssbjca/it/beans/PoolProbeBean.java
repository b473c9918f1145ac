package org.ssbjca.it.beans;

import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;

/**
 * Begins a dialog and sends one message to {@value #TARGET} (whose queue nobody reads), in the caller's JTA
 * transaction through a pooled outbound connection.
 */
@Stateless
public class PoolProbeBean {

    /** The target service; its queue is {@value #QUEUE}. */
    public static final String TARGET = "ItPoolQueueService";
    /** The queue the probe's messages land in. */
    public static final String QUEUE = "ItPoolQueue";

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    /** @param body the message */
    public void send(String body) {
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            Conversation c = broker.beginDialog("ItClient", TARGET, "ItContract");
            broker.sendText(c, "ItRequest", body);
        }
    }
}
