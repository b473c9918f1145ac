package org.ssbjca.api;

import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import java.util.UUID;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * One message as RECEIVE returned it: the columns of a Service Broker queue row. Immutable and safe to share
 * between threads; {@link #body()} returns a copy.
 *
 * <p>Build one with {@link #builder()} (the adapter does; applications may, to unit-test their listeners).
 */
public final class BrokerMessage implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final byte[] EMPTY = new byte[0];

    private final UUID conversationHandle;
    private final UUID conversationGroupId;
    private final UUID conversationId;
    private final long messageSequenceNumber;
    private final long queuingOrder;
    private final String messageTypeName;
    private final String serviceName;
    private final String serviceContractName;
    private final int priority;
    private final Instant enqueueTime;
    private final byte[] body;
    private final int deliveryAttempt;

    private BrokerMessage(Builder b) {
        this.conversationHandle = Objects.requireNonNull(b.conversationHandle, "conversationHandle");
        this.conversationGroupId = b.conversationGroupId;
        this.conversationId = b.conversationId;
        this.messageSequenceNumber = b.messageSequenceNumber;
        this.queuingOrder = b.queuingOrder;
        this.messageTypeName = Objects.requireNonNull(b.messageTypeName, "messageTypeName");
        this.serviceName = b.serviceName;
        this.serviceContractName = b.serviceContractName;
        this.priority = b.priority;
        this.enqueueTime = b.enqueueTime;
        this.body = b.body == null ? EMPTY : b.body.clone();
        this.deliveryAttempt = b.deliveryAttempt;
    }

    private BrokerMessage(BrokerMessage m, int deliveryAttempt) {
        this.conversationHandle = m.conversationHandle;
        this.conversationGroupId = m.conversationGroupId;
        this.conversationId = m.conversationId;
        this.messageSequenceNumber = m.messageSequenceNumber;
        this.queuingOrder = m.queuingOrder;
        this.messageTypeName = m.messageTypeName;
        this.serviceName = m.serviceName;
        this.serviceContractName = m.serviceContractName;
        this.priority = m.priority;
        this.enqueueTime = m.enqueueTime;
        this.body = m.body;
        this.deliveryAttempt = deliveryAttempt;
    }

    /** @return a builder for a message; conversation handle and message type are required */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * @return which delivery of this message this is: 1 the first time a bean gets it, n after n - 1 failed
     *         deliveries counted for it (those the adapter counts toward {@code maxDeliveryAttempts}, so the last
     *         attempt before the message is dead-lettered is {@code maxDeliveryAttempts}). A per-message bean given a
     *         batch that throws on one message fails that message alone: the others of the batch come again with the
     *         same number. Always 1 with {@code commitBeforeDelivery} (no delivery is retried) and for a dead letter
     *         an operator redelivers.
     */
    public int deliveryAttempt() {
        return deliveryAttempt;
    }

    /**
     * @param attempt a delivery attempt number, 1 or more
     * @return this message as delivered for that attempt (equal to this one: the number is not part of its identity)
     */
    public BrokerMessage withDeliveryAttempt(int attempt) {
        if (attempt < 1) {
            throw new IllegalArgumentException("a delivery attempt is 1 or more: " + attempt);
        }
        return attempt == deliveryAttempt ? this : new BrokerMessage(this, attempt);
    }

    /** @return the receiving side's conversation handle: reply, end or move the conversation with it */
    public UUID conversationHandle() {
        return conversationHandle;
    }

    /** @return the conversation group the message belongs to */
    public UUID conversationGroupId() {
        return conversationGroupId;
    }

    /** @return the conversation id, shared by both sides of the dialog */
    public UUID conversationId() {
        return conversationId;
    }

    /** @return the receiving side as a {@link Conversation} value */
    public Conversation conversation() {
        return new Conversation(conversationHandle, conversationId, conversationGroupId);
    }

    /** @return the message's sequence number within its conversation (0 for the first message) */
    public long messageSequenceNumber() {
        return messageSequenceNumber;
    }

    /** @return the message's position in its queue, increasing in arrival order */
    public long queuingOrder() {
        return queuingOrder;
    }

    /** @return the message type name */
    public String messageTypeName() {
        return messageTypeName;
    }

    /** @return the name of the service the message was sent to (this side's service) */
    public String serviceName() {
        return serviceName;
    }

    /** @return the contract of the conversation */
    public String serviceContractName() {
        return serviceContractName;
    }

    /** @return the conversation priority the broker assigned (SQL Server 1 to 10; the portable backends 5) */
    public int priority() {
        return priority;
    }

    /** @return when the message was put on the queue, or null if the backend does not say */
    public Instant enqueueTime() {
        return enqueueTime;
    }

    /** @return a copy of the body; empty (never null) for messages without a body */
    public byte[] body() {
        return body.clone();
    }

    /** @return the body length in bytes */
    public int bodyLength() {
        return body.length;
    }

    /**
     * Decodes the body as text: UTF-16 when it starts with a UTF-16 byte order mark (what T-SQL's
     * {@code CAST(N'...' AS XML)} produces), UTF-8 otherwise.
     *
     * @return the body as text, empty for an empty body
     */
    public String bodyAsText() {
        return Bodies.text(body);
    }

    /**
     * @param charset the body's encoding; use {@link StandardCharsets#UTF_16LE} for T-SQL {@code NVARCHAR} bodies
     * @return the body decoded with that charset
     */
    public String bodyAsText(Charset charset) {
        return new String(body, charset);
    }

    /**
     * Parses the body as an XML document, namespace aware, with DTDs and external entities refused.
     *
     * @return the parsed document
     * @throws BrokerException if the body is empty or not well-formed XML
     */
    public Document bodyAsXml() {
        if (body.length == 0) {
            throw new BrokerException("message " + queuingOrder + " of type " + messageTypeName + " has no body");
        }
        try {
            return Bodies.xml(body);
        } catch (SAXException | IOException e) {
            throw new BrokerException("message " + queuingOrder + " of type " + messageTypeName
                    + " is not well-formed XML: " + e.getMessage(), e);
        }
    }

    /** @return whether the broker itself sent this message (EndDialog, Error, DialogTimer) */
    public boolean isSystemMessage() {
        return MessageTypes.isSystem(messageTypeName);
    }

    /** @return whether this is the EndDialog message: the other side ended the conversation normally */
    public boolean isEndDialog() {
        return MessageTypes.END_DIALOG.equals(messageTypeName);
    }

    /** @return whether this is an Error message: the other side or the broker ended the conversation with an error */
    public boolean isError() {
        return MessageTypes.ERROR.equals(messageTypeName);
    }

    /** @return whether this is a DialogTimer message: a conversation timer expired */
    public boolean isDialogTimer() {
        return MessageTypes.DIALOG_TIMER.equals(messageTypeName);
    }

    /**
     * @return the {@code Code} of an Error message (negative for errors raised by the broker itself), or null when
     *         this is not an Error message
     */
    public Integer errorCode() {
        String code = errorElement("Code");
        return code == null ? null : Integer.valueOf(code.trim());
    }

    /** @return the {@code Description} of an Error message, or null when this is not an Error message */
    public String errorDescription() {
        return errorElement("Description");
    }

    private String errorElement(String name) {
        if (!isError() || body.length == 0) {
            return null;
        }
        NodeList nodes = bodyAsXml().getElementsByTagNameNS(MessageTypes.ERROR_NAMESPACE, name);
        return nodes.getLength() == 0 ? null : ((Element) nodes.item(0)).getTextContent();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof BrokerMessage)) {
            return false;
        }
        BrokerMessage m = (BrokerMessage) o;
        return conversationHandle.equals(m.conversationHandle) && messageSequenceNumber == m.messageSequenceNumber
                && queuingOrder == m.queuingOrder && messageTypeName.equals(m.messageTypeName)
                && Arrays.equals(body, m.body);
    }

    @Override
    public int hashCode() {
        return Objects.hash(conversationHandle, messageSequenceNumber, queuingOrder, messageTypeName);
    }

    @Override
    public String toString() {
        return "BrokerMessage[type=" + messageTypeName + ", conversation=" + conversationHandle + ", group="
                + conversationGroupId + ", seq=" + messageSequenceNumber + ", order=" + queuingOrder + ", bytes="
                + body.length + (deliveryAttempt > 1 ? ", attempt=" + deliveryAttempt : "") + "]";
    }

    /** Builds a {@link BrokerMessage}. Not thread safe. */
    public static final class Builder {
        private UUID conversationHandle;
        private UUID conversationGroupId;
        private UUID conversationId;
        private long messageSequenceNumber;
        private long queuingOrder;
        private String messageTypeName;
        private String serviceName;
        private String serviceContractName;
        private int priority = 5;
        private Instant enqueueTime;
        private byte[] body;
        private int deliveryAttempt = 1;

        private Builder() {
        }

        /** @param v the receiving side's conversation handle @return this */
        public Builder conversationHandle(UUID v) {
            conversationHandle = v;
            return this;
        }

        /** @param v the conversation group id @return this */
        public Builder conversationGroupId(UUID v) {
            conversationGroupId = v;
            return this;
        }

        /** @param v the conversation id @return this */
        public Builder conversationId(UUID v) {
            conversationId = v;
            return this;
        }

        /** @param v the sequence number within the conversation @return this */
        public Builder messageSequenceNumber(long v) {
            messageSequenceNumber = v;
            return this;
        }

        /** @param v the position in the queue @return this */
        public Builder queuingOrder(long v) {
            queuingOrder = v;
            return this;
        }

        /** @param v the message type name @return this */
        public Builder messageTypeName(String v) {
            messageTypeName = v;
            return this;
        }

        /** @param v the receiving service @return this */
        public Builder serviceName(String v) {
            serviceName = v;
            return this;
        }

        /** @param v the contract @return this */
        public Builder serviceContractName(String v) {
            serviceContractName = v;
            return this;
        }

        /** @param v the broker priority @return this */
        public Builder priority(int v) {
            priority = v;
            return this;
        }

        /** @param v the enqueue time @return this */
        public Builder enqueueTime(Instant v) {
            enqueueTime = v;
            return this;
        }

        /** @param v the body (copied); null for none @return this */
        public Builder body(byte[] v) {
            body = v;
            return this;
        }

        /** @param v the delivery attempt, 1 or more (1 if not set) @return this */
        public Builder deliveryAttempt(int v) {
            if (v < 1) {
                throw new IllegalArgumentException("a delivery attempt is 1 or more: " + v);
            }
            deliveryAttempt = v;
            return this;
        }

        /** @return the message */
        public BrokerMessage build() {
            return new BrokerMessage(this);
        }
    }
}
