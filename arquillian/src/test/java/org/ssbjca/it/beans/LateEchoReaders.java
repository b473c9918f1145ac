package org.ssbjca.it.beans;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;

/**
 * A message-driven bean with {@value #READERS} readers on the echo sample's queue, deployed by a test while it records:
 * its readers' start is what the test looks at. It is undeployed before anything is sent to the queue again.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = LateEchoReaders.QUEUE),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "" + LateEchoReaders.READERS)
})
@ResourceAdapter("ssb-jca.rar")
public class LateEchoReaders implements BrokerMessageListener {

    /** The echo sample's queue. */
    public static final String QUEUE = "EchoServiceQueue";
    /** The bean's readers. */
    public static final int READERS = 3;

    @Override
    public void onMessage(BrokerMessage message) {
        // the test sends nothing while the bean is deployed
    }
}
