package org.ssbjca.it.override;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;

/** Its number of readers comes from the server's system property {@code ssb.it.readers} (annotation replacement). */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = "ItOverrideQueueA"),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "${ssb.it.readers:1}")
})
@ResourceAdapter("ssb-jca.rar")
public class PropertyReplacedBean implements BrokerMessageListener {

    @Override
    public void onMessage(BrokerMessage message) {
    }
}
