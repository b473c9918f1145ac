package org.ssbjca.inbound;

import java.time.Instant;
import java.util.function.BooleanSupplier;

/**
 * An activation's queue found disabled (by Service Broker's poison detection after five rolled back RECEIVE
 * transactions, or by an operator): its readers park instead of retrying with backoff, one of them (the prober)
 * looking again every {@link #PROBE_MILLIS} ms, until the prober finds it enabled or an operator enables it through
 * the activation ({@link #enabled()}). Thread safe.
 */
final class DisabledQueue {

    /** How often the prober looks at a disabled queue again. */
    static final long PROBE_MILLIS = 2_000;

    private final Object lock = new Object();
    private Instant since;
    private String prober;
    /** When it was last found or made enabled ({@link System#nanoTime()}), null before. */
    private Long enabledAt;

    /**
     * A reader found the queue disabled, in a look (a connect, a turn) that began at {@code lookedAt}. A look that
     * began before the queue was last found or made enabled ({@link #enabled()}) is older than that news: it changes
     * nothing, so that a reader whose RECEIVE failed while an operator enabled the queue does not park the others
     * again.
     *
     * @param lookedAt when the look began, {@link System#nanoTime()}
     * @return true for the first reader of this episode (it reports it)
     */
    boolean found(long lookedAt) {
        synchronized (lock) {
            if (since != null || (enabledAt != null && lookedAt - enabledAt < 0)) {
                return false;
            }
            since = Instant.now();
            return true;
        }
    }

    /** Returns since when the queue has been found disabled, or null while it is not. */
    Instant since() {
        synchronized (lock) {
            return since;
        }
    }

    /**
     * Parks a reader that found the queue disabled: the prober returns after {@code probeMillis} to look again (it
     * reconnects, and fails again while the queue stays disabled); the others return once it is enabled or they stop.
     *
     * @param reader the reader's name
     * @param stopped whether the reader stops
     * @param probeMillis how long the prober waits before it looks again
     */
    void park(String reader, BooleanSupplier stopped, long probeMillis) {
        synchronized (lock) {
            try {
                while (since != null && !stopped.getAsBoolean()) {
                    if (prober == null || prober.equals(reader)) {
                        prober = reader;
                        lock.wait(probeMillis);
                        return;
                    }
                    lock.wait(1_000); // looks at stopped, and at a prober that left
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The queue is enabled (the prober found it so, or an operator enabled it): parked readers go on at once.
     *
     * @return since when it had been disabled, or null if it was not
     */
    Instant enabled() {
        synchronized (lock) {
            Instant was = since;
            since = null;
            prober = null;
            enabledAt = System.nanoTime();
            lock.notifyAll();
            return was;
        }
    }

    /** Wakes the parked readers to look at whether they stop (the queue stays disabled). */
    void wakeAll() {
        synchronized (lock) {
            lock.notifyAll();
        }
    }

    /** A reader stops: if it was the prober, another parked reader takes its place. */
    void left(String reader) {
        synchronized (lock) {
            if (reader.equals(prober)) {
                prober = null;
                lock.notifyAll();
            }
        }
    }
}
