package org.ssbjca.it.override;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;

/** One reader and a 5 s wait in the code; the deployment's {@code META-INF/jboss-ejb3.xml} says otherwise. */
@MessageDriven(name = "DescriptorOverriddenBean", activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = "ItOverrideQueueB"),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "1"),
    @ActivationConfigProperty(propertyName = "waitTimeout", propertyValue = "5000")
})
@ResourceAdapter("ssb-jca.rar")
public class DescriptorOverriddenBean implements BrokerMessageListener {

    @Override
    public void onMessage(BrokerMessage message) {
    }
}
