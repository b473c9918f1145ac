package org.ssbjca.backend;

/**
 * What the adapter reads about a queue outside the Service Broker verbs: whether RECEIVE is allowed on it (readers
 * pause on a disabled queue) and how many messages it holds (management). Runs on the connection it was made for;
 * commits are the caller's. Declaring objects is a DBA's work (the scripts in {@code sql/}); the tests' own
 * administration is in the test kit ({@code TestAdmin}, in the test kit module).
 */
public interface BrokerAdmin {

    /**
     * Returns whether RECEIVE is allowed on it.
     *
     * @param queue the queue
     */
    boolean isQueueEnabled(String queue);

    /**
     * Fails when RECEIVE is not allowed on a queue.
     *
     * @param queue the queue
     * @throws org.ssbjca.api.QueueDisabledException when RECEIVE is not allowed on it, naming the statement that
     *     enables it on this backend (by default SQL Server's {@code ALTER QUEUE})
     */
    default void requireEnabled(String queue) {
        if (!isQueueEnabled(queue)) {
            throw new org.ssbjca.api.QueueDisabledException(queue, null);
        }
    }

    /**
     * Returns how many messages it holds.
     *
     * @param queue the queue
     */
    long queueDepth(String queue);

    /**
     * Returns when its oldest message was put on it, or null when it holds none.
     *
     * @param queue the queue
     */
    java.time.Instant oldestMessage(String queue);
    /**
     * Returns how many conversation groups have messages in it.
     *
     * @param queue a queue
     */
    long pendingGroupCount(String queue);

    /**
     * Returns messages waiting to be put on a queue (a disabled one, or a remote service's): sys.transmission_queue.
     */
    long transmissionQueueDepth();

    /**
     * Counts the database's conversation endpoints by service and state (the broker's own system dialogs left out).
     *
     * @param begunBefore only those begun before this instant, or null for all of them (on SQL Server an endpoint
     *     whose begin time is unknown counts only in the latter)
     * @return one entry per service and state, by service then state
     */
    java.util.List<EndpointCount> conversationEndpoints(java.time.Instant begunBefore);

    /**
     * Returns the handles of those endpoints.
     *
     * @param service the service of this side
     * @param state a state code
     * @param begunBefore only those begun before this instant, or null for any
     * @param max at most this many, the oldest first
     */
    java.util.List<java.util.UUID> conversationHandles(String service, String state, java.time.Instant begunBefore,
            int max);
}
