package org.ssbjca.api;

/**
 * Thrown by SEND, BEGIN CONVERSATION TIMER or MOVE CONVERSATION on a conversation that this side has already ended,
 * that the other side ended with an error, or that does not exist (unknown handle).
 */
public class ConversationEndedException extends BrokerException {

    private static final long serialVersionUID = 1L;

    /** @param message which conversation, and why it cannot be used */
    public ConversationEndedException(String message) {
        super(message);
    }

    /**
     * @param message which conversation, and why it cannot be used
     * @param cause the database's error
     */
    public ConversationEndedException(String message, Throwable cause) {
        super(message, cause);
    }
}
