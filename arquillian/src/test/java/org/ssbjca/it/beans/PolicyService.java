package org.ssbjca.it.beans;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.ServiceBrokerConnectionFactory;
import org.ssbjca.api.TransientFailureException;

/**
 * Test MDB on {@value #QUEUE} with a failure policy, one reader, three attempts: counts every delivery in
 * {@code it_attempt} as {@code body|deliveryAttempt} (in a transaction of its own), then by the body's first word
 * throws {@link IllegalArgumentException} ({@code parse}) or its own {@link OrderRejected} ({@code reject}), both
 * listed in {@code unrecoverableExceptions}, or {@link TransientFailureException} on the first {@value #OUTAGE}
 * deliveries of the message ({@code flaky}), more than {@code maxDeliveryAttempts}; else records it in
 * {@code it_record}.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = PolicyService.QUEUE),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "1"),
    @ActivationConfigProperty(propertyName = "waitTimeout", propertyValue = "1000"),
    @ActivationConfigProperty(propertyName = "maxDeliveryAttempts", propertyValue = "3"),
    @ActivationConfigProperty(propertyName = "unrecoverableExceptions",
            propertyValue = "java.lang.IllegalArgumentException, org.ssbjca.it.beans.PolicyService$OrderRejected")
})
@ResourceAdapter("ssb-jca.rar")
public class PolicyService implements BrokerMessageListener {

    /** The queue. */
    public static final String QUEUE = "ItPolicyQueue";
    /** Deliveries of a {@code flaky} message that fail as an outage before one succeeds. */
    public static final int OUTAGE = 4;

    private static final Map<String, Integer> DELIVERIES = new ConcurrentHashMap<>();

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    @EJB
    private AttemptLog attempts;

    @Override
    public void onMessage(BrokerMessage message) {
        String body = message.bodyAsText();
        attempts.attempted(body + "|" + message.deliveryAttempt());
        if (body.startsWith("parse")) {
            throw new IllegalArgumentException("cannot parse " + body);
        }
        if (body.startsWith("reject")) {
            throw new OrderRejected("rejected " + body);
        }
        if (body.startsWith("flaky") && DELIVERIES.merge(body, 1, Integer::sum) <= OUTAGE) {
            throw new TransientFailureException("the stock service is down for " + body);
        }
        Recorder.record(factory, message);
    }

    /** The bean's own exception for a message it refuses, named in {@code unrecoverableExceptions}. */
    public static class OrderRejected extends RuntimeException {

        private static final long serialVersionUID = 1L;

        /** @param message why */
        public OrderRejected(String message) {
            super(message);
        }
    }
}
