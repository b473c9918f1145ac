package org.ssbjca.it.beans;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.ServiceBrokerConnectionFactory;

/**
 * Test MDB on {@value #QUEUE} with a circuit breaker (three failed deliveries in a row open it, probes after 0.5 s
 * growing to 2 s): counts every delivery in {@code it_attempt} (in a transaction of its own) and fails it, as if a
 * service every message needs were down, until the server's system property {@value #UP} is true; then records the
 * message in {@code it_record}.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = BreakerService.QUEUE),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "2"),
    @ActivationConfigProperty(propertyName = "waitTimeout", propertyValue = "1000"),
    @ActivationConfigProperty(propertyName = "maxDeliveryAttempts", propertyValue = "100"),
    @ActivationConfigProperty(propertyName = "breakerThreshold", propertyValue = "3"),
    @ActivationConfigProperty(propertyName = "breakerDelay", propertyValue = "500"),
    @ActivationConfigProperty(propertyName = "breakerMaxDelay", propertyValue = "2000")
})
@ResourceAdapter("ssb-jca.rar")
public class BreakerService implements BrokerMessageListener {

    /** The queue. */
    public static final String QUEUE = "ItBreakerQueue";
    /** The server's system property that, once true, lets the deliveries succeed. */
    public static final String UP = "ssb.it.breaker.up";

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    @EJB
    private AttemptLog attempts;

    @Override
    public void onMessage(BrokerMessage message) {
        attempts.attempted(message.bodyAsText());
        if (!Boolean.getBoolean(UP)) {
            throw new IllegalStateException("the stock service is down");
        }
        Recorder.record(factory, message);
    }
}
