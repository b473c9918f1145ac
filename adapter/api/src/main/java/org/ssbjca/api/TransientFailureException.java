package org.ssbjca.api;

/**
 * Thrown by a bean to say that its delivery failed for a reason outside the message (a service it calls is down, a
 * lock timed out): the delivery rolls back and the message is delivered again without counting an attempt toward
 * {@code maxDeliveryAttempts} (a table row keeps its attempts), so an outage does not turn good messages into dead
 * letters. The redelivery delay still applies ({@code redeliveryDelay} for a queue, {@code retryDelaySeconds} for a
 * table), and the failure counts toward the activation's circuit breaker, which pauses the activation while the
 * outage lasts.
 *
 * <p>The delivery's transaction rolls back as for any exception the bean throws; the container may wrap it, and the
 * adapter finds it anywhere in the cause chain. The activation property {@code transientExceptions} does the same
 * for exception classes the bean does not own.
 */
public class TransientFailureException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message what failed */
    public TransientFailureException(String message) {
        super(message);
    }

    /**
     * @param message what failed
     * @param cause the failure, or null
     */
    public TransientFailureException(String message, Throwable cause) {
        super(message, cause);
    }
}
