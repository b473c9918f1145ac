package org.ssbjca.backend;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * In-process wake-ups for readers waiting on a queue, so that waiting never busy-polls. Each queue has a generation
 * counter: a reader reads it before looking at the queue, and waits only while it is unchanged, so a signal between
 * the look and the wait is never lost. Signals are raised after a sending transaction commits (in this JVM) or when
 * a database notification arrives (PostgreSQL LISTEN/NOTIFY); readers still look again after a bounded time in case a
 * signal was missed (another JVM on H2, a dropped listener connection).
 */
public final class QueueSignals {

    private final ConcurrentMap<String, Signal> signals = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, AtomicLong> arrivals = new ConcurrentHashMap<>();

    /**
     * @param queue a queue name
     * @return the current generation; pass it to {@link #await}
     */
    public long generation(String queue) {
        return of(queue).generation;
    }

    /**
     * Waits until the queue's generation differs from {@code seen}, or the time is up.
     *
     * @param queue the queue
     * @param seen the generation read before the reader looked at the queue
     * @param timeoutMillis the longest wait
     * @throws InterruptedException if interrupted
     */
    public void await(String queue, long seen, long timeoutMillis) throws InterruptedException {
        Signal s = of(queue);
        s.lock.lock();
        try {
            long nanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            while (s.generation == seen && nanos > 0) {
                nanos = s.changed.awaitNanos(nanos);
            }
        } finally {
            s.lock.unlock();
        }
    }

    /**
     * Wakes the readers of a queue.
     *
     * @param queue the queue
     */
    public void signal(String queue) {
        Signal s = of(queue);
        s.lock.lock();
        try {
            s.generation++;
            s.changed.signalAll();
        } finally {
            s.lock.unlock();
        }
    }

    /**
     * Counts the messages of each type that a transaction committed in this JVM put on each queue, then wakes the
     * readers of those queues.
     *
     * @param committed queues with the message types that arrived on them ({@link TouchedQueues#drain()})
     */
    public void committed(Map<String, Set<String>> committed) {
        committed.forEach((queue, types) -> types.forEach(
                type -> arrivals.computeIfAbsent(key(queue, type), k -> new AtomicLong()).incrementAndGet()));
        signalAll(committed.keySet());
    }

    /**
     * @param queue a queue
     * @param messageType a message type
     * @return how many transactions committed in this JVM put messages of that type on the queue (a reader compares
     *         two readings; arrivals from other processes are not counted)
     */
    public long arrivals(String queue, String messageType) {
        AtomicLong n = arrivals.get(key(queue, messageType));
        return n == null ? 0 : n.get();
    }

    private static String key(String queue, String messageType) {
        return queue + '\u0000' + messageType;
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
     * @param queue a queue
     * @param longest the longest wait wanted
     * @return {@code longest}, or less if the queue must be looked at sooner ({@link #wakeAt}); at least 1
     */
    public long waitMillis(String queue, long longest) {
        long at = of(queue).wakeAt.get();
        if (at == 0) {
            return longest;
        }
        long left = TimeUnit.NANOSECONDS.toMillis(at - System.nanoTime()) + 1;
        return left <= 0 ? longest : Math.max(1, Math.min(longest, left));
    }

    /** Wakes every waiting reader (after a lost notification connection came back). */
    public void signalEverything() {
        signals.keySet().forEach(this::signal);
    }

    private Signal of(String queue) {
        return signals.computeIfAbsent(queue, q -> new Signal());
    }

    private static final class Signal {
        final ReentrantLock lock = new ReentrantLock();
        final Condition changed = lock.newCondition();
        volatile long generation;
        /** {@link System#nanoTime()} at which readers look again without a signal; 0 for none. */
        final AtomicLong wakeAt = new AtomicLong();
    }
}
