package org.ssbjca.it.tracing;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;

/** On {@value TracingIT#START_QUEUE}: what the test sends there (with no trace) makes {@link TracingSender} send. */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = TracingIT.START_QUEUE),
    @ActivationConfigProperty(propertyName = "waitTimeout", propertyValue = "2000")
})
@ResourceAdapter("ssb-jca.rar")
public class TracingStarter implements BrokerMessageListener {

    @EJB
    private TracingSender sender;

    @Override
    public void onMessage(BrokerMessage message) {
        sender.sendInNewTrace();
    }
}
