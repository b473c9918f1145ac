package org.ssbjca.it.override;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;

/** {@code maxReader} is not a property of the adapter (it is {@code maxReaders}). */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = "ItOverrideQueueC"),
    @ActivationConfigProperty(propertyName = "maxReader", propertyValue = "4")
})
@ResourceAdapter("ssb-jca.rar")
public class MisspeltPropertyBean implements BrokerMessageListener {

    @Override
    public void onMessage(BrokerMessage message) {
    }
}
