package org.ssbjca.inbound;

import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Which readers of an activation are failing (waiting to connect again), and since when the activation has had no
 * successful turn: what the readiness check reads. Thread safe; a reader's successful turn costs a read when nothing
 * failed.
 */
public final class FailingReaders {

    private final Set<String> readers = ConcurrentHashMap.newKeySet();
    private final AtomicReference<Instant> since = new AtomicReference<>();

    /** A reader's turn failed: it waits and connects again. */
    public void failed(String reader) {
        readers.add(reader);
        since.compareAndSet(null, Instant.now());
    }

    /**
     * A reader's turn succeeded: the activation reads again.
     *
     * @return whether anything had been failing
     */
    public boolean succeeded(String reader) {
        if (since.get() == null && readers.isEmpty()) {
            return false;
        }
        readers.remove(reader);
        since.set(null);
        return true;
    }

    /** A reader stopped: it no longer counts as failing. */
    public void stopped(String reader) {
        readers.remove(reader);
        if (readers.isEmpty()) {
            since.set(null);
        }
    }

    /** Returns readers waiting to connect again now. */
    int count() {
        return readers.size();
    }

    /** Returns since when no reader's turn has succeeded while some failed, or null while they read. */
    public Instant since() {
        return since.get();
    }
}
