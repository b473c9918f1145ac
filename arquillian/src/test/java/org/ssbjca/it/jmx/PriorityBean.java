package org.ssbjca.it.jmx;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;

/** One reader, so that the order of the deliveries is the order in which the groups are taken. */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = PriorityBean.QUEUE),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "1"),
    @ActivationConfigProperty(propertyName = "waitTimeout", propertyValue = "1000"),
    @ActivationConfigProperty(propertyName = "reconnectInitialMillis", propertyValue = "200"),
    @ActivationConfigProperty(propertyName = "reconnectMaxMillis", propertyValue = "1000")
})
@ResourceAdapter("ssb-jca.rar")
public class PriorityBean implements BrokerMessageListener {

    static final String QUEUE = "JmxPriorityQueue";

    @Override
    public void onMessage(BrokerMessage message) {
        DeliveryRecorder.deliver(QUEUE, message.bodyAsText());
    }
}
