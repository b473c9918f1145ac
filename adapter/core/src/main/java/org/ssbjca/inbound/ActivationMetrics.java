package org.ssbjca.inbound;

import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * What an activation's readers did: counters, delivery times (mean over all, 99th percentile over the latest 1024),
 * the last error, and the deliveries in flight. Thread safe; readers update it without locks.
 */
public final class ActivationMetrics {

    private static final int WINDOW = 1024;

    final LongAdder received = new LongAdder();
    final LongAdder delivered = new LongAdder();
    final LongAdder committed = new LongAdder();
    final LongAdder rolledBack = new LongAdder();
    final LongAdder redelivered = new LongAdder();
    final LongAdder deadLettered = new LongAdder();
    final LongAdder errorsReceived = new LongAdder();
    final LongAdder priorityRequestsRejected = new LongAdder();
    private final LongAdder timedDeliveries = new LongAdder();
    private final LongAdder totalDeliveryNanos = new LongAdder();
    private final AtomicLongArray recentNanos = new AtomicLongArray(WINDOW);
    private final AtomicLong recentIndex = new AtomicLong();
    private final Map<String, InFlight> inFlight = new ConcurrentHashMap<>();
    private volatile String lastError;
    private volatile Instant lastErrorAt;
    final LongAdder reconnects = new LongAdder();
    private final FailingReaders failing = new FailingReaders();
    private volatile boolean queueDisabled;

    void deliveryTook(long nanos) {
        timedDeliveries.increment();
        totalDeliveryNanos.add(nanos);
        recentNanos.set((int) (recentIndex.getAndIncrement() % WINDOW), nanos);
    }

    void error(String what) {
        lastError = what;
        lastErrorAt = Instant.now();
    }

    /**
     * A reader lost its connection, could not open one, or found its queue missing or disabled: it waits and
     * reconnects.
     */
    void readerFailed(String reader, boolean disabled) {
        reconnects.increment();
        queueDisabled = disabled;
        failing.failed(reader);
    }

    /** A reader's turn succeeded: the activation reads its queue again. Cheap when nothing failed. */
    void readerSucceeded(String reader) {
        if (failing.succeeded(reader)) {
            queueDisabled = false;
        }
    }

    /** A reader stopped: it no longer counts as reconnecting. */
    void readerStopped(String reader) {
        failing.stopped(reader);
    }

    void started(String reader, InFlight delivery) {
        inFlight.put(reader, delivery);
    }

    void finished(String reader) {
        inFlight.remove(reader);
    }

    /** Returns messages received. */
    public long received() {
        return received.sum();
    }

    /** Returns messages handed to the bean. */
    public long delivered() {
        return delivered.sum();
    }

    /** Returns delivery transactions that committed with messages. */
    public long committed() {
        return committed.sum();
    }

    /** Returns delivery transactions that rolled back. */
    public long rolledBack() {
        return rolledBack.sum();
    }

    /**
     * Returns messages handed to the bean again after failed deliveries counted for them ({@code deliveryAttempt()}
     * above 1; not the other messages of a batch that failed on one), whatever the outcome, and dead letters handed to
     * it by a redelivery.
     */
    public long redelivered() {
        return redelivered.sum();
    }

    /** Returns messages moved to the dead-letter table. */
    public long deadLettered() {
        return deadLettered.sum();
    }

    /** Returns Error messages from the other side that the adapter consumed, ending this side (committed). */
    public long errorsReceived() {
        return errorsReceived.sum();
    }

    /** Returns priority requests without a priority from 0 to 255, dead-lettered when their group was received. */
    public long priorityRequestsRejected() {
        return priorityRequestsRejected.sum();
    }

    /** Returns the mean time of a delivery (the bean's work and the commit), in milliseconds. */
    public double meanDeliveryMillis() {
        long n = timedDeliveries.sum();
        return n == 0 ? 0 : totalDeliveryNanos.sum() / 1e6 / n;
    }

    /** Returns the 99th percentile of the latest 1024 delivery times, in milliseconds. */
    public double p99DeliveryMillis() {
        int n = (int) Math.min(recentIndex.get(), WINDOW);
        if (n == 0) {
            return 0;
        }
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            values[i] = recentNanos.get(i);
        }
        Arrays.sort(values);
        return values[Math.min(n - 1, (int) Math.ceil(n * 0.99) - 1)] / 1e6;
    }

    /** Returns the last error, or null. */
    public String lastError() {
        return lastError;
    }

    /** Returns when the last error happened, or null. */
    public Instant lastErrorAt() {
        return lastErrorAt;
    }

    /** Returns reconnections since the activation started: readers that failed and waited to connect again. */
    public long reconnects() {
        return reconnects.sum();
    }

    /** Returns readers waiting to reconnect now. */
    public int reconnectingReaders() {
        return failing.count();
    }

    /**
     * Returns since when the readers have failed without any reader's turn succeeding in between (the database
     * unreachable, the queue missing or disabled), or null while they read.
     */
    public Instant failingSince() {
        return failing.since();
    }

    /** Returns whether the latest failure was the queue found disabled (and no turn succeeded since). */
    public boolean queueDisabled() {
        return queueDisabled && failing.since() != null;
    }

    /** Returns deliveries timed since the activation started (the count behind {@link #meanDeliveryMillis()}). */
    public long timedDeliveries() {
        return timedDeliveries.sum();
    }

    /** Returns their total time, in milliseconds. */
    public double totalDeliveryMillis() {
        return totalDeliveryNanos.sum() / 1e6;
    }

    /** Returns whether that reader's bean is being called now. */
    boolean delivering(String reader) {
        return inFlight.containsKey(reader);
    }

    /** Returns the deliveries in flight, by reader name. */
    public Map<String, InFlight> inFlight() {
        return Map.copyOf(inFlight);
    }

    /** A delivery in flight: which conversation group, since when (to the millisecond). */
    public static final class InFlight {
        private final java.util.UUID group;
        private final int messages;
        /** {@link System#currentTimeMillis()} at its start: made on every delivery, read only by management. */
        private final long sinceMillis;

        InFlight(java.util.UUID group, int messages, long sinceMillis) {
            this.group = group;
            this.messages = messages;
            this.sinceMillis = sinceMillis;
        }

        /** Returns the conversation group being delivered. */
        public java.util.UUID group() {
            return group;
        }

        /** Returns how many messages. */
        public int messages() {
            return messages;
        }

        /** Returns since when. */
        public Instant since() {
            return Instant.ofEpochMilli(sinceMillis);
        }
    }
}
