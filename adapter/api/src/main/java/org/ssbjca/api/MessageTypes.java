package org.ssbjca.api;

/**
 * Names of the message types every Service Broker database has. The system types are sent by the broker itself,
 * never by applications.
 */
public final class MessageTypes {

    /** The prefix of every system message type name ({@code http}, not {@code https}). */
    public static final String SYSTEM_PREFIX = "http://schemas.microsoft.com/SQL/ServiceBroker/";

    /** Sent to the other side when one side ends the conversation normally. Its body is empty. */
    public static final String END_DIALOG = SYSTEM_PREFIX + "EndDialog";

    /**
     * Sent when one side ends the conversation with an error, or when the broker ends it (lifetime expired).
     * Its body is an XML document; see {@link BrokerMessage#errorCode()} and {@link BrokerMessage#errorDescription()}.
     */
    public static final String ERROR = SYSTEM_PREFIX + "Error";

    /** Delivered to the side that began a conversation timer, when the timer expires. Its body is empty. */
    public static final String DIALOG_TIMER = SYSTEM_PREFIX + "DialogTimer";

    /** The namespace of the body of {@link #ERROR} messages. */
    public static final String ERROR_NAMESPACE = SYSTEM_PREFIX + "Error";

    /** The message type of the {@code DEFAULT} contract, usable by any side. */
    public static final String DEFAULT = "DEFAULT";

    private MessageTypes() {
    }

    /**
     * Returns whether a message type is one of the broker's own (EndDialog, Error, DialogTimer, ...).
     *
     * @param messageTypeName a message type name
     */
    public static boolean isSystem(String messageTypeName) {
        return messageTypeName != null && messageTypeName.startsWith(SYSTEM_PREFIX);
    }
}
