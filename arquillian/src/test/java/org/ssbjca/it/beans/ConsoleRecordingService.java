package org.ssbjca.it.beans;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.ServiceBrokerConnectionFactory;

/**
 * Test MDB on {@value #QUEUE}, one reader: records every message in {@code it_record} as {@code group|body}, in the
 * order delivered, so that a test sees the order in which the reader took the conversation groups. A message whose
 * body starts with {@code poison} fails every delivery (and is dead-lettered after three) until the server's system
 * property {@value #CURE} is true.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = ConsoleRecordingService.QUEUE),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "1"),
    @ActivationConfigProperty(propertyName = "waitTimeout", propertyValue = "1000")
})
@ResourceAdapter("ssb-jca.rar")
public class ConsoleRecordingService implements BrokerMessageListener {

    /** The queue. */
    public static final String QUEUE = "ItConsoleQueue";
    /** The server's system property that, once true, lets poison messages through (to redeliver a dead letter). */
    public static final String CURE = "ssb.it.console.cure";

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    @Override
    public void onMessage(BrokerMessage message) {
        if (message.bodyAsText().startsWith("poison") && !Boolean.getBoolean(CURE)) {
            throw new IllegalStateException("cannot process " + message.bodyAsText());
        }
        Recorder.record(factory, message.conversationGroupId() + "|" + message.bodyAsText());
    }
}
