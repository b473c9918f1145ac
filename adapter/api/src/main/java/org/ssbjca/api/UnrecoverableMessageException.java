package org.ssbjca.api;

/**
 * Thrown by a bean to say that the message it was given can never be processed (it cannot be parsed, it breaks a
 * rule of the application): the adapter sets it aside at once, without the retries {@code maxDeliveryAttempts}
 * allows. A queue's message becomes a dead letter in the transaction of the next RECEIVE that takes it, without
 * reaching the bean again; a table row is set aside (its attempts column at {@code maxAttempts}).
 *
 * <p>The delivery's transaction rolls back as for any exception the bean throws (the container's rules apply: for a
 * bean with container-managed transactions it wraps it, and the adapter finds it anywhere in the cause chain). The
 * dead letter's error names this exception's class and message. A failure the bean signals this way is not charged
 * to the activation's circuit breaker: it is the message's fault, not the system's.
 *
 * <p>The activation property {@code unrecoverableExceptions} does the same for exception classes the bean does not
 * own.
 */
public class UnrecoverableMessageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message why the message cannot be processed; it travels with the dead letter */
    public UnrecoverableMessageException(String message) {
        super(message);
    }

    /**
     * @param message why the message cannot be processed; it travels with the dead letter
     * @param cause what failed, or null
     */
    public UnrecoverableMessageException(String message, Throwable cause) {
        super(message, cause);
    }
}
