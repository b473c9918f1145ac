package org.ssbjca.it.jmx;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;

/** Two readers; the test pauses and resumes them through JMX. */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = PauseBean.QUEUE),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "2"),
    @ActivationConfigProperty(propertyName = "waitTimeout", propertyValue = "1000"),
    @ActivationConfigProperty(propertyName = "reconnectInitialMillis", propertyValue = "200"),
    @ActivationConfigProperty(propertyName = "reconnectMaxMillis", propertyValue = "1000")
})
@ResourceAdapter("ssb-jca.rar")
public class PauseBean implements BrokerMessageListener {

    static final String QUEUE = "JmxPauseQueue";

    @Override
    public void onMessage(BrokerMessage message) {
        DeliveryRecorder.deliver(QUEUE, message.bodyAsText());
    }
}
