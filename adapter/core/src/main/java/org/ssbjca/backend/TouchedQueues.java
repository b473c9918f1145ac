package org.ssbjca.backend;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The queues a session's transaction put messages on, with the types of those messages, whose readers are woken once
 * it commits. Thread safe: the transaction manager may end a branch (a timeout rollback) on its own thread while the
 * session's thread still adds.
 */
public final class TouchedQueues {

    private final Map<String, Set<String>> queues = new LinkedHashMap<>();

    /** @param queue a queue the transaction put messages on, of types not known here */
    public synchronized void add(String queue) {
        queues.computeIfAbsent(queue, q -> new LinkedHashSet<>());
    }

    /**
     * @param queue a queue the transaction put a message on
     * @param messageType the message's type; null: not known
     */
    public synchronized void add(String queue, String messageType) {
        Set<String> types = queues.computeIfAbsent(queue, q -> new LinkedHashSet<>());
        if (messageType != null) {
            types.add(messageType);
        }
    }

    /**
     * @return the queues added since the last call, in order, each with the message types known to have arrived on
     *         it; empty afterwards
     */
    public synchronized Map<String, Set<String>> drain() {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        queues.forEach((q, types) -> out.put(q, Set.copyOf(types)));
        queues.clear();
        return out;
    }
}
