package org.ssbjca.it.beans;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.ServiceBrokerConnectionFactory;

/**
 * Test MDB on {@value #QUEUE} of an adapter configured in the resource-adapters subsystem: records each message
 * through {@code java:/ssb/ConnectionFactory}, the subsystem's connection definition.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = SubsystemRecordingService.QUEUE),
    @ActivationConfigProperty(propertyName = "waitTimeout", propertyValue = "2000")
})
@ResourceAdapter("ssb-jca.rar")
public class SubsystemRecordingService implements BrokerMessageListener {

    /** The queue. */
    public static final String QUEUE = "ItSubsystemQueue";

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    @Override
    public void onMessage(BrokerMessage message) {
        Recorder.record(factory, message);
    }
}
