package org.ssbjca.sample.priority;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import java.time.Instant;
import java.util.logging.Logger;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;
import org.ssbjca.sample.Xml;

/**
 * Seed 000's service, without its front-end/back-end pair: one reader performs each {@code LongWorkloadRequest}
 * (a delay the request names) and answers with a {@code Response} that carries the request, the time and the reader.
 *
 * <p>The seed needs a front-end service because a {@code SetPriority} message sits at the bottom of the queue,
 * behind the work it is meant to overtake. The adapter solves that itself: with {@code priorityMessageType} set, its
 * readers look at the whole queue for such messages (at most every 250 ms), record the priority of each one's
 * conversation group from its {@code <priority>n</priority>} body, take the groups with the highest priority first,
 * and consume the {@code SetPriority} messages without delivering them here. A group's priority is dropped once it
 * has no messages left, as the seed's {@code DELETE FROM priority_table} does.
 *
 * <p>The conversation stays open after the response: the client ends it when the response arrives, and the adapter
 * ends this side when the EndDialog comes (handleSystemMessages = END), as the seed's back end does.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = "PriorityServiceQueue"),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "1"),
    @ActivationConfigProperty(propertyName = "priorityMessageType", propertyValue = "SetPriority")
})
@ResourceAdapter("ssb-jca.rar")
public class PriorityService implements BrokerMessageListener {

    private static final Logger LOG = Logger.getLogger(PriorityService.class.getName());

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    @Override
    public void onMessage(BrokerMessage message) {
        if (!WorkloadRequest.TYPE.equals(message.messageTypeName())) {
            LOG.warning("PriorityService ignores a message of type " + message.messageTypeName());
            return;
        }
        WorkloadRequest request = WorkloadRequest.of(message);
        WorkloadHolds.await(request.hold());
        work(request.workloadMillis());
        String result = PriorityResponse.xml(request, Thread.currentThread().getName(), Xml.time(Instant.now()));
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            broker.sendText(message.conversation(), PriorityResponse.TYPE, result);
        }
    }

    /** The long workload: the seed's {@code WAITFOR DELAY}. */
    private static void work(int millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while working", e);
        }
    }
}
