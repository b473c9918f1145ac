package org.ssbjca.api;

import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
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
    private final String traceContext;

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
        this.traceContext = b.traceContext;
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
        this.traceContext = m.traceContext;
    }

    /** Returns a builder for a message; conversation handle and message type are required. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns which delivery of this message this is: 1 the first time a bean gets it, n after n - 1 failed deliveries
     * counted for it (those the adapter counts toward {@code maxDeliveryAttempts}, so the last attempt before the
     * message is dead-lettered is {@code maxDeliveryAttempts}). A per-message bean given a batch that throws on one
     * message fails that message alone: the others of the batch come again with the same number. Always 1 with
     * {@code commitBeforeDelivery} (no delivery is retried) and for a dead letter an operator redelivers.
     */
    public int deliveryAttempt() {
        return deliveryAttempt;
    }

    /**
     * Returns this message as delivered for an attempt (equal to this one: the number is not part of its identity).
     *
     * @param attempt a delivery attempt number, 1 or more
     */
    public BrokerMessage withDeliveryAttempt(int attempt) {
        if (attempt < 1) {
            throw new IllegalArgumentException("a delivery attempt is 1 or more: " + attempt);
        }
        return attempt == deliveryAttempt ? this : new BrokerMessage(this, attempt);
    }

    /**
     * Returns the W3C trace context the sender's span left with this message: its {@code traceparent} text, followed
     * by a space and its {@code tracestate} text when it had one (for example
     * {@code 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01}). Empty when the message was sent with no
     * current span, by a sender that does not record one, or from a backend that does not carry it. The adapter
     * continues it around the bean's call; a bean needs this text only to pass it on by hand.
     */
    public Optional<String> traceContext() {
        return Optional.ofNullable(traceContext);
    }

    /** Returns the receiving side's conversation handle: reply, end or move the conversation with it. */
    public UUID conversationHandle() {
        return conversationHandle;
    }

    /** Returns the conversation group the message belongs to. */
    public UUID conversationGroupId() {
        return conversationGroupId;
    }

    /** Returns the conversation id, shared by both sides of the dialog. */
    public UUID conversationId() {
        return conversationId;
    }

    /** Returns the receiving side as a {@link Conversation} value. */
    public Conversation conversation() {
        return new Conversation(conversationHandle, conversationId, conversationGroupId);
    }

    /** Returns the message's sequence number within its conversation (0 for the first message). */
    public long messageSequenceNumber() {
        return messageSequenceNumber;
    }

    /** Returns the message's position in its queue, increasing in arrival order. */
    public long queuingOrder() {
        return queuingOrder;
    }

    /** Returns the message type name. */
    public String messageTypeName() {
        return messageTypeName;
    }

    /** Returns the name of the service the message was sent to (this side's service). */
    public String serviceName() {
        return serviceName;
    }

    /** Returns the contract of the conversation. */
    public String serviceContractName() {
        return serviceContractName;
    }

    /** Returns the conversation priority the broker assigned (SQL Server 1 to 10; the portable backends 5). */
    public int priority() {
        return priority;
    }

    /** Returns when the message was put on the queue, or null if the backend does not say. */
    public Instant enqueueTime() {
        return enqueueTime;
    }

    /** Returns a copy of the body; empty (never null) for messages without a body. */
    public byte[] body() {
        return body.clone();
    }

    /** Returns the body length in bytes. */
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
     * Returns the body decoded with a given charset.
     *
     * @param charset the body's encoding; use {@link StandardCharsets#UTF_16LE} for T-SQL {@code NVARCHAR} bodies
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

    /** Returns whether the broker itself sent this message (EndDialog, Error, DialogTimer). */
    public boolean isSystemMessage() {
        return MessageTypes.isSystem(messageTypeName);
    }

    /** Returns whether this is the EndDialog message: the other side ended the conversation normally. */
    public boolean isEndDialog() {
        return MessageTypes.END_DIALOG.equals(messageTypeName);
    }

    /** Returns whether this is an Error message: the other side or the broker ended the conversation with an error. */
    public boolean isError() {
        return MessageTypes.ERROR.equals(messageTypeName);
    }

    /** Returns whether this is a DialogTimer message: a conversation timer expired. */
    public boolean isDialogTimer() {
        return MessageTypes.DIALOG_TIMER.equals(messageTypeName);
    }

    /**
     * Returns the {@code Code} of an Error message (negative for errors raised by the broker itself), or null when this
     * is not an Error message.
     */
    public Integer errorCode() {
        String code = errorElement("Code");
        return code == null ? null : Integer.valueOf(code.trim());
    }

    /** Returns the {@code Description} of an Error message, or null when this is not an Error message. */
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
        private String traceContext;

        private Builder() {
        }

        /** Sets the receiving side's conversation handle; returns this builder. */
        public Builder conversationHandle(UUID v) {
            conversationHandle = v;
            return this;
        }

        /** Sets the conversation group id; returns this builder. */
        public Builder conversationGroupId(UUID v) {
            conversationGroupId = v;
            return this;
        }

        /** Sets the conversation id; returns this builder. */
        public Builder conversationId(UUID v) {
            conversationId = v;
            return this;
        }

        /** Sets the sequence number within the conversation; returns this builder. */
        public Builder messageSequenceNumber(long v) {
            messageSequenceNumber = v;
            return this;
        }

        /** Sets the position in the queue; returns this builder. */
        public Builder queuingOrder(long v) {
            queuingOrder = v;
            return this;
        }

        /** Sets the message type name; returns this builder. */
        public Builder messageTypeName(String v) {
            messageTypeName = v;
            return this;
        }

        /** Sets the receiving service; returns this builder. */
        public Builder serviceName(String v) {
            serviceName = v;
            return this;
        }

        /** Sets the contract; returns this builder. */
        public Builder serviceContractName(String v) {
            serviceContractName = v;
            return this;
        }

        /** Sets the broker priority; returns this builder. */
        public Builder priority(int v) {
            priority = v;
            return this;
        }

        /** Sets the enqueue time; returns this builder. */
        public Builder enqueueTime(Instant v) {
            enqueueTime = v;
            return this;
        }

        /** Sets the body (copied when built), null for none; returns this builder. */
        public Builder body(byte[] v) {
            body = v;
            return this;
        }

        /** Sets the delivery attempt, 1 or more (1 if not set); returns this builder. */
        public Builder deliveryAttempt(int v) {
            if (v < 1) {
                throw new IllegalArgumentException("a delivery attempt is 1 or more: " + v);
            }
            deliveryAttempt = v;
            return this;
        }

        /** Sets the W3C trace context text ({@link BrokerMessage#traceContext()}), null for none; returns this. */
        public Builder traceContext(String v) {
            traceContext = v;
            return this;
        }

        /** Returns the message. */
        public BrokerMessage build() {
            return new BrokerMessage(this);
        }
    }
}
