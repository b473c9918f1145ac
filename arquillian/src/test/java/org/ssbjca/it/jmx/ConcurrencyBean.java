package org.ssbjca.it.jmx;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;

/** Starts with one reader; the test raises MaxReaders through JMX. */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = ConcurrencyBean.QUEUE),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "1"),
    @ActivationConfigProperty(propertyName = "waitTimeout", propertyValue = "1000"),
    @ActivationConfigProperty(propertyName = "reconnectInitialMillis", propertyValue = "200"),
    @ActivationConfigProperty(propertyName = "reconnectMaxMillis", propertyValue = "1000")
})
@ResourceAdapter("ssb-jca.rar")
public class ConcurrencyBean implements BrokerMessageListener {

    static final String QUEUE = "JmxConcurrencyQueue";

    @Override
    public void onMessage(BrokerMessage message) {
        DeliveryRecorder.deliver(QUEUE, message.bodyAsText());
    }
}
