package org.ssbjca.inbound;

import org.ssbjca.api.BrokerMessage;

/** What an activation reports as it happens, for JMX notifications. Implementations must not block or throw. */
public interface ActivationEvents {

    /** Reports nothing. */
    ActivationEvents NONE = new ActivationEvents() { };

    /**
     * @param queue the queue
     * @param message the message moved to the dead-letter table
     * @param attempts its failed deliveries
     */
    default void deadLettered(String queue, BrokerMessage message, int attempts) {
    }

    /** @param queue the queue found disabled */
    default void queueDisabled(String queue) {
    }

    /**
     * @param queue the queue
     * @param reader the reader that lost its connection
     * @param delayMillis how long it waits before it reconnects
     * @param error what happened
     */
    default void reconnecting(String queue, String reader, long delayMillis, String error) {
    }
}
