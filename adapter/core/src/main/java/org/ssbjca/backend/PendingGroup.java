package org.ssbjca.backend;

import java.time.Instant;
import java.util.UUID;

/** A conversation group that has messages waiting, as an operator sees it. */
public final class PendingGroup {

    private final UUID groupId;
    private final long messages;
    private final Instant oldestMessage;
    private final Integer priority;

    /**
     * @param groupId the group
     * @param messages how many messages wait
     * @param oldestMessage when the oldest of them was enqueued, or null if unknown
     * @param priority the group's priority, or null when it has none
     */
    public PendingGroup(UUID groupId, long messages, Instant oldestMessage, Integer priority) {
        this.groupId = groupId;
        this.messages = messages;
        this.oldestMessage = oldestMessage;
        this.priority = priority;
    }

    /** Returns the group. */
    public UUID groupId() {
        return groupId;
    }

    /** Returns how many messages wait. */
    public long messages() {
        return messages;
    }

    /** Returns when the oldest was enqueued, or null. */
    public Instant oldestMessage() {
        return oldestMessage;
    }

    /** Returns the priority, or null. */
    public Integer priority() {
        return priority;
    }
}
