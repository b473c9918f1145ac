package org.ssbjca.backend;

import java.util.List;

/**
 * The broker doctor's reads and its one repair, beyond the verbs and {@link BrokerAdmin}'s counts: the database's
 * broker (enabled, its id), the messages waiting in the transmission queue with why they wait, the failed delivery
 * that most likely disabled a queue, and the re-enabling of a queue. Runs on the connection it was made for, on the
 * caller's thread; commits are the caller's. Reads never wait for a conversation's locks.
 */
public interface BrokerDoctor {

    /**
     * Returns the database's broker: whether it is enabled and its id (SQL Server's {@code sys.databases}); the
     * portable schema's is always enabled and has no id.
     */
    BrokerState brokerState();

    /**
     * Returns the messages waiting in the transmission queue, the oldest first, with the broker's reason.
     *
     * @param max at most this many, 1 to 1000
     */
    List<StuckTransmission> stuckTransmissions(int max);

    /**
     * Returns how many messages of the transmission queue have a {@code transmission_status} (the broker tried to send
     * them and could not, or the portable schema's disabled queue): the doctor's stuck-message metric.
     */
    long stuckTransmissionCount();

    /**
     * The failed delivery the adapter counted last on a queue ({@code ssb.delivery_attempt}): after a queue was
     * disabled by poison detection, the message whose rolled back deliveries most likely disabled it. The broker itself
     * records no such message; a rollback of a transaction that is not the adapter's leaves no row here.
     *
     * @param queue the queue
     * @return that delivery, or null when the adapter counted none on that queue
     */
    FailedDelivery lastFailedDelivery(String queue);

    /**
     * Allows RECEIVE on a queue again (SQL Server: {@code ALTER QUEUE ... WITH STATUS = ON}; the portable schema:
     * {@code is_receive_enabled}). Idempotent.
     *
     * @param queue the queue
     */
    void enableQueue(String queue);

    /**
     * Checks the database's broker before readers use it, remembering its id in {@code identity}.
     *
     * @param identity the id this adapter saw first on this database
     * @throws IllegalStateException if the broker is disabled or its id changed, saying what to run
     */
    default void requireBrokerReady(BrokerIdentity identity) {
        identity.require(brokerState());
    }
}
