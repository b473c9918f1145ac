package org.ssbjca.it.jmx;

import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;

/** Sends the test's messages, each in a transaction of its own. */
@Stateless
public class JmxItSender {

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    /**
     * @param service the target service
     * @param body the text of the one message sent on a new dialog
     */
    public void send(String service, String body) {
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            Conversation dialog = broker.beginDialog(JmxItSetup.INITIATOR, service, JmxItSetup.CONTRACT);
            broker.sendText(dialog, JmxItSetup.REQUEST, body);
        }
    }
}
