package org.ssbjca.bench.server;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.nio.charset.StandardCharsets;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;

/**
 * ssb-jca, one message per transaction, answered in the same transaction: a SEND on the received conversation through
 * the connection factory, which runs on the reader's own connection (one XA branch for the RECEIVE and the reply).
 */
@MessageDriven(name = "SsbReplyMdb", activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = "BenchQueue"),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "4")
})
@ResourceAdapter("ssb-jca.rar")
public class SsbReplyMdb implements BrokerMessageListener {

    /** The target's message type of the benchmark's contract. */
    static final String REPLY = "BenchReply";

    @Resource
    private TransactionSynchronizationRegistry registry;

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    @Override
    public void onMessage(BrokerMessage message) {
        String body = message.bodyAsText();
        Recorder.delivered(registry, 1, body);
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            broker.send(message.conversation(), REPLY, body.getBytes(StandardCharsets.UTF_8));
        }
    }
}
