package org.ssbjca.api;

import java.time.Duration;
import java.util.Objects;
import java.util.UUID;

/**
 * What a synchronous RECEIVE asks for: {@code WAITFOR (RECEIVE TOP (n) ... FROM queue [WHERE ...]), TIMEOUT t}.
 * Immutable; start from {@link #from(String)}.
 *
 * <pre>{@code
 * ReceiveRequest.from("ClientQueue").conversation(c).top(1).timeout(Duration.ofSeconds(5))
 * }</pre>
 *
 * <p>A RECEIVE returns messages of one conversation group only and locks that group until the transaction ends.
 */
public final class ReceiveRequest {

    /** Wait until a message arrives, however long it takes ({@code TIMEOUT -1}). */
    public static final Duration FOREVER = Duration.ofMillis(-1);

    private final String queue;
    private final int top;
    private final Duration timeout;
    private final UUID conversationHandle;
    private final UUID conversationGroupId;

    private ReceiveRequest(String queue, int top, Duration timeout, UUID conversationHandle, UUID conversationGroupId) {
        this.queue = queue;
        this.top = top;
        this.timeout = timeout;
        this.conversationHandle = conversationHandle;
        this.conversationGroupId = conversationGroupId;
    }

    /**
     * Returns a request for at most one message, no waiting, from any conversation group.
     *
     * @param queue the queue name, as created in the database
     */
    public static ReceiveRequest from(String queue) {
        if (Objects.requireNonNull(queue, "queue").isBlank()) {
            throw new IllegalArgumentException("queue must not be blank");
        }
        return new ReceiveRequest(queue, 1, Duration.ZERO, null, null);
    }

    /**
     * Returns a new request like this one that takes at most {@code n} messages.
     *
     * @param n {@code TOP (n)}: at most this many messages, at least 1
     */
    public ReceiveRequest top(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("top must be at least 1: " + n);
        }
        return new ReceiveRequest(queue, n, timeout, conversationHandle, conversationGroupId);
    }

    /**
     * Returns a new request like this one that waits at most {@code t} for a message.
     *
     * @param t how long to wait for a message: {@link Duration#ZERO} returns at once, {@link #FOREVER} waits
     *          without limit
     */
    public ReceiveRequest timeout(Duration t) {
        Objects.requireNonNull(t, "timeout");
        if (t.isNegative() && !t.equals(FOREVER)) {
            throw new IllegalArgumentException("timeout must be zero, positive or FOREVER: " + t);
        }
        return new ReceiveRequest(queue, top, t, conversationHandle, conversationGroupId);
    }

    /**
     * {@code WHERE conversation_handle = ...}: only messages of this conversation. Clears a group filter.
     *
     * @param c the conversation (this side's handle)
     * @return the new request
     */
    public ReceiveRequest conversation(Conversation c) {
        return new ReceiveRequest(queue, top, timeout, Objects.requireNonNull(c, "conversation").handle(), null);
    }

    /**
     * {@code WHERE conversation_group_id = ...}: only messages of this group. Clears a conversation filter.
     *
     * @param groupId the conversation group id
     * @return the new request
     */
    public ReceiveRequest conversationGroup(UUID groupId) {
        return new ReceiveRequest(queue, top, timeout, null, Objects.requireNonNull(groupId, "groupId"));
    }

    /** Returns the queue name. */
    public String queue() {
        return queue;
    }

    /** Returns the TOP (n) limit. */
    public int top() {
        return top;
    }

    /** Returns how long to wait; {@link #FOREVER} for no limit. */
    public Duration timeout() {
        return timeout;
    }

    /** Returns the conversation handle filter, or null. */
    public UUID conversationHandle() {
        return conversationHandle;
    }

    /** Returns the conversation group filter, or null. */
    public UUID conversationGroupId() {
        return conversationGroupId;
    }

    @Override
    public String toString() {
        return "ReceiveRequest[queue=" + queue + ", top=" + top + ", timeout=" + timeout + ", conversation="
                + conversationHandle + ", group=" + conversationGroupId + "]";
    }
}
