package org.ssbjca.it.shared;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;

/**
 * Test MDB on {@value #QUEUE} that fails every delivery: with {@link IllegalArgumentException} (listed in
 * {@code unrecoverableExceptions}) for a body starting {@code bad}, else with {@link IllegalStateException}, which
 * counts toward {@code maxDeliveryAttempts} and the circuit breaker (two failures in a row open it, for ten minutes).
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = SharedQueueBean.QUEUE),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "1"),
    @ActivationConfigProperty(propertyName = "waitTimeout", propertyValue = "1000"),
    @ActivationConfigProperty(propertyName = "maxDeliveryAttempts", propertyValue = "3"),
    @ActivationConfigProperty(propertyName = "unrecoverableExceptions",
            propertyValue = "java.lang.IllegalArgumentException"),
    @ActivationConfigProperty(propertyName = "breakerThreshold", propertyValue = "2"),
    @ActivationConfigProperty(propertyName = "breakerDelay", propertyValue = "600000"),
    @ActivationConfigProperty(propertyName = "breakerMaxDelay", propertyValue = "600000")
})
@ResourceAdapter("ssb-jca.rar")
public class SharedQueueBean implements BrokerMessageListener {

    /** The queue. */
    public static final String QUEUE = "ItSharedQueue";

    @Override
    public void onMessage(BrokerMessage message) {
        String body = message.bodyAsText();
        if (body.startsWith("bad")) {
            throw new IllegalArgumentException("cannot parse " + body);
        }
        throw new IllegalStateException("the stock service is down for " + body);
    }
}
