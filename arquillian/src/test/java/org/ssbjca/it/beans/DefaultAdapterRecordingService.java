package org.ssbjca.it.beans;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.ServiceBrokerConnectionFactory;

/**
 * Test MDB on {@value #QUEUE} that names no resource adapter: it runs on the {@code ejb3} subsystem's default one, as
 * docs/guide/deploying-in-wildfly.md has it on {@code standalone.xml}. Records each message through
 * {@code java:/ssb/ConnectionFactory}.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = DefaultAdapterRecordingService.QUEUE),
    @ActivationConfigProperty(propertyName = "waitTimeout", propertyValue = "2000")
})
public class DefaultAdapterRecordingService implements BrokerMessageListener {

    /** The queue. */
    public static final String QUEUE = "ItDefaultAdapterQueue";

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    @Override
    public void onMessage(BrokerMessage message) {
        Recorder.record(factory, message);
    }
}
