package org.ssbjca.management;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.management.ConstructorParameters;
import org.ssbjca.backend.PendingGroup;

/**
 * A conversation group with messages waiting in the queue; JMX clients see it as {@code CompositeData} (groupId,
 * messages, oldestMessage, priority).
 */
@SuppressWarnings("JavaUtilDate") // JMX open types (CompositeData) carry dates as java.util.Date
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
        return of(g, g.priority());
    }

    private static PendingGroupInfo of(PendingGroup g, Integer priority) {
        return new PendingGroupInfo(g.groupId().toString(), g.messages(),
                g.oldestMessage() == null ? null : Date.from(g.oldestMessage()), priority);
    }

    /**
     * The pending groups as the readers will see them once they scan the priority requests still in the queue: a
     * requesting group shows its requested priority and moves to where that priority puts it (highest first, the
     * groups without one last; the listed order kept among equals, a request being later than those recorded).
     *
     * @param listed the pending groups in the order the readers take them, with their recorded priorities
     * @param requested the priorities the requests not yet scanned ask for, by group
     * @return the list as requested
     */
    static List<PendingGroupInfo> asRequested(List<PendingGroup> listed, Map<UUID, Integer> requested) {
        List<PendingGroupInfo> groups = new ArrayList<>(listed.size());
        for (PendingGroup g : listed) {
            groups.add(of(g, requested.getOrDefault(g.groupId(), g.priority())));
        }
        if (listed.stream().anyMatch(g -> requested.containsKey(g.groupId()))) {
            groups.sort(Comparator.comparing(PendingGroupInfo::getPriority,
                    Comparator.nullsLast(Comparator.reverseOrder())));
        }
        return groups;
    }

    /** Returns the conversation group. */
    public String getGroupId() {
        return groupId;
    }

    /** Returns how many messages wait. */
    public long getMessages() {
        return messages;
    }

    /** Returns when the oldest was enqueued, or null. */
    public Date getOldestMessage() {
        return oldestMessage == null ? null : new Date(oldestMessage.getTime());
    }

    /** Returns the priority, or null. */
    public Integer getPriority() {
        return priority;
    }
}
