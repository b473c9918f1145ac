package org.ssbjca.backend;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The queues a session's transaction put messages on, whose readers are woken once it commits. Thread safe: the
 * transaction manager may end a branch (a timeout rollback) on its own thread while the session's thread still adds.
 */
public final class TouchedQueues {

    private final Set<String> queues = new LinkedHashSet<>();

    /** @param queue a queue the transaction put a message on */
    public synchronized void add(String queue) {
        queues.add(queue);
    }

    /** @return the queues added since the last call, in order; the set is empty afterwards */
    public synchronized List<String> drain() {
        List<String> out = List.copyOf(queues);
        queues.clear();
        return out;
    }
}
