package org.ssbjca.management;

import java.time.Instant;
import org.ssbjca.inbound.EndpointActivation;

/** What an activation's queue holds now, read on a short-lived connection (as the MXBean reads it). */
public final class QueueReadings {

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
     * @return when the oldest message of its queue arrived, or null when the queue is empty
     * @throws IllegalStateException if the database cannot be read
     */
    public static Instant oldest(EndpointActivation activation) {
        return ShortLivedConnection.run(activation.database(), "reading the oldest message of " + activation.queue(),
                s -> activation.database().broker().admin(s.connection()).oldestMessage(activation.queue()));
    }
}
