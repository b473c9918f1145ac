package org.ssbjca.it.beans;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.MessageDrivenContext;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.ServiceBrokerConnectionFactory;

/**
 * Test MDB on {@value #QUEUE}, four readers: records every message in {@code it_record} in the delivery's
 * transaction. Bodies starting with {@code throw-once:} / {@code rollback-once:} fail their first delivery (after
 * recording, so the rollback must undo the record); {@code poison:} fails every delivery. Those deliveries are
 * counted in {@code it_attempt} by {@link AttemptLog}.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = RecordingService.QUEUE),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "4"),
    @ActivationConfigProperty(propertyName = "maxDeliveryAttempts", propertyValue = "3"),
    @ActivationConfigProperty(propertyName = "waitTimeout", propertyValue = "2000")
})
@ResourceAdapter("ssb-jca.rar")
public class RecordingService implements BrokerMessageListener {

    /** The queue. */
    public static final String QUEUE = "ItRecordQueue";

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    @Resource
    private MessageDrivenContext context;

    @EJB
    private AttemptLog attempts;

    @Override
    public void onMessage(BrokerMessage message) {
        String body = message.bodyAsText();
        boolean counted = body.startsWith("throw-once:") || body.startsWith("rollback-once:")
                || body.startsWith("poison:");
        if (counted) {
            attempts.attempted(body);
        }
        Recorder.record(factory, message);
        if (body.startsWith("poison:")) {
            throw new IllegalStateException("poison message, fails every time: " + body);
        }
        if (counted && isFirstAttempt(body)) {
            if (body.startsWith("throw-once:")) {
                throw new IllegalStateException("first delivery fails on purpose: " + body);
            }
            context.setRollbackOnly();
        }
    }

    private static final java.util.Set<String> SEEN = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private static boolean isFirstAttempt(String body) {
        return SEEN.add(body);
    }
}
