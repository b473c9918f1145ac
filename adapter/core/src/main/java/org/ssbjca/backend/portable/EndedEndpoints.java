package org.ssbjca.backend.portable;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The latest conversation handles whose endpoint a committed transaction of this JVM removed after that side ended
 * (END CONVERSATION, also WITH CLEANUP, and the removal of both sides once both ended). The portable schema keeps no
 * closed endpoints, so without this a later call on such a handle could only say that it does not exist; with it, it
 * says that this side of the conversation has ended. Bounded: the oldest handles are forgotten first.
 */
final class EndedEndpoints {

    /** How many handles are remembered: about 1 MB. */
    static final int LIMIT = 10_000;

    private final Map<UUID, Boolean> handles = new LinkedHashMap<>(256, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<UUID, Boolean> eldest) {
            return size() > LIMIT;
        }
    };

    /** @param ended handles whose endpoints a transaction removed; called once it committed */
    synchronized void ended(Collection<UUID> ended) {
        ended.forEach(h -> handles.put(h, Boolean.TRUE));
    }

    /** Returns whether this handle's side is known to have ended. */
    synchronized boolean hasEnded(UUID handle) {
        return handles.containsKey(handle);
    }
}
