package org.ssbjca.backend;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * In-process wake-ups for readers waiting on a queue, so that waiting never busy-polls. Each queue has a generation
 * counter: a reader reads it before looking at the queue, and waits only while it is unchanged, so a signal between
 * the look and the wait is never lost. Signals are raised after a sending transaction commits (in this JVM) or when
 * a database notification arrives (PostgreSQL LISTEN/NOTIFY); readers still look again after a bounded time in case a
 * signal was missed (another JVM on H2, a dropped listener connection).
 *
 * <p>Waiters that take whichever conversation group comes next ({@link #await(String, long, long, boolean)} with
 * {@code anyGroup}) are interchangeable: a commit in this JVM wakes as many of them as it gave conversation groups
 * messages ({@link #committed}), not all of them, so one message does not send every idle reader to the database
 * (on two cores the readers that find nothing slow the one that finds it). Every other waiter (a RECEIVE of one
 * conversation or group) is woken by every signal.
 */
public final class QueueSignals {

    private final ConcurrentMap<String, Signal> signals = new ConcurrentHashMap<>();
    /** By queue, then message type: read on every turn of a reader with priorities, so keyed without a new text. */
    private final ConcurrentMap<String, ConcurrentMap<String, AtomicLong>> arrivals = new ConcurrentHashMap<>();

    /**
     * Returns the current generation; pass it to {@link #await}.
     *
     * @param queue a queue name
     */
    public long generation(String queue) {
        return of(queue).generation;
    }

    /**
     * Returns {@link System#nanoTime()} of the queue's last signal or hand-off (0 before the first): a woken waiter
     * tells from it how long it took to run again.
     *
     * @param queue a queue name
     */
    public long signalledAt(String queue) {
        return of(queue).signalledAt;
    }

    /**
     * Returns how many signals the queue has had that may mean messages of types not counted here ({@link #arrivals}):
     * another process's commit (a database notification), a lost notification connection, a repair; not a commit in
     * this JVM ({@link #committed}, counted by type) nor a hand-off ({@link #handOff}), which only passes on work
     * already there. A reader compares two readings.
     *
     * @param queue a queue name
     */
    public long uncountedArrivals(String queue) {
        return of(queue).uncountedArrivals;
    }

    /**
     * Waits until the queue's generation differs from {@code seen}, or the time is up.
     *
     * @param queue the queue
     * @param seen the generation read before the reader looked at the queue
     * @param timeoutMillis the longest wait
     * @param anyGroup whether the waiter takes whichever conversation group comes next (one of the interchangeable
     *        waiters a commit wakes only as many of as it filled groups); false for a waiter for one conversation or
     *        group, woken by every signal. A waiter of the first kind woken here that then does not look at the
     *        queue calls {@link #passOn}.
     * @return whether the generation changed (false: the time ran out)
     * @throws InterruptedException if interrupted
     */
    public boolean await(String queue, long seen, long timeoutMillis, boolean anyGroup) throws InterruptedException {
        return await(queue, seen, timeoutMillis, anyGroup, () -> false);
    }

    /**
     * As {@link #await(String, long, long, boolean)}, and also ends when {@code ends} turns true and the waiter's
     * session {@link #release released} the queue's waiters: a wake-up or a cancel of one reader, which neither moves
     * the generation nor counts as an arrival.
     *
     * @param queue the queue
     * @param seen the generation read before the reader looked at the queue
     * @param timeoutMillis the longest wait
     * @param anyGroup which kind of waiter (see {@link #await(String, long, long, boolean)})
     * @param ends whether this waiter's wait is to end (read, not consumed; called with the queue's lock held)
     * @return whether the generation changed (false: the time ran out, or the wait was ended)
     * @throws InterruptedException if interrupted
     */
    public boolean await(String queue, long seen, long timeoutMillis, boolean anyGroup, BooleanSupplier ends)
            throws InterruptedException {
        Signal s = of(queue);
        Condition condition = anyGroup ? s.anyGroup : s.named;
        s.lock.lock();
        try {
            long nanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            while (s.generation == seen && nanos > 0 && !ends.getAsBoolean()) {
                nanos = condition.awaitNanos(nanos);
            }
            return s.generation != seen;
        } finally {
            s.lock.unlock();
        }
    }

    /**
     * Wakes every reader of a queue.
     *
     * @param queue the queue
     */
    public void signal(String queue) {
        signal(queue, TouchedQueues.Arrivals.UNKNOWN);
    }

    /**
     * Wakes the readers of a queue for work in some conversation groups: every waiter for one conversation or group,
     * and as many of the waiters that take any group as there are groups.
     *
     * @param queue the queue
     * @param groups how many conversation groups have work; {@link TouchedQueues.Arrivals#UNKNOWN} or {@link
     *        TouchedQueues.Arrivals#MANY} and more: wake every waiter
     */
    public void signal(String queue, int groups) {
        wake(queue, groups, true);
    }

    /**
     * Wakes one reader that takes any group (and every waiter for one conversation or group) for work already on the
     * queue: a reader that took a full batch, so that the group may hold more, passes the queue on once its
     * transaction released the group. Not an arrival: {@link #uncountedArrivals} does not move.
     *
     * @param queue the queue
     */
    public void handOff(String queue) {
        wake(queue, 1, false);
    }

    @SuppressWarnings("NonAtomicVolatileUpdate") // only written here, under the signal's lock
    private void wake(String queue, int groups, boolean uncounted) {
        Signal s = of(queue);
        s.lock.lock();
        try {
            s.signalledAt = System.nanoTime();
            s.generation++;
            if (uncounted) {
                s.uncountedArrivals++;
            }
            s.named.signalAll();
            if (groups < 0 || groups >= TouchedQueues.Arrivals.MANY) {
                s.anyGroup.signalAll();
            } else {
                for (int i = 0; i < groups; i++) {
                    s.anyGroup.signal();
                }
            }
        } finally {
            s.lock.unlock();
        }
    }

    /**
     * Lets the waiters of some queues check whether their wait is to end ({@link #await(String, long, long, boolean,
     * BooleanSupplier)}): for one reader woken or cancelled. Not an arrival: the generation and {@link
     * #uncountedArrivals} do not move, and a waiter whose wait goes on waits again without looking at its queue.
     *
     * @param queues the queues the reader may wait on
     */
    public void release(Collection<String> queues) {
        for (String queue : queues) {
            Signal s = of(queue);
            s.lock.lock();
            try {
                s.named.signalAll();
                s.anyGroup.signalAll();
            } finally {
                s.lock.unlock();
            }
        }
    }

    /**
     * Hands a wake-up on to another waiter that takes any group: called by such a waiter that was woken ({@link
     * #await(String, long, long, boolean)} returned true) and then will not look at the queue (cancelled, failed).
     *
     * @param queue the queue
     */
    public void passOn(String queue) {
        Signal s = of(queue);
        s.lock.lock();
        try {
            s.anyGroup.signal();
        } finally {
            s.lock.unlock();
        }
    }

    /**
     * Counts the messages of each type that a transaction committed in this JVM put on each queue, then wakes the
     * readers of those queues: a reader that takes any group for each group that got messages ({@link
     * #signal(String, int)}).
     *
     * @param committed queues with what arrived on them ({@link TouchedQueues#drain()})
     */
    public void committed(Map<String, TouchedQueues.Arrivals> committed) {
        committed.forEach((queue, arrived) -> {
            ConcurrentMap<String, AtomicLong> byType = arrivals.computeIfAbsent(queue, q -> new ConcurrentHashMap<>());
            arrived.types().forEach(type -> byType.computeIfAbsent(type, t -> new AtomicLong()).incrementAndGet());
            wake(queue, arrived.groups(), false);
        });
    }

    /**
     * Returns how many transactions committed in this JVM put messages of that type on the queue (a reader compares two
     * readings; arrivals from other processes are not counted).
     *
     * @param queue a queue
     * @param messageType a message type
     */
    public long arrivals(String queue, String messageType) {
        ConcurrentMap<String, AtomicLong> byType = arrivals.get(queue);
        AtomicLong n = byType == null || messageType == null ? null : byType.get(messageType);
        return n == null ? 0 : n.get();
    }

    /**
     * Wakes the readers of several queues.
     *
     * @param queues the queues
     */
    public void signalAll(Collection<String> queues) {
        queues.forEach(this::signal);
    }

    /**
     * Makes the readers of a queue look again once a time has passed (a conversation group held by a redelivery
     * delay is free then), even if no signal comes. The earliest such time per queue is kept.
     *
     * @param queue the queue
     * @param after how long from now
     */
    public void wakeAt(String queue, java.time.Duration after) {
        long at = System.nanoTime() + after.toNanos();
        of(queue).wakeAt.accumulateAndGet(at, (old, now) -> old == 0 || old - System.nanoTime() <= 0 ? now
                : Math.min(old, now));
    }

    /**
     * Returns {@code longest}, or less if the queue must be looked at sooner ({@link #wakeAt}); at least 1.
     *
     * @param queue a queue
     * @param longest the longest wait wanted
     */
    public long waitMillis(String queue, long longest) {
        long at = of(queue).wakeAt.get();
        if (at == 0) {
            return longest;
        }
        long left = TimeUnit.NANOSECONDS.toMillis(at - System.nanoTime()) + 1;
        return left <= 0 ? longest : Math.max(1, Math.min(longest, left));
    }

    /**
     * Lets every waiter check whether its wait is to end ({@link #release}), on every queue: not an arrival, no look.
     */
    public void releaseAll() {
        release(signals.keySet());
    }

    /** Wakes every waiting reader (after a lost notification connection came back). */
    public void signalEverything() {
        signals.keySet().forEach(this::signal);
    }

    /**
     * Returns how many threads wait on the queue's signal of that kind now (an estimate, for tests and diagnostics).
     *
     * @param queue a queue
     * @param anyGroup which kind of waiter
     */
    public int waiters(String queue, boolean anyGroup) {
        Signal s = of(queue);
        s.lock.lock();
        try {
            return s.lock.getWaitQueueLength(anyGroup ? s.anyGroup : s.named);
        } finally {
            s.lock.unlock();
        }
    }

    private Signal of(String queue) {
        return signals.computeIfAbsent(queue, q -> new Signal());
    }

    private static final class Signal {
        final ReentrantLock lock = new ReentrantLock();
        /** Waiters that take whichever conversation group comes next: interchangeable. */
        final Condition anyGroup = lock.newCondition();
        /** Waiters for one conversation or group: woken by every signal. */
        final Condition named = lock.newCondition();
        volatile long generation;
        /** {@link System#nanoTime()} of the last signal or hand-off. */
        volatile long signalledAt;
        /** The signals that may mean messages of types not counted here: all but commits here and hand-offs. */
        volatile long uncountedArrivals;
        /** {@link System#nanoTime()} at which readers look again without a signal; 0 for none. */
        final AtomicLong wakeAt = new AtomicLong();
    }
}
