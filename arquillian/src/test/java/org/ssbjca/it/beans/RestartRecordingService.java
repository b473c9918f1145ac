package org.ssbjca.it.beans;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.ServiceBrokerConnectionFactory;

/**
 * Test MDB on {@value #QUEUE}, four readers, reconnect delays capped at 2 s: records every message in
 * {@code it_record} in the delivery's transaction.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = RestartRecordingService.QUEUE),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "4"),
    @ActivationConfigProperty(propertyName = "waitTimeout", propertyValue = "2000"),
    @ActivationConfigProperty(propertyName = "reconnectInitialMillis", propertyValue = "250"),
    @ActivationConfigProperty(propertyName = "reconnectMaxMillis", propertyValue = "2000")
})
@ResourceAdapter("ssb-jca.rar")
public class RestartRecordingService implements BrokerMessageListener {

    /** The queue. */
    public static final String QUEUE = "ItRestartQueue";

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    @Override
    public void onMessage(BrokerMessage message) {
        Recorder.record(factory, message);
    }
}
