package org.ssbjca.management;

import java.util.Date;
import javax.management.ConstructorParameters;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.backend.DeadLetter;

/**
 * A message taken off the queue after too many failed deliveries; JMX clients see it as {@code CompositeData}. The
 * body is shown as text (UTF-8), cut after {@value #BODY_LIMIT} characters.
 */
@SuppressWarnings("JavaUtilDate") // JMX open types (CompositeData) carry dates as java.util.Date
public final class DeadLetterInfo {

    static final int BODY_LIMIT = 4000;

    private final long id;
    private final String conversationHandle;
    private final String conversationGroup;
    private final long sequenceNumber;
    private final String messageType;
    private final String body;
    private final int attempts;
    private final String lastError;
    private final Date deadLetteredAt;
    private final String copyConversationId;

    /**
     * @param id the id to pass to {@code redeliverDeadLetter}
     * @param conversationHandle the target side's conversation handle
     * @param conversationGroup its conversation group
     * @param sequenceNumber the message's sequence number in its conversation
     * @param messageType the message type
     * @param body the body as text, possibly cut
     * @param attempts the failed deliveries
     * @param lastError the last error, or null
     * @param deadLetteredAt when it was moved to the dead-letter table, or null
     * @param copyConversationId the conversation id of its copy to the activation's dead-letter service, or null
     */
    @ConstructorParameters({"id", "conversationHandle", "conversationGroup", "sequenceNumber", "messageType", "body",
        "attempts", "lastError", "deadLetteredAt", "copyConversationId"})
    public DeadLetterInfo(long id, String conversationHandle, String conversationGroup, long sequenceNumber,
            String messageType, String body, int attempts, String lastError, Date deadLetteredAt,
            String copyConversationId) {
        this.copyConversationId = copyConversationId;
        this.id = id;
        this.conversationHandle = conversationHandle;
        this.conversationGroup = conversationGroup;
        this.sequenceNumber = sequenceNumber;
        this.messageType = messageType;
        this.body = body;
        this.attempts = attempts;
        this.lastError = lastError;
        this.deadLetteredAt = deadLetteredAt == null ? null : new Date(deadLetteredAt.getTime());
    }

    static DeadLetterInfo of(DeadLetter d) {
        BrokerMessage m = d.message();
        String text = m.bodyAsText();
        if (text.length() > BODY_LIMIT) {
            text = text.substring(0, BODY_LIMIT) + "...";
        }
        return new DeadLetterInfo(d.id(), String.valueOf(m.conversationHandle()),
                String.valueOf(m.conversationGroupId()), m.messageSequenceNumber(), m.messageTypeName(), text,
                d.attempts(), d.lastError(), d.deadLetteredAt() == null ? null : Date.from(d.deadLetteredAt()),
                d.copyConversationId() == null ? null : d.copyConversationId().toString());
    }

    /** Returns the id to pass to {@code redeliverDeadLetter}. */
    public long getId() {
        return id;
    }

    /** Returns the target side's conversation handle. */
    public String getConversationHandle() {
        return conversationHandle;
    }

    /** Returns the conversation group. */
    public String getConversationGroup() {
        return conversationGroup;
    }

    /** Returns the sequence number in its conversation. */
    public long getSequenceNumber() {
        return sequenceNumber;
    }

    /** Returns the message type. */
    public String getMessageType() {
        return messageType;
    }

    /** Returns the body as text (UTF-8, or UTF-16 after a byte order mark), possibly cut. */
    public String getBody() {
        return body;
    }

    /** Returns the failed deliveries. */
    public int getAttempts() {
        return attempts;
    }

    /** Returns the last error, or null. */
    public String getLastError() {
        return lastError;
    }

    /** Returns when it was dead-lettered, or null. */
    public Date getDeadLetteredAt() {
        return deadLetteredAt == null ? null : new Date(deadLetteredAt.getTime());
    }

    /**
     * Returns the conversation id of the dialog that carried its copy to the activation's dead-letter service (what
     * the service's RECEIVE returns as {@code conversation_id} with the copy), or null when no copy was sent.
     */
    public String getCopyConversationId() {
        return copyConversationId;
    }
}
