package org.ssbjca.management;

import java.util.Date;
import javax.management.ConstructorParameters;
import org.ssbjca.backend.PendingGroup;

/**
 * A conversation group with messages waiting in the queue; JMX clients see it as {@code CompositeData} (groupId,
 * messages, oldestMessage, priority).
 */
public final class PendingGroupInfo {

    private final String groupId;
    private final long messages;
    private final Date oldestMessage;
    private final Integer priority;

    /**
     * @param groupId the conversation group
     * @param messages how many messages wait
     * @param oldestMessage when the oldest of them was enqueued, or null
     * @param priority the group's priority (0 to 255), or null when it has none
     */
    @ConstructorParameters({"groupId", "messages", "oldestMessage", "priority"})
    public PendingGroupInfo(String groupId, long messages, Date oldestMessage, Integer priority) {
        this.groupId = groupId;
        this.messages = messages;
        this.oldestMessage = oldestMessage == null ? null : new Date(oldestMessage.getTime());
        this.priority = priority;
    }

    static PendingGroupInfo of(PendingGroup g) {
        return new PendingGroupInfo(g.groupId().toString(), g.messages(),
                g.oldestMessage() == null ? null : Date.from(g.oldestMessage()), g.priority());
    }

    /** @return the conversation group */
    public String getGroupId() {
        return groupId;
    }

    /** @return how many messages wait */
    public long getMessages() {
        return messages;
    }

    /** @return when the oldest was enqueued, or null */
    public Date getOldestMessage() {
        return oldestMessage == null ? null : new Date(oldestMessage.getTime());
    }

    /** @return the priority, or null */
    public Integer getPriority() {
        return priority;
    }
}
