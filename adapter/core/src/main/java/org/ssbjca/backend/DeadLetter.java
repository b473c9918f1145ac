package org.ssbjca.backend;

import java.time.Instant;
import org.ssbjca.api.BrokerMessage;

/** A message taken off its queue after too many failed deliveries. */
public final class DeadLetter {

    private final long id;
    private final String queue;
    private final BrokerMessage message;
    private final int attempts;
    private final String lastError;
    private final Instant deadLetteredAt;

    /**
     * @param id its id in the dead-letter table
     * @param queue the queue it came from
     * @param message the message as it was received
     * @param attempts how many deliveries failed
     * @param lastError the last error, or null
     * @param deadLetteredAt when it was moved
     */
    public DeadLetter(long id, String queue, BrokerMessage message, int attempts, String lastError,
            Instant deadLetteredAt) {
        this.id = id;
        this.queue = queue;
        this.message = message;
        this.attempts = attempts;
        this.lastError = lastError;
        this.deadLetteredAt = deadLetteredAt;
    }

    /** @return its id */
    public long id() {
        return id;
    }

    /** @return the queue it came from */
    public String queue() {
        return queue;
    }

    /** @return the message */
    public BrokerMessage message() {
        return message;
    }

    /** @return how many deliveries failed */
    public int attempts() {
        return attempts;
    }

    /** @return the last error, or null */
    public String lastError() {
        return lastError;
    }

    /** @return when it was moved */
    public Instant deadLetteredAt() {
        return deadLetteredAt;
    }
}
