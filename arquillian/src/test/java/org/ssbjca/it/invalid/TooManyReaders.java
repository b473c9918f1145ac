package org.ssbjca.it.invalid;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;

/** An MDB asking for 1000 readers (at most 256 are allowed): its deployment must fail. */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = "AnyQueue"),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "1000")
})
@ResourceAdapter("ssb-jca.rar")
public class TooManyReaders implements BrokerMessageListener {

    @Override
    public void onMessage(BrokerMessage message) {
        // never activated
    }
}
