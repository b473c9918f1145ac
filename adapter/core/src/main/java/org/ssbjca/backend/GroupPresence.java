package org.ssbjca.backend.sqlserver;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Which queues were lately found to have no prioritised group with messages (or, in the instance made by
 * {@link #ofHolds()}, no group held by a redelivery delay), so that an unfiltered RECEIVE can skip that query, one
 * round trip on every RECEIVE, when none can be there. One of each per broker (database), shared by its sessions.
 * Thread safe.
 *
 * <p>"None" is believed for {@link #RECHECK_NANOS} at most, then the next RECEIVE asks again: that is how soon a
 * priority set by another JVM (another node, a DBA) is seen. A priority set through any session of this JVM
 * forgets every "none" at once, when it is set and again when its transaction commits (a reader that asked in
 * between could not see the uncommitted row).
 */
final class GroupPresence {

    /** How long a queue found without prioritised groups is believed to have none. */
    static final long RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    /** Priorities set through this JVM, in any broker: a change forgets every "none". */
    private static final AtomicLong SETS = new AtomicLong();
    /** Groups held through this JVM, in any broker: a change forgets every "none" of the holds' instances. */
    private static final AtomicLong HOLDS = new AtomicLong();

    private final LongSupplier clock;
    private final AtomicLong changes;
    private final ConcurrentMap<String, Ask> none = new ConcurrentHashMap<>();

    GroupPresence() {
        this(System::nanoTime);
    }

    /** @param clock nanoseconds, as {@link System#nanoTime()} */
    GroupPresence(LongSupplier clock) {
        this(clock, SETS);
    }

    private GroupPresence(LongSupplier clock, AtomicLong changes) {
        this.clock = clock;
        this.changes = changes;
    }

    /** @return an instance for groups held by a redelivery delay */
    static GroupPresence ofHolds() {
        return new GroupPresence(System::nanoTime, HOLDS);
    }

    /** A priority was set (or its transaction committed) through this JVM. */
    static void prioritySet() {
        SETS.incrementAndGet();
    }

    /** A group was held through this JVM. */
    static void held() {
        HOLDS.incrementAndGet();
    }

    /** @return what to pass to {@link #noneFound} after the query: read before it runs */
    Ask ask() {
        return new Ask(clock.getAsLong(), changes.get());
    }

    /**
     * @param queue the quoted queue name
     * @return whether the queue may have a prioritised group with messages, so the priority query must run
     */
    boolean mayHave(String queue) {
        Ask last = none.get(queue);
        return last == null || last.sets() != changes.get() || clock.getAsLong() - last.at() >= RECHECK_NANOS;
    }

    /**
     * @param queue the quoted queue name
     * @param ask taken before the query that found no prioritised group
     */
    void noneFound(String queue, Ask ask) {
        none.put(queue, ask);
    }

    /** @param queue the quoted queue name, where a prioritised group was just found */
    void found(String queue) {
        none.remove(queue);
    }

    /** When a priority query was asked, and the count of sets then. */
    record Ask(long at, long sets) {
    }
}
