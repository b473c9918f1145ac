package org.ssbjca.management;

import java.time.Instant;
import org.ssbjca.backend.BrokerAdmin;
import org.ssbjca.inbound.EndpointActivation;

/** What an activation's queue holds now, read on a short-lived connection (as the MXBean reads it). */
public final class QueueReadings {

    /**
     * @param depth the messages the queue holds
     * @param oldest when its oldest message arrived, or null when it is empty
     */
    public record Reading(long depth, Instant oldest) {
    }

    private QueueReadings() {
    }

    /**
     * @param activation an activation
     * @return the messages its queue holds
     * @throws IllegalStateException if the database cannot be read
     */
    public static long depth(EndpointActivation activation) {
        return ShortLivedConnection.run(activation.database(), "reading the depth of " + activation.queue(),
                s -> activation.database().broker().admin(s.connection()).queueDepth(activation.queue()));
    }

    /**
     * @param activation an activation
     * @return its queue's depth and oldest message, both read on one connection
     * @throws IllegalStateException if the database cannot be read
     */
    public static Reading read(EndpointActivation activation) {
        return ShortLivedConnection.run(activation.database(), "reading the queue " + activation.queue(), s -> {
            BrokerAdmin admin = activation.database().broker().admin(s.connection());
            return new Reading(admin.queueDepth(activation.queue()), admin.oldestMessage(activation.queue()));
        });
    }
}
