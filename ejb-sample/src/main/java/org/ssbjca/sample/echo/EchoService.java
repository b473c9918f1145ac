package org.ssbjca.sample.echo;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.MessageDrivenContext;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;

/**
 * The target of the echo dialog: answers every EchoRequest on the same conversation with "echo: " and the request's
 * text, then ends its side. The reply and the RECEIVE commit together (one container transaction).
 *
 * <p>For the tests of failure handling, a request whose text starts with {@code rollback-once:} makes the first
 * delivery call {@code setRollbackOnly()}, and one starting with {@code throw-once:} makes it throw; both are
 * answered on the next delivery.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = "EchoServiceQueue"),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "2")
})
@ResourceAdapter("ssb-jca.rar")
public class EchoService implements BrokerMessageListener {

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    @Resource
    private MessageDrivenContext context;

    @Override
    public void onMessage(BrokerMessage message) {
        String text = message.bodyAsText();
        int attempt = DeliveryLog.record(text);
        if (attempt == 1 && text.startsWith("rollback-once:")) {
            context.setRollbackOnly();
            return;
        }
        if (attempt == 1 && text.startsWith("throw-once:")) {
            throw new IllegalStateException("first delivery of '" + text + "' fails on purpose");
        }
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            broker.sendText(message.conversation(), "EchoReply", "echo: " + text);
            broker.endConversation(message.conversation());
        }
    }
}
