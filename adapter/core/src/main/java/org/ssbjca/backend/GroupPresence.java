package org.ssbjca.backend;

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
 *
 * <p>Used by both backends: SQL Server skips its priority query, a round trip; PostgreSQL, whose RECEIVE is one
 * statement, runs it without the prioritised groups' part (a smaller plan, which PostgreSQL sets up at every
 * execution), and asks whether the queue has any with a probe at most every {@link #RECHECK_NANOS} (a queue found
 * with some is believed to have some as long, {@link #recentlyFound}).
 */
public final class GroupPresence {

    /** How long a queue found without prioritised groups is believed to have none. */
    public static final long RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    /** Priorities set through this JVM, in any broker: a change forgets every "none". */
    private static final AtomicLong SETS = new AtomicLong();
    /** Groups held through this JVM, in any broker: a change forgets every "none" of the holds' instances. */
    private static final AtomicLong HOLDS = new AtomicLong();

    private final LongSupplier clock;
    private final AtomicLong changes;
    private final ConcurrentMap<String, Ask> none = new ConcurrentHashMap<>();
    /** When each queue was last found with prioritised groups ({@link #found}). */
    private final ConcurrentMap<String, Long> some = new ConcurrentHashMap<>();

    /** An instance for prioritised groups, on the system clock. */
    public GroupPresence() {
        this(System::nanoTime);
    }

    /** @param clock nanoseconds, as {@link System#nanoTime()} */
    public GroupPresence(LongSupplier clock) {
        this(clock, SETS);
    }

    private GroupPresence(LongSupplier clock, AtomicLong changes) {
        this.clock = clock;
        this.changes = changes;
    }

    /** Returns an instance for groups held by a redelivery delay. */
    public static GroupPresence ofHolds() {
        return new GroupPresence(System::nanoTime, HOLDS);
    }

    /** A priority was set (or its transaction committed) through this JVM. */
    public static void prioritySet() {
        SETS.incrementAndGet();
    }

    /**
     * A session's priorities set in its current transaction: each set forgets every "none" at once, and a commit
     * forgets them again (readers that asked between the set and the commit could not see the uncommitted row). One
     * per session; both backends' sessions use it.
     */
    public static final class TransactionSets {
        private final java.util.concurrent.atomic.AtomicBoolean set = new java.util.concurrent.atomic.AtomicBoolean();

        /** A priority was set in the session's transaction. */
        public void set() {
            set.set(true);
            prioritySet();
        }

        /** Ends the session's transaction: {@code committed} says whether it committed. */
        public void completed(boolean committed) {
            if (set.getAndSet(false) && committed) {
                prioritySet();
            }
        }
    }

    /** A group was held through this JVM. */
    public static void held() {
        HOLDS.incrementAndGet();
    }

    /** Returns what to pass to {@link #noneFound} after the query: read before it runs. */
    public Ask ask() {
        return new Ask(clock.getAsLong(), changes.get());
    }

    /**
     * Returns whether the queue may have a prioritised group with messages, so the priority query must run.
     *
     * @param queue the quoted queue name
     */
    public boolean mayHave(String queue) {
        Ask last = none.get(queue);
        return last == null || last.sets() != changes.get() || clock.getAsLong() - last.at() >= RECHECK_NANOS;
    }

    /**
     * Records that a queue had no prioritised group, as of {@code ask}.
     *
     * @param queue the quoted queue name
     * @param ask taken before the query that found no prioritised group
     */
    public void noneFound(String queue, Ask ask) {
        some.remove(queue);
        none.put(queue, ask);
    }

    /** Records that a prioritised group was just found in {@code queue}, the quoted queue name. */
    public void found(String queue) {
        none.remove(queue);
        some.put(queue, clock.getAsLong());
    }

    /**
     * Returns whether the queue was found with prioritised groups less than {@link #RECHECK_NANOS} ago: a RECEIVE that
     * looks at them first anyway need not ask again.
     *
     * @param queue the queue name, as given to {@link #found}
     */
    public boolean recentlyFound(String queue) {
        Long at = some.get(queue);
        return at != null && clock.getAsLong() - at < RECHECK_NANOS;
    }

    /** When a priority query was asked, and the count of sets then. */
    public record Ask(long at, long sets) {
    }
}
