package org.ssbjca.inbound;

import org.ssbjca.api.BrokerMessage;

/** What an activation reports as it happens, for JMX notifications. Implementations must not block or throw. */
public interface ActivationEvents {

    /** Reports nothing. */
    ActivationEvents NONE = new ActivationEvents() { };

    /**
     * Told when a message is moved to the dead-letter table.
     *
     * @param queue the queue
     * @param message the message moved to the dead-letter table
     * @param attempts its failed deliveries
     */
    default void deadLettered(String queue, BrokerMessage message, int attempts) {
    }

    /**
     * Told when a reader finds its queue disabled.
     *
     * @param queue the queue found disabled
     */
    default void queueDisabled(String queue) {
    }

    /**
     * Told when a reader lost its connection and waits before it reconnects.
     *
     * @param queue the queue
     * @param reader the reader that lost its connection
     * @param delayMillis how long it waits before it reconnects
     * @param error what happened
     */
    default void reconnecting(String queue, String reader, long delayMillis, String error) {
    }

    /**
     * Told when an activation's circuit breaker opens.
     *
     * @param activation the activation whose circuit breaker opened (its readers pause)
     * @param failures the failed deliveries in a row that opened it; 1 when a probe failed
     * @param probeInMillis how long until one reader probes with one delivery
     * @param lastError the last failure
     */
    default void breakerOpened(String activation, int failures, long probeInMillis, String lastError) {
    }

    /**
     * Told when an activation's circuit breaker closes.
     *
     * @param activation the activation whose circuit breaker closed (a delivery succeeded; its readers go on)
     * @param openMillis how long it was open
     */
    default void breakerClosed(String activation, long openMillis) {
    }
}
