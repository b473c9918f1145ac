package org.ssbjca.backend;

/**
 * What the adapter reads about a queue outside the Service Broker verbs: whether RECEIVE is allowed on it (readers
 * pause on a disabled queue) and how many messages it holds (management). Runs on the connection it was made for;
 * commits are the caller's. Declaring objects is a DBA's work (the scripts in {@code sql/}); the tests' own
 * administration is in the test kit ({@code TestAdmin}, the core module's test-jar).
 */
public interface BrokerAdmin {

    /**
     * @param queue the queue
     * @return whether RECEIVE is allowed on it
     */
    boolean isQueueEnabled(String queue);

    /**
     * @param queue the queue
     * @return how many messages it holds
     */
    long queueDepth(String queue);

    /**
     * @param queue the queue
     * @return when its oldest message was put on it, or null when it holds none
     */
    java.time.Instant oldestMessage(String queue);
}
