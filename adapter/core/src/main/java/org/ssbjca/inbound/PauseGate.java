package org.ssbjca.inbound;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * An operator's pause of an activation: while closed, readers park before their next RECEIVE (deliveries in flight
 * finish first), and {@link #parked()} counts them, so that "every reader parked" means nothing is in flight.
 */
final class PauseGate {

    private final Object lock = new Object();
    private final AtomicInteger parked = new AtomicInteger();
    private volatile boolean closed;

    /** Readers park at their next turn. */
    void close() {
        closed = true;
    }

    /** Lets parked readers go on. */
    void open() {
        closed = false;
        wakeAll();
    }

    boolean isClosed() {
        return closed;
    }

    int parked() {
        return parked.get();
    }

    /**
     * Parks the calling reader while the gate is closed.
     *
     * @param stopping whether the reader is stopping (then it returns at once)
     * @return false if the reader is stopping
     * @throws InterruptedException if interrupted while parked
     */
    boolean awaitOpen(BooleanSupplier stopping) throws InterruptedException {
        if (!closed) {
            return !stopping.getAsBoolean(); // every turn of every reader passes here: no lock while it is open
        }
        synchronized (lock) {
            if (closed && !stopping.getAsBoolean()) {
                parked.incrementAndGet();
                try {
                    while (closed && !stopping.getAsBoolean()) {
                        lock.wait(1000);
                    }
                } finally {
                    parked.decrementAndGet();
                }
            }
        }
        return !stopping.getAsBoolean();
    }

    /** Wakes parked readers to look at the gate (and at whether they stop) again. */
    void wakeAll() {
        synchronized (lock) {
            lock.notifyAll();
        }
    }
}
