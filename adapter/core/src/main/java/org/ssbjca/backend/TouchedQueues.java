package org.ssbjca.backend;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The queues a session's transaction put messages on, with the types of those messages and the conversation groups
 * that got them, whose readers are woken once it commits. Thread safe: the transaction manager may end a branch (a
 * timeout rollback) on its own thread while the session's thread still adds.
 */
public final class TouchedQueues {

    /**
     * What one transaction put on one queue.
     *
     * @param types the message types known to have arrived
     * @param groups how many conversation groups got messages, each a reader's worth of work; {@link #UNKNOWN} when
     *        not known
     */
    public record Arrivals(Set<String> types, int groups) {

        /** {@link #groups()} when the groups are not known: every waiting reader is to look. */
        public static final int UNKNOWN = -1;

        /**
         * The most groups counted: a transaction that filled this many or more reports this many, and every waiting
         * reader is to look (a bulk SEND to a million groups keeps 64 group ids, not a million).
         */
        public static final int MANY = 64;
    }

    private final Map<String, Touch> queues = new LinkedHashMap<>();

    /**
     * Records messages put on a queue in groups not known here.
     *
     * @param queue a queue the transaction put messages on, in groups not known here
     * @param messageType the messages' type; null: not known
     */
    public synchronized void add(String queue, String messageType) {
        Touch t = touch(queue, messageType);
        t.groupsUnknown = true;
    }

    /**
     * Records a message put on a queue in a known conversation group.
     *
     * @param queue a queue the transaction put a message on
     * @param messageType the message's type; null: not known
     * @param group the conversation group it went to
     */
    public synchronized void add(String queue, String messageType, UUID group) {
        Touch t = touch(queue, messageType);
        if (t.count() < Arrivals.MANY) {
            t.groups.add(group);
        }
    }

    /**
     * Records a message put on a queue in a group its own statement created.
     *
     * @param queue a queue the transaction put a message on, in a conversation group the same statement created
     * @param messageType the message's type; null: not known
     */
    public synchronized void addToNewGroup(String queue, String messageType) {
        Touch t = touch(queue, messageType);
        if (t.count() < Arrivals.MANY) {
            t.newGroups++;
        }
    }

    private Touch touch(String queue, String messageType) {
        Touch t = queues.computeIfAbsent(queue, q -> new Touch());
        if (messageType != null) {
            t.types.add(messageType);
        }
        return t;
    }

    /** Returns the queues added since the last call, in order, each with what arrived on it; empty afterwards. */
    public synchronized Map<String, Arrivals> drain() {
        if (queues.isEmpty()) {
            return Map.of(); // a reader's transaction, which sent nothing
        }
        Map<String, Arrivals> out = new LinkedHashMap<>();
        queues.forEach((q, t) -> out.put(q, new Arrivals(Set.copyOf(t.types), t.groupsUnknown ? Arrivals.UNKNOWN
                : t.count())));
        queues.clear();
        return out;
    }

    private static final class Touch {
        final Set<String> types = new LinkedHashSet<>();
        final Set<UUID> groups = new HashSet<>();
        int newGroups;
        boolean groupsUnknown;

        int count() {
            return groups.size() + newGroups;
        }
    }
}
